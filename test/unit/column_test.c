/*
 * column_test.c
 *	  The host column (src/column/column.c): appending values and NULLs,
 *	  growth across many reallocations, trimming after a load, and appending
 *	  again after a trim (as delta rows do); the latest row per TID
 *	  (superseded rows) and known-live rows, against a brute-force model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "column/column.h"
#include "tap.h"

/* Row r holds "v<r>" repeated (r % 7) times; every 5th row is NULL. */
static int
expected_value(uint64_t r, char *buf)
{
	int			len = 0;

	for (uint64_t i = 0; i < r % 7; i++)
		len += sprintf(buf + len, "v%llu", (unsigned long long) r);
	return len;
}

static bool
append_rows(GlColumn *col, uint64_t from, uint64_t to)
{
	char		buf[256];

	for (uint64_t r = from; r < to; r++)
	{
		int			len = expected_value(r, buf);

		if (!gl_column_append(col, gl_tid_make((uint32_t) r / 100, (uint16_t) (r % 100 + 1)),
							  buf, (uint32_t) len, r % 5 == 0 ? GL_ROW_IS_NULL : 0))
			return false;
	}
	return true;
}

static bool
rows_intact(const GlColumn *col, uint64_t nrows)
{
	char		buf[256];

	if (col->nrows != nrows)
		return false;
	for (uint64_t r = 0; r < nrows; r++)
	{
		uint32_t	len;
		const char *v = gl_column_value(col, r, &len);
		bool		isnull = r % 5 == 0;
		int			want = isnull ? 0 : expected_value(r, buf);

		if (gl_column_is_null(col, r) != isnull || len != (uint32_t) want ||
			memcmp(v, buf, len) != 0 ||
			gl_column_tid(col, r) != gl_tid_make((uint32_t) r / 100, (uint16_t) (r % 100 + 1)))
			return false;
	}
	return true;
}

/*
 * A load of every other TID of a small TID space in order, then random
 * appends (TIDs reused or new) and ended-marks, checked against a model
 * that remembers each TID's latest row and each row's liveness.
 */
#define MODEL_BLOCKS	50
#define MODEL_OFFSETS	20
#define MODEL_TIDS		(MODEL_BLOCKS * MODEL_OFFSETS)

static GlTid
model_tid(int i)
{
	return gl_tid_make((uint32_t) (i / MODEL_OFFSETS), (uint16_t) (i % MODEL_OFFSETS + 1));
}

static void
test_latest_rows(unsigned seed)
{
	GlColumn	col;
	int64_t		latest[MODEL_TIDS];
	bool	   *live = calloc(100000, sizeof(bool));
	int			tid_of_row[100000];
	bool		ok = true;
	uint64_t	loaded;

	srand(seed);
	for (int i = 0; i < MODEL_TIDS; i++)
		latest[i] = -1;
	gl_column_init(&col, 16, 64);
	for (int i = 0; i < MODEL_TIDS; i += 2)
	{
		latest[i] = (int64_t) col.nrows;
		tid_of_row[col.nrows] = i;
		live[col.nrows] = true;
		gl_column_append(&col, model_tid(i), "x", 1, GL_ROW_KNOWN_LIVE);
	}
	loaded = col.nrows;
	tap_ok(col.sorted_rows == loaded && col.later_rows.used == 0,
		   "rows appended in TID order form the sorted prefix (%llu rows)",
		   (unsigned long long) col.sorted_rows);

	for (int op = 0; op < 20000; op++)
	{
		int			i = rand() % MODEL_TIDS;

		if (rand() % 4 == 0)
		{
			if (latest[i] >= 0)
				live[latest[i]] = false;
			gl_column_mark_ended(&col, model_tid(i));
			continue;
		}
		if (latest[i] >= 0)
			live[latest[i]] = false;
		latest[i] = (int64_t) col.nrows;
		tid_of_row[col.nrows] = i;
		live[col.nrows] = rand() % 2 == 0;
		if (!gl_column_append(&col, model_tid(i), "y", 1,
							  live[col.nrows] ? GL_ROW_KNOWN_LIVE : 0))
			ok = false;
	}
	tap_ok(ok && col.sorted_rows == loaded, "random appends after the load");

	for (int i = 0; i < MODEL_TIDS && ok; i++)
	{
		uint64_t	row;
		bool		found = gl_column_latest_row(&col, model_tid(i), &row);

		if (found != (latest[i] >= 0) || (found && (int64_t) row != latest[i]))
		{
			tap_ok(false, "latest row of TID %d: found %d row %llu, model %lld",
				   i, found, (unsigned long long) row, (long long) latest[i]);
			ok = false;
		}
	}
	tap_ok(ok, "every TID's latest row is the model's");
	for (uint64_t r = 0; r < col.nrows && ok; r++)
	{
		bool		superseded = gl_bitmap_test(col.superseded, r);
		bool		known_live = gl_bitmap_test(col.known_live, r);

		if (superseded != (latest[tid_of_row[r]] != (int64_t) r) ||
			known_live != live[r])
		{
			tap_ok(false, "row %llu: superseded %d known_live %d, model %d %d",
				   (unsigned long long) r, superseded, known_live,
				   latest[tid_of_row[r]] != (int64_t) r, live[r]);
			ok = false;
		}
	}
	tap_ok(ok, "superseded and known-live bits of all %llu rows match the model",
		   (unsigned long long) col.nrows);
	gl_column_trim(&col);
	tap_ok(col.later_rows.used > 0 && gl_column_latest_row(&col, model_tid(0), &(uint64_t) {0}),
		   "the index survives a trim");
	gl_column_free(&col);
	free(live);
}

int
main(void)
{
	GlColumn	col;
	size_t		before;

	tap_ok(gl_column_init(&col, 16, 64), "init with small hints");
	tap_ok(append_rows(&col, 0, 100000), "append 100000 rows through many reallocations");
	tap_ok(rows_intact(&col, 100000), "values, NULLs and TIDs read back");
	gl_column_free(&col);

	tap_ok(gl_column_init(&col, 1000000, 64 * 1024 * 1024), "init with generous hints");
	tap_ok(append_rows(&col, 0, 5000), "append 5000 rows");
	before = gl_column_host_bytes(&col);
	gl_column_trim(&col);
	tap_ok(gl_column_host_bytes(&col) < before / 100,
		   "trim gives back what the hints over-reserved (%zu -> %zu bytes)",
		   before, gl_column_host_bytes(&col));
	tap_ok(rows_intact(&col, 5000), "rows intact after trim");
	tap_ok(append_rows(&col, 5000, 20000), "append after trim (delta rows)");
	tap_ok(rows_intact(&col, 20000), "rows intact after growing again");
	gl_column_free(&col);

	tap_ok(gl_column_init(&col, 1, 1), "init an empty column");
	gl_column_trim(&col);
	tap_ok(col.nrows == 0 && append_rows(&col, 0, 3) && rows_intact(&col, 3),
		   "trim of an empty column, then append");
	gl_column_free(&col);

	test_latest_rows(1);
	test_latest_rows(2);
	return tap_done();
}
