/*-------------------------------------------------------------------------
 *
 * cache_undo.h
 *	  Undo registry changes if the current (sub)transaction aborts, and
 *	  forget slots when it commits (cache_undo.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CACHE_UNDO_H
#define GPULIKE_CACHE_UNDO_H

#include "access/attnum.h"

/*
 * This transaction loads (slot, generation); registered_here: it also
 * registered the column.  On abort an unfinished load is cancelled (the
 * slot's serving copy stays as it was), a finished one stays, and the
 * slot of a column registered here is forgotten.
 */
extern void gl_cache_undo_on_abort_load(int slot, uint64 generation,
										bool registered_here);

/*
 * Forget the slot of (relid, attnum) when this transaction commits, not
 * if it aborts; cancel that if the column is cached again meanwhile.
 */
extern void gl_cache_forget_at_commit(Oid relid, AttrNumber attnum);
/* Make the caches of relid stale when this transaction commits (reason: a constant). */
extern void gl_cache_stale_at_commit(Oid relid, const char *reason);
extern void gl_cache_forget_cancel(Oid relid, AttrNumber attnum);

/*
 * This transaction changes relid's sync triggers itself: on abort that
 * change is rolled back, and the caches of relid go stale.
 */
extern void gl_cache_undo_on_abort_triggers_changed(Oid relid);

/*
 * A worker sets up relid's sync triggers in a transaction of its own: on
 * abort, have them dropped unless some column of relid is registered.
 */
extern void gl_cache_undo_on_abort_triggers_set_up(Oid relid);

#endif							/* GPULIKE_CACHE_UNDO_H */
