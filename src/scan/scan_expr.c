/*-------------------------------------------------------------------------
 *
 * scan_expr.c
 *	  Turn the offloaded expression of a GpuLike scan into a request for
 *	  the gpulike server, once the pattern values are known.
 *
 * At executor startup the expression is put into negation normal form:
 * NOT is pushed down to the leaves by De Morgan, so a leaf carries a
 * polarity and only AND/OR remain above.  A positive leaf stands for the
 * rows where "column OP pattern" is TRUE, a negated one for the rows where
 * it is FALSE; NULL values are in neither, exactly as in SQL's three-valued
 * logic (see quals.c).
 *
 * When the scan starts (and again on a rescan with new Param values) each
 * leaf's pattern is evaluated and compiled.  A leaf then resolves to
 *
 *	NO_ROWS		the pattern is NULL: the operator yields NULL, never TRUE
 *				or FALSE, so no row qualifies;
 *	ALL_ROWS	the compiler refused the pattern: we know nothing, so every
 *				row is a candidate (the recheck decides);
 *	a program	one compiled leaf for the server.
 *
 * and AND/OR fold those constants the obvious way (AND drops ALL_ROWS and
 * is NO_ROWS if any child is; OR the reverse).  If the whole expression is
 * ALL_ROWS, the scan reads the heap instead of asking the server.  An AND
 * that dropped an ALL_ROWS child asks for a superset of its rows: the
 * request is then lossy, and the executor rechecks every candidate.
 *
 * Array leaves (column OP ANY/ALL (array)) expand into one leaf per element,
 * combined with OR for ANY and AND for ALL, with the roles swapped under
 * negation: NOT (x LIKE ANY (a)) is FALSE(x LIKE a1) AND FALSE(x LIKE a2)...
 * A NULL element can never make ANY true nor ALL false, so it is dropped
 * from a disjunction and empties a conjunction.  An empty array makes ANY
 * false and ALL true for every row, NULL values included.  When the elements
 * form "value matches any of these" (or its negation), the compiler may
 * merge them into one Aho-Corasick program; so may sibling leaves on one
 * column, "c LIKE a OR c LIKE b" and "c NOT LIKE a AND c NOT LIKE b".
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "pattern/compile.h"
#include "registry/registry.h"
#include "scan/scan_expr.h"
#include "scan/sample_estimate.h"

/* A leaf or subexpression once its patterns are compiled. */
typedef enum ResolvedKind
{
	RESOLVED_NO_ROWS,
	RESOLVED_ALL_ROWS,
	RESOLVED_LEAF,
	RESOLVED_AND,
	RESOLVED_OR
} ResolvedKind;

typedef struct Resolved
{
	ResolvedKind kind;
	AttrNumber	attnum;			/* LEAF */
	GlProgram  *program;		/* LEAF */
	bool		negated;		/* LEAF */
	List	   *children;		/* AND, OR */
} Resolved;

typedef struct ResolveContext
{
	Relation	rel;
	ExprContext *econtext;
	bool		constants_only; /* EXPLAIN: don't evaluate Params */
	List	   *matchers;		/* char *, one per leaf */
	bool		lossy;			/* an AND dropped an ALL_ROWS child */
} ResolveContext;

static GlScanExpr *
normalize(Expr *expr, bool negated, PlanState *parent)
{
	GlScanExpr *node = palloc0(sizeof(GlScanExpr));

	if (gl_qual_is_leaf(expr))
	{
		node->kind = GL_SCAN_EXPR_LEAF;
		gl_qual_leaf(expr, &node->leaf);
		node->negated = negated;
		node->pattern_state = ExecInitExpr(node->leaf.pattern, parent);
	}
	else
	{
		BoolExpr   *boolexpr = castNode(BoolExpr, expr);
		ListCell   *lc;

		if (boolexpr->boolop == NOT_EXPR)
		{
			pfree(node);
			return normalize(linitial(boolexpr->args), !negated, parent);
		}
		node->kind = ((boolexpr->boolop == AND_EXPR) != negated) ?
			GL_SCAN_EXPR_AND : GL_SCAN_EXPR_OR;
		foreach(lc, boolexpr->args)
			node->children = lappend(node->children,
									 normalize(lfirst(lc), negated, parent));
	}
	return node;
}

GlScanExpr *
gl_scan_expr_init(List *offloaded, PlanState *parent)
{
	if (list_length(offloaded) == 1)
		return normalize(linitial(offloaded), false, parent);
	return normalize(make_andclause(offloaded), false, parent);
}

static Resolved *
make_resolved(ResolvedKind kind)
{
	Resolved   *r = palloc0(sizeof(Resolved));

	r->kind = kind;
	return r;
}

/* AND or OR of resolved children, folding the constants. */
static Resolved *
combine(ResolveContext *ctx, bool is_and, List *children)
{
	ResolvedKind absorbing = is_and ? RESOLVED_NO_ROWS : RESOLVED_ALL_ROWS;
	ResolvedKind neutral = is_and ? RESOLVED_ALL_ROWS : RESOLVED_NO_ROWS;
	List	   *kept = NIL;
	ListCell   *lc;
	Resolved   *r;

	foreach(lc, children)
	{
		Resolved   *child = lfirst(lc);

		if (child->kind == absorbing)
			return child;
		if (child->kind != neutral)
			kept = lappend(kept, child);
		else if (is_and)
			ctx->lossy = true;
	}
	if (kept == NIL)
		return make_resolved(neutral);
	if (list_length(kept) == 1)
		return linitial(kept);
	r = make_resolved(is_and ? RESOLVED_AND : RESOLVED_OR);
	r->children = kept;
	return r;
}

static void
add_matcher(ResolveContext *ctx, AttrNumber attnum, bool negated,
			const char *what)
{
	char	   *column = get_attname(RelationGetRelid(ctx->rel), attnum, false);

	ctx->matchers = lappend(ctx->matchers,
							psprintf("%s%s: %s", negated ? "NOT " : "",
									 column, what));
}

/* A compiled program as a leaf, or ALL_ROWS if the compiler refused. */
static Resolved *
program_leaf(ResolveContext *ctx, GlScanExpr *node, GlProgram *program,
			 bool negated, const char *refusal)
{
	Resolved   *r;

	if (program == NULL)
	{
		add_matcher(ctx, node->leaf.attnum, negated,
					psprintf("PostgreSQL (%s)", refusal ? refusal : "refused"));
		return make_resolved(RESOLVED_ALL_ROWS);
	}
	add_matcher(ctx, node->leaf.attnum, negated, gl_program_describe(program));
	r = make_resolved(RESOLVED_LEAF);
	r->attnum = node->leaf.attnum;
	r->program = program;
	r->negated = negated;
	return r;
}

static Resolved *
resolve_array(ResolveContext *ctx, GlScanExpr *node, Datum array_datum)
{
	ArrayType  *array = DatumGetArrayTypeP(array_datum);
	GlQualLeaf *leaf = &node->leaf;
	bool		disjunction = leaf->array_use_or != node->negated;
	bool		negated = leaf->op_negated != node->negated;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elems;
	bool	   *nulls;
	int			nelems;
	text	  **patterns;
	int			npatterns = 0;
	List	   *singles = NIL;

	get_typlenbyvalalign(ARR_ELEMTYPE(array), &typlen, &typbyval, &typalign);
	deconstruct_array(array, ARR_ELEMTYPE(array), typlen, typbyval, typalign,
					  &elems, &nulls, &nelems);

	patterns = palloc(sizeof(text *) * Max(nelems, 1));
	for (int i = 0; i < nelems; i++)
	{
		if (!nulls[i])
			patterns[npatterns++] = DatumGetTextP(elems[i]);
		else if (!disjunction)
		{
			add_matcher(ctx, leaf->attnum, negated, "none (NULL array element)");
			return make_resolved(RESOLVED_NO_ROWS);
		}
	}
	if (npatterns == 0)
		return make_resolved(disjunction ? RESOLVED_NO_ROWS : RESOLVED_ALL_ROWS);

	/* "matches any" or "matches none": one multi-pattern program, maybe */
	if (npatterns > 1 && disjunction != negated)
	{
		const char *refusal = NULL;
		GlProgram  *program = gl_compile_any(leaf->op, patterns, npatterns,
											 leaf->collation, &refusal);

		if (program != NULL)
			return program_leaf(ctx, node, program, negated, NULL);
	}
	for (int i = 0; i < npatterns; i++)
	{
		const char *refusal = NULL;
		GlProgram  *program = gl_compile_pattern(leaf->op, patterns[i],
												 leaf->collation, &refusal);

		singles = lappend(singles,
						  program_leaf(ctx, node, program, negated, refusal));
	}
	return combine(ctx, !disjunction, singles);
}

/* Is a leaf true where its operator is FALSE (NOT, or a negator like !~~)? */
static bool
leaf_negated(GlScanExpr *node)
{
	return node->negated != node->leaf.op_negated;
}

/*
 * Evaluate a leaf's pattern.  False when it cannot be known yet (EXPLAIN
 * without ANALYZE, for a pattern that is not a constant).
 */
static bool
evaluate_pattern(ResolveContext *ctx, GlScanExpr *node, Datum *value,
				 bool *isnull)
{
	Node	   *pattern = (Node *) node->leaf.pattern;

	while (IsA(pattern, RelabelType))
		pattern = (Node *) ((RelabelType *) pattern)->arg;
	if (ctx->constants_only && !IsA(pattern, Const))
		return false;
	*value = ExecEvalExprSwitchContext(node->pattern_state, ctx->econtext,
									   isnull);
	return true;
}

static Resolved *
resolve_leaf(ResolveContext *ctx, GlScanExpr *node)
{
	Datum		value;
	bool		isnull;
	const char *refusal = NULL;
	GlProgram  *program;

	if (!evaluate_pattern(ctx, node, &value, &isnull))
	{
		add_matcher(ctx, node->leaf.attnum, leaf_negated(node),
					"compiled at execution");
		return make_resolved(RESOLVED_ALL_ROWS);
	}
	if (isnull)
	{
		add_matcher(ctx, node->leaf.attnum, leaf_negated(node),
					"none (NULL pattern)");
		return make_resolved(RESOLVED_NO_ROWS);
	}
	if (node->leaf.is_array)
		return resolve_array(ctx, node, value);

	program = gl_compile_pattern(node->leaf.op, DatumGetTextP(value),
								 node->leaf.collation, &refusal);
	return program_leaf(ctx, node, program, leaf_negated(node), refusal);
}

/*
 * Under an OR, positive leaves "column OP pattern" on one column (same
 * operator and collation) say "matches any of these patterns"; under an
 * AND, negated ones say "matches none of them".  Both are one multi-pattern
 * program (Aho-Corasick), positive or negated, when the compiler can make
 * one: one pass over the column instead of one per pattern.
 */
static bool
mergeable_leaf(GlScanExpr *node, bool is_and)
{
	return node->kind == GL_SCAN_EXPR_LEAF && !node->leaf.is_array &&
		leaf_negated(node) == is_and;
}

static bool
same_column_and_operator(GlScanExpr *a, GlScanExpr *b)
{
	return a->leaf.attnum == b->leaf.attnum && a->leaf.op == b->leaf.op &&
		a->leaf.collation == b->leaf.collation;
}

/*
 * Try to merge 'group' (mergeable leaves of one column and operator) into
 * one program; NULL when some pattern is NULL or unknown, or the compiler
 * cannot merge them (the caller then resolves them one by one).
 */
static Resolved *
resolve_merged(ResolveContext *ctx, List *group)
{
	GlScanExpr *first = linitial(group);
	text	  **patterns = palloc(sizeof(text *) * list_length(group));
	int			npatterns = 0;
	const char *refusal = NULL;
	GlProgram  *program;
	ListCell   *lc;

	foreach(lc, group)
	{
		Datum		value;
		bool		isnull;

		if (!evaluate_pattern(ctx, lfirst(lc), &value, &isnull) || isnull)
			return NULL;
		patterns[npatterns++] = DatumGetTextP(value);
	}
	program = gl_compile_any(first->leaf.op, patterns, npatterns,
							 first->leaf.collation, &refusal);
	if (program == NULL)
		return NULL;
	return program_leaf(ctx, first, program, leaf_negated(first), NULL);
}

static Resolved *
resolve(ResolveContext *ctx, GlScanExpr *node)
{
	bool		is_and = node->kind == GL_SCAN_EXPR_AND;
	List	   *pending;
	List	   *children = NIL;

	check_stack_depth();
	if (node->kind == GL_SCAN_EXPR_LEAF)
		return resolve_leaf(ctx, node);

	pending = list_copy(node->children);
	while (pending != NIL)
	{
		GlScanExpr *child = linitial(pending);
		List	   *group = list_make1(child);
		Resolved   *merged = NULL;
		ListCell   *lc;

		pending = list_delete_first(pending);
		if (mergeable_leaf(child, is_and))
		{
			foreach(lc, pending)
			{
				GlScanExpr *other = lfirst(lc);

				if (mergeable_leaf(other, is_and) &&
					same_column_and_operator(child, other))
				{
					group = lappend(group, other);
					pending = foreach_delete_current(pending, lc);
				}
			}
			if (list_length(group) > 1)
				merged = resolve_merged(ctx, group);
		}
		if (merged != NULL)
			children = lappend(children, merged);
		else
		{
			foreach(lc, group)
				children = lappend(children, resolve(ctx, lfirst(lc)));
		}
	}
	return combine(ctx, is_and, children);
}

/*
 * Postfix: operands first, then the operator that pops them.  Each leaf's
 * column is resolved to its registry slot and the generation of its ready
 * copy now, as the request is built: the server answers from that copy
 * only.
 */
static void
emit(GlRequest *request, Relation rel, Resolved *r)
{
	GlCacheInfo info;
	ListCell   *lc;

	check_stack_depth();
	switch (r->kind)
	{
		case RESOLVED_LEAF:
			if (gl_cache_usable(rel, r->attnum, &info))
				gl_request_add_leaf(request, info.slot, info.generation,
									r->program, r->negated);
			else
				gl_request_unanswerable(request,
										"the column's gpulike cache is not ready");
			break;
		case RESOLVED_AND:
		case RESOLVED_OR:
			foreach(lc, r->children)
				emit(request, rel, lfirst(lc));
			if (r->kind == RESOLVED_AND)
				gl_request_add_and(request, list_length(r->children));
			else
				gl_request_add_or(request, list_length(r->children));
			break;
		default:
			elog(ERROR, "gpulike: constant left in a resolved expression");
	}
}

GlRequestShape
gl_scan_expr_request(GlScanExpr *expr, Relation rel, ExprContext *econtext,
					 GlRequest **request, List **matchers, bool *lossy)
{
	ResolveContext ctx = {rel, econtext, false, NIL, false};
	Resolved   *resolved = resolve(&ctx, expr);

	*matchers = ctx.matchers;
	*lossy = ctx.lossy;
	*request = NULL;
	if (resolved->kind == RESOLVED_NO_ROWS)
		return GL_REQUEST_NO_ROWS;
	if (resolved->kind == RESOLVED_ALL_ROWS)
		return GL_REQUEST_ALL_ROWS;
	*request = gl_request_begin();
	emit(*request, rel, resolved);
	return GL_REQUEST_BUILT;
}

List *
gl_scan_expr_describe(GlScanExpr *expr, Relation rel, ExprContext *econtext)
{
	ResolveContext ctx = {rel, econtext, true, NIL, false};

	(void) resolve(&ctx, expr);
	return ctx.matchers;
}

char *
gl_join_matchers(List *matchers)
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
