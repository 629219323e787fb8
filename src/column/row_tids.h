/*-------------------------------------------------------------------------
 *
 * row_tids.h
 *	  The heap TID of each row of a cached column, in about three bytes a
 *	  row instead of eight (a leaf, like column.h, which owns one).
 *
 * The loader appends rows in heap TID order, so the rows of a short run
 * lie on a few neighbouring pages.  Rows come in groups of 64: a group
 * keeps the TID of its first row, and each row the distance of its own
 * block from that row's (one byte) and its line pointer (two).  A group
 * with a row whose block is below the first row's, or 255 or more above
 * it (rows the delta log appended in commit order, after the loader's; a
 * group across a long run of emptied pages), is kept wide: its 64 TIDs
 * whole in an array of such groups, its rows' distance bytes
 * GL_ROW_TID_WIDE.  So a row's TID is three loads and an add, or three
 * loads; a column loaded in TID order has no wide group, and a wide group
 * costs 11 bytes a row.
 *
 * A TID's row among the loader's, in increasing TID order, is found by a
 * binary search over the groups' first TIDs (an eighth of a byte a row,
 * so its upper levels stay in cache), then over the group's rows.
 *
 * 64 rows so that a group is one word of the row bitmaps; 12 bytes a group
 * and three a row: 3.19 bytes a row (a 60 GB column of 48-byte values:
 * 4.0 GB, not 10).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ROW_TIDS_H
#define GPULIKE_ROW_TIDS_H

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

#define GL_ROW_TID_GROUP	64
#define GL_ROW_TID_WIDE		255

typedef struct GlRowTids
{
	GlTid	   *group_first;	/* TID of each group's first row */
	uint32_t   *group_wide;		/* a wide group's block in wide_tids */
	uint8_t    *distance;		/* a row's block minus its group's first, or
								 * GL_ROW_TID_WIDE */
	uint16_t   *line;			/* a row's line pointer */
	uint64_t	nwide;			/* wide groups */
	uint64_t	capacity_wide;
	GlTid	   *wide_tids;		/* GL_ROW_TID_GROUP TIDs a wide group */
} GlRowTids;

/* The TID of row (one already set). */
static inline GlTid
gl_row_tid(const GlRowTids *t, uint64_t row)
{
	uint64_t	group = row / GL_ROW_TID_GROUP;
	uint8_t		distance = t->distance[row];

	if (distance == GL_ROW_TID_WIDE)
		return t->wide_tids[(uint64_t) t->group_wide[group] * GL_ROW_TID_GROUP +
							row % GL_ROW_TID_GROUP];
	return gl_tid_make(gl_tid_block(t->group_first[group]) + distance, t->line[row]);
}

/*
 * The row among [0, nsorted), whose TIDs increase, that holds tid; false if
 * none does.
 */
extern bool gl_row_tids_find(const GlRowTids *t, uint64_t nsorted, GlTid tid, uint64_t *row);

/* Room for capacity rows (realloc; false on out-of-memory, t unchanged then). */
extern bool gl_row_tids_resize(GlRowTids *t, uint64_t capacity);

/*
 * Make sure that setting row to tid cannot fail: room for its group's wide
 * block, if it needs one.  False on out-of-memory.
 */
extern bool gl_row_tids_reserve(GlRowTids *t, uint64_t row, GlTid tid);

/*
 * Set row's TID: rows in increasing order from 0, each once, after
 * gl_row_tids_reserve() for it.
 */
extern void gl_row_tids_set(GlRowTids *t, uint64_t row, GlTid tid);

/* The wide groups' array trimmed to what it holds. */
extern void gl_row_tids_trim(GlRowTids *t);

/* Bytes held for capacity rows. */
extern size_t gl_row_tids_bytes(const GlRowTids *t, uint64_t capacity);

extern void gl_row_tids_free(GlRowTids *t);

#endif							/* GPULIKE_ROW_TIDS_H */
