/*-------------------------------------------------------------------------
 *
 * pattern_sublinks.c
 *	  Subqueries that match a cached column against a table of patterns,
 *	  said as a LIKE ANY over an array of them.
 *
 * Blocklists and keyword lists are tables of patterns, and applications
 * ask which rows match any of them in one of two ways:
 *
 *	WHERE d.body LIKE ANY (SELECT b.pattern FROM blocklist b)
 *	WHERE EXISTS (SELECT 1 FROM blocklist b WHERE d.body LIKE b.pattern)
 *
 * PostgreSQL turns both into a semi-join on "d.body LIKE b.pattern".  No
 * hash or merge join can evaluate that condition, and the semi-join cannot
 * put the patterns on the outer side (that needs them made unique by an
 * equality operator), so the plan is a nested loop that reads every row of
 * d and tries the patterns on each: the GpuLike scan, which needs the
 * patterns before it starts, has no place in it.
 *
 * Both say the same as
 *
 *	WHERE d.body LIKE ANY (ARRAY(SELECT b.pattern FROM blocklist b))
 *
 * whose array is an InitPlan evaluated once: a pattern known when the scan
 * starts, which the GpuLike scan answers in one multi-pattern pass.  So
 * before PostgreSQL plans a query, we rewrite in place (the planner
 * scribbles on its input anyway) the WHERE clause's conjuncts of these two
 * forms where the column is one gpulike caches:
 *
 *	- "expr OP ANY (subquery)", any operator OP of a pattern match: it is
 *	  "expr OP ANY (ARRAY(subquery))" in every context, NULLs included (a
 *	  sublink's ANY and an array's ANY are both true if some comparison is,
 *	  else NULL if some comparison is NULL, else false; an empty set gives
 *	  false).  The subquery must not read the outer query (else its array
 *	  would be built again for each row).
 *
 *	- "EXISTS (SELECT ... FROM f WHERE expr OP p AND q)" as a conjunct of
 *	  the WHERE clause itself (not under NOT or OR): expr a column of the
 *	  outer query, p and q reading only f.  It becomes "expr OP ANY
 *	  (ARRAY(SELECT p FROM f WHERE q))".  Only the truth of the two agrees
 *	  (EXISTS is false where the array's ANY may be NULL), which is all a
 *	  conjunct of WHERE decides.  A subquery whose rows EXISTS would count
 *	  differently from its pattern list -- with aggregates, grouping,
 *	  LIMIT, set-returning functions in its target list, set operations or
 *	  CTEs -- is left alone.
 *
 * Nothing else changes: PostgreSQL then plans the query as it would have
 * been written, the GpuLike scan competing on cost with its other plans.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "pattern/compile.h"
#include "registry/registry.h"
#include "scan/idioms.h"
#include "scan/pattern_sublinks.h"
#include "settings.h"

static planner_hook_type prev_planner_hook = NULL;

static void rewrite_query(Query *query);

/* Is expr, seen from query at levels_up levels below it, a cached column? */
static bool
is_cached_column(Query *query, Expr *expr, Index levels_up)
{
	Var		   *var;
	RangeTblEntry *rte;
	Relation	relation;
	GlCacheInfo info;
	bool		cached;

	expr = (Expr *) gl_strip_relabels((Node *) expr);
	if (!IsA(expr, Var))
		return false;
	var = (Var *) expr;
	if (var->varlevelsup != levels_up || var->varattno <= 0)
		return false;
	rte = rt_fetch(var->varno, query->rtable);
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_RELATION)
		return false;
	/* the parser and the rewriter locked it already */
	relation = table_open(rte->relid, AccessShareLock);
	cached = gl_cache_usable(relation, var->varattno, &info);
	table_close(relation, AccessShareLock);
	return cached;
}

static bool
is_pattern_operator(Oid opno)
{
	GlPatternOp op;
	bool		negated;

	return gl_pattern_operator(opno, &op, &negated);
}

/* "lhs OP ANY (ARRAY(subselect))" */
static Expr *
make_any_of_array(OpExpr *op, Expr *lhs, Query *subselect, int location)
{
	SubLink    *array = makeNode(SubLink);
	ScalarArrayOpExpr *any = makeNode(ScalarArrayOpExpr);

	array->subLinkType = ARRAY_SUBLINK;
	array->subLinkId = 0;
	array->testexpr = NULL;
	array->operName = NIL;
	array->subselect = (Node *) subselect;
	array->location = location;

	any->opno = op->opno;
	any->opfuncid = op->opfuncid;
	any->hashfuncid = InvalidOid;
	any->negfuncid = InvalidOid;
	any->useOr = true;
	any->inputcollid = op->inputcollid;
	any->args = list_make2(lhs, array);
	any->location = location;
	return (Expr *) any;
}

/* The single output column of a subquery, or NULL. */
static TargetEntry *
only_output_column(Query *subselect)
{
	TargetEntry *found = NULL;
	ListCell   *lc;

	foreach(lc, subselect->targetList)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		if (tle->resjunk)
			continue;
		if (found != NULL)
			return NULL;
		found = tle;
	}
	return found;
}

/* "expr OP ANY (subquery)" as an array's ANY, or NULL. */
static Expr *
rewrite_any_sublink(Query *query, SubLink *sublink)
{
	OpExpr	   *op = (OpExpr *) sublink->testexpr;
	Query	   *subselect = (Query *) sublink->subselect;
	TargetEntry *column;
	Param	   *param;

	if (sublink->subLinkType != ANY_SUBLINK || op == NULL || !IsA(op, OpExpr) ||
		list_length(op->args) != 2 || !is_pattern_operator(op->opno))
		return NULL;
	param = lsecond(op->args);
	if (!IsA(param, Param) || param->paramkind != PARAM_SUBLINK ||
		param->paramid != 1)
		return NULL;
	column = only_output_column(subselect);
	if (column == NULL || exprType((Node *) column->expr) != param->paramtype ||
		!OidIsValid(get_array_type(param->paramtype)) ||
		contain_vars_of_level((Node *) subselect, 1) ||
		!is_cached_column(query, linitial(op->args), 0))
		return NULL;
	return make_any_of_array(op, linitial(op->args), subselect, sublink->location);
}

/* May EXISTS over subselect be read as "is one of its pattern rows a match"? */
static bool
exists_is_plain(Query *subselect)
{
	return subselect->commandType == CMD_SELECT &&
		subselect->setOperations == NULL && subselect->cteList == NIL &&
		!subselect->hasAggs && !subselect->hasWindowFuncs &&
		!subselect->hasTargetSRFs && subselect->groupClause == NIL &&
		subselect->groupingSets == NIL && subselect->havingQual == NULL &&
		subselect->windowClause == NIL &&
		subselect->limitCount == NULL && subselect->limitOffset == NULL &&
		subselect->rowMarks == NIL && subselect->jointree != NULL;
}

/* "EXISTS (SELECT ... WHERE expr OP p AND q)" as an array's ANY, or NULL. */
static Expr *
rewrite_exists_sublink(Query *query, SubLink *sublink)
{
	Query	   *subselect = (Query *) sublink->subselect;
	List	   *conjuncts;
	ListCell   *lc;

	if (sublink->subLinkType != EXISTS_SUBLINK || !exists_is_plain(subselect))
		return NULL;
	conjuncts = make_ands_implicit((Expr *) subselect->jointree->quals);
	foreach(lc, conjuncts)
	{
		OpExpr	   *op = lfirst(lc);
		List	   *others;
		Query	   *patterns;
		Expr	   *lhs;
		Expr	   *pattern;

		if (!IsA(op, OpExpr) || list_length(op->args) != 2 ||
			!is_pattern_operator(op->opno))
			continue;
		lhs = linitial(op->args);
		pattern = lsecond(op->args);
		if (!is_cached_column(query, lhs, 1) ||
			contain_vars_of_level((Node *) pattern, 1) ||
			!OidIsValid(get_array_type(exprType((Node *) pattern))))
			continue;

		/* the pattern list: the subquery less this conjunct, p its output */
		others = list_delete_nth_cell(list_copy(conjuncts),
									  foreach_current_index(lc));
		patterns = copyObject(subselect);
		patterns->jointree->quals = others != NIL ?
			(Node *) make_ands_explicit(others) : NULL;
		patterns->targetList = list_make1(makeTargetEntry(copyObject(pattern), 1,
														  pstrdup("pattern"), false));
		patterns->sortClause = NIL;
		patterns->distinctClause = NIL;
		patterns->hasDistinctOn = false;
		if (contain_vars_of_level((Node *) patterns, 1))
			continue;

		lhs = copyObject(lhs);
		IncrementVarSublevelsUp((Node *) lhs, -1, 1);
		return make_any_of_array(op, lhs, patterns, sublink->location);
	}
	return NULL;
}

/* Rewrite the WHERE clause's conjuncts of query; then its subqueries'. */
static bool
rewrite_subqueries(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		rewrite_query((Query *) node);
		return false;
	}
	return expression_tree_walker(node, rewrite_subqueries, context);
}

static void
rewrite_query(Query *query)
{
	List	   *conjuncts;
	ListCell   *lc;
	bool		changed = false;

	check_stack_depth();
	if (query->hasSubLinks && query->jointree != NULL &&
		query->jointree->quals != NULL)
	{
		conjuncts = make_ands_implicit((Expr *) query->jointree->quals);
		foreach(lc, conjuncts)
		{
			SubLink    *sublink = lfirst(lc);
			Expr	   *rewritten = NULL;

			if (!IsA(sublink, SubLink))
				continue;
			rewritten = rewrite_any_sublink(query, sublink);
			if (rewritten == NULL)
				rewritten = rewrite_exists_sublink(query, sublink);
			if (rewritten != NULL)
			{
				lfirst(lc) = rewritten;
				changed = true;
			}
		}
		if (changed)
			query->jointree->quals = (Node *) make_ands_explicit(conjuncts);
	}
	query_tree_walker(query, rewrite_subqueries, NULL, 0);
}

static PlannedStmt *
gpulike_planner(Query *parse, const char *query_string, int cursor_options,
				ParamListInfo bound_params)
{
	/* a subquery in FROM may hold sublinks where its parent holds none */
	if (gl_enabled && gl_preloaded)
		rewrite_query(parse);
	if (prev_planner_hook)
		return prev_planner_hook(parse, query_string, cursor_options, bound_params);
	return standard_planner(parse, query_string, cursor_options, bound_params);
}

void
gl_pattern_sublinks_init(void)
{
	prev_planner_hook = planner_hook;
	planner_hook = gpulike_planner;
}
