/*
 * row_tids_test.c
 *	  The rows' TIDs in groups of 64 (src/column/row_tids.c): distances up to
 *	  254 kept in the group, 255 and blocks below the group's making it wide
 *	  with its earlier rows kept, groups after a wide one, block numbers at
 *	  the top of their range, trimming, and the bytes a row, against the
 *	  TIDs set.
 */
#include <stdlib.h>
#include <string.h>

#include "column/row_tids.h"
#include "tap.h"

/* Set TIDs want[0..n) in a fresh store; true if every one reads back. */
static bool
round_trip(const GlTid *want, uint64_t n, GlRowTids *t)
{
	memset(t, 0, sizeof(*t));
	if (!gl_row_tids_resize(t, n))
		return false;
	for (uint64_t r = 0; r < n; r++)
	{
		if (!gl_row_tids_reserve(t, r, want[r]))
			return false;
		gl_row_tids_set(t, r, want[r]);
	}
	for (uint64_t r = 0; r < n; r++)
		if (gl_row_tid(t, r) != want[r])
			return false;
	return true;
}

int
main(void)
{
	enum
	{
		N = 64 * 40
	};
	GlTid	   *want = malloc(N * sizeof(GlTid));
	GlRowTids	t;
	uint64_t	state = 12345;

	/* a load in TID order: ten rows a page, pages 3 apart, no wide group */
	for (uint64_t r = 0; r < N; r++)
		want[r] = gl_tid_make((uint32_t) (1000 + 3 * (r / 10)), (uint16_t) (r % 10 + 1));
	tap_ok(round_trip(want, N, &t) && t.nwide == 0, "a load in TID order reads back, no wide group");
	gl_row_tids_trim(&t);
	tap_ok(gl_row_tids_bytes(&t, N) * 100 <= (uint64_t) N * 319,
		   "3.19 bytes a row or less (%zu bytes for %d rows)", gl_row_tids_bytes(&t, N), N);

	/* every row found by its TID, and TIDs between and around them not */
	{
		bool		found = true;
		uint64_t	row;

		for (uint64_t r = 0; r < N; r++)
			found &= gl_row_tids_find(&t, N, want[r], &row) && row == r;
		tap_ok(found, "each of %d rows in TID order found by its TID", N);
		tap_ok(!gl_row_tids_find(&t, N, gl_tid_make(1000, 11), &row) &&
			   !gl_row_tids_find(&t, N, gl_tid_make(999, 1), &row) &&
			   !gl_row_tids_find(&t, N, gl_tid_make(1001, 1), &row) &&
			   !gl_row_tids_find(&t, N, want[N - 1] + 1, &row) &&
			   !gl_row_tids_find(&t, N - 5, want[N - 1], &row),
			   "TIDs between, below, above and past the sorted rows not found");
	}
	gl_row_tids_free(&t);

	/* a sorted load across emptied pages: wide groups among narrow ones */
	for (uint64_t r = 0; r < N; r++)
		want[r] = gl_tid_make((uint32_t) (r + r / 200 * 300), 1);	/* a jump every 200 rows */
	{
		bool		found = round_trip(want, N, &t) && t.nwide > 0 && t.nwide < N / 64;
		uint64_t	row;

		for (uint64_t r = 0; r < N; r++)
			found &= gl_row_tids_find(&t, N, want[r], &row) && row == r;
		tap_ok(found, "wide groups in a sorted load read back and are found (%llu of %d wide)",
			   (unsigned long long) t.nwide, N / 64);
	}
	gl_row_tids_free(&t);

	/* distance 254 stays in the group, 255 widens it, mid-group */
	for (uint64_t r = 0; r < N; r++)
		want[r] = gl_tid_make(500, (uint16_t) (r % 60 + 1));
	want[10] = gl_tid_make(500 + 254, 1);
	tap_ok(round_trip(want, N, &t) && t.nwide == 0, "a block 254 above its group's stays in the group");
	gl_row_tids_free(&t);
	want[20] = gl_tid_make(500 + 255, 1);
	tap_ok(round_trip(want, N, &t) && t.nwide == 1 && t.distance[0] == GL_ROW_TID_WIDE &&
		   t.distance[64] != GL_ROW_TID_WIDE,
		   "255 above widens its group, its earlier rows kept, the next group narrow");
	gl_row_tids_free(&t);

	/* a block below the group's, on a group's last row; then the next group */
	want[20] = gl_tid_make(500, 1);
	want[127] = gl_tid_make(499, 7);
	tap_ok(round_trip(want, N, &t) && t.nwide == 1 && t.distance[64] == GL_ROW_TID_WIDE &&
		   t.distance[128] != GL_ROW_TID_WIDE,
		   "a block below the group's widens it on its last row");
	gl_row_tids_free(&t);

	/* block numbers at the top of their range, and one row alone */
	for (uint64_t r = 0; r < N; r++)
		want[r] = gl_tid_make(UINT32_MAX - 300 + (uint32_t) (r / 64) * 3, (uint16_t) (r % 64 + 1));
	tap_ok(round_trip(want, N, &t) && t.nwide == 0, "block numbers near 2^32 read back");
	gl_row_tids_free(&t);
	tap_ok(round_trip(want, 1, &t), "one row alone reads back");
	gl_row_tids_free(&t);

	/* rows in commit order, as the delta log appends them: most groups wide */
	for (uint64_t r = 0; r < N; r++)
	{
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		want[r] = gl_tid_make((uint32_t) (state >> 40), (uint16_t) (state >> 20 & 0xFF) + 1);
	}
	tap_ok(round_trip(want, N, &t) && t.nwide == N / 64, "random TIDs read back, every group wide");
	gl_row_tids_trim(&t);
	tap_ok(t.capacity_wide == t.nwide && gl_row_tid(&t, N - 1) == want[N - 1],
		   "trim keeps the wide groups it needs");
	gl_row_tids_free(&t);

	free(want);
	return tap_done();
}
