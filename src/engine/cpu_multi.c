/*-------------------------------------------------------------------------
 *
 * cpu_multi.c
 *	  CPU engine: running a GL_PROG_MULTI (Aho–Corasick) program over one
 *	  value, and what narrows its work over a column: the chunks and the
 *	  rows its literals may be in.
 *
 * The automaton is complete (multi_build.c), so matching is one table load
 * per byte: state = next[state][class[byte]], done at the first accepting
 * state.  Most text bytes start no literal at all; while the automaton sits
 * at the root, a tight loop skips bytes that would leave it there, which is
 * where nearly all the time of a low-selectivity search goes.  (Within one
 * value, a SIMD skim for the literals' first bytes was measured slower on
 * English text: its first letters are too common for 16-byte strides to
 * pay for their set-up; over a chunk's rows at once, with three bytes,
 * below, it pays.)  Worst case (text that keeps the automaton away from
 * the root) is still one load per byte: no input is slower than that.
 *
 * The chunks a literal set can match in (gl_cpu_multi_prepare_column)
 * are found from the automaton alone, which keeps no literals: its trie
 * is the transitions that go one step deeper (a transition borrowed from
 * a failure link never does), so a breadth-first walk from the root finds
 * each state's string and, from its parent's, its failure state.  A
 * state accepts where its string ends in a literal; one whose failure
 * state does not accept is itself a literal that ends in no shorter one,
 * and every literal ends in such a literal, so their strings' pairs are
 * a set each, of which every match holds one whole.
 *
 * Over a column, the rows worth the automaton are found first by their
 * bytes (gl_cpu_multi_skim_find), as a literal's rows are by a LIKE's
 * skim: each literal that ends in no shorter one goes into one of eight
 * buckets with its rarest two or three adjacent bytes (by typical text's
 * byte frequencies, byte_frequency.h), and a position may start such a
 * window of bucket b only where it and the next bytes each have a low
 * nibble and a high nibble that some window of b has there.  Two 16-byte
 * table lookups (pshufb) a byte position give each of 16 positions its
 * buckets, the positions' next bytes' are ANDed in, and a position left
 * with a bucket is a candidate: the row holding it is matched by the
 * automaton (the Teddy filter of Intel's Hyperscan works so).  A bucket
 * holds at most two literals, so that a position passes seldom in text.
 * 1.5 M TPC-H comments, 2 cores, count(*) ... LIKE ANY of two common
 * literals: 49 -> 30 ms; of four (three in no row): 50 -> 22 ms (the pair
 * summary cannot skip chunks there: one literal is in every chunk);
 * test/bench/batch_bench's automaton of 4 and 8 search terms: 169 -> 66
 * and 221 -> 148 ms a pass with the rarest window, from the first bytes.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <tmmintrin.h>
#define HAVE_NIBBLE_SKIM 1
#endif

#include "engine/cpu_multi.h"
#include "program/byte_frequency.h"

/* Most pair tests a chunk may cost (sets times their pairs) to be worth it. */
#define MAX_PAIR_TESTS	4096
/* The skim's buckets, and the literals it keeps apart in them. */
#define SKIM_BUCKETS		8
#define SKIM_MAX_LITERALS	(2 * SKIM_BUCKETS)
/* The bytes of a literal searched for its rarest window. */
#define SKIM_MAX_PATH		64

void
gl_cpu_multi_prepare(const GlProgram *prog, GlMultiPlan *plan)
{
	int			b;

	plan->tables = gl_multi_tables(prog);
	plan->min_bytes = prog->u.multi.min_bytes;
	plan->nliterals = prog->u.multi.nliterals;
	for (b = 0; b < 256; b++)
		plan->root_stays[b] = plan->tables.next[plan->tables.byte_class[b]] == 0;
}

bool
gl_cpu_multi_match(const GlMultiPlan *plan, const char *value, uint32_t len)
{
	const uint8_t *s = (const uint8_t *) value;
	const uint8_t *byte_class = plan->tables.byte_class;
	const uint16_t *next = plan->tables.next;
	const uint8_t *accept = plan->tables.accept;
	uint32_t	nclasses = plan->tables.nclasses;
	uint32_t	state = 0;
	uint32_t	pos = 0;

	if (len < plan->min_bytes)
		return false;
	if (accept[0])
		return true;			/* an empty literal: everything matches */
	while (pos < len)
	{
		if (state == 0)
		{
			while (pos < len && plan->root_stays[s[pos]])
				pos++;
			if (pos == len)
				return false;
		}
		state = next[state * nclasses + byte_class[s[pos++]]];
		if (accept[state])
			return true;
	}
	return false;
}

/*
 * The automaton's literals, as far as its tables tell them: each state's
 * parent in the trie and the class that leads to it, and the states that
 * end a literal ending in no shorter one (`ends`), every match holding
 * one of them.
 */
typedef struct LiteralWalk
{
	uint32_t   *parent;
	uint8_t    *class_of_state;
	uint32_t   *depth;
	uint32_t   *ends;
	uint32_t	nends;
} LiteralWalk;

static void
free_walk(LiteralWalk *w)
{
	free(w->parent);
	free(w->class_of_state);
	free(w->depth);
	free(w->ends);
}

/* False (nothing to free) on out-of-memory, an empty literal, or too many states. */
static bool
walk_literals(const GlMultiTables *t, LiteralWalk *w)
{
	uint32_t	n = t->nstates;
	uint32_t   *fail = malloc(sizeof(uint32_t) * n);
	uint32_t   *queue = malloc(sizeof(uint32_t) * n);
	uint32_t	head = 0,
				tail = 0;
	bool		ok;

	w->parent = malloc(sizeof(uint32_t) * n);
	w->class_of_state = malloc(n);
	w->depth = malloc(sizeof(uint32_t) * n);
	w->ends = malloc(sizeof(uint32_t) * n);
	w->nends = 0;
	/* more states than that cannot keep to MAX_PAIR_TESTS: spare the walk */
	ok = fail && queue && w->parent && w->class_of_state && w->depth && w->ends &&
		!t->accept[0] && n <= 8 * MAX_PAIR_TESTS;
	if (ok)
	{
		for (uint32_t s = 0; s < n; s++)
			w->depth[s] = UINT32_MAX;
		w->depth[0] = 0;
		w->parent[0] = fail[0] = 0;
		queue[tail++] = 0;
	}
	while (ok && head < tail)
	{
		uint32_t	u = queue[head++];

		for (uint32_t c = 1; c < t->nclasses; c++)
		{
			uint32_t	v = t->next[u * t->nclasses + c];

			if (w->depth[v] != UINT32_MAX)
				continue;
			/* first reached from a state one step shallower: a trie edge */
			w->depth[v] = w->depth[u] + 1;
			w->parent[v] = u;
			w->class_of_state[v] = (uint8_t) c;
			fail[v] = u == 0 ? 0 : t->next[fail[u] * t->nclasses + c];
			queue[tail++] = v;
		}
	}
	for (uint32_t s = 1; ok && s < n; s++)
		if (t->accept[s] && !t->accept[fail[s]])
			w->ends[w->nends++] = s;
	free(fail);
	free(queue);
	if (!ok || w->nends == 0)
	{
		free_walk(w);
		return false;
	}
	return true;
}

/* The set of one state's string: its pairs, from its end back to the root. */
static void
state_pairs(uint32_t state, const LiteralWalk *w, const uint8_t *pair_class,
			GlRequiredPairs *req)
{
	req->npairs = 0;
	while (w->parent[state] != 0)
	{
		uint32_t	up = w->parent[state];

		gl_required_pairs_add(req, pair_class[w->class_of_state[up]],
							  pair_class[w->class_of_state[state]]);
		state = up;
	}
}

/* The pair sets of the walk's literals (gl_cpu_multi_prepare_column). */
static void
fill_pair_sets(const GlMultiTables *t, const LiteralWalk *w, GlRequiredPairSets *sets)
{
	uint8_t		pair_class[256] = {0};
	int			tests = 0;
	bool		ok;

	/* a class's bytes share their pair class: fold the one that names it */
	for (int b = 255; b >= 0; b--)
		pair_class[t->byte_class[b]] = gl_pair_class((uint8_t) b);
	sets->sets = malloc(sizeof(GlRequiredPairs) * w->nends);
	ok = sets->sets != NULL;
	for (uint32_t i = 0; ok && i < w->nends; i++)
	{
		GlRequiredPairs *req = &sets->sets[sets->nsets++];

		state_pairs(w->ends[i], w, pair_class, req);
		tests += req->npairs;
		/* a literal of one byte (no pair) is in any chunk */
		ok = req->npairs > 0 && tests <= MAX_PAIR_TESTS;
	}
	if (!ok)
	{
		free(sets->sets);
		sets->sets = NULL;
		sets->nsets = 0;
	}
}

/* The skim of the walk's literals; false (width 0) where it would not pay. */
static bool
fill_skim(const GlMultiTables *t, const LiteralWalk *w, GlMultiSkim *skim)
{
	uint32_t	width = 3;
	int			commonness[256] = {0};

#ifdef HAVE_NIBBLE_SKIM
	if (!__builtin_cpu_supports("ssse3"))
		return false;
#else
	return false;
#endif
	for (uint32_t i = 0; i < w->nends; i++)
		if (w->depth[w->ends[i]] < width)
			width = w->depth[w->ends[i]];
	if (width < 2 || w->nends > SKIM_MAX_LITERALS)
		return false;
	skim->width = width;
	/* a position past the width accepts every byte */
	for (uint32_t k = width; k < 3; k++)
	{
		memset(skim->low[k], 0xFF, 16);
		memset(skim->high[k], 0xFF, 16);
	}
	/* how common each class is: its most common byte's */
	for (int b = 0; b < 256; b++)
		if (gl_byte_commonness((uint8_t) b) > commonness[t->byte_class[b]])
			commonness[t->byte_class[b]] = gl_byte_commonness((uint8_t) b);
	for (uint32_t i = 0; i < w->nends; i++)
	{
		uint32_t	path[SKIM_MAX_PATH];
		uint32_t	state = w->ends[i];
		uint32_t	depth = w->depth[state];
		uint32_t	best = 0;
		int			best_score = INT32_MAX;
		uint8_t		bucket = (uint8_t) (1u << (i % SKIM_BUCKETS));

		/* the literal's classes (its first SKIM_MAX_PATH), end back to root */
		for (; depth > SKIM_MAX_PATH; depth--)
			state = w->parent[state];
		for (uint32_t k = depth; k-- > 0; state = w->parent[state])
			path[k] = w->class_of_state[state];
		/* its rarest window of width bytes: a candidate where it stands */
		for (uint32_t o = 0; o + width <= depth; o++)
		{
			int			score = 0;

			for (uint32_t k = 0; k < width; k++)
				score += commonness[path[o + k]];
			if (score < best_score)
			{
				best_score = score;
				best = o;
			}
		}
		for (uint32_t k = 0; k < width; k++)
			for (int b = 0; b < 256; b++)
				if (t->byte_class[b] == path[best + k])
				{
					skim->low[k][b & 15] |= bucket;
					skim->high[k][b >> 4] |= bucket;
				}
	}
	return true;
}

bool
gl_cpu_multi_prepare_column(const GlMultiPlan *plan, GlRequiredPairSets *sets,
							GlMultiSkim *skim)
{
	LiteralWalk w;
	bool		skims;

	sets->nsets = 0;
	sets->sets = NULL;
	memset(skim, 0, sizeof(GlMultiSkim));
	/*
	 * The walk's time grows with the automaton's states: spare it where
	 * neither can come of it -- more literals than the skim takes, and
	 * more states (bytes of literals) than pairs worth testing
	 */
	if ((plan->nliterals > SKIM_MAX_LITERALS && plan->tables.nstates > MAX_PAIR_TESTS) ||
		!walk_literals(&plan->tables, &w))
		return false;
	fill_pair_sets(&plan->tables, &w, sets);
	skims = fill_skim(&plan->tables, &w, skim);
	if (!skims)
		memset(skim, 0, sizeof(GlMultiSkim));
	free_walk(&w);
	return skims;
}

/* Scalar: may s[p .. p + width) be a literal's window?  (p + width <= len) */
static inline bool
skim_passes(const GlMultiSkim *skim, const uint8_t *s, uint64_t p)
{
	uint8_t		buckets = 0xFF;

	for (uint32_t k = 0; k < skim->width; k++)
		buckets &= skim->low[k][s[p + k] & 15] & skim->high[k][s[p + k] >> 4];
	return buckets != 0;
}

#ifdef HAVE_NIBBLE_SKIM
/* The buckets 16 bytes may belong to at one position of the windows. */
__attribute__((target("ssse3")))
static inline __m128i
bytes_buckets(__m128i bytes, __m128i low, __m128i high)
{
	const __m128i nibble = _mm_set1_epi8(0x0F);

	return _mm_and_si128(_mm_shuffle_epi8(low, _mm_and_si128(bytes, nibble)),
						 _mm_shuffle_epi8(high,
										  _mm_and_si128(_mm_srli_epi16(bytes, 4), nibble)));
}

__attribute__((target("ssse3")))
static int64_t
skim_find_ssse3(const GlMultiSkim *skim, const uint8_t *s, uint64_t from, uint64_t len)
{
	__m128i		low[3],
				high[3];
	uint64_t	p = from;

	for (int k = 0; k < 3; k++)
	{
		low[k] = _mm_loadu_si128((const __m128i *) skim->low[k]);
		high[k] = _mm_loadu_si128((const __m128i *) skim->high[k]);
	}
	/* 16 positions while their bytes and the two after them are in s */
	for (; p + 18 <= len; p += 16)
	{
		__m128i		buckets =
			_mm_and_si128(bytes_buckets(_mm_loadu_si128((const __m128i *) (s + p)),
										low[0], high[0]),
						  _mm_and_si128(bytes_buckets(_mm_loadu_si128((const __m128i *) (s + p + 1)),
													  low[1], high[1]),
										bytes_buckets(_mm_loadu_si128((const __m128i *) (s + p + 2)),
													  low[2], high[2])));
		uint32_t	none = (uint32_t) _mm_movemask_epi8(_mm_cmpeq_epi8(buckets,
																	   _mm_setzero_si128()));

		if (none != 0xFFFF)
			return (int64_t) (p + __builtin_ctz(~none));
	}
	for (; p + skim->width <= len; p++)
		if (skim_passes(skim, s, p))
			return (int64_t) p;
	return -1;
}
#endif

int64_t
gl_cpu_multi_skim_find(const GlMultiSkim *skim, const char *s, uint64_t from, uint64_t len)
{
#ifdef HAVE_NIBBLE_SKIM
	return skim_find_ssse3(skim, (const uint8_t *) s, from, len);
#else
	for (uint64_t p = from; p + skim->width <= len; p++)
		if (skim_passes(skim, (const uint8_t *) s, p))
			return (int64_t) p;
	return -1;
#endif
}
