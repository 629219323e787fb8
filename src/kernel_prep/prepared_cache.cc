/*-------------------------------------------------------------------------
 *
 * prepared_cache.cc
 *	  A device column's prepared programs, kept for the queries that come
 *	  again (prepared_cache.h).
 *
 * Preparing a program (program_prep.cc) is host work on the critical
 * path of every request, before the first kernel can start: the sieve
 * counts its candidate probes on the column's text sample, a fresh
 * multi-segment or ILIKE pattern builds its byte DFA, and the smallest
 * shared memory of the parts' devices is asked of the driver
 * (cuda/program_cache.cu, before a preparation only).  On an
 * H100 host a selective LIKE's request ('%carefully final deposits%', 15
 * M rows) took 0.35-0.38 ms preparing its program each time, 0.32-0.33
 * with it cached, its kernels 0.29 (test/kernels/request_bench).  The
 * same program over the same column is prepared the same way every time
 * -- the choices depend on the program's bytes, the caller's choices and
 * the column's byte pairs, which are counted once at upload -- so the
 * column keeps its last few preparations, and a lane's device scratch
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
 * and the table it replaced walks every chunk (cuda/match.cu) -- the entry is
 * prepared again without them, so the queries that come again walk that
 * table alone rather than both.
 *
 * Matches run on several lanes at once (cuda/gpulike_cuda.h), so the caches
 * are shared by threads: one lock guards them all, held to look up, to
 * install and to give back, but not while a looked-up program is prepared
 * (a fresh byte DFA takes a few hundred microseconds, which would stall
 * every other lane's lookup).  A lent entry is in use until its match gives it back
 * (gl_prepared_cache_release()): it is neither evicted nor prepared again
 * meanwhile.  When every entry is in use, a new preparation is lent
 * uncached and freed when given back.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>

#include "kernel_prep/prepared_cache.h"

/* a dashboard's handful, and one more than the lanes can hold in use */
static const int PROGRAM_CACHE_ENTRIES = 8;

typedef struct CacheEntry
{
	bool		used;
	GlPrepareChoices choices;	/* pairs: the column's, always */
	GlPreparedProgram pp;		/* its blob begins with the program's bytes */
	size_t		shared_limit;
	uint64_t	stamp;
	uint64_t	last_use;
	int			lent;			/* matches using it now */
	bool		unfactor;		/* a walk gave up: prepare again once given back */
} CacheEntry;

struct GlPreparedCache
{
	CacheEntry	entries[PROGRAM_CACHE_ENTRIES];
	uint64_t	clock;			/* lookups so far: the entries' last use */
	uint64_t	stamps;			/* preparations so far: the last stamp */
};

/* Every column's cache, and whether a column has one yet. */
static std::mutex caches_lock;

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

static void
lend(CacheEntry *e, GlCachedProgram *out)
{
	e->lent++;
	out->pp = &e->pp;
	out->shared_limit = e->shared_limit;
	out->stamp = e->stamp;
	out->uncached = NULL;
}

/* The entry of prog prepared with choices, or NULL; under caches_lock. */
static CacheEntry *
find_entry(GlPreparedCache *cache, const GlProgram *prog, const GlPrepareChoices *choices)
{
	for (CacheEntry &e : cache->entries)
		if (e.used && same_program(&e, prog, choices))
			return &e;
	return NULL;
}

/* The least recently used entry not lent, or NULL; under caches_lock. */
static CacheEntry *
free_entry(GlPreparedCache *cache)
{
	CacheEntry *victim = NULL;

	for (CacheEntry &e : cache->entries)
	{
		if (e.lent > 0)
			continue;
		if (!e.used)
			return &e;
		if (victim == NULL || e.last_use < victim->last_use)
			victim = &e;
	}
	return victim;
}

/* An out-of-memory refusal, its message into errbuf, for the server's log. */
static bool
no_memory(const char *message, char *errbuf, size_t errlen)
{
	if (errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "%s", message);
	return false;
}

bool
gl_prepared_cache_find(GlPreparedCache **cache, const GlProgram *prog,
					   const GlPrepareChoices *choices, GlCachedProgram *out, bool *found,
					   char *errbuf, size_t errlen)
{
	std::lock_guard<std::mutex> hold(caches_lock);
	CacheEntry *e;

	*found = false;
	if (*cache == NULL)
	{
		*cache = (GlPreparedCache *) calloc(1, sizeof(GlPreparedCache));
		if (*cache == NULL)
			return no_memory("out of host memory for a column's programs", errbuf, errlen);
	}
	(*cache)->clock++;
	if ((e = find_entry(*cache, prog, choices)) != NULL)
	{
		e->last_use = (*cache)->clock;
		lend(e, out);
		*found = true;
	}
	return true;
}

/* Preparing runs outside the lock: a fresh byte DFA would stall the other lanes. */
bool
gl_prepared_cache_add(GlPreparedCache *cache, const GlProgram *prog,
					  const GlPrepareChoices *choices, const GlBytePairs *pairs,
					  size_t shared_limit, GlCachedProgram *out, char *errbuf, size_t errlen)
{
	CacheEntry *e;
	GlPreparedProgram pp;
	GlPrepareChoices with_pairs = *choices;

	memset(&pp, 0, sizeof(pp));
	with_pairs.pairs = pairs;
	if (!gl_prepare_program_with(prog, shared_limit, &with_pairs, &pp, errbuf, errlen))
	{
		gl_prepared_free(&pp);
		return false;
	}

	std::lock_guard<std::mutex> hold(caches_lock);

	if ((e = find_entry(cache, prog, choices)) != NULL)
		gl_prepared_free(&pp);	/* another lane prepared it meanwhile */
	else if ((e = free_entry(cache)) != NULL)
	{
		if (e->used)
			gl_prepared_free(&e->pp);
		e->used = true;
		e->choices = with_pairs;
		e->pp = pp;
		e->shared_limit = shared_limit;
		e->stamp = ++cache->stamps;
		e->unfactor = false;
	}
	else
	{
		GlPreparedProgram *uncached = (GlPreparedProgram *) malloc(sizeof(GlPreparedProgram));

		if (uncached == NULL)
		{
			gl_prepared_free(&pp);
			return no_memory("out of host memory for a prepared program", errbuf, errlen);
		}
		*uncached = pp;
		out->pp = uncached;
		out->shared_limit = shared_limit;
		out->stamp = ++cache->stamps;
		out->uncached = uncached;
		return true;
	}
	e->last_use = cache->clock;
	lend(e, out);
	return true;
}

/*
 * The entry's program prepared again without the factored automaton; under
 * caches_lock, the entry lent to nobody.  A failure keeps the factored
 * preparation, exact as it is.
 */
static void
unfactor(GlPreparedCache *cache, CacheEntry *e)
{
	GlPreparedProgram pp;
	GlPrepareChoices unfactored = e->choices;
	char		err[256];

	e->unfactor = false;
	unfactored.unfactored = true;
	if (gl_prepare_program_with((const GlProgram *) e->pp.blob, e->shared_limit, &unfactored,
								&pp, err, sizeof(err)))
	{
		gl_prepared_free(&e->pp);
		e->pp = pp;
		e->choices = unfactored;
		e->stamp = ++cache->stamps;
	}
	else
		gl_prepared_free(&pp);
}

void
gl_prepared_cache_release(GlPreparedCache *cache, GlCachedProgram *cp, bool walk_gave_up)
{
	std::lock_guard<std::mutex> hold(caches_lock);

	if (cp->uncached != NULL)
	{
		gl_prepared_free(cp->uncached);
		free(cp->uncached);
		cp->uncached = NULL;
		return;
	}
	for (CacheEntry &e : cache->entries)
	{
		if (!e.used || e.stamp != cp->stamp)
			continue;
		e.lent--;
		e.unfactor = e.unfactor || walk_gave_up;
		if (e.unfactor && e.lent == 0)
			unfactor(cache, &e);
		return;
	}
}

void
gl_prepared_cache_free(GlPreparedCache *cache)
{
	if (cache == NULL)
		return;
	for (CacheEntry &e : cache->entries)
		if (e.used)
			gl_prepared_free(&e.pp);
	free(cache);
}
