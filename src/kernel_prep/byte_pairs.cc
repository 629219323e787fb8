/*-------------------------------------------------------------------------
 *
 * byte_pairs.cc
 *	  Counting a column's text sample (byte_pairs.h): a few milliseconds
 *	  for any column, since at most GL_PAIR_SAMPLE_ROWS rows are read.
 *
 * The rows are spread over the whole column (every stride-th), so a
 * column loaded in some order -- by date, by customer -- is sampled over
 * all of it; the sampled text takes every so many of those rows for the
 * same reason.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "kernel_prep/byte_pairs.h"

/* The byte pairs of rows spread over col (byte_pairs.h). */
GlBytePairs *
gl_count_byte_pairs(const GlColumn *col)
{
	GlBytePairs *pairs = (GlBytePairs *) calloc(1, sizeof(GlBytePairs));
	uint64_t	stride = gl_pair_sample_stride(col->nrows);
	uint64_t	sampled = col->nrows / stride + 1;
	uint64_t	mean_row = col->nrows > 0 ? gl_column_offset(col, col->nrows) / col->nrows + 1 : 1;
	/* every text_every-th sampled row to the text, so that it spans the column */
	uint64_t	text_every = sampled / (GL_TEXT_SAMPLE_BYTES / mean_row + 1) + 1;

	if (pairs == NULL)
		return NULL;
	for (uint64_t row = 0; row < col->nrows; row += stride)
	{
		uint32_t	len;
		const uint8_t *v = (const uint8_t *) gl_column_value(col, row, &len);

		if ((row / stride) % text_every == 0 &&
			pairs->text_bytes + len + 1 <= GL_TEXT_SAMPLE_BYTES)
		{
			memcpy(pairs->text + pairs->text_bytes, v, len);
			pairs->text_bytes += len + 1;	/* the separator: calloc's zero */
		}
		for (uint32_t k = 0; k < len; k++)
			pairs->bytes[v[k]]++;
		for (uint32_t k = 1; k < len; k++)
			pairs->pairs[v[k - 1] << 8 | v[k]]++;
		for (uint32_t k = 2; k < len; k++)
		{
			uint32_t	bit = gl_trigram_bit(v[k - 2], v[k - 1], v[k]);

			pairs->trigrams[bit / 64] |= UINT64_C(1) << (bit % 64);
		}
		pairs->nbytes += len;
		pairs->npairs += len > 0 ? len - 1 : 0;
	}
	return pairs;
}
