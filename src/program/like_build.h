/*-------------------------------------------------------------------------
 *
 * like_build.h
 *	  From LIKE pattern bytes to a GL_PROG_LIKE program (program.h).
 *
 * A leaf: plain C, malloc, no PostgreSQL calls, so the unit tests and the
 * CUDA kernel tests can build real programs without a backend.  The backend
 * side (compile_like.c) decides the semantics (which encoding, which case
 * folding) and calls in here with the final pattern bytes.
 *
 * The pattern is read exactly as PostgreSQL's like_match.c reads it: '%'
 * matches any run of characters, '_' exactly one character, and a backslash
 * makes the next character literal.  A pattern ending in a lone backslash is
 * an error (PostgreSQL raises it only for some data, so we refuse instead).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_LIKE_BUILD_H
#define GPULIKE_LIKE_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program/program.h"

/* The most '%'-separated segments a pattern may have. */
#define GL_LIKE_MAX_SEGMENTS 1024

/* The most code points one ILIKE case class may hold (Kelvin: k K U+212A). */
#define GL_MAX_CASE_CLASS	16

/*
 * ILIKE case classes: fill members[] with every code point that a pattern
 * character cp stands for (for PostgreSQL's ILIKE: every x with
 * lower(x) == cp, where cp comes from the already lowered pattern) and
 * return how many, or -1 if there are more than max_members.  An empty
 * class (0) is allowed: that position can never match.
 */
typedef int (*GlCaseClassFn) (void *arg, uint32_t cp, uint32_t *members,
							  int max_members);

/*
 * Build the program.  utf8: the pattern and the values are UTF-8 (else one
 * byte is one character).  case_class NULL: case-sensitive LIKE.  Returns a
 * malloc'd blob, or NULL with *error set to a static message.
 */
extern GlProgram *gl_build_like(const char *pattern, size_t len, bool utf8,
								GlCaseClassFn case_class, void *arg,
								const char **error);

/* The case class of ASCII-only folding (ILIKE under the C collation). */
extern int	gl_ascii_case_class(void *arg, uint32_t cp, uint32_t *members,
								int max_members);

/*
 * Is the pattern '%literal%' (one or more '%' on each side, no '_', no '%'
 * inside)?  If so, copy the literal with escapes resolved into literal
 * (room for len bytes) and set *literal_len.  '%' alone and '%%' count, with
 * an empty literal.
 */
extern bool gl_like_contains_literal(const char *pattern, size_t len,
									 char *literal, size_t *literal_len);

/* UTF-8 helpers shared with the other builders and the engines' tests. */
extern int	gl_utf8_encode(uint32_t cp, char *out);
extern int	gl_utf8_decode(const char *s, size_t len, uint32_t *cp);

#endif							/* GPULIKE_LIKE_BUILD_H */
