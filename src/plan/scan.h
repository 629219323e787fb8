/*-------------------------------------------------------------------------
 *
 * scan.h
 *	  The GpuLike custom scan: plan methods and execution state, shared by
 *	  the planner (planner.c), the executor (executor.c) and EXPLAIN
 *	  (explain.c).
 *
 * A CustomScan made by planner.c carries
 *	scan.plan.qual	every original qual: the recheck of each candidate;
 *	custom_exprs	the offloaded expressions (plan/quals.c), implicitly ANDed;
 *	custom_private	list_make1(integer list of the cached columns used).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PLAN_SCAN_H
#define GPULIKE_PLAN_SCAN_H

#include "access/tableam.h"
#include "commands/explain.h"
#include "nodes/execnodes.h"
#include "nodes/extensible.h"

#include "plan/request.h"
#include "server/client.h"

#define GL_SCAN_NAME "GpuLike"

extern const CustomScanMethods gl_scan_methods;

/* How the current pass of the scan produces its rows. */
typedef enum GlScanSource
{
	GL_SOURCE_NONE,				/* no row can match */
	GL_SOURCE_CANDIDATES,		/* the server's candidate TIDs */
	GL_SOURCE_HEAP				/* fallback: every row of the heap */
} GlScanSource;

typedef struct GlScanState
{
	CustomScanState css;
	GlScanExpr *expr;			/* offloaded expression, NOTs pushed down */
	List	   *cached_attnums;
	Bitmapset  *pattern_params; /* PARAM_EXEC ids the patterns use */

	/* the current pass: valid while 'started' */
	bool		started;
	MemoryContext pass_cxt;		/* TIDs, programs; reset by each request */
	GlScanSource source;
	GlTidList  *candidates;
	uint64		next_candidate;
	BlockNumber nblocks;		/* heap size when the pass started */
	TableScanDesc heap_scan;

	/* EXPLAIN ANALYZE: totals over all passes (rescans) */
	List	   *matchers;		/* descriptions from the latest request */
	uint64		requests;
	uint64		answered;		/* requests the server answered */
	uint64		candidates_returned;
	uint64		candidates_invisible;	/* not visible to the snapshot */
	uint64		heap_fallbacks;
	char		fallback_reason[128];	/* the latest one */
	char		engine[96];
	double		engine_ms;
} GlScanState;

extern void gl_explain_scan(CustomScanState *node, List *ancestors,
							ExplainState *es);

#endif							/* GPULIKE_PLAN_SCAN_H */
