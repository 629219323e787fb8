/*-------------------------------------------------------------------------
 *
 * case_fold.h
 *	  The inverse of a collation's lower() (or upper()), for exact ILIKE
 *	  (or upper(column) LIKE) case classes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CASE_FOLD_H
#define GPULIKE_CASE_FOLD_H

#include <stdint.h>

typedef struct GlCaseFold GlCaseFold;

/* Shared tables (case_fold.c): called from _PG_init when preloaded. */
extern void gl_case_fold_shmem_register(void);

/*
 * The table of lower() -- or with upper, of upper() -- under a libc
 * collation in a UTF-8 database (built on first use, or copied from
 * another backend's, then kept for the life of the backend), or NULL with
 * *refusal set when that function is not a per-character mapping there.
 */
extern const GlCaseFold *gl_case_fold_for(Oid collation, bool upper, const char **refusal);

/*
 * A GlCaseClassFn (like_build.h) over such a table (arg): every code point
 * x with lower(x) == cp (upper(x) == cp).
 */
extern int	gl_case_fold_class(void *arg, uint32_t cp, uint32_t *members,
							   int max_members);

#endif							/* GPULIKE_CASE_FOLD_H */
