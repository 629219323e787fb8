/*-------------------------------------------------------------------------
 *
 * cpu_engine.c
 *	  The CPU engine's entry points (cpu_engine.h): one value, or a whole
 *	  column on several threads.
 *
 * A program is "prepared" once per call (section pointers resolved, skim
 * bytes chosen) and the plan is then shared read-only by all threads.
 *
 * The threads are started for each column matched and joined before it
 * returns (tens of microseconds each, next to milliseconds of matching):
 * there is no pool.  Columns are cut into chunks of 64 bitmap words (4096
 * rows).  Threads take the next chunk from a shared atomic counter until
 * none is left, so a thread stuck on a chunk of megabyte values does not
 * hold up the others, and each thread writes whole bitmap words that no
 * other thread touches: no locks, no false sharing beyond chunk borders.
 * A chunk whose values lack a pair of bytes that every match holds (or,
 * for a literal set, a pair of each literal) is not read at all (the
 * column's pair summary, chunk_pairs.h): its words are cleared.
 * A batch of programs (gl_cpu_match_column_batch) takes the chunks the
 * same way and runs every program over a chunk before the next: a chunk
 * of comments is about 200 kB, so after the first program the others
 * read it from the core's cache, and the column leaves memory once for
 * all of them.
 *
 * A LIKE pattern with a literal segment ('%special%requests%') matches
 * only rows that contain that literal, and so does a regex whose program
 * has a prefilter ('special.*requests': regex_prefilter.c).  Rows are
 * short (TPC-H comments average 49 bytes) and stored back to back, so the
 * chunk's bytes are skimmed for the literal in one pass, as one string,
 * and only the rows a hit falls in are matched (a hit across two rows is
 * no hit): per-row calls and the scalar tail of each row's skim go away,
 * and a regex's automaton steps through the rows with the literal only.
 * A LIKE pattern with no literal segment but a position that takes only
 * one or two ASCII bytes (ILIKE '%FOXES%': x or X) is skimmed for those
 * bytes the same way (cpu_like.c: two such positions at their distance).
 * A literal set (LIKE ANY's Aho-Corasick program) of up to 16 literals is
 * skimmed for the literals' first bytes (cpu_multi.c), and the rows a
 * candidate falls in are matched by the automaton.
 * The calling thread works too, so "nthreads" is the total.  The threads
 * it starts run at a lower priority (HELPER_NICE) than it: a long pass
 * then takes the cores that the sessions beside it leave idle rather than
 * its share of all of them, so a heavy request (a regex over a large
 * column on every core) does not stall cheap ones, on the CPU engine or
 * the GPU's, while a pass alone still has every core (test/bench/
 * throughput's fairness line compares the two).  If some
 * threads cannot be started the ones that did (and the caller) still
 * finish every chunk.  The only failure left is a program that cannot be
 * prepared (bad magic, or no memory for the plan of a pattern with many
 * segments): its result is then undefined, and the others' still stand.
 *
 * Threads run only leaf code: no palloc, no elog, no PostgreSQL state.
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "engine/cpu_dfa.h"
#include "engine/cpu_engine.h"
#include "engine/cpu_like.h"
#include "engine/cpu_multi.h"

/* nice of a pass's helper threads: the scheduler's weight 110 against 1024 */
#define HELPER_NICE			10

typedef struct CpuPlan
{
	const GlProgram *prog;
	GlProgramKind kind;
	GlLikePlan	like;			/* a LIKE program, or a DFA's prefilter */
	bool		has_like;		/* like is prepared */
	bool		skims;			/* what every match has can be skimmed for:
								 * like's, or multi_skim's literals */
	bool		found_is_match; /* a value containing it matches */
	GlRequiredPairs pairs;		/* what every match holds: a chunk whose
								 * values lack one has none (chunk_pairs.h) */
	GlMultiPlan multi;
	GlRequiredPairSets pair_sets;	/* MULTI: every match holds one whole */
	GlMultiSkim multi_skim;		/* MULTI: where its literals may start */
} CpuPlan;

typedef struct ColumnJob
{
	const CpuPlan *plans;		/* nplans programs, each with its result: */
	uint64_t   *const *results;
	const volatile uint32_t *const *cancels;	/* nonzero: stop (NULL: never) */
	int			nplans;
	const GlColumn *col;
	uint64_t	nwords;
	uint64_t	next_chunk;		/* taken with __atomic_fetch_add */
} ColumnJob;

/* column: for gl_cpu_match_column(), whose skims need preparing too */
static bool
plan_prepare(const GlProgram *prog, CpuPlan *plan, bool column)
{
	plan->prog = prog;
	plan->kind = (GlProgramKind) prog->kind;
	plan->has_like = false;
	plan->skims = false;
	plan->found_is_match = false;
	plan->pairs.npairs = 0;
	plan->pair_sets.nsets = 0;
	plan->pair_sets.sets = NULL;
	if (prog->magic != GL_PROGRAM_MAGIC)
		return false;
	switch (plan->kind)
	{
		case GL_PROG_LIKE:
			if (!gl_cpu_like_prepare(prog, &plan->like))
				return false;
			if (column)
			{
				gl_cpu_like_prepare_skims(&plan->like);
				gl_cpu_like_required_pairs(&plan->like, &plan->pairs);
			}
			plan->has_like = true;
			plan->skims = plan->like.required >= 0 || plan->like.nskims > 0;
			plan->found_is_match = plan->like.required_is_all;
			return true;
		case GL_PROG_MULTI:
			gl_cpu_multi_prepare(prog, &plan->multi);
			if (column)
			{
				plan->skims = gl_cpu_multi_prepare_column(&plan->multi, &plan->pair_sets,
														  &plan->multi_skim);
			}
			return true;
		case GL_PROG_DFA:
			/* a prefilter, '%literal%', has one segment: no malloc */
			if (prog->u.dfa.prefilter_off != 0 &&
				gl_cpu_like_prepare(gl_program_section(prog, prog->u.dfa.prefilter_off),
									&plan->like))
			{
				plan->has_like = true;
				plan->skims = plan->like.required >= 0;
				if (column)
					gl_cpu_like_required_pairs(&plan->like, &plan->pairs);
			}
			return true;
	}
	return false;
}

static void
plan_release(CpuPlan *plan)
{
	if (plan->has_like)
		gl_cpu_like_release(&plan->like);
	free(plan->pair_sets.sets);
	plan->pair_sets.sets = NULL;
}

/* Can chunk `chunk` of col hold a match?  Its pair summary may say no. */
static inline bool
plan_may_match_chunk(const CpuPlan *plan, const GlColumn *col, uint64_t chunk)
{
	if (plan->pairs.npairs > 0)
		return gl_chunk_pairs_may_match(&col->pairs, col->nrows, chunk, &plan->pairs);
	return gl_chunk_pairs_may_match_one_of(&col->pairs, col->nrows, chunk, &plan->pair_sets);
}

static inline bool
plan_match(const CpuPlan *plan, const char *s, uint32_t len)
{
	switch (plan->kind)
	{
		case GL_PROG_LIKE:
			return gl_cpu_like_match(&plan->like, s, len);
		case GL_PROG_MULTI:
			return gl_cpu_multi_match(&plan->multi, s, len);
		case GL_PROG_DFA:
			return gl_cpu_match_dfa(plan->prog, s, len);
	}
	return false;
}

bool
gl_cpu_match_value(const GlProgram *prog, const char *s, uint32_t len)
{
	CpuPlan		plan;
	bool		matched;

	if (!plan_prepare(prog, &plan, false))
		return false;
	matched = plan_match(&plan, s, len);
	plan_release(&plan);
	return matched;
}

/*
 * The next hit, at or after from, of what every match of the plan has:
 * where it was found (*hit) and bytes [*start, *end) of s that must lie
 * within one value.  A literal set's first bytes (cpu_multi.c's skim); a
 * required literal (a LIKE program's literal segment, a DFA's prefilter:
 * the literal); a byte of column skim `skim`
 * of a masked segment (an ILIKE pair such as x/X, and another as far
 * on: that byte), or, where the skim's hits settle matches
 * (gl_cpu_like_hits_settle()), a hit where the segment stands (the
 * occurrence).
 */
static bool
find_hit(const CpuPlan *plan, int skim, const char *s, uint64_t from, uint64_t len,
		 uint64_t *hit, uint64_t *start, uint64_t *end)
{
	int64_t		at;

	if (plan->kind == GL_PROG_MULTI)
	{
		at = gl_cpu_multi_skim_find(&plan->multi_skim, s, from, len);
		*hit = *start = (uint64_t) at;
		*end = *start + plan->multi_skim.width;
	}
	else if (plan->like.required >= 0)
	{
		at = gl_cpu_like_find_required(&plan->like, s, from, len);
		*end = (uint64_t) at;
		*start = *end - plan->like.segs[plan->like.required].seg->nbytes;
		*hit = *start;
	}
	else if (plan->kind == GL_PROG_LIKE && gl_cpu_like_hits_settle(&plan->like, skim))
	{
		at = gl_cpu_like_find_placed(&plan->like, skim, s, from, len, start, end);
		*hit = (uint64_t) at;
	}
	else
	{
		at = gl_cpu_like_find_anchor(&plan->like, skim, s, from, len);
		*hit = *start = (uint64_t) at;
		*end = *start + 1;
	}
	return at >= 0;
}

/*
 * The row of [row, last) whose value holds byte `at` of the column's data
 * (at is in one of them).  Hits that settle matches come seldom, far
 * apart: past a few rows, a binary search.
 */
static inline uint64_t
row_holding(const GlColumn *col, uint64_t row, uint64_t last, uint64_t at)
{
	uint64_t	hi = last;

	for (int step = 0; step < 8; step++, row++)
		if (gl_column_offset(col, row + 1) > at)
			return row;
	while (row + 1 < hi)
	{
		uint64_t	mid = row + (hi - row) / 2;

		if (gl_column_offset(col, mid) <= at)
			row = mid;
		else
			hi = mid;
	}
	return row;
}

/*
 * Rows [first, last) of a plan that skims (find_hit()): skim the rows'
 * bytes as one string, match the rows a hit falls in -- or, for a
 * pattern that is a literal between two '%', take the row as matched: the
 * hit is the match; so is a placed hit of one masked segment between two
 * '%' (gl_cpu_like_find_placed()), whose occurrence lies in one row.
 * result holds these rows' words, from first's (a multiple of 64), and is
 * cleared first.
 */
static void
match_rows_skimming(const CpuPlan *plan, const GlColumn *col, uint64_t *result,
					uint64_t first, uint64_t last)
{
	uint64_t	first_offset = gl_column_offset(col, first);
	const char *base = col->data + first_offset;
	uint64_t	len = gl_column_offset(col, last) - first_offset;
	uint64_t	from = 0;
	uint64_t	row = first;
	int			skim = plan->has_like ? gl_cpu_like_pick_skim(&plan->like, base, len) : -1;
	/* a hit is a match: the pattern's literal between two '%', or placed */
	bool		settles = plan->found_is_match ||
		(plan->kind == GL_PROG_LIKE && plan->like.required < 0 &&
		 gl_cpu_like_hits_settle(&plan->like, skim));

	memset(result, 0, gl_bitmap_words(last - first) * sizeof(uint64_t));
	while (row < last)
	{
		uint64_t	hit;
		uint64_t	start;
		uint64_t	end;
		uint64_t	value_start;
		uint64_t	value_end;

		if (!find_hit(plan, skim, base, from, len, &hit, &start, &end))
			break;
		row = row_holding(col, row, last, first_offset + hit);
		value_start = gl_column_offset(col, row) - first_offset;
		value_end = gl_column_offset(col, row + 1) - first_offset;
		if (start < value_start || end > value_end)
		{
			from = hit + 1;		/* across a row boundary: not a hit */
			continue;
		}
		if (!gl_column_is_null(col, row))
		{
			uint32_t	vlen;
			const char *value = gl_column_value(col, row, &vlen);

			if (settles || plan_match(plan, value, vlen))
				result[(row - first) / 64] |= (uint64_t) 1 << (row % 64);
		}
		from = value_end;
		row++;
	}
}

/* Match the rows of bitmap words [first, last), into result[0 .. last - first). */
static void
match_words(const CpuPlan *plan, const GlColumn *col, uint64_t *result,
			uint64_t first, uint64_t last)
{
	uint64_t	w;
	uint64_t	last_row = last * 64 < col->nrows ? last * 64 : col->nrows;

	/* one string of the chunk's rows, within what the skim can index */
	if (plan->skims &&
		gl_column_offset(col, last_row) - gl_column_offset(col, first * 64) < UINT32_MAX / 2)
	{
		match_rows_skimming(plan, col, result, first * 64, last_row);
		return;
	}
	for (w = first; w < last; w++)
	{
		uint64_t	row = w * 64;
		uint64_t	end = (row + 64 < col->nrows) ? row + 64 : col->nrows;
		uint64_t	nulls = col->nulls[w];
		uint64_t	bits = 0;

		for (; row < end; row++)
		{
			uint32_t	len;
			const char *value;

			if ((nulls >> (row % 64)) & 1)
				continue;
			value = gl_column_value(col, row, &len);
			if (plan_match(plan, value, len))
				bits |= (uint64_t) 1 << (row % 64);
		}
		result[w - first] = bits;
	}
}

/*
 * How many of the column's chunks the plan must match in, the pair
 * summary ruling out the others -- counted only to past `limit`, where a
 * common pattern's first chunks stop it.  With `chunks`, the first `limit`
 * of them are listed there too.
 */
static uint64_t
chunks_to_match(const CpuPlan *plan, const GlColumn *col, uint64_t limit, uint32_t *chunks)
{
	uint64_t	nchunks = gl_chunk_count(col->nrows);
	uint64_t	to_match = 0;

	for (uint64_t c = 0; c < nchunks && to_match <= limit; c++)
	{
		/* no pair every match holds, or no plan: every chunk */
		if (plan->prog != NULL && !plan_may_match_chunk(plan, col, c))
			continue;
		if (chunks != NULL && to_match < limit)
			chunks[to_match] = (uint32_t) c;
		to_match++;
	}
	return to_match;
}

static void *
column_worker(void *arg)
{
	ColumnJob  *job = arg;

	for (;;)
	{
		uint64_t	chunk = __atomic_fetch_add(&job->next_chunk, 1, __ATOMIC_RELAXED);
		uint64_t	first = chunk * GL_PAIR_CHUNK_BITMAP_WORDS;
		uint64_t	last = first + GL_PAIR_CHUNK_BITMAP_WORDS;
		int			working = 0;

		if (first >= job->nwords)
			break;
		if (last > job->nwords)
			last = job->nwords;
		/* every program over the chunk while its bytes are in the cache */
		for (int p = 0; p < job->nplans; p++)
		{
			const volatile uint32_t *cancel = job->cancels ? job->cancels[p] : NULL;

			if (job->plans[p].prog == NULL || (cancel != NULL && *cancel != 0))
				continue;
			working++;
			if (!plan_may_match_chunk(&job->plans[p], job->col, chunk))
			{
				memset(job->results[p] + first, 0, (last - first) * sizeof(uint64_t));
				continue;
			}
			match_words(&job->plans[p], job->col, job->results[p] + first, first, last);
		}
		if (working == 0)
			break;
	}
	return NULL;
}

/*
 * A helper thread of a pass: lower its own priority by HELPER_NICE from
 * the one it was started with (Linux keeps a nice value per thread;
 * elsewhere it runs as it is), then work.
 */
static void *
column_helper(void *arg)
{
#ifdef __linux__
	id_t		self = (id_t) syscall(SYS_gettid);
	int			nice = getpriority(PRIO_PROCESS, self) + HELPER_NICE;

	(void) setpriority(PRIO_PROCESS, self, nice < 19 ? nice : 19);
#endif
	return column_worker(arg);
}

bool
gl_cpu_match_column(const GlProgram *prog, const GlColumn *col,
					uint64_t *result, int nthreads)
{
	return gl_cpu_match_column_until(prog, col, result, nthreads, NULL);
}

bool
gl_cpu_match_column_until(const GlProgram *prog, const GlColumn *col,
						  uint64_t *result, int nthreads,
						  const volatile uint32_t *cancel)
{
	bool		prepared;

	return gl_cpu_match_column_batch(&prog, &result, &cancel, 1, col, nthreads, &prepared) &&
		prepared;
}

bool
gl_cpu_match_column_batch(const GlProgram *const *progs, uint64_t *const *results,
						  const volatile uint32_t *const *cancels, int nprogs,
						  const GlColumn *col, int nthreads, bool *prepared)
{
	CpuPlan		one_plan;
	CpuPlan    *plans = nprogs == 1 ? &one_plan : malloc(sizeof(CpuPlan) * nprogs);
	ColumnJob	job;
	pthread_t  *threads = NULL;
	uint64_t	to_match = 0;	/* chunks times programs not skipped, to nthreads */
	int			started = 0;
	int			i;

	if (plans == NULL)
		return false;
	for (i = 0; i < nprogs; i++)
	{
		prepared[i] = plan_prepare(progs[i], &plans[i], true);
		if (!prepared[i])
			plans[i].prog = NULL;	/* not a program, or no memory for its plan */
		to_match += chunks_to_match(&plans[i], col, (uint64_t) nthreads, NULL);
	}
	job.plans = plans;
	job.results = results;
	job.cancels = cancels;
	job.nplans = nprogs;
	job.col = col;
	job.nwords = gl_bitmap_words(col->nrows);
	job.next_chunk = 0;

	/* a thread a chunk to match at most: skipped ones cost next to nothing */
	if (nthreads > 1 && (uint64_t) nthreads > to_match)
		nthreads = to_match > 0 ? (int) to_match : 1;
	if (nthreads > 1)
		threads = malloc(sizeof(pthread_t) * (nthreads - 1));
	if (threads != NULL)
	{
		for (i = 0; i < nthreads - 1; i++)
		{
			if (pthread_create(&threads[started], NULL, column_helper, &job) != 0)
				break;
			started++;
		}
	}
	column_worker(&job);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	for (i = 0; i < nprogs; i++)
		if (prepared[i])
			plan_release(&plans[i]);
	if (plans != &one_plan)
		free(plans);
	return true;
}

int64_t
gl_cpu_chunks_to_match(const GlProgram *prog, const GlColumn *col, uint64_t limit,
					   uint32_t *chunks)
{
	CpuPlan		plan;
	uint64_t	to_match;

	if (!plan_prepare(prog, &plan, true))
		return -1;
	to_match = chunks_to_match(&plan, col, limit, chunks);
	plan_release(&plan);
	return to_match <= limit ? (int64_t) to_match : -1;
}

bool
gl_cpu_match_chunks(const GlProgram *prog, const GlColumn *col, const uint32_t *chunks,
					uint32_t nchunks, uint64_t *words)
{
	CpuPlan		plan;
	uint64_t	nwords = gl_bitmap_words(col->nrows);

	if (!plan_prepare(prog, &plan, true))
		return false;
	for (uint32_t k = 0; k < nchunks; k++)
	{
		uint64_t	first = (uint64_t) chunks[k] * GL_PAIR_CHUNK_BITMAP_WORDS;
		uint64_t	last = first + GL_PAIR_CHUNK_BITMAP_WORDS < nwords ? first + GL_PAIR_CHUNK_BITMAP_WORDS : nwords;
		uint64_t   *out = words + (uint64_t) k * GL_PAIR_CHUNK_BITMAP_WORDS;

		memset(out, 0, GL_PAIR_CHUNK_BITMAP_WORDS * sizeof(uint64_t));
		if (first < last)
			match_words(&plan, col, out, first, last);
	}
	plan_release(&plan);
	return true;
}

/*
 * At most one lead row in a thousand may have the literal (four of a
 * sample's 4 096) for it to count as rare: the GPU's rows kernel then runs
 * on about one chunk in two hundred, where streaming the whole column
 * through the automaton costs more than the sieve and those rows together.
 */
bool
gl_cpu_prefilter_rare(const GlProgram *prog, const GlColumn *lead)
{
	uint64_t   *matched;
	uint64_t	found = 0;
	bool		matches;

	if (prog->kind != GL_PROG_DFA || prog->u.dfa.prefilter_off == 0)
		return false;
	matched = malloc((gl_bitmap_words(lead->nrows) + 1) * sizeof(uint64_t));
	if (matched == NULL)
		return false;
	matches = gl_cpu_match_column(gl_program_section(prog, prog->u.dfa.prefilter_off), lead,
								  matched, 1);
	for (uint64_t w = 0; matches && w < gl_bitmap_words(lead->nrows); w++)
		found += __builtin_popcountll(matched[w] & gl_bitmap_word_mask(lead->nrows, w));
	free(matched);
	return matches && found * 1000 <= lead->nrows;
}
