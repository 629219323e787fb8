/*
 * row_tids_bench.c
 *	  The host column's TIDs before and after the 64-row groups (row_tids.h):
 *	  20 M rows of 8-byte values in TID order (40 rows a page), the host
 *	  bytes after trimming, gl_bitmap_to_tids() over every eighth row, and
 *	  gl_column_latest_row() for 2 M rows in a scattered order.
 *
 *	  Built against a tree (ROOT) with the groups:
 *		gcc -O2 -std=gnu11 -I$ROOT/src row_tids_bench.c $ROOT/src/column/*.c
 *	  and against one without them (gl_bitmap_to_tids() took the TID array):
 *		gcc -O2 -std=gnu11 -DFLAT_TIDS -I$ROOT/src row_tids_bench.c $ROOT/src/column/*.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "column/column.h"
#include "column/tidset.h"

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int
main(void)
{
	const uint64_t n = 20000000;
	GlColumn	col;
	uint64_t   *bits = malloc((n / 64 + 1) * sizeof(uint64_t));
	GlTid	   *out = malloc((n / 8 + 64) * sizeof(GlTid));
	uint64_t	got = 0;
	uint64_t	found = 0;
	uint64_t	row;
	double		t0;

	if (bits == NULL || out == NULL || !gl_column_init(&col, n, n * 8))
		return 1;
	for (uint64_t r = 0; r < n; r++)
		if (!gl_column_append(&col, gl_tid_make((uint32_t) (r / 40), (uint16_t) (r % 40 + 1)),
							  "abcdefgh", 8, 0))
			return 1;
	gl_column_trim(&col);
	printf("host bytes: %.1f MB for %llu rows\n", gl_column_host_bytes(&col) / 1e6,
		   (unsigned long long) n);

	for (uint64_t w = 0; w < n / 64 + 1; w++)
		bits[w] = UINT64_C(0x0101010101010101);
	t0 = now();
	for (int i = 0; i < 5; i++)
#ifdef FLAT_TIDS
		got += gl_bitmap_to_tids(bits, col.nrows, col.tids, out);
#else
		got += gl_bitmap_to_tids(bits, &col, out);
#endif
	printf("gl_bitmap_to_tids: %.2f ns a TID\n", (now() - t0) / got * 1e9);

	t0 = now();
	for (uint64_t i = 0; i < 2000000; i++)
	{
		uint64_t	r = i * 2654435761u % n;

		found += gl_column_latest_row(&col, gl_tid_make((uint32_t) (r / 40),
														(uint16_t) (r % 40 + 1)), &row) && row == r;
	}
	printf("gl_column_latest_row: %.1f ns a lookup (%llu of 2000000 found)\n",
		   (now() - t0) / 2000000 * 1e9, (unsigned long long) found);
	return 0;
}
