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

#include "cache/registry.h"
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

/* Begin a load: LOADING, a fresh generation, relfilenode and trigger. */
extern uint64 gl_registry_begin_load(int slot, Oid relfilenode,
									 Oid sync_function, uint64 rows_total);
extern void gl_registry_load_progress(int slot, uint64 generation,
									  uint64 rows_done);
/* LOADING -> READY unless the slot changed meanwhile; false if it did. */
extern bool gl_registry_finish_load(int slot, uint64 generation);
/* A load failed or was rolled back: the slot must be rebuilt. */
extern void gl_registry_mark_slot_stale(int slot, const char *reason);
/* The same, only while the slot is the ready cache of that generation. */
extern void gl_registry_mark_generation_stale(int slot, uint64 generation,
											  const char *reason);

/* Mark the slot EMPTY and tell the server to drop its data. */
extern void gl_registry_forget(int slot);
/* Forget every slot of a database (DROP DATABASE). */
extern void gl_registry_forget_database(Oid dbid);

/* Does this database have any slot for relid? */
extern bool gl_registry_has_relation(Oid relid);

/*
 * Copy of one entry, taken under the lock (for the caches view and the
 * reloader, which must not hold the lock while they work).
 */
extern bool gl_registry_snapshot(int slot, GlCacheEntry *copy);

/*
 * Reloader bookkeeping.  The reloader rebuilds STALE and EVICTED slots
 * (the server evicts under memory pressure, and marks everything evicted
 * when it restarts).  A slot whose rebuild failed is retried only after a
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
