/*-------------------------------------------------------------------------
 *
 * paths.h
 *	  What the GpuLike scan paths (planner.c) and the count paths built on
 *	  them (count_paths.c) share.
 *
 * A GpuLike CustomPath keeps in custom_private
 *	list_make5(offloaded	the offloaded parts of its clauses,
 *			   exact_clauses	the clauses those parts cover exactly,
 *			   on_device	Integer: the cached columns are on the GPU,
 *			   selectivity	Float: the share of rows that are candidates,
 *							counted on a sample (sample_estimate.c),
 *							or -1: PostgreSQL's estimate,
 *			   others		NIL, or for a scan of every row (one
 *							expression: their OR) the arms of its one exact
 *							clause, an OR, that the server does not answer
 *							(quals.h, gl_offloadable_arms)).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_PATHS_H
#define GPULIKE_SCAN_PATHS_H

#include "nodes/extensible.h"
#include "nodes/pathnodes.h"
#include "scan/scan.h"

/* What a GpuLike path over one relation evaluates, and how. */
typedef struct GlScanShape
{
	List	   *offloaded;		/* offloaded parts of the clauses */
	List	   *attnums;		/* the cached columns they read */
	List	   *exact_clauses;	/* clauses they cover exactly */
	List	   *filter_clauses; /* RestrictInfos evaluated on every row */
	bool		on_device;		/* all those columns are on the GPU */
	Selectivity selectivity;	/* candidates / rows, or -1: PostgreSQL's */
	bool		needs_tuple;	/* the rel's target or a Filter reads the row
								 * (the cost's guess; the plan decides: executor.c) */
	bool		counted;		/* the rows are counted, not returned */
	List	   *others;			/* NIL, or the arms of the one exact clause
								 * that every row is checked against where the
								 * answer does not hold it */
} GlScanShape;

extern const CustomPathMethods gl_path_methods;

/* Hook the planner (_PG_init): planner.c, and count_paths.c for count(*). */
extern void gl_planner_init(void);
extern void gl_count_paths_init(void);

/* The shape of a GpuLike path of rel (not parameterized). */
extern void gl_path_shape(RelOptInfo *rel, CustomPath *path,
						  GlScanShape *shape);

/* Does this GpuLike path read every row (GlScanShape.others)? */
extern bool gl_path_reads_every_row(CustomPath *path);

/* A GpuLike plan's custom_private (its layout: scan.h). */
extern List *gl_scan_private(List *cached_attnums, GlScanOutput output,
							 bool server_counts);

/* Participants sharing a partial path's work (workers + leader's share). */
extern double gl_parallel_divisor(RelOptInfo *rel, int parallel_workers);

/*
 * Startup and run cost of scanning for the shape's candidates (planner.c's
 * cost model), per participant of path (parallel_workers); *pages_read
 * gets the heap pages it reads in all, *candidate_pages the pages its
 * candidates are expected on.
 */
extern void gl_cost_scan(PlannerInfo *root, RelOptInfo *rel, Path *path,
						 const GlScanShape *shape, Cost *startup, Cost *run,
						 double *pages_read, double *candidate_pages);

/*
 * RestrictInfos in the order of evaluation createplan.c gives a scan's
 * quals: by security level (a policy's before the user's), then by cost.
 */
extern List *gl_order_clauses(PlannerInfo *root, List *clauses);

/* The scan's quals split into the recheck list and the Filter. */
extern void gl_split_plan_clauses(CustomPath *path, List *clauses,
								  List **recheck, List **filter);

#endif							/* GPULIKE_SCAN_PATHS_H */
