/*-------------------------------------------------------------------------
 *
 * counting_rows.h
 *	  What an engine needs of a column to count a match's candidates
 *	  itself, as a counting answer does (answer.h), instead of sending
 *	  every matched row back to be counted (a leaf: plain C, tested alone).
 *
 * A counting answer counts the set rows of an index page of the sorted
 * prefix when the page's block is all-visible to the asker, no delta row
 * lies on it, and none of its set rows is uncertain (not known live); it
 * lists the page otherwise (answer.c).  These arrays let the CUDA engine
 * make that decision per page on the device, so that a count comes back
 * as a number and the few words that must still be listed
 * (cuda/counting.cu), not as the column's whole result bitmap.  The
 * arrays describe the column as it is: whoever changes the column builds
 * them again.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_COUNTING_ROWS_H
#define GPULIKE_COUNTING_ROWS_H

#include "column/column.h"

/* A page whose block also holds delta rows: never counted. */
#define GL_COUNTING_NO_BLOCK	UINT32_MAX

typedef struct GlCountingRows
{
	uint64_t	nrows;			/* the column's rows */
	uint64_t   *answerable;		/* gl_bitmap_words(nrows): rows that can be
								 * candidates (gl_column_answerable_word),
								 * none past nrows */
	uint64_t   *uncertain;		/* answerable and not known live */
	uint32_t	npages;			/* pages of the index */
	uint32_t   *page_first_row; /* npages + 1: page p is rows [p], [p + 1);
								 * the last entry is the indexed rows' end */
	uint32_t   *page_block;		/* npages: the page's heap block, or
								 * GL_COUNTING_NO_BLOCK */
} GlCountingRows;

/*
 * Build rows for col, whose page index must cover the sorted prefix
 * (gl_column_pages_indexed) and whose rows must fit 32 bits.  False when
 * it does not, or on out-of-memory; rows is then empty.
 */
extern bool gl_counting_rows_build(const GlColumn *col, GlCountingRows *rows);

extern void gl_counting_rows_free(GlCountingRows *rows);

#endif							/* GPULIKE_COUNTING_ROWS_H */
