/*-------------------------------------------------------------------------
 *
 * sample.c
 *	  Sampling a cached column into a flat image (see sample.h).
 *
 * Live rows are counted a word of the superseded bitmap at a time, and
 * only the words holding a sampled row are looked into: on 15 M rows that
 * is a quarter million words, not 15 M tests.  When the sampled values
 * would take more than the bytes allowed, the sample is taken again with
 * a larger step rather than cut short, so that it still spreads over the
 * whole column.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/sample.h"

static uint64_t
live_rows(const GlColumn *col)
{
	uint64_t	live = 0;

	for (uint64_t w = 0; w < gl_bitmap_words(col->nrows); w++)
		live += (uint64_t) __builtin_popcountll(~col->superseded[w] &
												gl_bitmap_word_mask(col->nrows, w));
	return live;
}

/* The live rows 0, step, 2 * step, ... (counted among live rows), n at most. */
static uint32_t
pick_rows(const GlColumn *col, uint64_t step, uint32_t n, uint64_t *rows)
{
	uint64_t	seen = 0;		/* live rows before word w */
	uint64_t	next = 0;		/* the live row to take next */
	uint32_t	taken = 0;

	for (uint64_t w = 0; w < gl_bitmap_words(col->nrows) && taken < n; w++)
	{
		uint64_t	unsuperseded = ~col->superseded[w] &
			gl_bitmap_word_mask(col->nrows, w);
		uint64_t	in_word = (uint64_t) __builtin_popcountll(unsuperseded);

		while (taken < n && next < seen + in_word)
		{
			uint64_t	bits = unsuperseded;

			/* drop the word's live rows before the one wanted */
			for (uint64_t skip = next - seen; skip > 0; skip--)
				bits &= bits - 1;
			rows[taken++] = w * 64 + (uint64_t) __builtin_ctzll(bits);
			next += step;
		}
		seen += in_word;
	}
	return taken;
}

static uint64_t
value_bytes(const GlColumn *col, const uint64_t *rows, uint32_t n)
{
	uint64_t	bytes = 0;

	for (uint32_t i = 0; i < n; i++)
		bytes += gl_column_offset(col, rows[i] + 1) - gl_column_offset(col, rows[i]);
	return bytes;
}

static size_t
image_size(uint32_t nrows, uint64_t bytes)
{
	return sizeof(GlSampleImage) + ((size_t) nrows + 1) * sizeof(uint64_t) +
		gl_bitmap_words(nrows) * sizeof(uint64_t) + bytes;
}

/* Append row to the image as its row 'at'. */
static void
put_row(const GlColumn *col, uint64_t row, uint32_t at, uint64_t *offsets,
		uint64_t *nulls, char *values)
{
	uint32_t	len;
	const char *value = gl_column_value(col, row, &len);

	if (gl_column_is_null(col, row))
		nulls[at / 64] |= UINT64_C(1) << (at % 64);
	memcpy(values + offsets[at], value, len);
	offsets[at + 1] = offsets[at] + len;
}

GlSampleImage *
gl_sample_image_build(const GlColumn *col, uint32_t max_rows, uint32_t lead_rows,
					  size_t max_bytes, size_t *size)
{
	uint64_t	live = live_rows(col);
	uint32_t	n = live < max_rows ? (uint32_t) live : max_rows;
	uint64_t   *rows = malloc(((size_t) n + 1) * sizeof(uint64_t));
	uint64_t	bytes = 0;
	uint32_t	every;			/* lead rows are every every-th sampled row */
	uint32_t	at = 0;
	GlSampleImage *image;
	uint64_t   *offsets;
	uint64_t   *nulls;
	char	   *values;

	if (rows == NULL)
		return NULL;
	while (n > 0)
	{
		n = pick_rows(col, live / n, n, rows);
		bytes = value_bytes(col, rows, n);
		if (bytes <= max_bytes)
			break;
		/* fewer rows, still spread over the whole column */
		n = (uint32_t) ((double) n * max_bytes / bytes * 0.95);
	}
	if (n == 0)
		bytes = 0;

	*size = image_size(n, bytes);
	image = malloc(*size);
	if (image == NULL)
	{
		free(rows);
		return NULL;
	}
	memset(image, 0, *size - bytes);
	offsets = (uint64_t *) (image + 1);
	nulls = offsets + n + 1;
	values = (char *) (nulls + gl_bitmap_words(n));

	every = lead_rows > 0 && n > lead_rows ? (n + lead_rows - 1) / lead_rows : 1;
	for (uint32_t i = 0; i < n; i += every)
		put_row(col, rows[i], at++, offsets, nulls, values);
	image->lead_rows = at;
	for (uint32_t i = 0; i < n; i++)
	{
		if (i % every != 0)
			put_row(col, rows[i], at++, offsets, nulls, values);
	}
	image->magic = GL_SAMPLE_MAGIC;
	image->nrows = n;
	image->value_bytes = bytes;
	free(rows);
	return image;
}

bool
gl_sample_image_view(const GlSampleImage *image, size_t size, bool lead_only,
					 GlColumn *view)
{
	const uint64_t *offsets = (const uint64_t *) (image + 1);

	if (size < sizeof(GlSampleImage) || image->magic != GL_SAMPLE_MAGIC ||
		image->lead_rows > image->nrows ||
		image_size(image->nrows, image->value_bytes) > size ||
		offsets[0] != 0 || offsets[image->nrows] != image->value_bytes)
		return false;
	for (uint32_t r = 0; r < image->nrows; r++)
	{
		if (offsets[r] > offsets[r + 1])
			return false;
	}

	memset(view, 0, sizeof(GlColumn));
	view->nrows = lead_only ? image->lead_rows : image->nrows;
	view->nbytes = offsets[view->nrows];
	view->offsets.whole = (uint64_t *) offsets;
	view->nulls = (uint64_t *) (offsets + image->nrows + 1);
	view->data = (char *) (view->nulls + gl_bitmap_words(image->nrows));
	return true;
}
