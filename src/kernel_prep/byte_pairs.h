/*-------------------------------------------------------------------------
 *
 * byte_pairs.h
 *	  A column's text sample, counted once when the column is copied to a
 *	  GPU (cuda/device_column.cu calls gl_count_byte_pairs()), which the
 *	  preparation consults for every program on that column.
 *
 * What the sample answers is how rare some bytes are in this column's own
 * text, where typical frequencies would guess: the sieve takes its probes
 * where they are rare (sieve_choice.cc), the set sieve is chosen where the
 * literals' bigrams are (literal_set.cc), a literal is looked for by a
 * factor the sample never holds (literal_factors.cc), and the compact and
 * windowed tables number their states for the banks on the sampled rows
 * themselves (compact_for_text.cc, classed_table.cc).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_BYTE_PAIRS_H
#define GPULIKE_BYTE_PAIRS_H

#include <stdint.h>

extern "C"
{
#include "column/column.h"
}

/*
 * How often each two adjacent bytes occur in a column's values, counted
 * on up to GL_PAIR_SAMPLE_ROWS rows spread over the column, and some of
 * those rows as the device stream holds them (each followed by its 0x00
 * separator), up to GL_TEXT_SAMPLE_BYTES.
 */
#define GL_TEXT_SAMPLE_BYTES	8192
#define GL_PAIR_SAMPLE_ROWS		65536
/*
 * The same rows' three adjacent bytes, hashed to one bit each: a clear
 * bit is a trigram those rows never hold (literal_factors.cc looks for
 * one in a literal).  2^21 bits for the few ten thousand trigrams of a
 * column's text leave most bits clear.
 */
#define GL_TRIGRAM_BITS			(1u << 21)

typedef struct GlBytePairs
{
	uint64_t	npairs;
	uint64_t	nbytes;
	uint64_t	bytes[256];		/* [b]: how often byte b */
	uint32_t	pairs[65536];	/* [a << 8 | b]: how often a then b */
	uint64_t	trigrams[GL_TRIGRAM_BITS / 64]; /* bit gl_trigram_bit(): seen */
	uint32_t	text_bytes;
	uint8_t		text[GL_TEXT_SAMPLE_BYTES]; /* rows, each ending in 0x00 */
} GlBytePairs;

/* The bit of trigram a, b, c in GlBytePairs.trigrams (a multiplicative hash). */
static inline uint32_t
gl_trigram_bit(uint8_t a, uint8_t b, uint8_t c)
{
	return (((uint32_t) a << 16 | (uint32_t) b << 8 | c) * 2654435761u) >> 11;
}

static inline bool
gl_trigram_seen(const GlBytePairs *pairs, uint8_t a, uint8_t b, uint8_t c)
{
	uint32_t	bit = gl_trigram_bit(a, b, c);

	return (pairs->trigrams[bit / 64] >> (bit % 64)) & 1;
}

/* The sample is rows 0, stride, 2 stride, ... of a column of nrows rows. */
static inline uint64_t
gl_pair_sample_stride(uint64_t nrows)
{
	return nrows / GL_PAIR_SAMPLE_ROWS + 1;
}

/* The byte pairs of col as an upload counts them (malloc'd); NULL if no memory. */
extern GlBytePairs *gl_count_byte_pairs(const GlColumn *col);

#endif							/* GPULIKE_BYTE_PAIRS_H */
