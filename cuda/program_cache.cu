/*-------------------------------------------------------------------------
 *
 * program_cache.cu
 *	  A device column's prepared programs, kept for the queries that come
 *	  again.
 *
 * Preparing a program (program_prep.cu) is host work on the critical
 * path of every request, before the first kernel can start: the sieve
 * counts its candidate probes on the column's text sample, a fresh
 * multi-segment or ILIKE pattern builds its byte DFA, and the smallest
 * shared memory of the parts' devices is asked of the driver.  On an
 * H100 host a selective LIKE's request ('%carefully final deposits%', 15
 * M rows) took 0.35-0.38 ms preparing its program each time, 0.32-0.33
 * with it cached, its kernels 0.29 (test/kernels/request_bench).  The
 * same program over the same column is prepared the same way every time
 * -- the choices depend on the program's bytes, the caller's choices and
 * the column's byte pairs, which are counted once at upload -- so the
 * column keeps its last few preparations, and a part's device scratch
 * remembers which one it holds, so that its copy to the device is
 * skipped too.
 *
 * A few entries, least recently used out: a program's preparation is at
 * most a few hundred kB (an Aho–Corasick table or a byte DFA filling
 * shared memory), and a dashboard's handful of queries is what comes back
 * within a second.  The key is the program's bytes, which begin every
 * prepared blob (program_prep.h), and the caller's choices.
 *
 * One preparation is learnt from its matches: a factored automaton
 * (literal_factors.h) is chosen on the column's sample, and where a match
 * finds the factors common in the rest of the column -- its walk gives up
 * and the table it replaced walks every chunk (match.cu) -- the entry is
 * prepared again without them, so the queries that come again walk that
 * table alone rather than both.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "program_cache.h"
#include "cuda_check.h"

static const int PROGRAM_CACHE_ENTRIES = 4;

typedef struct CacheEntry
{
	bool		used;
	GlPrepareChoices choices;	/* pairs: the column's, always */
	GlPreparedProgram pp;		/* its blob begins with the program's bytes */
	size_t		shared_limit;
	uint64_t	stamp;
	uint64_t	last_use;
} CacheEntry;

struct GlProgramCache
{
	CacheEntry	entries[PROGRAM_CACHE_ENTRIES];
	uint64_t	clock;			/* lookups so far: the entries' last use */
	uint64_t	stamps;			/* preparations so far: the last stamp */
};

/* unfactored and pairs are the cache's own choices, not the caller's */
static bool
same_program(const CacheEntry *e, const GlProgram *prog, const GlPrepareChoices *choices)
{
	const GlProgram *cached = (const GlProgram *) e->pp.blob;

	return e->choices.max_stream_states == choices->max_stream_states &&
		e->choices.compact_ok == choices->compact_ok &&
		e->choices.sieve_first == choices->sieve_first &&
		cached->total_size == prog->total_size &&
		memcmp(cached, prog, prog->total_size) == 0;
}

/*
 * The smallest shared memory a block may have on the parts' devices (they
 * are normally alike).  The caller's current device is left as it was: it
 * places the next upload.
 */
static bool
smallest_shared_limit(const GlDeviceColumn *dcol, size_t *shared_limit, char *errbuf,
					  size_t errlen)
{
	int			current;
	bool		ok = true;

	if (!gl_cuda_ok(cudaGetDevice(&current), "cudaGetDevice", errbuf, errlen))
		return false;
	*shared_limit = SIZE_MAX;
	for (const GlDeviceColumn *part = dcol; ok && part != NULL; part = part->next)
	{
		size_t		limit;

		ok = gl_cuda_ok(cudaSetDevice(part->device), "cudaSetDevice", errbuf, errlen) &&
			gl_shared_memory_limit(&limit, errbuf, errlen);
		if (ok && limit < *shared_limit)
			*shared_limit = limit;
	}
	cudaSetDevice(current);
	return ok;
}

static void
lend(const CacheEntry *e, GlCachedProgram *out)
{
	out->pp = &e->pp;
	out->shared_limit = e->shared_limit;
	out->stamp = e->stamp;
}

bool
gl_program_cache_lookup(GlDeviceColumn *dcol, const GlProgram *prog,
						const GlPrepareChoices *choices, GlCachedProgram *out,
						char *errbuf, size_t errlen)
{
	GlProgramCache *cache = dcol->programs;
	CacheEntry *victim = NULL;
	GlPreparedProgram pp;
	GlPrepareChoices with_pairs = *choices;
	size_t		shared_limit;

	if (cache == NULL)
	{
		cache = (GlProgramCache *) calloc(1, sizeof(GlProgramCache));
		if (cache == NULL)
			return gl_cuda_fail("out of host memory for a column's programs", errbuf, errlen);
		dcol->programs = cache;
	}
	cache->clock++;
	for (CacheEntry &e : cache->entries)
	{
		if (e.used && same_program(&e, prog, choices))
		{
			e.last_use = cache->clock;
			lend(&e, out);
			return true;
		}
		if (victim == NULL || !e.used || (victim->used && e.last_use < victim->last_use))
			victim = &e;
	}

	memset(&pp, 0, sizeof(pp));
	with_pairs.pairs = dcol->pairs;
	if (!smallest_shared_limit(dcol, &shared_limit, errbuf, errlen) ||
		!gl_prepare_program_with(prog, shared_limit, &with_pairs, &pp, errbuf, errlen))
	{
		gl_prepared_free(&pp);
		return false;
	}
	if (victim->used)
		gl_prepared_free(&victim->pp);
	victim->used = true;
	victim->choices = with_pairs;
	victim->pp = pp;
	victim->shared_limit = shared_limit;
	victim->stamp = ++cache->stamps;
	victim->last_use = cache->clock;
	lend(victim, out);
	return true;
}

void
gl_program_cache_unfactor(GlDeviceColumn *dcol, uint64_t stamp)
{
	GlProgramCache *cache = dcol->programs;
	char		err[256];

	for (CacheEntry &e : cache->entries)
	{
		GlPreparedProgram pp;
		GlPrepareChoices unfactored = e.choices;

		if (!e.used || e.stamp != stamp)
			continue;
		unfactored.unfactored = true;
		/* a failure keeps the factored preparation, exact as it is */
		if (gl_prepare_program_with((const GlProgram *) e.pp.blob, e.shared_limit, &unfactored,
									&pp, err, sizeof(err)))
		{
			gl_prepared_free(&e.pp);
			e.pp = pp;
			e.choices = unfactored;
			e.stamp = ++cache->stamps;
		}
		else
			gl_prepared_free(&pp);
		return;
	}
}

void
gl_program_cache_free(GlProgramCache *cache)
{
	if (cache == NULL)
		return;
	for (CacheEntry &e : cache->entries)
		if (e.used)
			gl_prepared_free(&e.pp);
	free(cache);
}
