/*-------------------------------------------------------------------------
 *
 * store.c
 *	  The server's column store (see store.h).
 *
 * Each registry slot may have two columns: the one serving requests and,
 * while the slot is being (re)built, the one being loaded.  A finished
 * load replaces the serving column in one step, so requests never see a
 * half-loaded column, and the old one answers until then.  Both carry the
 * generation they belong to; rows from the delta log go only to a column
 * of the same generation (to a loading column's queue of deferred changes,
 * replayed after its scanned rows: loader.c says why that is exact), and a
 * request is answered only by the column of the generation it names.  The
 * registry learns of the new generation from the server, in the same step
 * as the swap (gl_registry_finish_load).
 *
 * Host memory: every column counts at its allocated capacity
 * (gl_column_host_bytes), a loading one with its queue; a load that pushes
 * the total past gpulike.host_memory fails, and so does one that passes
 * its own byte limit (its table owner's quota).  A rebuild needs room for
 * both copies until the swap.  Delta rows are always accepted: refusing
 * them would make the column miss rows; enforce_bounds deals with the
 * overshoot.
 *
 * The column a finished load replaced is kept a moment longer, retired
 * (RETIRED_GRACE_MS), for requests that named its generation before the
 * swap: a query resolves the generation after taking its snapshot, and the
 * retired column holds every row a snapshot taken before the swap can see
 * -- those rows' writers logged them while it was the ready copy, and it
 * goes on taking the entries they appended -- while no writer logs for it
 * any more.  It answers on the CPU engine (its device copy is freed at
 * once), and is freed after the grace period, or first when memory is
 * short.  Without it, queries in flight at a swap would read the heap.
 *
 * Device copies of serving columns are managed in store_device.c.
 *
 * The registry (src/cache/) shows what the store holds: the store writes
 * nrows, bytes, device, counters of a slot whenever they change, and only
 * while the registry entry still has the column's generation.  Entries the
 * registry no longer wants (uncached, rebuilt under a new generation) are
 * dropped by gl_store_sync.  At server start nothing is held, so entries
 * that were ready are marked evicted: their data went with the old server.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/lwlock.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "registry/registry.h"
#include "registry/registry_internal.h"
#include "registry/stats.h"
#include "settings.h"
#include "server/evaluate.h"
#include "protocol/protocol.h"
#include "server/store.h"
#include "sync/delta_log.h"

static int	store_nslots = 0;
static GlStoredColumn **serving = NULL;
static GlStoredColumn **loading = NULL;
static GlStoredColumn **retired = NULL;
static bool *changed = NULL;		/* slots whose counters need publishing */
static bool *serving_missed = NULL;	/* lost a delta row (out of memory) */
static bool *loading_missed = NULL;
static int	evicted_at_start = 0;

/* How long a replaced column answers requests that named it. */
#define RETIRED_GRACE_MS	5000

/* "cpu", or the devices holding parts: "cuda:0", "cuda:0,cuda:1". */
static void
describe_devices(const GlStoredColumn *sc, char *buf, size_t len)
{
	int			k;

	if (sc->device == NULL)
	{
		strlcpy(buf, "cpu", len);
		return;
	}
	buf[0] = '\0';
	for (k = 0; k < gl_store_gpus_of(sc); k++)
	{
		char		name[16];

		snprintf(name, sizeof(name), "%scuda:%d", k > 0 ? "," : "", sc->part_device[k]);
		strlcat(buf, name, len);
	}
}

void
gl_store_publish(GlStoredColumn *sc, bool count_query)
{
	GlCacheEntry *entry = &gl_registry_entries()[sc->slot];

	LWLockAcquire(gl_registry_lock(), LW_EXCLUSIVE);
	if (entry->state != GL_CACHE_EMPTY && entry->generation == sc->generation)
	{
		entry->nrows = sc->col.nrows;
		entry->host_bytes = gl_column_host_bytes(&sc->col);
		entry->device_bytes = sc->device_bytes;
		describe_devices(sc, entry->device, sizeof(entry->device));
		entry->nparts = sc->nparts;
		memcpy(entry->part_device, sc->part_device, sizeof(entry->part_device));
		memcpy(entry->part_bytes, sc->part_bytes, sizeof(entry->part_bytes));
		if (count_query)
		{
			entry->queries_served++;
			entry->last_used = sc->last_used;
		}
	}
	LWLockRelease(gl_registry_lock());
}

void
gl_store_init(void)
{
	GlCacheEntry *entries = gl_registry_entries();
	int			i;

	store_nslots = gl_registry_size();
	serving = MemoryContextAllocZero(TopMemoryContext,
									 store_nslots * sizeof(GlStoredColumn *));
	loading = MemoryContextAllocZero(TopMemoryContext,
									 store_nslots * sizeof(GlStoredColumn *));
	retired = MemoryContextAllocZero(TopMemoryContext,
									 store_nslots * sizeof(GlStoredColumn *));
	changed = MemoryContextAllocZero(TopMemoryContext, store_nslots * sizeof(bool));
	serving_missed = MemoryContextAllocZero(TopMemoryContext,
											store_nslots * sizeof(bool));
	loading_missed = MemoryContextAllocZero(TopMemoryContext,
											store_nslots * sizeof(bool));

	LWLockAcquire(gl_registry_lock(), LW_EXCLUSIVE);
	for (i = 0; i < store_nslots; i++)
	{
		if (entries[i].state != GL_CACHE_READY)
			continue;
		entries[i].state = GL_CACHE_EVICTED;
		evicted_at_start++;
		entries[i].nrows = 0;
		entries[i].host_bytes = 0;
		entries[i].device_bytes = 0;
		entries[i].device[0] = '\0';
		entries[i].nparts = 0;
	}
	LWLockRelease(gl_registry_lock());
}

/*
 * Once the server answers, let the cache reloader (src/cache/) rebuild
 * what gl_store_init marked evicted.
 */
void
gl_store_request_reloads(void)
{
	if (evicted_at_start > 0)
		gl_registry_wake_launcher();
	evicted_at_start = 0;
}

bool
gl_store_slot_valid(int slot)
{
	return slot >= 0 && slot < store_nslots;
}

/* The column serving a slot, whatever its generation (NULL if none). */
GlStoredColumn *
gl_store_serving(int slot)
{
	return gl_store_slot_valid(slot) ? serving[slot] : NULL;
}

int
gl_store_nslots(void)
{
	return store_nslots;
}

GlStoredColumn *
gl_store_lookup(int slot, uint64 generation)
{
	if (!gl_store_slot_valid(slot))
		return NULL;
	if (serving[slot] != NULL && serving[slot]->generation == generation)
		return serving[slot];
	if (retired[slot] != NULL && retired[slot]->generation == generation)
		return retired[slot];
	return NULL;
}

/* A loading column's bytes: the column and its queue of changes. */
static uint64
loading_bytes(const GlStoredColumn *sc)
{
	return gl_column_host_bytes(&sc->col) + gl_deferred_bytes(&sc->deferred);
}

/* Host bytes of the serving and retired columns, with the loading ones if asked. */
static uint64
host_bytes_total(bool with_loading)
{
	uint64		total = 0;
	int			i;

	for (i = 0; i < store_nslots; i++)
	{
		if (serving[i])
			total += gl_column_host_bytes(&serving[i]->col);
		if (retired[i])
			total += gl_column_host_bytes(&retired[i]->col);
		if (loading[i] && with_loading)
			total += loading_bytes(loading[i]);
	}
	return total;
}

static uint64
host_budget(void)
{
	return (uint64) gl_host_memory_mb * 1024 * 1024;
}

static void
free_column(GlStoredColumn *sc)
{
	free(sc->sample);
	gl_deferred_free(&sc->deferred);
	gl_store_drop_device(sc);
	gl_column_free(&sc->col);
	pfree(sc);
}

static void
free_retired(int slot)
{
	if (retired[slot] != NULL)
		free_column(retired[slot]);
	retired[slot] = NULL;
}

/* The serving column of a slot was replaced: keep it for a moment. */
static void
retire_serving(int slot)
{
	free_retired(slot);
	retired[slot] = serving[slot];
	serving[slot] = NULL;
	if (retired[slot] != NULL)
	{
		gl_store_drop_device(retired[slot]);
		retired[slot]->retired_at = GetCurrentTimestamp();
	}
}

bool
gl_store_sample(GlStoredColumn *sc, uint32 max_rows,
				const char **rows, uint32 *nrows, size_t *nbytes)
{
	if (sc->sample == NULL || sc->sample_rows > max_rows ||
		sc->col.nrows > sc->sample_taken_at + sc->sample_taken_at / 10)
	{
		free(sc->sample);
		sc->sample = gl_column_sample(&sc->col, max_rows, GL_SAMPLE_MAX_BYTES,
									  &sc->sample_rows, &sc->sample_bytes);
		if (sc->sample == NULL)
			return false;
		sc->sample_taken_at = sc->col.nrows;
	}
	*rows = sc->sample;
	*nrows = sc->sample_rows;
	*nbytes = sc->sample_bytes;
	return true;
}

/* ------------------------------------------------------------ loading */

bool
gl_store_load_begin(int slot, uint64 generation, uint64 rows_hint,
					uint64 bytes_hint, uint64 byte_limit, char *err,
					size_t errlen)
{
	GlStoredColumn *sc;
	uint64		used = host_bytes_total(true);
	uint64		room = used < host_budget() ? host_budget() - used : 0;

	if (!gl_store_slot_valid(slot))
	{
		snprintf(err, errlen, "gpulike: invalid cache slot %d", slot);
		return false;
	}
	if (loading[slot] != NULL)
	{
		/* A newer load of the slot supersedes an unfinished older one. */
		free_column(loading[slot]);
		loading[slot] = NULL;
	}
	loading_missed[slot] = false;

	/*
	 * The hints size the first allocation; keep that within the budget so
	 * an overestimate (reltuples of a bloated table) does not fail a load
	 * that fits.
	 */
	bytes_hint = Min(bytes_hint, room / 2);
	rows_hint = Min(rows_hint, room / (4 * (sizeof(GlTid) + sizeof(uint64))));

	if (byte_limit > 0)
	{
		bytes_hint = Min(bytes_hint, byte_limit / 2);
		rows_hint = Min(rows_hint, byte_limit / (4 * (sizeof(GlTid) + sizeof(uint64))));
	}

	sc = MemoryContextAllocZero(TopMemoryContext, sizeof(GlStoredColumn));
	sc->slot = slot;
	sc->generation = generation;
	sc->byte_limit = byte_limit;
	if (!gl_column_init(&sc->col, rows_hint, bytes_hint))
	{
		pfree(sc);
		snprintf(err, errlen, "gpulike: out of memory starting to load a column");
		return false;
	}
	loading[slot] = sc;
	return true;
}

static GlStoredColumn *
loading_column(int slot, uint64 generation, char *err, size_t errlen)
{
	if (!gl_store_slot_valid(slot) || loading[slot] == NULL ||
		loading[slot]->generation != generation)
	{
		snprintf(err, errlen,
				 "gpulike: the load of cache slot %d was abandoned by the server",
				 slot);
		return NULL;
	}
	return loading[slot];
}

bool
gl_store_load_rows(int slot, uint64 generation, const char *rows, Size len,
				   uint32 nrows, char *err, size_t errlen)
{
	GlStoredColumn *sc = loading_column(slot, generation, err, errlen);
	Size		pos = 0;
	uint32		i;

	if (sc == NULL)
		return false;
	for (i = 0; i < nrows; i++)
	{
		GlTid		tid;
		uint32		vlen;
		uint32		flags;

		if (len - pos < GL_ROW_HEADER_SIZE)
			goto malformed;
		memcpy(&tid, rows + pos, sizeof(tid));
		memcpy(&vlen, rows + pos + sizeof(tid), sizeof(vlen));
		memcpy(&flags, rows + pos + sizeof(tid) + sizeof(vlen), sizeof(flags));
		pos += GL_ROW_HEADER_SIZE;
		if (len - pos < vlen)
			goto malformed;
		if (!gl_column_append(&sc->col, tid, rows + pos, vlen,
							  flags & (GL_ROW_IS_NULL | GL_ROW_KNOWN_LIVE | GL_ROW_ENDING)))
		{
			snprintf(err, errlen, "gpulike: out of memory loading a column");
			return false;
		}
		pos += vlen;
	}
	if (pos != len)
		goto malformed;

	if (host_bytes_total(true) > host_budget())
	{
		snprintf(err, errlen,
				 "gpulike: host memory budget of %d MB exceeded loading a column of %llu rows so far (raise gpulike.host_memory)",
				 gl_host_memory_mb, (unsigned long long) sc->col.nrows);
		return false;
	}
	if (sc->byte_limit > 0 && loading_bytes(sc) > sc->byte_limit)
	{
		snprintf(err, errlen,
				 "gpulike: the column needs more than the %.1f MB left to its table's owner under gpulike.host_memory_per_owner",
				 sc->byte_limit / (1024.0 * 1024.0));
		return false;
	}
	return true;

malformed:
	snprintf(err, errlen, "gpulike: malformed load message");
	return false;
}

/*
 * The changes logged during the scan follow its rows; then the registry is
 * told, and only if it still wants this generation (a delta log overflow,
 * say, failed the load meanwhile) does the new column replace the old.
 * No delta can be drained between the two steps: this is the server's
 * only thread, and later ones find the serving column of the new
 * generation.
 */
GlLoadEndStatus
gl_store_load_end(int slot, uint64 generation, uint64 *nrows,
				  uint64 *host_bytes, uint64 *device_bytes,
				  char *err, size_t errlen)
{
	GlStoredColumn *sc = loading_column(slot, generation, err, errlen);
	GlCacheEntry entry;

	if (sc == NULL)
		return GL_LOAD_FAILED;
	if (loading_missed[slot] || !gl_deferred_replay(&sc->deferred, &sc->col))
	{
		snprintf(err, errlen, "gpulike: out of memory applying changes to a column being loaded");
		gl_store_load_abort(slot, generation);
		return GL_LOAD_FAILED;
	}
	gl_deferred_free(&sc->deferred);
	/* The loader's size hints are upper bounds (the heap's size): give back the rest. */
	gl_column_trim(&sc->col);

	if (!gl_registry_finish_load(slot, generation))
	{
		(void) gl_registry_snapshot(slot, &entry);
		snprintf(err, errlen, "the cache went stale while it was loading (%s)",
				 entry.stale_reason[0] != '\0' ? entry.stale_reason : "uncached");
		gl_store_load_abort(slot, generation);
		return GL_LOAD_WENT_STALE;
	}
	loading[slot] = NULL;
	retire_serving(slot);
	serving[slot] = sc;
	serving_missed[slot] = false;
	changed[slot] = false;
	sc->last_used = GetCurrentTimestamp();

	(void) gl_store_ensure_device(sc);
	gl_store_publish(sc, false);

	*nrows = sc->col.nrows;
	*host_bytes = gl_column_host_bytes(&sc->col);
	*device_bytes = sc->device_bytes;
	return GL_LOAD_INSTALLED;
}

void
gl_store_load_abort(int slot, uint64 generation)
{
	if (gl_store_slot_valid(slot) && loading[slot] != NULL &&
		loading[slot]->generation == generation)
	{
		free_column(loading[slot]);
		loading[slot] = NULL;
		loading_missed[slot] = false;
	}
}

void
gl_store_forget(int slot)
{
	if (!gl_store_slot_valid(slot))
		return;
	if (serving[slot] != NULL)
		free_column(serving[slot]);
	if (loading[slot] != NULL)
		free_column(loading[slot]);
	free_retired(slot);
	serving[slot] = NULL;
	loading[slot] = NULL;
	changed[slot] = false;
	serving_missed[slot] = false;
	loading_missed[slot] = false;
}

/* -------------------------------------------------------------- sync */

/*
 * Called by gl_delta_log_drain for every pending entry, oldest first, with
 * the log's drain lock held (writers keep appending meanwhile): plain
 * appends, no ereport.  A version is appended as not known live (its
 * writer may yet abort); an ended tuple stops being known live.  A column
 * being loaded queues its changes until the scan is complete.  A row that
 * cannot be kept is remembered and dealt with by gl_store_sync or the
 * load's end.
 */
/* One entry for one column; false if a new version could not be kept. */
static bool
apply_to_column(const GlDeltaRow *row, GlStoredColumn *sc)
{
	if (row->kind == GL_DELTA_ENDED)
	{
		gl_column_mark_ended(&sc->col, row->tid);
		return true;
	}
	return gl_column_append(&sc->col, row->tid, row->value, row->len,
							row->isnull ? GL_ROW_IS_NULL : 0);
}

/* Queue one entry for a column being loaded; false on out-of-memory. */
static bool
defer_change(const GlDeltaRow *row, GlStoredColumn *sc)
{
	if (row->kind == GL_DELTA_ENDED)
		return gl_deferred_add_ended(&sc->deferred, row->tid);
	return gl_deferred_add_version(&sc->deferred, row->tid, row->value,
								   row->len, row->isnull);
}

static void
apply_delta(const GlDeltaRow *row, void *arg)
{
	GlStoredColumn *sc;
	int			slot = row->slot;

	if (!gl_store_slot_valid(slot))
		return;
	sc = serving[slot];
	if (sc != NULL && sc->generation == row->generation)
	{
		if (apply_to_column(row, sc))
			changed[slot] = true;
		else
			serving_missed[slot] = true;
	}
	sc = loading[slot];
	if (sc != NULL && sc->generation == row->generation &&
		!defer_change(row, sc))
		loading_missed[slot] = true;
	/* a retired column that cannot keep up is of no use */
	sc = retired[slot];
	if (sc != NULL && sc->generation == row->generation &&
		!apply_to_column(row, sc))
		free_retired(slot);
}

/*
 * Free a serving column for memory and tell the registry it is stale, to
 * be rebuilt.
 */
static void
drop_serving(int slot, const char *reason)
{
	uint64		generation = serving[slot]->generation;

	gl_stats_count_memory_drop(slot);
	free_column(serving[slot]);
	serving[slot] = NULL;
	changed[slot] = false;
	gl_registry_mark_generation_stale(slot, generation, reason);
}

/*
 * A serving column that missed a delta row cannot answer exactly any more:
 * drop it and tell the registry the cache is stale, so it gets rebuilt.
 */
static void
invalidate_serving(int slot)
{
	ereport(LOG,
			(errmsg("gpulike server: out of memory applying changes to cache slot %d; marking it stale",
					slot)));
	drop_serving(slot, "server out of memory applying changes");
}

bool
gl_store_registry_ready(int slot, uint64 generation)
{
	GlCacheEntry *entry;
	bool		ready;

	if (!gl_store_slot_valid(slot))
		return false;
	entry = &gl_registry_entries()[slot];
	LWLockAcquire(gl_registry_lock(), LW_SHARED);
	ready = entry->state == GL_CACHE_READY &&
		(entry->generation == generation ||
		 (retired[slot] != NULL && retired[slot]->generation == generation));
	LWLockRelease(gl_registry_lock());
	return ready;
}

/*
 * Caches that changes have made too big.  A column whose dead and
 * superseded rows reach gpulike.rebuild_garbage_fraction is rebuilt from
 * its table by the reloader, and keeps serving until the new copy replaces
 * it.  Tables under GARBAGE_MIN_ROWS rows are left alone: a rebuild costs
 * more than they hold.  And when changes have pushed the serving columns
 * past gpulike.host_memory, those with the most garbage are dropped (stale,
 * rebuilt when memory allows) until they fit again.
 */
#define GARBAGE_MIN_ROWS	10000

static void
enforce_bounds(void)
{
	int			i;

	for (i = 0; i < store_nslots; i++)
	{
		GlStoredColumn *sc = serving[i];

		if (sc == NULL || gl_rebuild_garbage_fraction >= 1.0 ||
			sc->col.nrows < GARBAGE_MIN_ROWS ||
			sc->col.ngarbage < gl_rebuild_garbage_fraction * sc->col.nrows ||
			!gl_registry_request_rebuild(i, sc->generation))
			continue;
		ereport(LOG,
				(errmsg("gpulike server: cache slot %d holds " UINT64_FORMAT " dead or superseded rows of " UINT64_FORMAT "; rebuilding it",
						i, sc->col.ngarbage, sc->col.nrows)));
	}

	/* retired columns go first; loads check themselves: they fail rather than evict */
	for (i = 0; i < store_nslots && host_bytes_total(false) > host_budget(); i++)
		free_retired(i);
	while (host_bytes_total(false) > host_budget())
	{
		int			victim = -1;

		for (i = 0; i < store_nslots; i++)
			if (serving[i] != NULL &&
				(victim < 0 || serving[i]->col.ngarbage > serving[victim]->col.ngarbage))
				victim = i;
		if (victim < 0)
			break;
		ereport(LOG,
				(errmsg("gpulike server: changes took the caches past gpulike.host_memory; dropping cache slot %d",
						victim)));
		drop_serving(victim, "gpulike.host_memory exceeded by changes");
	}
}

void
gl_store_sync(void)
{
	int			i;

	gl_delta_log_drain(apply_delta, NULL);

	for (i = 0; i < store_nslots; i++)
	{
		GlStoredColumn *sc = serving[i];

		if (sc != NULL && serving_missed[i])
		{
			invalidate_serving(i);
			serving_missed[i] = false;
			changed[i] = false;
			continue;
		}
		/* stale, uncached, or replaced by a newer copy: nobody asks for it */
		if (sc != NULL && !gl_store_registry_ready(i, sc->generation))
		{
			free_column(sc);
			serving[i] = NULL;
			changed[i] = false;
			continue;
		}
		if (sc != NULL && changed[i])
		{
			if (sc->device != NULL)
				(void) gl_store_ensure_device(sc);
			gl_store_publish(sc, false);
		}
		changed[i] = false;
	}
	for (i = 0; i < store_nslots; i++)
	{
		GlStoredColumn *sc = retired[i];

		if (sc != NULL &&
			(TimestampDifferenceExceeds(sc->retired_at, GetCurrentTimestamp(),
										RETIRED_GRACE_MS) ||
			 !gl_store_registry_ready(i, sc->generation)))
			free_retired(i);
	}
	enforce_bounds();
}

void
gl_store_note_query(GlStoredColumn *sc)
{
	sc->last_used = GetCurrentTimestamp();
	gl_store_publish(sc, true);
}

void
gl_store_totals(int *ncolumns, uint64 *host_bytes, uint64 *device_bytes)
{
	int			i;

	*ncolumns = 0;
	*host_bytes = 0;
	*device_bytes = 0;
	for (i = 0; i < store_nslots; i++)
	{
		if (serving[i] == NULL)
			continue;
		(*ncolumns)++;
		*host_bytes += gl_column_host_bytes(&serving[i]->col);
		*device_bytes += serving[i]->device_bytes;
	}
	for (i = 0; i < store_nslots; i++)
	{
		if (loading[i] != NULL)
			*host_bytes += loading_bytes(loading[i]);
		if (retired[i] != NULL)
			*host_bytes += gl_column_host_bytes(&retired[i]->col);
	}
}
