/*-------------------------------------------------------------------------
 *
 * registry.c
 *	  The shared-memory registry of cached columns, and the life of a slot:
 *	  the only code that writes the registry's entries (stats.c aside, which
 *	  adds to their counters).
 *
 * A fixed array of GL_REGISTRY_SLOTS entries, one per cached (database,
 * relation, column), lives in shared memory next to a small header, under
 * one LWLock of our own tranche.  The array is tiny (a few hundred entries)
 * and is touched rarely: by the planner once per relation and plan, by the
 * sync trigger once per statement (it caches the answer, see sync_row.c), by
 * the loader a few times per load, and by the server after each request.
 * A linear scan under a shared lock is therefore the right data structure.
 *
 * Life of a slot.  `state` is that of the copy queries may use.  A load
 * runs beside it under a generation of its own, `load_generation` (0 when
 * none), and replaces it in one step when complete (loader.c).  Every
 * transition, with the function that makes it:
 *
 *	EMPTY    --find_or_add-->                STALE ("not loaded yet")
 *	STALE    --begin_load(G)-->              LOADING, load_generation G
 *	EVICTED  --begin_load(G)-->              LOADING, load_generation G
 *	READY    --begin_load(G)-->              READY, load_generation G: the
 *	                                         ready copy serves meanwhile
 *	                                         (STALE first, then LOADING,
 *	                                         if the table was rewritten)
 *	any      --finish_load(G), by the        READY under generation G,
 *	           server, while G is loading-->   load_generation 0
 *	LOADING  --cancel_load(G): the load      STALE (a READY or EVICTED slot
 *	           failed or was rolled back-->    only loses load_generation)
 *	any      --mark_stale: TRUNCATE,         STALE, load_generation 0: no
 *	           trigger altered, delta          copy can follow the table, so
 *	           log overflow-->                 a load in progress fails too
 *	READY, EVICTED --mark_slot_stale: the    STALE, or LOADING while a load
 *	           table was rewritten, the        goes on (mark_generation_stale:
 *	           server dropped the copy-->      only while READY under that
 *	                                           generation)
 *	READY    --request_rebuild (too much     READY, wanted by the reloader
 *	           garbage)-->
 *	READY    --evict_all: the server         EVICTED: registered, nothing
 *	           started-->                      held; the reloader loads it
 *	any      --forget: uncache, DROP,        EMPTY; the server frees its
 *	           DROP EXTENSION, DROP            copies at its next sync
 *	           DATABASE, rolled back cache()-->
 *
 * STALE, EVICTED, and READY with a rebuild wanted, are what the reloader
 * looks for (slot_wants_reload).
 *
 * Every load takes a new generation number from a cluster-wide counter, so
 * rows and deltas of an earlier incarnation of a slot (or of an earlier
 * column that used the same slot) can never be mistaken for current ones.
 *
 * A cache is usable by a query only when its slot is READY, its recorded
 * relfilenode is the relation's current one (VACUUM FULL, CLUSTER and
 * rewriting ALTER TABLEs assign a new one, and with it new TIDs), the
 * relation still has our sync trigger, firing ALWAYS (so even sessions in
 * replica mode, e.g. logical replication apply workers, log their rows),
 * and this backend has no trigger events of the relation still queued
 * (rows it wrote that the sync trigger has not logged yet).
 *
 * None of the functions here raise errors: they are called from triggers,
 * transaction callbacks, the object-access hook and the server's loop.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "commands/trigger.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "registry/registry_internal.h"

#define GL_REGISTRY_TRANCHE "gpulike registry"

/* What the reloader and the usability check need beyond GlCacheEntry. */
typedef struct GlSlotExtra
{
	Oid			sync_function;	/* trigger function the cache relies on */
	TimestampTz retry_after;	/* reloader: not before this time */
	int			failures;		/* reloader: consecutive failed rebuilds */
	bool		rebuild_wanted; /* reloader: rebuild the READY copy */
} GlSlotExtra;

typedef struct GlRegistryShared
{
	pg_atomic_uint64 change_count;
	uint64		next_generation;
	int			launcher_pid;
	GlCacheEntry entries[GL_REGISTRY_SLOTS];
	GlSlotExtra extra[GL_REGISTRY_SLOTS];
} GlRegistryShared;

static GlRegistryShared *registry = NULL;
static LWLock *registry_lock_ptr = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* ---------------------------------------------------------------- shmem */

static Size
registry_shmem_size(void)
{
	return MAXALIGN(sizeof(GlRegistryShared));
}

static void
registry_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(registry_shmem_size());
	RequestNamedLWLockTranche(GL_REGISTRY_TRANCHE, 1);
}

static void
registry_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	registry = ShmemInitStruct("gpulike registry", sizeof(GlRegistryShared),
							   &found);
	registry_lock_ptr = &GetNamedLWLockTranche(GL_REGISTRY_TRANCHE)[0].lock;
	if (!found)
	{
		memset(registry, 0, sizeof(GlRegistryShared));
		pg_atomic_init_u64(&registry->change_count, 1);
		registry->next_generation = 1;
	}
	LWLockRelease(AddinShmemInitLock);
}

/*
 * Since PostgreSQL 15 shared memory and LWLock tranches may only be
 * requested from shmem_request_hook, and attached from shmem_startup_hook;
 * both are chained.
 */
void
gl_registry_shmem_register(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = registry_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = registry_shmem_startup;
}

/* ------------------------------------------------------ the whole array */

GlCacheEntry *
gl_registry_entries(void)
{
	return registry ? registry->entries : NULL;
}

bool
gl_registry_available(void)
{
	return registry != NULL;
}

int
gl_registry_size(void)
{
	return registry ? GL_REGISTRY_SLOTS : 0;
}

LWLock *
gl_registry_lock(void)
{
	return registry_lock_ptr;
}

uint64
gl_registry_change_count(void)
{
	return registry ? pg_atomic_read_u64(&registry->change_count) : 0;
}

/* Caller holds the lock exclusively. */
static void
registry_changed(void)
{
	pg_atomic_fetch_add_u64(&registry->change_count, 1);
}

/* Does the relation carry our sync trigger, firing in every session? */
static bool
sync_trigger_enabled(Relation rel, Oid sync_function)
{
	TriggerDesc *trigdesc = rel->trigdesc;

	if (trigdesc == NULL || !OidIsValid(sync_function))
		return false;
	for (int i = 0; i < trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &trigdesc->triggers[i];

		if (trigger->tgfoid == sync_function &&
			trigger->tgenabled == TRIGGER_FIRES_ALWAYS)
			return true;
	}
	return false;
}

bool
gl_cache_usable(Relation rel, AttrNumber attnum, GlCacheInfo *info)
{
	Oid			relid = RelationGetRelid(rel);
	bool		usable = false;
	bool		rewritten = false;
	int			slot;

	if (registry == NULL)
		return false;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	slot = gl_registry_find(relid, attnum);
	if (slot >= 0 && registry->entries[slot].state == GL_CACHE_READY)
	{
		GlCacheEntry *entry = &registry->entries[slot];

		if (entry->relfilenode != rel->rd_node.relNode)
			rewritten = true;
		else if (sync_trigger_enabled(rel, registry->extra[slot].sync_function))
		{
			usable = true;
			if (info)
			{
				info->slot = slot;
				info->generation = entry->generation;
				info->on_device = entry->held.device_bytes > 0;
			}
		}
	}
	LWLockRelease(registry_lock_ptr);

	/*
	 * Rows this transaction wrote whose AFTER ROW events have not fired yet
	 * are not in the delta log.  A query can see them only from inside the
	 * writing statement (a volatile function called per row) or before
	 * deferred events fire; such a query must not use the cache.
	 */
	if (usable && AfterTriggerPendingOnRel(relid))
		usable = false;

	/*
	 * The table was rewritten since the load: its TIDs are all new.  Mark
	 * the cache stale now so the reloader rebuilds it.  (If the rewrite is
	 * rolled back the rebuild was unnecessary, never wrong.)
	 */
	if (rewritten)
		gl_registry_mark_slot_stale(slot, "table rewritten");
	return usable;
}

/*
 * Mark every cache of (dbid, relid) stale and wake the reloader.  The
 * table changed in a way no copy follows, so a load in progress fails too
 * (its finish finds load_generation cleared), and the trigger stops
 * logging for it.
 */
void
gl_registry_mark_stale(Oid dbid, Oid relid, const char *reason)
{
	bool		changed = false;

	if (registry == NULL)
		return;
	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];

		if (entry->state != GL_CACHE_EMPTY && entry->dbid == dbid &&
			entry->relid == relid)
		{
			if (entry->state != GL_CACHE_STALE)
				strlcpy(entry->stale_reason, reason, sizeof(entry->stale_reason));
			entry->state = GL_CACHE_STALE;
			entry->load_generation = 0;
			registry->extra[i].retry_after = 0;
			registry->extra[i].failures = 0;
			registry->extra[i].rebuild_wanted = false;
			changed = true;
		}
	}
	if (changed)
		registry_changed();
	LWLockRelease(registry_lock_ptr);
	if (changed)
		gl_registry_wake_launcher();
}

/* ------------------------------------------------------ slot management */

/* Caller holds the lock (either mode). */
int
gl_registry_find(Oid relid, AttrNumber attnum)
{
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];

		if (entry->state != GL_CACHE_EMPTY && entry->dbid == MyDatabaseId &&
			entry->relid == relid && entry->attnum == attnum)
			return i;
	}
	return -1;
}

int
gl_registry_lookup(Oid relid, AttrNumber attnum)
{
	int			slot;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	slot = gl_registry_find(relid, attnum);
	LWLockRelease(registry_lock_ptr);
	return slot;
}

int
gl_registry_find_or_add(Oid relid, AttrNumber attnum)
{
	int			slot;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	slot = gl_registry_find(relid, attnum);
	if (slot < 0)
	{
		for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
		{
			GlCacheEntry *entry = &registry->entries[i];

			if (entry->state != GL_CACHE_EMPTY)
				continue;
			memset(entry, 0, sizeof(GlCacheEntry));
			memset(&registry->extra[i], 0, sizeof(GlSlotExtra));
			entry->state = GL_CACHE_STALE;
			strlcpy(entry->stale_reason, "not loaded yet", sizeof(entry->stale_reason));
			entry->dbid = MyDatabaseId;
			entry->relid = relid;
			entry->attnum = attnum;
			registry_changed();
			slot = i;
			break;
		}
	}
	LWLockRelease(registry_lock_ptr);
	return slot;
}

uint64
gl_registry_new_generation(void)
{
	uint64		generation;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	generation = registry->next_generation++;
	LWLockRelease(registry_lock_ptr);
	return generation;
}

void
gl_registry_begin_load(int slot, uint64 generation, Oid relfilenode,
					   Oid sync_function, Oid owner, uint64 rows_total)
{
	GlCacheEntry *entry = &registry->entries[slot];

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	/* a copy of an earlier relfilenode holds TIDs that mean nothing now */
	if (entry->state == GL_CACHE_READY && entry->relfilenode != relfilenode)
	{
		entry->state = GL_CACHE_STALE;
		strlcpy(entry->stale_reason, "table rewritten", sizeof(entry->stale_reason));
	}
	if (entry->state != GL_CACHE_READY)
	{
		entry->state = GL_CACHE_LOADING;
		entry->stale_reason[0] = '\0';
	}
	entry->load_generation = generation;
	entry->relfilenode = relfilenode;
	entry->owner = owner;
	entry->load_rows_done = 0;
	entry->load_rows_total = rows_total;
	registry->extra[slot].sync_function = sync_function;
	registry_changed();
	LWLockRelease(registry_lock_ptr);
}

void
gl_registry_load_progress(int slot, uint64 generation, uint64 rows_done)
{
	GlCacheEntry *entry = &registry->entries[slot];

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	if (entry->load_generation == generation)
	{
		entry->load_rows_done = rows_done;
		/* reltuples was an estimate; never show more than 100% */
		if (entry->load_rows_total < rows_done)
			entry->load_rows_total = rows_done;
	}
	LWLockRelease(registry_lock_ptr);
}

bool
gl_registry_finish_load(int slot, uint64 generation)
{
	GlCacheEntry *entry = &registry->entries[slot];
	bool		ready = false;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	if (entry->state != GL_CACHE_EMPTY && entry->load_generation == generation)
	{
		entry->state = GL_CACHE_READY;
		entry->generation = generation;
		entry->load_generation = 0;
		entry->stale_reason[0] = '\0';
		registry->extra[slot].retry_after = 0;
		registry->extra[slot].failures = 0;
		registry->extra[slot].rebuild_wanted = false;
		registry_changed();
		ready = true;
	}
	LWLockRelease(registry_lock_ptr);
	return ready;
}

void
gl_registry_cancel_load(int slot, uint64 generation, const char *reason)
{
	GlCacheEntry *entry = &registry->entries[slot];
	bool		stale = false;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	if (entry->state != GL_CACHE_EMPTY && entry->load_generation == generation)
	{
		entry->load_generation = 0;
		if (entry->state == GL_CACHE_LOADING)
		{
			entry->state = GL_CACHE_STALE;
			strlcpy(entry->stale_reason, reason, sizeof(entry->stale_reason));
			stale = true;
		}
		registry_changed();
	}
	LWLockRelease(registry_lock_ptr);
	if (stale)
		gl_registry_wake_launcher();
}

/*
 * The copy queries use is no good any more; the caller holds the registry
 * lock exclusively.  A load in progress goes on: it will be the new copy.
 */
static bool
mark_stale_locked(int slot, const char *reason)
{
	GlCacheEntry *entry = &registry->entries[slot];

	if (entry->state != GL_CACHE_READY && entry->state != GL_CACHE_EVICTED)
		return false;
	/* a ready cache going stale is news: rebuild it without backoff */
	if (entry->state == GL_CACHE_READY)
	{
		registry->extra[slot].retry_after = 0;
		registry->extra[slot].failures = 0;
	}
	registry->extra[slot].rebuild_wanted = false;
	entry->state = entry->load_generation != 0 ? GL_CACHE_LOADING : GL_CACHE_STALE;
	strlcpy(entry->stale_reason, reason, sizeof(entry->stale_reason));
	registry_changed();
	return true;
}

void
gl_registry_mark_slot_stale(int slot, const char *reason)
{
	bool		changed;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	changed = mark_stale_locked(slot, reason);
	LWLockRelease(registry_lock_ptr);
	if (changed)
		gl_registry_wake_launcher();
}

void
gl_registry_mark_generation_stale(int slot, uint64 generation, const char *reason)
{
	GlCacheEntry *entry = &registry->entries[slot];
	bool		changed = false;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	if (entry->generation == generation && entry->state == GL_CACHE_READY)
		changed = mark_stale_locked(slot, reason);
	LWLockRelease(registry_lock_ptr);
	if (changed)
		gl_registry_wake_launcher();
}

bool
gl_registry_request_rebuild(int slot, uint64 generation)
{
	GlCacheEntry *entry = &registry->entries[slot];
	bool		requested = false;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	if (entry->state == GL_CACHE_READY && entry->generation == generation &&
		entry->load_generation == 0 && !registry->extra[slot].rebuild_wanted)
	{
		registry->extra[slot].rebuild_wanted = true;
		requested = true;
	}
	LWLockRelease(registry_lock_ptr);
	if (requested)
		gl_registry_wake_launcher();
	return requested;
}

/*
 * Nothing is sent to the server: it frees the copies of a slot that is
 * EMPTY, or no longer READY under their generation, at its next sync with
 * the registry (gl_store_sync: once a second, and before it answers a
 * request, a status or the start of a load), and a later load into this
 * slot uses a new generation anyway.
 */
void
gl_registry_forget(int slot)
{
	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	registry->entries[slot].state = GL_CACHE_EMPTY;
	registry_changed();
	LWLockRelease(registry_lock_ptr);
}

void
gl_registry_forget_database(Oid dbid)
{
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];
		bool		match;

		LWLockAcquire(registry_lock_ptr, LW_SHARED);
		match = entry->state != GL_CACHE_EMPTY && entry->dbid == dbid;
		LWLockRelease(registry_lock_ptr);
		if (match)
			gl_registry_forget(i);
	}
}

bool
gl_registry_has_relation(Oid relid)
{
	bool		found = false;

	if (registry == NULL)
		return false;
	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	for (int i = 0; i < GL_REGISTRY_SLOTS && !found; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];

		found = entry->state != GL_CACHE_EMPTY &&
			entry->dbid == MyDatabaseId && entry->relid == relid;
	}
	LWLockRelease(registry_lock_ptr);
	return found;
}

bool
gl_registry_snapshot(int slot, GlCacheEntry *copy)
{
	bool		used;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	*copy = registry->entries[slot];
	used = copy->state != GL_CACHE_EMPTY;
	LWLockRelease(registry_lock_ptr);
	return used;
}

void
gl_registry_owner_usage(Oid owner, int *columns, uint64 *host_bytes)
{
	*columns = 0;
	*host_bytes = 0;
	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];

		if (entry->state == GL_CACHE_EMPTY || entry->owner != owner)
			continue;
		(*columns)++;
		*host_bytes += entry->held.host_bytes;
	}
	LWLockRelease(registry_lock_ptr);
}

/* ---------------------------------------------------- the sync trigger */

int
gl_registry_sync_targets(Oid relid, GlSyncTarget *targets, int max,
						 uint64 *change_count)
{
	int			n = 0;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	*change_count = gl_registry_change_count();
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];
		uint64		generations[2];
		int			ngenerations = 0;

		if (entry->state == GL_CACHE_EMPTY || entry->dbid != MyDatabaseId ||
			entry->relid != relid)
			continue;
		if (entry->state == GL_CACHE_READY)
			generations[ngenerations++] = entry->generation;
		if (entry->load_generation != 0)
			generations[ngenerations++] = entry->load_generation;
		for (int g = 0; g < ngenerations; g++, n++)
		{
			if (n >= max)
				continue;
			targets[n].slot = i;
			targets[n].generation = generations[g];
			targets[n].attnum = entry->attnum;
			targets[n].relfilenode = entry->relfilenode;
		}
	}
	LWLockRelease(registry_lock_ptr);
	return n;
}

/* ---------------------------------------------------------- the server */

/*
 * The old server's copies went with it.  Bumps the change count like any
 * change of state: writers stop logging for the evicted generations.
 */
int
gl_registry_evict_all(void)
{
	int			evicted = 0;

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];

		if (entry->state != GL_CACHE_READY)
			continue;
		entry->state = GL_CACHE_EVICTED;
		memset(&entry->held, 0, sizeof(entry->held));
		evicted++;
	}
	if (evicted > 0)
		registry_changed();
	LWLockRelease(registry_lock_ptr);
	return evicted;
}

GlCacheState
gl_registry_slot_state(int slot, uint64 *ready_generation)
{
	GlCacheEntry *entry = &registry->entries[slot];
	GlCacheState state;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	state = entry->state;
	*ready_generation = state == GL_CACHE_READY ? entry->generation : 0;
	LWLockRelease(registry_lock_ptr);
	return state;
}

void
gl_registry_publish(int slot, uint64 generation, const GlCacheHolding *held,
					bool count_query)
{
	GlCacheEntry *entry = &registry->entries[slot];

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	if (entry->state != GL_CACHE_EMPTY && entry->generation == generation)
	{
		entry->held = *held;
		if (count_query)
			entry->queries_served++;
	}
	LWLockRelease(registry_lock_ptr);
}

/* ------------------------------------------------- reloader bookkeeping */

void
gl_registry_defer_retry(int slot, bool until_next_change)
{
	GlSlotExtra *extra = &registry->extra[slot];
	TimestampTz now = GetCurrentTimestamp();

	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	if (until_next_change)
		extra->retry_after = DT_NOEND;
	else
	{
		/* 5 s, 10 s, 20 s ... up to 10 minutes */
		int			shift = Min(extra->failures, 7);

		extra->failures++;
		extra->retry_after = TimestampTzPlusMilliseconds(now,
														 5000L << shift);
	}
	LWLockRelease(registry_lock_ptr);
}

/*
 * Stale and evicted slots want a load, and so do ready ones whose copy
 * holds too much garbage, unless a load is running.  Caller holds the lock.
 */
static bool
slot_wants_reload(int slot, Oid dbid, TimestampTz now)
{
	GlCacheEntry *entry = &registry->entries[slot];

	return (entry->state == GL_CACHE_STALE ||
			entry->state == GL_CACHE_EVICTED ||
			(entry->state == GL_CACHE_READY && registry->extra[slot].rebuild_wanted)) &&
		entry->load_generation == 0 &&
		entry->dbid == dbid && registry->extra[slot].retry_after <= now;
}

bool
gl_registry_wants_reload(int slot, TimestampTz now)
{
	bool		wants;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	wants = slot_wants_reload(slot, MyDatabaseId, now);
	LWLockRelease(registry_lock_ptr);
	return wants;
}

/* Append dbid to dbids[0..n) unless present; returns the new n. */
static int
add_distinct(Oid *dbids, int n, int max, Oid dbid)
{
	for (int i = 0; i < n; i++)
		if (dbids[i] == dbid)
			return n;
	if (n < max)
		dbids[n++] = dbid;
	return n;
}

int
gl_registry_databases_wanting_reload(Oid *dbids, int max, TimestampTz now)
{
	int			n = 0;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];

		if (slot_wants_reload(i, entry->dbid, now))
			n = add_distinct(dbids, n, max, entry->dbid);
	}
	LWLockRelease(registry_lock_ptr);
	return n;
}

int
gl_registry_databases(Oid *dbids, int max)
{
	int			n = 0;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
	{
		GlCacheEntry *entry = &registry->entries[i];

		if (entry->state != GL_CACHE_EMPTY)
			n = add_distinct(dbids, n, max, entry->dbid);
	}
	LWLockRelease(registry_lock_ptr);
	return n;
}

void
gl_registry_set_launcher(int pid)
{
	LWLockAcquire(registry_lock_ptr, LW_EXCLUSIVE);
	registry->launcher_pid = pid;
	LWLockRelease(registry_lock_ptr);
}

/*
 * SIGUSR1 makes a background worker set its latch (procsignal's handler);
 * the launcher then looks for stale slots at once instead of at its next
 * timeout.
 */
void
gl_registry_wake_launcher(void)
{
	int			pid;

	LWLockAcquire(registry_lock_ptr, LW_SHARED);
	pid = registry->launcher_pid;
	LWLockRelease(registry_lock_ptr);
	if (pid != 0)
		kill(pid, SIGUSR1);
}
