/*-------------------------------------------------------------------------
 *
 * kernels_stream.cu
 *	  The stream kernel: the byte DFA of a program (kernel_prep/byte_dfa.h) over the
 *	  whole column, exact, in one pass.
 *
 * A thread steps four (eight, for the wide table) consecutive 256-byte
 * chunks, read through the coalescing stage (cp.async into shared
 * memory) and stepped with one shared-memory table load per byte
 * (chunk_scan.cuh).  There are no per-row branches: the separator is one
 * more transition, and a row's answer appears as a flag on it.  So all
 * 32 lanes of a warp do the same work whatever the row lengths -- the
 * reason the per-row kernels (kernels_rows.cu) ran with most lanes idle.
 *
 * Each row is decided by the thread whose chunks hold its first byte:
 *	- a thread whose first chunk opens inside a row (its index entry has
 *	  back != 0) starts in the SKIP state, which ignores bytes up to the
 *	  next separator and then enters START: that row belongs to an
 *	  earlier thread;
 *	- a row still open at the end of its last chunk (state not SKIP, last
 *	  byte not a separator) is followed past the end to its separator:
 *	  through the next chunk's first 64 bytes, which the stage copied
 *	  while the last slice was stepped, then 32 bytes at a time from the
 *	  column; a row longer than that costs its owner alone the walk.
 * Flags become result bits by gl_resolve_warp_hits(), chunk by chunk;
 * the tail row is the row of the next chunk's first byte.
 * The zero bytes after the last row look like empty rows: their bits
 * would be past nrows and are dropped.
 *
 * Blocks stay resident, so the table is copied into shared memory once
 * per block, and their warps take the column's chunks from a counter, a
 * ticket at a time, so that they finish together (stream_kernel()).
 *
 * Four forms of the table, one kernel template:
 *	compact	(automata of up to 127 states) one byte per entry, the entry
 *			being the next state's value: the next address is the entry
 *			with the text byte put below it by one byte permute (PRMT)
 *			and its row moved across the banks by a three-input logical
 *			operation, so a byte costs three instructions: permute,
 *			logical operation, one-byte shared-memory load.  Its flag
 *			sticks to the states after it and is looked at once per 16
 *			bytes (CompactAutomaton below);
 *	wide	(automata of 128 to 255 states, or where the compact table
 *			is refused) two bytes per entry, addressed as the compact
 *			table is, the flag recorded byte by byte: permute, logical
 *			operation, two-byte load, funnel shift;
 *	classed	(Aho–Corasick automata past the compact table, kernel_prep/classed_table.h)
 *			two-byte entries over the program's byte classes: the class's
 *			load, an add, the entry's load and an integer max.
 *			It decides rows, where the skim reported every literal, and
 *			wins where many rows match (kernel_bench's "AC 200");
 *	windowed (the same automata, where their literals keep to letters or
 *			to printable ASCII) the classed table with a column for each
 *			byte of a 64- or 96-byte window instead of the classes, the
 *			column computed: an XOR, a permute, a min, the entry's load
 *			(one IMAD addresses it) and an integer max that keeps the
 *			largest entry (a matching row's separator leads to the root's
 *			twin, the largest state: kernel_prep/classed_table.h).  One shared load a
 *			byte instead of two (kernel_bench's "AC 200").
 *
 * Where the time goes (kernel_bench's '%special%requests%', variants that
 * leave a part out, and Nsight Compute): the copies and the table loads
 * share the load/store pipe, and the stepping is a chain of dependent
 * table loads that only other warps can hide.  Following the open row at
 * the end of each thread's chunks costs most where many rows match (the
 * warp follows until its longest rest of a row ends; finish_open_row()).
 *
 * Figures for the choices in this file, and variants not kept:
 * test/bench/results/h200-kernels/README.md and h100-kernels/README.md,
 * "Kernel design measurements".
 *
 *-------------------------------------------------------------------------
 */
#include <utility>

#include "kernels.h"
#include "cuda_check.h"
#include "stream_automata.cuh"

/*
 * A launch's shape: threads a block, and each warp's stage -- one line
 * buffer (kernels_common.cuh: its copies take half the shared-memory
 * wavefronts of slices'), or slice buffers: three, so the next two
 * slices' copies are in flight while one is stepped; two, the next one's;
 * or one, where that lets the SM hold more warps.  At 64 registers an SM
 * holds 32 warps at most; what keeps it from them is the shared memory
 * each block takes, its own copy of the table beside its warps' stages.
 * Bigger blocks share one table among more warps, so a large table takes
 * the bigger block: the launch takes, of the shapes below, the one with
 * the most resident warps, and of those the first (the line buffer
 * first, but for the classed tables, which keep to slices:
 * ClassedEntries::line_stage; then more slice buffers before fewer: where
 * both give as many warps, two win over one, and three over two; then
 * the smaller block).
 *
 * So the line buffer, 4 kB a warp, serves tables under about 25 kB
 * (256-thread blocks) or 99 kB (1024): the compact tables, and with them
 * most LIKE patterns, regexes and literal sets to about 150 states.
 * Three slice buffers serve 512-thread blocks where the table is under
 * about 17 kB; 200 literals' windowed table (154 kB) leaves room for 8
 * warps, with slices.  Each rule won where it applies (kernel_bench and
 * Nsight Compute: test/bench/results/h200-kernels/README.md, "Kernel
 * design measurements", kernels_stream.cu; other shapes under "variants
 * not kept").
 *
 * The shape is chosen once, when a program's table is copied to a part
 * (gl_stream_shape(), kept beside the part's resident program), not at
 * every launch.
 */
struct StreamShape
{
	uint32_t	block;
	uint32_t	buffers;		/* slice buffers; 0: the line buffer */
};

static constexpr StreamShape stream_shapes[] = {
	{256, 0}, {1024, 0},
	{512, 3}, {256, 2}, {512, 2}, {1024, 2}, {256, 1}, {512, 1}, {1024, 1}
};

static constexpr size_t STREAM_SHAPES = sizeof(stream_shapes) / sizeof(stream_shapes[0]);

/* 64 registers a thread: 65536 of them fill an SM with 1024 threads */
static const uint32_t STREAM_THREADS_PER_SM = 1024;

__host__ __device__ constexpr uint32_t
stage_bytes(const StreamShape &shape)
{
	return (shape.block / 32) *
		(shape.buffers == 0 ? GL_LINE_BUFFER_BYTES : shape.buffers * GL_SLICE_BUFFER_BYTES);
}

/*
 * The smallest stage of any shape: the room a table has is what it leaves,
 * which the preparation reckons with (kernel_prep/stream_table.h).
 */
static_assert(stage_bytes(StreamShape{256, 1}) == GL_STREAM_SMALLEST_STAGE_BYTES,
			  "the preparation knows the stream kernel's smallest stage");

/*
 * The stage begins at the first 128-byte line after the table: one off a
 * line (200 literals' windowed table left it 96 bytes past one) made a
 * copy instruction take half again as many shared-memory wavefronts
 * (Nsight Compute).
 */
__host__ __device__ constexpr uint32_t
stage_offset(uint32_t table_bytes)
{
	return (table_bytes + GL_STREAM_STAGE_ALIGN - 1) / GL_STREAM_STAGE_ALIGN *
		GL_STREAM_STAGE_ALIGN;
}

/*
 * Step the 16 bytes of word up to the first separator, if any: true, and
 * whether the row that ends there matches in *matches; else false, state
 * stepped past them all.
 */
template <class A>
__device__ __forceinline__ bool
step_to_separator(const A &a, uint32_t &state, const uint4 &word, bool *matches)
{
	uint32_t	parts[4] = {word.x, word.y, word.z, word.w};

#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int k = 0; k < 4; k++)
		{
			uint32_t	b = gl_byte_in(parts[i], k);
			uint32_t	e = a.entry(state, b);

			if (b == 0)
			{
				*matches = a.flagged(e);
				return true;
			}
			state = a.next(e);
		}
	return false;
}

/*
 * The row open, in state, at the end of a thread's last chunk runs on
 * into chunk `next`: follow it to its separator, first through next's
 * first slice, or line (Line), which the stage holds (staged:
 * gl_scan_chunk()'s stage_next), then 32 bytes at a time from the column (two loads at
 * once), and set its bit if it matches: its row is the one the next
 * chunk starts in.  The warp waits for its lane with the longest rest
 * of a row, and most rests end within 64 bytes: hence the copy into the
 * stage, a coalesced 2 kB a warp beside the last slice's steps
 * (kernel_bench).  Whether a row is open at all the caller knows from the
 * chunk's last byte, still in registers, and the row's number is loaded
 * only for a matching row.  Other ways to follow the row were slower
 * (test/bench/results/h200-kernels/README.md, variants not kept).
 */
template <bool Line, class A>
__device__ static __noinline__ void
finish_open_row(const A &a, uint32_t state, const uint4 *staged,
				const uint8_t *__restrict__ data, const GlChunkIndex *__restrict__ chunks,
				uint64_t next, uint32_t nrows, uint32_t *result)
{
	constexpr uint32_t StagedBytes = Line ? GL_LINE_BYTES : GL_SLICE_BYTES;
	const uint8_t *from = data + next * GL_DEV_CHUNK_BYTES + StagedBytes;
	uint32_t	lane = threadIdx.x % 32;
	bool		matches = false;
	bool		ended = false;

	for (uint32_t j = 0; j < StagedBytes / 16 && !ended; j++)
		ended = step_to_separator(a, state,
								  staged[Line ? gl_line_slot(lane, j) : gl_stage_slot(lane, j)],
								  &matches);
	for (; !ended; from += 32)
	{
		uint4		first = gl_load16(from);
		uint4		second = gl_load16(from + 16);

		ended = step_to_separator(a, state, first, &matches) ||
			step_to_separator(a, state, second, &matches);
	}
	if (matches)
		gl_set_row(result, chunks[next].row, nrows);
	if constexpr (A::takes_candidates)
	{
		/* its separator came in the candidate (step_to_separator() stops before it) */
		if (state == a.candidate)
			a.list_open_row(next, chunks);
	}
}

/*
 * One thread's group of consecutive chunks, from first (the lanes of a
 * warp own consecutive groups, lane L's from first - L * group), chunk c
 * of every lane's group stepped at once, through a stage of Buffers slice
 * buffers, or the line buffer (Buffers 0).  Keep an eye on the table loads
 * in the SASS: LDS.U8 [R+UR], the table's address in a uniform register
 * (variants that carried more across the loop lost it: README, variants
 * not kept).
 */
template <uint32_t Buffers, class A>
__device__ __forceinline__ static void
stream_group(const A &a, const uint8_t *__restrict__ data, uint64_t first, uint32_t group,
			 uint64_t nchunks, const GlChunkIndex *__restrict__ chunks, uint32_t nrows,
			 uint4 *warp_stage, uint32_t *result)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	state = a.start;

	if (first < nchunks && chunks[first].back != 0)
		state = a.skip;
#pragma unroll 1
	for (uint32_t c = 0; c < group; c++)
	{
		uint64_t	chunk = first + c;
		uint32_t	records[GL_HIT_WORDS];
		uint32_t	last_bytes;
		bool		inside;

		if constexpr (Buffers == 0)
			state = gl_scan_chunk_lines(a, state, data, chunk - lane * group, group, nchunks,
										warp_stage, records, &last_bytes, c + 1 == group);
		else
			state = gl_scan_chunk<Buffers>(a, state, data, chunk - lane * group, group, nchunks,
										   warp_stage, records, &last_bytes, c + 1 == group);
		inside = chunk < nchunks;
		/*
		 * The row open at the end of this thread's chunks, if its last
		 * byte is not a separator.  (The column's last chunk ends with a
		 * zero byte, the last separator or the zero tail, so no row is
		 * open there.)
		 */
		if (c + 1 == group)
		{
			gl_stage_wait_all();
			if (inside && state != a.skip && (last_bytes >> 24) != 0)
			{
				if constexpr (Buffers == 0)
					finish_open_row<true>(a, state, warp_stage, data, chunks, chunk + 1, nrows,
										  result);
				else
					finish_open_row<false>(a, state,
										   gl_stage_buffer(warp_stage,
														   gl_next_slice_buffer(Buffers)),
										   data, chunks, chunk + 1, nrows, result);
			}
			__syncwarp();		/* the resolve's list may take that buffer */
		}
		if constexpr (A::takes_candidates)
		{
			if (inside)
				a.take_candidates(records, chunk, nchunks, chunks);
		}
		if (__any_sync(0xFFFFFFFF, inside && gl_any_hit(a, records)))
			gl_resolve_warp_hits(a, data, chunk, inside, records, chunks, nchunks, nrows,
								 result, reinterpret_cast<GlHitWord *>(warp_stage));
	}
}

/*
 * Each warp takes the column's chunks a ticket at a time, from a counter
 * the launch zeroes: ticket t is 32 groups of A::chunks_per_thread
 * chunks, one group a lane, while more than TAIL_CHUNKS_PER_WARP chunks a
 * resident warp are left, and then 32 single chunks.  A warp that is
 * ahead takes more, so the warps finish together (fixed rounds were
 * slower: README, variants not kept).
 */
static const uint32_t TAIL_CHUNKS_PER_WARP = 2 * 32;

template <class A, size_t S>
__global__ static void
__launch_bounds__(stream_shapes[S].block, STREAM_THREADS_PER_SM / stream_shapes[S].block)
stream_kernel(const uint8_t *__restrict__ data, uint64_t nchunks,
			  const GlChunkIndex *__restrict__ chunks, uint32_t nrows,
			  const uint4 *__restrict__ table, uint32_t table_bytes, A a, uint32_t *tickets,
			  uint32_t *result)
{
	constexpr uint32_t Buffers = stream_shapes[S].buffers;
	constexpr uint32_t TicketChunks = 32 * A::chunks_per_thread;
	uint32_t	lane = threadIdx.x % 32;
	uint64_t	tail = (uint64_t) gridDim.x * (blockDim.x / 32) * TAIL_CHUNKS_PER_WARP;
	uint64_t	whole_tickets = nchunks > tail ? (nchunks - tail) / TicketChunks : 0;
	uint4	   *stages = stream_shared + stage_offset(table_bytes) / 16;
	uint4	   *warp_stage = Buffers == 0 ? gl_warp_line_stage(stages) :
		gl_warp_stage(stages, Buffers);

	/*
	 * A walk that a kernel before it may leave no ticket (the set sieve's
	 * on a table past the compact one, the replaced table's after a
	 * factored walk) ends before it copies its table, 48 kB into every
	 * block for 200 literals.  Not in the compact forms, which are never
	 * so launched: there the look cost throughput (kernel_bench's "AC 20",
	 * "rows pass").
	 */
	if constexpr (A::may_walk_nothing)
	{
		if (__syncthreads_or(threadIdx.x == 0 && *tickets >= GL_STREAM_NO_TICKETS))
			return;
	}
	for (uint32_t i = threadIdx.x; i < table_bytes / 16; i += blockDim.x)
		stream_shared[i] = __ldg(&table[i]);
	__syncthreads();

	for (;;)
	{
		uint32_t	ticket = 0;
		uint64_t	first;
		uint32_t	group;

		if (lane == 0)
			ticket = atomicAdd(tickets, 1);
		ticket = __shfl_sync(0xFFFFFFFF, ticket, 0);
		if (ticket < whole_tickets)
		{
			first = ticket * (uint64_t) TicketChunks;
			group = A::chunks_per_thread;
		}
		else
		{
			first = whole_tickets * TicketChunks + (ticket - whole_tickets) * (uint64_t) 32;
			group = 1;
		}
		if (first >= nchunks)
			break;
		stream_group<Buffers>(a, data, first + lane * group, group, nchunks, chunks, nrows,
							  warp_stage, result);
	}
}

/* Whether automaton A runs in shape S (A::line_stage: the line buffer's shapes too). */
template <class A, size_t S>
constexpr bool runs_in = stream_shapes[S].buffers != 0 || A::line_stage;

/* The kernel of A in shape S, or NULL where A does not run in it (never built). */
template <class A, size_t S>
static const void *
shape_kernel(void)
{
	if constexpr (runs_in<A, S>)
		return (const void *) stream_kernel<A, S>;
	else
		return NULL;
}

template <class A, size_t S>
static bool
launch_shaped(const GlLaunch *l, const A &a, const GlStreamTable *table, uint32_t *tickets,
			  uint32_t *result)
{
	if constexpr (!runs_in<A, S>)
		return gl_cuda_fail("the stream kernel's table form has no such shape", l->errbuf,
							l->errlen);
	else
	{
		constexpr uint32_t Block = stream_shapes[S].block;
		const GlDeviceColumn *dcol = l->dcol;
		uint32_t	shared = stage_offset(table->bytes) + stage_bytes(stream_shapes[S]);
		uint64_t	threads = (dcol->nchunks + A::chunks_per_thread - 1) / A::chunks_per_thread;
		unsigned	grid;

		if (!gl_resident_grid(shape_kernel<A, S>(), Block, shared, threads, l, &grid))
			return false;
		stream_kernel<A, S><<<grid, Block, shared, l->stream>>>
			(dcol->data, dcol->nchunks, dcol->chunks, (uint32_t) dcol->nrows,
			 (const uint4 *) table->table, table->bytes, a, tickets, result);
		return gl_cuda_ok(cudaGetLastError(), "launching the stream kernel", l->errbuf,
						  l->errlen);
	}
}

/*
 * The shape of the most resident warps for this table, the first of
 * equals; I... indexes stream_shapes, whose kernels these are.
 */
template <class A, size_t... I>
static bool
choose_shape(const GlLaunch *l, const GlStreamTable *table, int *best,
			 std::index_sequence<I...>)
{
	const void *kernel[] = {
		shape_kernel<A, I>()...
	};
	int			best_warps = 0;

	*best = -1;
	for (size_t i = 0; i < sizeof...(I); i++)
	{
		const StreamShape *shape = &stream_shapes[i];
		uint32_t	shared = stage_offset(table->bytes) + stage_bytes(*shape);
		int			blocks;

		if (kernel[i] == NULL || shared > l->shared_limit)
			continue;
		if (!gl_blocks_per_sm(kernel[i], (int) shape->block, shared, l, &blocks))
			return false;
		if (blocks * (int) (shape->block / 32) > best_warps)
		{
			*best = (int) i;
			best_warps = blocks * (int) (shape->block / 32);
		}
	}
	if (*best < 0)
		return gl_cuda_fail("the stream kernel's table does not fit the device's shared memory",
							l->errbuf, l->errlen);
	return true;
}

/* The table's automaton launched in table->shape. */
template <class A, size_t... I>
static bool
launch_in_shape(const GlLaunch *l, const A &a, const GlStreamTable *table, uint32_t *tickets,
				uint32_t *result, std::index_sequence<I...>)
{
	typedef bool (*Launcher) (const GlLaunch *, const A &, const GlStreamTable *, uint32_t *,
							  uint32_t *);
	const Launcher launch[] = {
		launch_shaped<A, I>...
	};

	if (table->shape < 0 || table->shape >= (int) sizeof...(I))
		return gl_cuda_fail("stream kernel shape out of range", l->errbuf, l->errlen);
	return launch[table->shape](l, a, table, tickets, result);
}

/* f(a) for the automaton of table's form. */
template <class F>
static bool
with_automaton(const GlStreamTable *table, F f)
{
	switch (table->form)
	{
		case GL_STREAM_COMPACT:
			return f(CompactAutomaton());
		case GL_STREAM_FACTORED:
			return f(FactoredAutomaton{{}, table->candidate, table->candidate_list,
									   table->candidate_count, table->candidate_capacity, NULL,
									   table->replaced_tickets});
		case GL_STREAM_WIDE:
			return f(WideAutomaton());
		case GL_STREAM_WINDOWED:
			return f(WindowedAutomaton{{table->classed_skip, table->classed_twin},
									   table->window_flip});
		case GL_STREAM_CLASSED:
			break;
	}
	return f(ClassedAutomaton{{table->classed_skip, table->classed_twin}});
}

bool
gl_stream_shape(const GlLaunch *l, const GlStreamTable *table, int *shape)
{
	return with_automaton(table, [&](auto a) {
		return choose_shape<decltype(a)>(l, table, shape,
										 std::make_index_sequence<STREAM_SHAPES>());
	});
}

bool
gl_launch_stream(const GlLaunch *l, const GlStreamTable *table, uint32_t *tickets,
				 uint32_t *result)
{
	return with_automaton(table, [&](auto a) {
		if constexpr (decltype(a)::takes_candidates)
			a.tickets = tickets;	/* where it gives up (stream_automata.cuh) */
		return launch_in_shape(l, a, table, tickets, result,
							   std::make_index_sequence<STREAM_SHAPES>());
	});
}
