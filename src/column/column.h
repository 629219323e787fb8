/*-------------------------------------------------------------------------
 *
 * column.h
 *	  The in-memory form of a cached text column (a leaf: no PostgreSQL
 *	  calls, usable from the server's worker threads, the CPU engine and the
 *	  CUDA engine alike).
 *
 * The host copy is kept contiguous: all values concatenated in row order
 * (in memory, or in a mapped file: value_file.h), where each starts (in
 * about four bytes a row: row_offsets.h), a NULL bitmap and the heap TID
 * of every row (in about three: row_tids.h).
 * That is the form the CPU engine scans fastest (memchr/memmem-style word
 * scanning) and the form the loader can append to at a gigabyte a second.
 * The device copy is built from it at upload time in whatever layout the
 * CUDA engine found fastest (see cuda/); it never needs to come back to the
 * host.
 *
 * Rows are appended in heap TID order by the loader; rows added later from
 * the delta log are appended after them, in commit-arbitrary order, so a row
 * position is not a TID order in general.  The column keeps every tuple
 * version any snapshot may see, and for each TID only its latest row
 * counts:
 *
 *	superseded	A TID appended again marks its earlier row superseded.  A
 *				heap slot is reused only after its tuple was pruned, so the
 *				earlier row's tuple is gone and no snapshot can see it; the
 *				later row holds the value of the tuple now at that TID.
 *				Superseded rows never become candidates.
 *
 *	known_live	The row's tuple was committed and live when it was cached
 *				(the loader says so), and no delete or update of it has
 *				been logged since (gl_column_mark_ended).  Such a tuple is
 *				still in the heap at its TID: removing it takes a delete,
 *				and every delete is logged before it commits.  The executor
 *				relies on this to count rows on all-visible pages without
 *				reading them (executor.c has the whole argument).
 *
 * To find a TID's latest row, the rows [0, sorted_rows) -- the loader's,
 * in strictly increasing TID order -- are binary-searched, and every later
 * row is entered in a hash index (GlTidIndex) that is searched first.
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

#include "column/chunk_pairs.h"
#include "column/row_offsets.h"
#include "column/row_tids.h"

/*
 * TID -> latest row, for the rows outside the sorted prefix: open
 * addressing with linear probing, capacity a power of two.  TID 0 (offset
 * 0 is never a valid line pointer) marks a free place.
 */
typedef struct GlTidIndex
{
	uint64_t	capacity;
	uint64_t	used;
	GlTid	   *tids;
	uint64_t   *rows;
} GlTidIndex;

/*
 * The heap pages of the sorted prefix: page p is block blocks[p], rows
 * [first_rows[p], first_rows[p + 1]) (the last page's end is
 * indexed_rows).  Extended by gl_column_index_pages as the prefix grows,
 * for answers that walk a column page by page without reading every
 * row's TID.
 */
typedef struct GlPageIndex
{
	uint64_t	npages;
	uint64_t	capacity;
	uint32_t   *blocks;
	uint64_t   *first_rows;
	uint64_t	indexed_rows;	/* rows [0, indexed_rows) are indexed */
} GlPageIndex;

typedef struct GlColumn
{
	uint64_t	nrows;
	uint64_t	nbytes;			/* bytes used in data */
	uint64_t	capacity_rows;
	uint64_t	capacity_bytes;
	GlRowOffsets offsets;		/* nrows + 1 entries: row r is data[entry r
								 * .. entry r + 1) (gl_column_offset()) */
	uint64_t   *nulls;			/* bitmap, bit r set = row r is NULL */
	uint64_t   *superseded;		/* bitmap: a later row holds the same TID */
	uint64_t   *known_live;		/* bitmap: still in the heap (see above) */
	GlRowTids	tids;			/* heap TID of each row (gl_column_tid()) */
	char	   *data;
	bool		values_in_file; /* data maps values_fd (value_file.h); else
								 * it is malloc'd */
	int			values_fd;
	uint32_t	max_len;		/* longest value, bytes */
	uint64_t	sorted_rows;	/* rows [0, sorted_rows) in increasing TID order */
	uint64_t	ngarbage;		/* rows loaded ending, or ended or
								 * superseded since (a row both ended and
								 * superseded counts twice: an estimate,
								 * for compaction) */
	GlTidIndex	later_rows;		/* TID -> latest row among the others */
	GlPageIndex pages;			/* of [0, sorted_rows), when indexed */
	GlChunkPairs pairs;			/* byte pairs of each chunk's values, over
								 * the rows summarized (chunk_pairs.h) */
} GlColumn;

/*
 * Flags of an appended row.  GL_ROW_ENDING: the loader found the row's
 * tuple deleted or updated, by a transaction that committed or may yet;
 * its row counts as garbage from the start (ngarbage), since no ENDED
 * entry will come for it.
 */
#define GL_ROW_IS_NULL		0x01
#define GL_ROW_KNOWN_LIVE	0x02
#define GL_ROW_ENDING		0x04

/* Bitmaps of rows: one bit per row, bit r in word r / 64. */
static inline size_t
gl_bitmap_words(uint64_t nrows)
{
	return (size_t) ((nrows + 63) / 64);
}

/*
 * A function whose loop popcounts bitmap words, built twice on x86-64 --
 * with the POPCNT instruction and without -- and the one the CPU runs
 * chosen when the library loads (GCC's and Clang's function
 * multiversioning).  PostgreSQL's build flags assume no POPCNT, and
 * without it each popcount is a call into libgcc: counting a 15 M-row
 * answer took three times as long (test/bench/answer_bench.c).
 */
#if defined(__x86_64__) && !defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
#define GL_POPCOUNT_LOOP __attribute__((target_clones("popcnt", "default")))
#else
#define GL_POPCOUNT_LOOP
#endif

/* How many bits of bits[0 .. nwords) are set. */
extern uint64_t gl_bitmap_count(const uint64_t *bits, size_t nwords);

/* The bits of word w that stand for rows below nrows. */
static inline uint64_t
gl_bitmap_word_mask(uint64_t nrows, uint64_t w)
{
	return w < nrows / 64 ? ~UINT64_C(0) : (UINT64_C(1) << (nrows % 64)) - 1;
}

static inline bool
gl_column_is_null(const GlColumn *col, uint64_t row)
{
	return (col->nulls[row / 64] >> (row % 64)) & 1;
}

static inline bool
gl_bitmap_test(const uint64_t *bits, uint64_t row)
{
	return (bits[row / 64] >> (row % 64)) & 1;
}

/*
 * Bitmap word w of the rows that can be candidates at all: neither NULL
 * (a NULL satisfies no pattern operator, negated or not) nor superseded.
 */
static inline uint64_t
gl_column_answerable_word(const GlColumn *col, uint64_t w)
{
	return ~(col->nulls[w] | col->superseded[w]);
}

static inline GlTid
gl_column_tid(const GlColumn *col, uint64_t row)
{
	return gl_row_tid(&col->tids, row);
}

/* Where row's value starts in data; entry nrows is the values' end. */
static inline uint64_t
gl_column_offset(const GlColumn *col, uint64_t entry)
{
	return gl_row_offset(&col->offsets, entry);
}

static inline const char *
gl_column_value(const GlColumn *col, uint64_t row, uint32_t *len)
{
	uint64_t	start = gl_column_offset(col, row);

	*len = (uint32_t) (gl_column_offset(col, row + 1) - start);
	return col->data + start;
}

/* column.c: plain malloc-based; all return false on out-of-memory. */
extern bool gl_column_init(GlColumn *col, uint64_t rows_hint, uint64_t bytes_hint);

/*
 * Append one tuple version (flags: GL_ROW_*); an earlier row with the same
 * TID becomes superseded.
 */
extern bool gl_column_append(GlColumn *col, GlTid tid, const char *value,
							 uint32_t len, uint32_t flags);

/* A delete or update of the tuple at tid was logged: it may be gone. */
extern void gl_column_mark_ended(GlColumn *col, GlTid tid);

/* The latest row holding tid; false if none. */
extern bool gl_column_latest_row(const GlColumn *col, GlTid tid, uint64_t *row);

extern void gl_column_trim(GlColumn *col);

/*
 * Move the values to a new file in directory (value_file.h), where they
 * stay as the column grows; false, errno set, leaves them where they were.
 */
extern bool gl_column_values_to_file(GlColumn *col, const char *directory);

/*
 * Bring col->pages up to the whole sorted prefix (which only ever grows at
 * its end).  False on out-of-memory; the index then covers fewer rows.
 * It changes the column: whoever may change the column calls it, not a
 * reader beside others.
 */
extern bool gl_column_index_pages(GlColumn *col);

/*
 * Extend col->pairs over every row (chunk_pairs.h), on nthreads threads
 * at most.  False on out-of-memory; the summary then covers fewer rows.
 * As for the page index, whoever may change the column calls it.
 */
extern bool gl_column_summarize_pairs(GlColumn *col, int nthreads);

/* Does col->pages cover the whole sorted prefix? */
static inline bool
gl_column_pages_indexed(const GlColumn *col)
{
	return col->pages.indexed_rows == col->sorted_rows;
}

/* The first of n increasing blocks that is not below block (n if none). */
static inline uint64_t
gl_blocks_lower_bound(const uint32_t *blocks, uint64_t n, uint32_t block)
{
	uint64_t	lo = 0;
	uint64_t	hi = n;

	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (blocks[mid] < block)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The sorted, distinct heap blocks of the rows past the sorted prefix
 * (delta rows) not superseded, *n of them (malloc'd; NULL on
 * out-of-memory).
 */
extern uint32_t *gl_column_delta_blocks(const GlColumn *col, uint64_t *n);

/*
 * Whether an append that failed with errno why failed for the values'
 * file, which could not grow (a full disk, most likely), rather than for
 * memory.
 */
extern bool gl_column_append_failed_in_file(const GlColumn *col, int why);

extern void gl_column_free(GlColumn *col);
/* Memory the column holds; and the bytes of its values' file, if any. */
extern size_t gl_column_host_bytes(const GlColumn *col);
extern uint64_t gl_column_file_bytes(const GlColumn *col);

#endif							/* GPULIKE_COLUMN_H */
