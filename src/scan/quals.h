/*-------------------------------------------------------------------------
 *
 * quals.h
 *	  Which restriction clauses of a relation gpulike can evaluate, and the
 *	  walk over an offloaded expression that the executor turns into a
 *	  request.
 *
 * The planner keeps every original qual in the plan (the executor rechecks
 * them); what it hands the executor in custom_exprs is the offloadable part
 * of each clause: an expression built only of pattern operators over cached
 * columns with patterns fixed for one scan (outer Vars become Params in
 * the plan, see planner.c), LIKE ANY/ALL, and AND/OR/NOT; predicates that
 * say a pattern match in other words become such leaves (idioms.h).  It
 * is a superset of the clause (never a subset), so candidates found with
 * it never miss a row.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_QUALS_H
#define GPULIKE_SCAN_QUALS_H

#include "nodes/pathnodes.h"
#include "utils/relcache.h"

#include "pattern/compile.h"

/* What the search for offloadable clauses of one relation needs. */
typedef struct GlOffloadContext GlOffloadContext;

extern GlOffloadContext *gl_offload_begin(RelOptInfo *rel, Relation relation);

/*
 * The offloadable part of one restriction or join clause of the relation,
 * or NULL; *whole says whether it is the whole clause (true, false and NULL
 * exactly where the clause is), not just a superset of it.  Patterns may
 * read other relations (join clauses): *outer_relids gets those
 * relations, whose values a parameterized path receives from the outer
 * side of a nested loop.
 */
extern Expr *gl_offloadable_part(GlOffloadContext *ctx, Expr *clause,
								 Relids *outer_relids, bool *whole);

/*
 * An OR clause some of whose arms are offloadable whole and the others not
 * at all ("body LIKE '%x%' OR n = 7"): the OR of the offloaded arms, which
 * the server answers exactly, with *others the arms left to PostgreSQL;
 * NULL unless there are arms of both kinds.  A row satisfies the clause
 * exactly when the answer holds it or it satisfies one of *others: a scan
 * that reads every row evaluates only those on the rows the answer does
 * not hold.
 */
extern Expr *gl_offloadable_arms(GlOffloadContext *ctx, Expr *clause,
								 List **others);

/*
 * Why the last clause given to gl_offloadable_part (clause) had nothing
 * offloaded although it reads a cached column: a sentence for a message,
 * or NULL when it reads none.
 */
extern const char *gl_offload_refusal(GlOffloadContext *ctx, Expr *clause);

/* Are all these cached columns resident in GPU memory right now? */
extern bool gl_offload_on_device(GlOffloadContext *ctx, List *attnums);

/* The distinct columns of relation relid an offloaded list reads. */
extern List *gl_offloaded_attnums(List *offloaded, Index relid);

/*
 * One leaf of an offloaded expression, as the executor sees it: "column OP
 * pattern" or "column OP ANY/ALL (array)" -- or "upper(column) LIKE
 * pattern" (op GL_OP_UPPER_LIKE).
 */
typedef struct GlQualLeaf
{
	Index		varno;			/* the column's relation */
	AttrNumber	attnum;
	GlPatternOp op;
	bool		op_negated;		/* !~~, !~~*, !~, !~* */
	bool		is_array;		/* ScalarArrayOpExpr */
	bool		array_use_or;	/* ANY (true) or ALL (false) */
	Oid			collation;
	Expr	   *pattern;		/* evaluated once per scan: text, or text[] */
} GlQualLeaf;

/* Split an offloaded leaf expression (OpExpr or ScalarArrayOpExpr). */
extern void gl_qual_leaf(Expr *expr, GlQualLeaf *leaf);

/* Is expr a leaf (as opposed to a BoolExpr)? */
extern bool gl_qual_is_leaf(Expr *expr);

#endif							/* GPULIKE_SCAN_QUALS_H */
