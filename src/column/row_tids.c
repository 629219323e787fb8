/*-------------------------------------------------------------------------
 *
 * row_tids.c
 *	  The rows' TIDs of a cached column in groups of 64 (row_tids.h has the
 *	  layout and why).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/resize_array.h"
#include "column/row_tids.h"

static uint64_t
groups_of(uint64_t rows)
{
	return (rows + GL_ROW_TID_GROUP - 1) / GL_ROW_TID_GROUP;
}

bool
gl_row_tids_resize(GlRowTids *t, uint64_t capacity)
{
	/* each array is left valid for the rows set so far if a later one fails */
	return gl_resize_array((void **) &t->distance, capacity, sizeof(uint8_t)) &&
		gl_resize_array((void **) &t->line, capacity, sizeof(uint16_t)) &&
		gl_resize_array((void **) &t->group_first, groups_of(capacity), sizeof(GlTid)) &&
		gl_resize_array((void **) &t->group_wide, groups_of(capacity), sizeof(uint32_t));
}

/* Whether tid's row, not its group's first, can be kept by distance from first. */
static bool
fits_group(GlTid first, GlTid tid)
{
	uint32_t	block = gl_tid_block(first);
	uint32_t	b = gl_tid_block(tid);

	return b >= block && b - block < GL_ROW_TID_WIDE;
}

/* Whether setting row to tid makes its group wide (the group is not yet). */
static bool
widens_group(const GlRowTids *t, uint64_t row, GlTid tid)
{
	uint64_t	group = row / GL_ROW_TID_GROUP;

	if (row % GL_ROW_TID_GROUP == 0)
		return false;			/* a group's first row sets its block */
	if (t->distance[group * GL_ROW_TID_GROUP] == GL_ROW_TID_WIDE)
		return false;			/* wide already */
	return !fits_group(t->group_first[group], tid);
}

bool
gl_row_tids_reserve(GlRowTids *t, uint64_t row, GlTid tid)
{
	uint64_t	cap = t->capacity_wide;

	if (!widens_group(t, row, tid) || t->nwide < cap)
		return true;
	cap = cap < 16 ? 16 : cap + cap / 2;
	if (!gl_resize_array((void **) &t->wide_tids, cap * GL_ROW_TID_GROUP, sizeof(GlTid)))
		return false;
	t->capacity_wide = cap;
	return true;
}

void
gl_row_tids_set(GlRowTids *t, uint64_t row, GlTid tid)
{
	uint64_t	group = row / GL_ROW_TID_GROUP;
	uint64_t	first = group * GL_ROW_TID_GROUP;

	if (row == first)
		t->group_first[group] = tid;
	else if (widens_group(t, row, tid))
	{
		/* the group's rows so far move to a wide block of their own */
		GlTid	   *wide = t->wide_tids + t->nwide * GL_ROW_TID_GROUP;

		for (uint64_t r = first; r < row; r++)
		{
			wide[r - first] = gl_row_tid(t, r);
			t->distance[r] = GL_ROW_TID_WIDE;
		}
		t->group_wide[group] = (uint32_t) t->nwide++;
	}
	if (t->distance[first] == GL_ROW_TID_WIDE && row != first)
	{
		t->wide_tids[(uint64_t) t->group_wide[group] * GL_ROW_TID_GROUP + row - first] = tid;
		t->distance[row] = GL_ROW_TID_WIDE;
		return;
	}
	t->distance[row] = (uint8_t) (gl_tid_block(tid) - gl_tid_block(t->group_first[group]));
	t->line[row] = gl_tid_offset(tid);
}

bool
gl_row_tids_find(const GlRowTids *t, uint64_t nsorted, GlTid tid, uint64_t *row)
{
	uint64_t	lo = 0;
	uint64_t	hi = groups_of(nsorted);
	uint64_t	first;
	uint64_t	end;

	/* the last group whose first TID is at most tid */
	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (t->group_first[mid] <= tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	/* then the first of its rows whose TID is at least tid */
	first = (lo - 1) * GL_ROW_TID_GROUP;
	end = first + GL_ROW_TID_GROUP < nsorted ? first + GL_ROW_TID_GROUP : nsorted;
	lo = first;
	hi = end;
	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (gl_row_tid(t, mid) < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < end && gl_row_tid(t, lo) == tid)
	{
		*row = lo;
		return true;
	}
	return false;
}

void
gl_row_tids_trim(GlRowTids *t)
{
	if (t->nwide == 0)
	{
		free(t->wide_tids);
		t->wide_tids = NULL;
		t->capacity_wide = 0;
	}
	else if (t->nwide < t->capacity_wide &&
			 gl_resize_array((void **) &t->wide_tids, t->nwide * GL_ROW_TID_GROUP, sizeof(GlTid)))
		t->capacity_wide = t->nwide;
}

size_t
gl_row_tids_bytes(const GlRowTids *t, uint64_t capacity)
{
	return capacity * (sizeof(uint8_t) + sizeof(uint16_t)) +
		groups_of(capacity) * (sizeof(GlTid) + sizeof(uint32_t)) +
		t->capacity_wide * GL_ROW_TID_GROUP * sizeof(GlTid);
}

void
gl_row_tids_free(GlRowTids *t)
{
	free(t->group_first);
	free(t->group_wide);
	free(t->distance);
	free(t->line);
	free(t->wide_tids);
	memset(t, 0, sizeof(*t));
}
