/*-------------------------------------------------------------------------
 *
 * sync_triggers.c
 *	  The two triggers that keep a table's caches in sync with its heap.
 *
 *	  gpulike_sync           AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW
 *	                         EXECUTE FUNCTION gpulike.sync_row()
 *	  gpulike_sync_truncate  AFTER TRUNCATE FOR EACH STATEMENT
 *	                         EXECUTE FUNCTION gpulike.sync_truncate()
 *
 * Both are created firing ALWAYS, so sessions with
 * session_replication_role = replica (logical replication apply workers)
 * log their changes too.  They are found by their function, not their
 * name, so a renamed trigger still counts and a user trigger that happens
 * to share the name does not.
 *
 * Ownership: a trigger depends (normally) on its function and
 * (automatically) on its table; we add an automatic dependency on the
 * gpulike extension too, so that DROP EXTENSION gpulike removes the
 * triggers without CASCADE, while DROP TABLE still just drops them.  The
 * triggers are ordinary objects, not extension members, so pg_dump dumps
 * them with their table; after a restore the reloader adds the extension
 * dependency back (gl_sync_triggers_ensure is idempotent).  The reloader
 * may also get there first -- a restored registration is loaded as soon
 * as its row is in -- and then the restore's CREATE TRIGGER is a no-op
 * (ddl_watch.c).  A row trigger made before deletes were logged (INSERT
 * OR UPDATE only) is replaced.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_trigger.h"
#include "commands/extension.h"
#include "commands/trigger.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "cache/sync_triggers.h"

#define ROW_TRIGGER_NAME "gpulike_sync"
#define TRUNCATE_TRIGGER_NAME "gpulike_sync_truncate"

/* Set while we create, enable or drop sync triggers ourselves. */
static bool changing_triggers = false;

static Oid
sync_function_oid(const char *name)
{
	List	   *funcname = list_make2(makeString("gpulike"), makeString(pstrdup(name)));

	return LookupFuncName(funcname, 0, NULL, false);
}

bool
gl_is_sync_function(Oid funcoid)
{
	char	   *name = get_func_name(funcoid);
	Oid			schema = get_namespace_oid("gpulike", true);

	/* the extension is not relocatable: its schema is always gpulike */
	if (name == NULL || !OidIsValid(schema))
		return false;
	return get_func_namespace(funcoid) == schema &&
		(strcmp(name, "sync_row") == 0 || strcmp(name, "sync_truncate") == 0);
}

typedef struct FoundTrigger
{
	Oid			oid;
	char		enabled;
	int16		type;			/* TRIGGER_TYPE_* bits */
	char		name[NAMEDATALEN];
} FoundTrigger;

/* The trigger of rel that calls funcoid, if any. */
static bool
find_trigger(Relation rel, Oid funcoid, FoundTrigger *found)
{
	Relation	tgrel = table_open(TriggerRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		result = false;

	ScanKeyInit(&key, Anum_pg_trigger_tgrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(RelationGetRelid(rel)));
	scan = systable_beginscan(tgrel, TriggerRelidNameIndexId, true,
							  NULL, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_trigger trigger = (Form_pg_trigger) GETSTRUCT(tuple);

		if (trigger->tgfoid == funcoid)
		{
			found->oid = trigger->oid;
			found->enabled = trigger->tgenabled;
			found->type = trigger->tgtype;
			strlcpy(found->name, NameStr(trigger->tgname), NAMEDATALEN);
			result = true;
			break;
		}
	}
	systable_endscan(scan);
	table_close(tgrel, AccessShareLock);
	return result;
}

/* Does the trigger depend on the gpulike extension (DROP EXTENSION drops it)? */
static bool
has_extension_dependency(Oid trigger_oid, Oid extension)
{
	Relation	deprel = table_open(DependRelationId, AccessShareLock);
	ScanKeyData keys[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		present = false;

	ScanKeyInit(&keys[0], Anum_pg_depend_classid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(TriggerRelationId));
	ScanKeyInit(&keys[1], Anum_pg_depend_objid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(trigger_oid));
	scan = systable_beginscan(deprel, DependDependerIndexId, true,
							  NULL, 2, keys);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);

		if (dep->refclassid == ExtensionRelationId && dep->refobjid == extension)
			present = true;
	}
	systable_endscan(scan);
	table_close(deprel, AccessShareLock);
	return present;
}

/* Record "trigger depends automatically on extension", once. */
static void
ensure_extension_dependency(Oid trigger_oid)
{
	Oid			extension = get_extension_oid("gpulike", false);

	if (!has_extension_dependency(trigger_oid, extension))
	{
		ObjectAddress trigger_address;
		ObjectAddress extension_address;

		ObjectAddressSet(trigger_address, TriggerRelationId, trigger_oid);
		ObjectAddressSet(extension_address, ExtensionRelationId, extension);
		recordDependencyOn(&trigger_address, &extension_address, DEPENDENCY_AUTO);
	}
}

static Oid
create_trigger(Relation rel, const char *name, Oid funcoid, bool row,
			   int16 events)
{
	CreateTrigStmt *stmt = makeNode(CreateTrigStmt);
	ObjectAddress address;

	stmt->trigname = pstrdup(name);
	stmt->relation = makeRangeVar(get_namespace_name(RelationGetNamespace(rel)),
								  pstrdup(RelationGetRelationName(rel)), -1);
	stmt->funcname = list_make2(makeString("gpulike"),
								makeString(row ? "sync_row" : "sync_truncate"));
	stmt->row = row;
	stmt->timing = TRIGGER_TYPE_AFTER;
	stmt->events = events;
	address = CreateTriggerFiringOn(stmt, "gpulike.cache()",
									RelationGetRelid(rel), InvalidOid,
									InvalidOid, InvalidOid, funcoid,
									InvalidOid, NULL, false, false,
									TRIGGER_FIRES_ALWAYS);
	return address.objectId;
}

/*
 * One trigger: returns false if it is disabled and may not be enabled.  A
 * trigger a user enabled again without ALWAYS (firing in origin or replica
 * mode only) is made to fire ALWAYS: the user wants it on, and the cache
 * needs it in every mode.
 */
static bool
ensure_trigger(Relation rel, const char *name, Oid funcoid, bool row,
			   int16 events, bool enable)
{
	FoundTrigger found;
	bool		exists = find_trigger(rel, funcoid, &found);
	Oid			trigger_oid;

	if (exists && found.enabled == TRIGGER_DISABLED && !enable)
		return false;
	if (exists && (found.type & events) != events)
	{
		/* made by an older gpulike for fewer events: replace it */
		ObjectAddress address;

		ObjectAddressSet(address, TriggerRelationId, found.oid);
		performDeletion(&address, DROP_RESTRICT, PERFORM_DELETION_INTERNAL);
		CommandCounterIncrement();
		exists = false;
	}
	if (!exists)
		trigger_oid = create_trigger(rel, name, funcoid, row, events);
	else
	{
		if (found.enabled != TRIGGER_FIRES_ALWAYS)
			EnableDisableTrigger(rel, found.name, TRIGGER_FIRES_ALWAYS,
								 false, ShareRowExclusiveLock);
		trigger_oid = found.oid;
	}
	ensure_extension_dependency(trigger_oid);
	return true;
}

/* What ensure_trigger would find to do for one trigger. */
static GlSyncTriggerState
trigger_state(Relation rel, Oid funcoid, int16 events)
{
	FoundTrigger found;

	if (!find_trigger(rel, funcoid, &found) || (found.type & events) != events)
		return GL_SYNC_NEEDS_DDL;
	if (found.enabled == TRIGGER_DISABLED)
		return GL_SYNC_DISABLED;
	if (found.enabled != TRIGGER_FIRES_ALWAYS ||
		!has_extension_dependency(found.oid, get_extension_oid("gpulike", false)))
		return GL_SYNC_NEEDS_DDL;
	return GL_SYNC_READY;
}

GlSyncTriggerState
gl_sync_triggers_state(Relation rel)
{
	GlSyncTriggerState row = trigger_state(rel, gl_sync_row_function(),
										   TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE |
										   TRIGGER_TYPE_DELETE);
	GlSyncTriggerState truncate = trigger_state(rel, sync_function_oid("sync_truncate"),
												TRIGGER_TYPE_TRUNCATE);

	if (row == GL_SYNC_DISABLED || truncate == GL_SYNC_DISABLED)
		return GL_SYNC_DISABLED;
	return row == GL_SYNC_READY && truncate == GL_SYNC_READY ?
		GL_SYNC_READY : GL_SYNC_NEEDS_DDL;
}

bool
gl_sync_triggers_changing(void)
{
	return changing_triggers;
}

Oid
gl_sync_row_function(void)
{
	return sync_function_oid("sync_row");
}

Oid
gl_sync_triggers_ensure(Relation rel, bool enable)
{
	Oid			row_function = gl_sync_row_function();
	Oid			truncate_function = sync_function_oid("sync_truncate");
	bool		ok;

	/* our own DDL must not mark the caches we are about to build stale */
	changing_triggers = true;
	PG_TRY();
	{
		ok = ensure_trigger(rel, ROW_TRIGGER_NAME, row_function, true,
							TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE |
							TRIGGER_TYPE_DELETE, enable) &&
			ensure_trigger(rel, TRUNCATE_TRIGGER_NAME, truncate_function, false,
						   TRIGGER_TYPE_TRUNCATE, enable);
	}
	PG_FINALLY();
	{
		changing_triggers = false;
	}
	PG_END_TRY();
	CommandCounterIncrement();
	return ok ? row_function : InvalidOid;
}

bool
gl_sync_trigger_exists(const RangeVar *relation, List *funcname)
{
	Oid			funcoid = LookupFuncName(funcname, 0, NULL, true);
	Oid			relid;
	Relation	rel;
	FoundTrigger found;
	bool		exists;

	if (!OidIsValid(funcoid) || !gl_is_sync_function(funcoid))
		return false;

	/*
	 * CREATE TRIGGER's own lock, taken first: a trigger another transaction
	 * is creating (the reloader's) is committed, or not begun, once we have
	 * it, and the catalog then tells which.
	 */
	relid = RangeVarGetRelidExtended(relation, ShareRowExclusiveLock,
									 RVR_MISSING_OK, NULL, NULL);
	if (!OidIsValid(relid))
		return false;
	rel = table_open(relid, NoLock);
	exists = find_trigger(rel, funcoid, &found);
	table_close(rel, NoLock);
	return exists;
}

void
gl_sync_triggers_drop(Relation rel)
{
	const char *functions[] = {"sync_row", "sync_truncate"};

	changing_triggers = true;
	PG_TRY();
	{
		for (int i = 0; i < lengthof(functions); i++)
		{
			FoundTrigger found;
			ObjectAddress address;

			if (!find_trigger(rel, sync_function_oid(functions[i]), &found))
				continue;
			ObjectAddressSet(address, TriggerRelationId, found.oid);
			performDeletion(&address, DROP_RESTRICT, PERFORM_DELETION_INTERNAL);
		}
	}
	PG_FINALLY();
	{
		changing_triggers = false;
	}
	PG_END_TRY();
	CommandCounterIncrement();
}
