/*-------------------------------------------------------------------------
 *
 * kernels_skim.cu
 *	  The skim pass: a byte automaton streamed over the whole column with
 *	  no regard for row borders; and the compaction of flagged chunks.
 *
 * One thread per 256-byte chunk, a warp per 32 consecutive chunks, read
 * in coalesced 64-byte slices through a shared-memory stage (see
 * kernels_common.cuh).  The next slice's loads are issued before the
 * current one is stepped, so memory latency overlaps the work.  Before its
 * chunk a thread replays the few bytes that precede it (the needle's
 * length, or the longest literal) to reach the automaton state the stream
 * has there.  The 0x00 separators between rows reset both automata, so a
 * hit always lies inside one row.  The cost per byte does not depend on
 * the text: adversarial input (aaaa...ab) runs as fast as any other.
 *
 * Two outputs:
 *	exact	the automaton is the whole predicate ('%literal%', ILIKE of an
 *			ASCII literal, Aho–Corasick): a slice with a hit is replayed
 *			byte by byte, counting separators from the chunk index's row,
 *			and the rows' result bits are set directly.  No rows pass.
 *	flags	a necessary condition only (one run of a longer LIKE pattern):
 *			the chunks where rows holding a hit start are flagged for the
 *			exact rows pass (kernels_rows.cu).
 *
 * Shift-And: state = ((state << 1) | 1) & mask[byte], a hit when the top
 * bit appears; the 256 masks are replicated 32 times in shared memory, copy
 * i read only by lane i, so a warp's random lookups never conflict.
 * Aho–Corasick: state = folded[state + class[byte]] with the table folded
 * by program_prep.cu (next state premultiplied, accept flag in bit 31).
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "kernels_common.cuh"

static const int SKIM_BLOCK = 256;
static const int SKIM_REPLICAS = 32;
static const uint32_t STAGE_BYTES = (SKIM_BLOCK / 32) * GL_STAGE_BYTES_PER_WARP;

struct ShiftAndAutomaton
{
	const uint32_t *masks;		/* this lane's replica: entry b at b * 32 */
	uint32_t	top;

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t b, uint32_t &hits) const
	{
		state = ((state << 1) | 1) & masks[b * SKIM_REPLICAS];
		hits |= state;
		return state;
	}
	__device__ __forceinline__ bool hit(uint32_t hits) const
	{
		return (hits & top) != 0;
	}
};

struct MultiAutomaton
{
	const uint8_t *byte_class;
	const uint32_t *folded;

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t b, uint32_t &hits) const
	{
		uint32_t	entry = folded[state + byte_class[b]];

		hits |= entry;
		return entry & 0x7FFFFFFF;
	}
	__device__ __forceinline__ bool hit(uint32_t hits) const
	{
		return (hits >> 31) != 0;
	}
};

template <class A>
__device__ __forceinline__ uint32_t
step16(const A &a, uint32_t state, const uint4 &word, uint32_t &hits)
{
#pragma unroll
	for (int k = 0; k < 16; k++)
		state = a.step(state, gl_byte_of(word, k), hits);
	return state;
}

/* Separators in [from, to), both 16-byte aligned. */
__device__ static uint32_t
count_separators(const uint8_t *data, uint64_t from, uint64_t to)
{
	uint32_t	n = 0;

	for (; from < to; from += 16)
	{
		uint4		w = gl_load16(data + from);
		uint32_t	parts[4] = {w.x, w.y, w.z, w.w};

#pragma unroll
		for (int i = 0; i < 4; i++)
			n += __popc((parts[i] - 0x01010101u) & ~parts[i] & 0x80808080u);
	}
	return n;
}

/*
 * A slice of an exact skim had a hit: replay it byte by byte from the state
 * it started in, numbering rows by the separators since the chunk start.
 * Rare for selective patterns, so kept out of line.
 */
template <class A>
__device__ static __noinline__ void
resolve_slice(A a, uint32_t state, uint4 w0, uint4 w1, uint4 w2, uint4 w3,
			  const uint8_t *data, uint64_t chunk_start, uint64_t slice_start,
			  uint32_t first_row, uint32_t *result)
{
	uint32_t	row = first_row + count_separators(data, chunk_start, slice_start);
	uint4		words[4] = {w0, w1, w2, w3};
	GlResultWriter out;

	out.init();
#pragma unroll
	for (int w = 0; w < 4; w++)
	{
#pragma unroll
		for (int k = 0; k < 16; k++)
		{
			uint32_t	b = gl_byte_of(words[w], k);
			uint32_t	hits = 0;

			state = a.step(state, b, hits);
			if (b == 0)
				row++;
			else if (a.hit(hits))
				out.set(result, row);
		}
	}
	out.flush(result);
}

/* Flag the chunk of a hit and the chunk where its chunk's first row starts. */
__device__ static void
flag_chunk(uint64_t chunk, const GlChunkIndex *chunks, uint8_t *flags)
{
	GlChunkIndex where = chunks[chunk];

	flags[chunk] = 1;
	if (where.back != 0)
		flags[(chunk * GL_DEV_CHUNK_BYTES - where.back) / GL_DEV_CHUNK_BYTES] = 1;
}

template <class A, bool Exact>
__device__ static void
skim(const A &a, const uint8_t *__restrict__ data, uint64_t nchunks,
	 const GlChunkIndex *__restrict__ chunks, uint32_t warmup_bytes, uint4 *stage,
	 uint8_t *flags, uint32_t *result)
{
	uint32_t	lane = threadIdx.x % 32;
	uint64_t	chunk = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;
	uint64_t	chunk_start = chunk * GL_DEV_CHUNK_BYTES;
	bool		active = chunk < nchunks;
	uint4	   *warp_stage = stage + (threadIdx.x - lane) * GL_SLICE_PITCH16;
	uint4		pieces[4];
	uint32_t	state = 0;
	uint32_t	any_hits = 0;

	if (active)
	{
		uint64_t	pos = chunk_start > warmup_bytes ? chunk_start - warmup_bytes : 0;
		uint32_t	ignored = 0;

		for (; pos < chunk_start; pos += 16)
			state = step16(a, state, gl_load16(data + pos), ignored);
	}
#pragma unroll
	for (int j = 0; j < 4; j++)
		pieces[j] = gl_stage_piece(data, chunk, active, 0, j);

#pragma unroll 1
	for (uint32_t t = 0; t < GL_SLICES_PER_CHUNK; t++)
	{
		uint4		words[4];
		uint32_t	entry_state = state;
		uint32_t	hits = 0;

		gl_stage_exchange(warp_stage, pieces, words);
		if (t + 1 < GL_SLICES_PER_CHUNK)
		{
#pragma unroll
			for (int j = 0; j < 4; j++)
				pieces[j] = gl_stage_piece(data, chunk, active, t + 1, j);
		}
#pragma unroll
		for (int j = 0; j < 4; j++)
			state = step16(a, state, words[j], hits);
		if (Exact)
		{
			if (active && a.hit(hits))
				resolve_slice(a, entry_state, words[0], words[1], words[2], words[3], data,
							  chunk_start, chunk_start + t * GL_SLICE_BYTES, chunks[chunk].row,
							  result);
		}
		else
			any_hits |= hits;
	}
	if (!Exact && active && a.hit(any_hits))
		flag_chunk(chunk, chunks, flags);
}

template <bool Exact>
__global__ static void __launch_bounds__(SKIM_BLOCK)
skim_shift_and_kernel(const uint8_t *__restrict__ data, uint64_t nchunks,
					  const GlChunkIndex *__restrict__ chunks, GlSkimMasks needle,
					  uint32_t warmup_bytes, uint8_t *flags, uint32_t *result)
{
	extern __shared__ uint4 skim_shared[];
	uint32_t   *replicated = (uint32_t *) (skim_shared + STAGE_BYTES / 16);
	ShiftAndAutomaton a;

	for (uint32_t i = threadIdx.x; i < 256 * SKIM_REPLICAS; i += blockDim.x)
		replicated[i] = needle.mask[i / SKIM_REPLICAS];
	__syncthreads();
	a.masks = replicated + threadIdx.x % SKIM_REPLICAS;
	a.top = needle.top;
	skim<ShiftAndAutomaton, Exact>(a, data, nchunks, chunks, warmup_bytes, skim_shared,
								   flags, result);
}

template <bool InShared>
__global__ static void __launch_bounds__(SKIM_BLOCK)
skim_multi_kernel(const uint8_t *__restrict__ data, uint64_t nchunks,
				  const GlChunkIndex *__restrict__ chunks, GlKernelProgram kp,
				  uint32_t *result)
{
	extern __shared__ uint4 skim_shared[];
	const GlProgram *prog =
		gl_block_program<InShared>((uint64_t *) (skim_shared + STAGE_BYTES / 16),
								   kp.blob, kp.blob_bytes);
	MultiAutomaton a;

	a.byte_class = (const uint8_t *) gl_dev_section(prog, prog->u.multi.byte_class_off);
	a.folded = (const uint32_t *) gl_dev_section(prog, kp.aux_off);
	skim<MultiAutomaton, true>(a, data, nchunks, chunks, kp.warmup_bytes, skim_shared,
							   NULL, result);
}

/* Dynamic shared memory beyond 48 KB must be allowed per kernel. */
template <class Kernel>
static bool
allow_shared(Kernel kernel, uint32_t bytes, const GlLaunch *l)
{
	if (bytes <= 48 * 1024)
		return true;
	return gl_cuda_ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
										   (int) bytes),
					  "cudaFuncSetAttribute (skim)", l->errbuf, l->errlen);
}

bool
gl_launch_skim_shift_and(const GlLaunch *l, const GlSkimMasks *needle, uint32_t warmup_bytes,
						 bool exact, uint8_t *chunk_flags, uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	blocks = (dcol->nchunks + SKIM_BLOCK - 1) / SKIM_BLOCK;
	uint32_t	shared = STAGE_BYTES + 256 * SKIM_REPLICAS * sizeof(uint32_t);

	if (exact)
	{
		if (!allow_shared(skim_shift_and_kernel<true>, shared, l))
			return false;
		skim_shift_and_kernel<true><<<(unsigned) blocks, SKIM_BLOCK, shared, l->stream>>>
			(dcol->data, dcol->nchunks, dcol->chunks, *needle, warmup_bytes, NULL, result);
	}
	else
	{
		if (!allow_shared(skim_shift_and_kernel<false>, shared, l))
			return false;
		skim_shift_and_kernel<false><<<(unsigned) blocks, SKIM_BLOCK, shared, l->stream>>>
			(dcol->data, dcol->nchunks, dcol->chunks, *needle, warmup_bytes, chunk_flags, NULL);
	}
	return gl_cuda_ok(cudaGetLastError(), "launching the Shift-And skim", l->errbuf, l->errlen);
}

template <bool InShared>
static bool
launch_skim_multi_in(const GlLaunch *l, const GlKernelProgram *kp, uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	blocks = (dcol->nchunks + SKIM_BLOCK - 1) / SKIM_BLOCK;
	uint32_t	shared = STAGE_BYTES + (InShared ? kp->blob_bytes : 0);

	if (!allow_shared(skim_multi_kernel<InShared>, shared, l))
		return false;
	skim_multi_kernel<InShared><<<(unsigned) blocks, SKIM_BLOCK, shared, l->stream>>>
		(dcol->data, dcol->nchunks, dcol->chunks, *kp, result);
	return gl_cuda_ok(cudaGetLastError(), "launching the Aho-Corasick skim", l->errbuf, l->errlen);
}

bool
gl_launch_skim_multi(const GlLaunch *l, const GlKernelProgram *kp, uint32_t *result)
{
	/* The stage and the program share the block's shared memory. */
	if (kp->in_shared && STAGE_BYTES + kp->blob_bytes <= kp->shared_limit)
		return launch_skim_multi_in<true>(l, kp, result);
	return launch_skim_multi_in<false>(l, kp, result);
}

/*
 * Flagged chunks to a dense list: each warp counts its flags with one
 * ballot, its first flagged lane reserves room with one atomicAdd, and
 * every flagged lane writes at its rank within the warp.
 */
__global__ static void
compact_kernel(const uint8_t *__restrict__ flags, uint64_t nchunks,
			   uint32_t *list, uint32_t *list_len)
{
	uint64_t	chunk = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;
	uint32_t	lane = threadIdx.x % 32;
	bool		flagged = chunk < nchunks && flags[chunk] != 0;
	uint32_t	ballot = __ballot_sync(0xFFFFFFFF, flagged);
	uint32_t	leader;
	uint32_t	base = 0;

	if (ballot == 0)
		return;
	leader = __ffs(ballot) - 1;
	if (lane == leader)
		base = atomicAdd(list_len, __popc(ballot));
	base = __shfl_sync(0xFFFFFFFF, base, leader);
	if (flagged)
		list[base + __popc(ballot & ((1u << lane) - 1))] = (uint32_t) chunk;
}

bool
gl_launch_compact(const GlLaunch *l, const uint8_t *chunk_flags, uint32_t *chunk_list,
				  uint32_t *list_len)
{
	uint64_t	blocks = (l->dcol->nchunks + 255) / 256;

	compact_kernel<<<(unsigned) blocks, 256, 0, l->stream>>>
		(chunk_flags, l->dcol->nchunks, chunk_list, list_len);
	return gl_cuda_ok(cudaGetLastError(), "launching the chunk compaction", l->errbuf, l->errlen);
}

bool
gl_shared_memory_limit(size_t *bytes, char *errbuf, size_t errlen)
{
	int			device;
	int			limit;

	if (!gl_cuda_ok(cudaGetDevice(&device), "cudaGetDevice", errbuf, errlen) ||
		!gl_cuda_ok(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
					"cudaDeviceGetAttribute", errbuf, errlen))
		return false;
	*bytes = (size_t) limit;
	return true;
}
