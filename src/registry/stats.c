/*-------------------------------------------------------------------------
 *
 * stats.c
 *	  Cumulative statistics per cached column, and their SQL face:
 *	  gpulike.cache_stats() (under the view gpulike.stat_caches) and
 *	  gpulike.stat_reset().
 *
 * The counters sit in each registry entry (GlCacheStats), so every process
 * that learns something counts it where it learns it: the server its
 * requests, GPU fallbacks, evictions and copies dropped for memory; a
 * backend its loads, the rows its
 * scans returned and the scans that had to read the heap; the sync trigger
 * a full delta log.  A request over several columns counts its candidates
 * and engine time for each of them.  Like pg_stat_user_tables, the
 * figures are cumulative and approximate under concurrency only in the
 * order of updates, never lost: every update holds the registry lock.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "registry/registry_internal.h"
#include "registry/stats.h"

/* Columns of gpulike.cache_stats() since version 1.2 (16 in 1.1). */
#define CACHE_STATS_COLUMNS 17

PG_FUNCTION_INFO_V1(gl_cache_stats_sql);
PG_FUNCTION_INFO_V1(gl_stat_reset_sql);

/* The stats of a slot, locked, or NULL when there is no registry. */
static GlCacheStats *
lock_stats(int slot)
{
	if (gl_registry_entries() == NULL || slot < 0 || slot >= gl_registry_size())
		return NULL;
	LWLockAcquire(gl_registry_lock(), LW_EXCLUSIVE);
	return &gl_registry_entries()[slot].stats;
}

static void
note_fallback(GlCacheStats *stats, const char *kind, const char *why)
{
	snprintf(stats->last_fallback, sizeof(stats->last_fallback), "%s: %s", kind, why);
	stats->last_fallback_at = GetCurrentTimestamp();
}

void
gl_stats_count_request(int slot, uint64 generation, uint64 candidates,
					   double engine_ms, const char *gpu_failure)
{
	GlCacheStats *stats = lock_stats(slot);

	if (stats == NULL)
		return;
	if (gl_registry_entries()[slot].generation == generation)
	{
		stats->requests++;
		stats->candidates += candidates;
		stats->engine_ms += engine_ms;
		if (gpu_failure != NULL)
		{
			stats->gpu_fallbacks++;
			note_fallback(stats, "GPU", gpu_failure);
		}
	}
	LWLockRelease(gl_registry_lock());
}

void
gl_stats_count_gpu_eviction(int slot)
{
	GlCacheStats *stats = lock_stats(slot);

	if (stats == NULL)
		return;
	stats->gpu_evictions++;
	LWLockRelease(gl_registry_lock());
}

void
gl_stats_count_memory_drop(int slot)
{
	GlCacheStats *stats = lock_stats(slot);

	if (stats == NULL)
		return;
	stats->memory_drops++;
	LWLockRelease(gl_registry_lock());
}

void
gl_stats_count_load(int slot, double seconds)
{
	GlCacheStats *stats = lock_stats(slot);

	if (stats == NULL)
		return;
	stats->loads++;
	stats->last_load_at = GetCurrentTimestamp();
	stats->last_load_seconds = seconds;
	LWLockRelease(gl_registry_lock());
}

void
gl_stats_count_overflow(Oid relid)
{
	if (gl_registry_entries() == NULL)
		return;
	LWLockAcquire(gl_registry_lock(), LW_EXCLUSIVE);
	for (int i = 0; i < gl_registry_size(); i++)
	{
		GlCacheEntry *entry = &gl_registry_entries()[i];

		/* once per overflow, not per row that finds the cache stale */
		if (entry->state != GL_CACHE_EMPTY && entry->state != GL_CACHE_STALE &&
			entry->dbid == MyDatabaseId && entry->relid == relid)
			entry->stats.delta_overflows++;
	}
	LWLockRelease(gl_registry_lock());
}

void
gl_stats_count_scan(Oid relid, List *attnums, uint64 rows_returned,
					uint64 heap_fallbacks, const char *fallback_reason)
{
	ListCell   *lc;

	if (gl_registry_entries() == NULL)
		return;
	LWLockAcquire(gl_registry_lock(), LW_EXCLUSIVE);
	foreach(lc, attnums)
	{
		int			slot = gl_registry_find(relid, (AttrNumber) lfirst_int(lc));
		GlCacheStats *stats;

		if (slot < 0)
			continue;
		stats = &gl_registry_entries()[slot].stats;
		stats->rows_returned += rows_returned;
		if (heap_fallbacks > 0)
		{
			stats->heap_fallbacks += heap_fallbacks;
			note_fallback(stats, "heap", fallback_reason);
		}
	}
	LWLockRelease(gl_registry_lock());
}

/* One row per slot of this database: the counters. */
Datum
gl_cache_stats_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < gl_registry_size(); i++)
	{
		GlCacheEntry entry;
		GlCacheStats *s = &entry.stats;
		Datum		values[CACHE_STATS_COLUMNS];
		bool		nulls[CACHE_STATS_COLUMNS] = {0};

		if (!gl_registry_snapshot(i, &entry) || entry.dbid != MyDatabaseId)
			continue;
		values[0] = ObjectIdGetDatum(entry.relid);
		values[1] = Int16GetDatum(entry.attnum);
		values[2] = Int64GetDatum((int64) s->requests);
		values[3] = Int64GetDatum((int64) s->candidates);
		values[4] = Int64GetDatum((int64) s->rows_returned);
		values[5] = Float8GetDatum(s->engine_ms);
		values[6] = Int64GetDatum((int64) s->gpu_fallbacks);
		values[7] = Int64GetDatum((int64) s->heap_fallbacks);
		values[8] = CStringGetTextDatum(s->last_fallback);
		nulls[8] = s->last_fallback[0] == '\0';
		values[9] = TimestampTzGetDatum(s->last_fallback_at);
		nulls[9] = s->last_fallback_at == 0;
		values[10] = Int64GetDatum((int64) s->loads);
		values[11] = TimestampTzGetDatum(s->last_load_at);
		nulls[11] = s->last_load_at == 0;
		values[12] = Float8GetDatum(s->last_load_seconds);
		nulls[12] = s->last_load_at == 0;
		values[13] = Int64GetDatum((int64) s->gpu_evictions);
		values[14] = Int64GetDatum((int64) s->delta_overflows);
		values[15] = TimestampTzGetDatum(s->reset_at);
		nulls[15] = s->reset_at == 0;
		/* the 1.1 declaration has 16 columns: tuplestore takes what it has */
		values[16] = Int64GetDatum((int64) s->memory_drops);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* Zero the counters of this database's columns (the loads' times stay). */
Datum
gl_stat_reset_sql(PG_FUNCTION_ARGS)
{
	TimestampTz now = GetCurrentTimestamp();

	if (gl_registry_entries() == NULL)
		PG_RETURN_VOID();
	LWLockAcquire(gl_registry_lock(), LW_EXCLUSIVE);
	for (int i = 0; i < gl_registry_size(); i++)
	{
		GlCacheEntry *entry = &gl_registry_entries()[i];
		GlCacheStats *s = &entry->stats;
		TimestampTz last_load_at = s->last_load_at;
		double		last_load_seconds = s->last_load_seconds;

		if (entry->state == GL_CACHE_EMPTY || entry->dbid != MyDatabaseId)
			continue;
		memset(s, 0, sizeof(*s));
		s->last_load_at = last_load_at;
		s->last_load_seconds = last_load_seconds;
		s->reset_at = now;
	}
	LWLockRelease(gl_registry_lock());
	PG_RETURN_VOID();
}
