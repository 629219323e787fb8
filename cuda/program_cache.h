/*-------------------------------------------------------------------------
 *
 * program_cache.h
 *	  The prepared programs a device column keeps for the queries that
 *	  come again (internal to cuda/).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROGRAM_CACHE_H
#define GPULIKE_PROGRAM_CACHE_H

#include "program_prep.h"

/*
 * A prepared program as the cache lends it: valid until the next lookup
 * on the same column.  stamp is unique to this preparation for the life
 * of the process (never 0), so a part's device scratch can tell that it
 * already holds this program's blob and byte DFA
 * (GlMatchResources.resident_stamp).
 */
typedef struct GlCachedProgram
{
	const GlPreparedProgram *pp;
	size_t		shared_limit;	/* the smallest of the parts' devices */
	uint64_t	stamp;
} GlCachedProgram;

/*
 * prog prepared for the parts of dcol (a head part) with choices, from the
 * column's cache or prepared now and cached; false with a message if prog
 * is malformed or a CUDA call fails.
 */
extern bool gl_program_cache_lookup(GlDeviceColumn *dcol, const GlProgram *prog,
									const GlPrepareChoices *choices, GlCachedProgram *out,
									char *errbuf, size_t errlen);

/*
 * The program of the preparation stamp names, whose factored walk gave up
 * on dcol (a head part), prepared again without the factored automaton.
 * Called between matches: the preparation lent for stamp is freed (a
 * failure to prepare keeps it: it is exact).
 */
extern void gl_program_cache_unfactor(GlDeviceColumn *dcol, uint64_t stamp);

/* Free what the column's cache holds (gl_cuda_free()). */
extern void gl_program_cache_free(GlProgramCache *cache);

#endif							/* GPULIKE_PROGRAM_CACHE_H */
