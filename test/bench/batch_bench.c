/*-------------------------------------------------------------------------
 *
 * batch_bench.c
 *	  What matching a batch of searches in one pass over a column saves
 *	  on the CPU engine (gl_cpu_match_column_batch, cpu_engine.c), against
 *	  one pass per search.
 *
 *	  make -C test/unit bench        (binary: test/unit/build/batch_bench)
 *	  batch_bench [rows] [threads]   (default 2 000 000 rows, 2 threads)
 *
 * The column is TPC-H comment text (tpch_text.c's grammar pool, 19 to 78
 * bytes a row, as o_comment); the searches are ILIKE '%term%' with terms
 * of 10 to 15 bytes cut from the column's own rows, as a search box sends
 * them and test/bench/throughput draws them.  For batches of 1, 2, 4, 8
 * and 16 searches it prints the best of five runs of both ways, in
 * milliseconds a search, and checks that both gave the same bitmaps;
 * then one pass of an Aho-Corasick automaton of all the batch's terms
 * (the rows holding any of them: a lower bound on what one shared scan
 * of the literals would cost).
 * Last, a term in no row, before and after the column's byte-pair
 * summary (chunk_pairs.h) is built.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "engine/cpu_engine.h"
#include "program/like_build.h"
#include "program/multi_build.h"
#include "tpch_text.h"

#define MAX_BATCH	16
#define RUNS		5

/* The searches' terms, for the automaton of them all. */
static char terms[MAX_BATCH][32];
static size_t term_lens[MAX_BATCH];
static int	nterms;

/* ILIKE '%term%' for a term of 10-15 bytes of row `row` (lowered: ILIKE's pattern is) */
static GlProgram *
search_of_row(const GlColumn *col, uint64_t row, RowRandom *r)
{
	uint32_t	len;
	const char *value = gl_column_value(col, row, &len);
	char		pattern[32];
	int			n = (int) row_random_range(r, 10, 15);
	int			at;
	const char *error;

	if (len < (uint32_t) n)
		n = (int) len;
	at = (int) row_random_range(r, 0, len - n);
	pattern[0] = '%';
	for (int i = 0; i < n; i++)
	{
		char		c = value[at + i];

		/* a term holds no LIKE wildcard or escape */
		pattern[1 + i] = (c == '%' || c == '_' || c == '\\') ? ' ' :
			(c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
	}
	pattern[1 + n] = '%';
	memcpy(terms[nterms], pattern + 1, n);
	term_lens[nterms++] = n;
	return gl_build_like(pattern, n + 2, true, gl_ascii_case_class, NULL, &error);
}

int
main(int argc, char **argv)
{
	static const int sizes[] = {1, 2, 4, 8, 16};
	uint64_t	nrows = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
	int			nthreads = argc > 2 ? atoi(argv[2]) : 2;
	uint64_t	nwords = gl_bitmap_words(nrows);
	GlProgram  *progs[MAX_BATCH];
	uint64_t   *alone[MAX_BATCH];
	uint64_t   *batched[MAX_BATCH];
	bool		prepared[MAX_BATCH];
	GlColumn	col;
	RowRandom	r;
	char		value[80];
	int			failures = 0;

	text_pool_build(8 << 20);
	gl_column_init(&col, nrows, nrows * 50);
	for (uint64_t i = 0; i < nrows; i++)
	{
		int			len;

		row_random_seed(&r, 7, i);
		len = text_pool_substring(&r, 19, 78, value);
		gl_column_append(&col, gl_tid_make((uint32_t) (i / 60), (uint16_t) (i % 60 + 1)),
						 value, (uint32_t) len, GL_ROW_KNOWN_LIVE);
	}
	row_random_seed(&r, 11, 0);
	for (int p = 0; p < MAX_BATCH; p++)
	{
		progs[p] = search_of_row(&col, (uint64_t) row_random_range(&r, 0, nrows - 1), &r);
		alone[p] = malloc(nwords * sizeof(uint64_t));
		batched[p] = malloc(nwords * sizeof(uint64_t));
		if (progs[p] == NULL || alone[p] == NULL || batched[p] == NULL)
		{
			fprintf(stderr, "batch_bench: out of memory\n");
			return 1;
		}
	}
	printf("%llu rows of comment text, %llu MB; %d threads; best of %d runs, ms a search\n",
		   (unsigned long long) nrows, (unsigned long long) (col.nbytes >> 20), nthreads, RUNS);
	printf("%8s %14s %14s %10s\n", "searches", "a pass each", "one pass", "ratio");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	{
		int			n = sizes[s];
		double		best_alone = 1e9;
		double		best_batched = 1e9;

		for (int run = 0; run < RUNS; run++)
		{
			double		start = now_ms();

			for (int p = 0; p < n; p++)
				gl_cpu_match_column(progs[p], &col, alone[p], nthreads);
			if (now_ms() - start < best_alone)
				best_alone = now_ms() - start;
			start = now_ms();
			gl_cpu_match_column_batch((const GlProgram *const *) progs, batched, NULL, n,
									  &col, nthreads, prepared);
			if (now_ms() - start < best_batched)
				best_batched = now_ms() - start;
		}
		for (int p = 0; p < n; p++)
			if (!prepared[p] || memcmp(alone[p], batched[p], nwords * sizeof(uint64_t)) != 0)
				failures++;
		printf("%8d %14.2f %14.2f %9.2fx\n", n, best_alone / n, best_batched / n,
			   best_alone / best_batched);
		{
			const char *ptrs[MAX_BATCH];
			const char *error;
			GlProgram  *any;
			double		best_any = 1e9;

			for (int p = 0; p < n; p++)
				ptrs[p] = terms[p];
			any = gl_build_multi(ptrs, term_lens, n, true, true, &error);
			if (any == NULL)
			{
				fprintf(stderr, "batch_bench: %s\n", error);
				return 1;
			}
			for (int run = 0; run < RUNS; run++)
			{
				double		start = now_ms();

				gl_cpu_match_column(any, &col, batched[0], nthreads);
				if (now_ms() - start < best_any)
					best_any = now_ms() - start;
			}
			printf("%8s any of them, one automaton: %.2f ms a pass\n", "", best_any);
			free(any);
		}
	}

	/*
	 * A term in no row, before and after the column's byte-pair summary
	 * (chunk_pairs.h): with it, no chunk need be read.
	 */
	{
		const char *error;
		GlProgram  *absent = gl_build_like("%zebra%", 7, true, gl_ascii_case_class, NULL,
										   &error);
		double		best[2] = {1e9, 1e9};
		double		summarizing = 0;

		for (int summarized = 0; summarized < 2; summarized++)
		{
			summarizing = now_ms();
			if (summarized && !gl_column_summarize_pairs(&col, nthreads))
				break;
			summarizing = now_ms() - summarizing;
			for (int run = 0; run < RUNS; run++)
			{
				double		start = now_ms();

				gl_cpu_match_column(absent, &col, alone[0], nthreads);
				if (now_ms() - start < best[summarized])
					best[summarized] = now_ms() - start;
			}
			if (gl_bitmap_count(alone[0], nwords) != 0)
				failures++;
		}
		printf("ILIKE '%%zebra%%' (no row): %.2f ms, %.3f ms with the pair summary "
			   "(%llu kB, built in %.0f ms)\n", best[0], best[1],
			   (unsigned long long) (gl_chunk_pairs_bytes(&col.pairs) >> 10), summarizing);
		free(absent);
	}
	if (failures > 0)
		printf("DIFFERENT: %d bitmaps differ from what they must be\n", failures);
	return failures > 0;
}
