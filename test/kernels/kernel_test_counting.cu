/*-------------------------------------------------------------------------
 *
 * kernel_test_counting.cu
 *	  kernel_test's cases of counting on the device (cuda/counting.cu):
 *	  a match's count and the rows left to list, against the rule of a
 *	  counting answer on the host (column/answer.c), over a column whose
 *	  pages hold from one row to a few hundred, with NULLs, uncertain
 *	  rows, superseded rows and delta rows on old and new blocks.
 *
 *-------------------------------------------------------------------------
 */
#include "kernel_test.h"

extern "C"
{
#include "column/answer.h"
}

/*
 * A column of pages of 1-3 or 20-290 rows, blocks skipped now and then;
 * then changes as the delta log brings them: rows ended, rows updated in
 * place (superseded by a version at the same TID), and rows inserted
 * into old blocks and past the last one.
 */
static void
build_paged(GlColumn *col, uint32_t npages)
{
	uint32_t	block = 0;
	uint32_t	last_block = 0;
	std::vector<GlTid> tids;

	gl_column_init(col, npages * 60, npages * 60 * 30);
	for (uint32_t p = 0; p < npages; p++)
	{
		uint32_t	rows = rnd(3) == 0 ? 1 + rnd(3) : 20 + rnd(271);

		block += 1 + (rnd(10) == 0 ? rnd(70) : 0);
		for (uint32_t k = 0; k < rows; k++)
		{
			GlTid		tid = gl_tid_make(block, (uint16_t) (k + 1));
			std::string value = random_text(rnd(30), false);
			uint32_t	flags = (rnd(25) == 0 ? GL_ROW_IS_NULL : 0) |
				(rnd(40) == 0 ? 0 : GL_ROW_KNOWN_LIVE);

			if (!gl_column_append(col, tid, value.data(), (uint32_t) value.size(), flags))
			{
				printf("Bail out! out of memory building a column\n");
				exit(2);
			}
			tids.push_back(tid);
		}
		last_block = block;
	}
	for (uint32_t i = 0; i < npages / 4; i++)
		gl_column_mark_ended(col, tids[rnd((uint32_t) tids.size())]);
	for (uint32_t i = 0; i < npages / 4; i++)
	{
		bool		in_place = rnd(2) == 0;
		GlTid		tid = in_place ? tids[rnd((uint32_t) tids.size())] :
			gl_tid_make(rnd(2) ? gl_tid_block(tids[rnd((uint32_t) tids.size())]) :
						last_block + 1 + rnd(5), (uint16_t) (300 + i % 7));
		std::string value = random_text(rnd(30), false);

		(void) gl_column_append(col, tid, value.data(), (uint32_t) value.size(),
								rnd(3) == 0 ? GL_ROW_KNOWN_LIVE : 0);
	}
	(void) gl_column_index_pages(col);
}

/* Blocks [0, nblocks), all-visible in spans: visible_pct times in 100. */
static std::vector<uint64_t>
random_visible(uint32_t nblocks, int visible_pct)
{
	std::vector<uint64_t> bits(gl_bitmap_words(nblocks) + 1, 0);
	uint32_t	span = 1 + rnd(100);

	for (uint32_t b = 0; b < nblocks; b += span)
		if ((int) rnd(100) < visible_pct)
			for (uint32_t v = b; v < b + span && v < nblocks; v++)
				bits[v / 64] |= 1ULL << (v % 64);
	return bits;
}

/*
 * The rule of a counting answer, written out: an index page on an
 * all-visible block, no delta row on it, none of its set rows uncertain,
 * has its set rows counted and cleared from bits.
 */
static uint64_t
count_by_rule(const GlColumn *col, const GlVisibleBlocks *visible, std::vector<uint64_t> &bits)
{
	uint64_t	ndelta = 0;
	uint32_t   *delta = gl_column_delta_blocks(col, &ndelta);
	uint64_t	counted = 0;

	for (uint64_t p = 0; p < col->pages.npages; p++)
	{
		uint32_t	block = col->pages.blocks[p];
		uint64_t	lo = col->pages.first_rows[p];
		uint64_t	hi = p + 1 < col->pages.npages ? col->pages.first_rows[p + 1] :
			col->pages.indexed_rows;
		uint64_t	nset = 0;
		bool		certain = true;

		if (block >= visible->nblocks || !gl_bitmap_test(visible->bits, block) ||
			std::binary_search(delta, delta + ndelta, block))
			continue;
		for (uint64_t r = lo; r < hi; r++)
			if (gl_bitmap_test(bits.data(), r))
			{
				nset++;
				certain &= gl_bitmap_test(col->known_live, r);
			}
		if (nset == 0 || !certain)
			continue;
		for (uint64_t r = lo; r < hi; r++)
			bits[r / 64] &= ~(1ULL << (r % 64));
		counted += nset;
	}
	free(delta);
	return counted;
}

/*
 * One counting match against the rule: capacity for every word left
 * (listed), for one fewer (the whole bitmap instead), or none.
 */
static void
compare_counting(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
				 bool negate, int visible_pct, const std::string &what)
{
	size_t		nwords = gl_bitmap_words(col->nrows);
	std::vector<uint64_t> want(nwords + 1, 0);
	std::vector<uint64_t> visible_bits;
	uint32_t	nblocks = col->pages.npages > 0 ?
		col->pages.blocks[col->pages.npages - 1] + 1 - rnd(3) : 0;
	GlVisibleBlocks visible;
	GlCudaCount count;
	GlAnswer	answer;
	uint64_t	want_counted;
	uint64_t	left = 0;

	visible_bits = random_visible(nblocks, visible_pct);
	visible = {visible_bits.data(), nblocks};
	count = {visible, negate};
	gl_cpu_match_column(prog, col, want.data(), 2);
	for (size_t w = 0; w < nwords; w++)
		want[w] = (negate ? ~want[w] : want[w]) & gl_column_answerable_word(col, w) &
			gl_bitmap_word_mask(col->nrows, w);

	/* the rule written out is the host's: its count is the same */
	{
		std::vector<uint64_t> rows = want;

		if (!gl_answer_from_rows(col, rows.data(), &visible, 2, &answer))
		{
			tap(false, what + ": the host's answer ran out of memory");
			return;
		}
	}
	want_counted = count_by_rule(col, &visible, want);
	if (answer.counted != want_counted)
	{
		tap(false, what + ": the host counts " + std::to_string(answer.counted) +
			", the rule " + std::to_string(want_counted));
		gl_answer_free(&answer);
		return;
	}
	gl_answer_free(&answer);
	for (size_t w = 0; w < nwords; w++)
		left += want[w] != 0;

	for (uint64_t capacity : {left + 1, left > 1 ? left - 1 : 0, (uint64_t) 0})
	{
		std::vector<uint64_t> bits(nwords + 1, 0);
		std::vector<uint32_t> index(capacity + 1);
		std::vector<uint64_t> words(capacity + 1);
		GlCudaResult result = {bits.data(), capacity, index.data(), words.data()};
		char		err[256] = "";
		double		ms;
		std::string how = what + (capacity > left ? ", listed" : ", as a bitmap");

		result.count = &count;
		if (!gl_cuda_match(dcol, prog, false, (int) rnd(GL_CUDA_LANES), -1, &result, &ms, err,
						   sizeof(err)))
		{
			tap(false, how + ": gl_cuda_match failed: " + err);
			return;
		}
		if (result.listed)
		{
			std::fill(bits.begin(), bits.end(), 0);
			for (uint64_t j = 0; j < result.nwords; j++)
				bits[index[j]] = words[j];
		}
		if (result.listed != (capacity > left))
		{
			tap(false, how + ": listed where it should not be, or not where it should");
			return;
		}
		if (result.counted != want_counted || bits != want)
		{
			tap(false, how + ": counted " + std::to_string(result.counted) + ", want " +
				std::to_string(want_counted) + (bits != want ? "; rows left differ" : ""));
			return;
		}
	}
	tap(true, what + " (" + std::to_string(want_counted) + " counted, " +
		std::to_string(left) + " words left)");
}

void
run_counting_cases(void)
{
	static const char *const patterns[] = {"%", "%a%", "%ab%", "%zq%", "a%", "%e%e%"};
	GlColumn	col;
	GlCountingRows rows;
	GlDeviceColumn *dcol;
	char		err[256] = "";

	build_paged(&col, 3000);
	dcol = upload(&col, "paged, for counting");
	if (dcol == NULL)
	{
		gl_column_free(&col);
		return;
	}
	tap(!gl_cuda_can_count(dcol), "counting: a new device column cannot count");
	if (!gl_counting_rows_build(&col, &rows))
	{
		tap(false, "counting: the counting arrays could not be built");
		return;
	}
	tap(gl_cuda_set_counting(dcol, &rows, err, sizeof(err)) && gl_cuda_can_count(dcol),
		std::string("counting: arrays set ") + err);
	for (const char *pattern : patterns)
	{
		const char *error;
		GlProgram  *prog = gl_build_like(pattern, strlen(pattern), false, NULL, NULL, &error);

		for (int visible_pct : {0, 60, 100})
			for (bool negate : {false, true})
				compare_counting(dcol, &col, prog, negate, visible_pct,
								 std::string("counting ") + (negate ? "NOT " : "") + "'" +
								 pattern + "', " + std::to_string(visible_pct) +
								 "% all-visible");
		free(prog);
	}

	/* rows appended: the arrays no longer describe the column */
	append_row(&col, "appended", false);
	(void) gl_column_index_pages(&col);
	if (!gl_cuda_append(dcol, &col, col.nrows - 1, err, sizeof(err)))
		tap(false, std::string("counting: append: ") + err);
	else
	{
		std::vector<uint64_t> bits(gl_bitmap_words(col.nrows) + 1, 0);
		uint64_t	visible_word = ~0ULL;
		GlCudaCount count = {{&visible_word, 64}, false};
		GlCudaResult result = {bits.data()};
		const char *error;
		GlProgram  *prog = gl_build_like("%", 1, false, NULL, NULL, &error);
		double		ms;

		result.count = &count;
		tap(!gl_cuda_can_count(dcol) &&
			!gl_cuda_match(dcol, prog, false, 0, -1, &result, &ms, err, sizeof(err)),
			"counting: refused once rows were appended after the arrays were set");
		free(prog);
	}
	gl_counting_rows_free(&rows);
	gl_cuda_free(dcol);

	/* a column in parts does not count */
	dcol = upload(&col, "paged, in 2 parts", 2);
	if (dcol != NULL)
	{
		tap(gl_counting_rows_build(&col, &rows) &&
			!gl_cuda_set_counting(dcol, &rows, err, sizeof(err)) && !gl_cuda_can_count(dcol),
			"counting: a column in parts is refused");
		gl_counting_rows_free(&rows);
		gl_cuda_free(dcol);
	}
	gl_column_free(&col);
}
