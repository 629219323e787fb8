/*-------------------------------------------------------------------------
 *
 * sync_row.c
 *	  The sync triggers gpulike puts on every cached table.
 *
 * gpulike.sync_row() runs AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW,
 * enabled ALWAYS.  For every ready cache of the relation, and for every
 * copy being loaded (registry.h: load_generation; loader.c says why that
 * makes loads safe while writers write), it appends to the shared delta
 * log:
 *
 *	INSERT	a VERSION entry: (slot, generation, TID of the new tuple, value);
 *	UPDATE	(of any column: an updated row is a new tuple version at a new
 *			TID, HOT or not) an ENDED entry for the old tuple's TID and a
 *			VERSION entry for the new one;
 *	DELETE	an ENDED entry for the deleted tuple's TID.
 *
 * That happens before the writing transaction commits, and the server
 * drains the log before it answers a request, so any row version a query's
 * snapshot can see is in the cache by the time the query is matched.  An
 * ended tuple stays in the cache (older snapshots may still see it); the
 * entry only withdraws the cache's claim that the tuple is still in the
 * heap, which the executor needs before it counts a row without reading
 * its page (column.h, executor.c).  The writer may yet abort: then the
 * claim is withdrawn for nothing, which costs a page read, never a row.
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
 * That read happens after the row's tuple was written to its page, under
 * the buffer lock, so a load that reads the page later (and began, bumping
 * the counter, before that) is seen by this row's check.
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

#include "registry/registry.h"
#include "registry/stats.h"
#include "sync/delta_log.h"

PG_FUNCTION_INFO_V1(gl_sync_row);
PG_FUNCTION_INFO_V1(gl_sync_truncate);

typedef struct SyncTargets
{
	Oid			relid;
	uint64		change_count;	/* registry change count when read */
	int			ntargets;
	int			maxtargets;
	GlSyncTarget *targets;		/* the ready copies and those being loaded */
	GlDeltaRow *rows;			/* an UPDATE logs two per target */
} SyncTargets;

static void
read_targets(SyncTargets *targets, Oid relid)
{
	int			n;

	targets->relid = relid;
	while ((n = gl_registry_sync_targets(relid, targets->targets,
										 targets->maxtargets,
										 &targets->change_count)) > targets->maxtargets)
	{
		while (targets->maxtargets < n)
			targets->maxtargets *= 2;
		targets->targets = repalloc(targets->targets,
									targets->maxtargets * sizeof(GlSyncTarget));
		targets->rows = repalloc(targets->rows,
								 2 * targets->maxtargets * sizeof(GlDeltaRow));
	}
	targets->ntargets = n;
}

/* The lists live as long as the FmgrInfo: the statement. */
static SyncTargets *
current_targets(FmgrInfo *flinfo, Oid relid)
{
	SyncTargets *targets = (SyncTargets *) flinfo->fn_extra;

	if (targets == NULL)
	{
		targets = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof(SyncTargets));
		targets->maxtargets = 4;
		targets->targets = MemoryContextAlloc(flinfo->fn_mcxt,
											  targets->maxtargets * sizeof(GlSyncTarget));
		targets->rows = MemoryContextAlloc(flinfo->fn_mcxt,
										   2 * targets->maxtargets * sizeof(GlDeltaRow));
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

static GlTid
slot_tid(TupleTableSlot *slot)
{
	return gl_tid_make(ItemPointerGetBlockNumber(&slot->tts_tid),
					   ItemPointerGetOffsetNumber(&slot->tts_tid));
}

/* The VERSION entry of a new tuple for one target. */
static void
make_version(GlDeltaRow *row, const GlSyncTarget *target, TupleTableSlot *slot)
{
	Datum		datum;

	row->kind = GL_DELTA_VERSION;
	row->slot = target->slot;
	row->generation = target->generation;
	row->tid = slot_tid(slot);
	datum = slot_getattr(slot, target->attnum, &row->isnull);
	if (row->isnull)
	{
		row->value = NULL;
		row->len = 0;
	}
	else
	{
		struct varlena *value = pg_detoast_datum_packed((struct varlena *)
														DatumGetPointer(datum));

		row->value = VARDATA_ANY(value);
		row->len = VARSIZE_ANY_EXHDR(value);
	}
}

/* The ENDED entry of an updated or deleted tuple for one target. */
static void
make_ended(GlDeltaRow *row, const GlSyncTarget *target, TupleTableSlot *slot)
{
	memset(row, 0, sizeof(GlDeltaRow));
	row->kind = GL_DELTA_ENDED;
	row->slot = target->slot;
	row->generation = target->generation;
	row->tid = slot_tid(slot);
}

Datum
gl_sync_row(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = check_trigger_call(fcinfo, "gpulike.sync_row");
	TriggerEvent event = trigdata->tg_event;
	Relation	rel = trigdata->tg_relation;
	SyncTargets *targets;
	int			nrows = 0;

	if (!TRIGGER_FIRED_AFTER(event) || !TRIGGER_FIRED_FOR_ROW(event) ||
		!(TRIGGER_FIRED_BY_INSERT(event) || TRIGGER_FIRED_BY_UPDATE(event) ||
		  TRIGGER_FIRED_BY_DELETE(event)))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("gpulike.sync_row must be fired AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW")));

	if (!gl_registry_available())
		return PointerGetDatum(NULL);	/* not preloaded: nothing is cached */

	targets = current_targets(fcinfo->flinfo, RelationGetRelid(rel));
	if (targets->ntargets == 0)
		return PointerGetDatum(NULL);

	for (int i = 0; i < targets->ntargets; i++)
	{
		GlSyncTarget *target = &targets->targets[i];

		if (target->relfilenode != rel->rd_node.relNode)
		{
			gl_registry_mark_stale(MyDatabaseId, RelationGetRelid(rel), "table rewritten");
			return PointerGetDatum(NULL);
		}
		if (TRIGGER_FIRED_BY_INSERT(event))
			make_version(&targets->rows[nrows++], target, trigdata->tg_trigslot);
		else if (TRIGGER_FIRED_BY_UPDATE(event))
		{
			make_ended(&targets->rows[nrows++], target, trigdata->tg_trigslot);
			make_version(&targets->rows[nrows++], target, trigdata->tg_newslot);
		}
		else
			make_ended(&targets->rows[nrows++], target, trigdata->tg_trigslot);
	}

	if (!gl_delta_log_append(targets->rows, nrows))
	{
		gl_stats_count_overflow(RelationGetRelid(rel));
		gl_registry_mark_stale(MyDatabaseId, RelationGetRelid(rel),
							   "delta log overflowed");
	}
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
	gl_registry_mark_stale(MyDatabaseId, RelationGetRelid(trigdata->tg_relation), "TRUNCATE");
	return PointerGetDatum(NULL);
}
