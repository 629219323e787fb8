/*-------------------------------------------------------------------------
 *
 * cpu_multi.c
 *	  CPU engine: running a GL_PROG_MULTI (Aho–Corasick) program over one
 *	  value.
 *
 * The automaton is complete (multi_build.c), so matching is one table load
 * per byte: state = next[state][class[byte]], done at the first accepting
 * state.  Most text bytes start no literal at all; while the automaton sits
 * at the root, a tight loop skips bytes that would leave it there, which is
 * where nearly all the time of a low-selectivity search goes.  (A SIMD skim
 * for the first bytes was measured slower on English text: its first
 * letters are too common for 16-byte strides to pay for their set-up.)  Worst case
 * (text that keeps the automaton away from the root) is still one load per
 * byte: no input is slower than that.
 *
 * The chunks a literal set can match in (gl_cpu_multi_required_pair_sets)
 * are found from the automaton alone, which keeps no literals: its trie
 * is the transitions that go one step deeper (a transition borrowed from
 * a failure link never does), so a breadth-first walk from the root finds
 * each state's string and, from its parent's, its failure state.  A
 * state accepts where its string ends in a literal; one whose failure
 * state does not accept is itself a literal that ends in no shorter one,
 * and every literal ends in such a literal, so their strings' pairs are
 * a set each, of which every match holds one whole.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>

#include "engine/cpu_multi.h"

/* Most pair tests a chunk may cost (sets times their pairs) to be worth it. */
#define MAX_PAIR_TESTS	4096

void
gl_cpu_multi_prepare(const GlProgram *prog, GlMultiPlan *plan)
{
	int			b;

	plan->tables = gl_multi_tables(prog);
	plan->min_bytes = prog->u.multi.min_bytes;
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

/* The set of one state's string: its pairs, from its end back to the root. */
static void
state_pairs(uint32_t state, const uint32_t *parent, const uint8_t *class_of_state,
			const uint8_t *pair_class, GlRequiredPairs *req)
{
	req->npairs = 0;
	while (parent[state] != 0)
	{
		uint32_t	up = parent[state];

		gl_required_pairs_add(req, pair_class[class_of_state[up]],
							  pair_class[class_of_state[state]]);
		state = up;
	}
}

bool
gl_cpu_multi_required_pair_sets(const GlMultiPlan *plan, GlRequiredPairSets *sets)
{
	const GlMultiTables *t = &plan->tables;
	uint32_t	n = t->nstates;
	uint32_t   *depth = malloc(sizeof(uint32_t) * n);
	uint32_t   *parent = malloc(sizeof(uint32_t) * n);
	uint32_t   *fail = malloc(sizeof(uint32_t) * n);
	uint32_t   *queue = malloc(sizeof(uint32_t) * n);
	uint8_t    *class_of_state = malloc(n);
	uint8_t		pair_class[256] = {0};
	uint32_t	head = 0,
				tail = 0;
	int			tests = 0;
	/* more states than that cannot keep to MAX_PAIR_TESTS: spare the walk */
	bool		ok = depth && parent && fail && queue && class_of_state && !t->accept[0] &&
		n <= 8 * MAX_PAIR_TESTS;

	sets->nsets = 0;
	sets->sets = NULL;
	/* a class's bytes share their pair class: fold the one that names it */
	for (int b = 255; b >= 0; b--)
		pair_class[t->byte_class[b]] = gl_pair_class((uint8_t) b);

	if (ok)
	{
		for (uint32_t s = 0; s < n; s++)
			depth[s] = UINT32_MAX;
		depth[0] = 0;
		parent[0] = fail[0] = 0;
		queue[tail++] = 0;
	}
	while (ok && head < tail)
	{
		uint32_t	u = queue[head++];

		for (uint32_t c = 1; c < t->nclasses; c++)
		{
			uint32_t	v = t->next[u * t->nclasses + c];

			if (depth[v] != UINT32_MAX || v == 0)
				continue;
			/* first reached from a state one step shallower: a trie edge */
			depth[v] = depth[u] + 1;
			parent[v] = u;
			class_of_state[v] = (uint8_t) c;
			fail[v] = u == 0 ? 0 : t->next[fail[u] * t->nclasses + c];
			queue[tail++] = v;
		}
	}
	for (uint32_t s = 1; ok && s < n; s++)
		if (t->accept[s] && !t->accept[fail[s]])
			sets->nsets++;
	if (ok)
		sets->sets = malloc(sizeof(GlRequiredPairs) * (sets->nsets > 0 ? sets->nsets : 1));
	ok &= sets->sets != NULL && sets->nsets > 0;
	sets->nsets = 0;
	for (uint32_t s = 1; ok && s < n; s++)
	{
		GlRequiredPairs *req;

		if (!t->accept[s] || t->accept[fail[s]])
			continue;
		req = &sets->sets[sets->nsets++];
		state_pairs(s, parent, class_of_state, pair_class, req);
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
	free(depth);
	free(parent);
	free(fail);
	free(queue);
	free(class_of_state);
	return ok;
}
