/*-------------------------------------------------------------------------
 *
 * scan_expr.h
 *	  Execution side of an offloaded expression: evaluate its patterns,
 *	  compile them, and build the request the gpulike server answers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_EXPR_H
#define GPULIKE_SCAN_EXPR_H

#include "nodes/execnodes.h"
#include "utils/relcache.h"

#include "client/client.h"
#include "scan/quals.h"

/*
 * The offloaded expression in negation normal form: NOTs are pushed down
 * into the leaves (De Morgan), so only AND and OR nodes remain above them.
 */
typedef enum GlScanExprKind
{
	GL_SCAN_EXPR_LEAF,
	GL_SCAN_EXPR_AND,
	GL_SCAN_EXPR_OR
} GlScanExprKind;

typedef struct GlScanExpr
{
	GlScanExprKind kind;
	List	   *children;		/* AND, OR: GlScanExpr */
	GlQualLeaf	leaf;			/* LEAF */
	bool		negated;		/* LEAF: an odd number of NOTs above it */
	ExprState  *pattern_state;	/* LEAF: evaluates leaf.pattern */
} GlScanExpr;

/* Build from the plan's custom_exprs (implicitly ANDed). */
extern GlScanExpr *gl_scan_expr_init(List *offloaded, PlanState *parent);

/* What a request for the current pattern values turned out to be. */
typedef enum GlRequestShape
{
	GL_REQUEST_NO_ROWS,			/* no row can satisfy it (a NULL pattern) */
	GL_REQUEST_ALL_ROWS,		/* every row may: some leaf was refused */
	GL_REQUEST_BUILT			/* *request is ready to run */
} GlRequestShape;

/*
 * Evaluate the patterns in econtext, compile them and build a request over
 * rel.  *matchers gets one line per compiled leaf for EXPLAIN; *lossy says
 * that the request asks for a superset of the expression's rows (a refused
 * pattern was left out of an AND).  Allocates in CurrentMemoryContext.
 */
extern GlRequestShape gl_scan_expr_request(GlScanExpr *expr, Relation rel,
										   ExprContext *econtext,
										   GlRequest **request,
										   List **matchers, bool *lossy);

/*
 * For EXPLAIN without ANALYZE: describe the matchers of the leaves whose
 * patterns are constants; the others say they are compiled at execution.
 */
extern List *gl_scan_expr_describe(GlScanExpr *expr, Relation rel,
								   ExprContext *econtext);

/* Matcher descriptions as one line ("; " between: they contain commas). */
extern char *gl_join_matchers(List *matchers);

#endif							/* GPULIKE_SCAN_EXPR_H */
