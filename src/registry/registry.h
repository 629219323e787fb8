/*-------------------------------------------------------------------------
 *
 * registry.h
 *	  Which columns are cached, and in what state: the shared-memory
 *	  registry that every process consults and that registry.c alone
 *	  writes, through the functions below.
 *
 * One entry (slot) per (database, relation, attribute).  Its users, and
 * what they do with it:
 *
 *	the planner and executor	gl_cache_usable(): may a query use the cache?
 *	the cache module			slots, loads, staleness, forgetting, reloads
 *	the sync trigger			which copies to log changes for
 *								(gl_registry_sync_targets), mark_stale
 *	the server					finish_load, what it holds of each ready
 *								copy (gl_registry_publish), evict_all at
 *								start, staleness and rebuilds
 *	the statistics				stats.h (the registry's counters)
 *
 * The planner may use a cache only when gl_cache_usable() says so: the
 * entry is ready, its relfilenode matches the relation's current one (a
 * rewrite by VACUUM FULL, CLUSTER or ALTER TABLE changes it), and the sync
 * trigger is enabled.
 *
 * Every load of a slot gets a new generation number, so the server can
 * tell rows and deltas of an old incarnation from the current one.  A slot
 * may have two: the generation of the copy queries use (`generation`,
 * while READY) and that of a copy being loaded beside it
 * (`load_generation`), which the sync trigger logs changes for as well
 * (see loader.c).  registry.c draws the life of a slot.
 *
 * No function here raises an error: they are called from triggers,
 * transaction callbacks, the object-access hook and the server's loop.
 * Each takes the registry lock itself.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGISTRY_H
#define GPULIKE_REGISTRY_H

#include "datatype/timestamp.h"
#include "utils/relcache.h"

#include "settings.h"

/* Slots: the most columns cached at once, over all databases. */
#define GL_REGISTRY_SLOTS 256

/* The state of the copy queries may use (a load may run beside any of them). */
typedef enum GlCacheState
{
	GL_CACHE_EMPTY = 0,			/* slot unused */
	GL_CACHE_LOADING,			/* no usable copy; the first one is loading */
	GL_CACHE_READY,
	GL_CACHE_STALE,				/* must be rebuilt before any use */
	GL_CACHE_EVICTED			/* registered, data not in memory */
} GlCacheState;

/*
 * Cumulative statistics of a cached column (gpulike.stat_caches; written
 * through stats.h).  They live as long as the slot: a rebuild keeps them,
 * uncache() and gpulike.stat_reset() clear them.
 */
typedef struct GlCacheStats
{
	uint64		requests;		/* answered by the server */
	uint64		candidates;		/* in those answers */
	uint64		rows_returned;	/* by scans, after visibility and recheck */
	double		engine_ms;
	uint64		gpu_fallbacks;	/* requests the CPU engine answered instead */
	uint64		heap_fallbacks; /* scans that read the heap instead */
	char		last_fallback[128]; /* "GPU: why" or "heap: why" */
	TimestampTz last_fallback_at;
	uint64		loads;			/* loads and rebuilds */
	TimestampTz last_load_at;
	double		last_load_seconds;
	uint64		gpu_evictions;	/* copies dropped from the GPU for room */
	uint64		delta_overflows;	/* stale because the delta log was full */
	uint64		memory_drops;	/* copies the server dropped for host memory */
	TimestampTz reset_at;
} GlCacheStats;

/* What the server holds of a slot's ready copy (gl_registry_publish). */
typedef struct GlCacheHolding
{
	uint64		nrows;			/* rows in the cache, loaded and logged */
	uint64		host_bytes;
	uint64		file_bytes;		/* of its values' file
								 * (gpulike.values_directory) */
	uint64		device_bytes;
	char		device[64];		/* "cpu", "cuda:0", "cuda:0,cuda:1", "" */
	int32		nparts;			/* parts of the device copy (0: none) */
	int32		part_device[GL_MAX_GPU_PARTS];
	uint64		part_bytes[GL_MAX_GPU_PARTS];
} GlCacheHolding;

/* One slot of the registry, as gl_registry_snapshot() copies it. */
typedef struct GlCacheEntry
{
	GlCacheState state;
	Oid			dbid;
	Oid			relid;
	AttrNumber	attnum;
	Oid			relfilenode;	/* at load time */
	Oid			owner;			/* the table's owner at load time (quotas) */
	uint64		generation;		/* of the READY copy */
	uint64		load_generation;	/* of a copy being loaded; 0: none */
	uint64		load_rows_done; /* progress while loading */
	uint64		load_rows_total;	/* estimate (reltuples) */
	char		stale_reason[64];	/* why it went STALE: "TRUNCATE", ... */
	/* published by the server */
	GlCacheHolding held;
	uint64		queries_served;
	GlCacheStats stats;
} GlCacheEntry;

/* ------------------------------------------------------- shared memory */

/* Reserve the registry's shared memory (_PG_init, under shared_preload_libraries). */
extern void gl_registry_shmem_register(void);

/* Is there a registry at all (false unless the library was preloaded)? */
extern bool gl_registry_available(void);

/* Slots in the registry: GL_REGISTRY_SLOTS, 0 without one. */
extern int	gl_registry_size(void);

/*
 * Bumped on every change of any slot's state or generation, so that a
 * backend can cache "which slots belong to this relation" (the sync trigger
 * does, per statement) and notice cheaply when that list may have changed.
 */
extern uint64 gl_registry_change_count(void);

/* ------------------------------------------------------------ planning */

/* What the planner and executor need to know about one usable cache. */
typedef struct GlCacheInfo
{
	int			slot;
	uint64		generation;
	bool		on_device;		/* resident in GPU memory */
} GlCacheInfo;

/* Is (rel, attnum) cached and usable right now?  Cheap: shared lock only. */
extern bool gl_cache_usable(Relation rel, AttrNumber attnum, GlCacheInfo *info);

/* --------------------------------------------------------------- slots */

/* Slot of (MyDatabaseId, relid, attnum), or -1. */
extern int	gl_registry_lookup(Oid relid, AttrNumber attnum);

/*
 * Slot of (MyDatabaseId, relid, attnum), allocating a STALE one if there
 * is none; -1 when the registry is full.
 */
extern int	gl_registry_find_or_add(Oid relid, AttrNumber attnum);

/* Does this database have any slot for relid? */
extern bool gl_registry_has_relation(Oid relid);

/*
 * Copy of one entry, taken under the lock (for the views, the reloader and
 * the server, which must not hold the lock while they work); false if the
 * slot is EMPTY.
 */
extern bool gl_registry_snapshot(int slot, GlCacheEntry *copy);

/* Columns cached of tables owned by `owner`, in any database, and their bytes. */
extern void gl_registry_owner_usage(Oid owner, int *columns, uint64 *host_bytes);

/*
 * The slot is EMPTY from now on (uncache, DROP, DROP EXTENSION, a rolled
 * back cache()); the server frees what it holds for it at its next sync
 * with the registry, at the latest a second later.
 */
extern void gl_registry_forget(int slot);
/* Forget every slot of a database (DROP DATABASE). */
extern void gl_registry_forget_database(Oid dbid);

/* ---------------------------------------------------------------- loads */

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

/* ------------------------------------------------------------ staleness */

/*
 * Every cache of a relation is stale (TRUNCATE, trigger altered, delta log
 * overflow): no copy can follow the table, so a load in progress fails too.
 */
extern void gl_registry_mark_stale(Oid dbid, Oid relid, const char *reason);

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

/* ------------------------------------------------------ the sync trigger */

/* One copy of a relation's cache that the sync trigger logs changes for. */
typedef struct GlSyncTarget
{
	int			slot;
	uint64		generation;
	AttrNumber	attnum;
	Oid			relfilenode;
} GlSyncTarget;

/*
 * The copies of relid's caches in this database that writers log changes
 * for: each ready copy and each copy being loaded.  Fills up to max
 * targets and returns how many there are (more than max: call again with
 * room for them); *change_count gets the change count they were read at.
 */
extern int	gl_registry_sync_targets(Oid relid, GlSyncTarget *targets, int max,
									 uint64 *change_count);

/* ----------------------------------------------------------- the server */

/*
 * The server starts holding nothing: every READY slot becomes EVICTED,
 * with nothing held.  Returns how many did.
 */
extern int	gl_registry_evict_all(void);

/* A slot's state, and the generation of its ready copy (0 unless READY). */
extern GlCacheState gl_registry_slot_state(int slot, uint64 *ready_generation);

/*
 * What the server holds of (slot, generation), while that is the slot's
 * ready copy: sizes and devices, and one more query served if counted.
 */
extern void gl_registry_publish(int slot, uint64 generation,
								const GlCacheHolding *held,
								bool count_query);

/* -------------------------------------------------------- the reloader */

/*
 * The reloader rebuilds STALE and EVICTED slots (the server marks
 * everything evicted when it restarts), and READY ones whose rebuild was
 * requested.  A slot whose rebuild failed is retried only after a backoff;
 * so is one the reloader brought back from eviction, lest a column that
 * does not fit the memory budget be reloaded and evicted in an endless
 * loop.  A slot whose trigger the user disabled waits until something
 * marks it stale again (re-enabling the trigger does).
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

#endif							/* GPULIKE_REGISTRY_H */
