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
 * ask for the CPU, the column has (or can get, within the device budget)
 * a device copy, and the column's pair summary leaves more than a few of
 * its chunks to match (few_enough_for_cpu: a term in no row is answered
 * without a kernel); any CUDA failure reruns that leaf on the CPU
 * engine, logged, and the answer says it fell back.  A positive leaf the
 * GPU matched in few rows, or the CPU engine matched in the few chunks
 * the summary left it, comes back as the nonzero words of its bitmap
 * alone, and stays so while nothing needs the whole bitmap, so that a
 * selective request costs what its matches cost rather than what the
 * column's size does.  AND / OR of operands over the same column are
 * word-wise bitmap operations; operands over different columns are first
 * turned into sorted TID sets, because row positions of two columns do
 * not correspond (tidset.h).  The final operand becomes the answer:
 * candidates grouped by heap page (column/candidates.h), built on the CPU
 * engine's threads.  The answer is exact when every leaf was: then a
 * candidate's latest cached value satisfies the request, and the executor
 * may skip its recheck.  A counting request that is one exact leaf is
 * counted on the GPU, where the device copy has the column's counting
 * arrays (gl_store_device_counting): the match's result is masked and
 * counted there by the answer's own rule, and only the count and the rows
 * left to list come back (cuda/counting.cu), not the column's bitmap.
 *
 * The message was checked before it came here (serve.c): its items and
 * programs lie within it, and its operators have their operands, and each
 * leaf's column was found, its device copy (if the GPU is to be used)
 * complete.
 *
 * Threads.  An evaluation runs on a request thread (request_threads.h),
 * several at once: it allocates with malloc, never ereports (a GPU
 * failure is described in the evaluation, for the main thread to log),
 * and reads the store's columns only -- the main thread changes none of
 * them while a request is out (serve.c).  The CUDA engine keeps
 * GL_CUDA_LANES sets of streams and scratch per device column, so that
 * many GPU matches run at once, each on a lane of its own; past that
 * many, matches wait for a lane in the order they asked (gpu_lane_take).
 * Everything else, the masking of a leaf's result and the answer, runs
 * beside other requests' matches.  A request whose backend left
 * (evaluation->cancel) stops between leaves and before its answer.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <pthread.h>

#include "portability/instr_time.h"

#include "column/tidset.h"
#include "engine/cpu_engine.h"
#include "server/engines.h"
#include "server/evaluate.h"
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
	bool		counted_on_device;	/* a counting leaf the GPU counted: */
	uint64		counted;		/* its counted rows, in neither form above */
} Operand;

/* What one request has used so far. */
typedef struct MatchRun
{
	GlEvaluation *ev;
	bool		use_gpu;
	bool		used_gpu;
	bool		used_cpu;
	bool		exact;			/* no leaf so far was a superset */
	double		engine_ms;
	double		kernel_ms;		/* of engine_ms: the GPU's kernels */
	bool		fell_back;
	int			gpus;			/* most GPUs one leaf's column was on */
	int			fail_gpu_part;	/* gpulike.debug_gpu_fail_part of the backend */
	bool		out_of_memory;
} MatchRun;

#ifdef GPULIKE_HAVE_CUDA
/*
 * The CUDA engine's lanes (gpulike_cuda.h): at most gpulike.gpu_lanes
 * matches at once, each on a lane no other is using, admitted first come
 * first served (a plain mutex lets a thread that comes along take it
 * ahead of those already waiting).  Ticket t may start once fewer than
 * that many of the tickets before it are still matching, that is once t
 * < lanes_given_back + gpulike.gpu_lanes; a free lane then exists, as
 * the setting is at most GL_CUDA_LANES (a lower one set while more run
 * admits none until they are fewer).  One set for every column: lanes of
 * different columns would share the GPU all the same.  The main thread
 * alone writes the setting (at a reload); a thread reads it under the
 * lock, once per wait.
 */
static pthread_mutex_t gpu_lanes_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gpu_lane_given_back = PTHREAD_COND_INITIALIZER;
static uint64 gpu_next_ticket = 0;
static uint64 gpu_lanes_given_back = 0;
static uint32 gpu_lanes_busy = 0;	/* bit i: lane i is matching */

static int
gpu_lane_take(void)
{
	uint64		ticket;
	int			lane = 0;

	StaticAssertStmt(GL_MAX_GPU_LANES == GL_CUDA_LANES,
					 "gpulike.gpu_lanes must allow the CUDA engine's lanes");
	pthread_mutex_lock(&gpu_lanes_lock);
	ticket = gpu_next_ticket++;
	while (ticket >= gpu_lanes_given_back + gl_gpu_lanes)
		pthread_cond_wait(&gpu_lane_given_back, &gpu_lanes_lock);
	while (lane < GL_CUDA_LANES - 1 && (gpu_lanes_busy & (1u << lane)))
		lane++;
	Assert(!(gpu_lanes_busy & (1u << lane)));
	gpu_lanes_busy |= 1u << lane;
	pthread_mutex_unlock(&gpu_lanes_lock);
	return lane;
}

static void
gpu_lane_give_back(int lane)
{
	pthread_mutex_lock(&gpu_lanes_lock);
	gpu_lanes_busy &= ~(1u << lane);
	gpu_lanes_given_back++;
	pthread_cond_broadcast(&gpu_lane_given_back);
	pthread_mutex_unlock(&gpu_lanes_lock);
}
#endif

/* malloc that notes a failure in run (callers check for NULL). */
static void *
run_alloc(MatchRun *run, size_t bytes, bool zero)
{
	void	   *p = zero ? calloc(1, Max(bytes, 1)) : malloc(Max(bytes, 1));

	if (p == NULL)
		run->out_of_memory = true;
	return p;
}

/* ---------------------------------------------------------- leaves */

static uint64 *
alloc_bitmap(MatchRun *run, uint64 nrows)
{
	return run_alloc(run, gl_bitmap_words(nrows) * sizeof(uint64), false);
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
	if (gl_cpu_match_column_until(prog, &sc->col, bits, gl_cpu_engine_threads(),
								  run->ev->cancel))
		return true;
	strlcpy(run->ev->log_message,
			"gpulike: CPU engine could not run a program; all rows are candidates",
			sizeof(run->ev->log_message));
	set_answerable(bits, &sc->col);
	return false;
}

/*
 * Try the GPU; false when the CPU engine must answer instead (a failure is
 * described in the evaluation, and the leaf's device copy is to be
 * dropped).  With may_list, a result with few nonzero words comes back
 * listed in out (out->bits is then left alone).  With count (a counting
 * request of this leaf alone, the device able to count), the GPU also
 * masks, negates if asked and counts what a counting answer counts
 * (gpulike_cuda.h), and out says so.  Whether the GPU sieves for a
 * regex's prefilter literal first is the column's to say (its lead rows).
 */
static bool
gpu_match(const GlProgram *prog, int leaf, GlStoredColumn *sc,
		  bool may_list, const GlVisibleBlocks *count, bool negate, Operand *out,
		  MatchRun *run)
{
#ifdef GPULIKE_HAVE_CUDA
	/* words a listed result may have; more, and it comes back as a bitmap */
	uint64		capacity = may_list ? Min(gl_bitmap_words(sc->col.nrows) / 16, 65536) : 0;
	GlCudaResult result = {out->bits, capacity};
	GlCudaCount counting = {0};
	char		err[256];
	double		kernel_ms = 0;
	bool		matched;
	int			lane;

	if (sc->device == NULL)
		return false;			/* no room on the GPU: the store said so */
	if (count != NULL)
	{
		counting.visible = *count;
		counting.negate = negate;
		result.count = &counting;
	}
	if (capacity > 0)
	{
		result.word_index = run_alloc(run, capacity * sizeof(uint32), false);
		result.words = run_alloc(run, capacity * sizeof(uint64), false);
		if (result.word_index == NULL || result.words == NULL)
		{
			free(result.word_index);
			free(result.words);
			return false;
		}
	}
	lane = gpu_lane_take();
	matched = gl_cuda_match(sc->device, prog, gl_store_prefilter_rare(sc, prog), lane,
							run->fail_gpu_part, &result, &kernel_ms, err, sizeof(err));
	gpu_lane_give_back(lane);
	if (matched)
	{
		run->used_gpu = true;
		run->kernel_ms += kernel_ms;
		run->gpus = Max(run->gpus, gl_store_gpus_of(sc));
		out->counted_on_device = count != NULL;
		out->counted = result.counted;
		if (result.listed)
		{
			out->listed_index = result.word_index;
			out->listed_words = result.words;
			out->nlisted = result.nwords;
		}
		else
		{
			free(result.word_index);
			free(result.words);
		}
		return true;
	}
	free(result.word_index);
	free(result.words);
	snprintf(run->ev->log_message, sizeof(run->ev->log_message),
			 "gpulike server: GPU match failed, using the CPU engine: %s", err);
	run->fell_back = true;
	strlcpy(run->ev->gpu_failure, err, sizeof(run->ev->gpu_failure));
	run->ev->gpu_failed[leaf] = true;
#endif
	return false;
}

/*
 * The chunks of the column that the pair summary (chunk_pairs.h) leaves
 * prog to match, when they are at most one in 64 (or one): their number,
 * listed in *chunks (malloc'd; the caller frees it) -- else -1, with
 * *chunks NULL.  A term in few rows or none is then answered from those
 * chunks alone (sparse_cpu_match), and sooner by the CPU engine than the
 * GPU's round trip would take when there is a chunk for each of its
 * threads at most (few_enough_for_cpu: columns of a few chunks, the test
 * suite's, still go to the GPU unless nothing can match).
 */
static int64
chunks_if_few(const GlProgram *prog, const GlColumn *col, uint32 **chunks)
{
	uint64		limit = Max(gl_chunk_count(col->nrows) / 64, 1);
	int64		n;

	*chunks = malloc(limit * sizeof(uint32));
	if (*chunks == NULL)
		return -1;
	n = gl_cpu_chunks_to_match(prog, col, limit, *chunks);
	if (n < 0)
	{
		free(*chunks);
		*chunks = NULL;
	}
	return n;
}

static bool
few_enough_for_cpu(int64 nchunks_to_match, const GlColumn *col)
{
	return nchunks_to_match >= 0 &&
		nchunks_to_match <= (int64) Min((uint64) gl_cpu_engine_threads(),
										gl_chunk_count(col->nrows) / 64);
}

/*
 * A positive leaf over the few chunks the summary leaves (chunks_if_few),
 * on the CPU engine: out comes back listed, the nonzero words of those
 * chunks alone, without a bitmap of the whole column.  False (nothing
 * allocated kept) when the program cannot be prepared or there is no
 * memory: the caller then matches the whole column.
 */
static bool
sparse_cpu_match(const GlProgram *prog, const GlColumn *col, const uint32 *chunks,
				 uint32 nchunks, Operand *out, MatchRun *run)
{
	uint64		nwords = gl_bitmap_words(col->nrows);
	uint64		room = (uint64) nchunks * GL_PAIR_CHUNK_BITMAP_WORDS;
	uint64	   *words = malloc(Max(room, 1) * sizeof(uint64));
	uint32	   *index = malloc(Max(room, 1) * sizeof(uint32));
	uint64		kept = 0;

	if (words == NULL || index == NULL ||
		!gl_cpu_match_chunks(prog, col, chunks, nchunks, words))
	{
		free(words);
		free(index);
		return false;
	}
	run->used_cpu = true;
	for (uint32 k = 0; k < nchunks; k++)
		for (uint64 j = 0; j < GL_PAIR_CHUNK_BITMAP_WORDS; j++)
		{
			uint64		w = (uint64) chunks[k] * GL_PAIR_CHUNK_BITMAP_WORDS + j;
			uint64		word = words[k * GL_PAIR_CHUNK_BITMAP_WORDS + j];

			if (w < nwords && word != 0)
			{
				index[kept] = (uint32) w;
				words[kept++] = word;
			}
		}
	out->listed_index = index;
	out->listed_words = words;
	out->nlisted = kept;
	return true;
}

/*
 * Does the GPU count this leaf itself (gpu_match)?  When it is the whole
 * request of an asker that counts, its program is exact (a superset's
 * rows are all rechecked, never counted), and the device copy has the
 * counting arrays of the column as it is -- which the store builds only
 * with the column's page index complete, as counting on the host needs,
 * and with gpulike.gpu_counting on.  The setting is read here too, so
 * that turning it off takes effect before the column next changes (a
 * request that reads it while a reload writes it counts either way).
 */
static bool
counts_on_device(const GlMatchMessage *msg, const GlProgram *prog, const GlStoredColumn *sc,
				 const MatchRun *run)
{
	return msg->nitems == 1 && run->ev->visible != NULL && prog->exact && sc->device_counts &&
		gl_gpu_counting;
}

/*
 * A leaf: its program's matches among the rows that can be candidates.
 * The engines know NULLs but not superseded rows (a device copy is not
 * told when a row is superseded): both are masked here, unless the GPU
 * counted the leaf, which masks with the column's counting arrays.
 * Engine time is the leaf's wall time, the GPU's transfers included.
 */
static bool
eval_leaf(const GlMatchMessage *msg, int leaf, GlStoredColumn *sc, Operand *out,
		  MatchRun *run)
{
	const GlMatchItem *item = &msg->items[leaf];
	const GlProgram *prog = (const GlProgram *) ((const char *) msg + item->program_off);
	const GlColumn *col = &sc->col;
	uint64		nwords = gl_bitmap_words(col->nrows);
	const GlVisibleBlocks *count = counts_on_device(msg, prog, sc, run) ? run->ev->visible : NULL;
	instr_time	start;
	instr_time	elapsed;
	bool		exact = prog->exact;
	uint32	   *chunks;
	int64		nchunks;
	bool		sparse;			/* listed from the few chunks that may match */

	memset(out, 0, sizeof(Operand));
	out->column = sc;

	INSTR_TIME_SET_CURRENT(start);
	nchunks = chunks_if_few(prog, col, &chunks);
	sparse = !item->negated && nchunks >= 0 &&
		(!run->use_gpu || few_enough_for_cpu(nchunks, col)) &&
		sparse_cpu_match(prog, col, chunks, (uint32) nchunks, out, run);
	if (!sparse)
	{
		out->bits = alloc_bitmap(run, col->nrows);
		if (out->bits == NULL)
		{
			free(chunks);
			return false;
		}
		if (!(run->use_gpu && !few_enough_for_cpu(nchunks, col) &&
			  gpu_match(prog, leaf, sc, !item->negated || count != NULL,
						count, item->negated, out, run)) &&
			!cpu_match(prog, sc, out->bits, run))
			exact = false;
	}
	free(chunks);
	run->exact &= exact;

	if (out->counted_on_device)
	{
		/* masked, negated and counted on the device */
		if (out->listed_index != NULL)
		{
			free(out->bits);
			out->bits = NULL;
		}
	}
	else if (out->listed_index != NULL)
	{
		uint64		kept = 0;

		/* a listed leaf is never negated: mask the listed words alone */
		free(out->bits);
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
	return true;
}

/* ------------------------------------------------------ operands */

/* Free what an operand holds, leaving it empty. */
static void
free_operand(Operand *op)
{
	free(op->bits);
	free(op->listed_index);
	free(op->listed_words);
	free(op->tids);
	memset(op, 0, sizeof(Operand));
}

/* A listed operand as a bitmap; false if there is no memory for it. */
static bool
to_bitmap(Operand *op, MatchRun *run)
{
	if (op->listed_index == NULL)
		return true;
	op->bits = run_alloc(run, gl_bitmap_words(op->column->col.nrows) * sizeof(uint64), true);
	if (op->bits == NULL)
		return false;
	for (uint64 i = 0; i < op->nlisted; i++)
		op->bits[op->listed_index[i]] = op->listed_words[i];
	free(op->listed_index);
	free(op->listed_words);
	op->listed_index = NULL;
	op->listed_words = NULL;
	op->nlisted = 0;
	return true;
}

/* The TIDs of a bitmap's or listed operand's rows, in row order (*tids NULL: no memory). */
static uint64
operand_tids(const Operand *op, GlTid **tids, MatchRun *run)
{
	const GlColumn *col = &op->column->col;
	uint64		count = 0;

	if (op->bits != NULL)
	{
		count = gl_bitmap_count(op->bits, gl_bitmap_words(col->nrows));
		*tids = run_alloc(run, count * sizeof(GlTid), false);
		return *tids == NULL ? 0 : gl_bitmap_to_tids(op->bits, col, *tids);
	}
	for (uint64 i = 0; i < op->nlisted; i++)
		count += __builtin_popcountll(op->listed_words[i]);
	*tids = run_alloc(run, count * sizeof(GlTid), false);
	if (*tids == NULL)
		return 0;
	count = 0;
	for (uint64 i = 0; i < op->nlisted; i++)
	{
		for (uint64 word = op->listed_words[i]; word != 0; word &= word - 1)
			(*tids)[count++] = gl_column_tid(col, op->listed_index[i] * UINT64CONST(64) +
											 __builtin_ctzll(word));
	}
	return count;
}

static bool
to_tidset(Operand *op, MatchRun *run)
{
	GlTid	   *tids;
	uint64		count;

	if (op->tids != NULL)
		return true;
	count = operand_tids(op, &tids, run);
	if (tids == NULL)
		return false;
	if (count > 1)
	{
		GlTid	   *scratch = run_alloc(run, GL_TIDS_SORT_SCRATCH(count) * sizeof(GlTid),
										false);

		if (scratch == NULL)
		{
			free(tids);
			return false;
		}
		count = gl_tids_sort_unique(tids, count, scratch);
		free(scratch);
	}
	free_operand(op);
	op->tids = tids;
	op->ntids = count;
	return true;
}

/* Combine n operands into ops[0]; false if there was no memory for it. */
static bool
combine(Operand *ops, int n, GlMatchOp op, MatchRun *run)
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
		{
			if (!to_bitmap(&ops[i], run))
				return false;
		}
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
			free_operand(&ops[i]);
		}
		return true;
	}

	for (i = 0; i < n; i++)
	{
		if (!to_tidset(&ops[i], run))
			return false;
	}
	for (i = 1; i < n; i++)
	{
		if (op == GL_MATCH_AND)
			ops[0].ntids = gl_tids_intersect(ops[0].tids, ops[0].ntids,
											 ops[i].tids, ops[i].ntids,
											 ops[0].tids);
		else
		{
			GlTid	   *merged = run_alloc(run, (ops[0].ntids + ops[i].ntids) * sizeof(GlTid),
										   false);

			if (merged == NULL)
				return false;
			ops[0].ntids = gl_tids_union(ops[0].tids, ops[0].ntids,
										 ops[i].tids, ops[i].ntids, merged);
			free(ops[0].tids);
			ops[0].tids = merged;
		}
		free_operand(&ops[i]);
	}
	return true;
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
 * without the column's complete page index (the store extends it between
 * requests, and may have had no memory for it), or when the operand's few
 * words are listed, it lists everything, which is a correct answer too.
 * A leaf the GPU counted has only the rows left to list, and its count.
 */
static bool
build_answer(Operand *op, const GlVisibleBlocks *visible, bool exact,
			 GlAnswer *answer)
{
	bool		ok;

	if (op->listed_index != NULL)
		ok = gl_answer_from_words(&op->column->col, op->listed_index,
								  op->listed_words, op->nlisted, answer);
	else if (op->bits != NULL)
	{
		const GlColumn *col = &op->column->col;

		if (visible != NULL &&
			(!exact || !gl_column_pages_indexed(col) || op->counted_on_device))
			visible = NULL;
		ok = gl_answer_from_rows(col, op->bits, visible,
								 gl_cpu_engine_threads(), answer);
	}
	else
		ok = gl_answer_from_tids(op->tids, op->ntids, answer);
	if (ok)
		answer->counted += op->counted;
	return ok;
}

/* Is the backend still waiting for this request? */
static inline bool
abandoned(const GlEvaluation *ev)
{
	return ev->cancel != NULL && *ev->cancel != 0;
}

/* gpulike.debug_request_delay: wait, unless the backend leaves first. */
static void
hold_request(const GlEvaluation *ev)
{
	for (int waited = 0; waited < ev->msg->delay_ms && !abandoned(ev); waited += 10)
		pg_usleep(10 * 1000L);
}

bool
gl_evaluate_no_row_can_match(const GlMatchMessage *msg, GlStoredColumn *const *columns)
{
	for (uint32 i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];

		if (item->op != GL_MATCH_LEAF)
			continue;
		if (item->negated ||
			gl_cpu_chunks_to_match((const GlProgram *) ((const char *) msg + item->program_off),
								   &columns[i]->col, 0, NULL) != 0)
			return false;
	}
	return true;
}

void
gl_evaluate_match(GlEvaluation *ev)
{
	const GlMatchMessage *msg = ev->msg;
	Operand    *stack = calloc(msg->nitems, sizeof(Operand));
	int			depth = 0;
	MatchRun	run = {0};
	instr_time	start;
	instr_time	elapsed;

	ev->ok = false;
	ev->started_at = GetCurrentTimestamp();
	run.ev = ev;
	run.exact = true;
	run.use_gpu = ev->use_gpu;
	run.fail_gpu_part = msg->fail_gpu_part;
	run.out_of_memory = stack == NULL;
	hold_request(ev);

	for (uint32 i = 0; i < msg->nitems && !run.out_of_memory && !abandoned(ev); i++)
	{
		const GlMatchItem *item = &msg->items[i];

		if (item->op == GL_MATCH_LEAF)
		{
			if (!eval_leaf(msg, i, ev->columns[i], &stack[depth++], &run))
				break;
		}
		else
		{
			if (!combine(&stack[depth - item->noperands], item->noperands, item->op, &run))
				break;
			depth -= item->noperands - 1;
		}
	}

	if (abandoned(ev))
		strlcpy(ev->why, "the backend left", sizeof(ev->why));
	else if (run.out_of_memory)
		strlcpy(ev->why, "gpulike server: out of memory evaluating a request",
				sizeof(ev->why));
	else
	{
		INSTR_TIME_SET_CURRENT(start);
		if (!build_answer(&stack[0], ev->visible, run.exact, &ev->answer))
			strlcpy(ev->why, "gpulike server: out of memory building an answer",
					sizeof(ev->why));
		else
			ev->ok = true;
		INSTR_TIME_SET_CURRENT(elapsed);
		INSTR_TIME_SUBTRACT(elapsed, start);
	}

	for (int i = 0; stack != NULL && i < depth; i++)
		free_operand(&stack[i]);
	free(stack);
	if (!ev->ok)
		return;

	ev->result.answer_bytes = ev->answer.nbytes;
	ev->result.npages = ev->answer.npages;
	ev->result.ncandidates = ev->answer.ncandidates;
	ev->result.counted = ev->answer.counted;
	ev->result.exact = run.exact;
	ev->result.fell_back = run.fell_back;
	ev->result.engine_ms = run.engine_ms;
	ev->result.kernel_ms = run.kernel_ms;
	ev->result.answer_ms = INSTR_TIME_GET_MILLISEC(elapsed);
	describe_engine(&run, &ev->result);
}
