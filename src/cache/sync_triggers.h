/*-------------------------------------------------------------------------
 *
 * sync_triggers.h
 *	  Creating, checking and dropping the sync triggers of a cached table
 *	  (see sync_triggers.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SYNC_TRIGGERS_H
#define GPULIKE_SYNC_TRIGGERS_H

#include "nodes/primnodes.h"
#include "utils/relcache.h"

typedef enum GlSyncTriggerState
{
	GL_SYNC_READY,				/* both there, firing ALWAYS */
	GL_SYNC_DISABLED,			/* one was disabled by a user */
	GL_SYNC_NEEDS_DDL			/* missing, or enabled other than ALWAYS */
} GlSyncTriggerState;

/* What gl_sync_triggers_ensure would find; any lock on rel will do. */
extern GlSyncTriggerState gl_sync_triggers_state(Relation rel);

/* gpulike.sync_row(), the function the row trigger calls. */
extern Oid	gl_sync_row_function(void);

/*
 * Make sure rel has both sync triggers, firing ALWAYS, and returns the row
 * trigger's function.  Missing triggers are created.  A trigger that exists
 * but does not fire ALWAYS (the user disabled it) is re-enabled when
 * `enable` is true; otherwise InvalidOid is returned and nothing changes.
 * Caller holds ShareRowExclusiveLock on rel.
 */
extern Oid	gl_sync_triggers_ensure(Relation rel, bool enable);

/*
 * Does the relation have a trigger calling funcname already, funcname
 * being gpulike.sync_row or gpulike.sync_truncate?  False for any other
 * function, and a relation that is not there.  For a sync function, the
 * relation is left locked as CREATE TRIGGER locks it.
 */
extern bool gl_sync_trigger_exists(const RangeVar *relation, List *funcname);

/* Drop both sync triggers of rel, if present (last column uncached). */
extern void gl_sync_triggers_drop(Relation rel);

/*
 * Are we changing sync triggers ourselves right now (creating them,
 * enabling them ALWAYS, dropping them)?  The DDL watch ignores that DDL:
 * it must not mark the cache being built stale.
 */
extern bool gl_sync_triggers_changing(void);

/* Is this the OID of gpulike.sync_row() or gpulike.sync_truncate()? */
extern bool gl_is_sync_function(Oid funcoid);

#endif							/* GPULIKE_SYNC_TRIGGERS_H */
