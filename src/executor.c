/*-------------------------------------------------------------------------
 *
 * executor.c
 *	  Execution of the GpuLike custom scan: ask the gpulike server for the
 *	  candidate rows, fetch each one, recheck the original quals.
 *
 * The scan returns its rows through ExecScan(), as every PostgreSQL scan
 * does, so projection, the qual (our recheck), EvalPlanQual and rescans
 * work the standard way.  Our access method produces the next tuple:
 *
 *	1. On the first call of a pass (the scan's start, or a rescan whose
 *	   Params changed), evaluate the patterns, compile them and send one
 *	   request (plan/request.c).  The server answers with the sorted TIDs
 *	   of the candidate rows: every row any snapshot may see that satisfies
 *	   the offloaded expression, plus possibly others (dead versions,
 *	   reused slots, superset matching).
 *
 *	2. Fetch each candidate with table_tuple_fetch_row_version() under the
 *	   query's snapshot.  That reads exactly that tuple version: it is
 *	   returned when visible and skipped otherwise.  (A HOT-chain walk, as
 *	   an index scan does, would be wrong here: a newer version of the row
 *	   has a TID of its own, and it is a candidate if and only if it
 *	   matches.)  ExecScan then rechecks all quals on it.
 *
 * When the server cannot answer (not running, cache stale or evicted) or a
 * pattern is refused by the compiler in a way that leaves nothing to ask,
 * the same pass reads the whole heap instead, with the query's snapshot,
 * and the quals filter it: the rows are exactly PostgreSQL's, only slower.
 *
 * Serializable transactions: a sequential scan predicate-locks the whole
 * relation, since it read every row; we read every row too (the server
 * did), so we take the same lock.  The heap fetches take their tuple locks
 * and conflict checks themselves.
 *
 * Backward scans are not supported (the path does not advertise them);
 * PostgreSQL puts a Material node above us for SCROLL cursors.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "optimizer/clauses.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "gpulike.h"
#include "plan/scan.h"

static Node *create_scan_state(CustomScan *cscan);
static void begin_scan(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_scan(CustomScanState *node);
static void end_scan(CustomScanState *node);
static void rescan(CustomScanState *node);

const CustomScanMethods gl_scan_methods = {
	.CustomName = GL_SCAN_NAME,
	.CreateCustomScanState = create_scan_state,
};

static const CustomExecMethods gl_exec_methods = {
	.CustomName = GL_SCAN_NAME,
	.BeginCustomScan = begin_scan,
	.ExecCustomScan = exec_scan,
	.EndCustomScan = end_scan,
	.ReScanCustomScan = rescan,
	.ExplainCustomScan = gl_explain_scan,
};

static Node *
create_scan_state(CustomScan *cscan)
{
	GlScanState *state = palloc0(sizeof(GlScanState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &gl_exec_methods;
	return (Node *) state;
}

/*
 * ExecInitCustomScan gave us a virtual scan slot, but heap fetches need the
 * table AM's own slot type, and so do EvalPlanQual's row marks.  Replace it,
 * and rebuild the projection and the qual, which were compiled for the slot
 * type they first saw.
 */
static void
use_table_slot(GlScanState *state, EState *estate)
{
	CustomScan *cscan = (CustomScan *) state->css.ss.ps.plan;
	Relation	rel = state->css.ss.ss_currentRelation;

	ExecInitScanTupleSlot(estate, &state->css.ss, RelationGetDescr(rel),
						  table_slot_callbacks(rel));
	ExecAssignScanProjectionInfoWithVarno(&state->css.ss,
										  cscan->scan.scanrelid);
	state->css.ss.ps.qual = ExecInitQual(cscan->scan.plan.qual,
										 &state->css.ss.ps);
}

static void
begin_scan(CustomScanState *node, EState *estate, int eflags)
{
	GlScanState *state = (GlScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;

	use_table_slot(state, estate);
	state->cached_attnums = linitial(cscan->custom_private);
	state->expr = gl_scan_expr_init(cscan->custom_exprs, &node->ss.ps);
	state->pattern_params = pull_paramids((Expr *) cscan->custom_exprs);
	state->pass_cxt = AllocSetContextCreate(estate->es_query_cxt,
											"GpuLike scan pass",
											ALLOCSET_DEFAULT_SIZES);
}

static void
end_heap_scan(GlScanState *state)
{
	if (state->heap_scan != NULL)
	{
		table_endscan(state->heap_scan);
		state->heap_scan = NULL;
	}
}

static void
fall_back_to_heap(GlScanState *state, const char *why)
{
	EState	   *estate = state->css.ss.ps.state;

	state->source = GL_SOURCE_HEAP;
	state->heap_fallbacks++;
	strlcpy(state->fallback_reason, why, sizeof(state->fallback_reason));
	state->heap_scan = table_beginscan(state->css.ss.ss_currentRelation,
									   estate->es_snapshot, 0, NULL);
}

/* Ask the server, or decide that the heap must be read. */
static void
start_pass(GlScanState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	Relation	rel = state->css.ss.ss_currentRelation;
	MemoryContext oldcxt;
	GlRequest  *request;
	GlRequestShape shape;
	GlRequestStats stats;
	const char *why_not = NULL;

	end_heap_scan(state);
	MemoryContextReset(state->pass_cxt);
	state->candidates = NULL;
	state->next_candidate = 0;
	state->started = true;

	oldcxt = MemoryContextSwitchTo(state->pass_cxt);
	shape = gl_scan_expr_request(state->expr, rel,
								 state->css.ss.ps.ps_ExprContext,
								 &request, &state->matchers);
	switch (shape)
	{
		case GL_REQUEST_NO_ROWS:
			state->source = GL_SOURCE_NONE;
			break;
		case GL_REQUEST_ALL_ROWS:
			fall_back_to_heap(state, "a pattern was left to PostgreSQL");
			break;
		case GL_REQUEST_BUILT:
			memset(&stats, 0, sizeof(stats));
			state->requests++;
			state->candidates = gl_request_run(request, &stats, &why_not);
			if (state->candidates == NULL)
			{
				fall_back_to_heap(state, why_not ? why_not :
								  "no answer from the gpulike server");
				break;
			}
			state->source = GL_SOURCE_CANDIDATES;
			state->nblocks = RelationGetNumberOfBlocks(rel);
			state->answered++;
			state->candidates_returned += state->candidates->ntids;
			snprintf(state->engine, sizeof(state->engine), "%s%s",
					 stats.engine,
					 stats.fell_back ? ", after a GPU failure" : "");
			state->engine_ms += stats.engine_ms;
			break;
	}
	MemoryContextSwitchTo(oldcxt);

	/* we (through the server) looked at every row, as a seq scan does */
	if (state->source != GL_SOURCE_HEAP)
		PredicateLockRelation(rel, estate->es_snapshot);
}

/*
 * The next candidate visible to the query's snapshot, or an empty slot.
 *
 * A cached TID may point past the end of the heap: VACUUM truncates empty
 * pages at the end without a new relfilenode, and the cache keeps the dead
 * versions that were there.  Reading such a block is an error, so skip
 * them, as a TID scan does: blocks beyond the size at the start of the pass
 * hold nothing our snapshot can see, and our lock keeps the size from
 * shrinking meanwhile.
 */
static TupleTableSlot *
next_visible_candidate(GlScanState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	Relation	rel = state->css.ss.ss_currentRelation;
	TupleTableSlot *slot = state->css.ss.ss_ScanTupleSlot;
	GlTidList  *candidates = state->candidates;

	while (state->next_candidate < candidates->ntids)
	{
		ItemPointer tid = &candidates->tids[state->next_candidate++];

		CHECK_FOR_INTERRUPTS();
		if (ItemPointerGetBlockNumber(tid) < state->nblocks &&
			table_tuple_fetch_row_version(rel, tid, estate->es_snapshot, slot))
			return slot;
		state->candidates_invisible++;
	}
	return ExecClearTuple(slot);
}

/* ExecScan's access method: the next tuple of the pass. */
static TupleTableSlot *
scan_next(ScanState *ss)
{
	GlScanState *state = (GlScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;

	if (!state->started)
		start_pass(state);

	switch (state->source)
	{
		case GL_SOURCE_CANDIDATES:
			return next_visible_candidate(state);
		case GL_SOURCE_HEAP:
			if (table_scan_getnextslot(state->heap_scan,
									   ForwardScanDirection, slot))
				return slot;
			return ExecClearTuple(slot);
		case GL_SOURCE_NONE:
			break;
	}
	return ExecClearTuple(slot);
}

/*
 * ExecScan's recheck method, for EvalPlanQual.  A substituted tuple needs
 * no check of its own: the quals, which ExecScan applies next, are the
 * whole predicate, and the offloaded part only ever selected a superset.
 */
static bool
scan_recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

static TupleTableSlot *
exec_scan(CustomScanState *node)
{
	return ExecScan(&node->ss, scan_next, scan_recheck);
}

static void
end_scan(CustomScanState *node)
{
	GlScanState *state = (GlScanState *) node;

	end_heap_scan(state);
	if (node->ss.ps.ps_ResultTupleSlot)
		ExecClearTuple(node->ss.ps.ps_ResultTupleSlot);
	ExecClearTuple(node->ss.ss_ScanTupleSlot);
}

/*
 * New values of the Params in the patterns mean new patterns: the next
 * fetch sends a new request.  Otherwise (nothing changed, or only Params the
 * recheck uses) the same candidates are read again from the start.
 */
static void
rescan(CustomScanState *node)
{
	GlScanState *state = (GlScanState *) node;

	if (bms_overlap(node->ss.ps.chgParam, state->pattern_params))
	{
		end_heap_scan(state);
		state->started = false;
	}
	else if (state->started)
	{
		state->next_candidate = 0;
		if (state->heap_scan != NULL)
			table_rescan(state->heap_scan, NULL);
	}
	ExecScanReScan(&node->ss);
}

void
gl_executor_init(void)
{
	RegisterCustomScanMethods(&gl_scan_methods);
}
