/*-------------------------------------------------------------------------
 *
 * row_offsets.h
 *	  Where each row's value starts in a cached column's values, in four
 *	  bytes a row instead of eight (a leaf, like column.h, which owns one).
 *
 * A column of n rows has n + 1 offsets, entry r where row r's value starts
 * and entry n the values' end; they never decrease.  Entries come in
 * blocks of 65 536: a block keeps its first entry's offset whole (eight
 * bytes) and each entry its distance from it (four).  So an offset is two
 * loads and an add, and a 60 GB column of 48-byte values keeps 4.9 GB of
 * offsets instead of 9.9.
 *
 * A block's distances fit in four bytes unless its rows' values take
 * 4 GiB or more: 64 kB a value on average.  A column that has such a block
 * keeps every offset whole instead (`whole`, eight bytes an entry, as
 * before), which matters little beside values that long; so does the view
 * of a sample image (sample.c), over the image's own array.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ROW_OFFSETS_H
#define GPULIKE_ROW_OFFSETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GL_ROW_OFFSET_BLOCK		65536

typedef struct GlRowOffsets
{
	uint64_t   *block_first;	/* offset of each block's first entry */
	uint32_t   *distance;		/* an entry's offset minus its block's first */
	uint64_t   *whole;			/* every offset, where some block's distances
								 * do not fit (block_first and distance are
								 * NULL then) */
} GlRowOffsets;

/* Offset entry (one already set). */
static inline uint64_t
gl_row_offset(const GlRowOffsets *o, uint64_t entry)
{
	if (o->whole != NULL)
		return o->whole[entry];
	return o->block_first[entry / GL_ROW_OFFSET_BLOCK] + o->distance[entry];
}

/*
 * Room for capacity entries (realloc; false on out-of-memory, the entries
 * set so far kept).
 */
extern bool gl_row_offsets_resize(GlRowOffsets *o, uint64_t capacity);

/*
 * Make sure that setting entry to offset cannot fail: where its distance
 * does not fit, every offset is made whole now, with room for capacity
 * entries (o's).  False on out-of-memory, o unchanged.
 */
extern bool gl_row_offsets_reserve(GlRowOffsets *o, uint64_t entry, uint64_t offset,
								   uint64_t capacity);

/*
 * Set entry's offset: entries in increasing order from 0, each once, after
 * gl_row_offsets_reserve() for it.
 */
extern void gl_row_offsets_set(GlRowOffsets *o, uint64_t entry, uint64_t offset);

/* Bytes held for capacity entries. */
extern size_t gl_row_offsets_bytes(const GlRowOffsets *o, uint64_t capacity);

extern void gl_row_offsets_free(GlRowOffsets *o);

#endif							/* GPULIKE_ROW_OFFSETS_H */
