/*-------------------------------------------------------------------------
 *
 * chunk_pairs.h
 *	  Which pairs of bytes the values of each chunk of a column's rows
 *	  hold: a summary that lets an engine pass over the chunks a pattern
 *	  cannot match in (a leaf, as column.h).
 *
 * A column's rows are taken in chunks of GL_PAIR_CHUNK_ROWS, the CPU
 * engine's unit of work.  For each chunk one bit per pair of byte
 * classes says whether some value of the chunk holds a byte of the first
 * class followed by a byte of the second.  The classes fold ASCII capitals
 * to small letters and put every byte from 0x7F on into one class, so
 * that 128 x 128 bits, 2 kB a chunk, cover every pair (about 1 % of the
 * values' bytes for TPC-H comments, 49 bytes a row).
 *
 * A pattern's pair of adjacent characters that take only ASCII bytes, and
 * only bytes of one class each (e and b; for ILIKE e or E, b or B), is in
 * every value that matches: a chunk whose bits lack any such pair of the
 * pattern has no matching row (gl_chunk_pairs_may_match).  That is a
 * trigram index's question asked per chunk instead of per row: cheap to
 * keep for every row, and it spares the engine the chunks of a search
 * whose pairs are rare -- a term in no row skips nearly all of them.  It
 * never decides a match, so it can only cost time, never an answer.
 *
 * The column holds the summary (column.h, GlColumn.pairs); whoever may
 * change the column extends it over rows appended since
 * (gl_column_summarize_pairs, on several threads: about 2 ns a byte on
 * one), and an engine uses a chunk's bits only where they cover every
 * row of the chunk.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CHUNK_PAIRS_H
#define GPULIKE_CHUNK_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GL_PAIR_CHUNK_ROWS	4096
/* Words of a row bitmap (a bit a row) that one chunk's rows take. */
#define GL_PAIR_CHUNK_BITMAP_WORDS	(GL_PAIR_CHUNK_ROWS / 64)
#define GL_PAIR_CLASSES		128
#define GL_PAIR_CHUNK_WORDS (GL_PAIR_CLASSES * GL_PAIR_CLASSES / 64)
/* Most pairs of a pattern tested per chunk (a long pattern's first ones). */
#define GL_MAX_REQUIRED_PAIRS	32

typedef struct GlChunkPairs
{
	uint64_t   *bits;			/* GL_PAIR_CHUNK_WORDS words a chunk */
	uint64_t	capacity_chunks;	/* chunks bits has room for */
	uint64_t	summarized_rows;	/* rows [0, summarized_rows) are in */
} GlChunkPairs;

/* Pairs every match of a pattern holds: class * GL_PAIR_CLASSES + class. */
typedef struct GlRequiredPairs
{
	int			npairs;
	uint16_t	pairs[GL_MAX_REQUIRED_PAIRS];
} GlRequiredPairs;

/* A byte's class: ASCII capitals as small letters, 0x7F and up as one. */
static inline uint8_t
gl_pair_class(uint8_t b)
{
	if (b >= 0x7F)
		return 0x7F;
	return (b >= 'A' && b <= 'Z') ? (uint8_t) (b + ('a' - 'A')) : b;
}

/* The chunks of a column of nrows rows, the last one possibly partial. */
static inline uint64_t
gl_chunk_count(uint64_t nrows)
{
	return (nrows + GL_PAIR_CHUNK_ROWS - 1) / GL_PAIR_CHUNK_ROWS;
}

/* Room for chunks [0, nchunks), new ones zeroed; false on out-of-memory. */
extern bool gl_chunk_pairs_reserve(GlChunkPairs *pairs, uint64_t nchunks);

/*
 * Add value (len bytes) of row `row`, whose chunk has room, to its chunk's
 * bits.  Threads may add rows of different chunks at once; the caller
 * moves summarized_rows on once they are all in.
 */
extern void gl_chunk_pairs_add(GlChunkPairs *pairs, uint64_t row, const char *value,
							   uint32_t len);

/* Add a required pair (once; past GL_MAX_REQUIRED_PAIRS, not at all). */
extern void gl_required_pairs_add(GlRequiredPairs *req, uint8_t first_class,
								  uint8_t second_class);

/*
 * Can chunk `chunk` (rows [chunk * GL_PAIR_CHUNK_ROWS, ...) of a column
 * of nrows rows) hold a match of a pattern that requires req?  True when
 * the summary does not cover all its rows.
 */
static inline bool
gl_chunk_pairs_may_match(const GlChunkPairs *pairs, uint64_t nrows, uint64_t chunk,
						 const GlRequiredPairs *req)
{
	uint64_t	end = (chunk + 1) * GL_PAIR_CHUNK_ROWS;
	const uint64_t *bits;

	if ((end < nrows ? end : nrows) > pairs->summarized_rows)
		return true;
	bits = pairs->bits + chunk * GL_PAIR_CHUNK_WORDS;
	for (int i = 0; i < req->npairs; i++)
		if (!((bits[req->pairs[i] / 64] >> (req->pairs[i] % 64)) & 1))
			return false;
	return true;
}

/*
 * Sets of pairs of which every match holds one whole: a literal set's
 * (LIKE ANY), each literal's pairs.  A chunk that holds no set whole has
 * no match.  nsets 0: nothing to test, every chunk may match.
 */
typedef struct GlRequiredPairSets
{
	int			nsets;
	GlRequiredPairs *sets;		/* malloc'd */
} GlRequiredPairSets;

/* The same question for sets: can the chunk hold every pair of some set? */
static inline bool
gl_chunk_pairs_may_match_one_of(const GlChunkPairs *pairs, uint64_t nrows, uint64_t chunk,
								const GlRequiredPairSets *sets)
{
	for (int i = 0; i < sets->nsets; i++)
		if (gl_chunk_pairs_may_match(pairs, nrows, chunk, &sets->sets[i]))
			return true;
	return sets->nsets == 0;
}

/* Memory the summary holds. */
static inline size_t
gl_chunk_pairs_bytes(const GlChunkPairs *pairs)
{
	return pairs->capacity_chunks * GL_PAIR_CHUNK_WORDS * sizeof(uint64_t);
}

extern void gl_chunk_pairs_free(GlChunkPairs *pairs);

#endif							/* GPULIKE_CHUNK_PAIRS_H */
