/*-------------------------------------------------------------------------
 *
 * executor.c
 *	  Execution of the GpuLike custom scan: ask the gpulike server for the
 *	  candidate rows, read their heap pages, return the visible rows.
 *
 * The scan returns its rows through ExecScan(), as every PostgreSQL scan
 * does, so projection, the qual ("Filter"), EvalPlanQual and rescans work
 * the standard way.  Our access method produces the next row:
 *
 *	1. On the first call of a pass (the scan's start, or a rescan whose
 *	   Params changed), evaluate the patterns, compile them and send one
 *	   request (scan_expr.c).  The server answers with the candidate
 *	   tuples grouped by heap page: every tuple any snapshot may see that
 *	   satisfies the offloaded expression, plus possibly others (dead
 *	   versions, superset matching).
 *
 *	2. For each candidate page, find its candidates visible to the query's
 *	   snapshot under one pin and one lock (heap_pages.c), and return
 *	   them from the buffer.
 *
 *	3. Recheck the offloaded quals ("Recheck Cond") only when the answer is
 *	   lossy: a pattern refused and left out, or a superset program (a
 *	   regex with back-references, say), or gpulike.recheck = always.  An
 *	   exact answer needs no recheck: its candidates are the TIDs whose
 *	   latest cached version satisfies the quals, and a visible tuple's
 *	   version is the latest one cached for its TID -- it was logged before
 *	   our snapshot was taken (the trigger logs before commit; the server
 *	   applies the log before it answers), and a later version at the same
 *	   TID would need our visible tuple removed first, which no one can do
 *	   while our snapshot sees it.  Quals the offloaded expression does not
 *	   cover are always evaluated.
 *
 *	4. When nothing of the row is needed (count(*), EXISTS: no column in
 *	   the output or in the quals left to evaluate, as rows_are_read()
 *	   decides from the final plan) and there is no recheck, candidates
 *	   on all-visible pages are returned without reading the page, as an
 *	   index-only scan does ("Heap Fetches" counts the others);
 *	   heap_pages.c has the argument.  A count over many
 *	   pages asks for them to be counted by the server: it sends the
 *	   visibility map's all-visible bits with the request, and the answer
 *	   lists only the candidates that need a look at their page
 *	   (column/candidates.h).  The planner decides when the map is worth
 *	   sending (count_paths.c).
 *
 * An OR whose pattern arms the server answers beside arms it cannot
 * ("body LIKE '%x%' OR n = 7", custom_exprs' "others") is a scan of every
 * row: the pass reads the heap as a sequential scan does, with the query's
 * snapshot, and a row the answer holds satisfies the OR (after a recheck
 * if the answer is lossy); any other row satisfies it exactly when one of
 * the other arms accepts it (answer_lookup.c).
 *
 * When the server cannot answer (not running, cache stale or evicted) or
 * a pattern is refused in a way that leaves nothing to ask, the same pass
 * reads the whole heap instead, with the query's snapshot, and all quals
 * are evaluated: the rows are exactly PostgreSQL's, only slower.
 *
 * Output COUNT (count_paths.c) is the same pass with the rows counted
 * here instead of returned: one row comes out, holding the count in each
 * count(*) column of the scan tuple.
 *
 * Parallel.  A parallel-aware scan (under a Gather) shares one request per
 * pass and splits the candidate pages among the participants
 * (parallel_scan.c); each participant counts or returns the rows of
 * the pages it claimed.  Run without a parallel context (no workers were
 * planned after all), it behaves as a serial scan.
 *
 * Serializable transactions: a sequential scan predicate-locks the whole
 * relation, since it read every row; we read every row too (the server
 * did), so we take the same lock.
 *
 * Backward scans are not supported (the path does not advertise them);
 * PostgreSQL puts a Material node above us for SCROLL cursors.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "executor/nodeCustom.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "portability/instr_time.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "registry/stats.h"
#include "scan/parallel_scan.h"
#include "scan/scan.h"
#include "settings.h"

static Node *create_scan_state(CustomScan *cscan);
static void begin_scan(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_scan(CustomScanState *node);
static void end_scan(CustomScanState *node);
static void rescan(CustomScanState *node);
static Size estimate_dsm(CustomScanState *node, ParallelContext *pcxt);
static void initialize_dsm(CustomScanState *node, ParallelContext *pcxt,
						   void *coordinate);
static void reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt,
							 void *coordinate);
static void initialize_worker(CustomScanState *node, shm_toc *toc,
							  void *coordinate);
static void shutdown_scan(CustomScanState *node);

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
	.EstimateDSMCustomScan = estimate_dsm,
	.InitializeDSMCustomScan = initialize_dsm,
	.ReInitializeDSMCustomScan = reinitialize_dsm,
	.InitializeWorkerCustomScan = initialize_worker,
	.ShutdownCustomScan = shutdown_scan,
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

/* ------------------------------------------------------------ set-up */

/*
 * ROWS: ExecInitCustomScan gave us a virtual scan slot, but heap rows
 * need the table AM's own slot type, and so do EvalPlanQual's row marks.
 * Replace it, and rebuild the projection and the qual, which were compiled
 * for the slot type they first saw.
 */
static void
use_table_slot(GlScanState *state, EState *estate)
{
	CustomScan *cscan = (CustomScan *) state->css.ss.ps.plan;

	ExecInitScanTupleSlot(estate, &state->css.ss, RelationGetDescr(state->rel),
						  table_slot_callbacks(state->rel));
	ExecAssignScanProjectionInfoWithVarno(&state->css.ss,
										  cscan->scan.scanrelid);
	state->css.ss.ps.qual = ExecInitQual(cscan->scan.plan.qual,
										 &state->css.ss.ps);
	state->heap_slot = state->css.ss.ss_ScanTupleSlot;
}

/*
 * COUNT: setrefs.c made our expressions refer to the scan tuple
 * (custom_scan_tlist) with INDEX_VAR; they are evaluated on heap rows, so
 * turn those references back into the relation's Vars.
 */
static Node *
unfix_index_vars(Node *node, List *scan_tlist)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == INDEX_VAR)
	{
		TargetEntry *tle = list_nth(scan_tlist, ((Var *) node)->varattno - 1);

		return (Node *) copyObject(tle->expr);
	}
	return expression_tree_mutator(node, unfix_index_vars, scan_tlist);
}

/*
 * COUNT: the range table index of the counted relation.  The plan carries
 * it in the Vars of custom_scan_tlist (there is one at least: the cached
 * column), which setrefs.c adjusted for the final range table.
 */
static Index
count_scan_relid(CustomScan *cscan)
{
	ListCell   *lc;

	foreach(lc, cscan->custom_scan_tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (IsA(tle->expr, Var))
			return ((Var *) tle->expr)->varno;
	}
	elog(ERROR, "gpulike: count scan without a relation");
	return 0;					/* keep compiler quiet */
}

/*
 * ExecInitExpr compiles a Var of the scan tuple for the slot type the
 * node's scan slot has; COUNT's expressions read heap rows from another
 * slot, so compile them as the heap slot's while we build them.
 */
static ExprState *
init_qual_for_heap_rows(GlScanState *state, List *qual)
{
	PlanState  *ps = &state->css.ss.ps;
	const TupleTableSlotOps *saved_ops = ps->scanops;
	TupleDesc	saved_desc = ps->scandesc;
	ExprState  *result;

	ps->scanops = state->heap_slot->tts_ops;
	ps->scandesc = RelationGetDescr(state->rel);
	result = ExecInitQual(qual, ps);
	ps->scanops = saved_ops;
	ps->scandesc = saved_desc;
	return result;
}

/*
 * Must the rows this scan returns be read from the heap?  Only if not may
 * a candidate on an all-visible page be returned unread (heap_pages.c),
 * an empty row standing in for it -- right only if nothing ever looks at
 * that row's contents.  What looks at them is the final plan, as the
 * executor evaluates it, not the target list PlanCustomPath was given:
 * createplan.c gives a path that can project no target list when it means
 * to put its own in afterwards (CP_IGNORE_TLIST), which it does for
 * "SELECT n % 5, count(*) ... GROUP BY 1" (the scan once returned one
 * group of NULLs for it, and CREATE TABLE AS wrote NULLs).
 *
 * A row leaves this node in one of two ways: through the projection of
 * plan.targetlist, evaluated on the scan tuple, or -- when
 * ExecInitCustomScan found that target list to be the scan tuple itself
 * and built no projection -- as the scan tuple itself.  plan.qual is
 * evaluated on the scan tuple too.  Nothing above us sees more of the row
 * than our result: the parent, a Gather, LockRows and ModifyTable (through
 * the ctid and whole-row junk columns of our target list), a nested loop
 * taking Params from our output.  Within an expression, the only steps
 * that read the scan tuple are those execExpr.c emits for a Var: a user
 * column, a system column (ctid, tableoid, xmin, ...) or a whole-row
 * reference, at any depth -- function arguments, CASE arms, the arguments
 * of a SubPlan.  So the rows need reading exactly when there is no
 * projection, or a qual, or a Var anywhere in the target list
 * (contain_var_clause() finds them, and a CurrentOfExpr).
 *
 * COUNT returns the count, not rows: they need reading exactly when the
 * count's own filter, evaluated on them, exists.
 */
static bool
rows_are_read(GlScanState *state, List *count_filter)
{
	Plan	   *plan = state->css.ss.ps.plan;

	if (state->output == GL_OUTPUT_COUNT)
		return count_filter != NIL;
	return state->css.ss.ps.ps_ProjInfo == NULL || plan->qual != NIL ||
		contain_var_clause((Node *) plan->targetlist);
}

static void
begin_scan(CustomScanState *node, EState *estate, int eflags)
{
	GlScanState *state = (GlScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *exprs = cscan->custom_exprs;
	List	   *offloaded = linitial(exprs);
	List	   *recheck = lsecond(exprs);
	List	   *count_filter = lthird(exprs);
	List	   *other_arms = lfourth(exprs);

	state->cached_attnums = linitial(cscan->custom_private);
	state->output = (GlScanOutput) intVal(lsecond(cscan->custom_private));

	if (state->output == GL_OUTPUT_ROWS)
	{
		state->rel = node->ss.ss_currentRelation;
		use_table_slot(state, estate);
		state->recheck_quals = ExecInitQual(recheck, &node->ss.ps);
		if (other_arms != NIL)
			state->other_arms = ExecInitQual(other_arms, &node->ss.ps);
	}
	else
	{
		state->server_counts = intVal(lthird(cscan->custom_private)) != 0;
		state->rel = ExecGetRangeTableRelation(estate, count_scan_relid(cscan));
		offloaded = (List *) unfix_index_vars((Node *) offloaded,
											  cscan->custom_scan_tlist);
		recheck = (List *) unfix_index_vars((Node *) recheck,
											cscan->custom_scan_tlist);
		count_filter = (List *) unfix_index_vars((Node *) count_filter,
												 cscan->custom_scan_tlist);
		state->heap_slot = ExecInitExtraTupleSlot(estate,
												  RelationGetDescr(state->rel),
												  table_slot_callbacks(state->rel));
		state->recheck_quals = init_qual_for_heap_rows(state, recheck);
		state->count_filter = init_qual_for_heap_rows(state, count_filter);
	}
	state->needs_tuple = rows_are_read(state, count_filter) ||
		state->other_arms != NULL;
	state->bare_slot = ExecInitExtraTupleSlot(estate, RelationGetDescr(state->rel),
											  &TTSOpsVirtual);
	ExecStoreAllNullTuple(state->bare_slot);

	state->expr = gl_scan_expr_init(offloaded, &node->ss.ps);
	state->pattern_params = pull_paramids((Expr *) offloaded);
	state->page = palloc0(sizeof(GlHeapPage));
	state->page->buffer = InvalidBuffer;
	state->vmbuffer = InvalidBuffer;
	state->pass_cxt = AllocSetContextCreate(estate->es_query_cxt,
											"GpuLike scan pass",
											ALLOCSET_DEFAULT_SIZES);
}

/* --------------------------------------------------------- the pass */

static void
end_pass(GlScanState *state)
{
	gl_heap_page_release(state->page);
	if (state->heap_scan != NULL)
	{
		table_endscan(state->heap_scan);
		state->heap_scan = NULL;
	}
	state->run.npages = 0;
	state->run.next = 0;
	state->next_byte = 0;
	state->count_returned = false;
}

/*
 * The server could not answer: this pass reads the heap, and the report
 * says so.  When the cache itself failed (not ready, server gone), the
 * table's relcache entry is invalidated too (sent at commit), so that
 * cached plans of it -- a generic plan would keep reading the heap here,
 * serially -- are made again with whatever the cache offers then; the
 * load that makes the cache ready again does the same (cache_ops.c).
 */
static void
note_fallback(GlScanState *state, GlPassResult *pass, const char *why,
			  bool cache_failed)
{
	pass->source = GL_SOURCE_HEAP;
	pass->recheck = true;
	strlcpy(pass->fallback_reason, why, sizeof(pass->fallback_reason));
	strlcpy(pass->recheck_reason, "every row (the heap was read)",
			sizeof(pass->recheck_reason));
	state->counters.heap_fallbacks++;
	ereport(gl_fallback_log_level,
			(errmsg("gpulike: reading the heap of \"%s\" instead of its cache: %s",
					RelationGetRelationName(state->rel), why)));
	if (cache_failed && !IsParallelWorker())
		CacheInvalidateRelcache(state->rel);
}

/*
 * Ask the server for this pass's candidates.  Their pages go to local
 * memory (*local_pages) for a serial scan, or to the query's shared area
 * (pass->pages) when dsa is given.
 */
static void
ask_server(GlScanState *state, dsa_area *dsa, GlPassResult *pass,
		   char **local_pages)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
	GlRequest  *request;
	GlAnswerInfo info;
	List	   *matchers;
	bool		lossy;
	const char *why_not = NULL;
	char	   *pages;
	instr_time	build_start;
	instr_time	built;

	memset(pass, 0, sizeof(GlPassResult));
	pass->pages = InvalidDsaPointer;
	*local_pages = NULL;

	INSTR_TIME_SET_CURRENT(build_start);
	switch (gl_scan_expr_request(state->expr, state->rel, econtext,
								 &request, &matchers, &lossy))
	{
		case GL_REQUEST_NO_ROWS:
			pass->source = GL_SOURCE_NONE;
			break;
		case GL_REQUEST_ALL_ROWS:
			note_fallback(state, pass, "a pattern was left to PostgreSQL", false);
			break;
		case GL_REQUEST_BUILT:
			state->counters.requests++;
			if (state->server_counts && !state->needs_tuple && !lossy &&
				gl_recheck_choice == GL_RECHECK_AUTO)
			{
				BlockNumber nblocks = RelationGetNumberOfBlocks(state->rel);

				gl_request_count_unread(request,
										gl_all_visible_blocks(state->rel, nblocks),
										nblocks);
			}
			INSTR_TIME_SET_CURRENT(built);
			INSTR_TIME_SUBTRACT(built, build_start);
			state->counters.build_ms += INSTR_TIME_GET_MILLISEC(built);
			if (!gl_request_send(request, &info, &why_not))
			{
				note_fallback(state, pass, why_not, true);
				break;
			}
			if (dsa != NULL)
			{
				pass->pages = info.nbytes > 0 ?
					dsa_allocate_extended(dsa, info.nbytes, DSA_ALLOC_HUGE) :
					InvalidDsaPointer;
				pages = info.nbytes > 0 ? dsa_get_address(dsa, pass->pages) : NULL;
			}
			else
				pages = MemoryContextAllocHuge(state->pass_cxt,
											   Max(info.nbytes, 1));
			if (!gl_request_receive(request, &info, pages, &why_not))
			{
				if (DsaPointerIsValid(pass->pages))
					dsa_free(dsa, pass->pages);
				pass->pages = InvalidDsaPointer;
				note_fallback(state, pass, why_not, true);
				break;
			}
			*local_pages = pages;
			pass->source = GL_SOURCE_CANDIDATES;
			pass->pages_bytes = info.nbytes;
			pass->npages = info.npages;
			pass->counted = info.counted;
			if (gl_recheck_choice == GL_RECHECK_ALWAYS)
				strlcpy(pass->recheck_reason,
						"every candidate (gpulike.recheck = always)",
						sizeof(pass->recheck_reason));
			else if (lossy)
				strlcpy(pass->recheck_reason,
						"every candidate (a pattern was left to PostgreSQL)",
						sizeof(pass->recheck_reason));
			else if (!info.exact)
				strlcpy(pass->recheck_reason,
						"every candidate (a matcher is a superset)",
						sizeof(pass->recheck_reason));
			pass->recheck = pass->recheck_reason[0] != '\0';
			snprintf(pass->engine, sizeof(pass->engine), "%s%s", info.engine,
					 info.fell_back ? ", after a GPU failure" : "");
			state->counters.answered++;
			state->counters.candidates += info.ncandidates + info.counted;
			state->counters.unread += info.counted;
			state->counters.candidate_pages += info.npages;
			state->counters.queue_ms += info.queue_ms;
			state->counters.engine_ms += info.engine_ms;
			state->counters.kernel_ms += info.kernel_ms;
			state->counters.answer_ms += info.answer_ms;
			state->counters.round_trip_ms += info.round_trip_ms;
			break;
	}
	if (pass->recheck)
		state->counters.rechecked_passes++;
	strlcpy(pass->matchers, gl_join_matchers(matchers), sizeof(pass->matchers));
}

/* What EXPLAIN says of a pass. */
static void
describe_pass(GlScanState *state, const GlPassResult *pass)
{
	if (pass->matchers[0] != '\0')
		state->matchers = pstrdup(pass->matchers);
	if (pass->engine[0] != '\0')
		strlcpy(state->engine, pass->engine, sizeof(state->engine));
	if (pass->fallback_reason[0] != '\0')
		strlcpy(state->fallback_reason, pass->fallback_reason,
				sizeof(state->fallback_reason));
	if (pass->recheck_reason[0] != '\0')
		strlcpy(state->recheck_reason, pass->recheck_reason,
				sizeof(state->recheck_reason));
}

/* Adopt a pass: where its rows come from. */
static void
adopt_pass(GlScanState *state, const GlPassResult *pass)
{
	EState	   *estate = state->css.ss.ps.state;

	state->source = pass->source;
	state->recheck = pass->recheck;
	state->pages_bytes = pass->pages_bytes;
	describe_pass(state, pass);

	/* an OR with other arms: every row is read, whatever the answer */
	if (state->other_arms != NULL && state->source != GL_SOURCE_HEAP)
	{
		const char *pages = state->pages;

		if (state->shared != NULL)
			pages = pass->pages_bytes > 0 ?
				dsa_get_address(estate->es_query_dsa, pass->pages) : NULL;
		state->lookup = palloc(sizeof(GlAnswerLookup));
		gl_answer_lookup_init(state->lookup, pages,
							  state->source == GL_SOURCE_CANDIDATES ?
							  pass->pages_bytes : 0);
		state->source = GL_SOURCE_HEAP_ANSWERED;
	}

	if (state->source == GL_SOURCE_HEAP ||
		state->source == GL_SOURCE_HEAP_ANSWERED)
	{
		if (state->shared != NULL)
			state->heap_scan = table_beginscan_parallel(state->rel,
														&state->shared->heap_scan);
		else
			state->heap_scan = table_beginscan(state->rel, estate->es_snapshot,
											   0, NULL);
	}
	else
	{
		/* we (through the server) looked at every row, as a seq scan does */
		PredicateLockRelation(state->rel, estate->es_snapshot);
		state->nblocks = RelationGetNumberOfBlocks(state->rel);

		/* many pages to read: a ring of buffers, as heapam's initscan() */
		state->page->strategy = NULL;
		if (pass->npages > (uint64) NBuffers / 4 &&
			!RelationUsesLocalBuffers(state->rel))
		{
			if (state->bulk_read == NULL)
			{
				MemoryContext oldcxt = MemoryContextSwitchTo(estate->es_query_cxt);

				state->bulk_read = GetAccessStrategy(BAS_BULKREAD);
				MemoryContextSwitchTo(oldcxt);
			}
			state->page->strategy = state->bulk_read;
		}
	}
}

static void
start_pass(GlScanState *state)
{
	MemoryContext oldcxt;
	GlPassResult pass;
	char	   *local_pages;

	end_pass(state);
	MemoryContextReset(state->pass_cxt);
	state->pages = NULL;
	state->matchers = NULL;
	state->started = true;

	/*
	 * Rows the server counted, unlisted, belong to the participant that
	 * asked for them: each participant of a parallel count returns its
	 * own share.
	 */
	oldcxt = MemoryContextSwitchTo(state->pass_cxt);
	if (state->shared == NULL)
	{
		ask_server(state, NULL, &pass, &local_pages);
		state->pages = local_pages;
		adopt_pass(state, &pass);
		state->pass_counted = pass.counted;
	}
	else
	{
		dsa_area   *dsa = state->css.ss.ps.state->es_query_dsa;

		state->pass_counted = 0;
		if (gl_shared_scan_start(state->shared))
		{
			ask_server(state, dsa, &pass, &local_pages);
			gl_shared_scan_publish(state->shared, dsa, &pass);
			state->pass_counted = pass.counted;
		}
		adopt_pass(state, gl_shared_scan_pass(state->shared));
	}
	MemoryContextSwitchTo(oldcxt);
}

/* --------------------------------------------------------- the rows */

/* The next run of candidate pages for this participant; false at the end. */
static bool
next_run(GlScanState *state)
{
	GlPageRun  *run = &state->run;
	bool		may_skip_reads = !state->needs_tuple && !state->recheck;

	if (state->shared != NULL)
	{
		if (!gl_shared_scan_claim(state->shared,
								  state->css.ss.ps.state->es_query_dsa, run))
			return false;
	}
	else
	{
		run->npages = 0;
		run->next = 0;
		while (run->npages < GL_RUN_PAGES && state->next_byte < state->pages_bytes)
		{
			const GlCandidatePage *record =
			(const GlCandidatePage *) (state->pages + state->next_byte);

			run->records[run->npages++] = record;
			state->next_byte += gl_candidate_page_size(record);
		}
		if (state->next_byte > state->pages_bytes)
			elog(ERROR, "gpulike: malformed answer from the gpulike server");
		if (run->npages == 0)
			return false;
	}
	gl_page_run_start(run, state->rel, state->nblocks, may_skip_reads,
					  &state->vmbuffer);
	return true;
}

/* Load the next candidate page into state->page; false at the end. */
static bool
next_page(GlScanState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	bool		may_skip_reads = !state->needs_tuple && !state->recheck;

	if (state->run.next >= state->run.npages && !next_run(state))
		return false;
	gl_heap_page_load(state->page, state->rel,
					  state->run.records[state->run.next],
					  state->run.recent[state->run.next],
					  estate->es_snapshot, may_skip_reads, state->nblocks,
					  &state->vmbuffer, &state->counters);
	state->run.next++;
	return true;
}

/* The next visible candidate row, or NULL. */
static TupleTableSlot *
next_candidate(GlScanState *state)
{
	for (;;)
	{
		TupleTableSlot *slot = gl_heap_page_next(state->page, state->rel,
												 state->heap_slot,
												 state->bare_slot);

		if (slot != NULL)
			return slot;
		if (!next_page(state))
			return NULL;
	}
}

/* Does the row satisfy the quals that only a lossy answer must check? */
static bool
passes_recheck(GlScanState *state, TupleTableSlot *slot)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;

	if (!state->recheck || state->recheck_quals == NULL)
		return true;
	econtext->ecxt_scantuple = slot;
	if (ExecQual(state->recheck_quals, econtext))
		return true;
	InstrCountFiltered2(state, 1);
	ResetExprContext(econtext);
	return false;
}

/* Does a row the answer does not hold satisfy one of an OR's other arms? */
static bool
passes_other_arms(GlScanState *state, TupleTableSlot *slot)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;

	econtext->ecxt_scantuple = slot;
	if (ExecQual(state->other_arms, econtext))
		return true;
	state->counters.other_arms_removed++;
	ResetExprContext(econtext);
	return false;
}

/* The next row of the pass satisfying the recheck, or NULL. */
static TupleTableSlot *
next_row(GlScanState *state)
{
	for (;;)
	{
		TupleTableSlot *slot;

		switch (state->source)
		{
			case GL_SOURCE_CANDIDATES:
				slot = next_candidate(state);
				break;
			case GL_SOURCE_HEAP:
				slot = state->heap_slot;
				if (!table_scan_getnextslot(state->heap_scan,
											ForwardScanDirection, slot))
					slot = NULL;
				break;
			case GL_SOURCE_HEAP_ANSWERED:
				slot = state->heap_slot;
				if (!table_scan_getnextslot(state->heap_scan,
											ForwardScanDirection, slot))
					return NULL;
				if (!gl_answer_holds(state->lookup, &slot->tts_tid))
				{
					if (passes_other_arms(state, slot))
						return slot;
					continue;
				}
				break;
			default:
				slot = NULL;
				break;
		}
		if (slot == NULL)
			return NULL;
		if (passes_recheck(state, slot))
			return slot;
	}
}

/*
 * COUNT: count this participant's rows and return them as one row (each
 * count(*) column of the scan tuple), once per pass.
 */
static TupleTableSlot *
count_rows(GlScanState *state)
{
	CustomScan *cscan = (CustomScan *) state->css.ss.ps.plan;
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
	TupleTableSlot *result = state->css.ss.ss_ScanTupleSlot;
	TupleTableSlot *slot;
	int64		count = 0;
	int			attno = 0;
	ListCell   *lc;

	if (state->count_returned)
		return ExecClearTuple(result);
	if (state->source == GL_SOURCE_CANDIDATES && !state->needs_tuple &&
		!state->recheck)
	{
		/* nothing to evaluate on a row: count the pages' visible rows */
		count = state->pass_counted;
		while (next_page(state))
			count += state->page->nrows;
	}
	else
	{
		while ((slot = next_row(state)) != NULL)
		{
			CHECK_FOR_INTERRUPTS();
			econtext->ecxt_scantuple = slot;
			if (state->count_filter == NULL || ExecQual(state->count_filter, econtext))
				count++;
			else
				InstrCountFiltered1(state, 1);
			ResetExprContext(econtext);
		}
	}
	state->count_returned = true;
	state->rows_returned += count;

	ExecClearTuple(result);
	foreach(lc, cscan->custom_scan_tlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		result->tts_isnull[attno] = !IsA(tle->expr, Aggref);
		result->tts_values[attno] = Int64GetDatum(IsA(tle->expr, Aggref) ? count : 0);
		attno++;
	}
	return ExecStoreVirtualTuple(result);
}

/* ExecScan's access method: the next row of the pass. */
static TupleTableSlot *
scan_next(ScanState *ss)
{
	GlScanState *state = (GlScanState *) ss;
	TupleTableSlot *slot;

	if (!state->started)
		start_pass(state);
	if (state->output == GL_OUTPUT_COUNT)
		return count_rows(state);
	slot = next_row(state);
	return slot != NULL ? slot : ExecClearTuple(ss->ss_ScanTupleSlot);
}

/*
 * ExecScan's recheck method, for EvalPlanQual: the substituted tuple is a
 * newer version of the row, so every qual is evaluated on it; the Filter
 * by ExecScan, the offloaded quals here.
 */
static bool
scan_recheck(ScanState *ss, TupleTableSlot *slot)
{
	GlScanState *state = (GlScanState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;

	/* COUNT's row is an aggregate, never a row version to recheck */
	if (state->output == GL_OUTPUT_COUNT || state->recheck_quals == NULL)
		return true;
	econtext->ecxt_scantuple = slot;
	return ExecQual(state->recheck_quals, econtext);
}

static TupleTableSlot *
exec_scan(CustomScanState *node)
{
	TupleTableSlot *slot = ExecScan(&node->ss, scan_next, scan_recheck);

	if (!TupIsNull(slot) && ((GlScanState *) node)->output != GL_OUTPUT_COUNT)
		((GlScanState *) node)->rows_returned++;
	return slot;
}

static void
end_scan(CustomScanState *node)
{
	GlScanState *state = (GlScanState *) node;

	end_pass(state);
	/* this process's share: a parallel worker counts its own */
	gl_stats_count_scan(RelationGetRelid(state->rel), state->cached_attnums,
						state->rows_returned, state->counters.heap_fallbacks,
						state->fallback_reason);
	if (BufferIsValid(state->vmbuffer))
		ReleaseBuffer(state->vmbuffer);
	state->vmbuffer = InvalidBuffer;
	if (state->bulk_read != NULL)
		FreeAccessStrategy(state->bulk_read);
	state->bulk_read = NULL;
	if (node->ss.ps.ps_ResultTupleSlot)
		ExecClearTuple(node->ss.ps.ps_ResultTupleSlot);
	ExecClearTuple(node->ss.ss_ScanTupleSlot);
}

/*
 * New values of the Params in the patterns mean new patterns: the next
 * fetch sends a new request.  Otherwise (nothing changed, or only Params the
 * other quals use) the same candidates are read again from the start.  A
 * parallel-aware scan always starts over: its shared state was reset
 * (reinitialize_dsm), and new workers share the new pass.
 */
static void
rescan(CustomScanState *node)
{
	GlScanState *state = (GlScanState *) node;

	if (state->shared != NULL ||
		bms_overlap(node->ss.ps.chgParam, state->pattern_params))
	{
		end_pass(state);
		state->started = false;
	}
	else if (state->started)
	{
		/* the same pass again: rewind */
		if (state->heap_scan != NULL)
			table_rescan(state->heap_scan, NULL);
		gl_heap_page_release(state->page);
		state->run.npages = 0;
		state->run.next = 0;
		state->next_byte = 0;
		state->count_returned = false;
	}
	ExecScanReScan(&node->ss);
}

/* --------------------------------------------------------- parallel */

static Size
estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	GlScanState *state = (GlScanState *) node;

	return gl_shared_scan_size(state->rel, node->ss.ps.state->es_snapshot);
}

static void
initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GlScanState *state = (GlScanState *) node;

	state->shared = coordinate;
	gl_shared_scan_init(state->shared, state->rel,
						node->ss.ps.state->es_snapshot);
}

static void
reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GlScanState *state = (GlScanState *) node;

	gl_shared_scan_reset(state->shared, state->rel,
						 node->ss.ps.state->es_query_dsa);
}

static void
initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	GlScanState *state = (GlScanState *) node;

	state->shared = coordinate;
}

/*
 * Workers add their counters to the shared sums as they finish; the
 * leader takes the sums (for EXPLAIN) while the segment is still there.
 */
static void
shutdown_scan(CustomScanState *node)
{
	GlScanState *state = (GlScanState *) node;

	if (state->shared == NULL)
		return;
	if (IsParallelWorker())
		gl_shared_scan_add_counters(state->shared, &state->counters);
	else
	{
		const GlPassResult *pass = gl_shared_scan_ready_pass(state->shared);

		gl_shared_scan_worker_counters(state->shared, &state->worker_counters);
		/* a leader that took no part still describes the workers' pass */
		if (!state->started && pass != NULL)
		{
			MemoryContext oldcxt = MemoryContextSwitchTo(state->pass_cxt);

			describe_pass(state, pass);
			MemoryContextSwitchTo(oldcxt);
		}
	}
	end_pass(state);
	state->shared = NULL;
}

void
gl_executor_init(void)
{
	RegisterCustomScanMethods(&gl_scan_methods);
}
