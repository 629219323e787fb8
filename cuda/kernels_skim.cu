/*-------------------------------------------------------------------------
 *
 * kernels_skim.cu
 *	  The skim pass: a byte automaton streamed over the whole column with
 *	  no regard for row borders, flagging the chunks that need the exact
 *	  per-row pass (kernels_rows.cu); and the compaction of those flags.
 *
 * One thread per 256-byte chunk.  It first replays the bytes just before
 * its chunk (32 for Shift-And, the longest literal for Aho–Corasick) to
 * reach the automaton state the stream has there, then issues four 16-byte
 * loads at a time (64 bytes in flight per thread, whole 32-byte sectors, so
 * no byte fetched from DRAM is wasted) and steps the automaton through
 * every byte.  The 0x00 separators between rows reset both automata, so a
 * hit always lies inside one row; that row starts either inside the chunk
 * or where the chunk index says the chunk's first row starts, and both
 * chunks are flagged.  The cost per byte does not depend on the text:
 * adversarial input (aaaa...ab) runs exactly as fast as any other.
 *
 * Shift-And: state = ((state << 1) | 1) & mask[byte]; the needle (at most
 * 32 positions, each a set of ASCII bytes) hit when the top bit appears.
 * The 256 masks are replicated 32 times in shared memory, copy i read only
 * by lane i, so the random lookups of a warp never conflict on a bank.
 *
 * Aho–Corasick: state = folded[state + class[byte]], the table folded by
 * match.cu (next state premultiplied, accept flag in bit 31).
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "kernels_common.cuh"

static const int SKIM_BLOCK = 256;
static const int SKIM_REPLICAS = 32;

/* Flag the chunk of a hit and the chunk where its chunk's first row starts. */
__device__ static void
flag_chunk(uint64_t chunk, const GlChunkIndex *chunks, uint8_t *flags)
{
	GlChunkIndex where = chunks[chunk];

	flags[chunk] = 1;
	if (where.back != 0)
		flags[(chunk * GL_DEV_CHUNK_BYTES - where.back) / GL_DEV_CHUNK_BYTES] = 1;
}

__device__ __forceinline__ uint32_t
shift_and_16(uint32_t state, const uint4 &word, const uint32_t *masks, uint32_t &hits)
{
#pragma unroll
	for (int k = 0; k < 16; k++)
	{
		state = ((state << 1) | 1) & masks[gl_byte_of(word, k) * SKIM_REPLICAS];
		hits |= state;
	}
	return state;
}

__global__ static void __launch_bounds__(SKIM_BLOCK)
skim_shift_and_kernel(const uint8_t *__restrict__ data, uint64_t nchunks,
					  const GlChunkIndex *__restrict__ chunks, GlSkimMasks needle,
					  uint8_t *flags)
{
	__shared__ uint32_t replicated[256 * SKIM_REPLICAS];
	uint64_t	chunk = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;
	const uint32_t *masks = replicated + (threadIdx.x % SKIM_REPLICAS);
	const uint8_t *p;
	uint32_t	state = 0;
	uint32_t	hits = 0;
	uint32_t	warmup_hits = 0;

	for (uint32_t i = threadIdx.x; i < 256 * SKIM_REPLICAS; i += blockDim.x)
		replicated[i] = needle.mask[i / SKIM_REPLICAS];
	__syncthreads();
	if (chunk >= nchunks)
		return;
	p = data + chunk * GL_DEV_CHUNK_BYTES;
	if (chunk > 0)
	{
		state = shift_and_16(state, gl_load16(p - 32), masks, warmup_hits);
		state = shift_and_16(state, gl_load16(p - 16), masks, warmup_hits);
	}
#pragma unroll
	for (uint32_t off = 0; off < GL_DEV_CHUNK_BYTES; off += 64)
	{
		uint4		w0 = gl_load16(p + off);
		uint4		w1 = gl_load16(p + off + 16);
		uint4		w2 = gl_load16(p + off + 32);
		uint4		w3 = gl_load16(p + off + 48);

		state = shift_and_16(state, w0, masks, hits);
		state = shift_and_16(state, w1, masks, hits);
		state = shift_and_16(state, w2, masks, hits);
		state = shift_and_16(state, w3, masks, hits);
	}
	if (hits & needle.top)
		flag_chunk(chunk, chunks, flags);
}

bool
gl_launch_skim_shift_and(const GlLaunch *l, const GlSkimMasks *needle, uint8_t *chunk_flags)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	blocks = (dcol->nchunks + SKIM_BLOCK - 1) / SKIM_BLOCK;

	skim_shift_and_kernel<<<(unsigned) blocks, SKIM_BLOCK, 0, l->stream>>>
		(dcol->data, dcol->nchunks, dcol->chunks, *needle, chunk_flags);
	return gl_cuda_ok(cudaGetLastError(), "launching the Shift-And skim", l->errbuf, l->errlen);
}

__device__ __forceinline__ uint32_t
multi_16(uint32_t state, const uint4 &word, const uint8_t *byte_class,
		 const uint32_t *folded, uint32_t &hits)
{
#pragma unroll
	for (int k = 0; k < 16; k++)
	{
		uint32_t	entry = folded[state + byte_class[gl_byte_of(word, k)]];

		state = entry & 0x7FFFFFFF;
		hits |= entry;
	}
	return state;
}

template <bool InShared>
__global__ static void __launch_bounds__(SKIM_BLOCK)
skim_multi_kernel(const uint8_t *__restrict__ data, uint64_t nchunks,
				  const GlChunkIndex *__restrict__ chunks, GlKernelProgram kp,
				  uint8_t *flags)
{
	extern __shared__ uint64_t program_shared[];
	const GlProgram *prog = gl_block_program<InShared>(program_shared, kp.blob, kp.blob_bytes);
	uint64_t	chunk = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;
	const uint8_t *byte_class;
	const uint32_t *folded;
	uint64_t	chunk_start;
	uint64_t	pos;
	uint32_t	state = 0;
	uint32_t	hits = 0;
	uint32_t	warmup_hits = 0;

	if (chunk >= nchunks)
		return;
	byte_class = (const uint8_t *) gl_dev_section(prog, prog->u.multi.byte_class_off);
	folded = (const uint32_t *) gl_dev_section(prog, kp.aux_off);
	chunk_start = chunk * GL_DEV_CHUNK_BYTES;
	pos = chunk_start > kp.warmup_bytes ? chunk_start - kp.warmup_bytes : 0;
	for (; pos < chunk_start; pos += 16)
		state = multi_16(state, gl_load16(data + pos), byte_class, folded, warmup_hits);
#pragma unroll
	for (uint32_t off = 0; off < GL_DEV_CHUNK_BYTES; off += 64)
	{
		const uint8_t *p = data + chunk_start + off;
		uint4		w0 = gl_load16(p);
		uint4		w1 = gl_load16(p + 16);
		uint4		w2 = gl_load16(p + 32);
		uint4		w3 = gl_load16(p + 48);

		state = multi_16(state, w0, byte_class, folded, hits);
		state = multi_16(state, w1, byte_class, folded, hits);
		state = multi_16(state, w2, byte_class, folded, hits);
		state = multi_16(state, w3, byte_class, folded, hits);
	}
	if (hits >> 31)
		flag_chunk(chunk, chunks, flags);
}

template <bool InShared>
static bool
launch_skim_multi_in(const GlLaunch *l, const GlKernelProgram *kp, uint8_t *chunk_flags)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	blocks = (dcol->nchunks + SKIM_BLOCK - 1) / SKIM_BLOCK;
	uint32_t	shared = InShared ? kp->blob_bytes : 0;

	if (shared > 48 * 1024 &&
		!gl_cuda_ok(cudaFuncSetAttribute(skim_multi_kernel<InShared>,
										 cudaFuncAttributeMaxDynamicSharedMemorySize,
										 (int) shared),
					"cudaFuncSetAttribute (Aho-Corasick skim)", l->errbuf, l->errlen))
		return false;
	skim_multi_kernel<InShared><<<(unsigned) blocks, SKIM_BLOCK, shared, l->stream>>>
		(dcol->data, dcol->nchunks, dcol->chunks, *kp, chunk_flags);
	return gl_cuda_ok(cudaGetLastError(), "launching the Aho-Corasick skim", l->errbuf, l->errlen);
}

bool
gl_launch_skim_multi(const GlLaunch *l, const GlKernelProgram *kp, uint8_t *chunk_flags)
{
	if (kp->in_shared)
		return launch_skim_multi_in<true>(l, kp, chunk_flags);
	return launch_skim_multi_in<false>(l, kp, chunk_flags);
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
