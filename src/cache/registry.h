/*-------------------------------------------------------------------------
 *
 * registry.h
 *	  Which columns are cached, and in what state: the shared-memory
 *	  registry the planner consults and the server maintains.
 *
 * One entry per (database, relation, attribute).  The planner may use a
 * cache only when gl_cache_usable() says so: the entry is ready, not stale,
 * its relfilenode matches the relation's current one (a rewrite by VACUUM
 * FULL, CLUSTER or ALTER TABLE changes it), and the sync trigger is enabled.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGISTRY_H
#define GPULIKE_REGISTRY_H

#include "utils/relcache.h"

typedef enum GlCacheState
{
	GL_CACHE_EMPTY = 0,			/* slot unused */
	GL_CACHE_LOADING,
	GL_CACHE_READY,
	GL_CACHE_STALE,				/* must be rebuilt before any use */
	GL_CACHE_EVICTED			/* registered, data dropped under memory pressure */
} GlCacheState;

/* What the planner needs to know about one usable cache. */
typedef struct GlCacheInfo
{
	int			slot;			/* registry slot, stable while the entry lives */
	uint64		generation;		/* changes whenever the cache is rebuilt */
	double		nrows;			/* rows in the cache (base + deltas) */
	bool		on_device;		/* resident in GPU memory */
} GlCacheInfo;

/* Is (rel, attnum) cached and usable right now?  Cheap: shared lock only. */
extern bool gl_cache_usable(Relation rel, AttrNumber attnum, GlCacheInfo *info);

#endif							/* GPULIKE_REGISTRY_H */
