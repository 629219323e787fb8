/*-------------------------------------------------------------------------
 *
 * idioms.c
 *	  Predicates that say a pattern match in other words, rewritten as the
 *	  pattern-operator leaf that means exactly the same (see idioms.h).
 *
 * Applications and ORMs spell substring and case-insensitive searches in
 * several ways besides LIKE.  Each one recognised here is, for every row,
 * true, false or NULL exactly where its rewrite is, so the rewrite covers
 * the clause whole: the clause is rechecked only where an answer is lossy.
 *
 *	strpos(col, x) > 0, position(x in col) > 0	col LIKE '%' || esc(x) || '%'
 *	  (also >= 1, <> 0; = 0 is NOT LIKE)
 *	starts_with(col, x), col ^@ x				col LIKE esc(x) || '%'
 *	regexp_like(col, r [, 'i' | 'c'])			col ~ r, col ~* r
 *	lower(col) [NOT] ILIKE p					col [NOT] ILIKE p
 *	lower(col) [NOT] LIKE p, p in lower case	col [NOT] ILIKE p
 *	coalesce(col, '') OP p, '' OP p false		col OP p (not under NOT)
 *
 * esc(x) escapes LIKE's metacharacters (\, % and _) with backslashes, so
 * x matches as a literal: strpos() and starts_with() compare characters
 * byte for byte under a deterministic collation, as LIKE does (a
 * nondeterministic one is refused later, for every leaf).  A NULL x makes
 * both sides NULL, an empty one both true for every non-NULL value.
 *
 * ILIKE is lower(col) LIKE lower(p), PostgreSQL's own definition of it
 * (like.c; byte by byte with the same lower-casing in single-byte
 * encodings), and lower() is idempotent, so lower(col) LIKE p is col ILIKE
 * p wherever lower(p) = p.  p is known to be in lower case when it is
 * lower(e), a constant that lower() leaves alone, a concatenation of such
 * pieces or like_escape() of one, each lower() under the comparison's own
 * collation: the forms Hibernate (lower(col) like lower(?) escape '!')
 * and SQLAlchemy (lower(col) LIKE '%' || lower(?) || '%') send.
 * upper(col) LIKE upper(p) is not ILIKE ('ſ' is upper-cased to 'S' but
 * lower-cased to itself); it is a leaf of its own, GL_OP_UPPER_LIKE
 * (quals.c), matched with upper()'s case classes.
 *
 * coalesce(col, '') OP p, for a constant p that the empty string does not
 * satisfy, is false for a NULL value where col OP p is NULL: the same in a
 * WHERE clause, but not under a NOT, so that rewrite is made only where
 * no NOT is above the clause.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation_d.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type_d.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "pattern/compile.h"
#include "pattern/compile_like.h"
#include "scan/idioms.h"

Node *
gl_strip_relabels(Node *node)
{
	while (node != NULL && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
}

/* A column of relation relid as a text operand (maybe relabelled from varchar). */
static bool
is_column(Node *node, Index relid)
{
	node = gl_strip_relabels(node);
	return IsA(node, Var) && ((Var *) node)->varno == relid &&
		((Var *) node)->varlevelsup == 0 && ((Var *) node)->varattno > 0;
}

/* The function an OpExpr or FuncExpr calls, its arguments and input collation. */
static bool
call_of(Node *node, Oid *funcid, List **args, Oid *collation)
{
	if (IsA(node, FuncExpr))
	{
		*funcid = ((FuncExpr *) node)->funcid;
		*args = ((FuncExpr *) node)->args;
		*collation = ((FuncExpr *) node)->inputcollid;
		return true;
	}
	if (IsA(node, OpExpr))
	{
		*funcid = get_opcode(((OpExpr *) node)->opno);
		*args = ((OpExpr *) node)->args;
		*collation = ((OpExpr *) node)->inputcollid;
		return true;
	}
	return false;
}

static Expr *
text_call(Oid funcid, List *args, Oid collation)
{
	return (Expr *) makeFuncExpr(funcid, TEXTOID, args, collation, collation,
								 COERCE_EXPLICIT_CALL);
}

static Expr *
text_const(const char *s)
{
	return (Expr *) makeConst(TEXTOID, -1, DEFAULT_COLLATION_OID, -1,
							  CStringGetTextDatum(s), false, false);
}

/* x with LIKE's metacharacters escaped, then '%' before it (contains) and after it. */
static Expr *
literal_pattern(Expr *x, bool contains, Oid collation)
{
	Expr	   *escaped = x;

	escaped = text_call(F_REPLACE, list_make3(escaped, text_const("\\"), text_const("\\\\")),
						collation);
	escaped = text_call(F_REPLACE, list_make3(escaped, text_const("%"), text_const("\\%")),
						collation);
	escaped = text_call(F_REPLACE, list_make3(escaped, text_const("_"), text_const("\\_")),
						collation);
	if (contains)
		escaped = text_call(F_TEXTCAT, list_make2(text_const("%"), escaped), collation);
	escaped = text_call(F_TEXTCAT, list_make2(escaped, text_const("%")), collation);
	return (Expr *) eval_const_expressions(NULL, (Node *) escaped);
}

static Expr *
leaf(Oid opno, bool negated, Expr *column, Expr *pattern, Oid collation)
{
	if (negated)
		opno = get_negator(opno);
	return make_opclause(opno, BOOLOID, false, column, pattern, InvalidOid, collation);
}

/*
 * Does "strpos(...) <op> constant" (or "constant <op> strpos(...)") say
 * found (*found true) or not found (false)?  strpos() is 0 when x is not
 * in the value, its position (1 on) when it is.
 */
static bool
says_found(Oid cmpfunc, bool strpos_left, int32 k, bool *found)
{
	if (!strpos_left)			/* k <op> strpos: the same as strpos <op'> k */
	{
		switch (cmpfunc)
		{
			case F_INT4LT:
				cmpfunc = F_INT4GT;
				break;
			case F_INT4LE:
				cmpfunc = F_INT4GE;
				break;
			case F_INT4GT:
				cmpfunc = F_INT4LT;
				break;
			case F_INT4GE:
				cmpfunc = F_INT4LE;
				break;
		}
	}
	*found = true;
	if ((cmpfunc == F_INT4GT && k == 0) || (cmpfunc == F_INT4GE && k == 1) ||
		(cmpfunc == F_INT4NE && k == 0))
		return true;
	*found = false;
	return (cmpfunc == F_INT4EQ && k == 0) || (cmpfunc == F_INT4LT && k == 1) ||
		(cmpfunc == F_INT4LE && k == 0);
}

/* strpos(col, x) or position(x in col) compared with 0 or 1. */
static Expr *
strpos_leaf(Oid cmpfunc, List *cmpargs, Index relid)
{
	Node	   *call;
	Node	   *other;
	Oid			funcid;
	List	   *args;
	Oid			collation;
	bool		found;

	if (list_length(cmpargs) != 2)
		return NULL;
	for (int side = 0; side < 2; side++)
	{
		call = list_nth(cmpargs, side);
		other = list_nth(cmpargs, 1 - side);
		if (!IsA(other, Const) || ((Const *) other)->constisnull ||
			!call_of(call, &funcid, &args, &collation) ||
			(funcid != F_STRPOS && funcid != F_POSITION_TEXT_TEXT) ||
			!is_column(linitial(args), relid) ||
			!says_found(cmpfunc, side == 0, DatumGetInt32(((Const *) other)->constvalue),
						&found))
			continue;
		return leaf(OID_TEXT_LIKE_OP, !found, linitial(args),
					literal_pattern(lsecond(args), true, collation), collation);
	}
	return NULL;
}

/* regexp_like(col, r [, flags]), flags a constant of 'i' and 'c' alone. */
static Expr *
regexp_like_leaf(List *args, Oid collation, Index relid)
{
	bool		icase = false;

	if (!is_column(linitial(args), relid))
		return NULL;
	if (list_length(args) == 3)
	{
		Const	   *flags = (Const *) lthird(args);
		char	   *s;

		if (!IsA(flags, Const) || flags->constisnull)
			return NULL;
		for (s = TextDatumGetCString(flags->constvalue); *s; s++)
		{
			if (*s != 'i' && *s != 'c')
				return NULL;
			icase = *s == 'i';	/* the last one wins */
		}
	}
	return leaf(icase ? OID_TEXT_ICREGEXEQ_OP : OID_TEXT_REGEXEQ_OP, false,
				linitial(args), lsecond(args), collation);
}

/* Is every value of p in lower case under collation (lower(p) = p)? */
static bool
in_lower_case(Node *p, Oid collation)
{
	Oid			funcid;
	List	   *args;
	Oid			call_collation;
	ListCell   *lc;

	p = gl_strip_relabels(p);
	if (IsA(p, Const))
		return ((Const *) p)->constisnull ||
			(((Const *) p)->consttype == TEXTOID &&
			 gl_text_folds_to_itself(DatumGetTextPP(((Const *) p)->constvalue), GL_LIKE_LOWERED,
									 collation));
	if (!call_of(p, &funcid, &args, &call_collation))
		return false;
	if (funcid == F_LOWER_TEXT)
		return call_collation == collation;
	if (funcid == F_LIKE_ESCAPE_TEXT_TEXT)
		return in_lower_case(linitial(args), collation);
	if (funcid != F_TEXTCAT)
		return false;
	foreach(lc, args)
	{
		if (!in_lower_case(lfirst(lc), collation))
			return false;
	}
	return true;
}

/* coalesce(col, '') OP p: col OP p when '' OP p is false. */
static Expr *
coalesced_leaf(OpExpr *op, Index relid)
{
	GlPatternOp pattern_op;
	bool		negated;
	CoalesceExpr *coalesced;
	Node	   *column;
	Const	   *empty;
	Const	   *pattern = lsecond(op->args);

	if (list_length(op->args) != 2 ||
		!gl_pattern_operator(op->opno, &pattern_op, &negated) ||
		!IsA(pattern, Const) || pattern->constisnull || pattern->consttype != TEXTOID)
		return NULL;
	coalesced = (CoalesceExpr *) gl_strip_relabels(linitial(op->args));
	if (!IsA(coalesced, CoalesceExpr) || list_length(coalesced->args) != 2)
		return NULL;
	column = linitial(coalesced->args);
	empty = (Const *) gl_strip_relabels(lsecond(coalesced->args));
	if (!is_column(column, relid) || !IsA(empty, Const) || empty->constisnull ||
		(empty->consttype != TEXTOID && empty->consttype != VARCHAROID) ||
		VARSIZE_ANY_EXHDR(DatumGetTextPP(empty->constvalue)) != 0)
		return NULL;
	if (exprType(column) != TEXTOID)
		column = (Node *) makeRelabelType((Expr *) column, TEXTOID, -1, op->inputcollid,
										  COERCE_IMPLICIT_CAST);
	/* PostgreSQL's own operator says (an invalid pattern raises its error, as it would) */
	if (DatumGetBool(OidFunctionCall2Coll(get_opcode(op->opno), op->inputcollid,
										  empty->constvalue, pattern->constvalue)))
		return NULL;
	return make_opclause(op->opno, BOOLOID, false, (Expr *) column, (Expr *) pattern,
						 InvalidOid, op->inputcollid);
}

/* lower(col) [NOT] LIKE / ILIKE p. */
static Expr *
lowered_leaf(OpExpr *op, Index relid)
{
	GlPatternOp pattern_op;
	bool		negated;
	Oid			funcid;
	List	   *args;
	Oid			lower_collation;

	if (list_length(op->args) != 2 ||
		!gl_pattern_operator(op->opno, &pattern_op, &negated) ||
		(pattern_op != GL_OP_LIKE && pattern_op != GL_OP_ILIKE) ||
		!call_of(linitial(op->args), &funcid, &args, &lower_collation) ||
		funcid != F_LOWER_TEXT || lower_collation != op->inputcollid ||
		!is_column(linitial(args), relid) ||
		exprType(lsecond(op->args)) != TEXTOID)
		return NULL;
	if (pattern_op == GL_OP_LIKE && !in_lower_case(lsecond(op->args), op->inputcollid))
		return NULL;
	return leaf(OID_TEXT_ICLIKE_OP, negated, linitial(args), lsecond(op->args),
				op->inputcollid);
}

Expr *
gl_idiom_as_leaf(Expr *clause, Index relid, bool under_not)
{
	Expr	   *rewritten;

	Oid			funcid;
	List	   *args;
	Oid			collation;

	if (!call_of((Node *) clause, &funcid, &args, &collation))
		return NULL;
	switch (funcid)
	{
		case F_INT4GT:
		case F_INT4GE:
		case F_INT4NE:
		case F_INT4EQ:
		case F_INT4LT:
		case F_INT4LE:
			return strpos_leaf(funcid, args, relid);
		case F_STARTS_WITH:
			if (list_length(args) != 2 || !is_column(linitial(args), relid))
				return NULL;
			return leaf(OID_TEXT_LIKE_OP, false, linitial(args),
						literal_pattern(lsecond(args), false, collation), collation);
		case F_REGEXP_LIKE_TEXT_TEXT:
		case F_REGEXP_LIKE_TEXT_TEXT_TEXT:
			return regexp_like_leaf(args, collation, relid);
		default:
			if (!IsA(clause, OpExpr))
				return NULL;
			rewritten = lowered_leaf((OpExpr *) clause, relid);
			if (rewritten == NULL && !under_not)
				rewritten = coalesced_leaf((OpExpr *) clause, relid);
			return rewritten;
	}
}
