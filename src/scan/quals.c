/*-------------------------------------------------------------------------
 *
 * quals.c
 *	  Find the part of a relation's restriction clauses that gpulike can
 *	  evaluate over its column caches.
 *
 * A leaf is "column OP pattern" where OP is one of the pattern operators
 * (~~ !~~ ~~* !~~* ~ !~ ~* !~*), column is a Var of the scanned relation
 * (possibly relabelled, e.g. varchar -> text) whose cache is usable, and the
 * pattern is an expression the executor evaluates once per scan, as an
 * index scan evaluates its runtime keys: one that reads no column of the
 * scanned relation and calls no volatile function.  That is a Const; a
 * Param -- a value bound to a generic plan, an InitPlan's result, a
 * correlated value; a Var of another relation (a join clause: the planner
 * offers a path parameterized by that relation, and the Var becomes a
 * Param); or anything computed from those, such as '%' || $1 || '%' or
 * lower(w.word).  Or the same with "OP ANY/ALL (array)"; or "upper(column)
 * LIKE pattern", matched with upper()'s case classes (compile_like.c), as
 * Django's case-insensitive lookups send it.  Leaves combine with AND, OR
 * and NOT.
 *
 * The executor rechecks every original qual on every candidate row, so the
 * offloaded expression may be a superset of a clause, never a subset.  That
 * lets us drop a non-offloadable conjunct from an AND, since "A" is a
 * superset of "A AND x".  Under a NOT the roles swap: NOT (A AND x) is
 * NOT A OR NOT x, and dropping x would shrink it; NOT (A OR x) is NOT A AND
 * NOT x, where dropping x is fine.  So we track the polarity (how many NOTs
 * are above us) and drop children only of nodes that act as a conjunction
 * at that polarity.  Every other node needs all of its children.
 *
 * That reasoning holds in SQL's three-valued logic too, because a scan only
 * returns rows where the qual is TRUE: TRUE(NOT x) = FALSE(x),
 * FALSE(A AND B) = FALSE(A) OR FALSE(B), and so on, and the server's leaves
 * are exactly "TRUE" (positive) and "FALSE" (negated): a NULL value
 * satisfies neither.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "pattern/compile.h"
#include "registry/registry.h"
#include "scan/idioms.h"
#include "scan/quals.h"

struct GlOffloadContext
{
	RelOptInfo *rel;
	Relation	relation;
	List	   *cached_attnums; /* known usable */
	List	   *uncached_attnums;	/* known unusable */
	List	   *device_attnums; /* usable and in GPU memory */
	const char *refusal;		/* why a leaf on a cached column was refused */
};

/* Is the column cached and its cache usable?  Asks the registry once. */
static bool
column_is_cached(GlOffloadContext *ctx, AttrNumber attnum)
{
	GlCacheInfo info;

	if (list_member_int(ctx->cached_attnums, attnum))
		return true;
	if (list_member_int(ctx->uncached_attnums, attnum))
		return false;
	if (gl_cache_usable(ctx->relation, attnum, &info))
	{
		ctx->cached_attnums = lappend_int(ctx->cached_attnums, attnum);
		if (info.on_device)
			ctx->device_attnums = lappend_int(ctx->device_attnums, attnum);
		return true;
	}
	ctx->uncached_attnums = lappend_int(ctx->uncached_attnums, attnum);
	return false;
}

/*
 * Why a pattern cannot be evaluated once per scan (see above), or NULL
 * when it can.  A SubPlan is left out (an uncorrelated subquery is an
 * InitPlan's Param by now; a correlated one would run at each rescan with
 * values the scan does not track), and so is a PlaceHolderVar, whose
 * value comes from a join below it.
 */
static const char *
not_scan_constant(Node *pattern, GlOffloadContext *ctx)
{
	ListCell   *lc;

	if (contain_volatile_functions(pattern))
		return "its pattern calls a volatile function";
	if (contain_subplans(pattern))
		return "its pattern holds a subquery that depends on the row";
	foreach(lc, pull_var_clause(pattern, PVC_INCLUDE_PLACEHOLDERS))
	{
		Var		   *var = lfirst(lc);

		if (!IsA(var, Var))
			return "its pattern comes from the nullable side of an outer join";
		if (var->varno == ctx->rel->relid)
			return "its pattern reads the row it is matched against";
	}
	return NULL;
}

bool
gl_qual_is_leaf(Expr *expr)
{
	return IsA(expr, OpExpr) || IsA(expr, ScalarArrayOpExpr);
}

/*
 * The column under upper(column), compared by LIKE under the upper()'s own
 * collation; NULL if node is no such call.
 */
static Node *
uppered_column(Node *node, Oid collation)
{
	FuncExpr   *call = (FuncExpr *) node;

	if (!IsA(call, FuncExpr) || call->funcid != F_UPPER_TEXT ||
		list_length(call->args) != 1 || call->inputcollid != collation)
		return NULL;
	return gl_strip_relabels(linitial(call->args));
}

/*
 * Fill *leaf from an OpExpr or ScalarArrayOpExpr; false when it is not a
 * pattern operator applied to a plain column, or LIKE applied to
 * upper(column) (GL_OP_UPPER_LIKE: Django's case-insensitive lookups).
 */
static bool
split_leaf(Expr *expr, GlQualLeaf *leaf)
{
	Oid			opno;
	List	   *args;
	Node	   *column;
	Node	   *uppered;

	memset(leaf, 0, sizeof(*leaf));
	if (IsA(expr, OpExpr))
	{
		OpExpr	   *opexpr = (OpExpr *) expr;

		opno = opexpr->opno;
		args = opexpr->args;
		leaf->collation = opexpr->inputcollid;
	}
	else if (IsA(expr, ScalarArrayOpExpr))
	{
		ScalarArrayOpExpr *saop = (ScalarArrayOpExpr *) expr;

		opno = saop->opno;
		args = saop->args;
		leaf->collation = saop->inputcollid;
		leaf->is_array = true;
		leaf->array_use_or = saop->useOr;
	}
	else
		return false;

	if (list_length(args) != 2 ||
		!gl_pattern_operator(opno, &leaf->op, &leaf->op_negated))
		return false;

	column = gl_strip_relabels(linitial(args));
	if (leaf->op == GL_OP_LIKE &&
		(uppered = uppered_column(column, leaf->collation)) != NULL)
	{
		column = uppered;
		leaf->op = GL_OP_UPPER_LIKE;
	}
	if (!IsA(column, Var) || ((Var *) column)->varlevelsup != 0 ||
		((Var *) column)->varattno <= 0)
		return false;
	leaf->varno = ((Var *) column)->varno;
	leaf->attnum = ((Var *) column)->varattno;
	leaf->pattern = (Expr *) lsecond(args);
	return true;
}

void
gl_qual_leaf(Expr *expr, GlQualLeaf *leaf)
{
	if (!split_leaf(expr, leaf))
		elog(ERROR, "gpulike: unexpected node in offloaded expression: %d",
			 (int) nodeTag(expr));
}

/*
 * Is the leaf a constant regex the compiler refuses (its automaton would
 * be too large)?  Such a leaf is left to PostgreSQL when planning:
 * otherwise the scan would find out at execution and read the whole heap.
 * The compiler keeps its verdict (compile_regex.c), so planning the same
 * regex again costs a lookup; and an invalid regex raises PostgreSQL's
 * error here, as PostgreSQL's own estimate of it does.
 */
static bool
refused_regex(const GlQualLeaf *leaf)
{
	Const	   *pattern = (Const *) gl_strip_relabels((Node *) leaf->pattern);
	const char *refusal;
	GlProgram  *prog;

	if ((leaf->op != GL_OP_REGEX && leaf->op != GL_OP_IREGEX) || leaf->is_array ||
		!IsA(pattern, Const) || pattern->constisnull)
		return false;
	prog = gl_compile_pattern(leaf->op, DatumGetTextPP(pattern->constvalue),
							  leaf->collation, &refusal);
	if (prog == NULL)
		return true;
	pfree(prog);
	return false;
}

static bool
offloadable_leaf(Expr *expr, GlOffloadContext *ctx)
{
	GlQualLeaf	leaf;
	const char *why;

	if (!split_leaf(expr, &leaf))
		return false;
	if (leaf.varno != ctx->rel->relid || !column_is_cached(ctx, leaf.attnum))
		return false;

	/*
	 * The compiler refuses nondeterministic collations at execution anyway;
	 * not offering a path at all keeps such queries on PostgreSQL's plans.
	 */
	if ((why = not_scan_constant((Node *) leaf.pattern, ctx)) == NULL)
	{
		if (OidIsValid(leaf.collation) && !get_collation_isdeterministic(leaf.collation))
			why = "its collation is nondeterministic";
		else if (refused_regex(&leaf))
			why = "its regex needs a larger automaton than gpulike builds";
	}
	if (why != NULL)
		ctx->refusal = why;
	return why == NULL;
}

/*
 * The offloadable part of clause under the given polarity, or NULL when it
 * has none that is a superset of the clause.  A predicate idioms.c knows
 * becomes its leaf.  *whole is cleared where a part of the clause is left
 * out.
 */
static Expr *
offloadable_part(Expr *clause, bool negated, GlOffloadContext *ctx, bool *whole)
{
	BoolExpr   *boolexpr;
	bool		conjunction;
	List	   *parts = NIL;
	ListCell   *lc;
	Expr	   *idiom;

	check_stack_depth();

	if ((idiom = gl_idiom_as_leaf(clause, ctx->rel->relid, negated)) != NULL)
		return offloadable_leaf(idiom, ctx) ? idiom : NULL;
	if (gl_qual_is_leaf(clause))
		return offloadable_leaf(clause, ctx) ? clause : NULL;
	if (!IsA(clause, BoolExpr))
		return NULL;

	boolexpr = (BoolExpr *) clause;
	if (boolexpr->boolop == NOT_EXPR)
	{
		Expr	   *part = offloadable_part(linitial(boolexpr->args),
											!negated, ctx, whole);

		return part ? make_notclause(part) : NULL;
	}

	conjunction = (boolexpr->boolop == AND_EXPR) != negated;
	foreach(lc, boolexpr->args)
	{
		Expr	   *part = offloadable_part(lfirst(lc), negated, ctx, whole);

		if (part != NULL)
			parts = lappend(parts, part);
		else if (!conjunction)
		{
			if (ctx->refusal == NULL)
				ctx->refusal = negated ? "it is a NOT over an AND with a predicate gpulike cannot evaluate" :
					"it is an OR with a predicate gpulike cannot evaluate";
			return NULL;
		}
		else
			*whole = false;
	}
	if (parts == NIL)
		return NULL;
	if (list_length(parts) == 1)
		return linitial(parts);
	if (boolexpr->boolop == AND_EXPR)
		return make_andclause(parts);
	return make_orclause(parts);
}

GlOffloadContext *
gl_offload_begin(RelOptInfo *rel, Relation relation)
{
	GlOffloadContext *ctx = palloc0(sizeof(GlOffloadContext));

	ctx->rel = rel;
	ctx->relation = relation;
	return ctx;
}

Expr *
gl_offloadable_part(GlOffloadContext *ctx, Expr *clause, Relids *outer_relids,
					bool *whole)
{
	Expr	   *part;
	ListCell   *lc;

	*whole = true;
	ctx->refusal = NULL;
	part = offloadable_part(clause, false, ctx, whole);
	*outer_relids = NULL;
	if (part == NULL)
		return NULL;
	foreach(lc, pull_var_clause((Node *) part, 0))
	{
		Var		   *var = lfirst_node(Var, lc);

		if (var->varno != ctx->rel->relid)
			*outer_relids = bms_add_member(*outer_relids, var->varno);
	}
	return part;
}

Expr *
gl_offloadable_arms(GlOffloadContext *ctx, Expr *clause, List **others)
{
	List	   *arms = NIL;
	ListCell   *lc;

	*others = NIL;
	if (!is_orclause(clause))
		return NULL;
	foreach(lc, ((BoolExpr *) clause)->args)
	{
		Expr	   *arm = lfirst(lc);
		bool		whole = true;
		Expr	   *part = offloadable_part(arm, false, ctx, &whole);

		if (part != NULL && whole)
			arms = lappend(arms, part);
		else
			*others = lappend(*others, arm);
	}
	ctx->refusal = NULL;
	if (arms == NIL || *others == NIL)
		return NULL;
	return list_length(arms) == 1 ? linitial(arms) : make_orclause(arms);
}

const char *
gl_offload_refusal(GlOffloadContext *ctx, Expr *clause)
{
	Bitmapset  *attrs = NULL;
	int			attidx = -1;

	if (ctx->refusal != NULL)
		return ctx->refusal;
	pull_varattnos((Node *) clause, ctx->rel->relid, &attrs);
	while ((attidx = bms_next_member(attrs, attidx)) >= 0)
	{
		AttrNumber	attnum = attidx + FirstLowInvalidHeapAttributeNumber;

		if (attnum > 0 && column_is_cached(ctx, attnum))
			return "it is no pattern match gpulike knows over the cached column itself";
	}
	return NULL;
}

bool
gl_offload_on_device(GlOffloadContext *ctx, List *attnums)
{
	ListCell   *lc;

	foreach(lc, attnums)
	{
		if (!list_member_int(ctx->device_attnums, lfirst_int(lc)))
			return false;
	}
	return true;
}

List *
gl_offloaded_attnums(List *offloaded, Index relid)
{
	Bitmapset  *attrs = NULL;
	List	   *attnums = NIL;
	int			attidx = -1;

	pull_varattnos((Node *) offloaded, relid, &attrs);
	while ((attidx = bms_next_member(attrs, attidx)) >= 0)
		attnums = lappend_int(attnums,
							  attidx + FirstLowInvalidHeapAttributeNumber);
	return attnums;
}
