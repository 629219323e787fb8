/*-------------------------------------------------------------------------
 *
 * compile_like.h
 *	  Backend side of LIKE / ILIKE compilation (compile_like.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_COMPILE_LIKE_H
#define GPULIKE_COMPILE_LIKE_H

#include "program/program.h"

/* How a LIKE compares a value's characters with the pattern's. */
typedef enum GlLikeFold
{
	GL_LIKE_AS_IS,				/* LIKE */
	GL_LIKE_LOWERED,			/* ILIKE: lower(value) LIKE lower(pattern) */
	GL_LIKE_UPPERED				/* upper(value) LIKE pattern, the pattern in
								 * upper case (upper() leaves it as it is) */
} GlLikeFold;

/*
 * Does the fold's function (lower() or upper()) under collation leave
 * value as it is?  An upper-case pattern's characters are then the images
 * of those that match them.
 */
extern bool gl_text_folds_to_itself(text *value, GlLikeFold fold, Oid collation);

/* One LIKE (or ILIKE, ...) pattern; palloc'd program, or NULL with *refusal. */
extern GlProgram *gl_compile_like(text *pattern, GlLikeFold fold, Oid collation,
								  const char **refusal);

/*
 * "Matches any of these" as one Aho–Corasick program, when every pattern
 * is '%literal%' and the folding is bytewise exact; NULL with *refusal.
 */
extern GlProgram *gl_compile_like_any(text **patterns, int npatterns,
									  bool case_insensitive, Oid collation,
									  const char **refusal);

#endif							/* GPULIKE_COMPILE_LIKE_H */
