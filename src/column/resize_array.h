/*-------------------------------------------------------------------------
 *
 * resize_array.h
 *	  realloc for the arrays a column keeps a row or a group of rows
 *	  (column.c, row_tids.c, row_offsets.c): a leaf, like column.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_RESIZE_ARRAY_H
#define GPULIKE_RESIZE_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* realloc *array to n elements of size (at least one); false leaves it. */
static inline bool
gl_resize_array(void **array, uint64_t n, size_t size)
{
	void	   *p = realloc(*array, (n > 0 ? n : 1) * size);

	if (p == NULL)
		return false;
	*array = p;
	return true;
}

#endif							/* GPULIKE_RESIZE_ARRAY_H */
