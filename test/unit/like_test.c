/*-------------------------------------------------------------------------
 *
 * like_test.c
 *	  Unit tests of the LIKE builder (like_build.c) and the CPU engine's
 *	  LIKE matcher (cpu_like.c) against an independent reference.
 *
 * The reference is the textbook dynamic program over characters:
 * can[i][j] = "pattern tokens j.. match text characters i..".  It shares no
 * code and no idea (segments, Shift-And, KMP, skims) with the engine, so
 * agreement over many random and adversarial cases means something.
 *
 * ILIKE is tested with a made-up lower() (test_case_fold.h) that, like
 * real ones, maps several code points to one (K, k and the Kelvin sign
 * U+212A all lower to k) and changes a character's byte length; the
 * builder gets the lowered pattern and the inverse of lower() as its
 * case-class callback, as the backend gives it PostgreSQL's own.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_engine.h"
#include "program/like_build.h"
#include "tap.h"
#include "test_case_fold.h"

/* ----------------------------------------------------------- reference */

static const uint32_t universe[] = {
	'a', 'b', 'c', 'i', 'k', 's', 'A', 'B', 'K', 'I', 'S', ' ', '%', '_', '\\',
	0xE9, 0xC9, 0xDF, 0x1E9E, 0x212A, 0x130, 0x131, 0x20AC, 0x1F600
};
#define UNIVERSE_SIZE (sizeof(universe) / sizeof(universe[0]))

typedef struct RefToken
{
	int			kind;			/* 0 char, 1 '_', 2 '%' */
	uint32_t	cp;
} RefToken;

static int
decode_all(const char *s, size_t len, bool utf8, uint32_t *out)
{
	size_t		i = 0;
	int			n = 0;

	while (i < len)
	{
		int			l = utf8 ? gl_utf8_decode(s + i, len - i, &out[n]) : 1;

		if (!utf8)
			out[n] = (unsigned char) s[i];
		i += l;
		n++;
	}
	return n;
}

/* Tokens of a pattern; -1 if it ends in a lone escape. */
static int
ref_tokens(const uint32_t *p, int pn, bool fold, RefToken *toks)
{
	int			n = 0,
				j;

	for (j = 0; j < pn; j++)
	{
		if (p[j] == '%' || p[j] == '_')
			toks[n].kind = (p[j] == '%') ? 2 : 1;
		else
		{
			if (p[j] == '\\' && ++j >= pn)
				return -1;
			toks[n].kind = 0;
			toks[n].cp = fold ? test_lower(p[j]) : p[j];
		}
		n++;
	}
	return n;
}

static bool
ref_like(const char *text, size_t tlen, const char *pat, size_t plen,
		 bool utf8, bool fold)
{
	uint32_t   *t = malloc(sizeof(uint32_t) * (tlen + 1));
	uint32_t   *p = malloc(sizeof(uint32_t) * (plen + 1));
	RefToken   *toks = malloc(sizeof(RefToken) * (plen + 1));
	int			tn = decode_all(text, tlen, utf8, t);
	int			pn = ref_tokens(p, decode_all(pat, plen, utf8, p), fold, toks);
	bool	   *can = calloc((size_t) (tn + 1) * (pn + 1), 1);
	bool		result;
	int			i,
				j;

#define CAN(i, j) can[(size_t) (i) * (pn + 1) + (j)]
	CAN(tn, pn) = true;
	for (i = tn; i >= 0; i--)
		for (j = pn - 1; j >= 0; j--)
		{
			if (toks[j].kind == 2)
				CAN(i, j) = CAN(i, j + 1) || (i < tn && CAN(i + 1, j));
			else if (i < tn && toks[j].kind == 1)
				CAN(i, j) = CAN(i + 1, j + 1);
			else if (i < tn)
				CAN(i, j) = (fold ? test_lower(t[i]) == toks[j].cp
							 : t[i] == toks[j].cp) && CAN(i + 1, j + 1);
		}
	result = CAN(0, 0);
#undef CAN
	free(t);
	free(p);
	free(toks);
	free(can);
	return result;
}

/* ------------------------------------------------------------- helpers */

static uint32_t rng_state = 12345;

static uint32_t
rnd(uint32_t n)
{
	rng_state = rng_state * 1103515245 + 12345;
	return (rng_state >> 8) % n;
}

/* Lower a UTF-8 pattern with test_lower(), as PostgreSQL lowers it. */
static size_t
lower_utf8(const char *s, size_t len, char *out)
{
	uint32_t	cps[1024];
	int			n = decode_all(s, len, true, cps),
				i;
	size_t		o = 0;

	for (i = 0; i < n; i++)
		o += gl_utf8_encode(test_lower(cps[i]), out + o);
	return o;
}

static bool
engine_like(const char *text, size_t tlen, const char *pat, size_t plen,
			bool utf8, bool fold, const char **error)
{
	GlProgram  *prog;
	char		lowered[2048];
	bool		r;

	if (fold)
	{
		plen = lower_utf8(pat, plen, lowered);
		pat = lowered;
	}
	prog = gl_build_like(pat, plen, utf8, fold ? test_case_class : NULL, NULL, error);
	if (prog == NULL)
		return false;
	r = gl_cpu_match_value(prog, text, (uint32_t) tlen);
	free(prog);
	return r;
}

static bool
check_case(const char *text, const char *pat, bool fold)
{
	const char *error = NULL;
	bool		got = engine_like(text, strlen(text), pat, strlen(pat), true, fold, &error);
	bool		want = ref_like(text, strlen(text), pat, strlen(pat), true, fold);

	if (error != NULL || got != want)
	{
		tap_diag("'%s' %s '%s': engine %d ref %d%s%s", text,
				 fold ? "ILIKE" : "LIKE", pat, got, want,
				 error ? " error: " : "", error ? error : "");
		return false;
	}
	return true;
}

static size_t
random_string(char *out, int maxchars, bool pattern)
{
	int			n = (int) rnd(maxchars + 1),
				i;
	size_t		o = 0;

	for (i = 0; i < n; i++)
	{
		uint32_t	r = rnd(100);

		if (pattern && r < 15)
			out[o++] = '%';
		else if (pattern && r < 25)
			out[o++] = '_';
		else if (pattern && r < 30)
		{
			out[o++] = '\\';
			o += gl_utf8_encode(universe[rnd(UNIVERSE_SIZE)], out + o);
		}
		else
			o += gl_utf8_encode(universe[rnd(r < 60 ? 6 : UNIVERSE_SIZE)], out + o);
	}
	/* a pattern must not end in a lone escape */
	if (pattern)
	{
		size_t		j = 0;

		while (j < o)
			j += (out[j] == '\\') ? 2 : 1;
		if (j > o)
			out[o++] = 'a';
	}
	out[o] = '\0';
	return o;
}

/*
 * A pattern made from the text, so that about half of the pairs match:
 * characters kept (sometimes escaped, sometimes upper-cased), replaced by
 * '_', or runs of them replaced by '%'; then sometimes a 'b' appended so
 * that near misses are common too.
 */
static void
derive_pattern(const char *text, char *out)
{
	uint32_t	cps[1024];
	int			n = decode_all(text, strlen(text), true, cps),
				first = n > 40 ? (int) rnd(n - 40) : 0,
				last = n > 40 ? first + 40 : n,
				i;
	size_t		o = 0;

	/* a window of at most 40 characters keeps segments under 64 */
	if (first > 0)
		out[o++] = '%';
	for (i = first; i < last; i++)
	{
		uint32_t	r = rnd(100);
		uint32_t	c = cps[i];

		if (r < 15)
			out[o++] = '_';
		else if (r < 30)
		{
			out[o++] = '%';
			i += (int) rnd(3);
		}
		else
		{
			if (c == '%' || c == '_' || c == '\\' || r < 35)
				out[o++] = '\\';
			if (r > 90 && c >= 'a' && c <= 'z')
				c -= 32;
			if (r > 95 && c == 'k')
				c = 0x212A;
			o += gl_utf8_encode(c, out + o);
		}
	}
	if (last < n)
		out[o++] = '%';
	if (rnd(3) == 0)
		out[o++] = 'b';
	out[o] = '\0';
}

/* --------------------------------------------------------------- tests */

static void
test_fixed_cases(void)
{
	static const char *const cases[][2] = {
		{"", ""}, {"", "%"}, {"", "_"}, {"a", ""}, {"abc", "abc"}, {"abc", "ab"},
		{"abc", "a%"}, {"abc", "%c"}, {"abc", "%b%"}, {"abc", "a_c"}, {"abc", "___"},
		{"abc", "____"}, {"abc", "%%%"}, {"aé€😀", "a___"}, {"aé€😀", "_é%"},
		{"aé€😀", "%😀"}, {"aé€😀", "%_"}, {"a%b", "a\\%b"}, {"axb", "a\\%b"},
		{"a_b", "%\\_%"}, {"ab", "%\\_%"}, {"a\\b", "a\\\\b"}, {"abab", "%ab%ab"},
		{"abab", "ab%ab"}, {"aab", "a%ab"}, {"ab", "a%ab"}, {"aaaaaaaaaab", "%aaab"},
		{"aaaaaaaaaab", "%a_a_b"}, {"xyz", "x%y%z"}, {"xzy", "x%y%z"},
		{"éé", "_é"}, {"é", "__"}, {"ÉCOLE", "%cole"}, {"€€€", "%€_"},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tap_ok(check_case(cases[i][0], cases[i][1], false),
			   "LIKE '%s' ~~ '%s'", cases[i][0], cases[i][1]);
	tap_ok(check_case("KELVIN", "%kel%", true), "ILIKE ASCII case");
	tap_ok(check_case("\xe2\x84\xaa", "k", true), "ILIKE Kelvin sign matches k");
	tap_ok(check_case("k", "\xe2\x84\xaa", true), "ILIKE k matches Kelvin pattern");
	tap_ok(check_case("ÉCOLE", "école", true), "ILIKE É/é");
	tap_ok(check_case("ß", "SS", true), "ILIKE ß does not match SS");
	tap_ok(check_case("İ", "i", true), "ILIKE dotted capital I lowers to i");
	tap_ok(check_case("ı", "I", true), "ILIKE dotless i is not i");
}

static void
test_errors_and_shape(void)
{
	const char *error = NULL;
	GlProgram  *prog;
	char		longpat[80];

	prog = gl_build_like("abc\\", 4, true, NULL, NULL, &error);
	tap_ok(prog == NULL && error != NULL, "pattern ending in escape refused");
	prog = gl_build_like("abc\\\\", 5, true, NULL, NULL, &error);
	tap_ok(prog != NULL, "escaped escape at the end is fine");
	free(prog);

	memset(longpat, 'x', 65);
	longpat[65] = '%';
	prog = gl_build_like(longpat, 66, true, NULL, NULL, &error);
	tap_ok(prog == NULL && error != NULL, "65-character segment refused");
	prog = gl_build_like(longpat + 1, 65, true, NULL, NULL, &error);
	tap_ok(prog != NULL, "64-character segment accepted");
	free(prog);

	prog = gl_build_like("ab%c_d%e", 8, true, NULL, NULL, &error);
	tap_ok(prog != NULL && prog->kind == GL_PROG_LIKE && prog->u.like.nsegments == 3 &&
		   prog->u.like.anchored_start && prog->u.like.anchored_end &&
		   prog->u.like.min_bytes == 6, "segments, anchors and min_bytes");
	if (prog != NULL)
	{
		const GlLikeSegment *segs = gl_program_section(prog, prog->u.like.segments_off);

		tap_ok(segs[0].is_literal && !segs[1].is_literal && segs[2].is_literal,
			   "literal segments flagged");
	}
	free(prog);

	{
		char		many[2 * 1025 + 1];
		int			k;

		for (k = 0; k < 1025; k++)
			memcpy(many + 2 * k, "%a", 2);
		prog = gl_build_like(many, 2 * 1025, true, NULL, NULL, &error);
		tap_ok(prog == NULL && error != NULL, "1025 segments refused");
		prog = gl_build_like(many, 2 * 1024, true, NULL, NULL, &error);
		tap_ok(prog != NULL && prog->u.like.nsegments == 1024 &&
			   gl_cpu_match_value(prog, many, 2 * 1024), "1024 segments accepted and matched");
		free(prog);
	}

	prog = gl_build_like("%%", 2, true, NULL, NULL, &error);
	tap_ok(prog != NULL && prog->u.like.nsegments == 0 && !prog->u.like.anchored_start,
		   "'%%%%' has no segments, unanchored");
	free(prog);
}

static void
test_random(int n, bool fold, int text_chars)
{
	char		text[4096],
				pat[4096];
	int			i,
				bad = 0,
				matched = 0;

	for (i = 0; i < n; i++)
	{
		random_string(text, text_chars, false);
		if (i % 2)
			random_string(pat, 8, true);
		else
			derive_pattern(text, pat);
		if (!check_case(text, pat, fold) && ++bad > 10)
			break;
		matched += ref_like(text, strlen(text), pat, strlen(pat), true, fold);
	}
	tap_ok(bad == 0, "%d random %s pairs (up to %d characters) agree with the reference",
		   n, fold ? "ILIKE" : "LIKE", text_chars);
	/* a generator whose pairs never match would test nothing */
	tap_ok(matched > n / 20 && matched < n - n / 20,
		   "random %s pairs: %d of %d match", fold ? "ILIKE" : "LIKE", matched, n);
}

/* Single-byte encoding: '_' is one byte, bytes >= 128 are characters. */
static void
test_single_byte(void)
{
	const char *error;
	const char	text[] = "a\xe9\xe9z";
	GlProgram  *prog = gl_build_like("a__z", 4, false, NULL, NULL, &error);

	tap_ok(prog && gl_cpu_match_value(prog, text, 4), "SQL_ASCII: '_' is one byte");
	free(prog);
	prog = gl_build_like("%\xe9_", 3, false, NULL, NULL, &error);
	tap_ok(prog && gl_cpu_match_value(prog, text, 4) ==
		   ref_like(text, 4, "%\xe9_", 3, false, false), "SQL_ASCII: high byte literal");
	free(prog);
}

/* Inputs that make naive or skim-based searches slow must stay exact. */
static void
test_adversarial(void)
{
	size_t		n = 200000;
	char	   *text = malloc(n + 2);
	static const char *const pats[] = {
		"%aaaaaaab%", "%aaaaaaaa%b", "%a_a_a_a_b%", "%aaab", "%b%", "%ba%",
		"%aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab%"
	};
	size_t		i;

	memset(text, 'a', n);
	text[n] = 'b';
	text[n + 1] = '\0';
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
	{
		const char *error;
		bool		got = engine_like(text, n + 1, pats[i], strlen(pats[i]), true, false, &error);
		bool		want = ref_like(text, n + 1, pats[i], strlen(pats[i]), true, false);

		tap_ok(got == want, "adversarial a^%zu b LIKE '%s'", n, pats[i]);
	}
	/* the rare byte is everywhere but the match is not */
	memset(text, 'z', n);
	tap_ok(!engine_like(text, n, "%zzzzq%", 7, true, false, &(const char *) {NULL}),
		   "text full of the rare byte, no match");
	/* capitals take the memchr skim: its candidates everywhere too */
	memset(text, 'Q', n);
	tap_ok(!engine_like(text, n, "%QQQQZ%", 7, true, false, &(const char *) {NULL}),
		   "text full of the rarest byte (memchr skim): no match");
	text[n - 1] = 'Z';
	tap_ok(engine_like(text, n, "%QQQQZ%", 7, true, false, &(const char *) {NULL}),
		   "text full of the rarest byte (memchr skim): match at the end");
	/* a masked segment's anchor byte everywhere: Shift-And fallback */
	memset(text, 'c', n);
	tap_ok(!engine_like(text, n, "%c_c_c_d%", 9, true, false, &(const char *) {NULL}),
		   "anchor byte everywhere: no match");
	text[n - 1] = 'd';
	tap_ok(engine_like(text, n, "%c_c_c_d%", 9, true, false, &(const char *) {NULL}),
		   "anchor byte everywhere: match at the end");
	/* both skim bytes in place at every 4th start: the KMP fallback */
	for (i = 0; i + 4 <= n; i += 4)
		memcpy(text + i, "qzqa", 4);
	memcpy(text + n - 4, "qzqe", 4);
	tap_ok(engine_like(text, n, "%qzqe%", 6, true, false, &(const char *) {NULL}) &&
		   !engine_like(text, n - 1, "%qzqe%", 6, true, false, &(const char *) {NULL}),
		   "candidates everywhere, match only at the end");
	free(text);
}

int
main(void)
{
	test_fixed_cases();
	test_errors_and_shape();
	test_random(100000, false, 12);
	test_random(100000, true, 12);
	/* long enough for the 16-position SIMD skim */
	test_random(5000, false, 200);
	test_random(5000, true, 200);
	test_single_byte();
	test_adversarial();
	return tap_done();
}
