/*-------------------------------------------------------------------------
 *
 * trigger.c
 *	  The sync triggers gpulike puts on every cached table.
 *
 * gpulike.sync_row() runs AFTER INSERT OR UPDATE FOR EACH ROW, enabled
 * ALWAYS.  Each INSERT and each UPDATE (of any column: an updated row is a
 * new tuple version at a new TID, HOT or not) appends, for every ready
 * cache of the relation, (slot, generation, TID of the new version, value)
 * to the shared delta log.  That happens before the writing transaction
 * commits, and the server drains the log before it answers a request, so
 * any row version a query's snapshot can see is in the cache by the time
 * the query is matched.  Deletes need nothing: the old version stays in
 * the cache as a harmless extra candidate, which the executor's fetch
 * under the query snapshot discards.
 *
 * When the log has no room the trigger never waits: it marks the
 * relation's caches stale (they are then rebuilt from the heap).  A
 * relation whose relfilenode differs from the one a cache was loaded from
 * has been rewritten in this transaction (ALTER TABLE ... TYPE, say): its
 * TIDs are new, so that cache is marked stale too.
 *
 * gpulike.sync_truncate() runs AFTER TRUNCATE FOR EACH STATEMENT and marks
 * the relation's caches stale.
 *
 * Which caches belong to the relation is looked up once per statement and
 * kept in fn_extra (the trigger's FmgrInfo lives as long as the statement),
 * revalidated per row by the registry's change counter: one atomic read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "commands/trigger.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/rel.h"

#include "cache/registry_internal.h"
#include "sync/delta_log_internal.h"

PG_FUNCTION_INFO_V1(gl_sync_row);
PG_FUNCTION_INFO_V1(gl_sync_truncate);

/* One ready cache of the relation the trigger fires on. */
typedef struct SyncTarget
{
	int			slot;
	uint64		generation;
	AttrNumber	attnum;
	Oid			relfilenode;
} SyncTarget;

typedef struct SyncTargets
{
	Oid			relid;
	uint64		change_count;	/* registry change count when read */
	int			ntargets;
	SyncTarget	targets[GL_REGISTRY_SLOTS];
	GlDeltaItem items[GL_REGISTRY_SLOTS];
} SyncTargets;

static void
read_targets(SyncTargets *targets, Oid relid)
{
	GlCacheEntry *entries = gl_registry_entries();

	targets->relid = relid;
	targets->ntargets = 0;
	LWLockAcquire(gl_registry_lock(), LW_SHARED);
	targets->change_count = gl_registry_change_count();
	for (int i = 0; i < gl_registry_size(); i++)
	{
		GlCacheEntry *entry = &entries[i];
		SyncTarget *target;

		if (entry->state != GL_CACHE_READY || entry->dbid != MyDatabaseId ||
			entry->relid != relid)
			continue;
		target = &targets->targets[targets->ntargets++];
		target->slot = i;
		target->generation = entry->generation;
		target->attnum = entry->attnum;
		target->relfilenode = entry->relfilenode;
	}
	LWLockRelease(gl_registry_lock());
}

static SyncTargets *
current_targets(FmgrInfo *flinfo, Oid relid)
{
	SyncTargets *targets = (SyncTargets *) flinfo->fn_extra;

	if (targets == NULL)
	{
		targets = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof(SyncTargets));
		flinfo->fn_extra = targets;
		read_targets(targets, relid);
	}
	else if (targets->relid != relid ||
			 targets->change_count != gl_registry_change_count())
		read_targets(targets, relid);
	return targets;
}

static TriggerData *
check_trigger_call(FunctionCallInfo fcinfo, const char *name)
{
	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("function \"%s\" was not called by trigger manager",
						name)));
	return (TriggerData *) fcinfo->context;
}

Datum
gl_sync_row(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = check_trigger_call(fcinfo, "gpulike.sync_row");
	Relation	rel = trigdata->tg_relation;
	TupleTableSlot *slot;
	SyncTargets *targets;
	GlTid		tid;

	if (!TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) ||
		!(TRIGGER_FIRED_BY_INSERT(trigdata->tg_event) ||
		  TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event)))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("gpulike.sync_row must be fired AFTER INSERT OR UPDATE FOR EACH ROW")));

	if (gl_registry_entries() == NULL)
		return PointerGetDatum(NULL);	/* not preloaded: nothing is cached */

	targets = current_targets(fcinfo->flinfo, RelationGetRelid(rel));
	if (targets->ntargets == 0)
		return PointerGetDatum(NULL);

	slot = TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event) ?
		trigdata->tg_newslot : trigdata->tg_trigslot;
	tid = gl_tid_make(ItemPointerGetBlockNumber(&slot->tts_tid),
					  ItemPointerGetOffsetNumber(&slot->tts_tid));

	for (int i = 0; i < targets->ntargets; i++)
	{
		SyncTarget *target = &targets->targets[i];
		GlDeltaItem *item = &targets->items[i];
		Datum		datum;

		if (target->relfilenode != rel->rd_node.relNode)
		{
			gl_registry_mark_stale(MyDatabaseId, RelationGetRelid(rel));
			return PointerGetDatum(NULL);
		}
		item->slot = target->slot;
		item->generation = target->generation;
		item->tid = tid;
		datum = slot_getattr(slot, target->attnum, &item->isnull);
		if (item->isnull)
		{
			item->value = NULL;
			item->len = 0;
		}
		else
		{
			struct varlena *value = pg_detoast_datum_packed((struct varlena *)
															DatumGetPointer(datum));

			item->value = VARDATA_ANY(value);
			item->len = VARSIZE_ANY_EXHDR(value);
		}
	}

	if (!gl_delta_log_append(targets->items, targets->ntargets))
		gl_registry_mark_stale(MyDatabaseId, RelationGetRelid(rel));
	return PointerGetDatum(NULL);
}

Datum
gl_sync_truncate(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = check_trigger_call(fcinfo, "gpulike.sync_truncate");

	if (!TRIGGER_FIRED_BY_TRUNCATE(trigdata->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("gpulike.sync_truncate must be fired AFTER TRUNCATE")));
	gl_registry_mark_stale(MyDatabaseId, RelationGetRelid(trigdata->tg_relation));
	return PointerGetDatum(NULL);
}
