/*-------------------------------------------------------------------------
 *
 * scan.h
 *	  The GpuLike custom scan: plan methods and execution state, shared by
 *	  the planner (planner.c, count_paths.c), the executor
 *	  (executor.c, heap_pages.c, parallel_scan.c) and EXPLAIN
 *	  (explain.c).
 *
 * A CustomScan made by the planner carries
 *	scan.plan.qual	ROWS: the quals the offloaded expression does not
 *					cover exactly, always evaluated ("Filter");
 *	custom_exprs	list_make4(offloaded, recheck, count_filter, others):
 *					offloaded	the offloaded expressions (quals.c),
 *								implicitly ANDed: what the server evaluates;
 *					recheck		the quals the offloaded expression covers
 *								exactly: evaluated only when the answer is
 *								lossy ("Recheck Cond");
 *					count_filter COUNT: the other quals (ROWS has them in
 *								scan.plan.qual);
 *					others		ROWS: NIL, or (one expression: their OR)
 *								the arms of the one recheck clause, an OR,
 *								that the server does not answer: the scan
 *								reads every row and evaluates them on the
 *								rows the answer does not hold ("Other
 *								Arms"; planner.c);
 *	custom_private	gl_scan_private(): integer list of the cached columns
 *					used, output (GlScanOutput), server_counts (0/1, COUNT
 *					only): whether to send the visibility map so that the
 *					server counts (executor.c).
 *
 * Whether the rows must be read from the heap is not in the plan's
 * private data: it follows from the final target list and quals, which
 * createplan.c may change after the plan node is made (executor.c).
 *
 * ROWS scans the relation (scanrelid > 0) and returns its rows.  COUNT
 * replaces an aggregate of count(*) over such a scan (count_paths.c):
 * scanrelid is 0, and custom_scan_tlist holds the count Aggrefs and the
 * relation's Vars its quals use (which also name the relation).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_SCAN_H
#define GPULIKE_SCAN_SCAN_H

#include "access/tableam.h"
#include "commands/explain.h"
#include "nodes/execnodes.h"
#include "nodes/extensible.h"
#include "utils/dsa.h"

#include "client/client.h"
#include "scan/answer_lookup.h"
#include "scan/heap_pages.h"
#include "scan/scan_expr.h"

#define GL_SCAN_NAME "GpuLike"

extern const CustomScanMethods gl_scan_methods;

/* Register the custom scan's methods (_PG_init). */
extern void gl_executor_init(void);

/* What the scan returns. */
typedef enum GlScanOutput
{
	GL_OUTPUT_ROWS,				/* the qualifying rows */
	GL_OUTPUT_COUNT				/* one row: how many qualify */
} GlScanOutput;

/* How the current pass of the scan produces its rows. */
typedef enum GlScanSource
{
	GL_SOURCE_NONE,				/* no row can match */
	GL_SOURCE_CANDIDATES,		/* the server's candidate pages */
	GL_SOURCE_HEAP,				/* fallback: every row of the heap */
	GL_SOURCE_HEAP_ANSWERED		/* every row of the heap, the answer deciding
								 * the offloaded arms of an OR */
} GlScanSource;

struct GlSharedScan;

typedef struct GlScanState
{
	CustomScanState css;
	Relation	rel;
	GlScanOutput output;
	GlScanExpr *expr;			/* offloaded expression, NOTs pushed down */
	List	   *cached_attnums;
	Bitmapset  *pattern_params; /* PARAM_EXEC ids the patterns use */
	ExprState  *recheck_quals;	/* when the answer is lossy */
	ExprState  *count_filter;	/* COUNT: the other quals */
	ExprState  *other_arms;		/* ROWS: an OR's arms the answer does not
								 * decide, or NULL */
	bool		needs_tuple;	/* must read every returned row (rows_are_read) */
	bool		server_counts;	/* COUNT: send the visibility map */
	TupleTableSlot *heap_slot;	/* rows read from the heap */
	TupleTableSlot *bare_slot;	/* a row counted without reading it */

	/* the current pass: valid while 'started' */
	bool		started;
	MemoryContext pass_cxt;		/* programs, pages; reset by each pass */
	GlScanSource source;
	bool		recheck;		/* this pass evaluates recheck_quals */
	const char *pages;			/* page records (local or shared memory) */
	uint64		pages_bytes;
	uint64		next_byte;		/* serial: the next record */
	GlPageRun	run;			/* records being worked through */
	GlHeapPage *page;			/* the heap page being returned */
	BlockNumber nblocks;		/* heap size when the pass started */
	Buffer		vmbuffer;
	BufferAccessStrategy bulk_read; /* made for the first pass over many pages */
	TableScanDesc heap_scan;
	GlAnswerLookup *lookup;		/* GL_SOURCE_HEAP_ANSWERED */
	uint64		pass_counted;	/* COUNT: rows the server counted for us */
	bool		count_returned;

	/* parallel-aware scans: state shared by all participants */
	struct GlSharedScan *shared;

	/* EXPLAIN */
	char	   *matchers;		/* the latest pass's, for EXPLAIN */
	GlScanCounters counters;	/* this process, all passes */
	uint64		rows_returned;	/* by this process (gpulike.stat_caches) */
	GlScanCounters worker_counters; /* parallel workers' sums, at the end */
	char		fallback_reason[128];	/* the latest heap fallback */
	char		recheck_reason[64];	/* why the latest pass rechecked */
	char		engine[96];
} GlScanState;

extern void gl_explain_scan(CustomScanState *node, List *ancestors,
							ExplainState *es);

#endif							/* GPULIKE_SCAN_SCAN_H */
