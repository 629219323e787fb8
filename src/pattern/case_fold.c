/*-------------------------------------------------------------------------
 *
 * case_fold.c
 *	  The inverse of a collation's lower(), for exact ILIKE case classes
 *	  (and of its upper(), for upper(column) LIKE an upper-case pattern).
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
 * kept for the backend's life: a collation's lower() cannot change under a
 * running backend.
 *
 * Building it takes tens of milliseconds (30 ms on the CPU machine: a
 * 4.4 MB string through lower(), and the walk over its output), which
 * every new connection paid on its first ILIKE.  So, when the library is
 * preloaded, the tables are shared too: the first backend to build one
 * puts it in shared memory, and the others copy it (1 433 moves under
 * C.UTF-8).  What lower() does is decided by the collation's LC_CTYPE and
 * the C library that implements it, so a shared table is found by the
 * two: the LC_CTYPE name and the library's version
 * (get_collation_actual_version()), whatever the database or collation
 * OID.  A table too large for a shared slot, or one built when all slots
 * are taken, stays the backend's own.
 *
 * upper() is inverted the same way, for "upper(v) LIKE p" with p in upper
 * case (Django's iexact / icontains / istartswith): t matches c exactly
 * when upper(t) == c, and that preimage differs from lower()'s -- U+017F
 * (long s) upper-cases to 'S' but lower-cases to itself, the Kelvin sign
 * lower-cases to 'k' but upper-cases to itself.  Its tables are kept and
 * shared beside lower()'s, keyed apart.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <locale.h>

#include "catalog/pg_collation.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/pg_locale.h"
#include "utils/syscache.h"

#include "pattern/case_fold.h"
#include "program/like_build.h"

typedef struct CaseMove
{
	uint32_t	from;			/* x */
	uint32_t	to;				/* lower(x) (upper(x)), != x */
} CaseMove;

struct GlCaseFold
{
	Oid			collation;
	bool		upper;			/* the inverse of upper(), not of lower() */
	int			nmoves;
	CaseMove   *by_from;		/* sorted by from */
	CaseMove   *by_to;			/* sorted by to, then from */
	const char *refusal;		/* non-NULL: lower() was not 1:1 here */
	struct GlCaseFold *next;
};

static GlCaseFold *fold_tables = NULL;

static const char *const NOT_ONE_TO_ONE =
	"lower() and upper() of this collation do not map character by character";

/* ------------------------------------------------ tables in shared memory */

#define SHARED_TABLES		8
#define SHARED_MAX_MOVES	4096
#define SHARED_KEY_BYTES	192

typedef struct SharedFold
{
	char		key[SHARED_KEY_BYTES];	/* "LC_CTYPE|library version"; "" free */
	bool		refused;
	int			nmoves;
	CaseMove	by_from[SHARED_MAX_MOVES];
	CaseMove	by_to[SHARED_MAX_MOVES];
} SharedFold;

typedef struct SharedFolds
{
	LWLock	   *lock;
	SharedFold	tables[SHARED_TABLES];
} SharedFolds;

/* NULL unless the library was preloaded. */
static SharedFolds *shared_folds = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
case_fold_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(SharedFolds)));
	RequestNamedLWLockTranche("gpulike case fold", 1);
}

static void
case_fold_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared_folds = ShmemInitStruct("gpulike case fold", sizeof(SharedFolds), &found);
	if (!found)
	{
		memset(shared_folds, 0, sizeof(SharedFolds));
		shared_folds->lock = &(GetNamedLWLockTranche("gpulike case fold"))->lock;
	}
	LWLockRelease(AddinShmemInitLock);
}

void
gl_case_fold_shmem_register(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = case_fold_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = case_fold_shmem_startup;
}

/*
 * What decides the collation's lower() (upper()), as a shared table's
 * key; false if it does not fit one.
 */
static bool
shared_key(Oid collation, bool upper, char *key)
{
	char	   *ctype;
	char	   *version;
	int			n;

	if (collation == DEFAULT_COLLATION_OID)
		ctype = pstrdup(setlocale(LC_CTYPE, NULL));
	else
	{
		HeapTuple	tuple = SearchSysCache1(COLLOID, ObjectIdGetDatum(collation));
		Datum		datum;
		bool		isnull;

		if (!HeapTupleIsValid(tuple))
			return false;
		datum = SysCacheGetAttr(COLLOID, tuple, Anum_pg_collation_collctype, &isnull);
		ctype = isnull ? NULL : TextDatumGetCString(datum);
		ReleaseSysCache(tuple);
		if (ctype == NULL)
			return false;
	}
	version = get_collation_actual_version(COLLPROVIDER_LIBC, ctype);
	n = snprintf(key, SHARED_KEY_BYTES, "%s|%s|%s", upper ? "upper" : "lower", ctype,
				 version ? version : "");
	return n > 0 && n < SHARED_KEY_BYTES;
}

/* Copy the shared table of key into fold; false if there is none. */
static bool
copy_shared(const char *key, GlCaseFold *fold)
{
	bool		found = false;

	LWLockAcquire(shared_folds->lock, LW_SHARED);
	for (int i = 0; i < SHARED_TABLES && !found; i++)
	{
		SharedFold *shared = &shared_folds->tables[i];

		if (strcmp(shared->key, key) != 0)
			continue;
		found = true;
		fold->nmoves = shared->nmoves;
		fold->refusal = shared->refused ? NOT_ONE_TO_ONE : NULL;
		fold->by_from = MemoryContextAlloc(TopMemoryContext, sizeof(CaseMove) * (fold->nmoves + 1));
		fold->by_to = MemoryContextAlloc(TopMemoryContext, sizeof(CaseMove) * (fold->nmoves + 1));
		memcpy(fold->by_from, shared->by_from, sizeof(CaseMove) * fold->nmoves);
		memcpy(fold->by_to, shared->by_to, sizeof(CaseMove) * fold->nmoves);
	}
	LWLockRelease(shared_folds->lock);
	return found;
}

/* Put fold's table in a free shared slot, if it fits one and one is free. */
static void
publish_shared(const char *key, const GlCaseFold *fold)
{
	if (fold->nmoves > SHARED_MAX_MOVES)
		return;
	LWLockAcquire(shared_folds->lock, LW_EXCLUSIVE);
	for (int i = 0; i < SHARED_TABLES; i++)
	{
		SharedFold *shared = &shared_folds->tables[i];

		if (strcmp(shared->key, key) == 0)
			break;				/* another backend was first */
		if (shared->key[0] != '\0')
			continue;
		shared->refused = fold->refusal != NULL;
		shared->nmoves = fold->nmoves;
		memcpy(shared->by_from, fold->by_from, sizeof(CaseMove) * fold->nmoves);
		memcpy(shared->by_to, fold->by_to, sizeof(CaseMove) * fold->nmoves);
		strlcpy(shared->key, key, SHARED_KEY_BYTES);
		break;
	}
	LWLockRelease(shared_folds->lock);
}

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

	lowered = DatumGetTextPP(DirectFunctionCall1Coll(fold->upper ? upper : lower,
													 fold->collation,
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
			fold->refusal = NOT_ONE_TO_ONE;
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
		fold->refusal = NOT_ONE_TO_ONE;

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
gl_case_fold_for(Oid collation, bool upper, const char **refusal)
{
	GlCaseFold *fold;

	for (fold = fold_tables; fold != NULL; fold = fold->next)
		if (fold->collation == collation && fold->upper == upper)
			break;
	if (fold == NULL)
	{
		char		key[SHARED_KEY_BYTES];
		bool		shareable = shared_folds != NULL && shared_key(collation, upper, key);

		fold = MemoryContextAllocZero(TopMemoryContext, sizeof(GlCaseFold));
		fold->collation = collation;
		fold->upper = upper;
		if (!shareable || !copy_shared(key, fold))
		{
			build_table(fold);
			if (shareable)
				publish_shared(key, fold);
		}
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

	/* cp itself belongs unless the function moves it elsewhere */
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
