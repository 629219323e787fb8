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
 * reason the per-row kernels (kernels_rows.cu) ran with 14 of 32 lanes
 * busy.
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
 *			bytes (CompactAutomaton below); recording it byte by byte,
 *			a funnel shift each, cost a tenth of the throughput;
 *	wide	(automata of 128 to 255 states, or where the compact table
 *			is refused) two bytes per entry, addressed as the compact
 *			table is, the flag recorded byte by byte: permute, logical
 *			operation, two-byte load, funnel shift.  The table is half
 *			the size of its first form (32-bit entries, a shift and a
 *			mask more a byte), so a 150-state automaton leaves room for
 *			two stage buffers where that left one (H100, "DFA wide":
 *			54.9-55.2 -> 60.0-60.2% of the read bandwidth, though its
 *			two-byte loads meet more bank conflicts, bank_sim: 2.3
 *			wavefronts a load against 2.0, '%special%requests%');
 *	classed	(Aho–Corasick automata past the compact table, kernel_prep/classed_table.h)
 *			two-byte entries over the program's byte classes: the class's
 *			load, an add, the entry's load and an integer max.
 *			Where many rows match it decides rows where the skim
 *			reported every literal (H100, 200 literals, 44% of the rows:
 *			46.1-46.6% of the read bandwidth, the skim 42.5-43.0);
 *	windowed (the same automata, where their literals keep to letters or
 *			to printable ASCII) the classed table with a column for each
 *			byte of a 64- or 96-byte window instead of the classes, the
 *			column computed: an XOR, a permute, a min, the entry's load
 *			(one IMAD addresses it) and an integer max that keeps the
 *			largest entry (a matching row's separator leads to the root's
 *			twin, the largest state: kernel_prep/classed_table.h).  One shared load a
 *			byte instead of two (H200, 200 literals: 34.8 ->
 *			38.8-39.2%).
 *
 * Measured on an H200 (test/kernels/kernel_bench, 2.1 GB of comment
 * text, read 4.4 TB/s; the kernels as of b8c00b7): 2.61-2.63 TB/s
 * (59-60%) for LIKE with several segments, '_', ILIKE and the
 * regex 'special.*requests' (2.35-2.38 while the flag was recorded byte
 * by byte), 2.32-2.42 TB/s (53-55%) where 5-10% of the rows match, 1.98
 * TB/s (45%) for '%e_e%' (32% of the rows); the wide table (32-bit
 * entries then) 1.60 TB/s (36%).  Where the time goes, from variants that
 * leave a part out ('%special%requests%', before the flag stuck): reading
 * the column through the stage alone runs at 84% of the read bandwidth,
 * stepping one slice again and again with no memory load at 80%, the two
 * together at 54%: the copies and the table loads share the load/store
 * pipe, and the stepping is a chain of dependent table loads that only
 * other warps can hide (Nsight Compute: DRAM 51%, L1/TEX 53%, issue slots
 * 46% busy, 1.4-way bank conflicts, 45% occupancy at 64 registers; warps
 * stalled mostly on memory, then shared memory: 5.6 and 3.9 of 14.7
 * cycles per instruction).  Following the open row at the end of each
 * thread's chunks costs about 6% where few rows match, and 14% of the
 * stall samples where 32% do ('%e_e%', 12% for 200 literals: the warp
 * follows until its longest rest of a row ends; finish_open_row());
 * splitting the column into one run per thread to save it spread the
 * lanes' reads 15 kB apart and lost more where rows match.
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
 * both give as many warps, two win over one -- the byte DFAs' classes
 * lose 9 points with one -- and three over two; then the smaller block).
 *
 * The line buffer, 4 kB a warp, keeps 32 warps where the table is under
 * about 25 kB (256-thread blocks) or 99 kB (1024): the compact tables,
 * and with them most LIKE patterns, regexes and literal sets to about
 * 150 states.  There it won over three slice buffers (H200, kernel_bench,
 * % of the read bandwidth, two rounds in one call: '%e_e%' 57.0-57.2 ->
 * 58.0-58.6, '%special%requests%' 71.9-72.0 -> 72.6-72.8, ILIKE
 * 71.7-72.0 -> 72.9-73.0, '%s_ecial%r_quests%' 72.0-72.1 -> 72.4-72.7,
 * one literal as a DFA 65.3-65.6 -> 66.4-66.9, two literals 63.4-63.6 ->
 * 64.3-64.8, twenty 53.3-53.4 -> 53.8-54.3, '~ special.*requests'
 * 71.9-72.0 -> 72.9-73.1, '~ furiously' 65.1-65.8 -> 66.4-66.5; its
 * shared-memory wavefronts 8.2% fewer, '%e_e%', Nsight Compute).  Two
 * line buffers keep only 16 warps, and lost 14-20 points; 200 literals'
 * windowed table (154 kB) leaves room for 8 warps of it, and stays with
 * slices.  As built here, against the slice shapes alone (H200, the whole
 * kernel_bench, two rounds): '%e_e%' 56.8-57.0 -> 57.5-58.0, two literals
 * 63.8-63.9 -> 64.4-64.5, twenty 51.7-52.1 -> 52.5; where it costs:
 * '~ special.*requests' 74.2-74.8 -> 73.1-73.4, and 200 literals of
 * letters, whose windowed table (98 kB) took the line buffer instead of
 * two slice buffers, 44.2-45.0 -> 43.5-43.6 (so the classed tables keep
 * to slices).  With the
 * compact tables' rows numbered for the text (kernel_prep/compact_for_text.cc) the
 * line stage gains more ('%e_e%' 59.6-60.4 with three slice buffers,
 * 61.6-61.8 with the line buffer).
 *
 * Three buffers fit 32 warps in 512-thread blocks where the table is
 * under about 17 kB: compact automata of up to 34 states (the compact
 * table is at least 16 kB), most LIKE patterns and small regexes.  (In
 * 256-thread blocks they would need tables under 8 kB, which no table
 * form is but a small automaton's wide one where the compact table was
 * refused, and that has as many warps in 512.)
 * There they hide what Nsight Compute showed the warps waiting on most,
 * the stage's copies (H100, '%e_e%': 10.0 of 19.0 cycles an instruction
 * on the L1TEX scoreboard with two buffers, 7.5 of 18.5 with three).
 * H100, kernel_bench, % of the read bandwidth, two buffers -> three:
 * '%special%requests%' 65.9-66.7 -> 70.1-71.6, '%s_ecial%r_quests%'
 * 65.9-66.6 -> 70.1-71.3, ILIKE libc 61.0-61.7 -> 65.1-65.2, '%e_e%'
 * 56.9-57.7 -> 58.8-59.3, two literals 59.8-59.9 -> 63.5-63.6, '~
 * furiously' 61.2-62.0 -> 65.1-65.7.  A 1024-thread shape of three
 * buffers, for tables to 35 kB, gained nothing (20 literals, 108 states:
 * 55.4-55.7 either way), and more warps at fewer registers lost where
 * two buffers had been (48 registers, 40 warps: '%special%requests%' 51%,
 * the warps waiting on shared memory longer; 40 registers, 48 warps: 45%).
 * With 256 threads a block alone, the dependent table loads of too few
 * warps went unhidden: H100, "AC 200", classed table (45 kB): 42.9-43.3%
 * of the read bandwidth with two buffers (two blocks, 16 warps), 46.1-
 * 46.6 with one (three, 24 warps); H200, "AC 20", compact table of 108
 * states (55 kB): 36.4-36.7 with two buffers, 42.4 with one.  With the
 * bigger blocks (H100, kernel_bench, one run): "AC 20" (97 states, 49
 * kB, where the class runs alone) 51.1-51.4 -> 54.4-55.0 (1024 threads,
 * two buffers: 32 warps, not 24), "DFA wide" (150 states, 150 kB) 42.7
 * -> 54.4-55.1 (1024 threads, one buffer: 32 warps, not 8); "AC 200"
 * stays at 46.6-47.0 with 32 warps, bound by the shared memory's
 * wavefronts (two loads a byte and their bank conflicts), not by warps.
 *
 * The shape is chosen once, when a program's table is copied to a part
 * (gl_stream_shape(), kept beside the part's resident program): asking
 * for six shapes' occupancy at every launch, and setting the shared
 * memory attribute of those over 48 kB, cost a point of the read
 * bandwidth on small tables (H200, test/kernels/kernel_bench,
 * '%special%requests%': 59.0-59.6% with one shape, 56.7-58.1 choosing at
 * each launch, 59.0-59.7 choosing once).
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
 * The stage begins at the first 128-byte line after the table.  200
 * literals' windowed table (154 848 bytes) left it 96 bytes past a line,
 * and a copy instruction took 12 shared-memory wavefronts, where on a
 * line it takes 8 (H200, Nsight Compute, 200 literals before and after,
 * rows pass; 8 is twice the ideal, an instruction gathering eight
 * chunks' 64-byte slices).
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
 * of a row, and each of them waited on the column's bytes, where most
 * rests end within 64 bytes.  Copied into the stage, a coalesced 2 kB a
 * warp beside the last slice's steps (H200, test/kernels/kernel_bench, %
 * of the read bandwidth, from the column -> staged): '%e_e%' 55.8-56.4 ->
 * 56.9-57.4, AC 1 64.4-65.1 -> 65.4-66.2, 20 literals 52.0-52.4 ->
 * 52.4-53.2, ILIKE libc 64.2-65.2 -> 66.5-66.6, '~ furiously' 64.2-65.4
 * -> 65.3-66.8, the others within a point.  Two slices where the stage
 * has room for them (every shape of two buffers or three) lost 1-2 points
 * on '%special%requests%' and its DFA and gained nothing.
 * Whether a row is open at all the caller knows
 * from the chunk's last byte, still in registers, and the row's number
 * is loaded only for a matching row: before, a load of that byte, then
 * 16 bytes at a time, each waiting on the one before, were 17% of the
 * stall samples where 32% of the rows match (H100, Nsight Compute,
 * '%e_e%'); 20 literals 48.1-49.1 -> 49.5-49.9% of the read bandwidth,
 * the other classes unchanged.  (Loading the next chunk's index entry
 * with the bytes, to learn from it whether a row is open, cost 2 points
 * on every stream class; loading 64 bytes at once, and prefetching them
 * into L2 while the thread's last chunk is stepped, were both slower:
 * H200, '%special%requests%', 1.18 ms without either, 1.23 with both.
 * Stepping each 32 bytes whole, as the scan does, and taking the answer
 * from the separator's hit bit, with no branch a byte, was slower too:
 * '%e_e%' 56.1-56.2 -> 55.5-55.8%, 200 literals 42.2-42.5 -> 41.6-41.8%;
 * and so was stepping only the four-byte parts with no separator so:
 * '%e_e%' 55.5-55.8 -> 54.5-54.6%, 200 literals 41.9-42.1 -> 39.4-39.6%.)
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
 * in the SASS: LDS.U8 [R+UR], the table's address in a uniform register.
 * Variants of this loop that carried more across it (the next group's
 * chunk index entry; the next chunk's first slice) got a separate add
 * before every table load instead, one instruction more per byte: 1.16
 * and 1.33 ms against 1.03 (H200, '%special%requests%', before the
 * cp.async stage).
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
 * ahead takes more, so the warps finish together.  Where the grid walked
 * the column in fixed rounds, the slowest warp's share set the time: a
 * run took 40-60 us more than the column's bytes at the rate of a 60 GB
 * one (H200, kernel_bench, 0.5 to 60 GB): about a round, what one of the
 * 4 224 resident warps takes for 32 groups of four chunks while they
 * share 2.4-3.1 TB/s.  H200, % of the read bandwidth,
 * 2.1 GB, rounds -> tickets: '%special%requests%' 65.9-66.0 -> 70.2-70.5,
 * ILIKE libc 58.8-59.6 -> 61.6-61.9, '%e_e%' 51.7-52.4 -> 54.6, two
 * literals 56.9-57.1 -> 60.1, 20 literals 49.2 -> 49.9-51.0, '~
 * furiously' 59.2-59.8 -> 62.6, the wide table 57.9-58.0 -> 56.6-57.9;
 * at 0.5 GB 2-4 points more for each but the wide table.  Groups of four
 * to the end (no single-chunk tickets) gained a point less.
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
	 * factored walk) ends before it copies its table: the factored walk's
	 * 200 literals cost 7-20 us a match more when the replaced table's
	 * walk copied 48 kB into every block to find no ticket.  Not in the
	 * compact forms, which are never so launched: there the look cost 4-7
	 * points of the read bandwidth (H200, test/kernels/kernel_bench: 20
	 * literals 57.6 -> 53.2%, '%e_e%' 61.9 -> 56.2%).
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
