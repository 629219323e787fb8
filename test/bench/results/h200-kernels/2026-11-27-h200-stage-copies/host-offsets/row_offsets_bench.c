/*
 * row_offsets_bench.c
 *	  The host column's offsets before and after the blocks of 65 536
 *	  (row_offsets.h): 20 M rows of 20-75 byte words in TID order, the host
 *	  bytes after trimming, the CPU engine on one thread over the whole
 *	  column for a skimmed literal ('%final%') and a pattern matched row by
 *	  row ('%e_e%'), and gl_column_value() for 2 M rows in a scattered
 *	  order.  Built against a tree (ROOT), before or after:
 *		gcc -O2 -std=gnu11 -pthread -I$ROOT/src row_offsets_bench.c \
 *			$ROOT/src/column/*.c $ROOT/src/engine/*.c $ROOT/src/program/*.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "column/column.h"
#include "engine/cpu_engine.h"
#include "program/like_build.h"

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static const char *const words[] = {
	"final", "furiously", "special", "requests", "carefully", "deposits", "blithely",
	"quickly", "regular", "accounts", "ironic", "packages", "express", "theodolites",
	"even", "pending", "slyly", "bold", "silent", "asymptotes"
};

int
main(void)
{
	const uint64_t n = 20000000;
	const char *patterns[] = {"%final%", "%e_e%"};
	GlColumn	col;
	uint64_t   *bits = malloc((n / 64 + 1) * sizeof(uint64_t));
	uint64_t	seed = 42;
	uint64_t	sum = 0;
	double		t0;

	if (!gl_column_init(&col, 1024, 65536))
		return 1;
	for (uint64_t r = 0; r < n; r++)
	{
		char		value[96];
		int			len = 0;

		/* three to six words */
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		for (int w = 0; w < 3 + (int) (seed >> 62); w++)
		{
			const char *word = words[(seed >> (5 * w + 3)) % 20];

			len += sprintf(value + len, "%s%s", w ? " " : "", word);
		}
		if (!gl_column_append(&col, gl_tid_make((uint32_t) (r / 40), (uint16_t) (r % 40 + 1)),
							  value, (uint32_t) len, GL_ROW_KNOWN_LIVE))
			return 1;
	}
	gl_column_trim(&col);
	printf("rows %llu, values %.1f MB, host bytes %.1f MB (%.2f bytes a row past the values)\n",
		   (unsigned long long) n, col.nbytes / 1e6, gl_column_host_bytes(&col) / 1e6,
		   (double) (gl_column_host_bytes(&col) - col.nbytes) / n);

	for (int p = 0; p < 2; p++)
	{
		const char *error = NULL;
		GlProgram  *prog = gl_build_like(patterns[p], strlen(patterns[p]), true, NULL, NULL,
										 &error);
		uint64_t	matched = 0;

		if (prog == NULL)
			return 1;
		for (int run = 0; run < 3; run++)
		{
			t0 = now();
			gl_cpu_match_column(prog, &col, bits, 1);
			printf("%s, one thread: %.1f ms", patterns[p], (now() - t0) * 1e3);
			matched = 0;
			for (uint64_t w = 0; w < n / 64 + 1; w++)
				matched += __builtin_popcountll(bits[w]);
			printf(" (%llu rows)\n", (unsigned long long) matched);
		}
		free(prog);
	}

	for (int run = 0; run < 3; run++)
	{
		t0 = now();
		for (uint64_t i = 0; i < 2000000; i++)
		{
			uint32_t	len;
			const char *v = gl_column_value(&col, (i * 7919 * 104729) % n, &len);

			sum += len + (unsigned char) v[0];
		}
		printf("gl_column_value, 2 M scattered rows: %.1f ns a row\n", (now() - t0) * 1e9 / 2e6);
	}
	printf("(checksum %llu)\n", (unsigned long long) sum);
	gl_column_free(&col);
	return 0;
}
