/*-------------------------------------------------------------------------
 *
 * store_deltas.h
 *	  Changes to a column that is being loaded, kept aside in the order they
 *	  came until its scan is complete (store_deltas.c).
 *
 * The loader's rows arrive in TID order and the column keeps them as its
 * sorted prefix (column.h); changes logged meanwhile belong after them,
 * each a later version than whatever the scan read at its TID (loader.c
 * has the argument).  So they are queued here and replayed, oldest first,
 * once the last scanned row is in.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_STORE_DELTAS_H
#define GPULIKE_STORE_DELTAS_H

#include "column/column.h"
#include "sync/delta_log.h"

typedef struct GlDeferredDeltas
{
	char	   *data;			/* entries back to back, 8-byte aligned */
	size_t		used;
	size_t		capacity;
} GlDeferredDeltas;

/* Queue one change; false on out-of-memory. */
extern bool gl_deferred_add(GlDeferredDeltas *deltas, const GlDeltaRow *row);

/* Apply the queued changes to col, oldest first; false on out-of-memory. */
extern bool gl_deferred_replay(const GlDeferredDeltas *deltas, GlColumn *col);

extern size_t gl_deferred_bytes(const GlDeferredDeltas *deltas);
extern void gl_deferred_free(GlDeferredDeltas *deltas);

#endif							/* GPULIKE_STORE_DELTAS_H */
