/*-------------------------------------------------------------------------
 *
 * answer.c
 *	  Building the answer to a MATCH request: page records from a row
 *	  bitmap, its nonzero words, or TIDs (see answer.h).
 *
 * From a row bitmap.  The loader's rows of a column, [0, sorted_rows), are
 * in TID order, so walking their set bits meets each page's candidates
 * together and in offset order: the records come out in one pass.  That
 * pass is split among threads at page boundaries (a NOT LIKE answer over
 * 15 M rows is 15 M candidates), each filling its own buffer; the buffers
 * in order are the answer.  Where most rows are set, a thread walks page
 * by page instead, and a page whose every row is set becomes one
 * GL_PAGE_EVERY_ROW record -- unless delta rows also lie on it, which the
 * walk does not see.  The rows appended later (delta rows, in no
 * particular order) are few: their candidates are sorted by TID and merged
 * in, a page holding both kinds getting one record.
 *
 * Counting.  When the asker only counts rows and has told us which heap
 * blocks its visibility map calls all-visible, a page of the sorted prefix
 * whose candidates are all certain, on such a block, with no delta row on
 * it, is not listed at all: its candidates are added to the answer's count
 * (the executor would count them unread anyway, scan/heap_pages.c).  That
 * walk goes through the column's page index in runs of countable pages --
 * consecutive all-visible blocks without delta rows, 64 of them tested
 * with two words of the visibility bits where their blocks follow one
 * another -- popcounting the bitmap over each run's rows at once: a dense
 * answer over 15 M rows of a vacuumed table costs a popcount of its
 * bitmap, not 15 M TID reads and records nor a step per page.  A run
 * holding an uncertain candidate is walked again page by page, each page
 * counted or listed alone; runs are cut at COUNTED_RUN_PAGES pages so
 * that one such candidate costs little.
 * A sparse answer (few nonzero words) instead goes from set row to set row
 * on one thread, finding each one's page by a forward search of the index,
 * so that it costs what the pages holding its candidates cost.
 *
 * Threads run only this file's code: malloc, no PostgreSQL calls.
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "column/answer.h"

/*
 * Candidates per thread below which another thread is not worth starting
 * (one costs tens of microseconds; a thread lists a candidate in a few
 * nanoseconds).
 */
#define CANDIDATES_PER_THREAD	(1 << 17)
#define PAGES_PER_THREAD		(1 << 14)
#define MAX_THREADS				64
/* counting: relative costs (test/bench/answer_bench.c; sparse_for_counting()) */
#define SPARSE_WORD_COST		24
#define INVISIBLE_PAGE_COST		10
/* counting: pages a thread walks one by one, and pages it counts in runs */
#define COUNTED_PAGES_PER_THREAD	(1 << 18)
#define COUNTED_RUN_PAGES		1024

/* --------------------------------------------------- from sorted rows */

typedef struct RowsJob
{
	const GlColumn *col;
	const uint64_t *bits;
	uint64_t	first;			/* rows [first, last), whole pages */
	uint64_t	last;
	const uint32_t *delta_blocks;	/* sorted: pages holding delta rows */
	uint64_t	ndelta_blocks;
	const GlVisibleBlocks *visible; /* counting: all-visible blocks */
	uint64_t	first_page;		/* counting: index pages [first_page, last_page) */
	uint64_t	last_page;
	uint64_t	counted;
	GlAnswerBuffer out;
	bool		ok;
} RowsJob;

static inline uint16_t
marked_offset(const GlColumn *col, uint64_t row)
{
	return gl_tid_offset(gl_column_tid(col, row)) |
		(gl_bitmap_test(col->known_live, row) ? 0 : GL_OFFSET_UNCERTAIN);
}

/* Does a delta row lie on a block in [first, end)? */
static bool
delta_rows_within(const RowsJob *job, uint32_t first, uint64_t end)
{
	uint64_t	i = gl_blocks_lower_bound(job->delta_blocks, job->ndelta_blocks, first);

	return i < job->ndelta_blocks && job->delta_blocks[i] < end;
}

static inline bool
has_delta_rows(const RowsJob *job, uint32_t block)
{
	return delta_rows_within(job, block, (uint64_t) block + 1);
}

/*
 * The record of one page, rows [row, end) of the sorted prefix: a page
 * whose every row is set in one GL_PAGE_EVERY_ROW record.
 */
static void
list_page(RowsJob *job, uint32_t block, uint64_t row, uint64_t end)
{
	const GlColumn *col = job->col;
	uint16_t	offsets[GL_PAGE_MAX_CANDIDATES];
	int			n = 0;
	int			nuncertain = 0;
	bool		every = true;

	for (uint64_t r = row; r < end; r++)
	{
		if (gl_bitmap_test(job->bits, r))
		{
			offsets[n] = marked_offset(col, r);
			nuncertain += (offsets[n++] & GL_OFFSET_UNCERTAIN) != 0;
		}
		else if (!gl_bitmap_test(col->superseded, r))
			every = false;
	}
	if (n > 0 && every && !has_delta_rows(job, block))
		job->ok = gl_answer_add_every_row(&job->out, block, n, nuncertain);
	else if (n > 0)
		job->ok = gl_answer_add_page(&job->out, block, offsets, n);
}

/* Dense: page by page. */
static void
build_pages(RowsJob *job)
{
	const GlColumn *col = job->col;
	uint64_t	row = job->first;

	while (row < job->last && job->ok)
	{
		uint32_t	block = gl_tid_block(gl_column_tid(col, row));
		uint64_t	end = row + 1;

		while (end < job->last && gl_tid_block(gl_column_tid(col, end)) == block)
			end++;
		list_page(job, block, row, end);
		row = end;
	}
}

static inline bool
block_all_visible(const GlVisibleBlocks *visible, uint32_t block)
{
	return block < visible->nblocks && gl_bitmap_test(visible->bits, block);
}

/*
 * Counting: the set rows of [lo, hi), and how many of them are not known
 * live (uncertain).
 */
GL_POPCOUNT_LOOP static void
count_range(const GlColumn *col, const uint64_t *bits, uint64_t lo, uint64_t hi,
			uint64_t *nset, uint64_t *nuncertain)
{
	*nset = 0;
	*nuncertain = 0;
	for (uint64_t w = lo / 64; w * 64 < hi; w++)
	{
		uint64_t	mask = ~UINT64_C(0);
		uint64_t	set;

		if (w * 64 < lo)
			mask &= ~UINT64_C(0) << (lo % 64);
		if ((w + 1) * 64 > hi)
			mask &= (UINT64_C(1) << (hi % 64)) - 1;
		set = bits[w] & mask;
		*nset += (uint64_t) __builtin_popcountll(set);
		*nuncertain += (uint64_t) __builtin_popcountll(set & ~col->known_live[w]);
	}
}

/* Where index page p's rows end. */
static inline uint64_t
page_end(const GlPageIndex *index, uint64_t p)
{
	return p + 1 < index->npages ? index->first_rows[p + 1] : index->indexed_rows;
}

/* Counting, one index page: counted if it can be, else listed. */
static void
count_page(RowsJob *job, uint64_t p)
{
	const GlPageIndex *index = &job->col->pages;
	uint32_t	block = index->blocks[p];
	uint64_t	lo = index->first_rows[p];
	uint64_t	hi = page_end(index, p);
	uint64_t	nset;
	uint64_t	nuncertain;

	count_range(job->col, job->bits, lo, hi, &nset, &nuncertain);
	if (nset == 0)
		return;
	if (nuncertain == 0 && block_all_visible(job->visible, block) &&
		!has_delta_rows(job, block))
		job->counted += nset;
	else
		list_page(job, block, lo, hi);
}

/* Are blocks [first, first + 64) all all-visible? */
static bool
visible_64(const GlVisibleBlocks *visible, uint32_t first)
{
	uint64_t	w = first / 64;
	int			shift = first % 64;
	uint64_t	bits;

	if ((uint64_t) first + 64 > visible->nblocks)
		return false;
	bits = visible->bits[w] >> shift;
	if (shift > 0)
		bits |= visible->bits[w + 1] << (64 - shift);
	return bits == ~UINT64_C(0);
}

/*
 * Counting: the end of the run of countable index pages from p (p itself
 * when it is not countable), at most COUNTED_RUN_PAGES long and not past
 * last.  Where the next 64 pages' blocks follow one another (the index's
 * blocks increase, so the 64th being 63 past the first says so), they are
 * tested at once.
 */
static uint64_t
countable_run_end(const RowsJob *job, uint64_t p, uint64_t last)
{
	const GlPageIndex *index = &job->col->pages;
	uint64_t	q = p;

	if (last > p + COUNTED_RUN_PAGES)
		last = p + COUNTED_RUN_PAGES;
	while (q < last)
	{
		uint32_t	block = index->blocks[q];

		if (q + 64 <= last && index->blocks[q + 63] == block + 63 &&
			visible_64(job->visible, block) &&
			!delta_rows_within(job, block, (uint64_t) block + 64))
			q += 64;
		else if (block_all_visible(job->visible, block) && !has_delta_rows(job, block))
			q++;
		else
			break;
	}
	return q;
}

/*
 * Counting: the job's index pages, runs of countable pages counted at
 * once, the others (and a run holding an uncertain candidate) page by page.
 */
static void *
count_pages(void *arg)
{
	RowsJob    *job = arg;
	const GlPageIndex *index = &job->col->pages;
	uint64_t	p = job->first_page;

	job->ok = true;
	while (p < job->last_page && job->ok)
	{
		uint64_t	end = countable_run_end(job, p, job->last_page);
		uint64_t	nset;
		uint64_t	nuncertain;

		if (end > p)
		{
			count_range(job->col, job->bits, index->first_rows[p], page_end(index, end - 1),
						&nset, &nuncertain);
			if (nuncertain == 0)
			{
				job->counted += nset;
				p = end;
				continue;
			}
		}
		else
			end = p + 1;
		for (; p < end && job->ok; p++)
			count_page(job, p);
	}
	return NULL;
}

/*
 * The index page that holds row, searched forward from page p, which
 * starts at or before it: by leaps that double, then by halving, so that
 * a walk over the pages in order costs the logarithm of each step.
 */
static uint64_t
page_holding(const GlPageIndex *index, uint64_t p, uint64_t row)
{
	uint64_t	step = 1;
	uint64_t	hi = p + 1;

	while (hi < index->npages && index->first_rows[hi] <= row)
	{
		p = hi;
		step *= 2;
		hi = p + step;
	}
	if (hi > index->npages)
		hi = index->npages;
	while (hi - p > 1)			/* first_rows[p] <= row < first_rows[hi] */
	{
		uint64_t	mid = p + (hi - p) / 2;

		if (index->first_rows[mid] <= row)
			p = mid;
		else
			hi = mid;
	}
	return p;
}

/*
 * Counting a sparse answer, on one thread: from each set row to the page
 * that holds it, the zero words between skipped (most words of a
 * selective answer are), so that it costs what its pages cost rather than
 * what the column's pages do.
 */
static void *
count_set_pages(void *arg)
{
	RowsJob    *job = arg;
	const GlPageIndex *index = &job->col->pages;
	uint64_t	nwords = gl_bitmap_words(index->indexed_rows);
	uint64_t	row = 0;
	uint64_t	p = 0;

	job->ok = true;
	while (job->ok && row < index->indexed_rows)
	{
		uint64_t	w = row / 64;
		uint64_t	word = job->bits[w] & (~UINT64_C(0) << (row % 64));

		while (word == 0 && ++w < nwords)
			word = job->bits[w];
		if (word == 0)
			break;
		row = w * 64 + (uint64_t) __builtin_ctzll(word);
		if (row >= index->indexed_rows)
			break;
		p = page_holding(index, p, row);
		count_page(job, p);
		row = page_end(index, p);
	}
	return NULL;
}

/*
 * Is a counting answer sparse enough for count_set_pages?  Its walk costs
 * about SPARSE_WORD_COST word popcounts per nonzero word (the word's page
 * found and counted alone); the walk of every page about one per word
 * where its pages are counted in runs, and INVISIBLE_PAGE_COST more per
 * page of a block not all-visible (walked and listed page by page).  The
 * nonzero words are counted until they pass that budget.
 */
static bool
sparse_for_counting(const GlColumn *col, const uint64_t *bits, uint64_t nvisible)
{
	uint64_t	nwords = gl_bitmap_words(col->pages.indexed_rows);
	uint64_t	budget = (nwords + (col->pages.npages - nvisible) * INVISIBLE_PAGE_COST) /
		SPARSE_WORD_COST;
	uint64_t	nonzero = 0;

	for (uint64_t w = 0; w < nwords; w++)
	{
		if (bits[w] != 0 && ++nonzero >= budget)
			return false;
	}
	return true;
}

/*
 * Candidates of the sorted prefix met in row order, gathered a page at a
 * time into records.
 */
typedef struct PageGatherer
{
	GlAnswerBuffer *out;
	uint32_t	block;
	int			n;
	uint16_t	offsets[GL_PAGE_MAX_CANDIDATES];
} PageGatherer;

/* The set rows of word w of bits within rows [first, last), in order. */
static bool
gather_word(PageGatherer *g, const GlColumn *col, uint64_t w, uint64_t word,
			uint64_t first, uint64_t last)
{
	if (w * 64 < first)
		word &= ~UINT64_C(0) << (first % 64);
	if ((w + 1) * 64 > last)
		word &= (UINT64_C(1) << (last % 64)) - 1;
	while (word != 0)
	{
		uint64_t	row = w * 64 + (uint64_t) __builtin_ctzll(word);
		GlTid		tid = gl_column_tid(col, row);

		word &= word - 1;
		if (g->n > 0 && gl_tid_block(tid) != g->block)
		{
			if (!gl_answer_add_page(g->out, g->block, g->offsets, g->n))
				return false;
			g->n = 0;
		}
		g->block = gl_tid_block(tid);
		g->offsets[g->n++] = marked_offset(col, row);
	}
	return true;
}

static bool
gather_end(PageGatherer *g)
{
	return g->n == 0 || gl_answer_add_page(g->out, g->block, g->offsets, g->n);
}

/* Sparse: set bit by set bit. */
static void
build_candidates(RowsJob *job)
{
	PageGatherer gatherer;

	gatherer.out = &job->out;
	gatherer.n = 0;
	for (uint64_t w = job->first / 64; w * 64 < job->last && job->ok; w++)
		job->ok = gather_word(&gatherer, job->col, w, job->bits[w], job->first,
							  job->last);
	job->ok = job->ok && gather_end(&gatherer);
}

/* Rows [first, last): page by page where most are set, else bit by bit. */
static void *
build_sorted_rows(void *arg)
{
	RowsJob    *job = arg;
	uint64_t	first_word = job->first / 64;
	uint64_t	set;

	job->ok = true;
	set = gl_bitmap_count(job->bits + first_word, gl_bitmap_words(job->last) - first_word);
	if (2 * set > job->last - job->first)
		build_pages(job);
	else
		build_candidates(job);
	return NULL;
}

/* Move a split point forward to the first row of a page. */
static uint64_t
page_start_at_or_after(const GlColumn *col, uint64_t row)
{
	while (row > 0 && row < col->sorted_rows &&
		   gl_tid_block(gl_column_tid(col, row)) ==
		   gl_tid_block(gl_column_tid(col, row - 1)))
		row++;
	return row;
}

/* ---------------------------------------------------- from TID arrays */

/* A candidate as a sortable key: the TID, then the uncertain flag. */
static inline uint64_t
candidate_key(GlTid tid, bool uncertain)
{
	return tid << 1 | (uncertain ? 1 : 0);
}

static int
compare_keys(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* Records for sorted candidate keys. */
static bool
build_from_keys(const uint64_t *keys, uint64_t n, GlAnswerBuffer *out)
{
	uint16_t	offsets[GL_PAGE_MAX_CANDIDATES];
	int			count = 0;
	uint32_t	block = 0;

	for (uint64_t i = 0; i < n; i++)
	{
		GlTid		tid = keys[i] >> 1;

		/* a TID twice (certain sorts first): keep the first */
		if (i > 0 && tid == keys[i - 1] >> 1)
			continue;
		if (count > 0 && gl_tid_block(tid) != block)
		{
			if (!gl_answer_add_page(out, block, offsets, count))
				return false;
			count = 0;
		}
		block = gl_tid_block(tid);
		offsets[count++] = gl_tid_offset(tid) |
			((keys[i] & 1) ? GL_OFFSET_UNCERTAIN : 0);
	}
	return count == 0 || gl_answer_add_page(out, block, offsets, count);
}

/* ---------------------------------------------------------- merging */

/* Walks the records of an answer's parts in order. */
typedef struct PageCursor
{
	const GlAnswer *answer;
	int			part;
	size_t		pos;
} PageCursor;

static const GlCandidatePage *
cursor_page(PageCursor *c)
{
	while (c->part < c->answer->nparts &&
		   c->pos >= c->answer->parts[c->part].len)
	{
		c->part++;
		c->pos = 0;
	}
	if (c->part >= c->answer->nparts)
		return NULL;
	return (const GlCandidatePage *) (c->answer->parts[c->part].data + c->pos);
}

static void
cursor_advance(PageCursor *c)
{
	c->pos += gl_candidate_page_size(cursor_page(c));
}

/*
 * One record for a block present in both: the union of their offsets.
 * Neither is a GL_PAGE_EVERY_ROW record: a page with delta rows never is.
 */
static bool
merge_pages(GlAnswerBuffer *out, const GlCandidatePage *a,
			const GlCandidatePage *b)
{
	uint16_t	x[GL_PAGE_MAX_CANDIDATES];
	uint16_t	y[GL_PAGE_MAX_CANDIDATES];
	uint16_t	merged[GL_PAGE_MAX_CANDIDATES];
	int			nx = gl_candidate_page_offsets(a, x);
	int			ny = gl_candidate_page_offsets(b, y);
	int			i = 0;
	int			j = 0;
	int			n = 0;

	while ((i < nx || j < ny) && n < GL_PAGE_MAX_CANDIDATES)
	{
		if (j >= ny || (i < nx && (x[i] & GL_OFFSET_MASK) < (y[j] & GL_OFFSET_MASK)))
			merged[n++] = x[i++];
		else if (i >= nx || (y[j] & GL_OFFSET_MASK) < (x[i] & GL_OFFSET_MASK))
			merged[n++] = y[j++];
		else
		{
			/* one offset in both (callers avoid it): certain if either is */
			merged[n++] = x[i++] & y[j++];
		}
	}
	return gl_answer_add_page(out, a->block, merged, n);
}

/* a and b merged into a one-part answer replacing a. */
static bool
merge_answers(GlAnswer *a, GlAnswer *b)
{
	GlAnswerBuffer out = {0};
	PageCursor	ca = {a, 0, 0};
	PageCursor	cb = {b, 0, 0};
	uint64_t	counted;
	bool		ok = true;

	for (;;)
	{
		const GlCandidatePage *pa = cursor_page(&ca);
		const GlCandidatePage *pb = cursor_page(&cb);

		if (!ok || (pa == NULL && pb == NULL))
			break;
		if (pb == NULL || (pa != NULL && pa->block < pb->block))
		{
			ok = gl_answer_add_copy(&out, pa);
			cursor_advance(&ca);
		}
		else if (pa == NULL || pb->block < pa->block)
		{
			ok = gl_answer_add_copy(&out, pb);
			cursor_advance(&cb);
		}
		else
		{
			ok = merge_pages(&out, pa, pb);
			cursor_advance(&ca);
			cursor_advance(&cb);
		}
	}
	if (!ok)
	{
		free(out.data);
		return false;
	}
	counted = a->counted;
	gl_answer_free(a);
	a->counted = counted;
	a->parts = malloc(sizeof(GlAnswerBuffer));
	if (a->parts == NULL)
	{
		free(out.data);
		return false;
	}
	a->parts[0] = out;
	a->nparts = 1;
	return true;
}

/* ----------------------------------------------------------- answers */

/* An empty answer of one part; false (answer empty, no parts) out of memory. */
static bool
start_one_part(GlAnswer *answer)
{
	memset(answer, 0, sizeof(*answer));
	answer->parts = calloc(1, sizeof(GlAnswerBuffer));
	if (answer->parts == NULL)
		return false;
	answer->nparts = 1;
	return true;
}

/* The answer's totals from its parts when ok; else it is freed.  Returns ok. */
static bool
finish_answer(GlAnswer *answer, bool ok)
{
	if (!ok)
	{
		gl_answer_free(answer);
		return false;
	}
	answer->npages = 0;
	answer->ncandidates = 0;
	answer->nbytes = 0;
	for (int i = 0; i < answer->nparts; i++)
	{
		answer->npages += answer->parts[i].npages;
		answer->ncandidates += answer->parts[i].ncandidates;
		answer->nbytes += answer->parts[i].len;
	}
	return true;
}

/* Word w of a bitmap, with only its rows past the sorted prefix left. */
static inline uint64_t
delta_part_of_word(const GlColumn *col, uint64_t w, uint64_t word)
{
	if ((w + 1) * 64 <= col->sorted_rows)
		return 0;
	if (w * 64 < col->sorted_rows)
		word &= ~UINT64_C(0) << (col->sorted_rows % 64);
	return word;
}

/*
 * The delta rows' candidates as a one-part answer: the set rows at or
 * past the sorted prefix among nwords words of the bitmap, word i being
 * word index[i] (index NULL: word i).
 */
static bool
answer_delta_rows(const GlColumn *col, const uint32_t *index,
				  const uint64_t *words, uint64_t nwords, GlAnswer *answer)
{
	uint64_t	n = 0;
	uint64_t   *keys;
	bool		ok;

	memset(answer, 0, sizeof(*answer));
	for (uint64_t i = 0; i < nwords; i++)
		n += (uint64_t) __builtin_popcountll(delta_part_of_word(col, index ? index[i] : i,
																words[i]));
	if (n == 0)
		return true;
	keys = malloc(n * sizeof(uint64_t));
	answer->parts = calloc(1, sizeof(GlAnswerBuffer));
	if (keys == NULL || answer->parts == NULL)
	{
		free(keys);
		free(answer->parts);
		answer->parts = NULL;
		return false;
	}
	answer->nparts = 1;
	n = 0;
	for (uint64_t i = 0; i < nwords; i++)
	{
		uint64_t	w = index ? index[i] : i;

		for (uint64_t word = delta_part_of_word(col, w, words[i]); word != 0;
			 word &= word - 1)
		{
			uint64_t	row = w * 64 + (uint64_t) __builtin_ctzll(word);

			keys[n++] = candidate_key(gl_column_tid(col, row),
									  !gl_bitmap_test(col->known_live, row));
		}
	}
	qsort(keys, n, sizeof(uint64_t), compare_keys);
	ok = build_from_keys(keys, n, &answer->parts[0]);
	free(keys);
	return ok;
}

/* An answer of the sorted prefix's part and the delta rows' part. */
static bool
add_delta_rows(const GlColumn *col, const uint32_t *index, const uint64_t *words,
			   uint64_t nwords, GlAnswer *answer)
{
	GlAnswer	delta;
	bool		ok = true;

	if (col->nrows > col->sorted_rows)
	{
		ok = answer_delta_rows(col, index, words, nwords, &delta);
		if (ok && delta.nparts > 0)
			ok = merge_answers(answer, &delta);
		gl_answer_free(&delta);
	}
	return ok;
}

/*
 * Counting: about how many index pages lie on all-visible blocks (at most
 * the pages; the index may lack some of the blocks).
 */
static uint64_t
visible_pages(const GlColumn *col, const GlVisibleBlocks *visible)
{
	uint64_t	n = gl_bitmap_count(visible->bits, gl_bitmap_words(visible->nblocks));

	return n < col->pages.npages ? n : col->pages.npages;
}

/*
 * Split the rows (listing) or the index pages (counting; nvisible of them
 * on all-visible blocks) among njobs.
 */
static int
plan_jobs(const GlColumn *col, const uint64_t *bits, const GlVisibleBlocks *visible,
		  uint64_t nvisible, int nthreads, RowsJob *jobs)
{
	uint64_t	sorted = col->sorted_rows;
	uint64_t	npages = col->pages.npages;
	uint64_t	units;
	int			njobs = nthreads < 1 ? 1 : nthreads > MAX_THREADS ? MAX_THREADS : nthreads;

	if (visible != NULL)		/* pages of invisible blocks are walked one by one */
		units = (npages - nvisible) / PAGES_PER_THREAD + npages / COUNTED_PAGES_PER_THREAD + 1;
	else
	{
		uint64_t	ncandidates = gl_bitmap_count(bits, gl_bitmap_words(sorted));

		units = ncandidates / CANDIDATES_PER_THREAD + 1;
	}
	if ((uint64_t) njobs > units)
		njobs = (int) units;

	for (int i = 0; i < njobs; i++)
	{
		RowsJob    *job = &jobs[i];

		memset(job, 0, sizeof(RowsJob));
		job->col = col;
		job->bits = bits;
		job->visible = visible;
		if (visible != NULL)
		{
			job->first_page = npages * i / njobs;
			job->last_page = npages * (i + 1) / njobs;
			continue;
		}
		job->first = i == 0 ? 0 : jobs[i - 1].last;
		job->last = i == njobs - 1 ? sorted :
			page_start_at_or_after(col, sorted * (i + 1) / njobs);
		if (job->last < job->first)
			job->last = job->first;
	}
	return njobs;
}

bool
gl_answer_from_rows(const GlColumn *col, const uint64_t *bits,
					const GlVisibleBlocks *visible, int nthreads,
					GlAnswer *answer)
{
	RowsJob		jobs[MAX_THREADS];
	pthread_t	threads[MAX_THREADS];
	bool		started[MAX_THREADS] = {false};
	void	   *(*work) (void *) = visible != NULL ? count_pages : build_sorted_rows;
	uint64_t	nvisible = 0;
	uint64_t	ndelta_blocks = 0;
	uint32_t   *blocks_with_deltas = gl_column_delta_blocks(col, &ndelta_blocks);
	int			njobs;
	bool		ok = true;

	memset(answer, 0, sizeof(*answer));
	if (blocks_with_deltas == NULL)
		return false;
	if (visible != NULL)
		nvisible = visible_pages(col, visible);
	if (visible != NULL && sparse_for_counting(col, bits, nvisible))
	{
		work = count_set_pages;
		nthreads = 1;
	}
	njobs = plan_jobs(col, bits, visible, nvisible, nthreads, jobs);
	for (int i = 0; i < njobs; i++)
	{
		jobs[i].delta_blocks = blocks_with_deltas;
		jobs[i].ndelta_blocks = ndelta_blocks;
	}

	/* the calling thread does the first job; a thread that fails to start is done here too */
	for (int i = 1; i < njobs; i++)
		started[i] = pthread_create(&threads[i], NULL, work, &jobs[i]) == 0;
	work(&jobs[0]);
	for (int i = 1; i < njobs; i++)
	{
		if (started[i])
			pthread_join(threads[i], NULL);
		else
			work(&jobs[i]);
	}

	answer->parts = calloc(njobs, sizeof(GlAnswerBuffer));
	if (answer->parts != NULL)
		answer->nparts = njobs;
	for (int i = 0; i < njobs; i++)
	{
		ok = ok && jobs[i].ok && answer->parts != NULL;
		answer->counted += jobs[i].counted;
		if (answer->parts != NULL)
			answer->parts[i] = jobs[i].out;
		else
			free(jobs[i].out.data);
	}

	free(blocks_with_deltas);
	ok = ok && add_delta_rows(col, NULL, bits, gl_bitmap_words(col->nrows), answer);
	return finish_answer(answer, ok);
}

bool
gl_answer_from_words(const GlColumn *col, const uint32_t *index,
					 const uint64_t *words, uint64_t nwords, GlAnswer *answer)
{
	PageGatherer *gatherer;
	bool		ok;

	if (!start_one_part(answer))
		return false;
	gatherer = malloc(sizeof(PageGatherer));
	if (gatherer == NULL)
		return finish_answer(answer, false);
	gatherer->out = &answer->parts[0];
	gatherer->n = 0;
	ok = true;
	for (uint64_t i = 0; i < nwords && ok && index[i] * UINT64_C(64) < col->sorted_rows; i++)
		ok = gather_word(gatherer, col, index[i], words[i], 0, col->sorted_rows);
	ok = ok && gather_end(gatherer) &&
		add_delta_rows(col, index, words, nwords, answer);
	free(gatherer);
	return finish_answer(answer, ok);
}

bool
gl_answer_from_tids(const GlTid *tids, uint64_t ntids, GlAnswer *answer)
{
	uint64_t   *keys;
	bool		ok;

	if (!start_one_part(answer))
		return false;
	keys = malloc((ntids > 0 ? ntids : 1) * sizeof(uint64_t));
	if (keys == NULL)
		return finish_answer(answer, false);
	for (uint64_t i = 0; i < ntids; i++)
		keys[i] = candidate_key(tids[i], true);
	ok = build_from_keys(keys, ntids, &answer->parts[0]);
	free(keys);
	return finish_answer(answer, ok);
}

void
gl_answer_free(GlAnswer *answer)
{
	for (int i = 0; i < answer->nparts; i++)
		free(answer->parts[i].data);
	free(answer->parts);
	memset(answer, 0, sizeof(*answer));
}
