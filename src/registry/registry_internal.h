/*-------------------------------------------------------------------------
 *
 * registry_internal.h
 *	  The cache room's own view of the registry: slot allocation, the load
 *	  life cycle (LOADING -> READY, or -> STALE on failure), and the
 *	  bookkeeping the background reloader needs.  The public contract the
 *	  planner and the server use is registry.h.
 *
 * Every function here takes the registry lock itself, except
 * gl_registry_find (the caller holds it); none of them raises an error, so
 * they are safe from transaction callbacks and triggers alike.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGISTRY_INTERNAL_H
#define GPULIKE_REGISTRY_INTERNAL_H

#include "registry/registry.h"
#include "datatype/timestamp.h"

#define GL_REGISTRY_SLOTS 256

/* Shared memory (called from gl_sync_init's shmem hooks). */
extern Size gl_registry_shmem_size(void);
extern void gl_registry_shmem_request(void);
extern void gl_registry_shmem_init(void);

/*
 * Bumped on every change of any slot's state or generation, so that a
 * backend can cache "which slots belong to this relation" (the sync trigger
 * does, per statement) and notice cheaply when that list may have changed.
 */
extern uint64 gl_registry_change_count(void);

/* Slot of (MyDatabaseId, relid, attnum), or -1; caller holds the lock. */
extern int	gl_registry_find(Oid relid, AttrNumber attnum);

/*
 * Slot of (MyDatabaseId, relid, attnum), allocating a STALE one if there
 * is none; -1 when the registry is full.
 */
extern int	gl_registry_find_or_add(Oid relid, AttrNumber attnum);

/*
 * A load, in the order loader.c runs it: a generation of its own; begin
 * (the sync trigger logs changes for that generation from now on, the
 * slot is LOADING unless a copy is READY); progress; and either finish
 * (called by the server as it puts the new copy in place: READY under the
 * new generation; false if the load failed meanwhile, e.g. a mark_stale)
 * or cancel (the load failed or was rolled back: a slot without a usable
 * copy becomes STALE for `reason`).
 */
extern uint64 gl_registry_new_generation(void);
extern void gl_registry_begin_load(int slot, uint64 generation,
								   Oid relfilenode, Oid sync_function,
								   Oid owner, uint64 rows_total);
extern void gl_registry_load_progress(int slot, uint64 generation,
									  uint64 rows_done);
extern bool gl_registry_finish_load(int slot, uint64 generation);
extern void gl_registry_cancel_load(int slot, uint64 generation,
									const char *reason);

/*
 * The copy queries use is no good (the table was rewritten, the server
 * dropped it): STALE, or LOADING while a load goes on.
 */
extern void gl_registry_mark_slot_stale(int slot, const char *reason);
/* The same, only while the slot is the ready cache of that generation. */
extern void gl_registry_mark_generation_stale(int slot, uint64 generation,
											  const char *reason);

/*
 * The ready copy of that generation should be built again from its table
 * (it holds too much garbage); it keeps serving until the new one is
 * ready.  True if this is news (no rebuild was wanted or running).
 */
extern bool gl_registry_request_rebuild(int slot, uint64 generation);

/* Mark the slot EMPTY and tell the server to drop its data. */
extern void gl_registry_forget(int slot);
/*
 * Only mark it EMPTY (at abort, where no message may be sent): the server
 * drops what it holds for the slot at its next sync.
 */
extern void gl_registry_release(int slot);
/* Forget every slot of a database (DROP DATABASE). */
extern void gl_registry_forget_database(Oid dbid);

/* Does this database have any slot for relid? */
extern bool gl_registry_has_relation(Oid relid);

/*
 * Copy of one entry, taken under the lock (for the caches view and the
 * reloader, which must not hold the lock while they work).
 */
extern bool gl_registry_snapshot(int slot, GlCacheEntry *copy);

/* Columns cached of tables owned by `owner`, in any database, and their bytes. */
extern void gl_registry_owner_usage(Oid owner, int *columns, uint64 *host_bytes);

/*
 * Reloader bookkeeping.  The reloader rebuilds STALE and EVICTED slots
 * (the server marks everything evicted when it restarts), and READY ones
 * whose rebuild was requested.  A slot whose rebuild failed is retried only after a
 * backoff; so is one the reloader brought back from eviction, lest a
 * column that does not fit the memory budget be reloaded and evicted in an
 * endless loop.  A slot whose trigger the user disabled waits until
 * something marks it stale again (re-enabling the trigger does).
 */
extern void gl_registry_defer_retry(int slot, bool until_next_change);
extern bool gl_registry_wants_reload(int slot, TimestampTz now);
/* Distinct databases with a slot to rebuild now; returns how many. */
extern int	gl_registry_databases_wanting_reload(Oid *dbids, int max,
												 TimestampTz now);
/* Databases that have any slot at all; returns how many. */
extern int	gl_registry_databases(Oid *dbids, int max);

/* The launcher registers itself here so that stale marks wake it. */
extern void gl_registry_set_launcher(int pid);
extern void gl_registry_wake_launcher(void);

#endif							/* GPULIKE_REGISTRY_INTERNAL_H */
