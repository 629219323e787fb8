/*-------------------------------------------------------------------------
 *
 * chunk_pairs.c
 *	  The byte-pair summary of a column's chunks (see chunk_pairs.h).
 *
 * The bits grow by doubling, zeroed as they are taken: a chunk's bits are
 * only ever set, since rows are only ever appended (a superseded or ended
 * row's pairs stay: the summary may only say too much, never too little).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/chunk_pairs.h"
#include "column/resize_array.h"

bool
gl_chunk_pairs_reserve(GlChunkPairs *pairs, uint64_t nchunks)
{
	uint64_t	capacity = pairs->capacity_chunks > 0 ? pairs->capacity_chunks : 16;

	if (nchunks <= pairs->capacity_chunks)
		return true;
	while (capacity < nchunks)
		capacity *= 2;
	if (!gl_resize_array((void **) &pairs->bits, capacity * GL_PAIR_CHUNK_WORDS,
						 sizeof(uint64_t)))
		return false;
	memset(pairs->bits + pairs->capacity_chunks * GL_PAIR_CHUNK_WORDS, 0,
		   (capacity - pairs->capacity_chunks) * GL_PAIR_CHUNK_WORDS * sizeof(uint64_t));
	pairs->capacity_chunks = capacity;
	return true;
}

void
gl_chunk_pairs_add(GlChunkPairs *pairs, uint64_t row, const char *value, uint32_t len)
{
	const uint8_t *s = (const uint8_t *) value;
	uint64_t   *bits = pairs->bits + row / GL_PAIR_CHUNK_ROWS * GL_PAIR_CHUNK_WORDS;
	uint32_t	prev;

	if (len == 0)
		return;
	prev = gl_pair_class(s[0]);
	for (uint32_t i = 1; i < len; i++)
	{
		uint32_t	cls = gl_pair_class(s[i]);
		uint32_t	pair = prev * GL_PAIR_CLASSES + cls;

		bits[pair / 64] |= (uint64_t) 1 << (pair % 64);
		prev = cls;
	}
}

void
gl_required_pairs_add(GlRequiredPairs *req, uint8_t first_class, uint8_t second_class)
{
	uint16_t	pair = (uint16_t) (first_class * GL_PAIR_CLASSES + second_class);

	for (int i = 0; i < req->npairs; i++)
		if (req->pairs[i] == pair)
			return;
	if (req->npairs < GL_MAX_REQUIRED_PAIRS)
		req->pairs[req->npairs++] = pair;
}

void
gl_chunk_pairs_free(GlChunkPairs *pairs)
{
	free(pairs->bits);
	memset(pairs, 0, sizeof(GlChunkPairs));
}
