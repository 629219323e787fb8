/*-------------------------------------------------------------------------
 *
 * compile_regex.h
 *	  Regular expression (~ ~* and SIMILAR TO) -> GL_PROG_DFA program.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_COMPILE_REGEX_H
#define GPULIKE_COMPILE_REGEX_H

#include "program/program.h"

/*
 * Compile with PostgreSQL's own regex compiler (so errors are PostgreSQL's),
 * then determinize.  NULL with *refusal set when the DFA would exceed the
 * state cap or the regex cannot be handled.
 */
extern GlProgram *gl_compile_regex(text *pattern, bool case_insensitive,
								   Oid collation, const char **refusal);

#endif							/* GPULIKE_COMPILE_REGEX_H */
