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

typedef void (*GlDeltaApply) (const GlDeltaRow *row, void *arg);

/* Server side: apply and remove every pending entry, oldest first. */
extern void gl_delta_log_drain(GlDeltaApply apply, void *arg);

#endif							/* GPULIKE_DELTA_LOG_H */
