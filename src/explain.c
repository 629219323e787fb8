/*-------------------------------------------------------------------------
 *
 * explain.c
 *	  EXPLAIN output of the GpuLike custom scan.
 *
 *	Custom Scan (GpuLike) on t
 *	  Filter: (c ~~ '%abc%'::text)			every qual, rechecked per candidate
 *	  Rows Removed by Filter: 2				ANALYZE: removed by the recheck
 *	  GpuLike Cache: t.c					the cached columns the scan reads
 *	  GpuLike Matcher: c: KMP-hybrid, ...	one entry per compiled leaf
 *	  GpuLike Requests: 1					ANALYZE
 *	  GpuLike Candidates: 3					ANALYZE: TIDs the server returned
 *	  GpuLike Invisible Candidates: 1		ANALYZE: not visible to the snapshot
 *	  GpuLike Heap Fallbacks: 1 (why)		ANALYZE, when the heap was read
 *	  GpuLike Engine: cpu (2 threads)		ANALYZE, not in regression mode
 *	  GpuLike Engine Time: 1.234 ms			ANALYZE, not in regression mode
 *
 * PostgreSQL prints the Filter and "Rows Removed by Filter" lines itself:
 * the filter of this scan is exactly the recheck.  Engine names and times
 * are hidden when gpulike.regression_mode is on, so that expected outputs
 * are the same on CPU and GPU hosts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/pg_list.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "gpulike.h"
#include "plan/scan.h"

static List *
cached_column_names(GlScanState *state)
{
	Relation	rel = state->css.ss.ss_currentRelation;
	List	   *names = NIL;
	ListCell   *lc;

	foreach(lc, state->cached_attnums)
		names = lappend(names,
						psprintf("%s.%s", RelationGetRelationName(rel),
								 get_attname(RelationGetRelid(rel),
											 lfirst_int(lc), false)));
	return names;
}

/* The matcher descriptions joined; they contain commas themselves. */
static char *
join_matchers(List *matchers)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, matchers)
	{
		if (buf.len > 0)
			appendStringInfoString(&buf, "; ");
		appendStringInfoString(&buf, (char *) lfirst(lc));
	}
	return buf.data;
}

static void
explain_analyze(GlScanState *state, ExplainState *es)
{
	ExplainPropertyUInteger("GpuLike Requests", NULL, state->requests, es);
	ExplainPropertyUInteger("GpuLike Candidates", NULL,
							state->candidates_returned, es);
	ExplainPropertyUInteger("GpuLike Invisible Candidates", NULL,
							state->candidates_invisible, es);
	if (state->heap_fallbacks > 0)
		ExplainPropertyText("GpuLike Heap Fallbacks",
							psprintf(UINT64_FORMAT " (%s)",
									 state->heap_fallbacks,
									 state->fallback_reason),
							es);
	/* heap_fallbacks also counts passes that sent no request at all */
	if (!gl_regression_mode && state->answered > 0)
	{
		ExplainPropertyText("GpuLike Engine", state->engine, es);
		ExplainPropertyFloat("GpuLike Engine Time", "ms",
							 state->engine_ms, 3, es);
	}
}

void
gl_explain_scan(CustomScanState *node, List *ancestors, ExplainState *es)
{
	GlScanState *state = (GlScanState *) node;
	List	   *matchers;

	ExplainPropertyList("GpuLike Cache", cached_column_names(state), es);

	/* after a run, the programs really used; before, what constants give */
	if (state->started)
		matchers = state->matchers;
	else
		matchers = gl_scan_expr_describe(state->expr,
										 node->ss.ss_currentRelation,
										 node->ss.ps.ps_ExprContext);
	if (matchers != NIL)
		ExplainPropertyText("GpuLike Matcher", join_matchers(matchers), es);

	if (es->analyze)
		explain_analyze(state, es);
}
