/*-------------------------------------------------------------------------
 *
 * compile_like.c
 *	  Backend side of LIKE / ILIKE compilation: PostgreSQL's semantics
 *	  decide what the leaf builders (like_build.c, multi_build.c) are given.
 *
 * What PostgreSQL does (like.c), and what we do about it:
 *
 *	- Encoding.  LIKE compares bytes; '_' is one character of the database
 *	  encoding.  We handle UTF-8 (decode) and SQL_ASCII (a byte is a
 *	  character) and refuse every other encoding.
 *	- Nondeterministic collations make PostgreSQL raise an error for LIKE
 *	  and ILIKE: we refuse, so that PostgreSQL raises it.
 *	- A pattern ending in the escape character: PostgreSQL raises its error
 *	  only when matching reaches the end of the pattern, i.e. for some data
 *	  and not other.  We refuse such patterns, and PostgreSQL decides.
 *	- ILIKE under a C/POSIX ctype lowers ASCII letters only, byte by byte:
 *	  a letter's class is {lower, upper}.
 *	- ILIKE under a libc collation in UTF-8 is lower(value) LIKE
 *	  lower(pattern), lower() being towlower() per code point.  We lower the
 *	  pattern with PostgreSQL's own lower() and the collation, exactly as
 *	  like.c does, and give each pattern character the class of all code
 *	  points that lower() sends to it (case_fold.c).  Exact.
 *	- ILIKE under ICU lowers whole strings with ICU's context-sensitive
 *	  rules (final sigma, ...), and in SQL_ASCII with a libc locale it uses
 *	  the locale's 8-bit tolower(): we refuse both.
 *	- upper(value) LIKE pattern, for a pattern that upper() leaves as it is
 *	  (the planner proves that: scan/idioms.c), is the same with upper():
 *	  each pattern character gets the class of all code points upper()
 *	  sends to it; under a C/POSIX ctype upper() moves only a-z, so a
 *	  letter's class is {upper, lower} there too.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/pg_locale.h"

#include "pattern/case_fold.h"
#include "pattern/compile_like.h"
#include "program/like_build.h"
#include "program/multi_build.h"

/* Copy a malloc'd leaf program into palloc'd memory. */
static GlProgram *
palloc_program(GlProgram *prog)
{
	GlProgram  *copy;

	if (prog == NULL)
		return NULL;
	copy = palloc(prog->total_size);
	memcpy(copy, prog, prog->total_size);
	free(prog);
	return copy;
}

/* UTF-8 (*utf8 = true) or SQL_ASCII (false); anything else is refused. */
static bool
supported_encoding(bool *utf8, const char **refusal)
{
	int			encoding = GetDatabaseEncoding();

	if (encoding == PG_UTF8)
		*utf8 = true;
	else if (encoding == PG_SQL_ASCII)
		*utf8 = false;
	else
	{
		*refusal = "database encoding is neither UTF8 nor SQL_ASCII";
		return false;
	}
	return true;
}

/*
 * The collation's locale, NULL for C/POSIX ctype (or no collation, which
 * LIKE accepts); refuses nondeterministic collations.
 */
static bool
usable_collation(Oid collation, pg_locale_t *locale, const char **refusal)
{
	*locale = NULL;
	if (!OidIsValid(collation) || lc_ctype_is_c(collation))
		return true;
	*locale = pg_newlocale_from_collation(collation);
	if (*locale && !(*locale)->deterministic)
	{
		*refusal = "nondeterministic collations are not supported for LIKE";
		return false;
	}
	return true;
}

bool
gl_text_folds_to_itself(text *value, GlLikeFold fold, Oid collation)
{
	text	   *folded;

	if (fold == GL_LIKE_AS_IS)
		return true;
	folded = DatumGetTextPP(DirectFunctionCall1Coll(fold == GL_LIKE_UPPERED ? upper : lower,
													collation, PointerGetDatum(value)));
	return VARSIZE_ANY_EXHDR(folded) == VARSIZE_ANY_EXHDR(value) &&
		memcmp(VARDATA_ANY(folded), VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value)) == 0;
}

GlProgram *
gl_compile_like(text *pattern, GlLikeFold fold, Oid collation, const char **refusal)
{
	pg_locale_t locale;
	bool		utf8;
	const char *error = NULL;
	GlProgram  *prog;
	const GlCaseFold *table;
	text	   *folded;

	*refusal = NULL;
	if (!supported_encoding(&utf8, refusal) ||
		!usable_collation(collation, &locale, refusal))
		return NULL;

	if (fold == GL_LIKE_AS_IS)
		prog = gl_build_like(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
							 utf8, NULL, NULL, &error);
	else if (!OidIsValid(collation))
	{
		*refusal = "no collation for ILIKE";
		return NULL;
	}
	else if (fold == GL_LIKE_UPPERED &&
			 !gl_text_folds_to_itself(pattern, GL_LIKE_UPPERED, collation))
	{
		*refusal = "the pattern compared with upper() is not in upper case";
		return NULL;
	}
	else if (lc_ctype_is_c(collation))
		prog = gl_build_like(VARDATA_ANY(pattern), VARSIZE_ANY_EXHDR(pattern),
							 utf8, gl_ascii_case_class, NULL, &error);
	else if (locale && locale->provider == COLLPROVIDER_ICU)
	{
		*refusal = "ILIKE under an ICU collation lowercases whole strings";
		return NULL;
	}
	else if (!utf8)
	{
		*refusal = "ILIKE in SQL_ASCII under a libc locale folds bytes by that locale";
		return NULL;
	}
	else
	{
		table = gl_case_fold_for(collation, fold == GL_LIKE_UPPERED, refusal);
		if (table == NULL)
			return NULL;
		folded = fold == GL_LIKE_UPPERED ? pattern :
			DatumGetTextPP(DirectFunctionCall1Coll(lower, collation, PointerGetDatum(pattern)));
		prog = gl_build_like(VARDATA_ANY(folded), VARSIZE_ANY_EXHDR(folded),
							 true, gl_case_fold_class, (void *) table, &error);
	}
	if (prog == NULL)
		*refusal = error;
	return palloc_program(prog);
}

GlProgram *
gl_compile_like_any(text **patterns, int npatterns, bool case_insensitive,
					Oid collation, const char **refusal)
{
	pg_locale_t locale;
	bool		utf8;
	char	  **literals;
	size_t	   *lens;
	const char *error = NULL;
	GlProgram  *prog;
	int			i;

	*refusal = NULL;
	if (!supported_encoding(&utf8, refusal) ||
		!usable_collation(collation, &locale, refusal))
		return NULL;
	/* Bytewise folding is exact only where lower() touches ASCII alone. */
	if (case_insensitive && (!OidIsValid(collation) || !lc_ctype_is_c(collation)))
	{
		*refusal = "ILIKE ANY is combined only under a C collation";
		return NULL;
	}

	literals = palloc(sizeof(char *) * npatterns);
	lens = palloc(sizeof(size_t) * npatterns);
	for (i = 0; i < npatterns; i++)
	{
		size_t		plen = VARSIZE_ANY_EXHDR(patterns[i]);

		literals[i] = palloc(plen + 1);
		if (!gl_like_contains_literal(VARDATA_ANY(patterns[i]), plen,
									  literals[i], &lens[i]))
		{
			*refusal = "not every pattern is '%literal%'";
			return NULL;
		}
	}
	prog = gl_build_multi((const char *const *) literals, lens, npatterns,
						  case_insensitive, utf8, &error);
	if (prog == NULL)
		*refusal = error;
	return palloc_program(prog);
}
