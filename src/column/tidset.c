/*-------------------------------------------------------------------------
 *
 * tidset.c
 *	  TID set construction and algebra (see tidset.h).
 *
 * Sorting.  A freshly loaded column lists its rows in heap order, so the
 * TIDs of matching rows usually come out sorted already: one linear check
 * finds that and skips the sort.  Delta rows appended later break the
 * order; then a least-significant-digit radix sort over the 48 bits of a
 * packed TID (three passes of 16 bits, a counting pass and a scatter each)
 * sorts millions of TIDs in a few tens of milliseconds, with no
 * comparison-sort worst case.  Passes whose digit is the same for every TID
 * (typical for the high block bits of a small table) are skipped.
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "column/tidset.h"

#define RADIX_BITS		16
#define RADIX_BUCKETS	(1 << RADIX_BITS)
#define TID_BITS		48

uint64_t
gl_bitmap_to_tids(const uint64_t *bits, const GlColumn *col, GlTid *out)
{
	uint64_t	nwords = gl_bitmap_words(col->nrows);
	uint64_t	n = 0;
	uint64_t	w;

	for (w = 0; w < nwords; w++)
	{
		uint64_t	word = bits[w];

		while (word != 0)
		{
			int			bit = __builtin_ctzll(word);

			out[n++] = gl_column_tid(col, w * 64 + bit);
			word &= word - 1;
		}
	}
	return n;
}

static uint64_t
drop_duplicates(GlTid *tids, uint64_t n)
{
	uint64_t	kept = 0;
	uint64_t	i;

	for (i = 0; i < n; i++)
	{
		if (kept == 0 || tids[kept - 1] != tids[i])
			tids[kept++] = tids[i];
	}
	return kept;
}

/* One counting-sort pass on the digit at shift; false if nothing moved. */
static int
radix_pass(const GlTid *from, GlTid *to, uint64_t n, int shift,
		   uint64_t *counts)
{
	uint64_t	i;
	uint64_t	sum = 0;
	uint64_t	first_digit = (from[0] >> shift) & (RADIX_BUCKETS - 1);

	memset(counts, 0, RADIX_BUCKETS * sizeof(uint64_t));
	for (i = 0; i < n; i++)
		counts[(from[i] >> shift) & (RADIX_BUCKETS - 1)]++;
	if (counts[first_digit] == n)
		return 0;				/* one digit value: order unchanged */
	for (i = 0; i < RADIX_BUCKETS; i++)
	{
		uint64_t	c = counts[i];

		counts[i] = sum;
		sum += c;
	}
	for (i = 0; i < n; i++)
		to[counts[(from[i] >> shift) & (RADIX_BUCKETS - 1)]++] = from[i];
	return 1;
}

uint64_t
gl_tids_sort_unique(GlTid *tids, uint64_t n, GlTid *scratch)
{
	uint64_t	i;
	uint64_t   *counts;
	GlTid	   *from = tids;
	GlTid	   *to = scratch;
	int			shift;

	for (i = 1; i < n; i++)
	{
		if (tids[i - 1] > tids[i])
			break;
	}
	if (i >= n)
		return drop_duplicates(tids, n);

	counts = scratch + n;		/* GlTid and the counts are both uint64_t */
	for (shift = 0; shift < TID_BITS; shift += RADIX_BITS)
	{
		if (radix_pass(from, to, n, shift, counts))
		{
			GlTid	   *t = from;

			from = to;
			to = t;
		}
	}
	if (from != tids)
		memcpy(tids, from, n * sizeof(GlTid));
	return drop_duplicates(tids, n);
}

uint64_t
gl_tids_intersect(const GlTid *a, uint64_t na, const GlTid *b, uint64_t nb,
				  GlTid *out)
{
	uint64_t	i = 0;
	uint64_t	j = 0;
	uint64_t	n = 0;

	while (i < na && j < nb)
	{
		if (a[i] < b[j])
			i++;
		else if (a[i] > b[j])
			j++;
		else
		{
			out[n++] = a[i];
			i++;
			j++;
		}
	}
	return n;
}

uint64_t
gl_tids_union(const GlTid *a, uint64_t na, const GlTid *b, uint64_t nb,
			  GlTid *out)
{
	uint64_t	i = 0;
	uint64_t	j = 0;
	uint64_t	n = 0;

	while (i < na && j < nb)
	{
		if (a[i] < b[j])
			out[n++] = a[i++];
		else if (a[i] > b[j])
			out[n++] = b[j++];
		else
		{
			out[n++] = a[i];
			i++;
			j++;
		}
	}
	while (i < na)
		out[n++] = a[i++];
	while (j < nb)
		out[n++] = b[j++];
	return n;
}
