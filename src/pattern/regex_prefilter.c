/*-------------------------------------------------------------------------
 *
 * regex_prefilter.c
 *	  Finding a literal that every match of a regex contains, so that an
 *	  engine can look for the literal first and run the automaton only on
 *	  the values that have it.
 *
 * Most regexes people search with are literals joined by a little syntax:
 * 'special.*requests', 'ERROR [0-9]+: disk', '\mpinto\M'.  Any value
 * matching the first contains "special" and "requests"; a search for the
 * rarer of such words (memchr on a rare byte, then a compare) costs a
 * fraction of stepping an automaton through every byte, and only the
 * values where it is found need the automaton (cpu_engine.c).
 *
 * Two steps, the second one exact:
 *	1. Read runs of literal characters off the pattern's text
 *	   (literal_runs()): ordinary characters and backslash-escaped
 *	   punctuation, broken by every other metacharacter, bracket expression
 *	   and escape; a character a quantifier follows leaves the run unless
 *	   the quantifier is '+' (it occurs at least once), after which the run
 *	   ends.  This reading knows nothing of alternation, groups, embedded
 *	   options or directors, and need not: it only proposes.
 *	2. Prove a proposal on the automaton the pattern compiled to
 *	   (gl_dfa_requires(), dfa_required.c): every value it matches contains
 *	   the literal, or the literal is dropped.  So 'cat|dog' proposes "cat"
 *	   and "dog" and keeps neither, '(?i)fox' proposes "fox" and its
 *	   automaton rejects it, and 'furious(ly)?' keeps "furious".
 * The longest proven run is the prefilter (at most a LIKE segment's 64
 * characters of it); runs shorter than three bytes are not proposed: the
 * values holding one or two common characters are nearly all of them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "pattern/regex_prefilter.h"
#include "program/dfa_required.h"

#define MIN_LITERAL_BYTES	3
/* proposals checked, longest first: each check is a search of the automaton */
#define MAX_PROPOSALS		8

typedef struct LiteralRuns
{
	StringInfoData current;
	int			last_char;		/* current's last character's offset, or -1 */
	int			nruns;
	StringInfoData runs[MAX_PROPOSALS];
} LiteralRuns;

/* End the current run, keeping it if it is one of the longest so far. */
static void
end_run(LiteralRuns *lr)
{
	int			shortest = 0;

	if (lr->current.len >= MIN_LITERAL_BYTES)
	{
		if (lr->nruns < MAX_PROPOSALS)
		{
			initStringInfo(&lr->runs[lr->nruns]);
			shortest = lr->nruns++;
		}
		else
		{
			for (int i = 1; i < MAX_PROPOSALS; i++)
				if (lr->runs[i].len < lr->runs[shortest].len)
					shortest = i;
			if (lr->runs[shortest].len >= lr->current.len)
				shortest = -1;
		}
		if (shortest >= 0)
		{
			resetStringInfo(&lr->runs[shortest]);
			appendBinaryStringInfo(&lr->runs[shortest], lr->current.data, lr->current.len);
		}
	}
	resetStringInfo(&lr->current);
	lr->last_char = -1;
}

static void
append_char(LiteralRuns *lr, const char *c, int nbytes)
{
	lr->last_char = lr->current.len;
	appendBinaryStringInfo(&lr->current, c, nbytes);
}

/* Bytes of the character at p (of len left). */
static int
char_bytes(const char *p, int len)
{
	int			n = 1;

	if (GetDatabaseEncoding() == PG_UTF8)
		n = pg_utf_mblen((const unsigned char *) p);
	return Min(n, len);
}

/* Past the bracket expression opening at p[i]. */
static int
skip_bracket(const char *p, int len, int i)
{
	i++;
	if (i < len && p[i] == '^')
		i++;
	if (i < len && p[i] == ']')
		i++;					/* a leading ] is a member */
	while (i < len && p[i] != ']')
	{
		if (p[i] == '[' && i + 1 < len && strchr(":.=", p[i + 1]) != NULL)
		{
			char		close = p[i + 1];

			for (i += 2; i + 1 < len && !(p[i] == close && p[i + 1] == ']'); i++)
				;
			i += 2;
		}
		else if (p[i] == '\\')
			i += 2;
		else
			i++;
	}
	return Min(i + 1, len);
}

/* Past the escape opening at p[i] (not escaped punctuation). */
static int
skip_escape(const char *p, int len, int i)
{
	const char *digits = NULL;
	int			most = len;

	if (i + 1 >= len)
		return len;
	switch (p[i + 1])
	{
		case 'x':
			digits = "0123456789abcdefABCDEF";
			break;
		case 'u':
			digits = "0123456789abcdefABCDEF";
			most = i + 6;
			break;
		case 'U':
			digits = "0123456789abcdefABCDEF";
			most = i + 10;
			break;
		case 'c':
			return Min(i + 3, len);
		default:
			if (p[i + 1] >= '0' && p[i + 1] <= '9')
				digits = "0123456789";
			break;
	}
	i += 1 + char_bytes(p + i + 1, len - i - 1);
	if (digits != NULL)
		while (i < Min(most, len) && strchr(digits, p[i]) != NULL)
			i++;
	return i;
}

/* Past the quantifier at p[i], with its non-greedy '?'. */
static int
skip_quantifier(const char *p, int len, int i)
{
	if (p[i] == '{')
		while (i < len && p[i] != '}')
			i++;
	i++;
	if (i < len && p[i] == '?')
		i++;
	return Min(i, len);
}

bool
gl_regex_escapes_to_literal(char c)
{
	return !IS_HIGHBIT_SET(c) && ispunct((unsigned char) c);
}

/* The longest runs of literal characters in the pattern's text. */
static void
literal_runs(const char *p, int len, LiteralRuns *lr)
{
	int			i = 0;

	initStringInfo(&lr->current);
	lr->last_char = -1;
	lr->nruns = 0;
	while (i < len)
	{
		char		c = p[i];

		if (c == '\\' && i + 1 < len && gl_regex_escapes_to_literal(p[i + 1]))
		{
			append_char(lr, p + i + 1, 1);
			i += 2;
		}
		else if (c == '\\')
		{
			end_run(lr);
			i = skip_escape(p, len, i);
		}
		else if (c == '[')
		{
			end_run(lr);
			i = skip_bracket(p, len, i);
		}
		else if (strchr("*+?{", c) != NULL)
		{
			/* the quantified character leaves the run, or ends it if '+' */
			if (c != '+' && lr->last_char >= 0)
				lr->current.len = lr->last_char;
			end_run(lr);
			i = skip_quantifier(p, len, i);
		}
		else if (strchr("^$.|()", c) != NULL)
		{
			end_run(lr);
			i++;
		}
		else
		{
			int			n = char_bytes(p + i, len - i);

			append_char(lr, p + i, n);
			i += n;
		}
	}
	end_run(lr);
}

/* The first nchars characters of s (all of it if fewer), in bytes. */
static int
prefix_bytes(const StringInfo s, int nchars)
{
	int			i = 0;

	while (i < s->len && nchars-- > 0)
		i += char_bytes(s->data + i, s->len - i);
	return i;
}

/*
 * The longest run of the pattern's literal characters that every value
 * spec's automaton matches contains, into literal; false if none is.
 */
bool
gl_regex_required_literal(const char *pattern, int len, const GlDfaSpec *spec,
						  StringInfo literal)
{
	LiteralRuns lr;

	literal_runs(pattern, len, &lr);
	while (lr.nruns > 0)
	{
		int			longest = 0;
		int			nbytes;

		for (int i = 1; i < lr.nruns; i++)
			if (lr.runs[i].len > lr.runs[longest].len)
				longest = i;
		nbytes = prefix_bytes(&lr.runs[longest], GL_DFA_REQUIRED_MAX_CHARS);
		if (gl_dfa_requires(spec, lr.runs[longest].data, nbytes))
		{
			appendBinaryStringInfo(literal, lr.runs[longest].data, nbytes);
			return true;
		}
		lr.runs[longest] = lr.runs[--lr.nruns];
	}
	return false;
}
