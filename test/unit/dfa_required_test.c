/*-------------------------------------------------------------------------
 *
 * dfa_required_test.c
 *	  Unit tests of gl_dfa_requires() (dfa_required.c): whether every value
 *	  an automaton over colors matches contains a literal.
 *
 * Small automata whose answers are plain ("contains ab" requires "ab" and
 * "b", not "abc"; a color of two letters requires neither alone; an
 * automaton that accepts at its start requires nothing), a non-ASCII
 * literal, and random automata over three characters checked against a
 * search of every string up to the length that decides it: a required
 * literal the check proves must have no counterexample, and one it
 * refuses must have one.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "program/dfa_required.h"
#include "tap.h"

static uint32_t rng_state = 777;

static uint32_t
rnd(uint32_t n)
{
	rng_state = rng_state * 1103515245 + 12345;
	return (rng_state >> 8) % n;
}

static uint16_t ascii[128];

static GlDfaSpec
spec_of(int nstates, int ncolors, const uint16_t *trans, const uint8_t *flags)
{
	GlDfaSpec	spec = {
		.nstates = nstates,
		.ncolors = ncolors,
		.start_state = 0,
		.trans = trans,
		.flags = flags,
		.ascii_color = ascii,
		.ranges = NULL,
		.nranges = 0,
		.default_color = 0,
		.exact = true,
		.utf8 = true,
	};

	return spec;
}

static bool
requires(const GlDfaSpec *spec, const char *lit)
{
	return gl_dfa_requires(spec, lit, strlen(lit));
}

/*
 * "contains color 1 then color 2" (color 0: every other byte); the tests
 * give the colors their letters.
 */
static const uint16_t one_then_two_trans[] = {
	0, 1, 0,
	0, 1, 2,
	2, 2, 2,
};
static const uint8_t one_then_two_flags[] = {0, 0, GL_DFA_ACCEPT};

/* "contains ab": colors 0 other, 1 'a', 2 'b'. */
static void
test_contains_ab(void)
{
	GlDfaSpec	spec = spec_of(3, 3, one_then_two_trans, one_then_two_flags);

	memset(ascii, 0, sizeof(ascii));
	ascii['a'] = 1;
	ascii['b'] = 2;
	tap_ok(requires(&spec, "ab"), "contains ab: requires \"ab\"");
	tap_ok(requires(&spec, "a") && requires(&spec, "b"), "contains ab: requires \"a\", \"b\"");
	tap_ok(!requires(&spec, "abc"), "contains ab: not \"abc\"");
	tap_ok(!requires(&spec, "ba"), "contains ab: not \"ba\"");
	tap_ok(!requires(&spec, "x"), "contains ab: not \"x\"");
	tap_ok(!requires(&spec, ""), "contains ab: not the empty string");
}

/* "contains [ab]c": colors 0 other, 1 {a, b}, 2 'c'. */
static void
test_two_letter_color(void)
{
	GlDfaSpec	spec = spec_of(3, 3, one_then_two_trans, one_then_two_flags);

	memset(ascii, 0, sizeof(ascii));
	ascii['a'] = 1;
	ascii['b'] = 1;
	ascii['c'] = 2;
	tap_ok(requires(&spec, "c"), "[ab]c: requires \"c\"");
	tap_ok(!requires(&spec, "ac") && !requires(&spec, "bc"),
		   "[ab]c: requires neither \"ac\" nor \"bc\"");
	tap_ok(!requires(&spec, "a"), "[ab]c: not \"a\"");
}

/* "a$": accepted only at the end; and an automaton accepting at once. */
static void
test_end_and_start(void)
{
	static const uint16_t trans[] = {
		0, 1,
		0, 1,
	};
	static const uint8_t flags[] = {0, GL_DFA_ACCEPT_AT_END};
	static const uint8_t at_once[] = {GL_DFA_ACCEPT, GL_DFA_ACCEPT};
	static const uint8_t dead[] = {GL_DFA_DEAD, GL_DFA_DEAD};
	GlDfaSpec	spec = spec_of(2, 2, trans, flags);

	memset(ascii, 0, sizeof(ascii));
	ascii['a'] = 1;
	tap_ok(requires(&spec, "a"), "a$: requires \"a\"");
	tap_ok(!requires(&spec, "aa"), "a$: not \"aa\"");
	spec.flags = at_once;
	tap_ok(!requires(&spec, "a"), "accepting start: requires nothing");
	spec.flags = dead;
	tap_ok(requires(&spec, "zzz"), "dead start (matches nothing): every literal holds");
}

/* "contains é" (U+00E9 in a range of its own), in UTF-8 and as one byte. */
static void
test_non_ascii(void)
{
	static const uint16_t trans[] = {
		0, 1,
		1, 1,
	};
	static const uint8_t flags[] = {0, GL_DFA_ACCEPT};
	static const GlColorRange ranges[] = {{0xE9, 0xE9, 1, 0}};
	static const GlColorRange wide[] = {{0xE0, 0xEF, 1, 0}};
	GlDfaSpec	spec = spec_of(2, 2, trans, flags);

	memset(ascii, 0, sizeof(ascii));
	spec.ranges = ranges;
	spec.nranges = 1;
	tap_ok(requires(&spec, "\xc3\xa9"), "contains \xc3\xa9: requires it (UTF-8)");
	tap_ok(!requires(&spec, "\xc3"), "contains \xc3\xa9: a cut character is refused");
	spec.ranges = wide;
	tap_ok(!requires(&spec, "\xc3\xa9"), "a color of U+00E0..U+00EF: not \xc3\xa9 alone");
	spec.ranges = ranges;
	spec.utf8 = false;
	tap_ok(requires(&spec, "\xe9"), "single-byte: requires byte 0xE9");
}

/*
 * Random automata over colors of 'a', 'b' and 'x' (every other character
 * is x's color 0): does a string of at most maxlen characters over a, b, x
 * match and lack lit?  Depth-first, the substring test done the plain way.
 */
static bool
counterexample(const GlDfaSpec *spec, int state, char *buf, int len, int maxlen,
			   const char *lit)
{
	static const char pool[] = {'a', 'b', 'x'};

	buf[len] = '\0';
	if (strstr(buf, lit) != NULL)
		return false;
	if (spec->flags[state] & (GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END))
		return true;
	if ((spec->flags[state] & GL_DFA_DEAD) || len == maxlen)
		return false;
	for (int i = 0; i < 3; i++)
	{
		buf[len] = pool[i];
		if (counterexample(spec, spec->trans[state * spec->ncolors + ascii[(int) pool[i]]],
						   buf, len + 1, maxlen, lit))
			return true;
	}
	return false;
}

static void
test_random_automata(void)
{
	static const char *const lits[] = {"a", "b", "ab", "ba", "aa", "aba", "bab"};
	int			agree = 0,
				rounds = 400,
				required = 0;

	for (int round = 0; round < rounds; round++)
	{
		int			nstates = 1 + rnd(4);
		int			ncolors = 1 + rnd(3);
		uint16_t	trans[4 * 3];
		uint8_t		flags[4];
		const char *lit = lits[rnd(sizeof(lits) / sizeof(lits[0]))];
		GlDfaSpec	spec = spec_of(nstates, ncolors, trans, flags);
		char		buf[32];
		bool		proven;
		bool		refuted;

		memset(ascii, 0, sizeof(ascii));
		ascii['a'] = rnd(ncolors);
		ascii['b'] = rnd(ncolors);
		for (int i = 0; i < nstates * ncolors; i++)
			trans[i] = rnd(nstates);
		for (int s = 0; s < nstates; s++)
		{
			uint32_t	r = rnd(8);

			flags[s] = r == 0 ? GL_DFA_ACCEPT : r == 1 ? GL_DFA_ACCEPT_AT_END :
				r == 2 ? GL_DFA_DEAD : 0;
		}
		proven = requires(&spec, lit);
		/* the product has nstates * strlen(lit) pairs: a shortest path is shorter */
		refuted = counterexample(&spec, 0, buf, 0, nstates * (int) strlen(lit) + 1, lit);
		if (proven != refuted)
			agree++;
		else
			tap_diag("round %d: %d states, %d colors, \"%s\": proven %d, refuted %d",
					 round, nstates, ncolors, lit, proven, refuted);
		required += proven;
	}
	tap_ok(agree == rounds, "random automata: %d of %d agree with the search (%d required)",
		   agree, rounds, required);
	tap_ok(required > rounds / 20 && required < rounds - rounds / 20,
		   "random automata: both answers are common (%d required)", required);
}

int
main(void)
{
	test_contains_ab();
	test_two_letter_color();
	test_end_and_start();
	test_non_ascii();
	test_random_automata();
	return tap_done();
}
