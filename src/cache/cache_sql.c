/*-------------------------------------------------------------------------
 *
 * cache_sql.c
 *	  The SQL face of caching:
 *
 *	  gpulike.cache(rel regclass, col name)    register and load a column
 *	  gpulike.uncache(rel regclass, col name)  drop it
 *	  gpulike.reload()                         rebuild this database's caches
 *	  gpulike.cache_slots()                    registry rows behind the
 *	                                           gpulike.caches view
 *	  gpulike.registration_added()             trigger on cached_columns
 *
 * cache() and uncache() require ownership of the table, like ALTER TABLE
 * (they add and drop triggers).  Caching also takes memory and registry
 * slots shared by every database and role, so cache() further requires a
 * superuser or a member of the role gpulike_cache (made by the extension's
 * script), and holds the table owner to the quotas of cache_ops.c
 * (gpulike.max_columns_per_owner, gpulike.host_memory_per_owner).
 * A partitioned table stands for all its leaf partitions, present and
 * future: each is cached, registered and kept in sync on its own, which is
 * also how the planner sees them (see cache_ops.c for the partitions added
 * later).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/syscache.h"

#include "cache/cache_ops.h"
#include "cache/cached_columns.h"
#include "registry/registry.h"
#include "settings.h"
#include "sync/delta_log.h"

/* Columns of gpulike.cache_slots() in version 1.2 (13 in 1.1, 9 in 1.0). */
#define CACHE_SLOTS_COLUMNS 14
#define CACHE_SLOTS_COLUMNS_1_0 9

/* Members may cache (gpulike--1.1--1.2.sql makes it). */
#define CACHE_ROLE "gpulike_cache"

PG_FUNCTION_INFO_V1(gl_cache_sql);
PG_FUNCTION_INFO_V1(gl_uncache_sql);
PG_FUNCTION_INFO_V1(gl_reload_sql);
PG_FUNCTION_INFO_V1(gl_cache_slots_sql);
PG_FUNCTION_INFO_V1(gl_registration_added);

/*
 * Caching needs the preloaded library, and a primary: a standby replays
 * WAL, which fires no sync trigger, so a cache there could not follow the
 * table (its queries keep ordinary plans; after a promotion the reloader
 * builds the registered caches).
 */
static void
require_preloaded(void)
{
	if (!gl_preloaded || !gl_registry_available())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpulike is not loaded through shared_preload_libraries"),
				 errhint("Add gpulike to shared_preload_libraries in postgresql.conf and restart the server.")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot cache columns on a standby server"),
				 errdetail("Caches follow writes through triggers, which do not fire during WAL replay."),
				 errhint("Cache the column on the primary; queries on a standby use ordinary plans.")));
}

/* cache() and uncache() are CALLED ON NULL INPUT: to say so. */
static void
require_arguments(FunctionCallInfo fcinfo, const char *function)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the table and column of %s must not be null", function)));
}

static void
require_owner(Oid relid)
{
	char		relkind = get_rel_relkind(relid);

	if (relkind == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (!pg_class_ownercheck(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, get_relkind_objtype(relkind),
					   get_rel_name(relid));
}

/*
 * Without the role (an installation not updated to 1.2 yet, where no
 * database has made it), only superusers may cache.
 */
static void
require_cache_role(void)
{
	Oid			role = get_role_oid(CACHE_ROLE, true);

	if (superuser() || (OidIsValid(role) && has_privs_of_role(GetUserId(), role)))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to cache columns"),
			 errdetail("Only superusers and members of role \"%s\" may cache columns: caches take memory shared by every database.",
					   CACHE_ROLE)));
}

Datum
gl_cache_sql(PG_FUNCTION_ARGS)
{
	Oid			relid;
	char	   *attname;
	List	   *leaves;
	ListCell   *lc;

	require_arguments(fcinfo, "gpulike.cache()");
	relid = PG_GETARG_OID(0);
	attname = NameStr(*PG_GETARG_NAME(1));
	require_preloaded();
	require_owner(relid);
	require_cache_role();
	/* AccessShareLock: trigger set-up must not wait for us (cache_ops.c) */
	leaves = gl_cache_leaf_tables(relid, attname, AccessShareLock);
	if (get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE)
	{
		gl_cache_require_room_for(relid, attname, leaves);
		gl_cache_register_partitioned(relid, attname);
	}
	foreach(lc, leaves)
	{
		require_owner(lfirst_oid(lc));
		gl_cache_column(lfirst_oid(lc), attname, GL_LOAD_EXPLICIT);
	}
	PG_RETURN_VOID();
}

Datum
gl_uncache_sql(PG_FUNCTION_ARGS)
{
	Oid			relid;
	char	   *attname;
	Oid			ancestor;
	bool		found = false;
	ListCell   *lc;

	require_arguments(fcinfo, "gpulike.uncache()");
	relid = PG_GETARG_OID(0);
	attname = NameStr(*PG_GETARG_NAME(1));
	require_preloaded();
	require_owner(relid);
	ancestor = gl_cache_registered_ancestor(relid, attname);
	if (OidIsValid(ancestor))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("column \"%s\" of relation \"%s\" is cached as part of partitioned table \"%s\"",
						attname, get_rel_name(relid), get_rel_name(ancestor)),
				 errdetail("The partitions of a cached partitioned table stay cached while they are attached to it."),
				 errhint("Uncache \"%s\", or detach the partition first.",
						 get_rel_name(ancestor))));
	/*
	 * The partitioned tables' registrations first, parents before their
	 * partitions (the order of ATTACH's locks): then the reloader cannot
	 * register their leaves again.
	 */
	if (get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE)
	{
		LockRelationOid(relid, ShareRowExclusiveLock);
		foreach(lc, find_all_inheritors(relid, ShareRowExclusiveLock, NULL))
		{
			if (get_rel_relkind(lfirst_oid(lc)) != RELKIND_PARTITIONED_TABLE)
				continue;
			require_owner(lfirst_oid(lc));
			found |= gl_uncache_column(lfirst_oid(lc), attname);
		}
	}
	foreach(lc, gl_cache_leaf_tables(relid, attname, ShareRowExclusiveLock))
	{
		require_owner(lfirst_oid(lc));
		found |= gl_uncache_column(lfirst_oid(lc), attname);
	}
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("column \"%s\" of relation \"%s\" is not cached",
						attname, get_rel_name(relid))));
	PG_RETURN_VOID();
}

/*
 * Rebuild one column in a subtransaction of its own: if it fails (memory,
 * a dropped table), say why and go on with the others.  The column's
 * ready copy, if any, was never touched by the failed load and goes on
 * serving (cache_undo.c).
 */
static bool
reload_one(GlRegistration *registration)
{
	MemoryContext context = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	bool		loaded = false;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(context);
	PG_TRY();
	{
		loaded = gl_cache_column(registration->relid, registration->attname,
								 GL_LOAD_RELOAD) == GL_LOADED;
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(context);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *error;

		MemoryContextSwitchTo(context);
		error = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(context);
		CurrentResourceOwner = owner;
		ereport(WARNING,
				(errcode(error->sqlerrcode),
				 errmsg("gpulike: column \"%s\" of relation \"%s\" was not reloaded: %s",
						registration->attname, get_rel_name(registration->relid),
						error->message),
				 errdetail("Its cache stays as it was.")));
		FreeErrorData(error);
	}
	PG_END_TRY();
	return loaded;
}

/*
 * Rebuild every registered column of this database whose table the caller
 * owns (all of them for a superuser), re-enabling disabled sync triggers.
 * Returns the number of columns loaded.
 */
Datum
gl_reload_sql(PG_FUNCTION_ARGS)
{
	int32		loaded = 0;
	ListCell   *lc;

	require_preloaded();
	foreach(lc, gl_cache_reconcile())
	{
		GlRegistration *registration = (GlRegistration *) lfirst(lc);

		if (pg_class_ownercheck(registration->relid, GetUserId()) &&
			reload_one(registration))
			loaded++;
	}
	PG_RETURN_INT32(loaded);
}

/* How far a load in progress got, 0-99: 100 only once it is ready. */
static int
load_percent(const GlCacheEntry *entry)
{
	uint64		percent = entry->load_rows_total == 0 ? 0 :
		entry->load_rows_done * 100 / entry->load_rows_total;

	return (int) Min(percent, 99);
}

/*
 * A slot's state.  Version 1.0 of cache_slots() says how far a load got in
 * its state ("loading 45%"); later versions give it as progress.
 */
static text *
state_text(const GlCacheEntry *entry, bool with_progress)
{
	switch (entry->state)
	{
		case GL_CACHE_LOADING:
			if (with_progress)
				return cstring_to_text(psprintf("loading %d%%", load_percent(entry)));
			return cstring_to_text("loading");
		case GL_CACHE_READY:
			return cstring_to_text("ready");
		case GL_CACHE_STALE:
			return cstring_to_text("stale");
		case GL_CACHE_EVICTED:
			return cstring_to_text("evicted");
		case GL_CACHE_EMPTY:
			break;
	}
	return cstring_to_text("empty");
}

/*
 * One row per slot of this database.  A READY slot whose table has been
 * rewritten since (VACUUM FULL, CLUSTER) is reported, and marked, stale:
 * nothing else would notice until the next query plans on it.
 */
Datum
gl_cache_slots_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		version_1_0;

	InitMaterializedSRF(fcinfo, 0);
	/* the 1.0 declaration has 9 columns: tuplestore takes what it has */
	version_1_0 = rsinfo->setDesc->natts <= CACHE_SLOTS_COLUMNS_1_0;
	for (int i = 0; i < gl_registry_size(); i++)
	{
		GlCacheEntry entry;
		Datum		values[CACHE_SLOTS_COLUMNS];
		bool		nulls[CACHE_SLOTS_COLUMNS] = {0};

		if (!gl_registry_snapshot(i, &entry) || entry.dbid != MyDatabaseId)
			continue;
		if (entry.state == GL_CACHE_READY)
		{
			HeapTuple	tuple = SearchSysCache1(RELOID,
												ObjectIdGetDatum(entry.relid));

			if (HeapTupleIsValid(tuple))
			{
				if (((Form_pg_class) GETSTRUCT(tuple))->relfilenode != entry.relfilenode)
				{
					gl_registry_mark_slot_stale(i, "table rewritten");
					entry.state = GL_CACHE_STALE;
				}
				ReleaseSysCache(tuple);
			}
		}
		values[0] = ObjectIdGetDatum(entry.relid);
		values[1] = Int16GetDatum(entry.attnum);
		values[2] = PointerGetDatum(state_text(&entry, version_1_0));
		values[3] = Int64GetDatum((int64) entry.held.nrows);
		values[4] = Int64GetDatum((int64) entry.held.host_bytes);
		values[5] = Int64GetDatum((int64) entry.held.device_bytes);
		if (entry.held.device[0] == '\0')
			nulls[6] = true;
		else
			values[6] = CStringGetTextDatum(gl_regression_mode ? "hidden" : entry.held.device);
		values[7] = Int64GetDatum((int64) gl_delta_log_pending_slot(i));
		values[8] = Int64GetDatum((int64) entry.queries_served);
		if (entry.held.nparts > 0)
		{
			Datum		gpus[GL_MAX_GPU_PARTS];
			Datum		bytes[GL_MAX_GPU_PARTS];

			for (int k = 0; k < entry.held.nparts; k++)
			{
				gpus[k] = Int32GetDatum(entry.held.part_device[k]);
				bytes[k] = Int64GetDatum((int64) entry.held.part_bytes[k]);
			}
			values[9] = PointerGetDatum(construct_array(gpus, entry.held.nparts, INT4OID,
														sizeof(int32), true,
														TYPALIGN_INT));
			values[10] = PointerGetDatum(construct_array(bytes, entry.held.nparts, INT8OID,
														 sizeof(int64), FLOAT8PASSBYVAL,
														 TYPALIGN_DOUBLE));
		}
		else
			nulls[9] = nulls[10] = true;
		if (entry.load_generation != 0)
			values[11] = Int32GetDatum(load_percent(&entry));
		else if (entry.state == GL_CACHE_READY)
			values[11] = Int32GetDatum(100);
		else
			nulls[11] = true;
		if (entry.state == GL_CACHE_STALE)
			values[12] = CStringGetTextDatum(entry.stale_reason);
		else
			nulls[12] = true;
		values[13] = Int64GetDatum((int64) entry.held.file_bytes);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * AFTER INSERT trigger on gpulike.cached_columns.  Registrations that
 * arrive other than through gpulike.cache() (pg_restore, a hand-written
 * INSERT) get a stale slot, so the background reloader loads them without
 * waiting for a restart.  gpulike.cache() takes its slot before it
 * registers, so for it this finds the slot and does nothing.
 *
 * Registry slots are shared by every database and role, and only the
 * owner of cached_columns (the extension's) may insert into it, so the
 * trigger works for that table alone: on a table of anyone else's, a row
 * would take a slot for any column of any table, without the checks of
 * gpulike.cache().
 */
Datum
gl_registration_added(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	HeapTuple	tuple;
	TupleDesc	desc;
	bool		isnull;
	Oid			relid;
	char	   *attname;
	AttrNumber	attnum;

	if (!CALLED_AS_TRIGGER(fcinfo) ||
		!TRIGGER_FIRED_BY_INSERT(trigdata->tg_event) ||
		!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("gpulike.registration_added must be fired AFTER INSERT FOR EACH ROW")));
	if (RelationGetRelid(trigdata->tg_relation) != gl_cached_columns_table())
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("gpulike.registration_added must be fired on gpulike.cached_columns only")));
	if (!gl_registry_available())
		return PointerGetDatum(NULL);

	tuple = trigdata->tg_trigtuple;
	desc = RelationGetDescr(trigdata->tg_relation);
	relid = DatumGetObjectId(heap_getattr(tuple, 1, desc, &isnull));
	attname = NameStr(*DatumGetName(heap_getattr(tuple, 2, desc, &isnull)));
	attnum = get_attnum(relid, attname);
	/* a partitioned table has no slot: its leaves have registrations */
	if (attnum > 0 && get_rel_relkind(relid) == RELKIND_RELATION &&
		gl_registry_find_or_add(relid, attnum) >= 0)
		gl_registry_wake_launcher();
	return PointerGetDatum(NULL);
}
