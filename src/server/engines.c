/*-------------------------------------------------------------------------
 *
 * engines.c
 *	  Engine choice and MATCH evaluation in the gpulike server.
 *
 * Engine choice.  The server probes for CUDA devices itself at start (a
 * CUDA context cannot be inherited across fork, so never the postmaster),
 * unless gpulike.device = cpu, which never touches CUDA.  A request runs its
 * leaves on the GPU when a device is ready, the backend did not ask for the
 * CPU, and the column has (or can get, within the device budget) a device
 * copy; any CUDA failure reruns that leaf on the CPU engine, logged, and
 * the answer says it fell back.  The CPU engine splits each column over
 * gpulike.cpu_threads threads (0: one per core).
 *
 * Evaluation.  A request is a postfix expression (client.h).  Each leaf
 * becomes a bitmap over the rows of its column that can be candidates at
 * all (not NULL, not superseded: column.h); a negated leaf is "such a row,
 * not matching" when its program is exact, and every such row when the
 * program is only a superset (negating a superset could lose rows).  AND /
 * OR of operands over the same column are word-wise bitmap operations;
 * operands over different columns are first turned into sorted TID sets,
 * because row positions of two columns do not correspond (tidset.h).  The
 * final operand becomes the answer: candidates grouped by heap page
 * (column/candidates.h), built on the CPU engine's threads.  The answer is
 * exact when every leaf was: then a candidate's latest cached value
 * satisfies the request, and the executor may skip its recheck.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "portability/instr_time.h"
#include "utils/memutils.h"

#include "cache/stats.h"
#include "engine/engine.h"
#include "gpulike.h"
#include "server/engines.h"
#include "server/store.h"
#include "server/tidset.h"
#ifdef GPULIKE_HAVE_CUDA
#include "gpulike_cuda.h"
#endif

static bool gpu_ready = false;

#ifdef GPULIKE_HAVE_CUDA
static GlCudaDeviceInfo device_info;	/* device 0 */
static int	device_count = 0;	/* used by the server: at most GL_MAX_GPUS */
static uint64 devices_memory = 0;	/* their total memory */
#endif

/* One operand on the evaluation stack: a row bitmap or a TID set. */
typedef struct Operand
{
	GlStoredColumn *column;		/* bitmap: the column its rows belong to */
	uint64	   *bits;			/* NULL once turned into a TID set */
	GlTid	   *tids;
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
	bool		fell_back;
	int			gpus;			/* most GPUs one leaf's column was on */
	char		gpu_failure[160];	/* why, when fell_back */
	int			fail_gpu_part;	/* gpulike.debug_gpu_fail_part of the backend */
} MatchRun;

void
gl_engines_start(void)
{
#ifdef GPULIKE_HAVE_CUDA
	char		err[256];

	if (gl_device_choice == GL_DEVICE_CPU)
	{
		ereport(LOG, (errmsg("gpulike server: gpulike.device = cpu, using the CPU engine")));
		return;
	}
	if (gl_cuda_probe(&device_info, err, sizeof(err)) && device_info.device_count > 0)
	{
		device_count = Min(device_info.device_count, GL_MAX_GPUS);
		for (int d = 0; d < device_count; d++)
		{
			GlCudaDeviceMemory memory;

			if (!gl_cuda_device_memory(d, &memory, err, sizeof(err)))
			{
				device_count = d;
				break;
			}
			devices_memory += memory.total_memory;
		}
	}
	if (device_count > 0)
	{
		gpu_ready = true;
		ereport(LOG,
				(errmsg("gpulike server: using %d GPU(s), the first \"%s\" (%zu MB)",
						device_count, device_info.name, device_info.total_memory >> 20)));
		return;
	}
	ereport(gl_device_choice == GL_DEVICE_GPU ? WARNING : LOG,
			(errmsg("gpulike server: no usable GPU, using the CPU engine"),
			 errdetail("%s", err)));
#else
	if (gl_device_choice == GL_DEVICE_GPU)
		ereport(WARNING,
				(errmsg("gpulike server: gpulike.device = gpu, but gpulike was built without CUDA; using the CPU engine")));
#endif
}

bool
gl_engines_gpu_ready(void)
{
	return gpu_ready;
}

int
gl_engines_device_count(void)
{
#ifdef GPULIKE_HAVE_CUDA
	return device_count;
#else
	return 0;
#endif
}

int
gl_engines_cpu_threads(void)
{
	long		cores;

	if (gl_cpu_threads > 0)
		return gl_cpu_threads;
	cores = sysconf(_SC_NPROCESSORS_ONLN);
	return cores > 0 ? (int) cores : 1;
}

uint64
gl_engines_device_budget(void)
{
#ifdef GPULIKE_HAVE_CUDA
	if (gl_gpu_memory_mb > 0)
		return (uint64) gl_gpu_memory_mb * 1024 * 1024;
	return (uint64) (devices_memory * 0.8);
#else
	return 0;
#endif
}

void
gl_engines_describe(GlStatusInfo *info)
{
	strlcpy(info->engine, gpu_ready ? "cuda" : "cpu", sizeof(info->engine));
	info->cpu_threads = gl_engines_cpu_threads();
	info->has_device = false;
	info->ndevices = 0;
#ifdef GPULIKE_HAVE_CUDA
	if (gpu_ready)
	{
		uint64		held[GL_MAX_GPUS];

		info->has_device = true;
		strlcpy(info->device_name, device_info.name, sizeof(info->device_name));
		gl_store_bytes_per_device(held, device_count);
		for (int d = 0; d < device_count; d++)
		{
			GlDeviceStatus *dev = &info->devices[d];
			GlCudaDeviceMemory memory;
			char		err[256];

			/* Free memory changes; ask again (cheap next to a request). */
			if (gl_cuda_device_memory(d, &memory, err, sizeof(err)))
			{
				strlcpy(dev->name, memory.name, sizeof(dev->name));
				dev->total_bytes = memory.total_memory;
				dev->free_bytes = memory.free_memory;
			}
			dev->cache_bytes = held[d];
			info->device_total_bytes += dev->total_bytes;
			info->device_free_bytes += dev->free_bytes;
		}
		info->ndevices = device_count;
	}
#endif
}

/* ---------------------------------------------------------- leaves */

static uint64 *
alloc_bitmap(uint64 nrows)
{
	return MemoryContextAllocHuge(CurrentMemoryContext,
								  Max(gl_bitmap_words(nrows), 1) * sizeof(uint64));
}

/* Clear the bits past the last row: gl_bitmap_to_tids reads a TID per bit. */
static void
clear_tail(uint64 *bits, uint64 nrows)
{
	if (nrows % 64 != 0)
		bits[gl_bitmap_words(nrows) - 1] &= (UINT64CONST(1) << (nrows % 64)) - 1;
}

/* Every row that can be a candidate (gl_column_answerable_word). */
static void
set_answerable(uint64 *bits, const GlColumn *col)
{
	uint64		w;

	for (w = 0; w < gl_bitmap_words(col->nrows); w++)
		bits[w] = gl_column_answerable_word(col, w);
	clear_tail(bits, col->nrows);
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
	if (gl_cpu_match_column(prog, &sc->col, bits, gl_engines_cpu_threads()) ||
		gl_cpu_match_column(prog, &sc->col, bits, 1))
		return true;
	elog(LOG, "gpulike: CPU engine could not run a program; all rows are candidates");
	set_answerable(bits, &sc->col);
	return false;
}

/* Try the GPU; false (logged) when the CPU engine must answer instead. */
static bool
gpu_match(const GlProgram *prog, GlStoredColumn *sc, uint64 *bits, MatchRun *run)
{
#ifdef GPULIKE_HAVE_CUDA
	char		err[256];
	double		kernel_ms = 0;

	if (!gl_store_ensure_device(sc))
		return false;
	if (gl_cuda_match(sc->device, prog, run->fail_gpu_part, bits, &kernel_ms,
					  err, sizeof(err)))
	{
		run->used_gpu = true;
		run->engine_ms += kernel_ms;
		run->gpus = Max(run->gpus, gl_store_gpus_of(sc));
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

static bool
program_valid(const GlMatchMessage *msg, Size len, const GlMatchItem *item)
{
	const GlProgram *prog;

	if (item->program_off % 8 != 0 || item->program_size < sizeof(GlProgram) ||
		item->program_off > len || len - item->program_off < item->program_size)
		return false;
	prog = (const GlProgram *) ((const char *) msg + item->program_off);
	return prog->magic == GL_PROGRAM_MAGIC &&
		prog->total_size == item->program_size &&
		prog->kind >= GL_PROG_LIKE && prog->kind <= GL_PROG_DFA;
}

static void
eval_leaf(const GlMatchMessage *msg, const GlMatchItem *item,
		  GlStoredColumn *sc, Operand *out, MatchRun *run)
{
	const GlProgram *prog = (const GlProgram *) ((const char *) msg + item->program_off);
	const GlColumn *col = &sc->col;
	uint64		nrows = col->nrows;
	uint64		nwords = gl_bitmap_words(nrows);
	uint64	   *bits = alloc_bitmap(nrows);
	instr_time	start;
	instr_time	elapsed;
	uint64		w;
	bool		exact = prog->exact;

	if (!(run->use_gpu && gpu_match(prog, sc, bits, run)))
	{
		INSTR_TIME_SET_CURRENT(start);
		if (!cpu_match(prog, sc, bits, run))
			exact = false;
		INSTR_TIME_SET_CURRENT(elapsed);
		INSTR_TIME_SUBTRACT(elapsed, start);
		run->engine_ms += INSTR_TIME_GET_MILLISEC(elapsed);
	}
	run->exact &= exact;

	/*
	 * The engines know NULLs but not superseded rows (a device copy is not
	 * told when a row is superseded): mask both here.
	 */
	if (item->negated && !exact)
		set_answerable(bits, col);	/* negating a superset could lose rows */
	else if (item->negated)
	{
		for (w = 0; w < nwords; w++)
			bits[w] = ~bits[w] & gl_column_answerable_word(col, w);
	}
	else
	{
		for (w = 0; w < nwords; w++)
			bits[w] &= gl_column_answerable_word(col, w);
	}
	/* whatever an engine left past the last row must not become a TID */
	clear_tail(bits, nrows);
	out->column = sc;
	out->bits = bits;
	out->tids = NULL;
	out->ntids = 0;
}

/* ------------------------------------------------------ operands */

static uint64
bitmap_count(const uint64 *bits, uint64 nrows)
{
	uint64		n = 0;
	uint64		w;

	for (w = 0; w < gl_bitmap_words(nrows); w++)
		n += __builtin_popcountll(bits[w]);
	return n;
}

static void
to_tidset(Operand *op)
{
	uint64		nrows;
	uint64		count;
	GlTid	   *tids;

	if (op->bits == NULL)
		return;
	nrows = op->column->col.nrows;
	count = bitmap_count(op->bits, nrows);
	tids = MemoryContextAllocHuge(CurrentMemoryContext,
								  Max(count, 1) * sizeof(GlTid));
	count = gl_bitmap_to_tids(op->bits, nrows, op->column->col.tids, tids);
	if (count > 1)
	{
		GlTid	   *scratch = MemoryContextAllocHuge(CurrentMemoryContext,
													 GL_TIDS_SORT_SCRATCH(count) * sizeof(GlTid));

		count = gl_tids_sort_unique(tids, count, scratch);
		pfree(scratch);
	}
	pfree(op->bits);
	op->bits = NULL;
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
		if (ops[i].bits == NULL || ops[i].column != ops[0].column)
			same_column = false;
	}

	if (same_column)
	{
		uint64		nwords = gl_bitmap_words(ops[0].column->col.nrows);

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
					 run->gpus, device_info.name);
		else
			snprintf(result->engine, sizeof(result->engine), "cuda (%s)",
					 device_info.name);
		return;
	}
#endif
	snprintf(result->engine, sizeof(result->engine), "cpu (%d threads)",
			 gl_engines_cpu_threads());
}

/*
 * The final operand as page records.  A counting request's exact answer
 * over one column counts what it can instead of listing it (candidates.h);
 * without the column's page index (no memory for it), it lists everything,
 * which is a correct answer too.
 */
static bool
build_answer(Operand *op, const GlVisibleBlocks *visible, bool exact,
			 GlAnswer *answer)
{
	if (op->bits != NULL)
	{
		GlColumn   *col = &op->column->col;

		if (visible != NULL && (!exact || !gl_column_index_pages(col)))
			visible = NULL;
		return gl_answer_from_rows(col, op->bits, visible,
								   gl_engines_cpu_threads(), answer);
	}
	return gl_answer_from_tids(op->tids, op->ntids, answer);
}

/* A counting request's all-visible blocks, if it is one and well formed. */
static bool
visible_blocks_of(const GlMatchMessage *msg, Size len, GlVisibleBlocks *visible)
{
	Size		bytes = gl_bitmap_words(msg->visible_blocks) * sizeof(uint64);

	visible->bits = NULL;
	visible->nblocks = 0;
	if (msg->visible_blocks == 0)
		return true;
	if (msg->visible_off % sizeof(uint64) != 0 || msg->visible_off > len ||
		len - msg->visible_off < bytes)
		return false;
	visible->bits = (const uint64 *) ((const char *) msg + msg->visible_off);
	visible->nblocks = msg->visible_blocks;
	return true;
}

bool
gl_engines_run_match(const GlMatchMessage *msg, Size len, GlAnswer *answer,
					 GlMatchResult *result, char *why, size_t whylen)
{
	Operand    *stack;
	int			depth = 0;
	uint32		i;
	MatchRun	run = {0};
	GlVisibleBlocks visible;
	instr_time	start;
	instr_time	elapsed;

	run.exact = true;

	if (len < offsetof(GlMatchMessage, items) || msg->nitems == 0 ||
		msg->nitems > (len - offsetof(GlMatchMessage, items)) / sizeof(GlMatchItem) ||
		!visible_blocks_of(msg, len, &visible))
	{
		snprintf(why, whylen, "malformed gpulike request");
		return false;
	}
	run.use_gpu = gpu_ready && msg->device_choice != GL_DEVICE_CPU;
	run.fail_gpu_part = msg->fail_gpu_part;
	stack = palloc(msg->nitems * sizeof(Operand));

	for (i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];

		if (item->op == GL_MATCH_LEAF)
		{
			GlStoredColumn *sc = gl_store_lookup(item->slot, item->generation);

			if (!program_valid(msg, len, item))
			{
				snprintf(why, whylen, "malformed gpulike request");
				return false;
			}
			if (sc == NULL)
			{
				snprintf(why, whylen,
						 "the gpulike server does not hold generation %llu of cache slot %d",
						 (unsigned long long) item->generation, item->slot);
				return false;
			}
			eval_leaf(msg, item, sc, &stack[depth++], &run);
		}
		else if ((item->op == GL_MATCH_AND || item->op == GL_MATCH_OR) &&
				 item->noperands >= 1 && item->noperands <= (uint32) depth)
		{
			combine(&stack[depth - item->noperands], item->noperands, item->op);
			depth -= item->noperands - 1;
		}
		else
		{
			snprintf(why, whylen, "malformed gpulike request");
			return false;
		}
	}
	if (depth != 1)
	{
		snprintf(why, whylen, "malformed gpulike request");
		return false;
	}

	INSTR_TIME_SET_CURRENT(start);
	if (!build_answer(&stack[0], visible.bits != NULL ? &visible : NULL,
					  run.exact, answer))
	{
		snprintf(why, whylen, "gpulike server: out of memory building an answer");
		return false;
	}
	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);

	/* Count each column used once, in its registry entry. */
	for (i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];
		uint32		j;
		bool		seen = false;

		if (item->op != GL_MATCH_LEAF)
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = msg->items[j].op == GL_MATCH_LEAF && msg->items[j].slot == item->slot;
		if (seen)
			continue;
		gl_store_note_query(gl_store_lookup(item->slot, item->generation));
		gl_stats_count_request(item->slot, item->generation,
							   answer->ncandidates + answer->counted,
							   run.engine_ms, run.fell_back ? run.gpu_failure : NULL);
	}

	result->answer_bytes = answer->nbytes;
	result->npages = answer->npages;
	result->ncandidates = answer->ncandidates;
	result->counted = answer->counted;
	result->exact = run.exact;
	result->fell_back = run.fell_back;
	result->engine_ms = run.engine_ms;
	result->answer_ms = INSTR_TIME_GET_MILLISEC(elapsed);
	describe_engine(&run, result);
	return true;
}
