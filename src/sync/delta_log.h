/*-------------------------------------------------------------------------
 *
 * delta_log.h
 *	  The shared-memory log of new tuple versions of cached relations.
 *
 * The sync trigger (AFTER INSERT OR UPDATE, ENABLE ALWAYS) appends one entry
 * per new tuple version and cached column, before the writing transaction
 * commits; the server drains the log before answering any request, so every
 * row a query's snapshot can see is in the cache by the time it is matched.
 * When the log is full the writer marks the affected caches stale instead of
 * waiting (a stale cache is never used; it is rebuilt).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DELTA_LOG_H
#define GPULIKE_DELTA_LOG_H

#include "column/column.h"

typedef void (*GlDeltaApply) (int slot, uint64 generation, GlTid tid,
							  const char *value, uint32 len, bool isnull,
							  void *arg);

/* Server side: apply and remove every pending entry, oldest first. */
extern void gl_delta_log_drain(GlDeltaApply apply, void *arg);

#endif							/* GPULIKE_DELTA_LOG_H */
