/*-------------------------------------------------------------------------
 *
 * sample.h
 *	  A sample of a cached column for the planner, as one flat image that
 *	  the server writes once and every backend reads in place (a leaf: no
 *	  PostgreSQL calls).
 *
 * The sample is systematic: every step-th row that is not superseded,
 * NULLs included.  Its first lead_rows rows are themselves an evenly
 * spaced subset of it (every k-th sampled row), so the image's prefix is
 * a smaller sample of the same column.  The planner matches a pattern on
 * the prefix first and on the whole sample only when the prefix holds too
 * few matches to trust (scan/sample_estimate.c): a rare pattern then gets
 * a sample large enough for its estimate, and every other pattern costs
 * only the prefix.
 *
 * Layout, each part 8-byte aligned:
 *	GlSampleImage			the header below
 *	uint64 offsets[nrows + 1]	row r is values[offsets[r] .. offsets[r + 1])
 *	uint64 nulls[gl_bitmap_words(nrows)]	bit r set: row r is NULL
 *	char values[value_bytes]
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SAMPLE_H
#define GPULIKE_SAMPLE_H

#include "column/column.h"

#define GL_SAMPLE_MAGIC		0x31534C47	/* "GLS1" */

typedef struct GlSampleImage
{
	uint32_t	magic;			/* GL_SAMPLE_MAGIC */
	uint32_t	nrows;
	uint32_t	lead_rows;		/* rows [0, lead_rows): the smaller sample */
	uint32_t	pad;
	uint64_t	value_bytes;
} GlSampleImage;

/*
 * Sample up to max_rows rows of col whose values take at most max_bytes
 * (fewer rows, evenly spaced still, when they would take more), the first
 * up to lead_rows of them evenly spaced among the others.  malloc'd, its
 * size in *size; NULL on out-of-memory.
 */
extern GlSampleImage *gl_sample_image_build(const GlColumn *col, uint32_t max_rows,
											uint32_t lead_rows, size_t max_bytes,
											size_t *size);

/*
 * A read-only column over the image's rows (only its lead rows, with
 * lead_only): nrows, offsets, nulls and data are set, nothing else, and
 * the view must not be freed.  False when size bytes cannot hold the
 * image the header describes.
 */
extern bool gl_sample_image_view(const GlSampleImage *image, size_t size, bool lead_only,
								 GlColumn *view);

#endif							/* GPULIKE_SAMPLE_H */
