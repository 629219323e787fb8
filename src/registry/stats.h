/*-------------------------------------------------------------------------
 *
 * stats.h
 *	  Cumulative statistics per cached column: what each part of gpulike
 *	  counts into the registry entry's GlCacheStats (registry.h).
 *
 * Each function takes the registry lock itself and raises no error, so
 * the server, the executor's end of scan and the sync trigger may call it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_STATS_H
#define GPULIKE_STATS_H

#include "nodes/pg_list.h"

/* The server answered a request over (slot, generation). */
extern void gl_stats_count_request(int slot, uint64 generation, uint64 candidates,
								   double engine_ms, const char *gpu_failure);
/* The server dropped slot's GPU copy to make room for another. */
extern void gl_stats_count_gpu_eviction(int slot);
/* The server dropped slot's copy for host memory (budget or out of memory). */
extern void gl_stats_count_memory_drop(int slot);
/* A load or rebuild of slot finished. */
extern void gl_stats_count_load(int slot, double seconds);
/* The delta log could not take relid's changes (call before marking stale). */
extern void gl_stats_count_overflow(Oid relid);
/* A scan over relid's cached attnums ended (in each parallel participant). */
extern void gl_stats_count_scan(Oid relid, List *attnums, uint64 rows_returned,
								uint64 heap_fallbacks, const char *fallback_reason);

#endif							/* GPULIKE_STATS_H */
