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
 * A prepared program as the cache lends it: valid until it is given back
 * (gl_program_cache_release()).  stamp is unique to this preparation on
 * its column for the life of the process (never 0), so a lane's device
 * scratch can tell that it already holds this program's blob and byte
 * DFA (GlMatchResources.resident_stamp).
 */
typedef struct GlCachedProgram
{
	const GlPreparedProgram *pp;
	size_t		shared_limit;	/* the smallest of the parts' devices */
	uint64_t	stamp;
	GlPreparedProgram *uncached;	/* pp when every entry was lent: freed
									 * when given back */
} GlCachedProgram;

/*
 * prog prepared for the parts of dcol (a head part) with choices, from the
 * column's cache or prepared now and cached, lent to the caller until it
 * gives it back; false with a message if prog is malformed or a CUDA call
 * fails (nothing is lent then).  Safe from several threads at once.
 */
extern bool gl_program_cache_lookup(GlDeviceColumn *dcol, const GlProgram *prog,
									const GlPrepareChoices *choices, GlCachedProgram *out,
									char *errbuf, size_t errlen);

/*
 * Give back what a lookup on dcol (a head part) lent.  walk_gave_up: its
 * factored walk gave up on the column, so the program is prepared again
 * without the factored automaton once no match uses it (a failure to
 * prepare keeps the factored preparation: it is exact).
 */
extern void gl_program_cache_release(GlDeviceColumn *dcol, GlCachedProgram *cp,
									 bool walk_gave_up);

/* Free what the column's cache holds (gl_cuda_free()). */
extern void gl_program_cache_free(GlProgramCache *cache);

#endif							/* GPULIKE_PROGRAM_CACHE_H */
