/*-------------------------------------------------------------------------
 *
 * multi_build.h
 *	  From a list of byte strings to a GL_PROG_MULTI Aho–Corasick program.
 *
 * A leaf (plain C, malloc, no PostgreSQL calls) used by the backend
 * compiler for LIKE ANY / OR-ed '%literal%' patterns, and by the unit and
 * kernel tests to build programs without a backend.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_MULTI_BUILD_H
#define GPULIKE_MULTI_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "program/program.h"

/* uint16_t transitions: state numbers must fit. */
#define GL_MULTI_MAX_STATES		65535

/*
 * "Value contains at least one of the literals".  ascii_fold: ASCII letters
 * match either case (exactly ILIKE under the C collation, where lower()
 * touches only A-Z); every other byte matches only itself.  utf8 is recorded
 * in the header for engines that care; matching is bytewise either way.
 * Returns a malloc'd blob, or NULL with *error set to a static message.
 */
extern GlProgram *gl_build_multi(const char *const *literals, const size_t *lens,
								 int nliterals, bool ascii_fold, bool utf8,
								 const char **error);

#endif							/* GPULIKE_MULTI_BUILD_H */
