/*
 * row_offsets_test.c
 *	  The rows' value offsets in blocks of 65 536 (src/column/row_offsets.c):
 *	  distances up to 2^32 - 1 kept in the block, one more making every
 *	  offset whole with the earlier ones kept (in a block's middle and on
 *	  its last entry), a jump of any size on a block's first entry kept,
 *	  offsets past 2^40, growing and trimming, and the bytes an entry,
 *	  against the offsets set.
 */
#include <stdlib.h>
#include <string.h>

#include "column/row_offsets.h"
#include "tap.h"

#define BLOCK	GL_ROW_OFFSET_BLOCK

/* Entries the store of the last round_trip() has room for. */
static uint64_t capacity;

/*
 * Set offsets want[0..n) in a fresh store grown as a column grows it (room
 * for `step` more entries at a time); true if every one reads back.
 */
static bool
round_trip(const uint64_t *want, uint64_t n, uint64_t step, GlRowOffsets *o)
{
	memset(o, 0, sizeof(*o));
	capacity = 0;
	for (uint64_t e = 0; e < n; e++)
	{
		if (e == capacity)
		{
			if (!gl_row_offsets_resize(o, e + step))
				return false;
			capacity = e + step;
		}
		if (!gl_row_offsets_reserve(o, e, want[e], capacity))
			return false;
		gl_row_offsets_set(o, e, want[e]);
	}
	for (uint64_t e = 0; e < n; e++)
		if (gl_row_offset(o, e) != want[e])
			return false;
	return true;
}

/* Values of 0 to 199 bytes from `start`, entries [from, n). */
static void
short_values(uint64_t *want, uint64_t from, uint64_t n, uint64_t start, uint64_t *seed)
{
	want[from] = start;
	for (uint64_t e = from + 1; e < n; e++)
	{
		*seed = *seed * 6364136223846793005u + 1442695040888963407u;
		want[e] = want[e - 1] + (*seed >> 33) % 200;
	}
}

int
main(void)
{
	enum
	{
		N = 3 * BLOCK + 100
	};
	uint64_t   *want = malloc(N * sizeof(uint64_t));
	GlRowOffsets o;
	uint64_t	seed = 12345;

	short_values(want, 0, N, 0, &seed);
	tap_ok(round_trip(want, N, 1000, &o) && o.whole == NULL,
		   "short values over three blocks and a part read back, in blocks");
	if (!gl_row_offsets_resize(&o, N))
		tap_ok(false, "trimming to %d entries", N);
	tap_ok(gl_row_offsets_bytes(&o, N) * 10000 <= (uint64_t) N * 40002,
		   "4.0002 bytes an entry or less (%zu bytes for %d entries)",
		   gl_row_offsets_bytes(&o, N), N);
	gl_row_offsets_free(&o);

	/* a block whose last distance is 2^32 - 1 exactly */
	short_values(want, 0, N, 0, &seed);
	{
		uint64_t	gap = UINT32_MAX - (want[2 * BLOCK - 1] - want[BLOCK]);

		for (uint64_t e = BLOCK + 10; e < N; e++)
			want[e] += gap;
	}
	tap_ok(round_trip(want, N, 1000, &o) && o.whole == NULL &&
		   want[2 * BLOCK - 1] - want[BLOCK] == UINT32_MAX,
		   "a distance of 2^32 - 1 stays in its block");
	gl_row_offsets_free(&o);

	/* one more byte in a block's middle: every offset whole, earlier ones kept */
	for (uint64_t e = BLOCK + 10; e < N; e++)
		want[e]++;
	tap_ok(round_trip(want, N, 1000, &o) && o.whole != NULL,
		   "a distance of 2^32 in a block's middle makes every offset whole");
	tap_ok(gl_row_offsets_bytes(&o, capacity) == capacity * sizeof(uint64_t),
		   "whole offsets take eight bytes an entry");
	tap_ok(gl_row_offsets_resize(&o, 2 * N) && gl_row_offsets_resize(&o, N) &&
		   gl_row_offset(&o, 0) == want[0] && gl_row_offset(&o, N - 1) == want[N - 1] &&
		   gl_row_offset(&o, BLOCK + 9) == want[BLOCK + 9],
		   "whole offsets survive growing and trimming");
	gl_row_offsets_free(&o);

	/* the same on a block's last entry */
	short_values(want, 0, N, 0, &seed);
	for (uint64_t e = 2 * BLOCK - 1; e < N; e++)
		want[e] += (uint64_t) UINT32_MAX + 1;
	tap_ok(round_trip(want, N, 1000, &o) && o.whole != NULL,
		   "a distance past 2^32 on a block's last entry makes every offset whole");
	gl_row_offsets_free(&o);

	/* a jump of any size on a block's first entry */
	short_values(want, 0, N, 0, &seed);
	for (uint64_t e = 2 * BLOCK; e < N; e++)
		want[e] += UINT64_C(5) << 32;
	tap_ok(round_trip(want, N, 1000, &o) && o.whole == NULL,
		   "a jump of 20 GiB onto a block's first entry stays in blocks");
	gl_row_offsets_free(&o);

	/* offsets of a column past 2^40 bytes */
	short_values(want, 0, N, UINT64_C(3) << 40, &seed);
	tap_ok(round_trip(want, N, N, &o) && o.whole == NULL,
		   "offsets past 2^40 read back, in blocks");
	tap_ok(gl_row_offsets_resize(&o, N - 50) && gl_row_offsets_bytes(&o, N - 50) < (N - 49) * 5 &&
		   gl_row_offset(&o, N - 51) == want[N - 51],
		   "trimmed to fewer entries, the rest read back");
	gl_row_offsets_free(&o);

	/* one entry alone, and whole from the store's first growth */
	want[0] = 0;
	tap_ok(round_trip(want, 1, 1, &o) && o.whole == NULL, "one entry alone reads back");
	gl_row_offsets_free(&o);
	want[1] = UINT64_C(1) << 33;
	want[2] = want[1] + 7;
	tap_ok(round_trip(want, 3, 1, &o) && o.whole != NULL,
		   "a 2^33-byte first value makes every offset whole at once");
	gl_row_offsets_free(&o);
	tap_ok(o.whole == NULL && o.distance == NULL && o.block_first == NULL,
		   "freed offsets are empty");

	free(want);
	return tap_done();
}
