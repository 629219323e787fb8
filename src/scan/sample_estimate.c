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
 * systematic sample of the cached column (rows that are not superseded,
 * with their NULLs), matched by the programs the server will run -- which
 * is also right for a superset program, whose extra candidates cost what
 * the others cost.  A pattern is matched on the sample's LEAD_ROWS lead
 * rows first, and on all its SAMPLE_ROWS rows only when fewer than
 * TRUSTED_MATCHES of the lead rows match: a pattern of 0.1 % has four
 * matches among 4 096 rows, as likely two or six, which puts its estimate
 * on either side of the serial / parallel crossover of the H200 host
 * (measured: two of the expected four, serial chosen, 1.5x slower than
 * parallel); among 32 768 rows it has about 32, within a fifth.
 *
 * The server takes the sample once per cache generation and keeps it in a
 * DSM segment; a backend maps it once and matches it in place, so a new
 * connection's first estimate costs a round trip and a mapping, not a
 * copy of the rows (copied through the request queue, 32 768 rows cost
 * 8.7 ms of a new connection's first planning on the CPU machine).
 * Matching a pattern costs a fraction of a millisecond of planning on the
 * lead rows; a pattern's matches are kept for the next time it is planned.
 * Expressions over one cached column with constant patterns only;
 * everything else keeps PostgreSQL's estimate.
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
#include "column/sample.h"
#include "engine/cpu_engine.h"
#include "registry/registry.h"
#include "scan/quals.h"
#include "scan/sample_estimate.h"

/* Tables smaller than this keep PostgreSQL's estimate: planning is dearer. */
#define SAMPLE_MIN_TUPLES	100000
#define SAMPLE_ROWS			32768
#define LEAD_ROWS			4096
#define TRUSTED_MATCHES		16
/* Regexes longer than this are not compiled twice (planning, execution). */
#define SAMPLE_MAX_PATTERN	256

/*
 * One pattern's matches on the lead rows or the whole sample (nrows), kept
 * for the next planning: an application sends the same patterns again and
 * again, and matching a regex's DFA over the lead rows on the CPU costs
 * about a millisecond of planning on the H200 host.
 */
typedef struct SampleMatches
{
	GlPatternOp op;
	Oid			collation;
	uint64		nrows;
	int			pattern_len;
	char	   *pattern;
	uint64		matched[FLEXIBLE_ARRAY_MEMBER];
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
	GlColumnSample mapped;		/* the server's image of the sample */
	GlColumn	lead;			/* views of it: the lead rows, */
	GlColumn	whole;			/* and all its rows */
	SampleMatches *kept[KEPT_MATCHES];	/* in TopMemoryContext */
	int			next_kept;		/* the slot to fill (or replace) next */
} HeldSample;

static List *held_samples = NIL;	/* in TopMemoryContext */

/*
 * The sample of (rel, attnum), fetched again when the cache was rebuilt;
 * NULL when the server cannot give it.
 */
static HeldSample *
column_sample(Relation rel, AttrNumber attnum)
{
	GlCacheInfo info;
	HeldSample *held = NULL;
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
	gl_release_sample(&held->mapped);
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
	if (!gl_request_sample(info.slot, info.generation, SAMPLE_ROWS, LEAD_ROWS,
						   &held->mapped))
		return NULL;
	if (!gl_sample_image_view(held->mapped.image, held->mapped.image_bytes, true,
							  &held->lead) ||
		!gl_sample_image_view(held->mapped.image, held->mapped.image_bytes, false,
							  &held->whole) ||
		held->lead.nrows == 0)
	{
		gl_release_sample(&held->mapped);
		return NULL;
	}
	held->slot = info.slot;
	held->generation = info.generation;
	held->valid = true;
	return held;
}

/*
 * The rows of col (the sample's lead rows, or all of them) that pattern
 * (of op and collation) matches, into matched (a bit per row of col);
 * false when it cannot be compiled or run.
 */
static bool
sample_matches(HeldSample *held, const GlColumn *col, GlPatternOp op, Oid collation,
			   text *pattern, uint64 *matched)
{
	const char *bytes = VARDATA_ANY(pattern);
	int			len = VARSIZE_ANY_EXHDR(pattern);
	Size		matched_size = gl_bitmap_words(col->nrows) * sizeof(uint64);
	const char *refusal;
	GlProgram  *prog;
	SampleMatches *kept;

	for (int i = 0; i < KEPT_MATCHES; i++)
	{
		kept = held->kept[i];
		if (kept != NULL && kept->op == op && kept->collation == collation &&
			kept->nrows == col->nrows && kept->pattern_len == len &&
			memcmp(kept->pattern, bytes, len) == 0)
		{
			memcpy(matched, kept->matched, matched_size);
			return true;
		}
	}
	memset(matched, 0, matched_size);
	prog = gl_compile_pattern(op, pattern, collation, &refusal);
	if (prog == NULL || !gl_cpu_match_column(prog, col, matched, 1))
		return false;

	kept = held->kept[held->next_kept];
	if (kept != NULL)
	{
		pfree(kept->pattern);
		pfree(kept);
	}
	kept = held->kept[held->next_kept] =
		MemoryContextAlloc(TopMemoryContext,
						   offsetof(SampleMatches, matched) + matched_size);
	kept->op = op;
	kept->collation = collation;
	kept->nrows = col->nrows;
	kept->pattern_len = len;
	kept->pattern = MemoryContextAlloc(TopMemoryContext, Max(len, 1));
	memcpy(kept->pattern, bytes, len);
	memcpy(kept->matched, matched, matched_size);
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
 * The truth of expr over col, the sample (or its lead rows) of its one
 * column: false when it cannot be known now (a pattern not constant, or
 * refused by the compiler).
 */
static bool
eval_truth(Expr *expr, HeldSample *sample, const GlColumn *col, Truth *out)
{
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

			if (!eval_truth(lfirst(lc), sample, col, &child))
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

			if (!sample_matches(sample, col, leaf.op, leaf.collation,
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

/* How many of the first nrows bits are set. */
static uint64
count_rows(const uint64 *bits, uint64 nrows)
{
	uint64		count = 0;

	for (uint64 w = 0; w < gl_bitmap_words(nrows); w++)
		count += pg_popcount64(bits[w] & gl_bitmap_word_mask(nrows, w));
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
	Expr	   *expr;
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
	expr = list_length(offloaded) == 1 ? linitial(offloaded) : make_andclause(offloaded);
	if (eval_truth(expr, sample, &sample->lead, &truth))
	{
		const GlColumn *counted = &sample->lead;
		uint64		matches = count_rows(truth.yes, counted->nrows);

		if (matches < TRUSTED_MATCHES && sample->whole.nrows > sample->lead.nrows &&
			eval_truth(expr, sample, &sample->whole, &truth))
		{
			counted = &sample->whole;
			matches = count_rows(truth.yes, counted->nrows);
		}
		/* none matched: half a row of the sample, not zero */
		*selectivity = Max(matches, 0.5) / counted->nrows;
		done = true;
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(work);
	return done;
}

