/*-------------------------------------------------------------------------
 *
 * kernels_skim.cu
 *	  The Aho–Corasick skim: a multi-literal automaton streamed over the
 *	  whole column with no regard for row borders.
 *
 * A thread steps four consecutive 256-byte chunks (chunk_scan.cuh:
 * coalesced 64-byte slices, hit positions in registers).  A block
 * stays resident and walks the column in steps of the whole grid, so the
 * automaton's tables are put into its shared memory once, not once per
 * 256 chunks.  Before its first chunk a thread replays the few bytes
 * that precede it (the longest literal) to reach the automaton state the
 * stream has there.  The 0x00 separators between rows reset the
 * automaton, so a hit always lies inside one row, and the row of every
 * hit gets its result bit (gl_resolve_warp_hits()).  The cost per byte does
 * not depend on the text: adversarial input (aaaa...ab) runs as fast as
 * any other.  state = folded[state + class[byte]], the table folded by
 * kernel_prep/program_prep.cc (next state premultiplied, accept flag in bit 31).
 *
 * It runs the Aho–Corasick automata whose byte DFA would be too large for
 * the stream kernel's compact table and whose classed table too
 * (kernel_prep/classed_table.h: more than 32 768 entries, e.g. 400 literals of
 * comment words), for it reports every literal where the stream kernel
 * decides rows.  Figures (kernel_bench's "AC 200"): test/bench/results/
 * h200-kernels/README.md, "Kernel design measurements".
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "chunk_scan.cuh"

static const int SKIM_BLOCK = 256;
/* one buffer: the stage gives the automaton's tables room in shared memory */
static const uint32_t STAGE_BUFFERS = 1;
static const uint32_t STAGE_BYTES = (SKIM_BLOCK / 32) * STAGE_BUFFERS * GL_SLICE_BUFFER_BYTES;

struct MultiAutomaton : GlRecordedHits
{
	/* a literal ends anywhere in a row (gl_words_to_list()) */
	static constexpr bool hits_end_rows = false;

	const uint8_t *byte_class;
	const uint32_t *folded;

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t part, int k,
											 uint32_t &hits) const
	{
		uint32_t	entry = folded[state + byte_class[gl_byte_in(part, k)]];

		hits = gl_shift_in_hit(hits, entry);
		return entry & 0x7FFFFFFF;
	}

	__device__ __forceinline__ uint32_t hit_word(uint32_t hits) const
	{
		return hits;
	}
};

/*
 * Consecutive chunks stepped by one thread, the automaton's state carried
 * from one to the next: the replay before them is paid once per 1 kB,
 * faster than one chunk per thread (kernel_bench's "AC 20", "AC 200").
 */
static const uint32_t CHUNKS_PER_THREAD = 4;

template <class A>
__device__ static void
skim(const A &a, const uint8_t *__restrict__ data, uint64_t nchunks,
	 const GlChunkIndex *__restrict__ chunks, uint32_t nrows, uint32_t warmup_bytes,
	 uint4 *stage, uint32_t *result)
{
	uint32_t	lane = threadIdx.x % 32;
	uint4	   *warp_stage = gl_warp_stage(stage, STAGE_BUFFERS);

	for (uint64_t base = blockIdx.x * (uint64_t) blockDim.x * CHUNKS_PER_THREAD;
		 base < nchunks; base += (uint64_t) gridDim.x * blockDim.x * CHUNKS_PER_THREAD)
	{
		uint64_t	first = base + threadIdx.x * CHUNKS_PER_THREAD;
		uint64_t	first_start = first * GL_DEV_CHUNK_BYTES;
		uint32_t	state = 0;

		if (first < nchunks)
		{
			uint64_t	pos = first_start > warmup_bytes ? first_start - warmup_bytes : 0;
			uint32_t	ignored = 0;

			for (; pos < first_start; pos += 16)
				state = gl_scan_word(a, state, gl_load16(data + pos), ignored);
		}
#pragma unroll 1
		for (uint32_t c = 0; c < CHUNKS_PER_THREAD; c++)
		{
			uint64_t	chunk = first + c;
			bool		inside = chunk < nchunks;
			uint32_t	records[GL_HIT_WORDS];

			state = gl_scan_chunk<STAGE_BUFFERS>(a, state, data,
												 chunk - lane * CHUNKS_PER_THREAD,
												 CHUNKS_PER_THREAD, nchunks, warp_stage, records);
			if (__any_sync(0xFFFFFFFF, inside && gl_any_hit(a, records)))
				gl_resolve_warp_hits(a, data, chunk, inside, records, chunks, nchunks, nrows,
									 result, reinterpret_cast<GlHitWord *>(warp_stage));
		}
	}
}

/*
 * Only the two tables the automaton reads (byte classes, folded
 * transitions) go to shared memory, not the whole program blob: that
 * keeps a few hundred literals' automaton there.  Larger ones are read in
 * place (TablesInShared false).
 */
template <bool TablesInShared>
__global__ static void __launch_bounds__(SKIM_BLOCK)
skim_multi_kernel(const uint8_t *__restrict__ data, uint64_t nchunks,
				  const GlChunkIndex *__restrict__ chunks, uint32_t nrows,
				  GlKernelProgram kp, uint32_t *result)
{
	extern __shared__ uint4 skim_shared[];
	const GlProgram *prog = (const GlProgram *) kp.blob;
	const uint32_t *byte_class = (const uint32_t *) gl_dev_section(prog, prog->u.multi.byte_class_off);
	const uint32_t *folded = (const uint32_t *) gl_dev_section(prog, kp.aux_off);
	MultiAutomaton a;

	if constexpr (TablesInShared)
	{
		uint32_t   *shared_class = (uint32_t *) (skim_shared + STAGE_BYTES / 16);
		uint32_t   *shared_folded = shared_class + 256 / 4;

		for (uint32_t i = threadIdx.x; i < 256 / 4; i += blockDim.x)
			shared_class[i] = byte_class[i];
		for (uint32_t i = threadIdx.x; i < (kp.blob_bytes - kp.aux_off) / 4; i += blockDim.x)
			shared_folded[i] = folded[i];
		__syncthreads();
		byte_class = shared_class;
		folded = shared_folded;
	}
	a.byte_class = (const uint8_t *) byte_class;
	a.folded = folded;
	skim(a, data, nchunks, chunks, nrows, kp.warmup_bytes, skim_shared, result);
}

template <bool TablesInShared>
static bool
launch_skim_multi_in(const GlLaunch *l, const GlKernelProgram *kp, uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint32_t	tables = 256 + (kp->blob_bytes - kp->aux_off);
	uint32_t	shared = STAGE_BYTES + (TablesInShared ? tables : 0);
	unsigned	grid;

	if (!gl_resident_grid((const void *) skim_multi_kernel<TablesInShared>, SKIM_BLOCK, shared,
						  (dcol->nchunks + CHUNKS_PER_THREAD - 1) / CHUNKS_PER_THREAD, l, &grid))
		return false;
	skim_multi_kernel<TablesInShared><<<grid, SKIM_BLOCK, shared, l->stream>>>
		(dcol->data, dcol->nchunks, dcol->chunks, (uint32_t) dcol->nrows, *kp, result);
	return gl_cuda_ok(cudaGetLastError(), "launching the Aho-Corasick skim", l->errbuf, l->errlen);
}

bool
gl_launch_skim_multi(const GlLaunch *l, const GlKernelProgram *kp, uint32_t *result)
{
	/* The stage and the tables share the block's shared memory. */
	if (STAGE_BYTES + 256 + (kp->blob_bytes - kp->aux_off) <= kp->shared_limit)
		return launch_skim_multi_in<true>(l, kp, result);
	return launch_skim_multi_in<false>(l, kp, result);
}
