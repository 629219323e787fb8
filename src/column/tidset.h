/*-------------------------------------------------------------------------
 *
 * tidset.h
 *	  Sorted, duplicate-free arrays of GlTid and the set algebra on them
 *	  (a leaf: plain C, no PostgreSQL calls; the unit tests link it alone).
 *
 * The server turns row bitmaps into TID sets when a request combines
 * predicates over different columns: row positions of two cached columns
 * do not line up (each was loaded and received deltas on its own), but TIDs
 * do.  AND is intersection, OR is union; both stay supersets of the true
 * answer because every column holds every tuple version any snapshot may
 * see (column.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_TIDSET_H
#define GPULIKE_TIDSET_H

#include <stdint.h>

#include "column/column.h"

/*
 * Append the TIDs of col's rows whose bit is set to out (room for one per
 * set bit); returns how many were written.  Order is row order.
 */
extern uint64_t gl_bitmap_to_tids(const uint64_t *bits, const GlColumn *col, GlTid *out);

/*
 * Sort ascending and drop duplicates in place; scratch must hold
 * GL_TIDS_SORT_SCRATCH(n) entries (used only when the input is not already
 * sorted: a copy plus the radix counters).  Returns the new count.
 */
#define GL_TIDS_SORT_SCRATCH(n)	((n) + 65536)

extern uint64_t gl_tids_sort_unique(GlTid *tids, uint64_t n, GlTid *scratch);

/* a AND b into out (room for min(na, nb); out may be a).  Returns count. */
extern uint64_t gl_tids_intersect(const GlTid *a, uint64_t na,
								  const GlTid *b, uint64_t nb, GlTid *out);

/* a OR b into out (room for na + nb; must not alias).  Returns count. */
extern uint64_t gl_tids_union(const GlTid *a, uint64_t na,
							  const GlTid *b, uint64_t nb, GlTid *out);

#endif							/* GPULIKE_TIDSET_H */
