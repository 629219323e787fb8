/*-------------------------------------------------------------------------
 *
 * registry.h
 *	  Which columns are cached, and in what state: the shared-memory
 *	  registry the planner consults, the cache SQL API and loader maintain,
 *	  and the server updates with sizes and counters.
 *
 * One entry (slot) per (database, relation, attribute).  The planner may use
 * a cache only when gl_cache_usable() says so: the entry is ready, not stale,
 * its relfilenode matches the relation's current one (a rewrite by VACUUM
 * FULL, CLUSTER or ALTER TABLE changes it), and the sync trigger is enabled.
 *
 * Every load of a slot gets a new generation number, so the server can
 * tell rows and deltas of an old incarnation from the current one.  A slot
 * may have two: the generation of the copy queries use (`generation`,
 * while READY) and that of a copy being loaded beside it
 * (`load_generation`), which the sync trigger logs changes for as well
 * (see loader.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGISTRY_H
#define GPULIKE_REGISTRY_H

#include "datatype/timestamp.h"
#include "port/atomics.h"
#include "storage/lwlock.h"
#include "utils/relcache.h"

#include "settings.h"

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
 * through cache/stats.h).  They live as long as the slot: a rebuild keeps
 * them, uncache() and gpulike.stat_reset() clear them.
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

/* One slot of the registry, in shared memory; protected by the registry lock. */
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
	/* maintained by the server */
	uint64		nrows;			/* rows in the cache, base + deltas */
	uint64		host_bytes;
	uint64		device_bytes;
	uint64		pending_deltas;
	uint64		queries_served;
	TimestampTz last_used;
	char		device[64];		/* "cpu", "cuda:0", "cuda:0,cuda:1", "" */
	char		stale_reason[64];	/* why it went STALE: "TRUNCATE", ... */
	int32		nparts;			/* parts of the device copy (0: none) */
	int32		part_device[GL_MAX_GPU_PARTS];
	uint64		part_bytes[GL_MAX_GPU_PARTS];
	GlCacheStats stats;
} GlCacheEntry;

/* What the planner needs to know about one usable cache. */
typedef struct GlCacheInfo
{
	int			slot;
	uint64		generation;
	double		nrows;
	bool		on_device;		/* resident in GPU memory */
} GlCacheInfo;

/* Is (rel, attnum) cached and usable right now?  Cheap: shared lock only. */
extern bool gl_cache_usable(Relation rel, AttrNumber attnum, GlCacheInfo *info);

/*
 * Direct access for the server and the cache code: the array of
 * gl_registry_size() entries, under gl_registry_lock().
 */
extern GlCacheEntry *gl_registry_entries(void);
extern int	gl_registry_size(void);
extern LWLock *gl_registry_lock(void);

/* Mark every cache of a relation stale (TRUNCATE, disabled trigger, ...). */
extern void gl_registry_mark_stale(Oid dbid, Oid relid, const char *reason);

#endif							/* GPULIKE_REGISTRY_H */
