/*-------------------------------------------------------------------------
 *
 * sample_estimate.c
 *	  How many candidates an offloaded expression will have, counted on a
 *	  sample of the cached column.
 *
 * PostgreSQL estimates a pattern's selectivity by applying it to the
 * column's histogram, and trusts no estimate below 0.01 %: with the
 * default 100 histogram entries, every LIKE matching between none and 1 %
 * of the rows is estimated at 0.01 %, and so is every NOT LIKE matching
 * between 99 % and 100 %.  On 15 M rows that is 1 500 estimated candidates
 * for 150 000 real ones, and the serial GpuLike plan is chosen where the
 * parallel one is three times faster.
 *
 * So for a large table the GpuLike paths count their candidates on a
 * systematic sample of the cached column (SAMPLE_ROWS rows that are not
 * superseded, with their NULLs), matched by the programs the server will
 * run -- which is also right for a superset program, whose extra
 * candidates cost what the others cost.  The sample comes from the
 * server once per backend and cache generation; matching it costs a
 * fraction of a millisecond of planning, and a pattern's matches are kept
 * with the sample for the next time it is planned.  Expressions over one cached
 * column with constant patterns only; everything else keeps PostgreSQL's
 * estimate.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "port/pg_bitutils.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "client/client.h"
#include "column/column.h"
#include "engine/cpu_engine.h"
#include "registry/registry.h"
#include "scan/quals.h"
#include "scan/sample_estimate.h"

/* Tables smaller than this keep PostgreSQL's estimate: planning is dearer. */
#define SAMPLE_MIN_TUPLES	100000
#define SAMPLE_ROWS			4096
/* Regexes longer than this are not compiled twice (planning, execution). */
#define SAMPLE_MAX_PATTERN	256

/*
 * One pattern's matches on a sample, kept for the next planning: an
 * application sends the same patterns again and again, and matching a
 * regex's DFA over the sample on the CPU costs about a millisecond of
 * planning on the H200 host.
 */
typedef struct SampleMatches
{
	GlPatternOp op;
	Oid			collation;
	int			pattern_len;
	char	   *pattern;
	uint64		matched[SAMPLE_ROWS / 64];
} SampleMatches;

#define KEPT_MATCHES		64

/* The samples this backend holds, one per cached column used. */
typedef struct HeldSample
{
	Oid			relid;
	AttrNumber	attnum;
	int			slot;
	uint64		generation;
	bool		valid;
	GlColumn	col;			/* the sample's rows (malloc'd) */
	SampleMatches *kept[KEPT_MATCHES];	/* in TopMemoryContext */
	int			next_kept;		/* the slot to fill (or replace) next */
} HeldSample;

static List *held_samples = NIL;	/* in TopMemoryContext */

/* The sample as a column: the CPU engine then matches it as a whole. */
static bool
sample_to_column(const GlColumnSample *sample, GlColumn *col)
{
	Size		pos = 0;

	if (!gl_column_init(col, sample->nrows, sample->nbytes))
		return false;
	for (uint32 r = 0; r < sample->nrows; r++)
	{
		uint32		len;
		bool		isnull;

		memcpy(&len, sample->rows + pos, sizeof(uint32));
		pos += sizeof(uint32);
		isnull = len == GL_SAMPLE_NULL;
		if (isnull)
			len = 0;
		if (!gl_column_append(col, gl_tid_make(r / 256, (uint16) (r % 256 + 1)),
							  sample->rows + pos, len, isnull ? GL_ROW_IS_NULL : 0))
		{
			gl_column_free(col);
			return false;
		}
		pos += len;
	}
	return true;
}

/* The sample of (rel, attnum), fetched again when the cache was rebuilt. */
static HeldSample *
column_sample(Relation rel, AttrNumber attnum)
{
	GlCacheInfo info;
	HeldSample *held = NULL;
	GlColumnSample *sample;
	ListCell   *lc;

	if (!gl_cache_usable(rel, attnum, &info))
		return NULL;
	foreach(lc, held_samples)
	{
		HeldSample *h = lfirst(lc);

		if (h->relid == RelationGetRelid(rel) && h->attnum == attnum)
			held = h;
	}
	if (held != NULL && held->valid && held->slot == info.slot &&
		held->generation == info.generation)
		return held;

	if (held == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		held = palloc0(sizeof(HeldSample));
		held->relid = RelationGetRelid(rel);
		held->attnum = attnum;
		held_samples = lappend(held_samples, held);
		MemoryContextSwitchTo(old);
	}
	if (held->valid)
		gl_column_free(&held->col);
	held->valid = false;
	for (int i = 0; i < KEPT_MATCHES; i++)
	{
		if (held->kept[i] != NULL)
		{
			pfree(held->kept[i]->pattern);
			pfree(held->kept[i]);
			held->kept[i] = NULL;
		}
	}
	held->next_kept = 0;
	sample = gl_request_sample(info.slot, info.generation, SAMPLE_ROWS);
	if (sample == NULL || sample->nrows == 0 || !sample_to_column(sample, &held->col))
		return NULL;
	held->slot = sample->slot;
	held->generation = sample->generation;
	held->valid = true;
	return held;
}

/*
 * The rows of the sample that pattern (of op and collation) matches, into
 * matched (SAMPLE_ROWS bits); false when it cannot be compiled or run.
 */
static bool
sample_matches(HeldSample *held, GlPatternOp op, Oid collation, text *pattern,
			   uint64 *matched)
{
	const char *bytes = VARDATA_ANY(pattern);
	int			len = VARSIZE_ANY_EXHDR(pattern);
	int			nwords = (int) gl_bitmap_words(held->col.nrows);
	const char *refusal;
	GlProgram  *prog;
	SampleMatches *kept;

	for (int i = 0; i < KEPT_MATCHES; i++)
	{
		kept = held->kept[i];
		if (kept != NULL && kept->op == op && kept->collation == collation &&
			kept->pattern_len == len && memcmp(kept->pattern, bytes, len) == 0)
		{
			memcpy(matched, kept->matched, nwords * sizeof(uint64));
			return true;
		}
	}
	memset(matched, 0, nwords * sizeof(uint64));
	prog = gl_compile_pattern(op, pattern, collation, &refusal);
	if (prog == NULL || !gl_cpu_match_column(prog, &held->col, matched, 1))
		return false;

	kept = held->kept[held->next_kept];
	if (kept == NULL)
		kept = held->kept[held->next_kept] =
			MemoryContextAllocZero(TopMemoryContext, sizeof(SampleMatches));
	else
		pfree(kept->pattern);
	kept->op = op;
	kept->collation = collation;
	kept->pattern_len = len;
	kept->pattern = MemoryContextAlloc(TopMemoryContext, Max(len, 1));
	memcpy(kept->pattern, bytes, len);
	memcpy(kept->matched, matched, nwords * sizeof(uint64));
	held->next_kept = (held->next_kept + 1) % KEPT_MATCHES;
	return true;
}

/*
 * Truth of an expression over the sample's rows, in SQL's three values:
 * bit r of 'yes' when TRUE for row r, of 'no' when FALSE, of neither when
 * NULL.
 */
typedef struct Truth
{
	uint64	   *yes;
	uint64	   *no;
} Truth;

static Truth
new_truth(int nwords, bool yes, bool no)
{
	Truth		t;

	t.yes = palloc(nwords * sizeof(uint64));
	t.no = palloc(nwords * sizeof(uint64));
	memset(t.yes, yes ? 0xFF : 0, nwords * sizeof(uint64));
	memset(t.no, no ? 0xFF : 0, nwords * sizeof(uint64));
	return t;
}

/* a AND b (or a OR b) into a, in three-valued logic */
static void
combine_truth(Truth *a, const Truth *b, bool is_and, int nwords)
{
	for (int w = 0; w < nwords; w++)
	{
		if (is_and)
		{
			a->yes[w] &= b->yes[w];
			a->no[w] |= b->no[w];
		}
		else
		{
			a->yes[w] |= b->yes[w];
			a->no[w] &= b->no[w];
		}
	}
}

/* Is the pattern a constant we may compile now? */
static bool
usable_pattern(Const *pattern, GlPatternOp op)
{
	if (!IsA(pattern, Const) || pattern->constisnull)
		return false;
	return (op != GL_OP_REGEX && op != GL_OP_IREGEX) ||
		VARSIZE_ANY_EXHDR(DatumGetPointer(pattern->constvalue)) <= SAMPLE_MAX_PATTERN;
}

/*
 * The truth of expr over the sample of its one column: false when it cannot
 * be known now (a pattern not constant, or refused by the compiler).
 */
static bool
eval_truth(Expr *expr, HeldSample *sample, Truth *out)
{
	const GlColumn *col = &sample->col;
	int			nwords = (int) gl_bitmap_words(col->nrows);
	GlQualLeaf	leaf;
	Const	   *pattern;
	Datum	   *elems;
	bool	   *nulls;
	int			nelems;

	if (IsA(expr, BoolExpr))
	{
		BoolExpr   *b = (BoolExpr *) expr;
		bool		first = true;
		ListCell   *lc;

		foreach(lc, b->args)
		{
			Truth		child;

			if (!eval_truth(lfirst(lc), sample, &child))
				return false;
			if (b->boolop == NOT_EXPR)
			{
				out->yes = child.no;
				out->no = child.yes;
				return true;
			}
			if (first)
				*out = child;
			else
				combine_truth(out, &child, b->boolop == AND_EXPR, nwords);
			first = false;
		}
		return !first;
	}

	gl_qual_leaf(expr, &leaf);
	pattern = (Const *) leaf.pattern;
	while (IsA(pattern, RelabelType))
		pattern = (Const *) ((RelabelType *) pattern)->arg;
	if (!usable_pattern(pattern, leaf.op))
		return false;
	if (leaf.is_array)
	{
		ArrayType  *array = DatumGetArrayTypeP(pattern->constvalue);
		int16		typlen;
		bool		typbyval;
		char		typalign;

		get_typlenbyvalalign(ARR_ELEMTYPE(array), &typlen, &typbyval, &typalign);
		deconstruct_array(array, ARR_ELEMTYPE(array), typlen, typbyval, typalign,
						  &elems, &nulls, &nelems);
	}
	else
	{
		elems = &pattern->constvalue;
		nulls = &pattern->constisnull;
		nelems = 1;
	}

	/* ANY: OR of the elements; ALL: AND; an empty array is FALSE, TRUE */
	*out = new_truth(nwords, !leaf.array_use_or || !leaf.is_array,
					 leaf.array_use_or || !leaf.is_array);
	for (int i = 0; i < nelems; i++)
	{
		Truth		element = new_truth(nwords, false, false);

		if (!nulls[i])
		{
			uint64	   *matched = palloc(nwords * sizeof(uint64));

			if (!sample_matches(sample, leaf.op, leaf.collation,
								DatumGetTextPP(elems[i]), matched))
				return false;
			for (int w = 0; w < nwords; w++)
			{
				uint64		answerable = ~col->nulls[w];

				element.yes[w] = (leaf.op_negated ? ~matched[w] : matched[w]) & answerable;
				element.no[w] = (leaf.op_negated ? matched[w] : ~matched[w]) & answerable;
			}
		}
		if (!leaf.is_array)
		{
			*out = element;
			return true;
		}
		combine_truth(out, &element, !leaf.array_use_or, nwords);
	}
	return true;
}

/* How many rows of the sample the truth holds for. */
static uint64
count_true(const Truth *truth, uint64 nrows)
{
	uint64		count = 0;

	for (uint64 w = 0; w < gl_bitmap_words(nrows); w++)
		count += pg_popcount64(truth->yes[w] & gl_bitmap_word_mask(nrows, w));
	return count;
}

bool
gl_sample_selectivity(RelOptInfo *rel, Relation relation, List *offloaded,
					  Selectivity *selectivity)
{
	MemoryContext work;
	MemoryContext old;
	List	   *attnums;
	HeldSample *sample;
	Truth		truth;
	bool		done = false;

	if (rel->tuples < SAMPLE_MIN_TUPLES || offloaded == NIL)
		return false;
	attnums = gl_offloaded_attnums(offloaded, rel->relid);
	if (list_length(attnums) != 1)
		return false;
	sample = column_sample(relation, linitial_int(attnums));
	if (sample == NULL)
		return false;

	work = AllocSetContextCreate(CurrentMemoryContext, "GpuLike sample estimate",
								 ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(work);
	if (eval_truth(list_length(offloaded) == 1 ? linitial(offloaded) :
				   make_andclause(offloaded), sample, &truth))
	{
		/* none matched: half a row of the sample, not zero */
		*selectivity = Max(count_true(&truth, sample->col.nrows), 0.5) /
			sample->col.nrows;
		done = true;
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(work);
	return done;
}
