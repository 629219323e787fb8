/*-------------------------------------------------------------------------
 *
 * literal_factors.cc
 *	  Choosing, for each literal of a LIKE ANY list that is rare in the
 *	  column, a factor the column's sample never holds, and building the
 *	  automaton of the other literals and those factors (literal_factors.h).
 *
 * The stream kernel walks an Aho–Corasick automaton one table load a
 * byte, and past the compact table's 127 states those loads meet in the
 * shared memory's banks (H200, kernel_bench: 40 literals, 198 states,
 * 47-48% of the read bandwidth; 200, 753 states, 44%), most of all where
 * many literals share prefixes with the text's own words, whose states
 * the text then keeps visiting.  A list mixing words of the text with
 * made-up ones (a product catalogue's names among its descriptions) has
 * few literals that match often and many that hardly ever do.  The rare
 * ones need not be walked whole: a row holds one of them only where it
 * holds that literal's rarest factor, and a factor of two or three bytes
 * the sample never holds takes a state or two, not a literal's worth.
 *
 *	- the literals come back from the program (gl_set_literals());
 *	- a literal of three bytes or more has a factor where some two or
 *	  three adjacent bytes of it (in any case, folded) are in none of the
 *	  sampled rows' pairs (GlBytePairs.pairs) or trigrams (.trigrams,
 *	  hashed: a collision only keeps a literal whole);
 *	- of a literal's factors, the one whose states the text would enter
 *	  least often (choose_factor()): what the walk costs is the states it
 *	  keeps visiting, which meet on the shared memory's banks;
 *	- the automaton is Aho–Corasick over the literals left whole and the
 *	  factors, a state's string ending in a literal deciding its row, one
 *	  ending in a factor alone making the row a candidate
 *	  (byte_dfa.h, gl_build_factored_byte_dfa()), and the per-row kernel
 *	  decides the candidates' rows with the whole list (cuda/match.cu).
 * A row with a literal holds its factor, so its answer comes from the
 * per-row kernel where the stream kernel left it a candidate: exact.
 *
 * The sample decides only the speed.  Where it misses a factor common in
 * the rest of the column, the rows holding it are candidates and the
 * per-row kernel reads them, or past one chunk in eight the walk gives up
 * and the table the factored automaton replaced walks the whole column
 * (cuda/match.cu), and the column's cache prepares the program again without
 * the factors (cuda/program_cache.cu): kernel_bench's column built to miss,
 * 57% of its rows candidates, takes 1.45 times the usual column's time at
 * its first match, 1.19 at the next ones (H200, test/kernels/kernel_bench).
 *
 * Measured on an H200 (test/kernels/kernel_bench, 2.1 GB, % of the read
 * bandwidth, two rounds in one run): kernel_bench's lists of ten of the
 * text's words and made-up ones with a 'q', 40 literals 47.4-47.5 ->
 * 55.9-56.0 (70 states), 200 43.8-43.9 -> 51.4-51.7 (84), 200 of letters
 * 44.7-44.9 -> 51.6-51.8 (81).  Each literal's factor chosen by its first
 * byte alone, and literals of three bytes kept whole, gave 90-94 states
 * and 49.0-50.6% for the 200; simulated on 200 MB of the text, 2.73 -> 2.55
 * wavefronts a table load (test/kernels/bank_sim walks the factored table
 * of its own draw of 200: 2.33, the windowed table's 2.97).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

extern "C"
{
#include "program/multi_build.h"
}
#include "kernel_prep/literal_factors.h"
#include "kernel_prep/literal_set.h"

/* Fewer sampled pairs than this tell too little to choose on. */
static const uint64_t MIN_SAMPLE_PAIRS = 4096;
/* A literal shorter than this is its own factor: it stays whole. */
static const uint32_t MIN_FACTORED_BYTES = 3;

/* The bytes a literal's byte k stands for: one, or an ASCII letter's two cases. */
static int
byte_variants(const GlSetLiteral *lit, uint32_t k, uint8_t out[2])
{
	out[0] = lit->bytes[k];
	if (lit->masks[k] == 0xFF)
		return 1;
	out[1] = (uint8_t) (lit->bytes[k] | 0x20);
	return 2;
}

/*
 * How often the sample holds the one or two bytes at .. at + len - 1 of
 * lit, in any of their cases.
 */
static uint64_t
prefix_count(const GlBytePairs *pairs, const GlSetLiteral *lit, uint32_t at, uint32_t len)
{
	uint8_t		v[2][2];
	int			n[2] = {1, 1};
	uint64_t	count = 0;

	for (uint32_t k = 0; k < len; k++)
		n[k] = byte_variants(lit, at + k, v[k]);
	for (int i = 0; i < n[0]; i++)
		for (int j = 0; j < n[1]; j++)
			count += len == 1 ? pairs->bytes[v[0][i]] : pairs->pairs[v[0][i] << 8 | v[1][j]];
	return count;
}

/*
 * Does the sample hold the two or three bytes at .. at + len - 1 of lit,
 * in any of their cases?
 */
static bool
factor_seen(const GlBytePairs *pairs, const GlSetLiteral *lit, uint32_t at, uint32_t len)
{
	uint8_t		v[3][2];
	int			n[3];

	if (len == 2)
		return prefix_count(pairs, lit, at, 2) > 0;
	for (uint32_t k = 0; k < 3; k++)
		n[k] = byte_variants(lit, at + k, v[k]);
	for (int i = 0; i < n[0]; i++)
		for (int j = 0; j < n[1]; j++)
			for (int k = 0; k < n[2]; k++)
				if (gl_trigram_seen(pairs, v[0][i], v[1][j], v[2][k]))
					return true;
	return false;
}

/* The literal's bytes, a letter of either case as its upper case (the build folds it). */
static std::string
literal_bytes(const GlSetLiteral *lit, uint32_t at, uint32_t len)
{
	return std::string((const char *) lit->bytes + at, len);
}

/* Has lit a factor the sample never holds? */
static bool
has_factor(const GlBytePairs *pairs, const GlSetLiteral *lit)
{
	if (lit->length < MIN_FACTORED_BYTES)
		return false;
	for (uint32_t len = 2; len <= 3; len++)
		for (uint32_t at = 0; at + len <= lit->length; at++)
			if (!factor_seen(pairs, lit, at, len))
				return true;
	return false;
}

/*
 * lit's factor (it has one), into *factor: of those the sample never
 * holds, the one whose new states the text would enter least often.  A
 * factor's states are its proper prefixes, and those the automaton has
 * already (a literal kept whole, or a factor chosen before, begins with
 * them) cost nothing more; the text enters each other as often as the
 * sample holds its bytes.  (A factor's own state, its end, the text
 * never enters.)
 * The shorter of equals.  A three-byte literal may be its own factor, its
 * rows then candidates: where its prefixes are states already that costs
 * the walk less than a bigram's new first state (a 0.2 GB draw of
 * kernel_bench's 200 literals, simulated: 2.55 wavefronts a load against
 * 2.64 with factors kept shorter than their literals).
 */
static void
choose_factor(const GlBytePairs *pairs, const GlSetLiteral *lit,
			  const std::set<std::string> &states, std::string *factor)
{
	bool		found = false;
	uint64_t	best = 0;

	for (uint32_t len = 2; len <= 3; len++)
		for (uint32_t at = 0; at + len <= lit->length; at++)
		{
			uint64_t	cost = 0;

			if (factor_seen(pairs, lit, at, len))
				continue;
			for (uint32_t k = 1; k < len; k++)
				if (states.count(literal_bytes(lit, at, k)) == 0)
					cost += prefix_count(pairs, lit, at, k);
			if (!found || cost < best)
			{
				found = true;
				best = cost;
				*factor = literal_bytes(lit, at, len);
			}
		}
}

/*
 * What the string of each state of prog (the literals' and factors'
 * automaton) ends in, into end_kind (GlFactoredEnd): each list entry's
 * end by walking it from the root, and the ends of a state's longest
 * proper suffix in the trie passed on to it, breadth first
 * (gl_trie_walk()).
 */
static void
end_kinds(const GlProgram *prog, const std::vector<std::string> &lits, size_t nliterals,
		  std::vector<uint8_t> &end_kind)
{
	GlMultiTables m = gl_multi_tables(prog);
	std::vector<uint32_t> order(m.nstates), parent(m.nstates), via(m.nstates),
				depth(m.nstates), suffix(m.nstates);
	GlTrieWalk	w = {order.data(), parent.data(), via.data(), depth.data(), suffix.data()};
	std::vector<uint8_t> literal_end(m.nstates, 0);
	std::vector<uint8_t> factor_end(m.nstates, 0);

	for (size_t i = 0; i < lits.size(); i++)
	{
		uint32_t	s = 0;

		for (char c : lits[i])
			s = m.next[(size_t) s * m.nclasses + m.byte_class[(uint8_t) c]];
		(i < nliterals ? literal_end : factor_end)[s] = 1;
	}
	order.resize(gl_trie_walk(&m, &w));
	end_kind.assign(m.nstates, GL_FACTORED_NO_END);
	for (uint32_t v : order)
	{
		bool		literal = literal_end[v] || (v != 0 && end_kind[suffix[v]] ==
												 GL_FACTORED_LITERAL_END);
		bool		factor = factor_end[v] || (v != 0 && end_kind[suffix[v]] ==
											   GL_FACTORED_FACTOR_END);

		end_kind[v] = literal ? GL_FACTORED_LITERAL_END :
			factor ? GL_FACTORED_FACTOR_END : GL_FACTORED_NO_END;
	}
}

/* The factored automaton of the whole literals and the factors, as gl_factor_literals(). */
static bool
build_factored(const GlProgram *prog, bool fold, const std::vector<std::string> &lits,
			   size_t nliterals, uint32_t max_states, GlByteDfa *out)
{
	std::vector<const char *> ptrs;
	std::vector<size_t> lens;
	std::vector<uint8_t> end_kind;
	const char *error;
	GlProgram  *factored;
	bool		ok;

	for (const std::string &l : lits)
	{
		ptrs.push_back(l.data());
		lens.push_back(l.size());
	}
	factored = gl_build_multi(ptrs.data(), lens.data(), (int) lits.size(), fold,
							  prog->utf8 != 0, &error);
	if (factored == NULL)
		return false;
	end_kinds(factored, lits, nliterals, end_kind);
	ok = gl_build_factored_byte_dfa(factored, end_kind.data(), max_states, out);
	free(factored);
	return ok;
}

bool
gl_factor_literals(const GlProgram *prog, const GlBytePairs *pairs, uint32_t max_states,
				   GlByteDfa *out, uint32_t *nfactored)
{
	GlSetLiteral *lits;
	uint32_t	nlits = 0;
	bool		ok = false;

	*nfactored = 0;
	if (pairs == NULL || pairs->npairs < MIN_SAMPLE_PAIRS)
		return false;
	lits = (GlSetLiteral *) malloc(GL_SET_MAX_LITERALS * sizeof(GlSetLiteral));
	/* The server's threads must never see a C++ exception (out of memory). */
	try
	{
		if (lits != NULL && gl_set_literals(prog, lits, &nlits))
		{
			std::vector<std::string> whole;
			std::vector<std::string> factors;
			std::vector<bool> factored(nlits);
			std::set<std::string> states;	/* the automaton's, but for the factors' ends */
			bool		fold = false;

			for (uint32_t i = 0; i < nlits; i++)
			{
				for (uint32_t k = 0; k < lits[i].length; k++)
					fold |= lits[i].masks[k] != 0xFF;
				factored[i] = has_factor(pairs, &lits[i]);
				if (factored[i])
					continue;
				whole.push_back(literal_bytes(&lits[i], 0, lits[i].length));
				for (uint32_t k = 1; k <= lits[i].length; k++)
					states.insert(literal_bytes(&lits[i], 0, k));
			}
			for (uint32_t i = 0; i < nlits; i++)
			{
				std::string factor;

				if (!factored[i])
					continue;
				choose_factor(pairs, &lits[i], states, &factor);
				(*nfactored)++;
				for (size_t k = 1; k < factor.size(); k++)
					states.insert(factor.substr(0, k));
				if (std::find(factors.begin(), factors.end(), factor) == factors.end())
					factors.push_back(factor);
			}
			if (*nfactored > 0)
			{
				size_t		nwhole = whole.size();

				whole.insert(whole.end(), factors.begin(), factors.end());
				ok = build_factored(prog, fold, whole, nwhole, max_states, out);
			}
		}
	}
	catch (...)
	{
		ok = false;
	}
	free(lits);
	if (!ok)
		*nfactored = 0;
	return ok;
}
