/*-------------------------------------------------------------------------
 *
 * planner.c
 *	  The GpuLike scan path: when to offer it, what it costs, and the plan
 *	  node it becomes.
 *
 * set_rel_pathlist_hook runs after PostgreSQL has built its own paths for a
 * base relation.  For a plain heap table with offloadable restriction
 * clauses over usable column caches (plan/quals.c decides which), we add a
 * CustomPath and let add_path() compare it with the sequential, parallel,
 * index and bitmap paths already there; the cheapest wins.  Join clauses
 * whose pattern comes from another relation get parameterized paths, which
 * a nested loop rescans once per outer row.
 *
 * Cost model.  A GpuLike scan sends one request to the gpulike server, which
 * runs the compiled predicate over every cached row, and gets back a sorted
 * list of candidate TIDs.  The executor then fetches each candidate from the
 * heap and rechecks all the original quals.  So:
 *
 *	startup = gpulike.request_cost
 *			  + cached rows * columns * engine row cost	(the matching itself)
 *	run		= heap pages of the candidates
 *			  + candidates * (GL_FETCH_ROW_COST + cpu_tuple_cost
 *							  + recheck of the quals)
 *
 * with candidates = selectivity of the offloaded clauses (PostgreSQL's own
 * pattern selectivity) * rows.  The candidate TIDs come sorted, so the heap
 * fetch behaves like a bitmap heap scan's: we charge the pages it would read,
 * at a per-page cost between random_page_cost (few, scattered pages) and
 * seq_page_cost (most of the table), and never more than
 * gpulike.candidate_cost per candidate.  An unselective predicate (a typical
 * NOT LIKE) thus costs about a sequential scan plus the request, and the
 * planner keeps the sequential or parallel plan.
 *
 * The path is not parallel-safe: the request is made once per scan, and a
 * partial GpuLike scan would need the TID list shared among workers.  The
 * planner may still put a Gather over other paths of the same relation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "nodes/extensible.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/spccache.h"

#include "gpulike.h"
#include "plan/quals.h"
#include "plan/scan.h"

/*
 * Planner cost of matching one cached row.  The CPU engine matches a row in
 * about the time the backend's own LIKE takes (measured: 94 ms for 1 M rows
 * of 65 bytes on 2 threads, against 517 ms for a sequential scan), which
 * PostgreSQL prices at cpu_operator_cost.  A GPU streams the column from
 * device memory at hundreds of GB/s: a hundredth of that is generous.
 */
#define GL_CPU_ENGINE_ROW_COST	(cpu_operator_cost)
#define GL_GPU_ENGINE_ROW_COST	(0.01 * cpu_operator_cost)

/*
 * CPU cost of fetching one candidate by TID, beyond the cpu_tuple_cost every
 * scan pays: a buffer lookup, pin, lock and visibility check per tuple,
 * where a sequential scan pays them once per page.  Measured on the CPU
 * engine: about 1 us per candidate, against about 0.5 us per row for a
 * sequential scan evaluating a LIKE (which PostgreSQL costs at about
 * 0.025), hence 4 * cpu_tuple_cost.
 */
#define GL_FETCH_ROW_COST	(4.0 * cpu_tuple_cost)

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

static Plan *plan_gpulike_path(PlannerInfo *root, RelOptInfo *rel,
							   CustomPath *best_path, List *tlist,
							   List *clauses, List *custom_plans);

static const CustomPathMethods gpulike_path_methods = {
	.CustomName = GL_SCAN_NAME,
	.PlanCustomPath = plan_gpulike_path,
};

/*
 * Heap cost of fetching ncandidates sorted TIDs from rel, as a bitmap heap
 * scan would (see cost_bitmap_heap_scan): the Mackert-Lohman estimate of
 * distinct pages, each costing between random and sequential page cost.
 */
static Cost
candidate_fetch_cost(RelOptInfo *rel, double ncandidates)
{
	double		pages = Max(rel->pages, 1);
	double		pages_fetched;
	double		spc_random_page_cost;
	double		spc_seq_page_cost;
	Cost		cost_per_page;

	get_tablespace_page_costs(rel->reltablespace,
							  &spc_random_page_cost, &spc_seq_page_cost);
	pages_fetched = (2.0 * pages * ncandidates) / (2.0 * pages + ncandidates);
	pages_fetched = Min(ceil(pages_fetched), pages);
	if (pages_fetched >= 2.0)
		cost_per_page = spc_random_page_cost -
			(spc_random_page_cost - spc_seq_page_cost) *
			sqrt(pages_fetched / pages);
	else
		cost_per_page = spc_random_page_cost;
	return Min(pages_fetched * cost_per_page, ncandidates * gl_candidate_cost);
}

static void
cost_gpulike_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *cpath,
				  List *offloaded, List *attnums, bool on_device)
{
	ParamPathInfo *param_info = cpath->path.param_info;
	Selectivity selectivity;
	double		ncandidates;
	QualCost	recheck_cost;
	Cost		startup_cost;
	Cost		run_cost;

	/* other relations' Vars count as constants of unknown value here */
	selectivity = clauselist_selectivity(root, offloaded, rel->relid,
										 JOIN_INNER, NULL);
	ncandidates = clamp_row_est(selectivity * rel->tuples);

	/* every original qual is rechecked on every candidate */
	cost_qual_eval(&recheck_cost, rel->baserestrictinfo, root);
	if (param_info)
	{
		QualCost	join_cost;

		cost_qual_eval(&join_cost, param_info->ppi_clauses, root);
		recheck_cost.startup += join_cost.startup;
		recheck_cost.per_tuple += join_cost.per_tuple;
	}

	startup_cost = gl_request_cost + recheck_cost.startup +
		rel->tuples * list_length(attnums) *
		(on_device ? GL_GPU_ENGINE_ROW_COST : GL_CPU_ENGINE_ROW_COST);
	run_cost = candidate_fetch_cost(rel, ncandidates) +
		ncandidates * (GL_FETCH_ROW_COST + cpu_tuple_cost +
					   recheck_cost.per_tuple);

	/* the projection, as cost_seqscan charges it */
	cpath->path.rows = param_info ? param_info->ppi_rows : rel->rows;
	startup_cost += rel->reltarget->cost.startup;
	run_cost += cpath->path.rows * rel->reltarget->cost.per_tuple;

	cpath->path.startup_cost = startup_cost;
	cpath->path.total_cost = startup_cost + run_cost;
}

/*
 * Offer a GpuLike path evaluating 'offloaded' (a list of expressions,
 * implicitly ANDed), parameterized by required_outer when not empty.
 */
static void
add_gpulike_path(PlannerInfo *root, RelOptInfo *rel, GlOffloadContext *ctx,
				 List *offloaded, Relids required_outer)
{
	CustomPath *cpath = makeNode(CustomPath);
	List	   *attnums = gl_offloaded_attnums(offloaded, rel->relid);

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = rel->reltarget;
	cpath->path.param_info = get_baserel_parampathinfo(root, rel,
														required_outer);
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = false;
	cpath->path.parallel_workers = 0;
	cpath->path.pathkeys = NIL;	/* TID order is heap order, not a sort order */
	/* no backward scans: PostgreSQL adds a Material node for SCROLL cursors */
	cpath->flags = CUSTOMPATH_SUPPORT_PROJECTION;
	cpath->custom_paths = NIL;
	cpath->custom_private = list_make2(offloaded, attnums);
	cpath->methods = &gpulike_path_methods;
	cost_gpulike_path(root, rel, cpath, offloaded, attnums,
					  gl_offload_on_device(ctx, attnums));

	add_path(rel, &cpath->path);
}

/*
 * Join clauses "column OP other_rel.column": for each set of outer
 * relations that such clauses need, a path parameterized by them.  A nested
 * loop then rescans it with the outer row's values, one request per row.
 * The path evaluates the offloadable restriction clauses too, and the
 * offloadable parts of every join clause the parameterization lets it
 * enforce (get_baserel_parampathinfo chooses those).
 */
static void
add_parameterized_paths(PlannerInfo *root, RelOptInfo *rel,
						GlOffloadContext *ctx, List *restriction_parts)
{
	List	   *done = NIL;		/* parameterizations offered already */
	ListCell   *lc;

	foreach(lc, rel->joininfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Relids		pattern_relids;
		Relids		required_outer;
		ParamPathInfo *param_info;
		List	   *offloaded;
		ListCell   *lc2;

		if (rinfo->pseudoconstant ||
			gl_offloadable_part(ctx, rinfo->clause, &pattern_relids) == NULL ||
			bms_is_empty(pattern_relids))
			continue;

		required_outer = bms_union(bms_difference(rinfo->required_relids,
												  rel->relids),
								   rel->lateral_relids);
		foreach(lc2, done)
		{
			if (bms_equal(lfirst(lc2), required_outer))
				break;
		}
		if (lc2 != NULL)
			continue;
		done = lappend(done, required_outer);

		param_info = get_baserel_parampathinfo(root, rel, required_outer);
		offloaded = list_copy(restriction_parts);
		foreach(lc2, param_info->ppi_clauses)
		{
			RestrictInfo *movable = lfirst_node(RestrictInfo, lc2);
			Expr	   *part = gl_offloadable_part(ctx, movable->clause,
												   &pattern_relids);

			if (part != NULL)
				offloaded = lappend(offloaded, part);
		}
		if (list_length(offloaded) > list_length(restriction_parts))
			add_gpulike_path(root, rel, ctx, offloaded, required_outer);
	}
}

static void
add_gpulike_paths(PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte)
{
	Relation	relation;
	GlOffloadContext *ctx;
	List	   *restriction_parts = NIL;
	ListCell   *lc;

	/* the planner holds a lock on every relation it plans */
	relation = table_open(rte->relid, NoLock);

	/* candidate TIDs and their fetch are heap semantics */
	if (relation->rd_rel->relam != HEAP_TABLE_AM_OID)
	{
		table_close(relation, NoLock);
		return;
	}
	ctx = gl_offload_begin(rel, relation);

	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Relids		pattern_relids;
		Expr	   *part;

		if (rinfo->pseudoconstant)
			continue;
		part = gl_offloadable_part(ctx, rinfo->clause, &pattern_relids);
		if (part != NULL)
			restriction_parts = lappend(restriction_parts, part);
	}
	if (restriction_parts != NIL)
		add_gpulike_path(root, rel, ctx, restriction_parts,
						 rel->lateral_relids);

	add_parameterized_paths(root, rel, ctx, restriction_parts);
	table_close(relation, NoLock);
}

static void
gpulike_set_rel_pathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
						 RangeTblEntry *rte)
{
	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);

	/*
	 * Plain tables only (heap ones: see below).  An inheritance or partitioned parent (inh) is
	 * planned as an Append of its children, and each child comes through
	 * here as a relation of its own.  TABLESAMPLE picks its own rows.
	 */
	if (!gl_enabled || !gl_preloaded ||
		rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_RELATION ||
		rte->inh || rte->tablesample != NULL ||
		(rel->baserestrictinfo == NIL && rel->joininfo == NIL) ||
		IS_DUMMY_REL(rel))
		return;

	add_gpulike_paths(root, rel, rte);
}

static Plan *
plan_gpulike_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				  List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);

	/*
	 * All the original quals stay: they are the recheck of every candidate.
	 * Pseudoconstant ones became a gating Result above us already.
	 */
	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = extract_actual_clauses(clauses, false);
	cscan->scan.scanrelid = rel->relid;
	cscan->flags = best_path->flags;
	/*
	 * In custom_exprs as in the qual, createplan.c turns other relations'
	 * Vars into nestloop Params, and setrefs.c adjusts Vars and Params.
	 */
	cscan->custom_exprs = linitial(best_path->custom_private);
	cscan->custom_private = list_make1(lsecond(best_path->custom_private));
	cscan->methods = &gl_scan_methods;
	return &cscan->scan.plan;
}

void
gl_planner_init(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = gpulike_set_rel_pathlist;
}
