/*
 * candidates_test.c
 *	  Answers as page records (src/column/answer.c, candidates.c): built
 *	  from a row bitmap over a column with loaded and delta rows, on 1 to 8
 *	  threads, listing every candidate or counting those that need no
 *	  reading, from the bitmap's nonzero words alone, and from TID lists;
 *	  decoded and compared with the candidates computed directly from the
 *	  rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "column/answer.h"
#include "column/counting_rows.h"
#include "tap.h"

/* (TID << 1 | uncertain), the order an answer must list candidates in */
static int
compare_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/*
 * The column's rows that are not superseded, as keys in TID order: what a
 * GL_PAGE_EVERY_ROW record stands for, page by page.
 */
static uint64_t *
latest_keys(const GlColumn *col, uint64_t *n)
{
	uint64_t   *keys = malloc((col->nrows + 1) * sizeof(uint64_t));

	*n = 0;
	for (uint64_t r = 0; r < col->nrows; r++)
	{
		if (!gl_bitmap_test(col->superseded, r))
			keys[(*n)++] = gl_column_tid(col, r) << 1 | (gl_bitmap_test(col->known_live, r) ? 0 : 1);
	}
	qsort(keys, *n, sizeof(uint64_t), compare_u64);
	return keys;
}

/* Append the keys of a page's every row (from latest_keys). */
static int
every_row_keys(const uint64_t *latest, uint64_t nlatest, uint32_t block,
			   uint64_t *keys, uint64_t *n, int *nuncertain)
{
	uint64_t	lo = 0;
	uint64_t	hi = nlatest;
	int			count = 0;

	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (gl_tid_block(latest[mid] >> 1) < block)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nlatest && gl_tid_block(latest[lo] >> 1) == block; lo++, count++)
	{
		keys[(*n)++] = latest[lo];
		*nuncertain += (int) (latest[lo] & 1);
	}
	return count;
}

static bool decode_with(const GlAnswer *answer, const uint64_t *latest,
						uint64_t nlatest, uint64_t *keys, uint64_t *n,
						bool *saw_list, bool *saw_bitmap, bool *saw_every);

/*
 * Decode an answer into keys; false (with a message) if a record is out
 * of order or its header disagrees with its offsets.
 */
static bool
decode(const GlAnswer *answer, const GlColumn *col, uint64_t *keys,
	   uint64_t *n, bool *saw_list, bool *saw_bitmap, bool *saw_every)
{
	uint64_t	nlatest = 0;
	uint64_t   *latest = col ? latest_keys(col, &nlatest) : NULL;
	bool		ok = decode_with(answer, latest, nlatest, keys, n, saw_list,
								 saw_bitmap, saw_every);

	free(latest);
	return ok;
}

static bool
decode_with(const GlAnswer *answer, const uint64_t *latest, uint64_t nlatest,
			uint64_t *keys, uint64_t *n, bool *saw_list, bool *saw_bitmap,
			bool *saw_every)
{
	uint16_t	offsets[GL_PAGE_MAX_CANDIDATES];
	int64_t		last_block = -1;
	size_t		bytes = 0;
	uint64_t	npages = 0;

	*n = 0;
	for (int p = 0; p < answer->nparts; p++)
	{
		const GlAnswerBuffer *part = &answer->parts[p];
		const char *end = part->data + part->len;

		for (const GlCandidatePage *page = (const GlCandidatePage *) part->data;
			 (const char *) page < end; page = gl_candidate_page_next(page))
		{
			int			count;
			int			nuncertain = 0;

			if (page->flags & GL_PAGE_EVERY_ROW)
			{
				count = every_row_keys(latest, nlatest, page->block, keys, n,
									   &nuncertain);
				if ((int64_t) page->block <= last_block ||
					count != page->ncandidates || nuncertain != page->nuncertain)
				{
					tap_ok(false, "every-row page %u: %d rows, %d uncertain; header %u, %u",
						   page->block, count, nuncertain, page->ncandidates,
						   page->nuncertain);
					return false;
				}
				*saw_every = true;
				last_block = page->block;
				bytes += gl_candidate_page_size(page);
				npages++;
				continue;
			}
			count = gl_candidate_page_offsets(page, offsets);
			if ((int64_t) page->block <= last_block || count != page->ncandidates ||
				count == 0)
			{
				tap_ok(false, "page %u after %lld: %d offsets, header says %u",
					   page->block, (long long) last_block, count, page->ncandidates);
				return false;
			}
			for (int i = 0; i < count; i++)
			{
				if (i > 0 && (offsets[i] & GL_OFFSET_MASK) <= (offsets[i - 1] & GL_OFFSET_MASK))
				{
					tap_ok(false, "offsets of page %u out of order", page->block);
					return false;
				}
				nuncertain += (offsets[i] & GL_OFFSET_UNCERTAIN) != 0;
				keys[(*n)++] = gl_tid_make(page->block, offsets[i] & GL_OFFSET_MASK) << 1 |
					((offsets[i] & GL_OFFSET_UNCERTAIN) ? 1 : 0);
			}
			if (nuncertain != page->nuncertain)
			{
				tap_ok(false, "page %u: %d uncertain, header says %u",
					   page->block, nuncertain, page->nuncertain);
				return false;
			}
			*saw_list |= page->bitmap_words == 0;
			*saw_bitmap |= page->bitmap_words != 0;
			last_block = page->block;
			bytes += gl_candidate_page_size(page);
			npages++;
		}
	}
	return bytes == answer->nbytes && npages == answer->npages &&
		*n == answer->ncandidates;
}

/*
 * A column of nblocks pages: a load of every page but one in 61 (1 row on
 * some, up to 250 on others; one loaded row in uncertain_one_in not known
 * live), then ndeltas delta rows at random TIDs, new or reused.
 */
static void
build_column(GlColumn *col, uint32_t nblocks, int ndeltas, int uncertain_one_in)
{
	gl_column_init(col, 1024, 1024);
	for (uint32_t b = 0; b < nblocks; b++)
	{
		int			rows = (b % 61 == 60) ? 0 : (b % 3 == 0) ? 1 : 1 + rand() % 250;

		for (int o = 1; o <= rows; o++)
			gl_column_append(col, gl_tid_make(b, (uint16_t) o), "v", 1,
							 rand() % uncertain_one_in ? GL_ROW_KNOWN_LIVE : 0);
	}
	for (int i = 0; i < ndeltas; i++)
		gl_column_append(col, gl_tid_make((uint32_t) (rand() % (nblocks + 5)),
										  (uint16_t) (1 + rand() % 291)), "w", 1,
						 rand() % 2 ? GL_ROW_KNOWN_LIVE : 0);
	for (int i = 0; i < ndeltas / 4; i++)
		gl_column_mark_ended(col, gl_tid_make((uint32_t) (rand() % nblocks),
											  (uint16_t) (1 + rand() % 250)));
}

/*
 * Candidates: each row with a chance of density_bp in 10 000, never a
 * superseded one.
 */
static uint64_t *
pick_rows(const GlColumn *col, int density_bp)
{
	uint64_t   *bits = calloc(gl_bitmap_words(col->nrows) + 1, sizeof(uint64_t));

	for (uint64_t r = 0; r < col->nrows; r++)
	{
		if (rand() % 10000 < density_bp && !gl_bitmap_test(col->superseded, r))
			bits[r / 64] |= UINT64_C(1) << (r % 64);
	}
	return bits;
}

static void
test_from_rows(uint32_t nblocks, int ndeltas, int density_pct, int nthreads)
{
	GlColumn	col;
	uint64_t   *bits;
	uint64_t   *want;
	uint64_t   *got;
	uint64_t	nwant = 0;
	uint64_t	ngot = 0;
	GlAnswer	answer;
	bool		saw_list = false;
	bool		saw_bitmap = false;
	bool		saw_every = false;
	bool		ok;

	build_column(&col, nblocks, ndeltas, 7);
	bits = pick_rows(&col, density_pct * 100);
	want = malloc((col.nrows + 1) * sizeof(uint64_t));
	got = malloc((col.nrows + 1) * sizeof(uint64_t));
	for (uint64_t r = 0; r < col.nrows; r++)
	{
		if (gl_bitmap_test(bits, r))
			want[nwant++] = gl_column_tid(&col, r) << 1 |
				(gl_bitmap_test(col.known_live, r) ? 0 : 1);
	}
	qsort(want, nwant, sizeof(uint64_t), compare_u64);

	ok = gl_answer_from_rows(&col, bits, NULL, nthreads, &answer) &&
		decode(&answer, &col, got, &ngot, &saw_list, &saw_bitmap, &saw_every);
	qsort(got, ngot, sizeof(uint64_t), compare_u64);
	tap_ok(ok && ngot == nwant && memcmp(got, want, nwant * sizeof(uint64_t)) == 0,
		   "%u pages, %d delta rows, %d%% set, %d threads: %llu candidates in %llu pages, %zu bytes (%s%s%s)",
		   nblocks, ndeltas, density_pct, nthreads,
		   (unsigned long long) ngot, (unsigned long long) answer.npages,
		   answer.nbytes, saw_list ? "lists " : "", saw_bitmap ? "bitmaps " : "",
		   saw_every ? "every-row pages" : "");
	gl_answer_free(&answer);

	/* the same from the bitmap's nonzero words only */
	{
		uint64_t	nwords = gl_bitmap_words(col.nrows);
		uint32_t   *index = malloc((nwords + 1) * sizeof(uint32_t));
		uint64_t   *words = malloc((nwords + 1) * sizeof(uint64_t));
		uint64_t	nlisted = 0;

		for (uint64_t w = 0; w < nwords; w++)
		{
			if (bits[w] != 0)
			{
				index[nlisted] = (uint32_t) w;
				words[nlisted++] = bits[w];
			}
		}
		saw_every = false;
		ok = gl_answer_from_words(&col, index, words, nlisted, &answer) &&
			decode(&answer, &col, got, &ngot, &saw_list, &saw_bitmap, &saw_every);
		qsort(got, ngot, sizeof(uint64_t), compare_u64);
		tap_ok(ok && !saw_every && ngot == nwant &&
			   memcmp(got, want, nwant * sizeof(uint64_t)) == 0,
			   "  the same from its %llu nonzero words", (unsigned long long) nlisted);
		gl_answer_free(&answer);
		free(index);
		free(words);
	}
	gl_column_free(&col);
	free(bits);
	free(want);
	free(got);
}

/* Does a row outside the sorted prefix, not superseded, lie on block? */
static bool
block_has_delta_row(const GlColumn *col, uint32_t block)
{
	for (uint64_t r = col->sorted_rows; r < col->nrows; r++)
	{
		if (!gl_bitmap_test(col->superseded, r) && gl_tid_block(gl_column_tid(col, r)) == block)
			return true;
	}
	return false;
}

/*
 * The counting arrays (counting_rows.h) of col, checked against the
 * column, and what the device's rule (cuda/counting.cu) counts with them
 * alone among the rows set in bits: a page on an all-visible block, not
 * marked for delta rows, none of its set rows uncertain, counted whole.
 * UINT64_MAX where the arrays are wrong or could not be built.
 */
static uint64_t
count_with_arrays(const GlColumn *col, const uint64_t *bits, const GlVisibleBlocks *visible)
{
	GlCountingRows rows;
	uint64_t	counted = 0;
	bool		ok;

	if (!gl_counting_rows_build(col, &rows))
		return UINT64_MAX;
	ok = rows.nrows == col->nrows && rows.npages == col->pages.npages &&
		rows.page_first_row[rows.npages] == col->pages.indexed_rows;
	for (uint64_t w = 0; ok && w < gl_bitmap_words(col->nrows); w++)
	{
		uint64_t	answerable = gl_column_answerable_word(col, w) &
			gl_bitmap_word_mask(col->nrows, w);

		ok = rows.answerable[w] == answerable &&
			rows.uncertain[w] == (answerable & ~col->known_live[w]);
	}
	for (uint32_t p = 0; ok && p < rows.npages; p++)
		ok = rows.page_first_row[p] == col->pages.first_rows[p] &&
			(rows.page_block[p] == GL_COUNTING_NO_BLOCK) ==
			block_has_delta_row(col, col->pages.blocks[p]) &&
			(rows.page_block[p] == GL_COUNTING_NO_BLOCK ||
			 rows.page_block[p] == col->pages.blocks[p]);
	for (uint32_t p = 0; ok && p < rows.npages; p++)
	{
		uint32_t	block = rows.page_block[p];
		uint64_t	nset = 0;
		bool		certain = true;

		if (block >= visible->nblocks || !gl_bitmap_test(visible->bits, block))
			continue;
		for (uint64_t r = rows.page_first_row[p]; r < rows.page_first_row[p + 1]; r++)
		{
			if (gl_bitmap_test(bits, r) && gl_bitmap_test(rows.answerable, r))
			{
				nset++;
				certain &= !gl_bitmap_test(rows.uncertain, r);
			}
		}
		if (certain)
			counted += nset;
	}
	gl_counting_rows_free(&rows);
	return ok ? counted : UINT64_MAX;
}

/*
 * Counting answers: a candidate is counted, not listed, exactly when its
 * page is all-visible, holds no delta row and no uncertain candidate --
 * dense ones in runs of countable pages on several threads, sparse ones
 * (density_bp a few in 10 000) from set row to set row.  Blocks are drawn
 * all-visible visible_pct times in 100, visible_span consecutive blocks
 * at a time (long runs with their ends anywhere).
 * The page index is built half-way through the load and brought up to
 * date after it, as a column growing at its end would have it.
 */
static void
test_counting(uint32_t nblocks, int ndeltas, int density_bp, int visible_pct,
			  int visible_span, int uncertain_one_in, int nthreads)
{
	GlColumn	col;
	uint64_t   *bits;
	uint64_t   *visible_bits = calloc(nblocks / 64 + 2, sizeof(uint64_t));
	bool	   *countable = calloc(nblocks + 6, sizeof(bool));
	bool	   *uncertain_on = calloc(nblocks + 6, sizeof(bool));
	uint64_t   *want;
	uint64_t   *got;
	uint64_t	nwant = 0;
	uint64_t	ngot = 0;
	uint64_t	want_counted = 0;
	GlVisibleBlocks visible = {visible_bits, nblocks};
	GlAnswer	answer;
	bool		saw_list = false;
	bool		saw_bitmap = false;
	bool		saw_every = false;
	bool		indexed;
	bool		ok;

	build_column(&col, nblocks, ndeltas, uncertain_one_in);
	indexed = gl_column_index_pages(&col) && col.pages.indexed_rows == col.sorted_rows;
	for (uint32_t b = 0; b < nblocks; b += visible_span)
	{
		if (rand() % 100 >= visible_pct)
			continue;
		for (uint32_t v = b; v < b + visible_span && v < nblocks; v++)
			visible_bits[v / 64] |= UINT64_C(1) << (v % 64);
	}
	bits = pick_rows(&col, density_bp);
	want = malloc((col.nrows + 1) * sizeof(uint64_t));
	got = malloc((col.nrows + 1) * sizeof(uint64_t));
	for (uint64_t r = 0; r < col.nrows; r++)
	{
		if (gl_bitmap_test(bits, r) && !gl_bitmap_test(col.known_live, r))
			uncertain_on[gl_tid_block(gl_column_tid(&col, r))] = true;
	}
	for (uint32_t b = 0; b < nblocks; b++)
		countable[b] = gl_bitmap_test(visible_bits, b) && !uncertain_on[b] &&
			!block_has_delta_row(&col, b);
	for (uint64_t r = 0; r < col.nrows; r++)
	{
		if (!gl_bitmap_test(bits, r))
			continue;
		if (countable[gl_tid_block(gl_column_tid(&col, r))])
			want_counted++;
		else
			want[nwant++] = gl_column_tid(&col, r) << 1 |
				(gl_bitmap_test(col.known_live, r) ? 0 : 1);
	}
	qsort(want, nwant, sizeof(uint64_t), compare_u64);

	ok = indexed && gl_answer_from_rows(&col, bits, &visible, nthreads, &answer) &&
		decode(&answer, &col, got, &ngot, &saw_list, &saw_bitmap, &saw_every);
	qsort(got, ngot, sizeof(uint64_t), compare_u64);
	tap_ok(ok && answer.counted == want_counted && ngot == nwant &&
		   memcmp(got, want, nwant * sizeof(uint64_t)) == 0 &&
		   count_with_arrays(&col, bits, &visible) == want_counted,
		   "counting: %u pages (%d%% all-visible, in spans of %d), %d delta rows, %d.%02d%% set, %d threads: %llu counted, %llu listed in %llu pages",
		   nblocks, visible_pct, visible_span, ndeltas, density_bp / 100, density_bp % 100,
		   nthreads,
		   (unsigned long long) answer.counted, (unsigned long long) ngot,
		   (unsigned long long) answer.npages);
	gl_answer_free(&answer);
	gl_column_free(&col);
	free(bits);
	free(visible_bits);
	free(countable);
	free(uncertain_on);
	free(want);
	free(got);
}

/*
 * A sparse count's walk from set row to set row at page boundaries: pages
 * of one to three rows, every page all-visible; set rows that open a
 * page, close one, and stand in neighbouring pages.  Every one is counted.
 */
static void
test_counting_boundaries(void)
{
	GlColumn	col;
	uint32_t	nblocks = 20000;
	uint64_t   *visible_bits = calloc(nblocks / 64 + 1, sizeof(uint64_t));
	GlVisibleBlocks visible = {visible_bits, nblocks};
	uint64_t   *bits;
	uint64_t	nset = 0;
	uint64_t	row = 0;
	GlAnswer	answer;
	bool		ok;

	gl_column_init(&col, 1024, 1024);
	for (uint32_t b = 0; b < nblocks; b++)
	{
		for (int o = 1; o <= 1 + (int) (b % 3); o++)
			gl_column_append(&col, gl_tid_make(b, (uint16_t) o), "v", 1, GL_ROW_KNOWN_LIVE);
		visible_bits[b / 64] |= UINT64_C(1) << (b % 64);
	}
	bits = calloc(gl_bitmap_words(col.nrows) + 1, sizeof(uint64_t));
	for (uint32_t b = 0; b < nblocks; b++)
	{
		int			nrows = 1 + (int) (b % 3);

		/* the first row of every 97th page, the last of every 89th, and
		 * the last and first rows of two neighbours every 1 000 pages */
		if (b % 97 == 0 || b % 1000 == 1)
			bits[row / 64] |= UINT64_C(1) << (row % 64);
		if (b % 89 == 0 || b % 1000 == 0)
			bits[(row + nrows - 1) / 64] |= UINT64_C(1) << ((row + nrows - 1) % 64);
		row += (uint64_t) nrows;
	}
	for (uint64_t w = 0; w < gl_bitmap_words(col.nrows); w++)
		nset += (uint64_t) __builtin_popcountll(bits[w]);
	ok = gl_column_index_pages(&col) &&
		gl_answer_from_rows(&col, bits, &visible, 4, &answer);
	tap_ok(ok && answer.counted == nset && answer.npages == 0,
		   "counting, sparse: rows at page boundaries all counted (%llu of %llu)",
		   (unsigned long long) answer.counted, (unsigned long long) nset);
	gl_answer_free(&answer);
	gl_column_free(&col);
	free(bits);
	free(visible_bits);
}

/* The page index follows a sorted prefix that grows after it was built. */
static void
test_page_index_grows(void)
{
	GlColumn	col;
	bool		ok = true;

	gl_column_init(&col, 16, 16);
	for (uint32_t b = 0; b < 300; b++)
	{
		for (uint16_t o = 1; o <= 3; o++)
			gl_column_append(&col, gl_tid_make(b, o), "v", 1, GL_ROW_KNOWN_LIVE);
		/* index now and then, sometimes in the middle of a page */
		if (b % 97 == 0)
			ok = ok && gl_column_index_pages(&col);
	}
	gl_column_append(&col, gl_tid_make(299, 9), "v", 1, GL_ROW_KNOWN_LIVE);
	gl_column_append(&col, gl_tid_make(10, 9), "w", 1, GL_ROW_KNOWN_LIVE);	/* a delta row */
	ok = ok && gl_column_index_pages(&col) && col.pages.npages == 300 &&
		col.pages.indexed_rows == col.sorted_rows && col.sorted_rows == 901;
	for (uint64_t p = 0; ok && p < col.pages.npages; p++)
		ok = col.pages.blocks[p] == p && col.pages.first_rows[p] == 3 * p;
	tap_ok(ok, "the page index grows with the sorted prefix, one entry per page");
	gl_column_free(&col);
}

static void
test_from_tids(void)
{
	GlTid		tids[] = {gl_tid_make(0, 1), gl_tid_make(0, 7), gl_tid_make(3, 2),
	gl_tid_make(3, 2), gl_tid_make(70000, 291)};
	uint64_t	got[8];
	uint64_t	n = 0;
	GlAnswer	answer;
	bool		saw_list = false;
	bool		saw_bitmap = false;
	bool		saw_every = false;
	bool		ok = gl_answer_from_tids(tids, 5, &answer) &&
		decode(&answer, NULL, got, &n, &saw_list, &saw_bitmap, &saw_every);

	tap_ok(ok && n == 4 && answer.npages == 3 && got[0] == (tids[0] << 1 | 1) &&
		   got[3] == (tids[4] << 1 | 1),
		   "TID list: duplicates dropped, every candidate uncertain");
	gl_answer_free(&answer);
	ok = gl_answer_from_tids(tids, 0, &answer) && answer.nbytes == 0 &&
		answer.ncandidates == 0;
	tap_ok(ok, "an empty TID list is an empty answer");
	gl_answer_free(&answer);
}

/*
 * Counting answers: dense ones (page by page, on threads) from every row
 * set down to 30 %, sparse ones (set row to set row) at a few rows in
 * 10 000, and none.
 */
typedef struct CountingCase
{
	uint32_t	nblocks;
	int			ndeltas;
	int			density_bp;		/* rows set, in 10 000 */
	int			visible_pct;
	int			visible_span;	/* blocks drawn visible or not together */
	int			uncertain_one_in;
	int			nthreads;
} CountingCase;

/* The counting arrays are refused for a column whose page index lags its prefix. */
static void
test_counting_rows_need_index(void)
{
	GlColumn	col;
	GlCountingRows rows;
	bool		refused;

	build_column(&col, 100, 0, 7);
	refused = !gl_counting_rows_build(&col, &rows) && rows.answerable == NULL;
	tap_ok(refused && gl_column_index_pages(&col) && gl_counting_rows_build(&col, &rows),
		   "counting arrays: refused before the page index covers the prefix, built after");
	gl_counting_rows_free(&rows);
	gl_column_free(&col);
}

static const CountingCase counting_cases[] = {
	{1, 0, 10000, 100, 1, 7, 1},
	{5000, 0, 10000, 100, 1, 7, 4},
	{5000, 0, 9900, 90, 1, 5000, 4},
	{5000, 3000, 3000, 50, 1, 7, 1},
	{5000, 3000, 3000, 50, 1, 5000, 3},
	{20000, 20000, 9000, 80, 1, 7, 8},
	{40000, 200, 10000, 100, 1, 100000, 16},
	{20000, 200, 0, 100, 1, 7, 8},
	{20000, 200, 5, 80, 1, 7, 8},
	{40000, 0, 1, 100, 1, 100000, 16},
	{40000, 3000, 8, 50, 1, 40, 4},
	{5000, 3000, 3, 50, 1, 7, 1},
	{1, 0, 1, 100, 1, 7, 1},
	/* long runs of countable pages, cut by invisible spans, delta rows, uncertain rows */
	{40000, 0, 10000, 90, 300, 100000, 4},
	{40000, 300, 5000, 90, 700, 3000, 4},
	{60000, 40, 2000, 95, 129, 100000, 1},
	{60000, 0, 10000, 100, 1, 20000, 2},
};

int
main(void)
{
	srand(7);
	test_from_rows(1, 0, 100, 1);
	test_from_rows(50, 0, 50, 1);
	test_from_rows(5000, 0, 100, 4);
	test_from_rows(5000, 0, 2, 4);
	test_from_rows(5000, 3000, 30, 1);
	test_from_rows(5000, 3000, 30, 8);
	test_from_rows(20000, 20000, 90, 8);
	test_from_rows(20000, 20000, 100, 8);
	test_from_rows(20000, 200, 0, 8);
	test_page_index_grows();
	for (size_t i = 0; i < sizeof(counting_cases) / sizeof(counting_cases[0]); i++)
	{
		const CountingCase *c = &counting_cases[i];

		test_counting(c->nblocks, c->ndeltas, c->density_bp, c->visible_pct,
					  c->visible_span, c->uncertain_one_in, c->nthreads);
	}
	test_counting_boundaries();
	test_counting_rows_need_index();
	test_from_tids();
	return tap_done();
}
