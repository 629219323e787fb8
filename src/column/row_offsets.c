/*-------------------------------------------------------------------------
 *
 * row_offsets.c
 *	  The rows' value offsets of a cached column in blocks of 65 536
 *	  (row_offsets.h has the layout and why).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>

#include "column/resize_array.h"
#include "column/row_offsets.h"

static uint64_t
blocks_of(uint64_t entries)
{
	return (entries + GL_ROW_OFFSET_BLOCK - 1) / GL_ROW_OFFSET_BLOCK;
}

bool
gl_row_offsets_resize(GlRowOffsets *o, uint64_t capacity)
{
	/* each array is left valid for the entries set so far if a later one fails */
	if (o->whole != NULL)
		return gl_resize_array((void **) &o->whole, capacity, sizeof(uint64_t));
	return gl_resize_array((void **) &o->distance, capacity, sizeof(uint32_t)) &&
		gl_resize_array((void **) &o->block_first, blocks_of(capacity), sizeof(uint64_t));
}

/* Whether entry's offset is kept as its distance from its block's first. */
static bool
fits_block(const GlRowOffsets *o, uint64_t entry, uint64_t offset)
{
	if (entry % GL_ROW_OFFSET_BLOCK == 0)
		return true;			/* a block's first entry sets its block */
	return offset - o->block_first[entry / GL_ROW_OFFSET_BLOCK] <= UINT32_MAX;
}

bool
gl_row_offsets_reserve(GlRowOffsets *o, uint64_t entry, uint64_t offset, uint64_t capacity)
{
	uint64_t   *whole;

	if (o->whole != NULL || fits_block(o, entry, offset))
		return true;
	whole = malloc((capacity > 0 ? capacity : 1) * sizeof(uint64_t));
	if (whole == NULL)
		return false;
	for (uint64_t e = 0; e < entry; e++)
		whole[e] = gl_row_offset(o, e);
	free(o->block_first);
	free(o->distance);
	o->block_first = NULL;
	o->distance = NULL;
	o->whole = whole;
	return true;
}

void
gl_row_offsets_set(GlRowOffsets *o, uint64_t entry, uint64_t offset)
{
	uint64_t	block = entry / GL_ROW_OFFSET_BLOCK;

	if (o->whole != NULL)
		o->whole[entry] = offset;
	else
	{
		if (entry % GL_ROW_OFFSET_BLOCK == 0)
			o->block_first[block] = offset;
		o->distance[entry] = (uint32_t) (offset - o->block_first[block]);
	}
}

size_t
gl_row_offsets_bytes(const GlRowOffsets *o, uint64_t capacity)
{
	if (o->whole != NULL)
		return capacity * sizeof(uint64_t);
	return capacity * sizeof(uint32_t) + blocks_of(capacity) * sizeof(uint64_t);
}

void
gl_row_offsets_free(GlRowOffsets *o)
{
	free(o->block_first);
	free(o->distance);
	free(o->whole);
	o->block_first = NULL;
	o->distance = NULL;
	o->whole = NULL;
}
