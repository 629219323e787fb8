/*-------------------------------------------------------------------------
 *
 * delta_log.h
 *	  The shared-memory log of new tuple versions of cached relations.
 *
 * The sync trigger (AFTER INSERT OR UPDATE OR DELETE, ENABLE ALWAYS)
 * appends, per cached column, one VERSION entry for each new tuple version
 * and one ENDED entry for each tuple an UPDATE or DELETE ends, before the
 * writing transaction commits; the server drains the log before answering
 * any request, so every row a query's snapshot can see is in the cache by
 * the time it is matched, and every tuple that may be gone is no longer
 * known live there (column.h).  When the log is full the writer marks the
 * affected caches stale instead of waiting (a stale cache is never used;
 * it is rebuilt).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DELTA_LOG_H
#define GPULIKE_DELTA_LOG_H

#include "column/column.h"

typedef enum GlDeltaKind
{
	GL_DELTA_VERSION = 1,		/* a new tuple version and its value */
	GL_DELTA_ENDED				/* the tuple at tid was deleted or updated */
} GlDeltaKind;

/* One entry, as the trigger appends it and the drainer applies it. */
typedef struct GlDeltaRow
{
	GlDeltaKind kind;
	int			slot;
	uint64		generation;
	GlTid		tid;
	const char *value;			/* VERSION: the value's bytes, unless NULL */
	uint32		len;
	bool		isnull;
} GlDeltaRow;

/* Reserve the log's shared memory (_PG_init, under shared_preload_libraries). */
extern void gl_delta_log_shmem_register(void);

/*
 * Writer side (the sync trigger): append all entries of one row change, or
 * none of them; false when they do not fit (the caller then marks the
 * caches stale).  Never waits for space.
 */
extern bool gl_delta_log_append(const GlDeltaRow *rows, int nrows);

/* Entries of one slot not yet drained (for the caches view). */
extern uint64 gl_delta_log_pending_slot(int slot);

/* Server side: apply and remove every pending entry, oldest first. */
typedef void (*GlDeltaApply) (const GlDeltaRow *row, void *arg);

extern void gl_delta_log_drain(GlDeltaApply apply, void *arg);

#endif							/* GPULIKE_DELTA_LOG_H */
