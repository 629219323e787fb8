/*-------------------------------------------------------------------------
 *
 * multi_test.c
 *	  Unit tests of the Aho–Corasick builder (multi_build.c) and the CPU
 *	  engine's multi-literal matcher (cpu_multi.c).
 *
 * The reference is the obvious one: try every literal at every position.
 * Random literal sets over a tiny alphabet make overlaps, shared prefixes,
 * literals inside literals and failure-link chains common.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_engine.h"
#include "program/multi_build.h"
#include "tap.h"

static uint32_t rng_state = 777;

static uint32_t
rnd(uint32_t n)
{
	rng_state = rng_state * 1103515245 + 12345;
	return (rng_state >> 8) % n;
}

static char
fold(char c, bool ascii_fold)
{
	return (ascii_fold && c >= 'A' && c <= 'Z') ? c + 32 : c;
}

static bool
ref_contains_any(const char *text, size_t tlen, char **lits, size_t *lens,
				 int n, bool ascii_fold)
{
	int			i;
	size_t		pos,
				k;

	for (i = 0; i < n; i++)
		for (pos = 0; pos + lens[i] <= tlen; pos++)
		{
			for (k = 0; k < lens[i]; k++)
				if (fold(text[pos + k], ascii_fold) != fold(lits[i][k], ascii_fold))
					break;
			if (k == lens[i])
				return true;
		}
	return false;
}

static void
random_bytes(char *out, size_t n, bool with_high)
{
	static const char alphabet[] = "abAB\xc3\xa9 ";
	size_t		i;

	for (i = 0; i < n; i++)
		out[i] = alphabet[rnd(with_high ? 7 : 4)];
}

static void
test_random(int rounds, bool ascii_fold)
{
	int			r,
				bad = 0,
				matched = 0,
				checked = 0;

	for (r = 0; r < rounds && bad == 0; r++)
	{
		int			n = 1 + (int) rnd(8),
					i,
					t;
		char	   *lits[8];
		size_t		lens[8];
		const char *error;
		GlProgram  *prog;

		for (i = 0; i < n; i++)
		{
			lens[i] = rnd(6);
			lits[i] = malloc(lens[i] + 1);
			random_bytes(lits[i], lens[i], true);
		}
		if (rnd(4) != 0)		/* mostly non-empty literal sets */
			for (i = 0; i < n; i++)
				if (lens[i] == 0)
					lits[i][lens[i]++] = 'a';
		prog = gl_build_multi((const char *const *) lits, lens, n, ascii_fold, true, &error);
		if (prog == NULL)
		{
			tap_diag("round %d: no program: %s", r, error);
			bad++;
		}
		for (t = 0; t < 50 && prog != NULL; t++)
		{
			char		text[40];
			size_t		tlen = rnd(sizeof(text));
			bool		got,
						want;

			random_bytes(text, tlen, true);
			got = gl_cpu_match_value(prog, text, (uint32_t) tlen);
			want = ref_contains_any(text, tlen, lits, lens, n, ascii_fold);
			matched += want;
			checked++;
			if (got != want)
			{
				tap_diag("round %d text %.*s: engine %d ref %d", r, (int) tlen, text, got, want);
				bad++;
				break;
			}
		}
		free(prog);
		for (i = 0; i < n; i++)
			free(lits[i]);
	}
	tap_ok(bad == 0, "%d texts against random literal sets (ascii_fold %d): all agree",
		   checked, ascii_fold);
	tap_ok(matched > checked / 20 && matched < checked - checked / 20,
		   "%d of %d texts matched", matched, checked);
}

static void
test_shape_and_adversarial(void)
{
	const char *lits[] = {"he", "she", "his", "hers"};
	size_t		lens[] = {2, 3, 3, 4};
	const char *error;
	GlProgram  *prog = gl_build_multi(lits, lens, 4, false, true, &error);
	size_t		n = 300000;
	char	   *text;
	const char *alits[] = {"aaaaaaaab", "ab", "aaaaac"};
	size_t		alens[] = {9, 2, 6};

	tap_ok(prog != NULL && prog->u.multi.nstates == 10 && prog->u.multi.min_bytes == 2 &&
		   prog->u.multi.nliterals == 4, "classic he/she/his/hers automaton: 10 states");
	tap_ok(prog && gl_cpu_match_value(prog, "ushers", 6), "ushers contains she");
	tap_ok(prog && !gl_cpu_match_value(prog, "hxsxe", 5), "hxsxe contains none");
	free(prog);

	text = malloc(n);
	memset(text, 'a', n);
	prog = gl_build_multi(alits, alens, 1, false, true, &error);
	tap_ok(prog && !gl_cpu_match_value(prog, text, (uint32_t) n), "a^n: no aaaaaaaab");
	text[n - 1] = 'b';
	tap_ok(prog && gl_cpu_match_value(prog, text, (uint32_t) n), "a^n b: found at the end");
	free(prog);
	prog = gl_build_multi(alits + 1, alens + 1, 2, false, true, &error);
	text[n - 1] = 'a';
	tap_ok(prog && !gl_cpu_match_value(prog, text, (uint32_t) n), "a^n: neither ab nor aaaaac");
	free(prog);
	free(text);

	prog = gl_build_multi(lits, (size_t[]) {0}, 1, false, true, &error);
	tap_ok(prog && gl_cpu_match_value(prog, "", 0), "empty literal matches the empty value");
	free(prog);
}

int
main(void)
{
	test_shape_and_adversarial();
	test_random(2000, false);
	test_random(2000, true);
	return tap_done();
}
