/*-------------------------------------------------------------------------
 *
 * compile_regex.c
 *	  Regular expression (~ ~* and SIMILAR TO) -> GL_PROG_DFA program.
 *
 * 1. Compile exactly as textregexeq / texticregexeq do: through
 *	  RE_compile_and_cache with REG_ADVANCED | REG_NOSUB (plus REG_ICASE for
 *	  ~*) and the expression's collation, so that embedded options ((?i),
 *	  (?n), ***= ...) mean what they mean to PostgreSQL: they are already
 *	  folded into the NFA and the colormap (case-insensitivity, for
 *	  instance, is just extra members in each letter's color).  An invalid
 *	  regex is refused, not reported: PostgreSQL raises its error only if
 *	  it evaluates the operator, which it may never do (another qual
 *	  rejects every row first), so the refused leaf is left to it
 *	  (is_valid_regex()).
 * 2. Export the search NFA and the code point -> color map
 *	  (regex_export.c).
 * 3. Choose the input alphabet.  A color that some NFA arc names needs a
 *	  column of its own; colors only "any character" arcs see (white,
 *	  colors used only inside lookaround constraints, which the export
 *	  treats as satisfied) behave alike and share one column.
 * 4. Determinize, minimize, merge equal columns (regex_dfa.c).
 * 5. Find a literal every match contains, proven on the automaton
 *	  (regex_prefilter.c), to go with it as its '%literal%' prefilter.
 * 6. Assemble the program: the transition table, state flags, the color
 *	  column of ASCII code points, sorted ranges for the others (the
 *	  most common column left out as default_color), and the prefilter.
 *
 * A regex that is a literal, perhaps anchored, skips steps 2-6 under ~: it
 * finds the values LIKE '%literal%' finds (or 'literal%', '%literal',
 * 'literal') and becomes that LIKE program (literal_as_like()); one that
 * is an alternation of literals becomes the Aho-Corasick program of LIKE
 * ANY of them (literals_as_multi()), under ~* too where the collation is
 * C.
 *
 * The program is exact unless the regex has back-references or lookaround
 * constraints; then it is a superset prefilter (exact = 0) and the executor's
 * recheck decides.  A regex needing more than GL_REGEX_MAX_DFA_STATES states
 * (after minimization) is refused: PostgreSQL evaluates it.
 *
 * The regex cache may free the compiled regex at its next use, so all we
 * need from it is read out before anything else can compile a regex.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "regex/regex.h"
#include "regex/regexport.h"
#include "utils/memutils.h"
#include "utils/pg_locale.h"

#include "pattern/compile_regex.h"
#include "pattern/regex_dfa.h"
#include "pattern/regex_export.h"
#include "pattern/regex_prefilter.h"
#include "program/dfa_build.h"
#include "program/like_build.h"
#include "program/multi_build.h"

/*
 * Subset construction may pass through many more states than the minimal
 * DFA has (a search for "a[ab]{10}" meets 2^10 subsets that all collapse
 * into 12 states), so the construction gets a larger allowance than the
 * result.  Both bound state numbers to the uint16 transition table.
 */
#define GL_REGEX_MAX_SUBSETS	65535
#define GL_REGEX_MAX_DFA_STATES 4096

/*
 * Columns for the colors characters can have.  Returns the number of
 * columns; column_of_color[co] = -1 for colors no character has.
 */
static int
choose_columns(const GlRegexNfa *nfa, const GlRegexColorMap *map,
			   int *column_of_color)
{
	bool	   *has_chars = palloc0(nfa->ncolors * sizeof(bool));
	bool	   *named_by_arc = palloc0(nfa->ncolors * sizeof(bool));
	int			shared_column = -1;
	int			ncolumns = 0;
	int			i;

	for (i = 0; i < 128; i++)
		has_chars[map->ascii[i]] = true;
	for (i = 0; i < map->nruns; i++)
		has_chars[map->runs[i].color] = true;
	for (i = 0; i < nfa->arc_start[nfa->nstates]; i++)
		if (nfa->arc_color[i] >= 0)
			named_by_arc[nfa->arc_color[i]] = true;

	for (i = 0; i < nfa->ncolors; i++)
	{
		if (!has_chars[i])
			column_of_color[i] = -1;
		else if (named_by_arc[i])
			column_of_color[i] = ncolumns++;
		else
		{
			if (shared_column < 0)
				shared_column = ncolumns++;
			column_of_color[i] = shared_column;
		}
	}
	pfree(has_chars);
	pfree(named_by_arc);
	return ncolumns;
}

/* The DFA of a regex PostgreSQL has proven can never match. */
static void
impossible_dfa(GlRegexDfa *dfa)
{
	dfa->nstates = 1;
	dfa->ncolumns = 1;
	dfa->start = 0;
	dfa->trans = palloc0(sizeof(uint16));
	dfa->flags = palloc(1);
	dfa->flags[0] = GL_DFA_DEAD;
}

/*
 * Non-ASCII code points: runs mapped to final columns, equal neighbours
 * merged, the column covering most code points left out as the default.
 * Fills *ranges (palloc'd) and returns their number.
 */
static int
build_ranges(const GlRegexColorMap *map, const int *final_column,
			 int ncolumns, uint32 *default_column, GlColorRange **ranges)
{
	GlColorRange *merged = palloc(Max(map->nruns, 1) * sizeof(GlColorRange));
	uint64	   *coverage = palloc0(ncolumns * sizeof(uint64));
	int			nmerged = 0;
	int			nranges = 0;
	int			best = 0;
	int			i;

	for (i = 0; i < map->nruns; i++)
	{
		uint32		col = final_column[map->runs[i].color];

		if (nmerged > 0 && merged[nmerged - 1].color == col &&
			merged[nmerged - 1].hi + 1 == map->runs[i].lo)
			merged[nmerged - 1].hi = map->runs[i].hi;
		else
		{
			merged[nmerged].lo = map->runs[i].lo;
			merged[nmerged].hi = map->runs[i].hi;
			merged[nmerged].color = col;
			merged[nmerged].pad = 0;
			nmerged++;
		}
		coverage[col] += (uint64) map->runs[i].hi - map->runs[i].lo + 1;
	}
	for (i = 1; i < ncolumns; i++)
		if (coverage[i] > coverage[best])
			best = i;

	for (i = 0; i < nmerged; i++)
		if (merged[i].color != (uint32) best)
			merged[nranges++] = merged[i];
	*default_column = best;
	*ranges = merged;
	pfree(coverage);
	return nranges;
}

/*
 * The LIKE program that finds the len bytes of literal, at the value's
 * start and end where anchored so, elsewhere with '%'; the builder's
 * malloc'd program, or NULL (too long).
 */
static GlProgram *
like_of_literal(const char *literal, int len, bool anchored_start, bool anchored_end,
				bool utf8)
{
	StringInfoData like;
	const char *error;
	GlProgram  *prog;

	initStringInfo(&like);
	if (!anchored_start)
		appendStringInfoChar(&like, '%');
	for (int i = 0; i < len; i++)
	{
		if (literal[i] == '%' || literal[i] == '_' || literal[i] == '\\')
			appendStringInfoChar(&like, '\\');
		appendStringInfoChar(&like, literal[i]);
	}
	if (!anchored_end)
		appendStringInfoChar(&like, '%');
	prog = gl_build_like(like.data, like.len, utf8, NULL, NULL, &error);
	pfree(like.data);
	return prog;
}

/*
 * Read the literal at pattern[*i] into out, up to end or to an unescaped
 * '|', where *i stops: false at any other metacharacter (see
 * literal_as_like() for what counts as a literal).
 */
static bool
read_literal(const char *pattern, int *i, int end, StringInfo out)
{
	for (; *i < end; (*i)++)
	{
		char		c = pattern[*i];

		if (c == '\\' && *i + 1 < end && gl_regex_escapes_to_literal(pattern[*i + 1]))
			c = pattern[++(*i)];
		else if (c == '|')
			return true;
		else if (strchr("\\^$.[]()*+?{}", c) != NULL)
			return false;
		appendStringInfoChar(out, c);
	}
	return true;
}

/*
 * A regex that is a literal -- characters that are no ARE metacharacter,
 * or ASCII punctuation escaped with a backslash (an ARE escape of a
 * non-alphanumeric character is that character) -- perhaps anchored by a
 * leading ^ and a trailing $, matches under ~ (case-sensitive; ~* folds
 * case its own way) exactly the values LIKE matches with 'literal',
 * '%' on each side not anchored, the literal's '%', '_' and '\' escaped:
 * without REG_NEWLINE, which ~ does not set, ^ and $ match only at the
 * value's start and end.  (A director, ***, or an embedded option, (?,
 * begins with a metacharacter, so none is read as a literal.)  That
 * program runs on the GPU's sieve instead of the stream kernel a DFA
 * takes (kernel_bench, H100: 'furiously%' 83% of the read bandwidth, the
 * regex 'furiously' as a DFA 61%).  Returns the builder's malloc'd
 * program, or NULL: not a literal, or one the LIKE builder refuses (too
 * long), which stays a DFA.
 */
static GlProgram *
literal_as_like(const char *pattern, int len, bool utf8)
{
	bool		anchored_start = len > 0 && pattern[0] == '^';
	bool		anchored_end = len > (anchored_start ? 1 : 0) && pattern[len - 1] == '$';
	int			end = anchored_end ? len - 1 : len;
	int			i = anchored_start ? 1 : 0;
	StringInfoData literal;

	initStringInfo(&literal);
	if (!read_literal(pattern, &i, end, &literal) || i < end)
	{
		pfree(literal.data);
		return NULL;
	}
	return like_of_literal(literal.data, literal.len, anchored_start, anchored_end, utf8);
}

/*
 * A regex that is an alternation of literals ('error|fatal|panic': two or
 * more, none empty, nothing else at its top) matches under ~ exactly the
 * values that contain one of them: it becomes an Aho-Corasick program, as
 * LIKE ANY's literals do, whose engines skim for its literals' bytes and
 * skip the chunks that hold none (cpu_multi.c).  Under ~* with ascii_fold
 * (a C collation: PostgreSQL's regex folds only ASCII letters there).
 * Returns the builder's malloc'd program, or NULL: not such an
 * alternation, or one the builder refuses (too many states), which stays
 * a DFA.
 */
static GlProgram *
literals_as_multi(const char *pattern, int len, bool ascii_fold, bool utf8)
{
	StringInfoData all;
	const char **literals = palloc(sizeof(char *) * (len / 2 + 1));
	size_t	   *lens = palloc(sizeof(size_t) * (len / 2 + 1));
	int			nliterals = 0;
	int			i = 0;
	const char *error;

	/* each literal, its bytes one after another in `all` */
	initStringInfo(&all);
	while (i <= len)
	{
		int			start = all.len;

		if (!read_literal(pattern, &i, len, &all) || all.len == start)
			return NULL;
		lens[nliterals++] = all.len - start;
		i++;					/* past the '|', or the end */
	}
	if (nliterals < 2)
		return NULL;
	for (int k = 0, at = 0; k < nliterals; at += lens[k++])
		literals[k] = all.data + at;
	return gl_build_multi(literals, lens, nliterals, ascii_fold, utf8, &error);
}

/*
 * Everything after compilation, in a scratch memory context.  Returns the
 * builder's malloc'd program, or NULL with *refusal set (palloc'd in the
 * scratch context).
 */
static GlProgram *
program_from_regex(const regex_t *re, const char *pattern, int len, bool utf8,
				   const char **refusal)
{
	uint32		max_codepoint = utf8 ? 0x10FFFF : 0xFF;
	bool		exact = (re->re_info & (REG_UBACKREF | REG_ULOOKAROUND)) == 0;
	GlRegexNfa	nfa;
	GlRegexColorMap map;
	GlRegexDfa	dfa;
	int		   *column_of_color;
	int		   *column_map;
	int		   *final_column;
	uint16		ascii_column[128];
	GlColorRange *ranges;
	int			nranges;
	uint32		default_column;
	int			ncolors;
	int			ncolumns;
	int			i;
	GlDfaSpec	spec;
	StringInfoData required;
	GlProgram  *prog;

	gl_regex_export_colormap(re, max_codepoint, &map);
	ncolors = pg_reg_getnumcolors(re);
	column_of_color = palloc(ncolors * sizeof(int));

	if (re->re_info & REG_UIMPOSSIBLE)
	{
		/* regexec answers "no match" without running the NFA */
		impossible_dfa(&dfa);
		for (i = 0; i < ncolors; i++)
			column_of_color[i] = 0;
		ncolumns = 1;
	}
	else
	{
		gl_regex_export_nfa(re, &nfa);
		ncolumns = choose_columns(&nfa, &map, column_of_color);
		*refusal = gl_regex_determinize(&nfa, column_of_color, ncolumns,
										GL_REGEX_MAX_SUBSETS, &dfa);
		if (*refusal != NULL)
			return NULL;
		gl_regex_dfa_minimize(&dfa);
		if (dfa.nstates > GL_REGEX_MAX_DFA_STATES)
		{
			*refusal = psprintf("regex needs %d DFA states, more than %d",
								dfa.nstates, GL_REGEX_MAX_DFA_STATES);
			return NULL;
		}
	}

	column_map = palloc(ncolumns * sizeof(int));
	gl_regex_dfa_merge_columns(&dfa, column_map);
	final_column = palloc(ncolors * sizeof(int));
	for (i = 0; i < ncolors; i++)
		final_column[i] = column_of_color[i] >= 0 ? column_map[column_of_color[i]] : -1;

	for (i = 0; i < 128; i++)
		ascii_column[i] = (uint16) final_column[map.ascii[i]];
	nranges = build_ranges(&map, final_column, dfa.ncolumns, &default_column, &ranges);

	spec.nstates = dfa.nstates;
	spec.ncolors = dfa.ncolumns;
	spec.start_state = dfa.start;
	spec.trans = dfa.trans;
	spec.flags = dfa.flags;
	spec.ascii_color = ascii_column;
	spec.ranges = ranges;
	spec.nranges = nranges;
	spec.default_color = default_column;
	spec.exact = exact;
	spec.utf8 = utf8;
	spec.prefilter = NULL;
	initStringInfo(&required);
	if ((re->re_info & REG_UIMPOSSIBLE) == 0 &&
		gl_regex_required_literal(pattern, len, &spec, &required))
		spec.prefilter = like_of_literal(required.data, required.len, false, false, utf8);
	prog = gl_build_dfa(&spec);
	free((void *) spec.prefilter);
	if (prog == NULL)
		*refusal = "out of memory building the regex program";
	return prog;
}

/*
 * Compiled programs of the most recently used regexes, most recent first,
 * like PostgreSQL's own regex cache: the color map of a regex using
 * character classes costs a million lookups, and gpulike.match() compiles
 * per call.  Refusals are remembered too.  Entries live in
 * TopMemoryContext; callers get their own copy.
 */
#define GL_REGEX_CACHE_SIZE 16

typedef struct CachedRegexProgram
{
	char	   *pattern;		/* not NUL-terminated */
	int			pattern_len;
	bool		case_insensitive;
	Oid			collation;
	GlProgram  *prog;			/* NULL when refused */
	char	   *refusal;
} CachedRegexProgram;

static CachedRegexProgram regex_cache[GL_REGEX_CACHE_SIZE];
static int	regex_cache_used = 0;

/* The cache entry for this regex, moved to the front; NULL if absent. */
static CachedRegexProgram *
cache_lookup(const char *pat, int len, bool case_insensitive, Oid collation)
{
	int			i;

	for (i = 0; i < regex_cache_used; i++)
	{
		CachedRegexProgram *e = &regex_cache[i];

		if (e->pattern_len == len && e->case_insensitive == case_insensitive &&
			e->collation == collation && memcmp(e->pattern, pat, len) == 0)
		{
			CachedRegexProgram found = *e;

			memmove(&regex_cache[1], &regex_cache[0], i * sizeof(CachedRegexProgram));
			regex_cache[0] = found;
			return &regex_cache[0];
		}
	}
	return NULL;
}

/* Remember a result at the front, forgetting the least recently used. */
static void
cache_insert(const char *pat, int len, bool case_insensitive, Oid collation,
			 const GlProgram *prog, const char *refusal)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
	CachedRegexProgram e;

	e.pattern = palloc(Max(len, 1));
	memcpy(e.pattern, pat, len);
	e.pattern_len = len;
	e.case_insensitive = case_insensitive;
	e.collation = collation;
	e.prog = NULL;
	e.refusal = NULL;
	if (prog != NULL)
	{
		e.prog = palloc(prog->total_size);
		memcpy(e.prog, prog, prog->total_size);
	}
	else
		e.refusal = pstrdup(refusal);
	MemoryContextSwitchTo(old);

	if (regex_cache_used == GL_REGEX_CACHE_SIZE)
	{
		CachedRegexProgram *last = &regex_cache[--regex_cache_used];

		pfree(last->pattern);
		if (last->prog)
			pfree(last->prog);
		if (last->refusal)
			pfree(last->refusal);
	}
	memmove(&regex_cache[1], &regex_cache[0], regex_cache_used * sizeof(CachedRegexProgram));
	regex_cache[0] = e;
	regex_cache_used++;
}

/*
 * Does the pattern compile?  Asked of the regex library directly, which
 * returns an error code where RE_compile_and_cache raises the error.
 */
static bool
is_valid_regex(text *pattern, int cflags, Oid collation, const char **refusal)
{
	char	   *bytes = VARDATA_ANY(pattern);
	int			nbytes = VARSIZE_ANY_EXHDR(pattern);
	pg_wchar   *wide = palloc((nbytes + 1) * sizeof(pg_wchar));
	int			nwide = pg_mb2wchar_with_len(bytes, wide, nbytes);
	regex_t		re;
	int			result;
	char		message[100];

	result = pg_regcomp(&re, wide, nwide, cflags, collation);
	pfree(wide);
	if (result == REG_OKAY)
	{
		pg_regfree(&re);
		return true;
	}
	pg_regerror(result, &re, message, sizeof(message));
	*refusal = psprintf("invalid regular expression: %s", message);
	return false;
}

/* Compile, without the cache. */
static GlProgram *
compile_uncached(text *pattern, bool case_insensitive, Oid collation,
				 const char **refusal)
{
	/*
	 * REG_NOSUB as PostgreSQL's own ~ compiles it (same cache entry): no
	 * capture bookkeeping, which for thousands of groups costs seconds; the
	 * search NFA we export is the same.
	 */
	int			cflags = REG_ADVANCED | REG_NOSUB | (case_insensitive ? REG_ICASE : 0);
	int			encoding = GetDatabaseEncoding();
	regex_t    *re;
	MemoryContext scratch;
	MemoryContext caller;
	GlProgram  *built = NULL;
	GlProgram  *prog = NULL;

	if (!is_valid_regex(pattern, cflags, collation, refusal))
		return NULL;
	re = RE_compile_and_cache(pattern, cflags, collation);

	if (encoding != PG_UTF8 && encoding != PG_SQL_ASCII)
	{
		*refusal = "regex matching needs a UTF8 or SQL_ASCII database";
		return NULL;
	}

	scratch = AllocSetContextCreate(CurrentMemoryContext, "gpulike regex compile",
									ALLOCSET_DEFAULT_SIZES);
	caller = MemoryContextSwitchTo(scratch);
	*refusal = NULL;
	if (!case_insensitive)
	{
		built = literal_as_like(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
								encoding == PG_UTF8);
		if (built == NULL)
			built = literals_as_multi(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
									  false, encoding == PG_UTF8);
	}
	else if (OidIsValid(collation) && lc_ctype_is_c(collation))
		built = literals_as_multi(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
								  true, encoding == PG_UTF8);
	if (built == NULL)
		built = program_from_regex(re, VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
								   encoding == PG_UTF8, refusal);
	MemoryContextSwitchTo(caller);

	if (built != NULL)
	{
		prog = palloc(built->total_size);
		memcpy(prog, built, built->total_size);
		free(built);
	}
	else
		*refusal = pstrdup(*refusal);
	MemoryContextDelete(scratch);
	return prog;
}

GlProgram *
gl_compile_regex(text *pattern, bool case_insensitive, Oid collation,
				 const char **refusal)
{
	const char *pat;
	int			len;
	CachedRegexProgram *hit;
	GlProgram  *prog;

	pattern = (text *) pg_detoast_datum_packed((struct varlena *) pattern);
	pat = VARDATA_ANY(pattern);
	len = VARSIZE_ANY_EXHDR(pattern);
	hit = cache_lookup(pat, len, case_insensitive, collation);
	if (hit != NULL)
	{
		if (hit->prog == NULL)
		{
			*refusal = pstrdup(hit->refusal);
			return NULL;
		}
		prog = palloc(hit->prog->total_size);
		memcpy(prog, hit->prog, hit->prog->total_size);
		return prog;
	}

	prog = compile_uncached(pattern, case_insensitive, collation, refusal);
	cache_insert(pat, len, case_insensitive, collation, prog, *refusal);
	return prog;
}
