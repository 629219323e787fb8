/*-------------------------------------------------------------------------
 *
 * explain.c
 *	  EXPLAIN output of the GpuLike custom scan.
 *
 *	Custom Scan (GpuLike) on t
 *	  Filter: (n > 5)						quals the server does not cover
 *	  Rows Removed by Filter: 2				ANALYZE
 *	  Recheck Cond: (c ~~ '%abc%'::text)	the offloaded quals, evaluated
 *											only when the answer is lossy
 *	  Rows Removed by Recheck: 1			ANALYZE, when rechecked
 *	  Other Arms: (n = 7)					an OR's arms the server does not
 *											answer: every row is read, and
 *											these evaluated on the rows the
 *											answer does not hold
 *	  Rows Removed by Other Arms: 9			ANALYZE
 *	  GpuLike Cache: t.c					the cached columns the scan reads
 *	  GpuLike Matcher: c: KMP-hybrid, ...	one entry per compiled leaf
 *	  GpuLike Aggregate: count(*)			when the scan counts (COUNT)
 *	  GpuLike Recheck: none (exact answer)	ANALYZE: or what was rechecked
 *											and why
 *	  GpuLike Requests: 1					ANALYZE
 *	  GpuLike Candidates: 3					ANALYZE: rows the server returned
 *	  GpuLike Candidate Pages: 2			ANALYZE: their heap pages
 *	  Heap Fetches: 2						ANALYZE: candidates whose page
 *											was read
 *	  GpuLike Unread Candidates: 1			ANALYZE: counted, not read: on
 *											pages the visibility map calls
 *											all-visible
 *	  GpuLike Invisible Candidates: 1		ANALYZE: not visible to the snapshot
 *	  GpuLike Heap Fallbacks: 1				ANALYZE, when the heap was read,
 *	  GpuLike Heap Fallback Reason: why		and the latest reason
 *	  GpuLike Engine: cpu (2 threads)		ANALYZE, not in regression mode
 *	  GpuLike Engine Time: 1.234 ms			ANALYZE and TIMING, not in regression mode:
 *	  GpuLike Answer Time: 0.2 ms			the server matching, grouping the
 *	  GpuLike Request Time: 1.9 ms			candidates by page, and the whole
 *											round trip
 *
 * In FORMAT JSON, XML and YAML the matchers are a list, "GpuLike Matchers".
 * PostgreSQL prints the Filter lines of a ROWS scan itself (its
 * scan.plan.qual); a COUNT scan's filter lives in custom_exprs, so we print
 * it.  The ANALYZE figures are totals over all loops and, in a parallel
 * scan, over all participants.  Engine names and times are hidden when
 * gpulike.regression_mode is on, so that expected outputs are the same on
 * CPU and GPU hosts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/makefuncs.h"
#include "nodes/pg_list.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "scan/scan.h"
#include "settings.h"

static List *
cached_column_names(GlScanState *state)
{
	Relation	rel = state->rel;
	List	   *names = NIL;
	ListCell   *lc;

	foreach(lc, state->cached_attnums)
		names = lappend(names,
						psprintf("%s.%s", RelationGetRelationName(rel),
								 get_attname(RelationGetRelid(rel),
											 lfirst_int(lc), false)));
	return names;
}

/* An implicitly-ANDed qual list, as EXPLAIN shows a scan's Filter. */
static void
show_quals(List *quals, const char *label, CustomScanState *node,
		   List *ancestors, ExplainState *es)
{
	List	   *context;
	char	   *text;

	if (quals == NIL)
		return;
	context = set_deparse_context_plan(es->deparse_cxt, node->ss.ps.plan,
									   ancestors);
	text = deparse_expression((Node *) make_ands_explicit(quals), context,
							  es->verbose, false);
	ExplainPropertyText(label, text, es);
}

/* Rows removed by a qual, as PostgreSQL's show_instrumentation_count. */
static void
show_removed(const char *label, double removed, CustomScanState *node,
			 ExplainState *es)
{
	double		nloops = node->ss.ps.instrument ? node->ss.ps.instrument->nloops : 0;

	if (removed > 0 || es->format != EXPLAIN_FORMAT_TEXT)
		ExplainPropertyFloat(label, NULL, nloops > 0 ? removed / nloops : 0,
							 0, es);
}

/* The entries gl_join_matchers joined ("; " occurs in none of them). */
static List *
split_matchers(const char *joined)
{
	List	   *entries = NIL;
	const char *start = joined;
	const char *end;

	while ((end = strstr(start, "; ")) != NULL)
	{
		entries = lappend(entries, pnstrdup(start, end - start));
		start = end + 2;
	}
	return lappend(entries, pstrdup(start));
}

static void
explain_analyze(GlScanState *state, ExplainState *es)
{
	GlScanCounters c = state->counters;

	gl_scan_counters_add(&c, &state->worker_counters);
	ExplainPropertyText("GpuLike Recheck",
						c.rechecked_passes == 0 ? "none (exact answer)" :
						state->recheck_reason, es);
	ExplainPropertyUInteger("GpuLike Requests", NULL, c.requests, es);
	ExplainPropertyUInteger("GpuLike Candidates", NULL, c.candidates, es);
	ExplainPropertyUInteger("GpuLike Candidate Pages", NULL, c.candidate_pages, es);
	ExplainPropertyUInteger("Heap Fetches", NULL, c.heap_fetches, es);
	ExplainPropertyUInteger("GpuLike Unread Candidates", NULL, c.unread, es);
	ExplainPropertyUInteger("GpuLike Invisible Candidates", NULL, c.invisible, es);
	if (c.heap_fallbacks > 0)
	{
		ExplainPropertyUInteger("GpuLike Heap Fallbacks", NULL, c.heap_fallbacks, es);
		ExplainPropertyText("GpuLike Heap Fallback Reason", state->fallback_reason, es);
	}
	/* heap_fallbacks also counts passes that sent no request at all */
	if (!gl_regression_mode && c.answered > 0)
	{
		ExplainPropertyText("GpuLike Engine", state->engine, es);
		if (es->timing)
		{
			ExplainPropertyFloat("GpuLike Build Time", "ms", c.build_ms, 3, es);
			ExplainPropertyFloat("GpuLike Queue Time", "ms", c.queue_ms, 3, es);
			ExplainPropertyFloat("GpuLike Engine Time", "ms", c.engine_ms, 3, es);
			if (c.kernel_ms > 0)
				ExplainPropertyFloat("GpuLike Kernel Time", "ms", c.kernel_ms, 3, es);
			ExplainPropertyFloat("GpuLike Answer Time", "ms", c.answer_ms, 3, es);
			ExplainPropertyFloat("GpuLike Request Time", "ms", c.round_trip_ms, 3, es);
		}
	}
}

void
gl_explain_scan(CustomScanState *node, List *ancestors, ExplainState *es)
{
	GlScanState *state = (GlScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *recheck = lsecond(cscan->custom_exprs);
	List	   *count_filter = lthird(cscan->custom_exprs);
	List	   *other_arms = lfourth(cscan->custom_exprs);
	char	   *matchers;

	if (state->output == GL_OUTPUT_COUNT)
	{
		show_quals(count_filter, "Filter", node, ancestors, es);
		if (es->analyze && count_filter != NIL)
			show_removed("Rows Removed by Filter",
						 node->ss.ps.instrument ? node->ss.ps.instrument->nfiltered1 : 0,
						 node, es);
	}
	show_quals(recheck, "Recheck Cond", node, ancestors, es);
	if (es->analyze && recheck != NIL)
		show_removed("Rows Removed by Recheck",
					 node->ss.ps.instrument ? node->ss.ps.instrument->nfiltered2 : 0,
					 node, es);
	show_quals(other_arms, "Other Arms", node, ancestors, es);
	if (es->analyze && other_arms != NIL)
	{
		GlScanCounters c = state->counters;

		gl_scan_counters_add(&c, &state->worker_counters);
		show_removed("Rows Removed by Other Arms", c.other_arms_removed, node, es);
	}
	ExplainPropertyList("GpuLike Cache", cached_column_names(state), es);

	/* after a run, the programs really used; before, what constants give */
	if (state->matchers != NULL)
		matchers = state->matchers;
	else
		matchers = gl_join_matchers(gl_scan_expr_describe(state->expr, state->rel,
														  node->ss.ps.ps_ExprContext));
	if (matchers[0] != '\0' && es->format == EXPLAIN_FORMAT_TEXT)
		ExplainPropertyText("GpuLike Matcher", matchers, es);
	else if (matchers[0] != '\0')
		ExplainPropertyList("GpuLike Matchers", split_matchers(matchers), es);
	if (state->output == GL_OUTPUT_COUNT)
		ExplainPropertyText("GpuLike Aggregate", "count(*)", es);

	if (es->analyze)
		explain_analyze(state, es);
}
