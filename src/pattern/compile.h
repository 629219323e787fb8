/*-------------------------------------------------------------------------
 *
 * compile.h
 *	  Backend-side pattern compiler: (operator, pattern, collation) ->
 *	  GlProgram (program.h).
 *
 * Refusal is always allowed and always correct: a NULL result leaves the
 * predicate to PostgreSQL.  Errors are PostgreSQL's own (an invalid regex
 * raises exactly the error the ~ operator would).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_COMPILE_H
#define GPULIKE_COMPILE_H

#include "program/program.h"

typedef enum GlPatternOp
{
	GL_OP_LIKE,					/* ~~   */
	GL_OP_ILIKE,				/* ~~*  */
	GL_OP_REGEX,				/* ~    */
	GL_OP_IREGEX,				/* ~*   */
	GL_OP_UPPER_LIKE			/* upper(column) ~~ pattern, the pattern in
								 * upper case (no operator of its own) */
} GlPatternOp;

/*
 * Is opno one of the pattern operators gpulike handles (on text, varchar,
 * bpchar or name)?  If so, report which, and whether it is the negator
 * (!~~, !~~*, !~, !~*).
 */
extern bool gl_pattern_operator(Oid opno, GlPatternOp *op, bool *negated);

/* Compile one pattern; palloc'd program, or NULL with *refusal set. */
extern GlProgram *gl_compile_pattern(GlPatternOp op, text *pattern,
									 Oid collation, const char **refusal);

/*
 * Compile "value matches any of these patterns" (LIKE ANY, OR of LIKEs on
 * one column) into one program when they fit one (Aho–Corasick over
 * '%literal%' patterns); NULL with *refusal set otherwise, in which case the
 * caller ORs single-pattern programs.
 */
extern GlProgram *gl_compile_any(GlPatternOp op, text **patterns, int npatterns,
								 Oid collation, const char **refusal);

/* A one-line description for EXPLAIN: "KMP-hybrid, 2 segments", "DFA 14 states". */
extern char *gl_program_describe(const GlProgram *prog);

#endif							/* GPULIKE_COMPILE_H */
