/*-------------------------------------------------------------------------
 *
 * column.c
 *	  Growing the host copy of a cached column (see column.h).
 *
 * Plain malloc/realloc: the server's worker threads and the unit tests use
 * this outside any PostgreSQL memory context.  Arrays grow geometrically so
 * appending n rows costs O(n) amortized: doubling while small, by a quarter
 * once large, so that rows trickling in from the delta log after a big load
 * do not double a column's memory.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/column.h"

#define LARGE_ARRAY_ELEMENTS	(UINT64_C(1) << 24)

static bool
grow(void **array, uint64_t *capacity, uint64_t needed, size_t elem_size)
{
	uint64_t	newcap = *capacity ? *capacity : 1024;
	void	   *p;

	if (needed <= *capacity)
		return true;
	while (newcap < needed)
		newcap += newcap < LARGE_ARRAY_ELEMENTS ? newcap : newcap / 4;
	p = realloc(*array, newcap * elem_size);
	if (p == NULL)
		return false;
	*array = p;
	*capacity = newcap;
	return true;
}

static bool
reserve_rows(GlColumn *col, uint64_t rows)
{
	uint64_t	cap = col->capacity_rows;
	uint64_t	cap_offsets = cap + 1;
	uint64_t	cap_nulls = gl_bitmap_words(cap);
	uint64_t	old_null_words = gl_bitmap_words(cap);

	if (rows <= cap)
		return true;
	if (!grow((void **) &col->tids, &cap, rows, sizeof(GlTid)))
		return false;
	/* offsets and nulls follow the capacity chosen for tids */
	if (!grow((void **) &col->offsets, &cap_offsets, cap + 1, sizeof(uint64_t)))
		return false;
	if (!grow((void **) &col->nulls, &cap_nulls, gl_bitmap_words(cap), sizeof(uint64_t)))
		return false;
	memset(col->nulls + old_null_words, 0,
		   (gl_bitmap_words(cap) - old_null_words) * sizeof(uint64_t));
	col->capacity_rows = cap;
	return true;
}

bool
gl_column_init(GlColumn *col, uint64_t rows_hint, uint64_t bytes_hint)
{
	memset(col, 0, sizeof(*col));
	if (!reserve_rows(col, rows_hint > 0 ? rows_hint : 1024))
		return false;
	if (!grow((void **) &col->data, &col->capacity_bytes,
			  bytes_hint > 0 ? bytes_hint : 65536, 1))
		return false;
	col->offsets[0] = 0;
	return true;
}

bool
gl_column_append(GlColumn *col, GlTid tid, const char *value, uint32_t len,
				 bool isnull)
{
	uint64_t	row = col->nrows;

	if (isnull)
		len = 0;
	if (!reserve_rows(col, row + 1))
		return false;
	if (!grow((void **) &col->data, &col->capacity_bytes, col->nbytes + len, 1))
		return false;
	if (len > 0)
		memcpy(col->data + col->nbytes, value, len);
	col->nbytes += len;
	col->tids[row] = tid;
	col->offsets[row + 1] = col->nbytes;
	if (isnull)
		col->nulls[row / 64] |= UINT64_C(1) << (row % 64);
	if (len > col->max_len)
		col->max_len = len;
	col->nrows = row + 1;
	return true;
}

/*
 * Shrink the arrays to what the rows use.  Loads reserve room from upper
 * bounds; trimming after the load makes gl_column_host_bytes() honest.  A
 * shrinking realloc() that fails leaves the larger block in place, which is
 * still big enough, so failures need no handling.
 */
void
gl_column_trim(GlColumn *col)
{
	uint64_t	rows = col->nrows > 0 ? col->nrows : 1;
	uint64_t	bytes = col->nbytes > 0 ? col->nbytes : 1;
	void	   *p;

	if (bytes < col->capacity_bytes && (p = realloc(col->data, bytes)) != NULL)
	{
		col->data = p;
		col->capacity_bytes = bytes;
	}
	if (rows >= col->capacity_rows)
		return;
	if ((p = realloc(col->tids, rows * sizeof(GlTid))) != NULL)
		col->tids = p;
	if ((p = realloc(col->offsets, (rows + 1) * sizeof(uint64_t))) != NULL)
		col->offsets = p;
	if ((p = realloc(col->nulls, gl_bitmap_words(rows) * sizeof(uint64_t))) != NULL)
		col->nulls = p;
	col->capacity_rows = rows;
}

void
gl_column_free(GlColumn *col)
{
	free(col->offsets);
	free(col->nulls);
	free(col->tids);
	free(col->data);
	memset(col, 0, sizeof(*col));
}

size_t
gl_column_host_bytes(const GlColumn *col)
{
	return col->capacity_bytes +
		col->capacity_rows * (sizeof(GlTid) + sizeof(uint64_t)) +
		gl_bitmap_words(col->capacity_rows) * sizeof(uint64_t);
}
