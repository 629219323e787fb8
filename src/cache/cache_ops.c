/*-------------------------------------------------------------------------
 *
 * cache_ops.c
 *	  Caching, uncaching and rebuilding one column of one table.
 *
 * Caching a column, in order:
 *	1. make sure the table's sync triggers exist and fire ALWAYS, committed
 *	   before the load (by a worker: sync_triggers_setup.c), and lock the table
 *	   ShareUpdateExclusiveLock: no other load, no DDL, writers welcome;
 *	2. take a registry slot (within the owner's quota), and for
 *	   gpulike.cache() register the column (gpulike.cached_columns);
 *	3. load a new copy under a new generation (loader.c), which replaces
 *	   the slot's copy, if any, when complete.
 * loader.c has the argument that no row written meanwhile is missed.
 *
 * The registry is shared memory, not transactional: see cache_undo.c for
 * how a rolled-back cache(), uncache() or DROP is undone there.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/partition.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "cache/cache_ops.h"
#include "cache/cache_undo.h"
#include "cache/loader.h"
#include "cache/cached_columns.h"
#include "cache/sync_triggers.h"
#include "cache/sync_triggers_setup.h"
#include "registry/registry.h"
#include "registry/stats.h"
#include "settings.h"

/* ------------------------------------------------------------ checking */

static bool
cacheable_type(Oid typid)
{
	return typid == TEXTOID || typid == VARCHAROID || typid == BPCHAROID;
}

/* A plain heap table, the only kind whose columns are loaded. */
static bool
heap_table(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	bool		result = false;

	if (HeapTupleIsValid(tuple))
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);

		result = form->relkind == RELKIND_RELATION && form->relam == HEAP_TABLE_AM_OID;
		ReleaseSysCache(tuple);
	}
	return result;
}

/* The checks of a column to cache that do not depend on the kind of table. */
static AttrNumber
check_column(Relation rel, const char *attname)
{
	AttrNumber	attnum;
	Oid			typid;

	/* the pattern compilers read UTF-8 (or bytes): nothing else could use it */
	if (GetDatabaseEncoding() != PG_UTF8 && GetDatabaseEncoding() != PG_SQL_ASCII)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("gpulike cannot cache columns in a database with encoding %s",
						GetDatabaseEncodingName()),
				 errdetail("gpulike matches patterns in UTF8 and SQL_ASCII databases only.")));
	if (rel->rd_rel->relpersistence == RELPERSISTENCE_TEMP)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot cache temporary table \"%s\"",
						RelationGetRelationName(rel))));

	attnum = get_attnum(RelationGetRelid(rel), attname);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						attname, RelationGetRelationName(rel))));
	if (attnum < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot cache system column \"%s\"", attname)));

	typid = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid;
	if (!cacheable_type(typid))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot cache column \"%s\" of relation \"%s\": type %s is not supported",
						attname, RelationGetRelationName(rel),
						format_type_be(typid)),
				 errdetail("gpulike caches columns of type text, character varying and character.")));
	return attnum;
}

AttrNumber
gl_cacheable_column(Relation rel, const char *attname)
{
	if (rel->rd_rel->relkind != RELKIND_RELATION ||
		rel->rd_rel->relam != HEAP_TABLE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("cannot cache \"%s\"", RelationGetRelationName(rel)),
				 errdetail("gpulike caches columns of plain heap tables and of partitioned tables.")));
	return check_column(rel, attname);
}

List *
gl_cache_leaf_tables(Oid relid, const char *attname, LOCKMODE lockmode)
{
	List	   *leaves = NIL;
	ListCell   *lc;

	if (get_rel_relkind(relid) != RELKIND_PARTITIONED_TABLE)
		return list_make1_oid(relid);

	if (get_attnum(relid, attname) == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						attname, get_rel_name(relid))));
	foreach(lc, find_all_inheritors(relid, lockmode, NULL))
	{
		Oid			child = lfirst_oid(lc);
		char		relkind = get_rel_relkind(child);

		if (relkind == RELKIND_RELATION)
			leaves = lappend_oid(leaves, child);
		else if (relkind != RELKIND_PARTITIONED_TABLE)
			ereport(NOTICE,
					(errmsg("skipping partition \"%s\": only heap tables can be cached",
							get_rel_name(child))));
	}
	return leaves;
}

/* ---------------------------------------------------- partitioned tables */

/*
 * A partitioned table's registration stands for its leaf partitions, those
 * it has and those it gets later; each leaf also has a registration of its
 * own, which is what gets a slot and is loaded.  Leaves that come later are
 * picked up in two steps, neither of which slows the DDL down:
 *	- the DDL watch sees a partition attached (CREATE TABLE ... PARTITION
 *	  OF, ATTACH PARTITION) and gives each leaf under it a stale slot
 *	  (gl_cache_new_partition); the launcher then starts a reloader;
 *	- the reloader's reconcile registers every leaf under a registered
 *	  partitioned table that has no registration yet (register_leaves),
 *	  then loads it like any stale slot.  It sees the partition once the
 *	  DDL has committed; a slot whose DDL rolled back is forgotten.
 * A partition stays cached once detached (it is a table of its own then),
 * and cannot be uncached on its own while attached: the next reconcile
 * would register it again.
 */

void
gl_cache_register_partitioned(Oid relid, const char *attname)
{
	/*
	 * This table and the partitioned tables under it are locked to commit:
	 * ATTACH PARTITION and CREATE TABLE ... PARTITION OF take conflicting
	 * locks on the parent, so a partition added meanwhile is either among
	 * the leaves cache() loads or sees this registration.  Each table is
	 * locked before its partitions are listed, so none is missed; the
	 * leaves are not locked here (their triggers are set up by a worker).
	 * Writers take no conflicting lock.
	 */
	Relation	rel = table_open(relid, ShareUpdateExclusiveLock);
	List	   *parents = list_make1_oid(relid);
	ListCell   *lc;

	check_column(rel, attname);
	foreach(lc, parents)
	{
		ListCell   *child;

		foreach(child, find_inheritance_children(lfirst_oid(lc), NoLock))
		{
			if (get_rel_relkind(lfirst_oid(child)) != RELKIND_PARTITIONED_TABLE)
				continue;
			LockRelationOid(lfirst_oid(child), ShareUpdateExclusiveLock);
			parents = lappend_oid(parents, lfirst_oid(child));
		}
	}
	gl_cached_columns_add(relid, attname);
	table_close(rel, NoLock);
}

Oid
gl_cache_registered_ancestor(Oid relid, const char *attname)
{
	ListCell   *lc;

	/* pg_inherits also lists the parents of plain inheritance */
	if (!get_rel_relispartition(relid))
		return InvalidOid;
	foreach(lc, get_partition_ancestors(relid))
	{
		if (gl_cached_columns_exists(lfirst_oid(lc), attname))
			return lfirst_oid(lc);
	}
	return InvalidOid;
}

void
gl_cache_new_partition(Oid child, Oid parent)
{
	List	   *columns = gl_cached_columns_columns(parent);
	List	   *leaves = NIL;
	ListCell   *lc;

	foreach(lc, get_partition_ancestors(parent))
		columns = list_concat(columns, gl_cached_columns_columns(lfirst_oid(lc)));
	if (columns == NIL)
		return;

	/* the DDL holds a lock on child and everything under it */
	foreach(lc, find_all_inheritors(child, NoLock, NULL))
	{
		if (heap_table(lfirst_oid(lc)))
			leaves = lappend_oid(leaves, lfirst_oid(lc));
	}
	foreach(lc, leaves)
	{
		Oid			leaf = lfirst_oid(lc);
		ListCell   *col;

		foreach(col, columns)
		{
			AttrNumber	attnum = get_attnum(leaf, (char *) lfirst(col));

			if (attnum <= 0 || !cacheable_type(get_atttype(leaf, attnum)))
				continue;
			if (gl_registry_find_or_add(leaf, attnum) < 0)
				ereport(WARNING,
						(errmsg("gpulike: no registry slot left to cache column \"%s\" of new partition \"%s\"",
								(char *) lfirst(col), get_rel_name(leaf))));
		}
	}
}

/* Is (relid, attname) among the registrations? */
static bool
listed(List *registrations, Oid relid, const char *attname)
{
	ListCell   *lc;

	foreach(lc, registrations)
	{
		GlRegistration *registration = (GlRegistration *) lfirst(lc);

		if (registration->relid == relid && strcmp(registration->attname, attname) == 0)
			return true;
	}
	return false;
}

/*
 * The quotas of a new partition's owner, as gpulike.cache() would hold
 * them (owner_quota): the reloader registers and loads the partition in
 * the background, where no one could be told, so a partition whose owner
 * is past them is left uncached, and that is logged if say (once per
 * reconcile: register_leaves says it).  Superusers' tables have no quotas.
 */
static bool
within_owner_quota(Oid leaf, const char *attname, bool say)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(leaf));
	Oid			owner;
	int			columns;
	uint64		bytes;

	if (!HeapTupleIsValid(tuple))
		return false;
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	if (superuser_arg(owner))
		return true;
	gl_registry_owner_usage(owner, &columns, &bytes);
	if ((gl_max_columns_per_owner < 0 || columns < gl_max_columns_per_owner) &&
		(gl_host_memory_per_owner_mb < 0 ||
		 bytes < (uint64) gl_host_memory_per_owner_mb * 1024 * 1024))
		return true;
	if (say)
		ereport(LOG,
				(errmsg("gpulike: not caching column \"%s\" of new partition \"%s\": the quotas of role \"%s\" are used up",
						attname, get_rel_name(leaf), GetUserNameFromId(owner, false)),
				 errdetail_plural("Its tables have %d cached column taking %llu MB; gpulike.max_columns_per_owner is %d, gpulike.host_memory_per_owner is %d MB.",
								  "Its tables have %d cached columns taking %llu MB; gpulike.max_columns_per_owner is %d, gpulike.host_memory_per_owner is %d MB.",
								  columns, columns, (unsigned long long) (bytes / (1024 * 1024)),
								  gl_max_columns_per_owner, gl_host_memory_per_owner_mb)));
	return false;
}

/*
 * Register the leaves under a registered partitioned table that are not
 * registered yet.  Each is looked at again under its
 * ShareUpdateExclusiveLock (writers go on), kept to commit: uncache()
 * holds a conflicting lock on every leaf while it deletes the
 * registrations, so it cannot leave one of ours behind.  Returns the new
 * registrations.
 */
static List *
register_leaves(GlRegistration *parent, List *registrations)
{
	List	   *added = NIL;
	ListCell   *lc;

	LockRelationOid(parent->relid, AccessShareLock);
	foreach(lc, find_all_inheritors(parent->relid, AccessShareLock, NULL))
	{
		Oid			leaf = lfirst_oid(lc);

		/* not queued for the lock: see REBUILD_LOCK_WAIT_MS; the next try registers it */
		if (!heap_table(leaf) || listed(registrations, leaf, parent->attname) ||
			!ConditionalLockRelationOid(leaf, ShareUpdateExclusiveLock))
			continue;
		if (heap_table(leaf) && !gl_cached_columns_exists(leaf, parent->attname) &&
			OidIsValid(gl_cache_registered_ancestor(leaf, parent->attname)) &&
			within_owner_quota(leaf, parent->attname, true))
		{
			GlRegistration *registration = palloc(sizeof(GlRegistration));

			gl_cached_columns_add(leaf, parent->attname);
			registration->relid = leaf;
			registration->attname = pstrdup(parent->attname);
			added = lappend(added, registration);
		}
	}
	return added;
}

/* ------------------------------------------------------------- caching */

/*
 * How long a rebuild (reload(), the reloader) waits for its table lock.
 * Its transaction holds a snapshot, which CREATE INDEX CONCURRENTLY waits
 * for while it holds ShareUpdateExclusiveLock: a rebuild queued for that
 * lock would be a deadlock, which PostgreSQL resolves by failing one side
 * -- maybe the index build.  So a rebuild does not queue: it tries for a
 * while and gives up, leaving the column to the reloader's next try.
 * gpulike.cache() waits as any DDL does (its caller can cancel it).
 */
#define REBUILD_LOCK_WAIT_MS	2000
#define REBUILD_LOCK_RETRY_MS	20

static void
lock_for_load(Relation rel, LOCKMODE mode, bool patient)
{
	Oid			relid = RelationGetRelid(rel);

	if (patient)
	{
		LockRelationOid(relid, mode);
		return;
	}
	for (int waited = 0; !ConditionalLockRelationOid(relid, mode);
		 waited += REBUILD_LOCK_RETRY_MS)
	{
		if (waited >= REBUILD_LOCK_WAIT_MS)
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("could not lock relation \"%s\" to rebuild its cache",
							RelationGetRelationName(rel)),
					 errdetail("Another command holds a conflicting lock (CREATE INDEX CONCURRENTLY, VACUUM, ANALYZE or DDL); waiting for it could deadlock with it."),
					 errhint("The cache is rebuilt in the background once the lock is free.")));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 REBUILD_LOCK_RETRY_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Step 1: the sync triggers fire ALWAYS for every writer, and the table is
 * locked for the load.  Returns the row trigger's function, or InvalidOid
 * (the table locked all the same) when a trigger is disabled and enable is
 * false.  The caller holds AccessShareLock only, so that a worker can take
 * the ShareRowExclusiveLock of CREATE TRIGGER; once we hold
 * ShareUpdateExclusiveLock no DDL can change the triggers, but neither
 * can the worker: if a concurrent DROP TRIGGER slipped in between, or the
 * worker could not help, we do the DDL ourselves, and writers wait until
 * we commit.
 */
static Oid
prepare_triggers(Relation rel, bool enable, bool patient)
{
	Oid			relid = RelationGetRelid(rel);
	GlSyncTriggerState state = gl_sync_triggers_state(rel);

	for (int attempt = 0; attempt < 2 && state != GL_SYNC_READY &&
		 (enable || state != GL_SYNC_DISABLED) &&
		 gl_sync_triggers_can_set_up(rel); attempt++)
	{
		gl_cache_undo_on_abort_triggers_set_up(relid);
		if (!gl_sync_triggers_setup_committed(rel, enable))
			break;
		state = gl_sync_triggers_state(rel);
	}
	if (state == GL_SYNC_READY || (state == GL_SYNC_DISABLED && !enable))
	{
		lock_for_load(rel, ShareUpdateExclusiveLock, patient);
		state = gl_sync_triggers_state(rel);
		if (state == GL_SYNC_READY)
			return gl_sync_row_function();
		if (state == GL_SYNC_DISABLED && !enable)
			return InvalidOid;
	}
	lock_for_load(rel, ShareRowExclusiveLock, patient);
	gl_cache_undo_on_abort_triggers_changed(relid);
	return gl_sync_triggers_ensure(rel, enable);
}

/*
 * Quotas of the table's owner, for a load of one of its columns.  They
 * hold every load of a table whose owner is not a superuser -- the
 * reloader's rebuilds too, or a role could outgrow its quota by changes,
 * have the column dropped for it (store.c) and get it back whole from the
 * reloader -- except one that a superuser asks for (gpulike.cache() or
 * reload()).  Returns the host bytes the new copy may take (0: no limit).
 */
static uint64
owner_quota(Relation rel, int slot, GlLoadMode mode)
{
	Oid			owner = rel->rd_rel->relowner;
	int			columns;
	uint64		bytes;
	uint64		limit;
	GlCacheEntry entry;

	if (superuser_arg(owner) || (mode != GL_LOAD_BACKGROUND && superuser()))
		return 0;
	gl_registry_owner_usage(owner, &columns, &bytes);
	/* a column cached again counts once, and its old copy not at all */
	if (slot >= 0 && gl_registry_snapshot(slot, &entry) && entry.owner == owner)
	{
		columns--;
		bytes -= Min(bytes, entry.held.host_bytes);
	}
	if (gl_max_columns_per_owner >= 0 && columns >= gl_max_columns_per_owner)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg_plural("tables of role \"%s\" already have %d cached column",
							   "tables of role \"%s\" already have %d cached columns",
							   columns, GetUserNameFromId(owner, false), columns),
				 errdetail("gpulike.max_columns_per_owner is %d.",
						   gl_max_columns_per_owner),
				 errhint("Uncache a column of a table the role owns, or ask a superuser to raise the limit.")));
	if (gl_host_memory_per_owner_mb < 0)
		return 0;
	limit = (uint64) gl_host_memory_per_owner_mb * 1024 * 1024;
	if (bytes >= limit)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("cached columns of tables of role \"%s\" already take %llu MB",
						GetUserNameFromId(owner, false),
						(unsigned long long) (bytes / (1024 * 1024))),
				 errdetail("gpulike.host_memory_per_owner is %d MB.",
						   gl_host_memory_per_owner_mb),
				 errhint("Uncache a column of a table the role owns, or ask a superuser to raise the limit.")));
	return limit - bytes;
}

static Oid
relation_owner(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

void
gl_cache_require_room_for(Oid relid, const char *attname, List *leaves)
{
	List	   *owners = NIL;
	ListCell   *lc;

	if (gl_max_columns_per_owner < 0 || superuser())
		return;
	foreach(lc, leaves)
	{
		Oid			owner = relation_owner(lfirst_oid(lc));

		if (!superuser_arg(owner))
			owners = list_append_unique_oid(owners, owner);
	}
	foreach(lc, owners)
	{
		Oid			owner = lfirst_oid(lc);
		int			columns;
		uint64		bytes;
		int			needed = 0;
		ListCell   *leaf;

		foreach(leaf, leaves)
		{
			Oid			leaf_relid = lfirst_oid(leaf);

			if (relation_owner(leaf_relid) == owner &&
				gl_registry_lookup(leaf_relid, get_attnum(leaf_relid, attname)) < 0)
				needed++;
		}
		gl_registry_owner_usage(owner, &columns, &bytes);
		if (columns + needed > gl_max_columns_per_owner)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg_plural("caching column \"%s\" of \"%s\" needs %d more cached column of tables of role \"%s\"",
								   "caching column \"%s\" of \"%s\" needs %d more cached columns of tables of role \"%s\"",
								   needed, attname, get_rel_name(relid), needed,
								   GetUserNameFromId(owner, false)),
					 errdetail("One per partition.  Its tables have %d cached columns; gpulike.max_columns_per_owner is %d.",
							   columns, gl_max_columns_per_owner),
					 errhint("Uncache a column of a table the role owns, or ask a superuser to raise the limit.")));
	}
}

GlLoadOutcome
gl_cache_column(Oid relid, const char *attname, GlLoadMode mode)
{
	Relation	rel;
	AttrNumber	attnum;
	Oid			sync_function;
	GlLoadResult loaded;
	uint64		generation;
	uint64		byte_limit = 0;
	int			slot;
	bool		was_evicted = false;
	bool		registered = true;

	/*
	 * The reloader may find a table dropped since it read the registrations
	 * (or being dropped: the lock waits for that): nothing to rebuild, and
	 * nothing to complain about.  The next reconcile forgets the slot.
	 */
	if (mode == GL_LOAD_BACKGROUND)
	{
		rel = try_table_open(relid, AccessShareLock);
		if (rel == NULL)
			return GL_SKIPPED_NOT_NEEDED;
	}
	else
		rel = table_open(relid, AccessShareLock);
	attnum = gl_cacheable_column(rel, attname);
	slot = gl_registry_lookup(relid, attnum);
	/* refuse before any DDL */
	if (mode == GL_LOAD_EXPLICIT)
		registered = gl_cached_columns_exists(relid, attname);
	byte_limit = owner_quota(rel, slot, mode);

	sync_function = prepare_triggers(rel, mode != GL_LOAD_BACKGROUND,
									 mode == GL_LOAD_EXPLICIT);
	if (!OidIsValid(sync_function))
	{
		/* the user disabled our trigger: wait for them to enable it */
		if (slot >= 0)
			gl_registry_defer_retry(slot, true);
		table_close(rel, NoLock);
		return GL_SKIPPED_TRIGGER_DISABLED;
	}

	/* the reloader re-checks under the lock: a user may have just reloaded */
	if (mode == GL_LOAD_BACKGROUND)
	{
		GlCacheEntry entry;

		slot = gl_registry_lookup(relid, attnum);
		if (slot < 0 || !gl_registry_wants_reload(slot, GetCurrentTimestamp()) ||
			!gl_registry_snapshot(slot, &entry))
		{
			table_close(rel, NoLock);
			return GL_SKIPPED_NOT_NEEDED;
		}
		was_evicted = entry.state == GL_CACHE_EVICTED;
	}
	/* the slot first: then the registration trigger has nothing to do */
	slot = gl_registry_find_or_add(relid, attnum);
	gl_cache_forget_cancel(relid, attnum);
	if (slot < 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("gpulike can cache at most %d columns", GL_REGISTRY_SLOTS),
				 errhint("Uncache a column with gpulike.uncache().")));
	if (mode == GL_LOAD_EXPLICIT && registered)
		ereport(NOTICE,
				(errmsg("column \"%s\" of relation \"%s\" is already cached, loading it again",
						attname, RelationGetRelationName(rel))));
	else if (mode == GL_LOAD_EXPLICIT)
		gl_cached_columns_add(relid, attname);

	generation = gl_registry_new_generation();
	gl_cache_undo_on_abort_load(slot, generation, !registered);
	loaded = gl_cache_load(rel, attnum, slot, generation, sync_function,
						   byte_limit);
	if (!loaded.installed)
	{
		ereport(mode == GL_LOAD_BACKGROUND ? LOG : WARNING,
				(errmsg("gpulike: column \"%s\" of relation \"%s\" was not loaded: %s",
						attname, RelationGetRelationName(rel), loaded.why_not),
				 errdetail("The cache is rebuilt in the background.")));
		table_close(rel, NoLock);
		return GL_SKIPPED_WENT_STALE;
	}
	gl_stats_count_load(slot, loaded.seconds);
	/* plans made while the cache was not there may use it now (at commit) */
	CacheInvalidateRelcache(rel);
	if (was_evicted)
		gl_registry_defer_retry(slot, false);
	ereport(DEBUG1,
			(errmsg("gpulike: loaded \"%s\".\"%s\": " UINT64_FORMAT " rows, %.1f MB in %.3f s, %.3f s CPU in this backend",
					RelationGetRelationName(rel), attname, loaded.rows,
					loaded.bytes / 1048576.0, loaded.seconds,
					loaded.cpu_seconds)));
	table_close(rel, NoLock);
	return GL_LOADED;
}

/* Forget the slot of (relid, attnum) once this transaction commits. */
static void
forget_slot(Oid relid, AttrNumber attnum)
{
	if (gl_registry_lookup(relid, attnum) >= 0)
		gl_cache_forget_at_commit(relid, attnum);
}

/* Forget every slot of relid in this database (InvalidOid: of any relation). */
static void
forget_slots_of(Oid relid)
{
	for (int i = 0; i < gl_registry_size(); i++)
	{
		GlCacheEntry entry;

		if (gl_registry_snapshot(i, &entry) && entry.dbid == MyDatabaseId &&
			(relid == InvalidOid || entry.relid == relid))
			forget_slot(entry.relid, entry.attnum);
	}
}

bool
gl_uncache_column(Oid relid, const char *attname)
{
	Relation	rel = table_open(relid, ShareRowExclusiveLock);
	AttrNumber	attnum = get_attnum(relid, attname);
	bool		registered = gl_cached_columns_exists(relid, attname);

	if (!registered)
	{
		table_close(rel, NoLock);
		return false;
	}
	gl_cached_columns_delete(relid, attname);
	if (attnum != InvalidAttrNumber)
		forget_slot(relid, attnum);
	if (!gl_cached_columns_exists(relid, NULL))
		gl_sync_triggers_drop(rel);
	table_close(rel, NoLock);
	return true;
}

void
gl_cache_forget_dropped(Oid relid, AttrNumber attnum)
{
	char	   *attname = NULL;

	if (attnum > 0)
	{
		attname = get_attname(relid, attnum, true);
		forget_slot(relid, attnum);
	}
	else
		forget_slots_of(relid);
	if (attnum == 0 || attname != NULL)
		gl_cached_columns_delete(relid, attname);
}

void
gl_cache_forget_database(void)
{
	forget_slots_of(InvalidOid);
}

/* ------------------------------------------------------------ reconcile */

/* Is the registered column still there, and still of a cacheable type? */
static bool
registration_valid(GlRegistration *registration, AttrNumber *attnum)
{
	char		relkind = get_rel_relkind(registration->relid);

	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE)
		return false;
	*attnum = get_attnum(registration->relid, registration->attname);
	return *attnum > 0 &&
		cacheable_type(get_atttype(registration->relid, *attnum));
}

/*
 * A slot whose registration we did not see may belong to a gpulike.cache()
 * that has not committed yet.  That transaction holds the table's
 * ShareUpdateExclusiveLock until it ends; once we get the lock, a fresh
 * look at the registrations tells the truth.  If we cannot get it now,
 * leave the slot for the next round.
 */
static void
forget_if_unregistered(int slot, GlCacheEntry *entry)
{
	char	   *attname;

	if (!ConditionalLockRelationOid(entry->relid, ShareUpdateExclusiveLock))
		return;
	attname = get_attname(entry->relid, entry->attnum, true);
	if (attname != NULL && gl_cached_columns_exists(entry->relid, attname))
	{
		UnlockRelationOid(entry->relid, ShareUpdateExclusiveLock);
		return;
	}
	/*
	 * A new partition whose DDL committed after the registrations were
	 * read: register it now (keeping the lock, see register_leaves), and
	 * the next round loads it.
	 */
	if (attname != NULL && heap_table(entry->relid) &&
		OidIsValid(gl_cache_registered_ancestor(entry->relid, attname)) &&
		within_owner_quota(entry->relid, attname, false))
		gl_cached_columns_add(entry->relid, attname);
	else
	{
		gl_registry_forget(slot);
		UnlockRelationOid(entry->relid, ShareUpdateExclusiveLock);
	}
}

/*
 * Give each registration of a plain table its slot, after registering the
 * leaves of registered partitioned tables that have none.  The list was
 * read before any lock: its table may be being dropped, altered or
 * (un)cached right now.  So each one is looked at again under the table's
 * ShareUpdateExclusiveLock (which those all conflict with, and writers do
 * not): a dropped table or column is seen as gone, a renamed one under its
 * new name, a registration deleted meanwhile not at all.  A partitioned
 * table has no slot; AccessShareLock keeps its column there meanwhile.
 * Our transaction holds a snapshot, so we do not queue for that lock
 * (REBUILD_LOCK_WAIT_MS says why): a table locked by another command is
 * looked at the next time, its slot kept as it is.
 */
List *
gl_cache_reconcile(void)
{
	List	   *valid = NIL;
	List	   *registrations = gl_cached_columns_list();
	List	   *added = NIL;
	ListCell   *lc;
	bool	   *registered = palloc0(sizeof(bool) * gl_registry_size());

	foreach(lc, registrations)
	{
		GlRegistration *registration = (GlRegistration *) lfirst(lc);

		if (get_rel_relkind(registration->relid) == RELKIND_PARTITIONED_TABLE)
			added = list_concat(added, register_leaves(registration, registrations));
	}
	registrations = list_concat(registrations, added);

	foreach(lc, registrations)
	{
		GlRegistration *registration = (GlRegistration *) lfirst(lc);
		bool		partitioned = get_rel_relkind(registration->relid) == RELKIND_PARTITIONED_TABLE;
		LOCKMODE	lockmode = partitioned ? AccessShareLock : ShareUpdateExclusiveLock;
		AttrNumber	attnum;
		int			slot;

		if (!ConditionalLockRelationOid(registration->relid, lockmode))
		{
			AttrNumber	column = get_attnum(registration->relid,
											registration->attname);

			slot = partitioned ? -1 : gl_registry_lookup(registration->relid, column);
			if (slot >= 0)
				registered[slot] = true;
			if (!partitioned)
				valid = lappend(valid, registration);
			continue;
		}
		if (!registration_valid(registration, &attnum))
		{
			ereport(LOG,
					(errmsg("gpulike: dropping the cache registration of column \"%s\" of relation %u: the column is gone or no longer text",
							registration->attname, registration->relid)));
			gl_cached_columns_delete(registration->relid, registration->attname);
			UnlockRelationOid(registration->relid, lockmode);
			continue;
		}
		if (partitioned ||
			!gl_cached_columns_exists(registration->relid, registration->attname))
		{
			UnlockRelationOid(registration->relid, lockmode);
			continue;
		}
		slot = gl_registry_find_or_add(registration->relid, attnum);
		UnlockRelationOid(registration->relid, lockmode);
		if (slot < 0)
		{
			ereport(WARNING,
					(errmsg("gpulike: no registry slot left for column \"%s\" of relation \"%s\"",
							registration->attname,
							get_rel_name(registration->relid))));
			continue;
		}
		registered[slot] = true;
		valid = lappend(valid, registration);
	}

	for (int i = 0; i < gl_registry_size(); i++)
	{
		GlCacheEntry entry;

		if (!registered[i] && gl_registry_snapshot(i, &entry) &&
			entry.dbid == MyDatabaseId && entry.load_generation == 0)
			forget_if_unregistered(i, &entry);
	}
	pfree(registered);
	return valid;
}
