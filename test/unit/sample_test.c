/*
 * sample_test.c
 *	  The planner's sample image (src/column/sample.c): every step-th row
 *	  not superseded, NULLs kept, the lead rows an evenly spaced subset
 *	  placed first, a byte limit met by a larger step rather than a cut,
 *	  and views that refuse an image their size cannot hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "column/sample.h"
#include "tap.h"

/*
 * A column of nrows rows, "v<r>" repeated r % 7 times, every 5th NULL;
 * every third row then updated, so its first version is superseded.
 */
static void
make_column(GlColumn *col, uint64_t nrows)
{
	char		buf[256];

	gl_column_init(col, 16, 64);
	for (uint64_t r = 0; r < nrows; r++)
	{
		int			len = 0;

		for (uint64_t i = 0; i < r % 7; i++)
			len += sprintf(buf + len, "v%llu", (unsigned long long) r);
		gl_column_append(col, gl_tid_make((uint32_t) r / 100, (uint16_t) (r % 100 + 1)),
						 buf, (uint32_t) len, r % 5 == 0 ? GL_ROW_IS_NULL : 0);
	}
	for (uint64_t r = 0; r < nrows; r += 3)
		gl_column_append(col, gl_column_tid(col, r), "updated", 7, 0);
}

/* Is row j of the view the column's row 'row'? */
static bool
same_row(const GlColumn *view, uint64_t j, const GlColumn *col, uint64_t row)
{
	uint32_t	len;
	uint32_t	sampled_len;
	const char *value = gl_column_value(col, row, &len);
	const char *sampled = gl_column_value(view, j, &sampled_len);

	return gl_column_is_null(view, j) == gl_column_is_null(col, row) &&
		sampled_len == len && memcmp(sampled, value, len) == 0;
}

/*
 * The image of a sample of up to max_rows rows (lead_rows leading) within
 * max_bytes, against the live rows picked by hand: sampled row i is live
 * row i * step, and image row j is sampled row j * every for the lead
 * rows, then the others in order.
 */
static void
test_image(uint64_t nrows, uint32_t max_rows, uint32_t lead_rows, size_t max_bytes)
{
	GlColumn	col;
	GlColumn	whole;
	GlColumn	lead;
	uint64_t   *live = malloc(2 * nrows * sizeof(uint64_t));
	uint64_t	nlive = 0;
	size_t		size;
	GlSampleImage *image;
	bool		ok = true;

	make_column(&col, nrows);
	for (uint64_t r = 0; r < col.nrows; r++)
		if (!gl_bitmap_test(col.superseded, r))
			live[nlive++] = r;

	image = gl_sample_image_build(&col, max_rows, lead_rows, max_bytes, &size);
	if (!tap_ok(image != NULL &&
				gl_sample_image_view(image, size, false, &whole) &&
				gl_sample_image_view(image, size, true, &lead),
				"image of %llu rows (at most %u, %u leading, %zu bytes) and its views",
				(unsigned long long) nrows, max_rows, lead_rows, max_bytes))
		goto done;
	{
		uint64_t	n = whole.nrows;
		uint64_t	step = n > 0 ? nlive / n : 1;
		uint64_t	every = n > lead_rows ? (n + lead_rows - 1) / lead_rows : 1;
		uint64_t	j = 0;

		for (uint64_t i = 0; i < n && ok; i += every)
			ok = same_row(&whole, j++, &col, live[i * step]);
		tap_ok(ok && lead.nrows == j && lead.nrows <= lead_rows &&
			   lead.offsets.whole == whole.offsets.whole,
			   "the %llu lead rows are every %llu-th sampled row, first",
			   (unsigned long long) lead.nrows, (unsigned long long) every);
		for (uint64_t i = 0; i < n && ok; i++)
			if (i % every != 0)
				ok = same_row(&whole, j++, &col, live[i * step]);
		tap_ok(ok && j == n, "the %llu rows are every %llu-th of %llu live rows",
			   (unsigned long long) n, (unsigned long long) step,
			   (unsigned long long) nlive);
		tap_ok(image->value_bytes <= max_bytes &&
			   (n == (nlive < max_rows ? nlive : max_rows) ||
				(n > 0 && (n - 1) * step >= nlive * 8 / 10)),
			   "%llu value bytes within %zu; a smaller sample still spans the column",
			   (unsigned long long) image->value_bytes, max_bytes);
	}
	image->magic ^= 1;
	ok = !gl_sample_image_view(image, size, false, &whole);
	image->magic ^= 1;
	tap_ok(ok && !gl_sample_image_view(image, size - 1, false, &whole) &&
		   !gl_sample_image_view(image, sizeof(GlSampleImage) - 1, false, &whole),
		   "a view refuses a bad magic and an image cut short");
done:
	free(image);
	free(live);
	gl_column_free(&col);
}

int
main(void)
{
	test_image(10000, 100, 16, 1 << 20);
	test_image(10000, 4096, 512, 1 << 20);
	test_image(10000, 100000, 4096, 1 << 20);
	test_image(10000, 4096, 4096, 1 << 20);
	test_image(10000, 3000, 700, 1 << 20);	/* 3000 / 700 not whole */
	test_image(10000, 4096, 512, 4000);		/* a larger step for the bytes */
	test_image(0, 4096, 512, 1 << 20);
	return tap_done();
}
