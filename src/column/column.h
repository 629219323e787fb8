/*-------------------------------------------------------------------------
 *
 * column.h
 *	  The in-memory form of a cached text column (a leaf: no PostgreSQL
 *	  calls, usable from the server's worker threads, the CPU engine and the
 *	  CUDA engine alike).
 *
 * The host copy is kept contiguous: all values concatenated in row order,
 * an offsets array, a NULL bitmap and the heap TID of every row.  That is the
 * form the CPU engine scans fastest (memchr/memmem-style word scanning) and
 * the form the loader can append to at a gigabyte a second.  The device copy
 * is built from it at upload time in whatever layout the CUDA engine found
 * fastest (see cuda/); it never needs to come back to the host.
 *
 * Rows are appended in heap TID order by the loader; rows added later from
 * the delta log are appended after them, in commit-arbitrary order, so a row
 * position is not a TID order.  A TID may appear more than once (a dead
 * version and a later tuple in the same slot): the column is a multiset of
 * (TID, value) pairs that contains every tuple version any snapshot may see.
 * Consumers sort and de-duplicate the TIDs of matching rows.
 *
 * Values of char(n) columns are stored blank-padded, exactly as the LIKE
 * functions see them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_COLUMN_H
#define GPULIKE_COLUMN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A heap TID packed into 48 bits: block number << 16 | offset number. */
typedef uint64_t GlTid;

static inline GlTid
gl_tid_make(uint32_t block, uint16_t offset)
{
	return ((GlTid) block << 16) | offset;
}

static inline uint32_t
gl_tid_block(GlTid tid)
{
	return (uint32_t) (tid >> 16);
}

static inline uint16_t
gl_tid_offset(GlTid tid)
{
	return (uint16_t) (tid & 0xFFFF);
}

typedef struct GlColumn
{
	uint64_t	nrows;
	uint64_t	nbytes;			/* bytes used in data */
	uint64_t	capacity_rows;
	uint64_t	capacity_bytes;
	uint64_t   *offsets;		/* nrows + 1 entries: row r is
								 * data[offsets[r] .. offsets[r+1]) */
	uint64_t   *nulls;			/* bitmap, bit r set = row r is NULL */
	GlTid	   *tids;			/* heap TID of each row */
	char	   *data;
	uint32_t	max_len;		/* longest value, bytes */
} GlColumn;

/* Bitmaps of rows: one bit per row, bit r in word r / 64. */
static inline size_t
gl_bitmap_words(uint64_t nrows)
{
	return (size_t) ((nrows + 63) / 64);
}

static inline bool
gl_column_is_null(const GlColumn *col, uint64_t row)
{
	return (col->nulls[row / 64] >> (row % 64)) & 1;
}

static inline const char *
gl_column_value(const GlColumn *col, uint64_t row, uint32_t *len)
{
	*len = (uint32_t) (col->offsets[row + 1] - col->offsets[row]);
	return col->data + col->offsets[row];
}

/* column.c: plain malloc-based; all return false on out-of-memory. */
extern bool gl_column_init(GlColumn *col, uint64_t rows_hint, uint64_t bytes_hint);
extern bool gl_column_append(GlColumn *col, GlTid tid, const char *value,
							 uint32_t len, bool isnull);
extern void gl_column_trim(GlColumn *col);
extern void gl_column_free(GlColumn *col);
extern size_t gl_column_host_bytes(const GlColumn *col);

#endif							/* GPULIKE_COLUMN_H */
