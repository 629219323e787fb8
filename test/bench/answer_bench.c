/*-------------------------------------------------------------------------
 *
 * answer_bench.c
 *	  How long the server takes to turn a row bitmap into a counting
 *	  answer (column/answer.c), on a column shaped like TPC-H scale 10's
 *	  o_comment: 15 M rows, 60 to a heap page.
 *
 *	  make -C test/unit bench        (binary: test/unit/build/answer_bench)
 *	  answer_bench [threads]         (default 8, as the server's request threads)
 *
 * For answers with every row, 10 %, 1 %, 0.1 % and 0.01 % of the rows set
 * at random, on a table whose blocks are all all-visible (vacuumed) and
 * one whose blocks are none (freshly loaded), it prints the best of 20
 * runs in milliseconds: the figures the counting costs in answer.c are
 * drawn from.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "column/answer.h"

#define BLOCKS			250000
#define ROWS_PER_BLOCK	60
#define RUNS			20

int
main(int argc, char **argv)
{
	static const int per_100000[] = {100000, 10000, 1000, 100, 10};
	int			nthreads = argc > 1 ? atoi(argv[1]) : 8;
	uint64_t   *all_visible = malloc((BLOCKS / 64 + 1) * sizeof(uint64_t));
	uint64_t   *none_visible = calloc(BLOCKS / 64 + 1, sizeof(uint64_t));
	GlColumn	col;

	memset(all_visible, 0xFF, (BLOCKS / 64 + 1) * sizeof(uint64_t));
	gl_column_init(&col, (uint64_t) BLOCKS * ROWS_PER_BLOCK, BLOCKS);
	for (uint32_t b = 0; b < BLOCKS; b++)
		for (int o = 1; o <= ROWS_PER_BLOCK; o++)
			gl_column_append(&col, gl_tid_make(b, (uint16_t) o), "v", 1, GL_ROW_KNOWN_LIVE);
	if (!gl_column_index_pages(&col))
	{
		fprintf(stderr, "answer_bench: out of memory\n");
		return 1;
	}
	printf("counting answers, %llu rows on %d pages, %d threads: best of %d, ms\n",
		   (unsigned long long) col.nrows, BLOCKS, nthreads, RUNS);
	printf("%12s %14s %14s\n", "rows set", "all-visible", "none visible");
	srand(1);
	for (size_t d = 0; d < sizeof(per_100000) / sizeof(per_100000[0]); d++)
	{
		uint64_t   *bits = calloc(gl_bitmap_words(col.nrows) + 1, sizeof(uint64_t));
		double		best[2] = {1e9, 1e9};

		for (uint64_t r = 0; r < col.nrows; r++)
			if (rand() % 100000 < per_100000[d])
				bits[r / 64] |= UINT64_C(1) << (r % 64);
		for (int v = 0; v < 2; v++)
		{
			GlVisibleBlocks visible = {v == 0 ? all_visible : none_visible, BLOCKS};

			for (int i = 0; i < RUNS; i++)
			{
				GlAnswer	answer;
				double		start = now_ms();

				if (!gl_answer_from_rows(&col, bits, &visible, nthreads, &answer))
				{
					fprintf(stderr, "answer_bench: out of memory\n");
					return 1;
				}
				if (now_ms() - start < best[v])
					best[v] = now_ms() - start;
				gl_answer_free(&answer);
			}
		}
		printf("%11.3f%% %14.3f %14.3f\n", per_100000[d] / 1000.0, best[0], best[1]);
		free(bits);
	}
	gl_column_free(&col);
	free(all_visible);
	free(none_visible);
	return 0;
}
