/*-------------------------------------------------------------------------
 *
 * dfa_test.c
 *	  Unit tests of the CPU engine's DFA runner (cpu_dfa.c) on hand-built
 *	  GL_PROG_DFA programs.
 *
 * The regex compiler needs a backend, so these automata are made up here
 * and assembled by the DFA builder the compiler uses (dfa_build.c): small
 * automata whose answers are
 * obvious ("contains ab", "a$", "^é$"), code point ranges probed at their
 * borders in 2-, 3- and 4-byte UTF-8, single-byte (SQL_ASCII) decoding,
 * truncated UTF-8 at the end of a value, and random automata checked
 * against a plain reference runner that decodes the whole value first.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_dfa.h"
#include "engine/cpu_engine.h"
#include "program/dfa_build.h"
#include "tap.h"

static uint32_t rng_state = 4242;

static uint32_t
rnd(uint32_t n)
{
	rng_state = rng_state * 1103515245 + 12345;
	return (rng_state >> 8) % n;
}

typedef struct DfaSpec
{
	int			nstates;
	int			ncolumns;
	int			start;
	const uint16_t *trans;		/* [nstates * ncolumns] */
	const uint8_t *flags;		/* [nstates] */
	uint16_t	ascii[128];
	const GlColorRange *ranges;
	int			nranges;
	uint32_t	default_color;
	bool		utf8;
} DfaSpec;

static GlProgram *
build_dfa(const DfaSpec *spec)
{
	GlDfaSpec	dfa = {
		.nstates = spec->nstates,
		.ncolors = spec->ncolumns,
		.start_state = spec->start,
		.trans = spec->trans,
		.flags = spec->flags,
		.ascii_color = spec->ascii,
		.ranges = spec->ranges,
		.nranges = spec->nranges,
		.default_color = spec->default_color,
		.exact = true,
		.utf8 = spec->utf8,
	};

	return gl_build_dfa(&dfa);
}

static bool
run(const GlProgram *prog, const char *s)
{
	return gl_cpu_match_dfa(prog, s, strlen(s));
}

/* Encode one code point as UTF-8; returns the byte count. */
static int
utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80)
	{
		out[0] = (char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		out[0] = (char) (0xC0 | (cp >> 6));
		out[1] = (char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		out[0] = (char) (0xE0 | (cp >> 12));
		out[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char) (0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char) (0xF0 | (cp >> 18));
	out[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char) (0x80 | (cp & 0x3F));
	return 4;
}

/* "contains ab": columns 0 other, 1 'a', 2 'b'; state 2 accepts. */
static void
test_contains_ab(void)
{
	static const uint16_t trans[] = {
		0, 1, 0,				/* 0: nothing yet */
		0, 1, 2,				/* 1: just read a */
		2, 2, 2,				/* 2: found */
	};
	static const uint8_t flags[] = {0, 0, GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END};
	DfaSpec		spec = {3, 3, 0, trans, flags, {0}, NULL, 0, 0, true};
	GlProgram  *p;

	spec.ascii['a'] = 1;
	spec.ascii['b'] = 2;
	p = build_dfa(&spec);
	tap_ok(run(p, "ab"), "contains ab: \"ab\"");
	tap_ok(run(p, "xxaab"), "contains ab: \"xxaab\"");
	tap_ok(run(p, "ab\xc3\xa9\xe2\x82\xac"), "contains ab: match before multibyte text");
	tap_ok(run(p, "\xc3\xa9" "ab"), "contains ab: match after a 2-byte character");
	tap_ok(!run(p, "a\xc3\xa9" "b"), "contains ab: a multibyte character between a and b breaks it");
	tap_ok(!run(p, ""), "contains ab: empty string");
	tap_ok(!run(p, "ba"), "contains ab: \"ba\"");
	tap_ok(gl_cpu_match_value(p, "zab", 3), "the engine dispatches DFA programs to the DFA runner");
	free(p);
}

/* "a$": state 1 (just read a) accepts only if the value ends there. */
static void
test_accept_at_end(void)
{
	static const uint16_t trans[] = {
		0, 1,
		0, 1,
	};
	static const uint8_t flags[] = {0, GL_DFA_ACCEPT_AT_END};
	DfaSpec		spec = {2, 2, 0, trans, flags, {0}, NULL, 0, 0, true};
	GlProgram  *p;

	spec.ascii['a'] = 1;
	p = build_dfa(&spec);
	tap_ok(run(p, "ba"), "a$: \"ba\"");
	tap_ok(!run(p, "ab"), "a$: \"ab\"");
	tap_ok(!run(p, "a\xf0\x9f\x98\x80"), "a$: not when a 4-byte character follows");
	tap_ok(run(p, "\xf0\x9f\x98\x80" "a"), "a$: after a 4-byte character");
	free(p);
}

/* "^é$" through a range: 0 start, 1 after é (end ok), 2 dead. */
static void
test_anchored_multibyte(void)
{
	static const uint16_t trans[] = {
		2, 1,
		2, 2,
		2, 2,
	};
	static const uint8_t flags[] = {0, GL_DFA_ACCEPT_AT_END, GL_DFA_DEAD};
	static const GlColorRange ranges[] = {{0xE9, 0xE9, 1, 0}};
	DfaSpec		spec = {3, 2, 0, trans, flags, {0}, ranges, 1, 0, true};
	GlProgram  *p = build_dfa(&spec);

	tap_ok(run(p, "\xc3\xa9"), "^é$: \"é\"");
	tap_ok(!run(p, "\xc3\xa9\xc3\xa9"), "^é$: \"éé\"");
	tap_ok(!run(p, "e"), "^é$: \"e\"");
	tap_ok(!run(p, "\xc3\x89"), "^é$: \"É\" (U+00C9) is another code point");
	tap_ok(!run(p, ""), "^é$: empty string");
	free(p);
}

/* Absorbing start states decide before reading anything. */
static void
test_decided_start(void)
{
	static const uint16_t trans[] = {0};
	static const uint8_t dead[] = {GL_DFA_DEAD};
	static const uint8_t accept[] = {GL_DFA_ACCEPT};
	DfaSpec		spec = {1, 1, 0, trans, dead, {0}, NULL, 0, 0, true};
	GlProgram  *p = build_dfa(&spec);

	tap_ok(!run(p, "") && !run(p, "anything"), "a DEAD start state never matches");
	free(p);
	spec.flags = accept;
	p = build_dfa(&spec);
	tap_ok(run(p, "") && run(p, "x\xc3\xa9"), "an ACCEPT start state always matches");
	free(p);
}

/*
 * "contains a character of column 1", whose ranges sit in 2-, 3- and 4-byte
 * UTF-8; every range border is probed from both sides.
 */
static void
test_range_borders(void)
{
	static const uint16_t trans[] = {
		0, 1,
		1, 1,
	};
	static const uint8_t flags[] = {0, GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END};
	static const GlColorRange ranges[] = {
		{0x80, 0x80, 1, 0},
		{0x3B1, 0x3C9, 1, 0},	/* Greek small letters */
		{0x7FF, 0x800, 1, 0},	/* across the 2/3-byte border */
		{0x20AC, 0x20AC, 1, 0}, /* euro sign */
		{0xFFFF, 0x10000, 1, 0},	/* across the 3/4-byte border */
		{0x1F600, 0x1F64F, 1, 0},	/* emoticons */
		{0x10FFFF, 0x10FFFF, 1, 0},
	};
	DfaSpec		spec = {2, 2, 0, trans, flags, {0}, ranges, 7, 0, true};
	GlProgram  *p = build_dfa(&spec);
	int			i;
	int			inside_ok = 0,
				outside_ok = 0,
				probes = 0;

	for (i = 0; i < 7; i++)
	{
		uint32_t	in[2] = {ranges[i].lo, ranges[i].hi};
		uint32_t	out[2] = {ranges[i].lo - 1, ranges[i].hi + 1};
		int			k;

		for (k = 0; k < 2; k++)
		{
			char		buf[8];
			int			n;
			bool		out_is_inside = false;
			int			j;

			n = utf8_encode(in[k], buf);
			inside_ok += gl_cpu_match_dfa(p, buf, n);
			for (j = 0; j < 7; j++)
				out_is_inside |= (out[k] >= ranges[j].lo && out[k] <= ranges[j].hi);
			if (out[k] > 0x10FFFF || out[k] < 0x80 || out_is_inside)
				outside_ok++;	/* not a probe of a non-member */
			else
			{
				n = utf8_encode(out[k], buf);
				outside_ok += !gl_cpu_match_dfa(p, buf, n);
			}
			probes++;
		}
	}
	tap_ok(inside_ok == probes, "range borders: all %d in-range code points map to their column", probes);
	tap_ok(outside_ok == probes, "range borders: code points just outside map to the default");
	free(p);
}

/* SQL_ASCII: every byte is one character; high bytes go through ranges. */
static void
test_single_byte(void)
{
	static const uint16_t trans[] = {
		0, 1,
		1, 1,
	};
	static const uint8_t flags[] = {0, GL_DFA_ACCEPT};
	static const GlColorRange ranges[] = {{0xE9, 0xE9, 1, 0}};
	DfaSpec		spec = {2, 2, 0, trans, flags, {0}, ranges, 1, 0, false};
	GlProgram  *p = build_dfa(&spec);

	tap_ok(run(p, "ab\xe9"), "single-byte: byte 0xE9 is code point 0xE9");
	tap_ok(!run(p, "\xc3\xa9"), "single-byte: UTF-8 é is two other characters");
	free(p);
}

/* A value cut in the middle of a character ends the value, no overrun. */
static void
test_truncated_utf8(void)
{
	static const uint16_t trans[] = {
		0, 1,
		1, 1,
	};
	static const uint8_t flags[] = {0, GL_DFA_ACCEPT};
	static const GlColorRange ranges[] = {{0x20AC, 0x20AC, 1, 0}};
	DfaSpec		spec = {2, 2, 0, trans, flags, {0}, ranges, 1, 0, true};
	GlProgram  *p = build_dfa(&spec);
	const char *euro = "x\xe2\x82\xac";

	tap_ok(gl_cpu_match_dfa(p, euro, 4), "a whole euro sign matches");
	tap_ok(!gl_cpu_match_dfa(p, euro, 3), "a euro sign cut after 2 of its 3 bytes does not");
	free(p);
}

/*
 * Reference: decode the whole value to code points, map each by linear
 * search, step, stop at the first ACCEPT or DEAD state.
 */
static bool
reference_run(const DfaSpec *spec, const uint32_t *cps, int n)
{
	int			state = spec->start;
	int			i;

	for (i = 0;; i++)
	{
		uint32_t	col = spec->default_color;
		int			r;

		if (spec->flags[state] & GL_DFA_ACCEPT)
			return true;
		if (spec->flags[state] & GL_DFA_DEAD)
			return false;
		if (i == n)
			return (spec->flags[state] & GL_DFA_ACCEPT_AT_END) != 0;
		if (cps[i] < 128)
			col = spec->ascii[cps[i]];
		else
			for (r = 0; r < spec->nranges; r++)
				if (cps[i] >= spec->ranges[r].lo && cps[i] <= spec->ranges[r].hi)
					col = spec->ranges[r].color;
		state = spec->trans[state * spec->ncolumns + col];
	}
}

static void
test_random_automata(void)
{
	static const uint32_t pool[] = {'a', 'b', 'c', ' ', 0xE9, 0xC9, 0x3B1, 0x7FF,
	0x800, 0x20AC, 0x4E2D, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};
	int			npool = sizeof(pool) / sizeof(pool[0]);
	int			round;
	int			agree = 0,
				rounds = 2000,
				matched = 0;

	for (round = 0; round < rounds; round++)
	{
		uint16_t	trans[8 * 4];
		uint8_t		flags[8];
		GlColorRange ranges[6];
		DfaSpec		spec;
		GlProgram  *p;
		uint32_t	cps[24];
		char		buf[24 * 4];
		int			len = 0,
					n,
					i;
		uint32_t	lo = 0x80;

		memset(&spec, 0, sizeof(spec));
		spec.nstates = 1 + rnd(8);
		spec.ncolumns = 1 + rnd(4);
		spec.start = rnd(spec.nstates);
		spec.utf8 = true;
		spec.default_color = rnd(spec.ncolumns);
		for (i = 0; i < spec.nstates * spec.ncolumns; i++)
			trans[i] = rnd(spec.nstates);
		for (i = 0; i < spec.nstates; i++)
		{
			uint32_t	r = rnd(10);

			flags[i] = r == 0 ? GL_DFA_ACCEPT : r == 1 ? GL_DFA_DEAD :
				r < 5 ? GL_DFA_ACCEPT_AT_END : 0;
		}
		for (i = 0; i < 128; i++)
			spec.ascii[i] = rnd(spec.ncolumns);
		/* sorted, disjoint ranges with random gaps */
		for (i = 0; i < 6; i++)
		{
			uint32_t	start = lo + rnd(i < 3 ? 0x400 : 0x20000);
			uint32_t	end = start + rnd(0x3000);

			if (end > 0x10FFFF)
				break;
			ranges[i].lo = start;
			ranges[i].hi = end;
			ranges[i].color = rnd(spec.ncolumns);
			ranges[i].pad = 0;
			lo = end + 1;
		}
		spec.nranges = i;
		spec.trans = trans;
		spec.flags = flags;
		spec.ranges = ranges;
		p = build_dfa(&spec);

		n = rnd(24);
		for (i = 0; i < n; i++)
		{
			/* pool characters, and code points near the random ranges */
			if (spec.nranges > 0 && rnd(3) == 0)
			{
				const GlColorRange *r = &ranges[rnd(spec.nranges)];

				cps[i] = rnd(2) ? r->lo : r->hi + 1;
			}
			else
				cps[i] = pool[rnd(npool)];
			len += utf8_encode(cps[i], buf + len);
		}
		if (gl_cpu_match_dfa(p, buf, len) == reference_run(&spec, cps, n))
			agree++;
		matched += reference_run(&spec, cps, n);
		free(p);
	}
	tap_ok(agree == rounds, "random automata: runner equals the reference on %d of %d values (%d matches)",
		   agree, rounds, matched);
}

int
main(void)
{
	test_contains_ab();
	test_accept_at_end();
	test_anchored_multibyte();
	test_decided_start();
	test_range_borders();
	test_single_byte();
	test_truncated_utf8();
	test_random_automata();
	return tap_done();
}
