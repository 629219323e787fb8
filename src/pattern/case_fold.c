/*-------------------------------------------------------------------------
 *
 * case_fold.c
 *	  The inverse of a collation's lower(), for exact ILIKE case classes.
 *
 * PostgreSQL evaluates "v ILIKE p" in a UTF-8 database as
 * "lower(v) LIKE lower(p)" (like.c), and for a libc collation lower()
 * applies towlower() to every code point on its own.  So a text character
 * t matches a (lowered) pattern character c exactly when lower(t) == c, and
 * the set of such t -- the preimage of c -- is what a pattern position must
 * accept.  That set is usually {c, upper(c)} but not always: the Kelvin
 * sign U+212A lowers to 'k', U+0130 (I with dot) to 'i' in many locales,
 * and some characters do not lower to themselves at all.
 *
 * Rather than re-deriving any of that, we ask PostgreSQL: one call of its
 * own lower() with the collation, over a string holding every Unicode
 * scalar value once, tells us lower(x) for every x.  Because lower() maps
 * code point by code point there, the output has exactly as many
 * characters as the input, and the i-th output character is lower() of the
 * i-th input character; if the counts ever differ we refuse rather than
 * guess.  Only the few thousand x with lower(x) != x are kept, sorted both
 * ways, so a case class is two binary searches.  One table per collation,
 * built on first use in each backend (tens of milliseconds), kept for the
 * backend's life: a collation's lower() cannot change under a running
 * backend.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "pattern/case_fold.h"
#include "program/like_build.h"

typedef struct CaseMove
{
	uint32_t	from;			/* x */
	uint32_t	to;				/* lower(x), != x */
} CaseMove;

struct GlCaseFold
{
	Oid			collation;
	int			nmoves;
	CaseMove   *by_from;		/* sorted by from */
	CaseMove   *by_to;			/* sorted by to, then from */
	const char *refusal;		/* non-NULL: lower() was not 1:1 here */
	struct GlCaseFold *next;
};

static GlCaseFold *fold_tables = NULL;

static int
compare_from(const void *a, const void *b)
{
	uint32_t	x = ((const CaseMove *) a)->from;
	uint32_t	y = ((const CaseMove *) b)->from;

	return (x > y) - (x < y);
}

static int
compare_to(const void *a, const void *b)
{
	const CaseMove *x = a;
	const CaseMove *y = b;

	if (x->to != y->to)
		return (x->to > y->to) - (x->to < y->to);
	return (x->from > y->from) - (x->from < y->from);
}

/* Every Unicode scalar value but NUL, in order, as UTF-8. */
static char *
all_code_points(size_t *len, uint32_t *count)
{
	char	   *buf = palloc(4 * 0x110000);
	size_t		o = 0;
	uint32_t	cp;

	*count = 0;
	for (cp = 1; cp <= 0x10FFFF; cp++)
	{
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		o += gl_utf8_encode(cp, buf + o);
		(*count)++;
	}
	*len = o;
	return buf;
}

static void
build_table(GlCaseFold *fold)
{
	MemoryContext work = AllocSetContextCreate(CurrentMemoryContext,
											   "gpulike case fold",
											   ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(work);
	size_t		len;
	uint32_t	count;
	char	   *input = all_code_points(&len, &count);
	text	   *lowered;
	const char *out;
	size_t		outlen,
				i = 0,
				o = 0;
	uint32_t	cp;
	CaseMove   *moves = palloc(sizeof(CaseMove) * count);
	int			nmoves = 0;

	lowered = DatumGetTextPP(DirectFunctionCall1Coll(lower, fold->collation,
													 PointerGetDatum(cstring_to_text_with_len(input, len))));
	out = VARDATA_ANY(lowered);
	outlen = VARSIZE_ANY_EXHDR(lowered);

	/* Walk input and output in step, one character each. */
	for (cp = 1; cp <= 0x10FFFF && fold->refusal == NULL; cp++)
	{
		uint32_t	low;
		char		encoded[4];
		int			n;

		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		i += gl_utf8_encode(cp, encoded);
		n = (o < outlen) ? gl_utf8_decode(out + o, outlen - o, &low) : -1;
		if (n < 0)
			fold->refusal = "lower() of this collation does not map character by character";
		else
		{
			o += n;
			if (low != cp)
			{
				moves[nmoves].from = cp;
				moves[nmoves].to = low;
				nmoves++;
			}
		}
	}
	if (o != outlen || i != len)
		fold->refusal = "lower() of this collation does not map character by character";

	MemoryContextSwitchTo(TopMemoryContext);
	fold->nmoves = nmoves;
	fold->by_from = palloc(sizeof(CaseMove) * (nmoves + 1));
	fold->by_to = palloc(sizeof(CaseMove) * (nmoves + 1));
	memcpy(fold->by_from, moves, sizeof(CaseMove) * nmoves);
	memcpy(fold->by_to, moves, sizeof(CaseMove) * nmoves);
	qsort(fold->by_from, nmoves, sizeof(CaseMove), compare_from);
	qsort(fold->by_to, nmoves, sizeof(CaseMove), compare_to);

	MemoryContextSwitchTo(old);
	MemoryContextDelete(work);
}

const GlCaseFold *
gl_case_fold_for(Oid collation, const char **refusal)
{
	GlCaseFold *fold;

	for (fold = fold_tables; fold != NULL; fold = fold->next)
		if (fold->collation == collation)
			break;
	if (fold == NULL)
	{
		fold = MemoryContextAllocZero(TopMemoryContext, sizeof(GlCaseFold));
		fold->collation = collation;
		build_table(fold);
		fold->next = fold_tables;
		fold_tables = fold;
	}
	if (fold->refusal != NULL)
	{
		*refusal = fold->refusal;
		return NULL;
	}
	return fold;
}

int
gl_case_fold_class(void *arg, uint32_t cp, uint32_t *members, int max_members)
{
	const GlCaseFold *fold = arg;
	CaseMove	key = {0, cp};
	int			lo = 0,
				hi = fold->nmoves;
	int			n = 0;

	/* cp itself belongs unless lower() moves it elsewhere */
	key.from = cp;
	if (bsearch(&key, fold->by_from, fold->nmoves, sizeof(CaseMove), compare_from) == NULL)
		members[n++] = cp;

	/* first entry of by_to with to >= cp */
	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (fold->by_to[mid].to < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < fold->nmoves && fold->by_to[lo].to == cp; lo++)
	{
		if (n >= max_members)
			return -1;
		members[n++] = fold->by_to[lo].from;
	}
	return n;
}
