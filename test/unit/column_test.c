/*
 * column_test.c
 *	  The host column (src/column/column.c): appending values and NULLs,
 *	  growth across many reallocations, trimming after a load, and appending
 *	  again after a trim (as delta rows do).
 */
#include <stdio.h>
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
							  buf, (uint32_t) len, r % 5 == 0))
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
			col->tids[r] != gl_tid_make((uint32_t) r / 100, (uint16_t) (r % 100 + 1)))
			return false;
	}
	return true;
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
	return tap_done();
}
