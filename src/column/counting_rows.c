/*-------------------------------------------------------------------------
 *
 * counting_rows.c
 *	  Building the arrays an engine counts a column's candidates with (see
 *	  counting_rows.h).
 *
 * One pass over the bitmaps for the answerable and uncertain rows, one
 * over the page index, and a binary search of the index for each block
 * that holds delta rows, whose page (if the prefix has one) is then never
 * counted: about a millisecond for 15 M rows, done when the column
 * changes, not per request.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/counting_rows.h"

/* The index page of block, or npages if the prefix has none. */
static uint64_t
page_of_block(const GlPageIndex *index, uint32_t block)
{
	uint64_t	p = gl_blocks_lower_bound(index->blocks, index->npages, block);

	return p < index->npages && index->blocks[p] == block ? p : index->npages;
}

bool
gl_counting_rows_build(const GlColumn *col, GlCountingRows *rows)
{
	const GlPageIndex *index = &col->pages;
	uint64_t	nwords = gl_bitmap_words(col->nrows);
	uint32_t   *delta_blocks;
	uint64_t	ndelta_blocks = 0;

	memset(rows, 0, sizeof(*rows));
	if (!gl_column_pages_indexed(col) || col->nrows >= UINT32_MAX ||
		index->npages >= UINT32_MAX)
		return false;
	rows->nrows = col->nrows;
	rows->npages = (uint32_t) index->npages;
	rows->answerable = malloc((nwords + 1) * sizeof(uint64_t));
	rows->uncertain = malloc((nwords + 1) * sizeof(uint64_t));
	rows->page_first_row = malloc((index->npages + 1) * sizeof(uint32_t));
	rows->page_block = malloc((index->npages + 1) * sizeof(uint32_t));
	delta_blocks = gl_column_delta_blocks(col, &ndelta_blocks);
	if (rows->answerable == NULL || rows->uncertain == NULL ||
		rows->page_first_row == NULL || rows->page_block == NULL || delta_blocks == NULL)
	{
		free(delta_blocks);
		gl_counting_rows_free(rows);
		return false;
	}

	for (uint64_t w = 0; w < nwords; w++)
	{
		uint64_t	answerable = gl_column_answerable_word(col, w) &
			gl_bitmap_word_mask(col->nrows, w);

		rows->answerable[w] = answerable;
		rows->uncertain[w] = answerable & ~col->known_live[w];
	}
	for (uint64_t p = 0; p < index->npages; p++)
	{
		rows->page_first_row[p] = (uint32_t) index->first_rows[p];
		rows->page_block[p] = index->blocks[p];
	}
	rows->page_first_row[index->npages] = (uint32_t) index->indexed_rows;
	for (uint64_t i = 0; i < ndelta_blocks; i++)
	{
		uint64_t	p = page_of_block(index, delta_blocks[i]);

		if (p < index->npages)
			rows->page_block[p] = GL_COUNTING_NO_BLOCK;
	}
	free(delta_blocks);
	return true;
}

void
gl_counting_rows_free(GlCountingRows *rows)
{
	free(rows->answerable);
	free(rows->uncertain);
	free(rows->page_first_row);
	free(rows->page_block);
	memset(rows, 0, sizeof(*rows));
}
