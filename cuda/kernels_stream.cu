/*-------------------------------------------------------------------------
 *
 * kernels_stream.cu
 *	  The stream kernel: the byte DFA of a program (byte_dfa.h) over the
 *	  whole column, exact, in one pass.
 *
 * One thread per 256-byte chunk, read through the coalescing stage and
 * stepped with one shared-memory table load per byte (chunk_scan.cuh).
 * There are no per-row branches: the separator is one more transition,
 * and a row's answer appears as a flag on it.  So all 32 lanes of a warp
 * do the same work whatever the row lengths -- the reason the per-row
 * kernels (kernels_rows.cu) ran with 14 of 32 lanes busy.
 *
 * Each row is decided by the thread whose chunk holds its first byte:
 *	- a chunk that opens inside a row (its index entry has back != 0)
 *	  starts in the SKIP state, which ignores bytes up to the next
 *	  separator and then enters START: that row belongs to an earlier
 *	  thread;
 *	- a row still open at the chunk's end (state not SKIP, last byte not a
 *	  separator) is followed past the end, 16 bytes at a time, to its
 *	  separator; a row longer than a chunk costs its owner alone that walk.
 * Flags at separators become result bits by gl_resolve_hits(); the tail
 * row's bit is "first row + separators in the chunk".  The zero bytes
 * after the last row look like empty rows: their bits would be past
 * nrows and are dropped.
 *
 * Blocks stay resident and walk the column in steps of the grid, so the
 * table is copied into shared memory once per block.
 *
 * Measured on an H200 (kernel_bench, 2.1 GB of comment text, read 4.45
 * TB/s): 1.17-1.61 TB/s (26-36%) for LIKE with several segments, '_',
 * ILIKE, anchors, small Aho–Corasick and regex DFAs of 7-22 states; on
 * adversarial runs of 'a' within 1.12x of that.  Nsight Compute (for
 * '%special%requests%'): the shared-memory pipe is the limit (L1/TEX 87%
 * busy, DRAM 27%).  Lanes of a warp in different states read entries
 * that share a bank (about 1.5 extra wavefronts per table load), but bank
 * conflicts are not what sets the pace: tables without any (the byte's
 * class first, then one copy of each row per lane, so lane L always reads
 * bank L) were 11% slower, 1.52 against 1.37 ms, because they take two
 * shared-memory loads per byte instead of one.  Registers are capped at
 * 64 for four blocks (32 warps) per SM: 4% faster than 76 registers and
 * 24 warps; 48 registers spill and lose 10-30%.
 * A table with 108 states leaves room for one block per SM and halves
 * the speed.
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "byte_dfa.h"
#include "chunk_scan.cuh"

static const int STREAM_BLOCK = 256;
static const uint32_t STAGE_BYTES = (STREAM_BLOCK / 32) * GL_STAGE_BYTES_PER_WARP;

/*
 * The block's shared memory: the byte table first, then the warps'
 * stages.  At offset 0 the table's address is a constant, so a table
 * load needs no base register: one instruction less per byte than with
 * the table after the stage (H200, '%special%requests%': 1.37 against
 * 1.44 ms).
 */
extern __shared__ uint4 stream_shared[];

/* state = the state's value: entries at byte offset state ^ (byte << 2). */
struct ByteDfaAutomaton
{
	__device__ __forceinline__ uint32_t entry(uint32_t state, uint32_t b) const
	{
		return *reinterpret_cast<const uint32_t *>(
			reinterpret_cast<const uint8_t *>(stream_shared) + (state ^ (b << 2)));
	}

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t b, uint32_t &hits) const
	{
		uint32_t	e = entry(state, b);

		hits = gl_shift_in_hit(hits, e);
		return e & GL_BYTE_DFA_STATE_BITS;
	}
};

/*
 * Follow the row open at stream position pos (16-byte aligned) to its
 * separator; is it flagged there?
 */
__device__ static __noinline__ bool
finish_open_row(const ByteDfaAutomaton &a, uint32_t state, const uint8_t *__restrict__ data,
				uint64_t pos)
{
	for (;; pos += 16)
	{
		uint4		word = gl_load16(data + pos);
		uint32_t	parts[4] = {word.x, word.y, word.z, word.w};

#pragma unroll
		for (int i = 0; i < 4; i++)
#pragma unroll
			for (int k = 0; k < 4; k++)
			{
				uint32_t	b = (parts[i] >> (8 * k)) & 0xFF;
				uint32_t	entry = a.entry(state, b);

				if (b == 0)
					return (entry & GL_BYTE_DFA_FLAG) != 0;
				state = entry & GL_BYTE_DFA_STATE_BITS;
			}
	}
}

__global__ static void __launch_bounds__(STREAM_BLOCK, 4)
stream_kernel(const uint8_t *__restrict__ data, uint64_t nchunks,
			  const GlChunkIndex *__restrict__ chunks, uint32_t nrows,
			  const uint4 *__restrict__ table, uint32_t table_bytes, uint32_t *result)
{
	uint32_t	lane = threadIdx.x % 32;
	uint4	   *warp_stage = stream_shared + table_bytes / 16 +
		(threadIdx.x - lane) * GL_SLICE_PITCH16;
	ByteDfaAutomaton a;

	for (uint32_t i = threadIdx.x; i < table_bytes / 16; i += blockDim.x)
		stream_shared[i] = __ldg(&table[i]);
	__syncthreads();

	for (uint64_t base = blockIdx.x * (uint64_t) blockDim.x; base < nchunks;
		 base += (uint64_t) gridDim.x * blockDim.x)
	{
		uint64_t	chunk = base + threadIdx.x;
		uint64_t	chunk_end = (chunk + 1) * GL_DEV_CHUNK_BYTES;
		bool		active = chunk < nchunks;
		GlChunkIndex where = {0, 0};
		uint32_t	hits[GL_HIT_WORDS];
		uint32_t	state;

		if (active)
			where = chunks[chunk];
		state = gl_byte_dfa_state(where.back != 0 ? GL_BYTE_DFA_SKIP : GL_BYTE_DFA_START);
		state = gl_scan_chunk(a, state, data, chunk, nchunks, warp_stage, hits);
		if (active)
		{
			bool		tail_hit = false;

			if (state != gl_byte_dfa_state(GL_BYTE_DFA_SKIP) && data[chunk_end - 1] != 0)
				tail_hit = finish_open_row(a, state, data, chunk_end);
			if (tail_hit || gl_any_hit(hits))
				gl_resolve_hits(data + chunk_end - GL_DEV_CHUNK_BYTES, hits, tail_hit,
								where.row, nrows, result);
		}
	}
}

bool
gl_launch_stream(const GlLaunch *l, const uint32_t *table, uint32_t nstates, uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint32_t	table_bytes = nstates * 256 * sizeof(uint32_t);
	uint32_t	shared = STAGE_BYTES + table_bytes;
	unsigned	grid;

	if (!gl_resident_grid((const void *) stream_kernel, STREAM_BLOCK, shared, dcol->nchunks, l,
						  &grid))
		return false;
	stream_kernel<<<grid, STREAM_BLOCK, shared, l->stream>>>
		(dcol->data, dcol->nchunks, dcol->chunks, (uint32_t) dcol->nrows,
		 (const uint4 *) table, table_bytes, result);
	return gl_cuda_ok(cudaGetLastError(), "launching the stream kernel", l->errbuf, l->errlen);
}

uint32_t
gl_stream_max_states(uint32_t shared_limit)
{
	return shared_limit > STAGE_BYTES ? (shared_limit - STAGE_BYTES) / (256 * sizeof(uint32_t)) : 0;
}
