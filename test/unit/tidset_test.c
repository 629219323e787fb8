/*-------------------------------------------------------------------------
 *
 * tidset_test.c
 *	  Unit tests of the TID set algebra the server combines columns with
 *	  (src/column/tidset.c): bitmap -> TIDs, sort + unique (sorted fast
 *	  path and radix sort), intersection and union, against a simple
 *	  reference (qsort and membership over a boolean table).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "column/tidset.h"

#define UNIVERSE	4096		/* TIDs drawn from blocks 0..63, offsets 1..64 */

static GlTid
tid_of(uint32_t k)
{
	return gl_tid_make(k / 64 * 997, (uint16_t) (k % 64 + 1));
}

static int
cmp_tid(const void *a, const void *b)
{
	GlTid		x = *(const GlTid *) a;
	GlTid		y = *(const GlTid *) b;

	return x < y ? -1 : x > y;
}

/* Reference: sorted unique TIDs of the members of a boolean table. */
static uint64_t
members(const bool *in, GlTid *out)
{
	uint64_t	n = 0;
	uint32_t	k;

	for (k = 0; k < UNIVERSE; k++)
		if (in[k])
			out[n++] = tid_of(k);
	qsort(out, n, sizeof(GlTid), cmp_tid);
	return n;
}

static bool
same(const GlTid *a, uint64_t na, const GlTid *b, uint64_t nb)
{
	return na == nb && memcmp(a, b, na * sizeof(GlTid)) == 0;
}

/* n random TIDs (with repeats), their membership table. */
static void
random_tids(GlTid *tids, uint64_t n, bool *in)
{
	uint64_t	i;

	memset(in, 0, UNIVERSE * sizeof(bool));
	for (i = 0; i < n; i++)
	{
		uint32_t	k = (uint32_t) (rand() % UNIVERSE);

		tids[i] = tid_of(k);
		in[k] = true;
	}
}

static void
test_sort_unique(int round)
{
	uint64_t	n = (uint64_t) (rand() % 3000);
	GlTid	   *tids = malloc((n + 1) * sizeof(GlTid));
	GlTid	   *scratch = malloc(GL_TIDS_SORT_SCRATCH(n) * sizeof(GlTid));
	GlTid	   *expect = malloc(UNIVERSE * sizeof(GlTid));
	bool		in[UNIVERSE];
	uint64_t	got;
	uint64_t	want;

	random_tids(tids, n, in);
	if (round % 4 == 0)
		qsort(tids, n, sizeof(GlTid), cmp_tid);	/* exercise the sorted path */
	got = gl_tids_sort_unique(tids, n, scratch);
	want = members(in, expect);
	tap_ok(same(tids, got, expect, want),
		   "sort_unique round %d: %llu TIDs -> %llu unique", round,
		   (unsigned long long) n, (unsigned long long) got);
	free(tids);
	free(scratch);
	free(expect);
}

static void
test_algebra(int round)
{
	GlTid		a[UNIVERSE], b[UNIVERSE], raw[UNIVERSE], out[2 * UNIVERSE];
	GlTid		expect[UNIVERSE];
	bool		in_a[UNIVERSE], in_b[UNIVERSE], both[UNIVERSE], either[UNIVERSE];
	uint64_t	na, nb, n, want;
	int			k;

	random_tids(raw, (uint64_t) (rand() % 2000), in_a);
	na = members(in_a, a);
	random_tids(raw, (uint64_t) (rand() % 2000), in_b);
	nb = members(in_b, b);
	for (k = 0; k < UNIVERSE; k++)
	{
		both[k] = in_a[k] && in_b[k];
		either[k] = in_a[k] || in_b[k];
	}

	n = gl_tids_union(a, na, b, nb, out);
	want = members(either, expect);
	tap_ok(same(out, n, expect, want), "union round %d (%llu)", round,
		   (unsigned long long) n);

	n = gl_tids_intersect(a, na, b, nb, a);	/* in place, as the server does */
	want = members(both, expect);
	tap_ok(same(a, n, expect, want), "intersect in place round %d (%llu)", round,
		   (unsigned long long) n);
}

static void
test_bitmap_to_tids(void)
{
	enum
	{
		NROWS = 200
	};
	GlColumn	col;
	bool		built = gl_column_init(&col, NROWS, 0);
	uint64_t	bits[(NROWS + 63) / 64] = {0};
	GlTid		out[NROWS];
	GlTid		expect[NROWS];
	uint64_t	n = 0;
	uint64_t	got;
	int			r;

	for (r = 0; built && r < NROWS; r++)
	{
		GlTid		tid = gl_tid_make((uint32_t) (NROWS - r), (uint16_t) (r % 7 + 1));

		built = gl_column_append(&col, tid, "v", 1, 0);
		if (r % 3 == 0 || r == 63 || r == 64 || r == NROWS - 1)
		{
			bits[r / 64] |= UINT64_C(1) << (r % 64);
			expect[n++] = tid;
		}
	}
	got = gl_bitmap_to_tids(bits, &col, out);
	tap_ok(built && same(out, got, expect, n), "bitmap_to_tids keeps row order (%llu rows)",
		   (unsigned long long) got);

	memset(bits, 0, sizeof(bits));
	tap_ok(gl_bitmap_to_tids(bits, &col, out) == 0,
		   "empty bitmap gives no TIDs");
	gl_column_free(&col);
}

/* High block numbers need all three radix passes. */
static void
test_wide_blocks(void)
{
	GlTid		tids[5] = {
		gl_tid_make(0xFFFFFFFEu, 3), gl_tid_make(1, 1), gl_tid_make(0x10000, 2),
		gl_tid_make(1, 1), gl_tid_make(0xFFFF, 65535)
	};
	GlTid		expect[4] = {
		gl_tid_make(1, 1), gl_tid_make(0xFFFF, 65535), gl_tid_make(0x10000, 2),
		gl_tid_make(0xFFFFFFFEu, 3)
	};
	GlTid	   *scratch = malloc(GL_TIDS_SORT_SCRATCH(5) * sizeof(GlTid));
	uint64_t	n = gl_tids_sort_unique(tids, 5, scratch);

	tap_ok(same(tids, n, expect, 4), "radix sort over all 48 bits");
	free(scratch);
}

int
main(void)
{
	int			round;

	srand(12345);
	for (round = 0; round < 20; round++)
		test_sort_unique(round);
	for (round = 0; round < 10; round++)
		test_algebra(round);
	test_bitmap_to_tids();
	test_wide_blocks();
	return tap_done();
}
