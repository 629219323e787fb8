/*-------------------------------------------------------------------------
 *
 * prepared_cache.h
 *	  The prepared programs a device column keeps for the queries that
 *	  come again (prepared_cache.cc); cuda/program_cache.cu keeps one for
 *	  each device column and says how much shared memory to prepare for.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PREPARED_CACHE_H
#define GPULIKE_PREPARED_CACHE_H

#include "kernel_prep/program_prep.h"

typedef struct GlPreparedCache GlPreparedCache;

/*
 * A prepared program as the cache lends it: valid until it is given back
 * (gl_prepared_cache_release()).  stamp is unique to this preparation in
 * its cache for the life of the process (never 0), so a lane's device
 * scratch can tell that it already holds this program's blob and byte
 * DFA (cuda/device_column.h: GlMatchResources.resident_stamp).
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
 * prog as prepared with choices, lent from *cache (made at the first
 * lookup) into *out with *found true; *found false where the cache does
 * not hold it.  false with a message only when there is no memory for the
 * cache.  Safe from several threads at once, as are the others here.
 */
extern bool gl_prepared_cache_find(GlPreparedCache **cache, const GlProgram *prog,
								   const GlPrepareChoices *choices, GlCachedProgram *out,
								   bool *found, char *errbuf, size_t errlen);

/*
 * prog prepared now with choices, on the column's sample pairs, for
 * shared_limit bytes of a block's shared memory, cached (unless another
 * thread prepared it meanwhile: then that one) and lent into *out; false
 * with a message if prog is malformed (nothing is lent then).
 */
extern bool gl_prepared_cache_add(GlPreparedCache *cache, const GlProgram *prog,
								  const GlPrepareChoices *choices, const GlBytePairs *pairs,
								  size_t shared_limit, GlCachedProgram *out, char *errbuf,
								  size_t errlen);

/*
 * Give back what was lent.  walk_gave_up: its factored walk gave up on the
 * column, so the program is prepared again without the factored automaton
 * once no match uses it (a failure to prepare keeps the factored
 * preparation: it is exact).
 */
extern void gl_prepared_cache_release(GlPreparedCache *cache, GlCachedProgram *cp,
									  bool walk_gave_up);

/* Free what the cache holds, and the cache. */
extern void gl_prepared_cache_free(GlPreparedCache *cache);

#endif							/* GPULIKE_PREPARED_CACHE_H */
