/*-------------------------------------------------------------------------
 *
 * idioms.h
 *	  Predicates that say a pattern match in other words (strpos() > 0,
 *	  starts_with(), regexp_like(), lower(column) LIKE lower(...)), as the
 *	  pattern-operator leaf that means exactly the same.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_IDIOMS_H
#define GPULIKE_SCAN_IDIOMS_H

#include "nodes/primnodes.h"

/*
 * The leaf "column OP pattern" (an OpExpr over a pattern operator, the
 * column a Var of relation relid) true, false and NULL exactly where
 * clause is -- or, unless under_not (a NOT is above the clause), true
 * exactly where it is -- or NULL when clause is no idiom idioms.c knows.
 * The pattern is an expression of the clause's own operands (constants
 * folded).
 */
extern Expr *gl_idiom_as_leaf(Expr *clause, Index relid, bool under_not);

/*
 * node under its RelabelType casts (varchar to text, an explicit ::text):
 * what a predicate's operand is, cast or not.
 */
extern Node *gl_strip_relabels(Node *node);

#endif							/* GPULIKE_SCAN_IDIOMS_H */
