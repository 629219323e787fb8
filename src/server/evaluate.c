/*-------------------------------------------------------------------------
 *
 * evaluate.c
 *	  How the gpulike server evaluates a MATCH request (see evaluate.h).
 *
 * A request is a postfix expression (client.h).  Each leaf becomes a
 * bitmap over the rows of its column that can be candidates at all (not
 * NULL, not superseded: column.h); a negated leaf is "such a row, not
 * matching" when its program is exact, and every such row when the
 * program is only a superset (negating a superset could lose rows).  A
 * leaf runs on the GPU when one is ready (engines.h), the backend did not
 * ask for the CPU, and the column has (or can get, within the device
 * budget) a device copy; any CUDA failure reruns that leaf on the CPU
 * engine, logged, and the answer says it fell back.  A positive leaf the
 * GPU matched in few rows comes back as the nonzero words of its bitmap
 * alone, and stays so while nothing needs the whole bitmap, so that a
 * selective request costs what its matches cost rather than what the
 * column's size does.  AND / OR of operands over the same column are
 * word-wise bitmap operations; operands over different columns are first
 * turned into sorted TID sets, because row positions of two columns do
 * not correspond (tidset.h).  The final operand becomes the answer:
 * candidates grouped by heap page (column/candidates.h), built on the CPU
 * engine's threads.  The answer is exact when every leaf was: then a
 * candidate's latest cached value satisfies the request, and the executor
 * may skip its recheck.
 *
 * The message was checked before it came here (requests.c): its items and
 * programs lie within it, and its operators have their operands.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "portability/instr_time.h"
#include "utils/memutils.h"

#include "column/tidset.h"
#include "engine/cpu_engine.h"
#include "registry/stats.h"
#include "server/engines.h"
#include "server/evaluate.h"
#include "server/store.h"
#include "settings.h"
#ifdef GPULIKE_HAVE_CUDA
#include "gpulike_cuda.h"
#endif

/*
 * One operand on the evaluation stack, in one of three forms: the rows of
 * a column as a bitmap; the same with only the bitmap's nonzero words
 * listed (a GPU leaf that matched few rows: everything done with it then
 * costs what its matches cost, not what the column's size does); or a
 * TID set.
 */
typedef struct Operand
{
	GlStoredColumn *column;		/* bitmap or listed: the column of the rows */
	uint64	   *bits;			/* the bitmap, or NULL */
	uint32	   *listed_index;	/* listed: the nonzero words' indices, */
	uint64	   *listed_words;	/* increasing, and their bits */
	uint64		nlisted;
	GlTid	   *tids;			/* a TID set, or NULL */
	uint64		ntids;
} Operand;

/* What one request has used so far. */
typedef struct MatchRun
{
	bool		use_gpu;
	bool		used_gpu;
	bool		used_cpu;
	bool		exact;			/* no leaf so far was a superset */
	double		engine_ms;
	double		kernel_ms;		/* of engine_ms: the GPU's kernels */
	bool		fell_back;
	int			gpus;			/* most GPUs one leaf's column was on */
	char		gpu_failure[160];	/* why, when fell_back */
	int			fail_gpu_part;	/* gpulike.debug_gpu_fail_part of the backend */
} MatchRun;

/* ---------------------------------------------------------- leaves */

static uint64 *
alloc_bitmap(uint64 nrows)
{
	return MemoryContextAllocHuge(CurrentMemoryContext,
								  Max(gl_bitmap_words(nrows), 1) * sizeof(uint64));
}

/*
 * The rows of word w that can be candidates (gl_column_answerable_word),
 * none past the last row: whatever an engine left there must not become
 * a TID.
 */
static inline uint64
answerable_word(const GlColumn *col, uint64 w)
{
	return gl_column_answerable_word(col, w) & gl_bitmap_word_mask(col->nrows, w);
}

/* Every row that can be a candidate. */
static void
set_answerable(uint64 *bits, const GlColumn *col)
{
	for (uint64 w = 0; w < gl_bitmap_words(col->nrows); w++)
		bits[w] = answerable_word(col, w);
}

/*
 * Run the CPU engine.  If it cannot run the program at all (it could not
 * prepare it: bad program, or no memory for its plan), every answerable
 * row becomes a candidate and false is returned: the caller must then treat
 * the leaf as a superset, which the executor's recheck narrows.
 */
static bool
cpu_match(const GlProgram *prog, GlStoredColumn *sc, uint64 *bits, MatchRun *run)
{
	run->used_cpu = true;
	if (gl_cpu_match_column(prog, &sc->col, bits, gl_cpu_engine_threads()) ||
		gl_cpu_match_column(prog, &sc->col, bits, 1))
		return true;
	elog(LOG, "gpulike: CPU engine could not run a program; all rows are candidates");
	set_answerable(bits, &sc->col);
	return false;
}

/*
 * Try the GPU; false (logged) when the CPU engine must answer instead.
 * With may_list, a result with few nonzero words comes back listed in out
 * (out->bits is then left alone).
 */
static bool
gpu_match(const GlProgram *prog, bool sieve_first, GlStoredColumn *sc, bool may_list,
		  Operand *out, MatchRun *run)
{
#ifdef GPULIKE_HAVE_CUDA
	/* words a listed result may have; more, and it comes back as a bitmap */
	uint64		capacity = may_list ? Min(gl_bitmap_words(sc->col.nrows) / 16, 65536) : 0;
	GlCudaResult result = {out->bits, capacity};
	char		err[256];
	double		kernel_ms = 0;

	if (!gl_store_ensure_device(sc))
		return false;
	if (capacity > 0)
	{
		result.word_index = palloc(capacity * sizeof(uint32));
		result.words = palloc(capacity * sizeof(uint64));
	}
	if (gl_cuda_match(sc->device, prog, sieve_first, run->fail_gpu_part, &result, &kernel_ms,
					  err, sizeof(err)))
	{
		run->used_gpu = true;
		run->kernel_ms += kernel_ms;
		run->gpus = Max(run->gpus, gl_store_gpus_of(sc));
		if (result.listed)
		{
			out->listed_index = result.word_index;
			out->listed_words = result.words;
			out->nlisted = result.nwords;
		}
		return true;
	}
	ereport(LOG,
			(errmsg("gpulike server: GPU match failed, using the CPU engine: %s", err)));
	run->fell_back = true;
	strlcpy(run->gpu_failure, err, sizeof(run->gpu_failure));
	gl_store_drop_device(sc);
#endif
	return false;
}

/*
 * A leaf: its program's matches among the rows that can be candidates.
 * The engines know NULLs but not superseded rows (a device copy is not
 * told when a row is superseded): both are masked here.  Engine time is
 * the leaf's wall time, the GPU's transfers included.
 */
static void
eval_leaf(const GlMatchMessage *msg, const GlMatchItem *item,
		  GlStoredColumn *sc, Operand *out, MatchRun *run)
{
	const GlProgram *prog = (const GlProgram *) ((const char *) msg + item->program_off);
	const GlColumn *col = &sc->col;
	uint64		nwords = gl_bitmap_words(col->nrows);
	instr_time	start;
	instr_time	elapsed;
	bool		exact = prog->exact;

	memset(out, 0, sizeof(Operand));
	out->column = sc;
	out->bits = alloc_bitmap(col->nrows);

	INSTR_TIME_SET_CURRENT(start);
	if (!(run->use_gpu &&
		  gpu_match(prog, item->sieve_first != 0, sc, !item->negated, out, run)) &&
		!cpu_match(prog, sc, out->bits, run))
		exact = false;
	run->exact &= exact;

	if (out->listed_index != NULL)
	{
		uint64		kept = 0;

		/* a listed leaf is never negated: mask the listed words alone */
		pfree(out->bits);
		out->bits = NULL;
		for (uint64 i = 0; i < out->nlisted; i++)
		{
			uint64		word = out->listed_words[i] &
				answerable_word(col, out->listed_index[i]);

			if (word == 0)
				continue;
			out->listed_index[kept] = out->listed_index[i];
			out->listed_words[kept++] = word;
		}
		out->nlisted = kept;
	}
	else if (item->negated && !exact)
		set_answerable(out->bits, col); /* negating a superset could lose rows */
	else if (item->negated)
	{
		for (uint64 w = 0; w < nwords; w++)
			out->bits[w] = ~out->bits[w] & answerable_word(col, w);
	}
	else
	{
		for (uint64 w = 0; w < nwords; w++)
			out->bits[w] &= answerable_word(col, w);
	}
	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);
	run->engine_ms += INSTR_TIME_GET_MILLISEC(elapsed);
}

/* ------------------------------------------------------ operands */

/* A listed operand as a bitmap. */
static void
to_bitmap(Operand *op)
{
	if (op->listed_index == NULL)
		return;
	op->bits = MemoryContextAllocExtended(CurrentMemoryContext,
										  Max(gl_bitmap_words(op->column->col.nrows), 1) *
										  sizeof(uint64),
										  MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (uint64 i = 0; i < op->nlisted; i++)
		op->bits[op->listed_index[i]] = op->listed_words[i];
	pfree(op->listed_index);
	pfree(op->listed_words);
	op->listed_index = NULL;
	op->listed_words = NULL;
	op->nlisted = 0;
}

/* The TIDs of a bitmap's or listed operand's rows, in row order. */
static uint64
operand_tids(const Operand *op, GlTid **tids)
{
	const GlColumn *col = &op->column->col;
	uint64		count = 0;

	if (op->bits != NULL)
	{
		for (uint64 w = 0; w < gl_bitmap_words(col->nrows); w++)
			count += __builtin_popcountll(op->bits[w]);
		*tids = MemoryContextAllocHuge(CurrentMemoryContext, Max(count, 1) * sizeof(GlTid));
		return gl_bitmap_to_tids(op->bits, col, *tids);
	}
	for (uint64 i = 0; i < op->nlisted; i++)
		count += __builtin_popcountll(op->listed_words[i]);
	*tids = MemoryContextAllocHuge(CurrentMemoryContext, Max(count, 1) * sizeof(GlTid));
	count = 0;
	for (uint64 i = 0; i < op->nlisted; i++)
	{
		for (uint64 word = op->listed_words[i]; word != 0; word &= word - 1)
			(*tids)[count++] = gl_column_tid(col, op->listed_index[i] * UINT64CONST(64) +
											 __builtin_ctzll(word));
	}
	return count;
}

static void
to_tidset(Operand *op)
{
	GlTid	   *tids;
	uint64		count;

	if (op->tids != NULL)
		return;
	count = operand_tids(op, &tids);
	if (count > 1)
	{
		GlTid	   *scratch = MemoryContextAllocHuge(CurrentMemoryContext,
													 GL_TIDS_SORT_SCRATCH(count) * sizeof(GlTid));

		count = gl_tids_sort_unique(tids, count, scratch);
		pfree(scratch);
	}
	if (op->bits != NULL)
		pfree(op->bits);
	if (op->listed_index != NULL)
	{
		pfree(op->listed_index);
		pfree(op->listed_words);
	}
	memset(op, 0, sizeof(Operand));
	op->tids = tids;
	op->ntids = count;
}

/* Combine n operands into ops[0]. */
static void
combine(Operand *ops, int n, GlMatchOp op)
{
	bool		same_column = true;
	int			i;

	for (i = 0; i < n; i++)
	{
		if (ops[i].tids != NULL || ops[i].column != ops[0].column)
			same_column = false;
	}

	if (same_column)
	{
		uint64		nwords = gl_bitmap_words(ops[0].column->col.nrows);

		for (i = 0; i < n; i++)
			to_bitmap(&ops[i]);
		for (i = 1; i < n; i++)
		{
			uint64		w;

			for (w = 0; w < nwords; w++)
			{
				if (op == GL_MATCH_AND)
					ops[0].bits[w] &= ops[i].bits[w];
				else
					ops[0].bits[w] |= ops[i].bits[w];
			}
			pfree(ops[i].bits);
		}
		return;
	}

	for (i = 0; i < n; i++)
		to_tidset(&ops[i]);
	for (i = 1; i < n; i++)
	{
		if (op == GL_MATCH_AND)
			ops[0].ntids = gl_tids_intersect(ops[0].tids, ops[0].ntids,
											 ops[i].tids, ops[i].ntids,
											 ops[0].tids);
		else
		{
			GlTid	   *merged = MemoryContextAllocHuge(CurrentMemoryContext,
														(ops[0].ntids + ops[i].ntids + 1) * sizeof(GlTid));

			ops[0].ntids = gl_tids_union(ops[0].tids, ops[0].ntids,
										 ops[i].tids, ops[i].ntids, merged);
			pfree(ops[0].tids);
			ops[0].tids = merged;
		}
		pfree(ops[i].tids);
	}
}

static void
describe_engine(const MatchRun *run, GlMatchResult *result)
{
#ifdef GPULIKE_HAVE_CUDA
	if (run->used_gpu && !run->used_cpu)
	{
		if (run->gpus > 1)
			snprintf(result->engine, sizeof(result->engine), "cuda (%d GPUs, %s)",
					 run->gpus, gl_engines_gpu_name());
		else
			snprintf(result->engine, sizeof(result->engine), "cuda (%s)",
					 gl_engines_gpu_name());
		return;
	}
#endif
	snprintf(result->engine, sizeof(result->engine), "cpu (%d threads)",
			 gl_cpu_engine_threads());
}

/*
 * The final operand as page records.  A counting request's exact answer
 * over one column counts what it can instead of listing it (candidates.h);
 * without the column's page index (no memory for it), or when the
 * operand's few words are listed, it lists everything, which is a correct
 * answer too.
 */
static bool
build_answer(Operand *op, const GlVisibleBlocks *visible, bool exact,
			 GlAnswer *answer)
{
	if (op->listed_index != NULL)
		return gl_answer_from_words(&op->column->col, op->listed_index,
									op->listed_words, op->nlisted, answer);
	if (op->bits != NULL)
	{
		GlColumn   *col = &op->column->col;

		if (visible != NULL && (!exact || !gl_column_index_pages(col)))
			visible = NULL;
		return gl_answer_from_rows(col, op->bits, visible,
								   gl_cpu_engine_threads(), answer);
	}
	return gl_answer_from_tids(op->tids, op->ntids, answer);
}

/*
 * Each column the request used, once: its LRU stamp and query count, and
 * the request in its statistics.
 */
static void
note_columns_used(const GlMatchMessage *msg, const GlAnswer *answer,
				  const MatchRun *run)
{
	for (uint32 i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];
		bool		seen = false;

		if (item->op != GL_MATCH_LEAF)
			continue;
		for (uint32 j = 0; j < i && !seen; j++)
			seen = msg->items[j].op == GL_MATCH_LEAF && msg->items[j].slot == item->slot;
		if (seen)
			continue;
		gl_store_note_query(gl_store_lookup(item->slot, item->generation));
		gl_stats_count_request(item->slot, item->generation,
							   answer->ncandidates + answer->counted,
							   run->engine_ms, run->fell_back ? run->gpu_failure : NULL);
	}
}

bool
gl_evaluate_match(const GlMatchMessage *msg, const GlVisibleBlocks *visible,
				  GlAnswer *answer, GlMatchResult *result,
				  char *why, size_t whylen)
{
	Operand    *stack = palloc(msg->nitems * sizeof(Operand));
	int			depth = 0;
	MatchRun	run = {0};
	instr_time	start;
	instr_time	elapsed;

	run.exact = true;
	run.use_gpu = gl_engines_gpu_ready() && msg->device_choice != GL_DEVICE_CPU;
	run.fail_gpu_part = msg->fail_gpu_part;

	for (uint32 i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];

		if (item->op == GL_MATCH_LEAF)
		{
			GlStoredColumn *sc = gl_store_lookup(item->slot, item->generation);

			if (sc == NULL)
			{
				snprintf(why, whylen,
						 "the gpulike server does not hold generation %llu of cache slot %d",
						 (unsigned long long) item->generation, item->slot);
				return false;
			}
			eval_leaf(msg, item, sc, &stack[depth++], &run);
		}
		else
		{
			combine(&stack[depth - item->noperands], item->noperands, item->op);
			depth -= item->noperands - 1;
		}
	}

	INSTR_TIME_SET_CURRENT(start);
	if (!build_answer(&stack[0], visible, run.exact, answer))
	{
		snprintf(why, whylen, "gpulike server: out of memory building an answer");
		return false;
	}
	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);

	note_columns_used(msg, answer, &run);

	result->answer_bytes = answer->nbytes;
	result->npages = answer->npages;
	result->ncandidates = answer->ncandidates;
	result->counted = answer->counted;
	result->exact = run.exact;
	result->fell_back = run.fell_back;
	result->engine_ms = run.engine_ms;
	result->kernel_ms = run.kernel_ms;
	result->answer_ms = INSTR_TIME_GET_MILLISEC(elapsed);
	describe_engine(&run, result);
	return true;
}
