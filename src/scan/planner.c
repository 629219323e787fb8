/*-------------------------------------------------------------------------
 *
 * planner.c
 *	  The GpuLike scan paths: when to offer them, what they cost, and the
 *	  plan node they become.
 *
 * set_rel_pathlist_hook runs after PostgreSQL has built its own paths for a
 * base relation.  For a plain heap table with offloadable restriction
 * clauses over usable column caches (quals.c decides which), we add
 *
 *	- a GpuLike path, parallel-safe when the relation is (it may then run
 *	  inside a worker: the inner side of a parallel join, a subplan);
 *	- a partial, parallel-aware GpuLike path, which the planner can put
 *	  under a Gather: one request, the candidate pages split among the
 *	  participants (parallel_scan.c);
 *	- for join clauses whose pattern comes from another relation, paths
 *	  parameterized by that relation, which a nested loop rescans once per
 *	  outer row;
 *	- when no clause has an offloadable part but an OR has offloadable
 *	  arms beside others ("body LIKE '%x%' OR n = 7"), paths that read
 *	  every row as a sequential scan does, and evaluate only the other
 *	  arms, on the rows the server's answer does not hold (a recheck of
 *	  the other predicate over the rows not matched: the pattern arms,
 *	  usually the costly part, are never evaluated by PostgreSQL);
 *
 * and let add_path() compare them with the sequential, parallel, index and
 * bitmap paths already there; the cheapest wins.  count_paths.c adds
 * count(*) above them.
 *
 * Quals.  A clause whose offloadable part is the whole clause is covered
 * exactly by the request: it goes to the plan's recheck list, evaluated
 * only when an answer is lossy.  Every other clause is a Filter, always
 * evaluated.
 *
 * Cost model, in the planner's units, calibrated so that the cost of each
 * GpuLike path stands to PostgreSQL's estimates of its other scans as the
 * measured times do (test/bench/sweep, on the 2-core CPU machine and the
 * H200 host):
 *
 *	startup	= gpulike.request_cost				one round trip to the server
 *			  + cached rows * columns * engine row cost	(the matching)
 *			  [+ parallel_setup_cost			a partial path whose CPU engine
 *												leaves no core for its workers]
 *	run		= pages read * gpulike.page_cost	the candidates' heap pages
 *			  + candidates * (cpu_tuple_cost		visibility, return
 *							  + Filter [+ recheck when lossy])
 *
 * or, for a path that reads every row,
 *
 *	run		= pages * gpulike.page_cost
 *			  + rows * (cpu_tuple_cost + cpu_operator_cost	the answer's look-up
 *						+ Filter)
 *			  + rows not in the answer * the other arms
 *
 * with candidates = selectivity of the offloaded clauses * rows (counted
 * on a sample of the cached column for a large table, see
 * sample_estimate.c; PostgreSQL's own estimate otherwise), and pages
 * from the Mackert-Lohman estimate of the distinct pages they fall on, as
 * for a bitmap heap scan.  When
 * nothing of the row is needed and the answer is expected exact, pages the
 * visibility map calls all-visible (pg_class.relallvisible) are not read
 * at all.  The answer's pages are read from memory, so a partial path
 * divides both the page and the row work among the participants, where a
 * sequential scan divides only the latter.
 *
 * A parallel plan's workers start while the server matches.  With the GPU
 * that costs nothing extra; with the CPU engine on as many threads as
 * there are cores, the workers' start and the matching take turns on the
 * same cores, and the start is paid twice (measured on 2 cores: a parallel
 * GpuLike plan costs about 15 ms more than the serial one plus its share
 * of the fetch, where a parallel sequential scan's start costs 7.4 ms).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "scan/paths.h"
#include "scan/quals.h"
#include "scan/sample_estimate.h"
#include "scan/scan.h"
#include "settings.h"

/*
 * Planner cost of matching one cached row.  Measured against PostgreSQL's
 * own estimates, whose unit a sequential scan with a LIKE shows to be
 * about 6 microseconds on both machines we measure on (the 2-core CPU
 * machine, the 16-core H200 host): the CPU engine takes 40-50 ns of one
 * thread per row of TPC-H comments, on gpulike.cpu_threads threads of the
 * server; a GPU streams 15 M rows in about a millisecond.
 */
#define GL_CPU_ENGINE_ROW_COST	(3.0 * cpu_operator_cost)
#define GL_GPU_ENGINE_ROW_COST	(0.005 * cpu_operator_cost)

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

static Plan *plan_gpulike_path(PlannerInfo *root, RelOptInfo *rel,
							   CustomPath *best_path, List *tlist,
							   List *clauses, List *custom_plans);

const CustomPathMethods gl_path_methods = {
	.CustomName = GL_SCAN_NAME,
	.PlanCustomPath = plan_gpulike_path,
};

/*
 * How many participants share a partial path's work: the workers, and the
 * leader less and less as it has more workers to serve (the convention of
 * PostgreSQL's own parallel costs) -- but no more than half as many as
 * there are CPUs.  Reading candidate pages is CPU work, and a participant
 * pays for its start and for its first touch of each page of shared
 * memory it reads (a page fault apiece without huge pages) before its
 * share pays off: on the 2-core CPU machine at default settings the
 * parallel GpuLike plan was slower than the serial one at every point of
 * the selectivity sweep that returns rows, by 25-75 ms on 1.5 M rows
 * (test/bench/sweep --scale 1 --defaults), so there it must never look
 * cheaper; on the 16-core H200 host returning the whole table took 457 ms
 * with 6 workers and 307 ms with 12.  A table whose parallel_workers the
 * DBA set is taken at its word: its participants share the work up to the
 * number of CPUs.
 */
double
gl_parallel_divisor(RelOptInfo *rel, int parallel_workers)
{
	double		divisor = parallel_workers;
	double		cpus = gl_online_cpus();

	if (parallel_leader_participation && parallel_workers < 4)
		divisor += 1.0 - 0.3 * parallel_workers;
	return Min(Max(divisor, 1.0),
			   rel->rel_parallel_workers > 0 ? cpus : Max(cpus / 2.0, 1.0));
}

/* Distinct heap pages holding ncandidates of rel's tuples (Mackert-Lohman). */
static double
candidate_pages(RelOptInfo *rel, double ncandidates)
{
	double		pages = Max(rel->pages, 1);
	double		fetched = (2.0 * pages * ncandidates) / (2.0 * pages + ncandidates);

	return Min(ceil(fetched), pages);
}

/* See the header comment; the count paths use it too. */
void
gl_cost_scan(PlannerInfo *root, RelOptInfo *rel, Path *path,
			 const GlScanShape *in, Cost *startup, Cost *run,
			 double *pages_read, double *candidate_pages_out)
{
	Selectivity selectivity;
	double		ncandidates;
	double		pages;
	double		read_fraction = 1.0;
	QualCost	recheck_cost;
	QualCost	filter_cost;
	Cost		per_candidate;
	double		divisor = gl_parallel_divisor(rel, path->parallel_workers);

	/* other relations' Vars count as constants of unknown value here */
	selectivity = in->selectivity >= 0 ? in->selectivity :
		clauselist_selectivity(root, in->offloaded, rel->relid, JOIN_INNER, NULL);
	ncandidates = clamp_row_est(selectivity * rel->tuples);
	pages = candidate_pages(rel, ncandidates);
	*candidate_pages_out = pages;

	cost_qual_eval(&recheck_cost, in->exact_clauses, root);
	cost_qual_eval(&filter_cost, in->filter_clauses, root);
	if (!in->needs_tuple && gl_recheck_choice == GL_RECHECK_AUTO)
		read_fraction = 1.0 - rel->allvisfrac;
	*pages_read = pages * read_fraction;

	*startup = gl_request_cost + filter_cost.startup + recheck_cost.startup +
		rel->tuples * list_length(in->attnums) *
		(in->on_device ? GL_GPU_ENGINE_ROW_COST :
		 GL_CPU_ENGINE_ROW_COST / gl_cpu_engine_threads());
	if (path->parallel_workers > 0 && !in->on_device &&
		gl_cpu_engine_threads() + path->parallel_workers > gl_online_cpus())
		*startup += parallel_setup_cost;

	if (in->others != NIL)
	{
		/* every page and row; the other arms where the answer says no */
		QualCost	others_cost;

		cost_qual_eval(&others_cost, in->others, root);
		*pages_read = *candidate_pages_out = Max(rel->pages, 1);
		*run = *pages_read * gl_page_cost +
			rel->tuples * (cpu_tuple_cost + cpu_operator_cost + filter_cost.per_tuple) +
			Max(rel->tuples - ncandidates, 0) * others_cost.per_tuple;
	}
	else
	{
		/*
		 * Pages read cost a page each; the others a look at the visibility
		 * map.  Candidates cost a visibility check and whatever quals
		 * remain, where they are read or returned; counted rows of unread
		 * pages are free.
		 */
		per_candidate = cpu_tuple_cost + filter_cost.per_tuple +
			(gl_recheck_choice == GL_RECHECK_ALWAYS ? recheck_cost.per_tuple : 0);
		*run = *pages_read * gl_page_cost +
			pages * (1.0 - read_fraction) * cpu_operator_cost +
			ncandidates * (in->counted ? read_fraction : 1.0) * per_candidate;
	}
	*run /= divisor;
}

static void
cost_gpulike_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *cpath,
				  const GlScanShape *in)
{
	ParamPathInfo *param_info = cpath->path.param_info;
	Cost		startup;
	Cost		run;
	double		pages_read;
	double		pages;

	gl_cost_scan(root, rel, &cpath->path, in, &startup, &run, &pages_read, &pages);

	/* the projection, as cost_seqscan charges it */
	cpath->path.rows = param_info ? param_info->ppi_rows : rel->rows;
	if (cpath->path.parallel_workers > 0)
		cpath->path.rows = clamp_row_est(cpath->path.rows /
										 gl_parallel_divisor(rel, cpath->path.parallel_workers));
	startup += rel->reltarget->cost.startup;
	run += cpath->path.rows * rel->reltarget->cost.per_tuple;

	cpath->path.startup_cost = startup;
	cpath->path.total_cost = startup + run;
}

/* Does the relation's output need any of its columns? */
static bool
output_needs_columns(RelOptInfo *rel)
{
	return contain_var_clause((Node *) rel->reltarget->exprs);
}

void
gl_path_shape(RelOptInfo *rel, CustomPath *path, GlScanShape *shape)
{
	ListCell   *lc;

	memset(shape, 0, sizeof(GlScanShape));
	shape->offloaded = linitial(path->custom_private);
	shape->exact_clauses = lsecond(path->custom_private);
	shape->on_device = intVal(lthird(path->custom_private)) != 0;
	shape->selectivity = floatVal(lfourth(path->custom_private));
	shape->others = list_nth(path->custom_private, 4);
	shape->attnums = gl_offloaded_attnums(shape->offloaded, rel->relid);
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

		if (!rinfo->pseudoconstant &&
			!list_member_ptr(shape->exact_clauses, rinfo->clause))
			shape->filter_clauses = lappend(shape->filter_clauses, rinfo);
	}
	shape->needs_tuple = shape->filter_clauses != NIL || shape->others != NIL ||
		output_needs_columns(rel);
}

bool
gl_path_reads_every_row(CustomPath *path)
{
	return list_nth(path->custom_private, 4) != NIL;
}

/*
 * May the server evaluate this clause over every row of the relation?
 * Under row-level security or a security barrier view, quals of a higher
 * security_level than the policy's (the user's own) must not see rows the
 * policy hides unless they are leakproof, which no pattern operator is
 * (LIKE raises an error that depends on the value).  The server's own
 * matching would not leak a value, but what it answers would: the
 * candidates, their pages and the time they take show in EXPLAIN ANALYZE,
 * and the estimate made from them in plain EXPLAIN's costs.  So we offload
 * only what an index scan may use as an index qual -- a clause that could
 * be evaluated ahead of every security qual -- and the others stay in the
 * Filter, evaluated after the policy on each row.
 */
static bool
may_offload(RestrictInfo *rinfo, RelOptInfo *rel)
{
	return !rinfo->pseudoconstant && restriction_is_securely_promotable(rinfo, rel);
}

/*
 * Sort clauses (RestrictInfos) into those the offloaded parts cover
 * exactly and the rest.  A clause covered exactly is evaluated, when at
 * all, before the Filter: only one that may be offloaded at all
 * (may_offload()) is ever covered, and it may come first.
 */
static void
split_clauses(RelOptInfo *rel, GlOffloadContext *ctx, List *clauses,
			  GlScanShape *in)
{
	ListCell   *lc;

	foreach(lc, clauses)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Relids		pattern_relids;
		Expr	   *part = NULL;
		bool		whole = false;

		if (rinfo->pseudoconstant)
			continue;
		if (may_offload(rinfo, rel))
			part = gl_offloadable_part(ctx, rinfo->clause, &pattern_relids, &whole);
		if (part != NULL)
			in->offloaded = lappend(in->offloaded, part);
		if (part != NULL && whole)
			in->exact_clauses = lappend(in->exact_clauses, rinfo->clause);
		else
			in->filter_clauses = lappend(in->filter_clauses, rinfo);
	}
}

static CustomPath *
make_gpulike_path(PlannerInfo *root, RelOptInfo *rel, GlScanShape *in,
				  Relids required_outer, int parallel_workers)
{
	CustomPath *cpath = makeNode(CustomPath);

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = rel->reltarget;
	cpath->path.param_info = get_baserel_parampathinfo(root, rel,
														required_outer);
	cpath->path.parallel_aware = parallel_workers > 0;
	cpath->path.parallel_safe = rel->consider_parallel;
	cpath->path.parallel_workers = parallel_workers;
	cpath->path.pathkeys = NIL;	/* TID order is heap order, not a sort order */
	/* no backward scans: PostgreSQL adds a Material node for SCROLL cursors */
	cpath->flags = CUSTOMPATH_SUPPORT_PROJECTION;
	cpath->custom_paths = NIL;
	cpath->custom_private = list_make5(in->offloaded, in->exact_clauses,
									   makeInteger(in->on_device ? 1 : 0),
									   makeFloat(psprintf("%g", in->selectivity)),
									   in->others);
	cpath->methods = &gl_path_methods;
	cost_gpulike_path(root, rel, cpath, in);
	return cpath;
}

/*
 * Workers for a partial path reading pages_read candidate pages: one per
 * min_parallel_table_scan_size of them, up to max_parallel_workers_per_gather
 * and the number of CPUs.  PostgreSQL gives a heap
 * scan workers by the logarithm of its size, because a scan that reads
 * from disk gains less and less from more readers; the candidate pages are
 * in memory, and their work (visibility, the Filter, the rows returned)
 * divides among the participants nearly evenly: on the 16-core H200 host a
 * 2 % LIKE returning its rows took 63 ms with the 5 workers of the
 * logarithmic rule and 43 ms with 11, the whole table 457 ms with 6 and
 * 307 ms with 12.
 */
static int
parallel_workers_for(double pages_read)
{
	double		per_worker = Max(min_parallel_table_scan_size, 1);
	double		workers = floor(pages_read / per_worker);

	workers = Min(workers, max_parallel_workers_per_gather);
	workers = Min(workers, gl_online_cpus());
	return (int) Max(workers, 0);
}

/*
 * The serial path of a shape whose offloaded parts and clauses are set,
 * and for an unparameterized one the partial path too
 * (parallel_workers_for).
 */
static void
add_paths_for_shape(PlannerInfo *root, RelOptInfo *rel, Relation relation,
					GlOffloadContext *ctx, GlScanShape *in,
					Relids required_outer, bool secured)
{
	CustomPath *serial;

	in->attnums = gl_offloaded_attnums(in->offloaded, rel->relid);
	in->on_device = gl_offload_on_device(ctx, in->attnums);
	in->needs_tuple = in->filter_clauses != NIL || in->others != NIL ||
		output_needs_columns(rel);

	/*
	 * A sample of the rows a policy hides would show through the costs:
	 * under security quals, PostgreSQL's estimate, which there uses no
	 * statistics for a pattern operator (examine_variable()'s acl_ok).
	 */
	if (secured ||
		!gl_sample_selectivity(rel, relation, in->offloaded, &in->selectivity))
		in->selectivity = -1;

	serial = make_gpulike_path(root, rel, in, required_outer, 0);
	add_path(rel, &serial->path);

	if (gl_enable_parallel && rel->consider_parallel &&
		bms_equal(required_outer, rel->lateral_relids) &&
		max_parallel_workers_per_gather > 0)
	{
		Cost		startup;
		Cost		run;
		double		pages_read;
		double		pages;
		int			workers;

		gl_cost_scan(root, rel, &serial->path, in, &startup, &run, &pages_read,
					 &pages);
		workers = rel->rel_parallel_workers > 0 ?
			Min(rel->rel_parallel_workers, max_parallel_workers_per_gather) :
			parallel_workers_for(pages_read);
		if (workers > 0)
			add_partial_path(rel, &make_gpulike_path(root, rel, in,
													 required_outer,
													 workers)->path);
	}
}

/* The paths over the given clauses; false if none has an offloadable part. */
static bool
add_gpulike_paths_for(PlannerInfo *root, RelOptInfo *rel, Relation relation,
					  GlOffloadContext *ctx, List *clauses,
					  Relids required_outer, bool secured)
{
	GlScanShape in = {0};

	split_clauses(rel, ctx, clauses, &in);
	if (in.offloaded == NIL)
		return false;
	add_paths_for_shape(root, rel, relation, ctx, &in, required_outer, secured);
	return true;
}

/*
 * No restriction clause has an offloadable part: the paths that read
 * every row for the first OR with offloadable arms beside others (see the
 * header comment).  The OR is covered exactly by the answer together with
 * its other arms; the other clauses are the Filter.
 */
static void
add_every_row_paths(PlannerInfo *root, RelOptInfo *rel, Relation relation,
					GlOffloadContext *ctx, bool secured)
{
	GlScanShape in = {0};
	ListCell   *lc;

	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Expr	   *arms = NULL;
		List	   *others = NIL;

		if (rinfo->pseudoconstant)
			continue;
		if (in.offloaded == NIL && may_offload(rinfo, rel))
			arms = gl_offloadable_arms(ctx, rinfo->clause, &others);
		if (arms != NULL)
		{
			in.offloaded = list_make1(arms);
			in.exact_clauses = list_make1(rinfo->clause);
			in.others = list_make1(list_length(others) > 1 ?
								   make_orclause(others) : linitial(others));
		}
		else
			in.filter_clauses = lappend(in.filter_clauses, rinfo);
	}
	if (in.offloaded != NIL)
		add_paths_for_shape(root, rel, relation, ctx, &in, rel->lateral_relids,
							secured);
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
add_parameterized_paths(PlannerInfo *root, RelOptInfo *rel, Relation relation,
						GlOffloadContext *ctx, bool secured)
{
	List	   *done = NIL;		/* parameterizations offered already */
	ListCell   *lc;

	foreach(lc, rel->joininfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Relids		pattern_relids;
		bool		whole;
		Relids		required_outer;
		ParamPathInfo *param_info;
		ListCell   *lc2;
		bool		any_offloaded = false;

		if (!may_offload(rinfo, rel) ||
			gl_offloadable_part(ctx, rinfo->clause, &pattern_relids, &whole) == NULL ||
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
		foreach(lc2, param_info->ppi_clauses)
		{
			RestrictInfo *movable = lfirst_node(RestrictInfo, lc2);

			if (may_offload(movable, rel) &&
				gl_offloadable_part(ctx, movable->clause, &pattern_relids, &whole) != NULL)
				any_offloaded = true;
		}
		if (any_offloaded)
			add_gpulike_paths_for(root, rel, relation, ctx,
								  list_concat_copy(rel->baserestrictinfo,
												   param_info->ppi_clauses),
								  required_outer, secured);
	}
}

/*
 * At DEBUG1, say of each clause that reads a cached column of the relation
 * but has nothing the scan can evaluate why not, so that a user who
 * expected a GpuLike plan can see it (client_min_messages = debug1).
 */
static void
report_refusals(RelOptInfo *rel, Relation relation, GlOffloadContext *ctx)
{
	List	   *context = deparse_context_for(RelationGetRelationName(relation),
											  RelationGetRelid(relation));
	ListCell   *lc;

	foreach(lc, list_concat_copy(rel->baserestrictinfo, rel->joininfo))
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Relids		pattern_relids;
		bool		whole;
		const char *why;

		if (rinfo->pseudoconstant)
			continue;
		if (gl_offloadable_part(ctx, rinfo->clause, &pattern_relids, &whole) == NULL)
		{
			List	   *others;

			why = gl_offload_refusal(ctx, rinfo->clause);
			/* an OR read row by row has its pattern arms answered */
			if (gl_offloadable_arms(ctx, rinfo->clause, &others) != NULL)
				why = NULL;
		}
		else if (!may_offload(rinfo, rel))
			why = "row-level security or a security barrier view keeps it after the policy's quals";
		else
			continue;
		if (why != NULL)
			ereport(DEBUG1,
					(errmsg("gpulike does not evaluate \"%s\" on \"%s\"",
							deparse_expression((Node *) rinfo->clause, context, false, false),
							RelationGetRelationName(relation)),
					 errdetail("The predicate is left to PostgreSQL because %s.", why)));
	}
}

static void
add_gpulike_paths(PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte)
{
	Relation	relation;
	GlOffloadContext *ctx;

	/* the planner holds a lock on every relation it plans */
	relation = table_open(rte->relid, NoLock);

	/* candidate TIDs and their fetch are heap semantics */
	if (relation->rd_rel->relam != HEAP_TABLE_AM_OID)
	{
		table_close(relation, NoLock);
		return;
	}
	ctx = gl_offload_begin(rel, relation);
	if (!add_gpulike_paths_for(root, rel, relation, ctx, rel->baserestrictinfo,
							   rel->lateral_relids, rte->securityQuals != NIL))
		add_every_row_paths(root, rel, relation, ctx, rte->securityQuals != NIL);
	add_parameterized_paths(root, rel, relation, ctx, rte->securityQuals != NIL);
	if (message_level_is_interesting(DEBUG1))
		report_refusals(rel, relation, ctx);
	table_close(relation, NoLock);
}

static void
gpulike_set_rel_pathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
						 RangeTblEntry *rte)
{
	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);

	/*
	 * Plain heap tables only.  An inheritance or partitioned parent (inh)
	 * is planned as an Append of its children, and each child comes
	 * through here as a relation of its own.  TABLESAMPLE picks its own
	 * rows.
	 */
	if (!gl_enabled || !gl_preloaded ||
		rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_RELATION ||
		rte->inh || rte->tablesample != NULL ||
		(rel->baserestrictinfo == NIL && rel->joininfo == NIL) ||
		IS_DUMMY_REL(rel))
		return;

	add_gpulike_paths(root, rel, rte);
}

typedef struct OrderedClause
{
	RestrictInfo *rinfo;
	Index		security_level;
	Cost		cost;
	int			position;		/* in the input: keeps the sort stable */
} OrderedClause;

static int
compare_ordered_clauses(const void *a, const void *b)
{
	const OrderedClause *x = a;
	const OrderedClause *y = b;

	if (x->security_level != y->security_level)
		return x->security_level < y->security_level ? -1 : 1;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return x->position - y->position;
}

/*
 * The order of createplan.c's order_qual_clauses(), which a path of
 * another relation (count_paths.c) does not get: a leakproof clause that
 * costs little counts as security level 0 there, as here.
 */
List *
gl_order_clauses(PlannerInfo *root, List *clauses)
{
	int			n = list_length(clauses);
	OrderedClause *items;
	List	   *result = NIL;
	ListCell   *lc;
	int			i = 0;

	if (n <= 1)
		return clauses;
	items = palloc(n * sizeof(OrderedClause));
	foreach(lc, clauses)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		QualCost	cost;

		cost_qual_eval_node(&cost, (Node *) rinfo, root);
		items[i].rinfo = rinfo;
		items[i].cost = cost.per_tuple;
		items[i].security_level =
			rinfo->leakproof && cost.per_tuple < 10 * cpu_operator_cost ? 0 :
			rinfo->security_level;
		items[i].position = i;
		i++;
	}
	qsort(items, n, sizeof(OrderedClause), compare_ordered_clauses);
	for (i = 0; i < n; i++)
		result = lappend(result, items[i].rinfo);
	pfree(items);
	return result;
}

/*
 * The plan's quals: clauses the path's offloaded parts cover exactly go to
 * the recheck list, the others stay the scan's Filter.  Pseudoconstant ones
 * became a gating Result above us already.
 */
void
gl_split_plan_clauses(CustomPath *path, List *clauses, List **recheck,
					  List **filter)
{
	List	   *exact_clauses = lsecond(path->custom_private);
	ListCell   *lc;

	*recheck = NIL;
	*filter = NIL;
	foreach(lc, clauses)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

		if (rinfo->pseudoconstant)
			continue;
		if (list_member_ptr(exact_clauses, rinfo->clause))
			*recheck = lappend(*recheck, rinfo->clause);
		else
			*filter = lappend(*filter, rinfo->clause);
	}
}

static Plan *
plan_gpulike_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				  List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	List	   *offloaded = linitial(best_path->custom_private);
	List	   *recheck;
	List	   *filter;

	gl_split_plan_clauses(best_path, clauses, &recheck, &filter);

	/*
	 * tlist is not final: createplan.c may hand us none (CP_IGNORE_TLIST)
	 * and put its own in our place afterwards, a projection we evaluate.
	 * Whether the rows must be read is decided from the final plan, when
	 * the scan starts (executor.c).
	 */
	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = filter;
	cscan->scan.scanrelid = rel->relid;
	cscan->flags = best_path->flags;

	/*
	 * In custom_exprs as in the qual, createplan.c turns other relations'
	 * Vars into nestloop Params, and setrefs.c adjusts Vars and Params.
	 */
	cscan->custom_exprs = list_make4(offloaded, recheck, NIL,
									 list_nth(best_path->custom_private, 4));
	cscan->custom_private = gl_scan_private(gl_offloaded_attnums(offloaded, rel->relid),
											GL_OUTPUT_ROWS, false);
	cscan->methods = &gl_scan_methods;
	return &cscan->scan.plan;
}

List *
gl_scan_private(List *cached_attnums, GlScanOutput output, bool server_counts)
{
	return list_make3(cached_attnums, makeInteger(output),
					  makeInteger(server_counts ? 1 : 0));
}

void
gl_planner_init(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = gpulike_set_rel_pathlist;
}
