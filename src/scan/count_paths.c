/*-------------------------------------------------------------------------
 *
 * count_paths.c
 *	  count(*) answered by the GpuLike scan itself.
 *
 * SELECT count(*) FROM t WHERE c NOT LIKE '%x%' over 15 M rows: the server
 * answers in milliseconds, and on all-visible pages the executor need not
 * read a single row (heap_pages.c) -- but returning 15 M empty rows to
 * an Aggregate node costs more than everything else together.  So for a
 * query that only counts the rows of one relation, we offer paths in the
 * grouping relation that count inside the scan and return one row:
 *
 *	Custom Scan (GpuLike)				a serial count
 *
 *	Finalize Aggregate					a parallel count: each participant
 *	  -> Gather							returns the count of the pages it
 *		   -> Custom Scan (GpuLike)		claimed, as a partial aggregate
 *
 * The rows counted are exactly those the scan would have returned (same
 * passes, same quals): only the hand-over changes.
 *
 * What qualifies: no GROUP BY, grouping sets or HAVING; every aggregate is
 * count(*) or count() of a non-NULL constant, with no DISTINCT, ORDER BY or
 * FILTER; the input is one base relation with a GpuLike path, and no
 * pseudoconstant qual (one without the relation's columns, such as a NULL
 * that a parameter folded to): the planner evaluates those once, in a
 * gating Result that createplan.c puts above a scan of the relation, and
 * a path of the grouping relation gets none.  Expressions over the counts
 * (count(*) > 0) are fine: the plan's target list computes them from the
 * count.
 *
 * The plan node has no scan relation (scanrelid 0): its scan tuple is
 * custom_scan_tlist, the count Aggrefs first -- setrefs.c then turns the
 * Aggrefs of the target list into references to them -- and the
 * relation's Vars its quals use after them, since setrefs.c insists on
 * finding those there too (the executor turns them back, executor.c).
 * Those Vars also tell the executor which relation to count: setrefs.c
 * renumbers them for the final range table, and custom_relids is the
 * grouping relation's (empty) set.
 *
 * PostgreSQL 15 calls create_upper_paths_hook for the grouping relation
 * but not for the partially grouped one, so the parallel count is built
 * whole here: our partial path in the partially grouped relation, a Gather,
 * and the Finalize Aggregate in the grouping relation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planner.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "utils/fmgroids.h"

#include "scan/paths.h"
#include "scan/quals.h"
#include "scan/scan.h"
#include "settings.h"

static create_upper_paths_hook_type prev_create_upper_paths_hook = NULL;

static Plan *plan_count_path(PlannerInfo *root, RelOptInfo *rel,
							 CustomPath *best_path, List *tlist,
							 List *clauses, List *custom_plans);

static const CustomPathMethods count_path_methods = {
	.CustomName = GL_SCAN_NAME,
	.PlanCustomPath = plan_count_path,
};

static bool
is_row_count(Aggref *aggref, AggSplit split)
{
	Node	   *arg;

	if (aggref->aggsplit != split || aggref->agglevelsup != 0 ||
		aggref->aggdistinct != NIL || aggref->aggorder != NIL ||
		aggref->aggfilter != NULL)
		return false;
	if (aggref->aggfnoid == F_COUNT_)
		return true;
	if (aggref->aggfnoid != F_COUNT_ANY || list_length(aggref->args) != 1)
		return false;
	arg = (Node *) ((TargetEntry *) linitial(aggref->args))->expr;
	return IsA(arg, Const) && !((Const *) arg)->constisnull;
}

/* Does node hold anything but constants and plain counts of rows? */
static bool
has_more_than_row_counts(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
		return !is_row_count((Aggref *) node, AGGSPLIT_SIMPLE);
	if (IsA(node, Var) || IsA(node, PlaceHolderVar) ||
		IsA(node, WindowFunc) || IsA(node, SubLink) || IsA(node, SubPlan))
		return true;
	return expression_tree_walker(node, has_more_than_row_counts, context);
}

/* Has rel a qual that a gating Result would evaluate (see above)? */
static bool
has_pseudoconstant_quals(RelOptInfo *rel)
{
	ListCell   *lc;

	foreach(lc, rel->baserestrictinfo)
	{
		if (lfirst_node(RestrictInfo, lc)->pseudoconstant)
			return true;
	}
	return false;
}

/* Our unparameterized path in a list of paths, or NULL. */
static CustomPath *
find_gpulike_path(List *paths)
{
	ListCell   *lc;

	foreach(lc, paths)
	{
		Path	   *path = lfirst(lc);

		if (IsA(path, CustomPath) &&
			((CustomPath *) path)->methods == &gl_path_methods &&
			path->param_info == NULL &&
			!gl_path_reads_every_row((CustomPath *) path))
			return (CustomPath *) path;
	}
	return NULL;
}

/*
 * The server counts the rows (the scan sends it the visibility map's
 * all-visible bits: executor.c) when the candidates are expected on at
 * least one page in this many: below that, looking at each candidate
 * page's bit in the backend costs less than reading the whole map.
 */
#define GL_SERVER_COUNTS_PAGES	8

/*
 * A count path in out_rel over the scan 'base' of rel: its custom_private
 * carries the scan's, then whether the server should count (an Integer),
 * then rel's relid, for plan_count_path.
 */
static CustomPath *
make_count_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *base,
				RelOptInfo *out_rel, PathTarget *target)
{
	CustomPath *cpath = makeNode(CustomPath);
	GlScanShape shape;
	Cost		startup;
	Cost		run;
	double		pages_read;
	double		pages;

	gl_path_shape(rel, base, &shape);
	shape.counted = true;
	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = out_rel;
	cpath->path.pathtarget = target;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = base->path.parallel_aware;
	cpath->path.parallel_safe = base->path.parallel_safe;
	cpath->path.parallel_workers = base->path.parallel_workers;
	cpath->path.pathkeys = NIL;
	cpath->path.rows = 1;
	cpath->flags = 0;
	cpath->custom_paths = NIL;
	cpath->methods = &count_path_methods;

	/* the scan's own cost, less returning its rows, plus one row out */
	gl_cost_scan(root, rel, &base->path, &shape, &startup, &run, &pages_read,
				 &pages);
	cpath->custom_private =
		list_concat_copy(base->custom_private,
						 list_make2(makeInteger(pages >= rel->pages / GL_SERVER_COUNTS_PAGES),
									makeInteger(rel->relid)));
	cpath->path.startup_cost = startup + run;
	cpath->path.total_cost = startup + run + cpu_tuple_cost +
		target->cost.startup + target->cost.per_tuple;
	return cpath;
}

/*
 * The parallel count: a partial count path in the partially grouped
 * relation, under a Gather and a Finalize Aggregate.
 */
static void
add_parallel_count(PlannerInfo *root, RelOptInfo *rel, CustomPath *partial,
				   RelOptInfo *grouped_rel)
{
	RelOptInfo *partial_rel = fetch_upper_rel(root, UPPERREL_PARTIAL_GROUP_AGG,
											  grouped_rel->relids);
	CustomPath *count;
	Path	   *gather;
	AggClauseCosts final_costs;
	double		rows;

	/* PostgreSQL made the partially grouped relation if it considered one */
	if (partial_rel->pathlist == NIL && partial_rel->partial_pathlist == NIL)
		return;
	count = make_count_path(root, rel, partial, partial_rel,
							partial_rel->reltarget);
	rows = partial->path.parallel_workers;
	gather = (Path *) create_gather_path(root, partial_rel, &count->path,
										 partial_rel->reltarget, NULL, &rows);
	get_agg_clause_costs(root, AGGSPLIT_FINAL_DESERIAL, &final_costs);
	add_path(grouped_rel, (Path *)
			 create_agg_path(root, grouped_rel, gather, grouped_rel->reltarget,
							 AGG_PLAIN, AGGSPLIT_FINAL_DESERIAL, NIL, NIL,
							 &final_costs, 1));
}

static void
gpulike_create_upper_paths(PlannerInfo *root, UpperRelationKind stage,
						   RelOptInfo *input_rel, RelOptInfo *output_rel,
						   void *extra)
{
	Query	   *parse = root->parse;
	CustomPath *serial;
	CustomPath *partial;

	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);

	if (stage != UPPERREL_GROUP_AGG || !gl_enabled || !gl_enable_count ||
		input_rel->reloptkind != RELOPT_BASEREL ||
		has_pseudoconstant_quals(input_rel) ||
		parse->groupClause != NIL || parse->groupingSets != NIL ||
		root->hasHavingQual ||
		has_more_than_row_counts((Node *) output_rel->reltarget->exprs, NULL))
		return;

	serial = find_gpulike_path(input_rel->pathlist);
	if (serial != NULL)
		add_path(output_rel, &make_count_path(root, input_rel, serial,
											  output_rel,
											  output_rel->reltarget)->path);
	partial = find_gpulike_path(input_rel->partial_pathlist);
	if (partial != NULL)
		add_parallel_count(root, input_rel, partial, output_rel);
}

/* The relation's Vars the quals use, as resjunk entries after tlist's. */
static List *
add_qual_vars(List *tlist, List *quals)
{
	ListCell   *lc;

	foreach(lc, pull_var_clause((Node *) quals, 0))
	{
		Var		   *var = lfirst_node(Var, lc);

		if (tlist_member((Expr *) var, tlist) == NULL)
			tlist = lappend(tlist, makeTargetEntry((Expr *) var,
												   list_length(tlist) + 1,
												   NULL, true));
	}
	return tlist;
}

/* One entry per distinct count Aggref of the target list. */
static bool
collect_counts(Node *node, List **scan_tlist)
{
	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
	{
		if (tlist_member((Expr *) node, *scan_tlist) == NULL)
			*scan_tlist = lappend(*scan_tlist,
								  makeTargetEntry((Expr *) node,
												  list_length(*scan_tlist) + 1,
												  NULL, false));
		return false;
	}
	return expression_tree_walker(node, collect_counts, scan_tlist);
}

static Plan *
plan_count_path(PlannerInfo *root, RelOptInfo *out_rel, CustomPath *best_path,
				List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	Index		relid = intVal(llast(best_path->custom_private));
	bool		server_counts = intVal(list_nth(best_path->custom_private,
												list_length(best_path->custom_private) - 2)) != 0;
	RelOptInfo *rel = root->simple_rel_array[relid];
	List	   *offloaded = linitial(best_path->custom_private);
	List	   *scan_tlist = NIL;
	List	   *recheck;
	List	   *filter;

	/* in the order a scan's quals get (createplan.c does it for those) */
	gl_split_plan_clauses(best_path, gl_order_clauses(root, rel->baserestrictinfo),
						  &recheck, &filter);
	(void) collect_counts((Node *) tlist, &scan_tlist);
	scan_tlist = add_qual_vars(scan_tlist, list_make3(offloaded, recheck, filter));

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = NIL;
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_exprs = list_make4(offloaded, recheck, filter, NIL);
	cscan->custom_private = gl_scan_private(gl_offloaded_attnums(offloaded, relid),
											GL_OUTPUT_COUNT, server_counts);
	cscan->methods = &gl_scan_methods;
	return &cscan->scan.plan;
}

void
gl_count_paths_init(void)
{
	prev_create_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = gpulike_create_upper_paths;
}
