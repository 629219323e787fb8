/*-------------------------------------------------------------------------
 *
 * load_queue.h
 *	  Changes to a column that is being loaded, kept aside in the order they
 *	  came until its loaded rows are all in (a leaf: no PostgreSQL calls).
 *
 * The loader's rows arrive in TID order and the column keeps them as its
 * sorted prefix (column.h); changes logged meanwhile belong after them,
 * each a version at least as new as the loaded one of its TID
 * (src/cache/loader.c has the argument).  So they are queued here and
 * replayed, oldest first, once the last loaded row is in: a new version is
 * appended as not known live (its writer may yet abort), superseding the
 * row its TID had; an ended tuple stops being known live -- exactly what
 * the server does with a change to a column that is complete.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_LOAD_QUEUE_H
#define GPULIKE_LOAD_QUEUE_H

#include "column/column.h"

typedef struct GlLoadQueue
{
	char	   *data;			/* entries back to back, 8-byte aligned */
	size_t		used;
	size_t		capacity;
} GlLoadQueue;

/* Queue a new tuple version, or an ended one; false on out-of-memory. */
extern bool gl_load_queue_add_version(GlLoadQueue *queue, GlTid tid,
									const char *value, uint32_t len,
									bool isnull);
extern bool gl_load_queue_add_ended(GlLoadQueue *queue, GlTid tid);

/* Apply the queued changes to col, oldest first; false on out-of-memory. */
extern bool gl_load_queue_replay(const GlLoadQueue *queue, GlColumn *col);

extern size_t gl_load_queue_bytes(const GlLoadQueue *queue);
extern void gl_load_queue_free(GlLoadQueue *queue);

#endif							/* GPULIKE_LOAD_QUEUE_H */
