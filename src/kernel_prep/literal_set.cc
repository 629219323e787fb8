/*-------------------------------------------------------------------------
 *
 * literal_set.cc
 *	  An Aho–Corasick program's literals, recovered from its automaton, and
 *	  the bigram filter that finds them where they are rare (literal_set.h).
 *
 * The program holds its automaton, not its literals.  They come back from
 * its trie: a state's trie depth is the length of the shortest input that
 * reaches it from the root, and its trie parent is the state one shorter
 * that the breadth-first walk reached it from (a transition that is not a
 * trie edge leads to a state no deeper than the one it leaves).  A state
 * accepts where some literal is a suffix of its string, so the literals
 * that contain no other are the strings of the accepting states with no
 * accepting ancestor whose longest proper suffix in the trie (the state
 * reached by the string less its first byte) accepts nothing.  A row
 * holds one of those exactly when it holds one of the program's literals.
 *
 * The filter.  Each literal is found by one of its bigrams, tested on the
 * bytes' low five bits (its key): a candidate is a position whose pair has
 * some literal's key, and only candidates are checked literal by literal
 * (cuda/kernels_set_sieve.cu).  The bigram is the one whose key is rarest in the
 * column's sampled pairs (GlBytePairs), all pairs sharing it counted: a
 * pair never seen can still share its key with a common one (0xC3 0xA9, an
 * e-acute, with "ci").  The filter pays where candidates are few; where the
 * literals or their keys are common in the text (kernel_bench's 200
 * literals with ten of the text's own words: 2.75% of positions pass, 41%
 * of rows match) checking them costs more than the stream kernel's table
 * walk (H200, test/kernels/kernel_bench and a probe of the filter: the
 * filter alone 94% of the read bandwidth, with the checks 41-43%, the
 * stream kernel 44%), so the set is chosen only where the sample's pairs
 * pass at most MAX_SAMPLE_PASS.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "kernel_prep/literal_set.h"

/* The largest share of the sample's byte pairs the filter may pass. */
static const double MAX_SAMPLE_PASS = 0.01;
/* Fewer sampled pairs than this tell too little to choose on. */
static const uint64_t MIN_SAMPLE_PAIRS = 4096;

/* Class c's test: one byte (mask 0xFF) or an ASCII letter's two cases (0xDF); false if neither. */
static bool
class_test(const GlMultiTables *m, uint32_t c, uint8_t *mask, uint8_t *value)
{
	int			members[3];
	int			n = 0;

	for (int b = 0; b < 256 && n < 3; b++)
		if (m->byte_class[b] == c)
			members[n++] = b;
	if (n == 1 && members[0] != 0)
	{
		*mask = 0xFF;
		*value = (uint8_t) members[0];
		return true;
	}
	if (n == 2 && (members[0] ^ members[1]) == 0x20 &&
		((members[0] >= 'A' && members[0] <= 'Z') || (members[0] >= 'a' && members[0] <= 'z')))
	{
		*mask = 0xDF;
		*value = (uint8_t) (members[0] & 0xDF);
		return true;
	}
	return false;
}

uint32_t
gl_trie_walk(const GlMultiTables *m, const GlTrieWalk *w)
{
	uint32_t	head = 0,
				tail = 0;

	for (uint32_t s = 0; s < m->nstates; s++)
		w->depth[s] = UINT32_MAX;
	w->depth[0] = 0;
	w->parent[0] = 0;
	w->via[0] = 0;
	w->suffix[0] = 0;
	w->order[tail++] = 0;
	/* breadth first, so a state's parent and its parent's suffix come before it */
	while (head < tail)
	{
		uint32_t	u = w->order[head++];

		for (uint32_t c = 0; c < m->nclasses; c++)
		{
			uint32_t	v = m->next[(size_t) u * m->nclasses + c];

			if (w->depth[v] != UINT32_MAX)
				continue;
			w->depth[v] = w->depth[u] + 1;
			w->parent[v] = u;
			w->via[v] = c;
			w->suffix[v] = u == 0 ? 0 : m->next[(size_t) w->suffix[u] * m->nclasses + c];
			w->order[tail++] = v;
		}
	}
	return tail;
}

bool
gl_set_literals(const GlProgram *prog, GlSetLiteral *out, uint32_t *count)
{
	GlMultiTables m = gl_multi_tables(prog);
	GlTrieWalk	w = {
		(uint32_t *) malloc(m.nstates * sizeof(uint32_t)),
		(uint32_t *) malloc(m.nstates * sizeof(uint32_t)),
		(uint32_t *) malloc(m.nstates * sizeof(uint32_t)),
		(uint32_t *) malloc(m.nstates * sizeof(uint32_t)),
		(uint32_t *) malloc(m.nstates * sizeof(uint32_t))
	};
	bool	   *accepting_above = (bool *) malloc(m.nstates * sizeof(bool));
	uint32_t	reached = 0;
	bool		ok = w.order != NULL && w.parent != NULL && w.via != NULL && w.depth != NULL &&
		w.suffix != NULL && accepting_above != NULL && m.nstates > 0;

	*count = 0;
	if (ok)
		reached = gl_trie_walk(&m, &w);
	for (uint32_t i = 0; ok && i < reached; i++)
	{
		uint32_t	v = w.order[i];
		GlSetLiteral *lit = &out[*count];

		accepting_above[v] = v != 0 && (accepting_above[w.parent[v]] || m.accept[w.parent[v]]);
		if (!m.accept[v] || accepting_above[v] || (v != 0 && m.accept[w.suffix[v]]))
			continue;			/* it holds a shorter literal */
		if (w.depth[v] < 2 || w.depth[v] > GL_SET_MAX_BYTES || *count == GL_SET_MAX_LITERALS)
		{
			ok = false;
			break;
		}
		memset(lit, 0, sizeof(*lit));
		lit->length = w.depth[v];
		for (uint32_t s = v, k = w.depth[v]; ok && s != 0; s = w.parent[s])
		{
			k--;
			ok = class_test(&m, w.via[s], &lit->masks[k], &lit->bytes[k]);
		}
		(*count)++;
	}
	free(w.order);
	free(w.parent);
	free(w.via);
	free(w.depth);
	free(w.suffix);
	free(accepting_above);
	return ok && *count > 0;
}

/* The filter's key of a pair of bytes. */
static uint32_t
pair_key(uint32_t first, uint32_t second)
{
	return (first & 31) << 5 | (second & 31);
}

GlLiteralSet *
gl_choose_literal_set(const GlProgram *prog, const GlBytePairs *pairs)
{
	GlSetLiteral *lits;
	GlLiteralSet *set;
	uint32_t	nlits;
	uint32_t	key_of[GL_SET_MAX_LITERALS];
	uint64_t	key_count[GL_SET_KEYS] = {0};
	uint32_t	nentries = 0;
	uint64_t	passing = 0;

	if (pairs == NULL || pairs->npairs < MIN_SAMPLE_PAIRS || prog->kind != GL_PROG_MULTI)
		return NULL;
	lits = (GlSetLiteral *) malloc(GL_SET_MAX_LITERALS * sizeof(GlSetLiteral));
	set = (GlLiteralSet *) calloc(1, sizeof(GlLiteralSet));
	if (lits == NULL || set == NULL || !gl_set_literals(prog, lits, &nlits))
	{
		free(lits);
		free(set);
		return NULL;
	}
	for (uint32_t p = 0; p < 65536; p++)
		key_count[pair_key(p >> 8, p & 0xFF)] += pairs->pairs[p];
	for (uint32_t l = 0; l < nlits; l++)
	{
		uint32_t	rarest = 0;
		uint64_t	fewest = UINT64_MAX;

		for (uint32_t k = 0; k + 1 < lits[l].length; k++)
		{
			uint64_t	n = key_count[pair_key(lits[l].bytes[k], lits[l].bytes[k + 1])];

			if (n < fewest)
			{
				fewest = n;
				rarest = k;
			}
		}
		key_of[l] = pair_key(lits[l].bytes[rarest], lits[l].bytes[rarest + 1]) << 8 | rarest;
		set->filter[key_of[l] >> 13] |= 1u << ((key_of[l] >> 8) & 31);
		memcpy(&set->bytes[l], lits[l].bytes, GL_SET_MAX_BYTES);
		memcpy(&set->masks[l], lits[l].masks, GL_SET_MAX_BYTES);
	}
	/* each key's literals, their entries together */
	for (uint32_t key = 0; key < GL_SET_KEYS; key++)
	{
		uint32_t	first = nentries;

		for (uint32_t l = 0; l < nlits; l++)
			if (key_of[l] >> 8 == key)
				set->entry[nentries++] = l << 16 | lits[l].length << 8 | (key_of[l] & 0xFF);
		if (nentries - first == 1)
			set->bucket[key] = 1u << 24 | set->entry[first];
		else if (nentries > first)
			set->bucket[key] = (nentries - first) << 24 | first;
	}
	for (uint32_t key = 0; key < GL_SET_KEYS; key++)
		if ((set->filter[key >> 5] >> (key & 31)) & 1)
			passing += key_count[key];
	set->sample_pass = (double) passing / pairs->npairs;
	free(lits);
	if (set->sample_pass > MAX_SAMPLE_PASS)
	{
		free(set);
		return NULL;
	}
	return set;
}
