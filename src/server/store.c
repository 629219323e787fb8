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
 * The registry (registry.h) is what every process reads of the store: the
 * store publishes a column's sizes and devices whenever they change
 * (stored_column.c).  The store follows the registry, never the other way
 * round: gl_store_sync, once a second and before the server answers a
 * MATCH, a SAMPLE, a STATUS or the beginning or end of a load, frees the
 * serving and retired columns whose slot is no longer ready under their
 * generation (uncached, dropped, stale, rebuilt), and the loading column
 * of a slot that was forgotten (its load then fails at its next message).
 * So forgetting a slot is a registry change alone.  At server start
 * nothing is held, so entries that were ready are marked evicted: their
 * data went with the old server.
 *
 * Host memory: every column counts at its allocated capacity
 * (gl_column_host_bytes), a loading one with its queue, but for values in
 * a file (gpulike.values_directory: column/value_file.h), which the
 * kernel keeps in memory or writes back as it sees fit; a load that pushes
 * the total past gpulike.host_memory fails, and so does one that passes
 * its own byte limit (its table owner's quota).  A rebuild needs room for
 * both copies until the swap.  Delta rows are always accepted: refusing
 * them would make the column miss rows; enforce_bounds deals with the
 * overshoot, charging it to the columns that grew: a role's inserts must
 * not cost other roles their caches.
 *
 * Device memory (CUDA builds).  A serving column gets a device copy when
 * it is loaded or used while the GPU engine is in use.  A column of
 * gpulike.gpu_split_min_size or more is split into gpulike.gpu_split_parts
 * parts (0: one per GPU), placed on the GPUs in turn beginning with the
 * one holding the fewest bytes; a smaller column goes whole to that GPU.
 * When the copies would exceed the device budget (engines.h), the least
 * recently used other copies are dropped first; a column that still does
 * not fit is served by the CPU engine and tried again on its next use.
 * The size of a copy is known only after the upload, so room is made for
 * an upper estimate first and the budget checked again afterwards.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "protocol/protocol.h"
#include "registry/registry.h"
#include "registry/stats.h"
#include "server/engines.h"
#include "server/store.h"
#include "settings.h"
#include "sync/delta_log.h"

/* The columns of one registry slot. */
typedef struct StoreSlot
{
	GlStoredColumn *serving;	/* answers requests */
	GlStoredColumn *loading;	/* being loaded beside it */
	GlStoredColumn *retired;	/* the one the last load replaced, for a
								 * moment */
} StoreSlot;

static StoreSlot *slots = NULL;
static int	nslots = 0;
static int	evicted_at_start = 0;

/* How long a replaced column answers requests that named it. */
#define RETIRED_GRACE_MS	5000

void
gl_store_init(void)
{
	nslots = gl_registry_size();
	slots = MemoryContextAllocZero(TopMemoryContext, nslots * sizeof(StoreSlot));
	evicted_at_start = gl_registry_evict_all();
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

static bool
slot_valid(int slot)
{
	return slot >= 0 && slot < nslots;
}

GlStoredColumn *
gl_store_lookup(int slot, uint64 generation)
{
	StoreSlot  *s;

	if (!slot_valid(slot))
		return NULL;
	s = &slots[slot];
	if (s->serving != NULL && s->serving->generation == generation)
		return s->serving;
	if (s->retired != NULL && s->retired->generation == generation)
		return s->retired;
	return NULL;
}

/* A loading column's bytes: the column and its queue of changes. */
static uint64
loading_bytes(const GlStoredColumn *sc)
{
	return gl_column_host_bytes(&sc->col) + gl_load_queue_bytes(&sc->load_queue);
}

/* Host bytes of the serving and retired columns, with the loading ones if asked. */
static uint64
host_bytes_total(bool with_loading)
{
	uint64		total = 0;

	for (int i = 0; i < nslots; i++)
	{
		StoreSlot  *s = &slots[i];

		if (s->serving)
			total += gl_column_host_bytes(&s->serving->col);
		if (s->retired)
			total += gl_column_host_bytes(&s->retired->col);
		if (s->loading && with_loading)
			total += loading_bytes(s->loading);
	}
	return total;
}

static uint64
host_budget(void)
{
	return (uint64) gl_host_memory_mb * 1024 * 1024;
}

static void
free_retired(StoreSlot *s)
{
	if (s->retired != NULL)
		gl_store_free_column(s->retired);
	s->retired = NULL;
}

/*
 * Bring the column's indexes up to date (a load ends them; delta rows
 * extend them): the page index of its sorted prefix, the byte-pair
 * summary of its chunks (chunk_pairs.h), and its lead rows.  The store
 * alone extends them, between requests: the request threads only read
 * them, and count an answer where the page index is complete
 * (evaluate.c), listing the candidates otherwise -- as they do when there
 * was no memory for it; the engines read every chunk the summary does not
 * cover.
 */
static void
index_column(GlStoredColumn *sc)
{
	(void) gl_column_index_pages(&sc->col);
	(void) gl_column_summarize_pairs(&sc->col, gl_cpu_engine_threads());
	gl_store_refresh_lead(sc);
}

/* The serving column of a slot was replaced: keep it for a moment. */
static void
retire_serving(StoreSlot *s)
{
	free_retired(s);
	s->retired = s->serving;
	s->serving = NULL;
	if (s->retired != NULL)
	{
		gl_store_drop_device(s->retired);
		s->retired->retired_at = GetCurrentTimestamp();
	}
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

	if (!slot_valid(slot))
	{
		snprintf(err, errlen, "gpulike: invalid cache slot %d", slot);
		return false;
	}
	if (slots[slot].loading != NULL)
	{
		/* A newer load of the slot supersedes an unfinished older one. */
		gl_store_free_column(slots[slot].loading);
		slots[slot].loading = NULL;
	}

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
	if (gl_values_directory[0] != '\0' &&
		!gl_column_values_to_file(&sc->col, gl_values_directory))
	{
		snprintf(err, errlen,
				 "gpulike: could not create a file for a column's values in \"%s\" (gpulike.values_directory): %s",
				 gl_values_directory, strerror(errno));
		gl_column_free(&sc->col);
		pfree(sc);
		return false;
	}
	slots[slot].loading = sc;
	return true;
}

/*
 * Why a row could not be added to sc while doing something: out of memory,
 * or its values file could not grow (a full disk, most likely).
 */
static void
describe_append_failure(const GlStoredColumn *sc, int why, const char *doing, char *err,
						size_t errlen)
{
	if (gl_column_append_failed_in_file(&sc->col, why))
		snprintf(err, errlen, "gpulike: could not extend a values file %s: %s", doing,
				 strerror(why));
	else
		snprintf(err, errlen, "gpulike: out of memory %s", doing);
}

static GlStoredColumn *
loading_column(int slot, uint64 generation, char *err, size_t errlen)
{
	if (!slot_valid(slot) || slots[slot].loading == NULL ||
		slots[slot].loading->generation != generation)
	{
		snprintf(err, errlen,
				 "gpulike: the load of cache slot %d was abandoned by the server",
				 slot);
		return NULL;
	}
	return slots[slot].loading;
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
			describe_append_failure(sc, errno, "loading a column", err, errlen);
			return false;
		}
		pos += vlen;
	}
	if (pos != len)
		goto malformed;

	/*
	 * The registry hears why first, so that gpulike.caches says it: the
	 * loading backend's abort then finds the load cancelled already.
	 */
	if (host_bytes_total(true) > host_budget())
	{
		snprintf(err, errlen,
				 "gpulike: host memory budget of %d MB exceeded loading a column of %llu rows so far (raise gpulike.host_memory)",
				 gl_host_memory_mb, (unsigned long long) sc->col.nrows);
		gl_registry_cancel_load(slot, generation, "gpulike.host_memory reached loading");
		return false;
	}
	if (sc->byte_limit > 0 && loading_bytes(sc) > sc->byte_limit)
	{
		snprintf(err, errlen,
				 "gpulike: the column needs more than the %.1f MB left to its table's owner under gpulike.host_memory_per_owner",
				 sc->byte_limit / (1024.0 * 1024.0));
		gl_registry_cancel_load(slot, generation,
								"gpulike.host_memory_per_owner reached loading");
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
gl_store_load_end(int slot, uint64 generation, char *err, size_t errlen)
{
	GlStoredColumn *sc = loading_column(slot, generation, err, errlen);
	StoreSlot  *s;
	GlCacheEntry entry;

	if (sc == NULL)
		return GL_LOAD_FAILED;
	if (sc->missed || !gl_load_queue_replay(&sc->load_queue, &sc->col))
	{
		/* a change missed while queued says why (apply_delta) */
		describe_append_failure(sc, sc->missed ? sc->missed_errno : errno,
								"applying changes to a column being loaded", err, errlen);
		gl_store_load_abort(slot, generation);
		return GL_LOAD_FAILED;
	}
	gl_load_queue_free(&sc->load_queue);
	/* The loader's size hints are upper bounds (the heap's size): give back the rest. */
	gl_column_trim(&sc->col);
	index_column(sc);

	if (!gl_registry_finish_load(slot, generation))
	{
		(void) gl_registry_snapshot(slot, &entry);
		snprintf(err, errlen, "the cache went stale while it was loading (%s)",
				 entry.stale_reason[0] != '\0' ? entry.stale_reason : "uncached");
		gl_store_load_abort(slot, generation);
		return GL_LOAD_WENT_STALE;
	}
	s = &slots[slot];
	s->loading = NULL;
	retire_serving(s);
	s->serving = sc;
	sc->last_used = GetCurrentTimestamp();

	sc->loaded_bytes = gl_column_host_bytes(&sc->col);

	(void) gl_store_ensure_device(sc);
	gl_store_publish(sc, false);
	return GL_LOAD_INSTALLED;
}

void
gl_store_load_abort(int slot, uint64 generation)
{
	if (slot_valid(slot) && slots[slot].loading != NULL &&
		slots[slot].loading->generation == generation)
	{
		gl_store_free_column(slots[slot].loading);
		slots[slot].loading = NULL;
	}
}

/* -------------------------------------------------------------- sync */

/*
 * gl_delta_log_drain calls apply_delta for every pending entry, oldest
 * first, with the log's drain lock held (writers keep appending
 * meanwhile): plain appends, no ereport.  A version is appended as not
 * known live (its writer may yet abort); an ended tuple stops being known
 * live.  A column being loaded queues its changes until the scan is
 * complete.  A change a column cannot keep marks it `missed`, for
 * gl_store_sync or the load's end to deal with.
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
		return gl_load_queue_add_ended(&sc->load_queue, row->tid);
	return gl_load_queue_add_version(&sc->load_queue, row->tid, row->value,
								   row->len, row->isnull);
}

static void
apply_delta(const GlDeltaRow *row, void *arg)
{
	StoreSlot  *s;
	GlStoredColumn *sc;

	if (!slot_valid(row->slot))
		return;
	s = &slots[row->slot];
	sc = s->serving;
	if (sc != NULL && sc->generation == row->generation)
	{
		if (apply_to_column(row, sc))
		{
			sc->changed = true;
			gl_store_counting_stale(sc);
		}
		else
		{
			sc->missed = true;
			sc->missed_errno = errno;
		}
	}
	sc = s->loading;
	if (sc != NULL && sc->generation == row->generation &&
		!defer_change(row, sc))
	{
		sc->missed = true;
		sc->missed_errno = ENOMEM;
	}
	/* a retired column that cannot keep up is of no use */
	sc = s->retired;
	if (sc != NULL && sc->generation == row->generation &&
		!apply_to_column(row, sc))
		free_retired(s);
}

/*
 * Free a serving column for memory and tell the registry it is stale, to
 * be rebuilt.
 */
static void
drop_serving(int slot, const char *reason)
{
	uint64		generation = slots[slot].serving->generation;

	gl_stats_count_memory_drop(slot);
	gl_store_free_column(slots[slot].serving);
	slots[slot].serving = NULL;
	gl_registry_mark_generation_stale(slot, generation, reason);
}

/*
 * A serving column that missed a delta row cannot answer exactly any more:
 * drop it and tell the registry the cache is stale, so it gets rebuilt.
 */
static void
invalidate_serving(int slot, int why)
{
	ereport(LOG,
			(errmsg("gpulike server: could not apply changes to cache slot %d: %s; marking it stale",
					slot, strerror(why))));
	drop_serving(slot, gl_column_append_failed_in_file(&slots[slot].serving->col, why) ?
				 "server could not extend a values file applying changes" :
				 "server out of memory applying changes");
}

bool
gl_store_registry_ready(int slot, uint64 generation)
{
	uint64		ready;

	if (!slot_valid(slot) ||
		gl_registry_slot_state(slot, &ready) != GL_CACHE_READY)
		return false;
	return ready == generation ||
		(slots[slot].retired != NULL &&
		 slots[slot].retired->generation == generation);
}

/*
 * Caches that changes have made too big.  A column whose dead and
 * superseded rows reach gpulike.rebuild_garbage_fraction is rebuilt from
 * its table by the reloader, and keeps serving until the new copy replaces
 * it.  Tables under GARBAGE_MIN_ROWS rows are left alone: a rebuild costs
 * more than they hold.
 *
 * Growth past a limit is charged to the columns that grew.  A column
 * loaded under its owner's quota (a byte limit: cache_ops.c says which
 * loads are held to one) counts toward it as it grows: when the owner's columns
 * together pass gpulike.host_memory_per_owner, the one of them that grew
 * most since its load is dropped (stale: its rebuild is held to the quota
 * as any load is), until they fit.  When all columns together pass
 * gpulike.host_memory, likewise the column that grew most, of any owner.
 * Dropping by garbage instead once let one role's inserts into a one-row
 * table drop every other role's caches.
 */
#define GARBAGE_MIN_ROWS	10000

/* Bytes the serving column of a slot gained since its load. */
static uint64
growth(int slot)
{
	GlStoredColumn *sc = slots[slot].serving;
	uint64		now = gl_column_host_bytes(&sc->col);

	return now > sc->loaded_bytes ? now - sc->loaded_bytes : 0;
}

/*
 * The serving column to drop among those that count for owner (or all,
 * with owner InvalidOid): the one that grew most, the most garbage among
 * equals; -1 if there is none.  *total gets their host bytes.
 */
static int
choose_victim(Oid owner, uint64 *total)
{
	int			victim = -1;

	*total = 0;
	for (int i = 0; i < nslots; i++)
	{
		GlStoredColumn *sc = slots[i].serving;
		GlCacheEntry entry;

		if (sc == NULL)
			continue;
		if (OidIsValid(owner) &&
			(sc->byte_limit == 0 || !gl_registry_snapshot(i, &entry) ||
			 entry.owner != owner))
			continue;
		*total += gl_column_host_bytes(&sc->col);
		if (victim < 0 || growth(i) > growth(victim) ||
			(growth(i) == growth(victim) &&
			 sc->col.ngarbage > slots[victim].serving->col.ngarbage))
			victim = i;
	}
	return victim;
}

/* The owners' quotas (see above). */
static void
enforce_owner_quotas(void)
{
	uint64		limit = (uint64) gl_host_memory_per_owner_mb * 1024 * 1024;

	if (gl_host_memory_per_owner_mb < 0)
		return;
	for (int i = 0; i < nslots; i++)
	{
		GlCacheEntry entry;
		uint64		total;
		int			victim;

		if (slots[i].serving == NULL || slots[i].serving->byte_limit == 0 ||
			!gl_registry_snapshot(i, &entry))
			continue;
		while ((victim = choose_victim(entry.owner, &total)) >= 0 && total > limit)
		{
			ereport(LOG,
					(errmsg("gpulike server: changes took the caches of role %u past gpulike.host_memory_per_owner; dropping cache slot %d",
							entry.owner, victim)));
			drop_serving(victim, "gpulike.host_memory_per_owner exceeded by changes");
		}
	}
}

static void
enforce_bounds(void)
{
	int			i;

	for (i = 0; i < nslots; i++)
	{
		GlStoredColumn *sc = slots[i].serving;

		if (sc == NULL || gl_rebuild_garbage_fraction >= 1.0 ||
			sc->col.nrows < GARBAGE_MIN_ROWS ||
			sc->col.ngarbage < gl_rebuild_garbage_fraction * sc->col.nrows ||
			!gl_registry_request_rebuild(i, sc->generation))
			continue;
		ereport(LOG,
				(errmsg("gpulike server: cache slot %d holds " UINT64_FORMAT " dead or superseded rows of " UINT64_FORMAT "; rebuilding it",
						i, sc->col.ngarbage, sc->col.nrows)));
	}

	enforce_owner_quotas();

	/* retired columns go first; loads check themselves: they fail rather than evict */
	for (i = 0; i < nslots && host_bytes_total(false) > host_budget(); i++)
		free_retired(&slots[i]);
	while (host_bytes_total(false) > host_budget())
	{
		uint64		total;
		int			victim = choose_victim(InvalidOid, &total);

		if (victim < 0)
			break;
		ereport(LOG,
				(errmsg("gpulike server: changes took the caches past gpulike.host_memory; dropping cache slot %d",
						victim)));
		drop_serving(victim, "gpulike.host_memory exceeded by changes");
	}
}

/* Was the slot forgotten (uncache, DROP, ...)?  Its load is then of no use. */
static bool
slot_forgotten(int slot)
{
	uint64		ready;

	return gl_registry_slot_state(slot, &ready) == GL_CACHE_EMPTY;
}

void
gl_store_sync(void)
{
	int			i;

	gl_delta_log_drain(apply_delta, NULL);

	for (i = 0; i < nslots; i++)
	{
		StoreSlot  *s = &slots[i];
		GlStoredColumn *sc = s->serving;

		if (s->loading != NULL && slot_forgotten(i))
		{
			gl_store_free_column(s->loading);
			s->loading = NULL;
		}
		if (sc == NULL)
			continue;
		if (sc->missed)
		{
			invalidate_serving(i, sc->missed_errno);
			continue;
		}
		/* stale, uncached, or replaced by a newer copy: nobody asks for it */
		if (!gl_store_registry_ready(i, sc->generation))
		{
			gl_store_free_column(sc);
			s->serving = NULL;
			continue;
		}
		if (sc->changed)
		{
			index_column(sc);	/* before the device copy's counting arrays */
			if (sc->device != NULL)
				(void) gl_store_ensure_device(sc);
			gl_store_publish(sc, false);
			sc->changed = false;
		}
	}
	for (i = 0; i < nslots; i++)
	{
		GlStoredColumn *sc = slots[i].retired;

		if (sc != NULL &&
			(TimestampDifferenceExceeds(sc->retired_at, GetCurrentTimestamp(),
										RETIRED_GRACE_MS) ||
			 !gl_store_registry_ready(i, sc->generation)))
			free_retired(&slots[i]);
		else if (sc != NULL)
			index_column(sc);	/* changes reach it too */
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
gl_store_totals(int *ncolumns, uint64 *host_bytes, uint64 *file_bytes, uint64 *device_bytes)
{
	int			i;

	*ncolumns = 0;
	*host_bytes = 0;
	*file_bytes = 0;
	*device_bytes = 0;
	for (i = 0; i < nslots; i++)
	{
		if (slots[i].serving == NULL)
			continue;
		(*ncolumns)++;
		*host_bytes += gl_column_host_bytes(&slots[i].serving->col);
		*file_bytes += gl_column_file_bytes(&slots[i].serving->col);
		*device_bytes += slots[i].serving->device_bytes;
	}
	for (i = 0; i < nslots; i++)
	{
		if (slots[i].loading != NULL)
		{
			*host_bytes += loading_bytes(slots[i].loading);
			*file_bytes += gl_column_file_bytes(&slots[i].loading->col);
		}
		if (slots[i].retired != NULL)
		{
			*host_bytes += gl_column_host_bytes(&slots[i].retired->col);
			*file_bytes += gl_column_file_bytes(&slots[i].retired->col);
		}
	}
}

/* ------------------------------------------------------ device memory */

#ifdef GPULIKE_HAVE_CUDA

static uint64
device_bytes_total(void)
{
	uint64		total = 0;

	for (int i = 0; i < nslots; i++)
		if (slots[i].serving != NULL)
			total += slots[i].serving->device_bytes;
	return total;
}

/* Drop least recently used device copies (not keep's) until need fits. */
static bool
make_device_room(uint64 need, GlStoredColumn *keep)
{
	uint64		budget = gl_engines_device_budget();

	while (device_bytes_total() + need > budget)
	{
		GlStoredColumn *victim = NULL;

		for (int i = 0; i < nslots; i++)
		{
			GlStoredColumn *sc = slots[i].serving;

			if (sc == NULL || sc == keep || sc->device == NULL)
				continue;
			if (victim == NULL || sc->last_used < victim->last_used)
				victim = sc;
		}
		if (victim == NULL)
			return false;
		ereport(LOG,
				(errmsg("gpulike server: evicting cache slot %d from the GPU to make room",
						victim->slot)));
		gl_store_drop_device(victim);
		gl_store_publish(victim, false);
		gl_stats_count_gpu_eviction(victim->slot);
	}
	return true;
}

void
gl_store_fit_device_budget(void)
{
	(void) make_device_room(0, NULL);
}

void
gl_store_bytes_per_device(uint64 *held, int ndevices)
{
	memset(held, 0, ndevices * sizeof(uint64));
	for (int i = 0; i < nslots; i++)
	{
		GlStoredColumn *sc = slots[i].serving;

		if (sc != NULL && sc->device != NULL)
			for (int k = 0; k < sc->nparts; k++)
				if (sc->part_device[k] < ndevices)
					held[sc->part_device[k]] += sc->part_bytes[k];
	}
}

/* The GPU whose parts hold the fewest bytes: where the next copy begins. */
static int
emptiest_device(void)
{
	uint64		held[GL_MAX_GPUS];
	int			ndevices = gl_engines_device_count();
	int			best = 0;

	gl_store_bytes_per_device(held, ndevices);
	for (int d = 1; d < ndevices; d++)
		if (held[d] < held[best])
			best = d;
	return best;
}

/* Into how many parts to split sc over the GPUs (gpulike.gpu_split_*). */
static int
parts_for(const GlStoredColumn *sc)
{
	if (sc->col.nbytes < (uint64) gl_gpu_split_min_kb * 1024)
		return 1;
	return gl_gpu_split_parts > 0 ? gl_gpu_split_parts : gl_engines_device_count();
}

/* An empty column is no work for a GPU; a retired one answers on the CPU. */
static bool
wants_device(const GlStoredColumn *sc)
{
	return gl_engines_gpu_ready() && sc->col.nrows > 0 && sc->retired_at == 0;
}

bool
gl_store_device_current(const GlStoredColumn *sc)
{
	return !wants_device(sc) ||
		(sc->device != NULL && sc->device_rows >= sc->col.nrows);
}

bool
gl_store_ensure_device(GlStoredColumn *sc)
{
	if (!wants_device(sc))
		return false;
	if (sc->device != NULL)
	{
		if (!gl_store_append_device(sc))
			return false;
		gl_store_device_counting(sc);
		return true;
	}

	/* Values plus per-row length, offset and padding: a rough upper bound. */
	if (!make_device_room(sc->col.nbytes + sc->col.nrows * 16, sc) ||
		!gl_store_upload(sc, parts_for(sc), emptiest_device()))
		return false;
	gl_store_device_counting(sc);
	if (!make_device_room(0, sc))
	{
		gl_store_drop_device(sc);
		return false;
	}
	return true;
}

#else							/* !GPULIKE_HAVE_CUDA */

void
gl_store_fit_device_budget(void)
{
}

void
gl_store_bytes_per_device(uint64 *held, int ndevices)
{
	memset(held, 0, ndevices * sizeof(uint64));
}

bool
gl_store_ensure_device(GlStoredColumn *sc)
{
	return false;
}

bool
gl_store_device_current(const GlStoredColumn *sc)
{
	return true;
}

#endif							/* GPULIKE_HAVE_CUDA */
