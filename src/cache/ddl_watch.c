/*-------------------------------------------------------------------------
 *
 * ddl_watch.c
 *	  Notices DDL that makes a cache wrong, through object_access_hook.
 *
 *	  ALTER TABLE ... DISABLE TRIGGER (or ENABLE, ENABLE REPLICA, RENAME)
 *	  of a sync trigger, DROP TRIGGER    -> the table's caches go stale.
 *	  DROP TABLE / DROP COLUMN           -> forget the cache and its
 *	                                        registration.
 *	  DROP EXTENSION gpulike             -> forget this database's caches.
 *	  ALTER TABLE ... RENAME COLUMN      -> the registration (which names
 *	                                        the column) follows.
 *	  CREATE TABLE ... PARTITION OF,     -> under a cached partitioned table,
 *	  ALTER TABLE ... ATTACH PARTITION      the new leaves get stale slots,
 *	                                        for the reloader to register and
 *	                                        load after commit.
 *
 *	  CREATE TRIGGER of a sync trigger   -> a no-op when the table has one
 *	  the table already has                 already: pg_restore's, after the
 *	                                        reloader made the cache of a
 *	                                        restored registration (a
 *	                                        ProcessUtility hook).
 *
 * A cached partitioned table has a registration but no slot; the hook
 * looks it up (by SPI) only for partitioned tables, which are few, so
 * that DDL on other tables costs nothing more.
 *
 * A disabled trigger stops logging rows, so the cache must never be used
 * again without a rebuild, even after the trigger is re-enabled: hence a
 * persistent stale mark, made when the DDL commits (cache_undo.c says why
 * that is soon enough), on top of gl_cache_usable's check of the
 * trigger's current state.  Any change to a sync trigger counts, which is
 * conservative (a rebuild too many, never a missed row).
 *
 * Table rewrites (VACUUM FULL, CLUSTER, ALTER TABLE ... TYPE, TRUNCATE)
 * fire no object-access event; they are caught by their new relfilenode
 * (gl_cache_usable, the caches view, the sync trigger) and by the TRUNCATE
 * trigger.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_trigger.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "tcop/utility.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"

#include "cache/cache_ops.h"
#include "cache/cache_undo.h"
#include "cache/ddl_watch.h"
#include "cache/cached_columns.h"
#include "cache/sync_triggers.h"
#include "registry/registry.h"

static object_access_hook_type prev_object_access_hook = NULL;
static ProcessUtility_hook_type prev_process_utility_hook = NULL;

/*
 * The trigger's table and function.  The hook runs before a DROP removes
 * the row and right after an ALTER updated it, without a command counter
 * increment in between, so look with SnapshotSelf.
 */
static bool
trigger_lookup(Oid trigger_oid, Oid *relid, Oid *funcoid)
{
	Relation	tgrel = table_open(TriggerRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		found = false;

	ScanKeyInit(&key, Anum_pg_trigger_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(trigger_oid));
	scan = systable_beginscan(tgrel, TriggerOidIndexId, true, SnapshotSelf,
							  1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_trigger trigger = (Form_pg_trigger) GETSTRUCT(tuple);

		*relid = trigger->tgrelid;
		*funcoid = trigger->tgfoid;
		found = true;
	}
	systable_endscan(scan);
	table_close(tgrel, AccessShareLock);
	return found;
}

static void
trigger_changed(Oid trigger_oid)
{
	Oid			relid;
	Oid			funcoid;

	if (trigger_lookup(trigger_oid, &relid, &funcoid) &&
		gl_registry_has_relation(relid) && gl_is_sync_function(funcoid))
		gl_cache_stale_at_commit(relid, "sync trigger altered");
}

/*
 * Is relid a partitioned table with a registered column?  Read-only, so
 * safe in the middle of the DDL command.
 */
static bool
registered_partitioned(Oid relid)
{
	return get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE &&
		gl_cached_columns_columns(relid) != NIL;
}

/*
 * The same event is fired after a partition's pg_inherits row is made and
 * after it is deleted (DETACH); the row, not yet visible to the command
 * (no command counter increment in between), says which.
 */
static bool
inherits_row_exists(Oid child, Oid parent)
{
	Relation	inhrel = table_open(InheritsRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		found = false;

	ScanKeyInit(&key, Anum_pg_inherits_inhrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(child));
	scan = systable_beginscan(inhrel, InheritsRelidSeqnoIndexId, true, SnapshotSelf,
							  1, &key);
	while (!found && HeapTupleIsValid(tuple = systable_getnext(scan)))
		found = ((Form_pg_inherits) GETSTRUCT(tuple))->inhparent == parent;
	systable_endscan(scan);
	table_close(inhrel, AccessShareLock);
	return found;
}

static void
ddl_watch(ObjectAccessType access, Oid classId, Oid objectId, int subId,
		  void *arg)
{
	if (prev_object_access_hook)
		prev_object_access_hook(access, classId, objectId, subId, arg);
	if (gl_sync_triggers_changing() || !gl_registry_available() ||
		!OidIsValid(MyDatabaseId))
		return;

	if (access == OAT_DROP)
	{
		if (classId == RelationRelationId)
		{
			if (gl_registry_has_relation(objectId) || registered_partitioned(objectId))
				gl_cache_forget_dropped(objectId, (AttrNumber) subId);
		}
		else if (classId == TriggerRelationId)
			trigger_changed(objectId);
		else if (classId == ExtensionRelationId &&
				 objectId == get_extension_oid("gpulike", true))
			gl_cache_forget_database();
	}
	else if (access == OAT_POST_ALTER && classId == TriggerRelationId)
		trigger_changed(objectId);
	else if (access == OAT_POST_ALTER && classId == RelationRelationId &&
			 subId > 0 && (gl_registry_has_relation(objectId) ||
						   registered_partitioned(objectId)))
		gl_cached_columns_follow_rename(objectId, (AttrNumber) subId);
	else if (access == OAT_POST_ALTER && classId == InheritsRelationId)
	{
		/* objectId is the child; the parent comes as the auxiliary id */
		Oid			parent = ((ObjectAccessPostAlter *) arg)->auxiliary_id;

		if (get_rel_relkind(parent) == RELKIND_PARTITIONED_TABLE &&
			inherits_row_exists(objectId, parent))
			gl_cache_new_partition(objectId, parent);
	}
}

/*
 * pg_restore creates a table's triggers after its data, and so after the
 * rows of gpulike.cached_columns, whose registrations the reloader loads
 * at once -- creating the sync triggers the load needs.  The dump's own
 * CREATE TRIGGER of them would then fail ("already exists"), and stop a
 * restore run with --exit-on-error before its policies and grants.  The
 * trigger is there, calling the same function: nothing to do.
 */
static void
utility_watch(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
			  ProcessUtilityContext context, ParamListInfo params,
			  QueryEnvironment *queryEnv, DestReceiver *dest,
			  QueryCompletion *qc)
{
	Node	   *parsetree = pstmt->utilityStmt;

	if (IsA(parsetree, CreateTrigStmt) && gl_registry_available() &&
		!((CreateTrigStmt *) parsetree)->replace &&
		!((CreateTrigStmt *) parsetree)->isconstraint &&
		gl_sync_trigger_exists(((CreateTrigStmt *) parsetree)->relation,
							   ((CreateTrigStmt *) parsetree)->funcname))
	{
		ereport(NOTICE,
				(errmsg("relation \"%s\" has a trigger calling this gpulike sync function already, skipping",
						((CreateTrigStmt *) parsetree)->relation->relname)));
		if (qc)
			SetQueryCompletion(qc, CMDTAG_CREATE_TRIGGER, 0);
		return;
	}
	if (prev_process_utility_hook)
		prev_process_utility_hook(pstmt, queryString, readOnlyTree, context,
								  params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
}

void
gl_ddl_watch_init(void)
{
	prev_object_access_hook = object_access_hook;
	object_access_hook = ddl_watch;
	prev_process_utility_hook = ProcessUtility_hook;
	ProcessUtility_hook = utility_watch;
}
