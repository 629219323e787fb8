/*-------------------------------------------------------------------------
 *
 * cache_ops.c
 *	  Caching, uncaching and rebuilding one column of one table.
 *
 * Caching a column, in order:
 *	1. lock the table ShareRowExclusiveLock (no writers, no other load),
 *	2. make sure the sync triggers exist and fire ALWAYS,
 *	3. take a registry slot, and for gpulike.cache() register the column
 *	   (gpulike.cached_columns),
 *	4. load the slot (loader.c) under a new generation.
 * Every row committed before step 1 is in the heap and thus in the load;
 * every row written after the lock is released fires the trigger, which
 * logs it under the new generation.
 *
 * The registry is shared memory, not transactional: see cache_undo.c for
 * how a rolled-back cache(), uncache() or DROP is undone there.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "cache/cache_ops.h"
#include "cache/cache_undo.h"
#include "cache/loader.h"
#include "cache/registration.h"
#include "cache/registry_internal.h"
#include "cache/stats.h"
#include "cache/sync_triggers.h"

/* ------------------------------------------------------------ checking */

static bool
cacheable_type(Oid typid)
{
	return typid == TEXTOID || typid == VARCHAROID || typid == BPCHAROID;
}

AttrNumber
gl_cacheable_column(Relation rel, const char *attname)
{
	AttrNumber	attnum;
	Oid			typid;

	if (rel->rd_rel->relkind != RELKIND_RELATION ||
		rel->rd_rel->relam != HEAP_TABLE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("cannot cache \"%s\"", RelationGetRelationName(rel)),
				 errdetail("gpulike caches columns of plain heap tables and of partitioned tables.")));
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

List *
gl_cache_leaf_tables(Oid relid, const char *attname)
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
	foreach(lc, find_all_inheritors(relid, ShareRowExclusiveLock, NULL))
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

/* ------------------------------------------------------------- caching */

static int
find_slot(Oid relid, AttrNumber attnum)
{
	int			slot;

	LWLockAcquire(gl_registry_lock(), LW_SHARED);
	slot = gl_registry_find(relid, attnum);
	LWLockRelease(gl_registry_lock());
	return slot;
}

GlLoadOutcome
gl_cache_column(Oid relid, const char *attname, GlLoadMode mode)
{
	Relation	rel;
	AttrNumber	attnum;
	Oid			sync_function;
	GlLoadResult loaded;
	int			slot;
	bool		was_evicted = false;

	/*
	 * The reloader may find a table dropped since it read the registrations
	 * (or being dropped: the lock waits for that): nothing to rebuild, and
	 * nothing to complain about.  The next reconcile forgets the slot.
	 */
	if (mode == GL_LOAD_BACKGROUND)
	{
		rel = try_table_open(relid, ShareRowExclusiveLock);
		if (rel == NULL)
			return GL_SKIPPED_NOT_NEEDED;
	}
	else
		rel = table_open(relid, ShareRowExclusiveLock);
	attnum = gl_cacheable_column(rel, attname);

	/* the reloader re-checks under the lock: a user may have just reloaded */
	if (mode == GL_LOAD_BACKGROUND)
	{
		GlCacheEntry entry;

		slot = find_slot(relid, attnum);
		if (slot < 0 || !gl_registry_wants_reload(slot, GetCurrentTimestamp()) ||
			!gl_registry_snapshot(slot, &entry))
		{
			table_close(rel, NoLock);
			return GL_SKIPPED_NOT_NEEDED;
		}
		was_evicted = entry.state == GL_CACHE_EVICTED;
	}

	sync_function = gl_sync_triggers_ensure(rel, mode != GL_LOAD_BACKGROUND);
	if (!OidIsValid(sync_function))
	{
		/* the user disabled our trigger: wait for them to enable it */
		slot = find_slot(relid, attnum);
		if (slot >= 0)
			gl_registry_defer_retry(slot, true);
		table_close(rel, NoLock);
		return GL_SKIPPED_TRIGGER_DISABLED;
	}
	/* the slot first: then the registration trigger has nothing to do */
	slot = gl_registry_find_or_add(relid, attnum);
	if (slot < 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("gpulike can cache at most %d columns", GL_REGISTRY_SLOTS),
				 errhint("Uncache a column with gpulike.uncache().")));
	gl_cache_undo_on_abort_loaded(slot);
	if (mode == GL_LOAD_EXPLICIT && gl_registration_exists(relid, attname))
		ereport(NOTICE,
				(errmsg("column \"%s\" of relation \"%s\" is already cached, loading it again",
						attname, RelationGetRelationName(rel))));
	else if (mode == GL_LOAD_EXPLICIT)
		gl_registration_add(relid, attname);

	loaded = gl_cache_load(rel, attnum, slot, sync_function);
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

/* Forget the slot of (relid, attnum), remembering to restore it on abort. */
static void
forget_slot(Oid relid, AttrNumber attnum)
{
	int			slot = find_slot(relid, attnum);

	if (slot < 0)
		return;
	gl_cache_undo_on_abort_forgotten(relid, attnum);
	gl_registry_forget(slot);
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
	bool		registered = gl_registration_exists(relid, attname);

	if (!registered)
	{
		table_close(rel, NoLock);
		return false;
	}
	gl_registration_delete(relid, attname);
	if (attnum != InvalidAttrNumber)
		forget_slot(relid, attnum);
	if (!gl_registration_exists(relid, NULL))
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
		gl_registration_delete(relid, attname);
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

	if (relkind != RELKIND_RELATION)
		return false;
	*attnum = get_attnum(registration->relid, registration->attname);
	return *attnum > 0 &&
		cacheable_type(get_atttype(registration->relid, *attnum));
}

/*
 * A slot whose registration we did not see may belong to a gpulike.cache()
 * that has not committed yet.  That transaction holds the table's
 * ShareRowExclusiveLock until it ends; once we get the lock, a fresh look
 * at the registrations tells the truth.  If we cannot get it now, leave the
 * slot for the next round.
 */
static void
forget_if_unregistered(int slot, GlCacheEntry *entry)
{
	char	   *attname;

	if (!ConditionalLockRelationOid(entry->relid, ShareRowExclusiveLock))
		return;
	attname = get_attname(entry->relid, entry->attnum, true);
	if (attname == NULL || !gl_registration_exists(entry->relid, attname))
		gl_registry_forget(slot);
	UnlockRelationOid(entry->relid, ShareRowExclusiveLock);
}

/*
 * Give each registration its slot.  The list was read before any lock:
 * its table may be being dropped, altered or (un)cached right now.  So
 * each one is looked at again under the table's ShareRowExclusiveLock
 * (which those all conflict with, and which a rebuild takes anyway): a
 * dropped table or column is seen as gone, a renamed one under its new
 * name, a registration deleted meanwhile not at all.
 */
List *
gl_cache_reconcile(void)
{
	List	   *valid = NIL;
	ListCell   *lc;
	bool	   *registered = palloc0(sizeof(bool) * gl_registry_size());

	foreach(lc, gl_registration_list())
	{
		GlRegistration *registration = (GlRegistration *) lfirst(lc);
		AttrNumber	attnum;
		int			slot;

		LockRelationOid(registration->relid, ShareRowExclusiveLock);
		if (!registration_valid(registration, &attnum))
		{
			ereport(LOG,
					(errmsg("gpulike: dropping the cache registration of column \"%s\" of relation %u: the column is gone or no longer text",
							registration->attname, registration->relid)));
			gl_registration_delete(registration->relid, registration->attname);
			UnlockRelationOid(registration->relid, ShareRowExclusiveLock);
			continue;
		}
		if (!gl_registration_exists(registration->relid, registration->attname))
		{
			UnlockRelationOid(registration->relid, ShareRowExclusiveLock);
			continue;
		}
		slot = gl_registry_find_or_add(registration->relid, attnum);
		UnlockRelationOid(registration->relid, ShareRowExclusiveLock);
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
			entry.dbid == MyDatabaseId && entry.state != GL_CACHE_LOADING)
			forget_if_unregistered(i, &entry);
	}
	pfree(registered);
	return valid;
}
