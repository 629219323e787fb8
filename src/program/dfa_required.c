/*-------------------------------------------------------------------------
 *
 * dfa_required.c
 *	  Proving that every value an automaton matches contains a literal.
 *
 * A GL_PROG_DFA automaton reads a value's characters from its start state
 * and matches once it reaches a state flagged ACCEPT, or ends in one
 * flagged ACCEPT_AT_END.  A literal w of m characters is required when no
 * value that lacks w can get there.  The values that lack w are those
 * along which the Knuth-Morris-Pratt automaton of w -- its state j being
 * the longest prefix of w the input read so far ends with -- never
 * reaches j = m.  So the two automata run side by side: a breadth-first
 * search over the pairs (state, j) from (start, 0), stepping both with
 * every character but never into j = m.  If it reaches an accepting
 * state, some value without w matches and w is not required; if it runs
 * out of pairs first, w is required.  DEAD states are not stepped from:
 * nothing after them matches.
 *
 * The automaton reads colors, not characters, and a color may hold
 * thousands of characters, but all of them move the automaton alike.
 * They move j alike too, except for w's own characters: any character w
 * lacks sends j back to 0 (no prefix of w ends with it).  So each color
 * is stepped with each of w's characters it holds, and once more with
 * "some other character" if it holds any other.  Whether it does is
 * counted from the program's map of characters (the ASCII table, the
 * ranges' widths; the default color holds all the rest): a count that
 * is too high only adds a path, which can turn a "required" into "not
 * required", never the reverse.
 *
 * The answer is exact for the automaton; the regex compiler proposes the
 * literals (compile_regex.c), from the pattern's text, so a misread
 * pattern costs a prefilter, never a row.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "program/dfa_required.h"
#include "program/like_build.h"

/* Pairs times the colors stepped from each, beyond which we do not try. */
#define MAX_STEPS	(1u << 22)

static uint32_t
color_of(const GlDfaSpec *spec, uint32_t cp)
{
	if (cp < 128)
		return spec->ascii_color[cp];
	return gl_dfa_range_color(spec->ranges, spec->nranges, spec->default_color, cp);
}

/* The characters of lit into chars; their number, or -1 if malformed. */
static int
decode_literal(const GlDfaSpec *spec, const char *lit, uint32_t nbytes,
			   uint32_t chars[GL_DFA_REQUIRED_MAX_CHARS])
{
	uint32_t	i = 0;
	int			m = 0;

	while (i < nbytes)
	{
		int			n = 1;

		if (m == GL_DFA_REQUIRED_MAX_CHARS)
			return -1;
		if (spec->utf8)
			n = gl_utf8_decode(lit + i, nbytes - i, &chars[m]);
		else
			chars[m] = (unsigned char) lit[i];
		if (n <= 0 || chars[m] == 0)
			return -1;
		i += n;
		m++;
	}
	return m;
}

/* Whether color holds characters other than the `taken` of w's. */
static bool
color_has_others(const GlDfaSpec *spec, uint32_t color, uint32_t taken)
{
	uint64_t	members = 0;

	if (color == spec->default_color)
		return true;
	for (uint32_t cp = 1; cp < 128; cp++)
		members += spec->ascii_color[cp] == color;
	for (uint32_t r = 0; r < spec->nranges; r++)
		if (spec->ranges[r].color == color)
			members += (uint64_t) spec->ranges[r].hi - spec->ranges[r].lo + 1;
	return members > taken;
}

bool
gl_dfa_requires(const GlDfaSpec *spec, const char *lit, uint32_t nbytes)
{
	uint32_t	chars[GL_DFA_REQUIRED_MAX_CHARS];
	uint32_t	distinct[GL_DFA_REQUIRED_MAX_CHARS];
	uint32_t	distinct_color[GL_DFA_REQUIRED_MAX_CHARS];
	uint32_t	fail[GL_DFA_REQUIRED_MAX_CHARS];
	int			m = decode_literal(spec, lit, nbytes, chars);
	int			d = 0;
	uint8_t    *kmp_next = NULL;	/* [j * d + k]: j after distinct[k] */
	uint32_t   *taken = NULL;	/* [color]: w's distinct characters in it */
	bool	   *others = NULL;	/* [color]: holds other characters too */
	uint8_t    *seen = NULL;	/* [state * m + j] */
	uint32_t   *queue = NULL;
	uint32_t	head = 0,
				tail = 0;
	bool		required = false;

	if (m <= 0 ||
		(uint64_t) spec->nstates * m * (spec->ncolors + m) > MAX_STEPS)
		return false;

	for (int i = 0; i < m; i++)
	{
		int			k = 0;

		while (k < d && distinct[k] != chars[i])
			k++;
		if (k == d)
			distinct[d++] = chars[i];
	}
	/* fail[i]: the longest proper prefix of w[0..i] that it ends with */
	fail[0] = 0;
	for (int i = 1, j = 0; i < m; i++)
	{
		while (j > 0 && chars[i] != chars[j])
			j = fail[j - 1];
		if (chars[i] == chars[j])
			j++;
		fail[i] = j;
	}

	kmp_next = malloc((size_t) m * d);
	taken = calloc(spec->ncolors, sizeof(uint32_t));
	others = malloc(spec->ncolors * sizeof(bool));
	seen = calloc((size_t) spec->nstates * m, 1);
	queue = malloc((size_t) spec->nstates * m * sizeof(uint32_t));
	if (kmp_next == NULL || taken == NULL || others == NULL || seen == NULL ||
		queue == NULL)
		goto done;

	for (int j = 0; j < m; j++)
		for (int k = 0; k < d; k++)
		{
			int			next = j;

			while (next > 0 && chars[next] != distinct[k])
				next = fail[next - 1];
			kmp_next[j * d + k] = (uint8_t) (chars[next] == distinct[k] ? next + 1 : 0);
		}
	for (int k = 0; k < d; k++)
	{
		distinct_color[k] = color_of(spec, distinct[k]);
		if (distinct_color[k] >= spec->ncolors)
			goto done;			/* not the automaton's: no prefilter */
		taken[distinct_color[k]]++;
	}
	for (uint32_t c = 0; c < spec->ncolors; c++)
		others[c] = color_has_others(spec, c, taken[c]);

	seen[(size_t) spec->start_state * m] = 1;
	queue[tail++] = spec->start_state * m;
	while (head < tail)
	{
		uint32_t	state = queue[head] / m;
		uint32_t	j = queue[head] % m;

		head++;
		if (spec->flags[state] & (GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END))
			goto done;			/* a value without w matches */
		if (spec->flags[state] & GL_DFA_DEAD)
			continue;
		for (uint32_t c = 0; c < spec->ncolors; c++)
		{
			uint32_t	to = spec->trans[(size_t) state * spec->ncolors + c];

			for (int k = 0; k < d; k++)
			{
				uint32_t	next_j = kmp_next[j * d + k];

				if (distinct_color[k] == c && next_j < (uint32_t) m &&
					!seen[(size_t) to * m + next_j])
				{
					seen[(size_t) to * m + next_j] = 1;
					queue[tail++] = to * m + next_j;
				}
			}
			if (others[c] && !seen[(size_t) to * m])
			{
				seen[(size_t) to * m] = 1;
				queue[tail++] = to * m;
			}
		}
	}
	required = true;

done:
	free(kmp_next);
	free(taken);
	free(others);
	free(seen);
	free(queue);
	return required;
}
