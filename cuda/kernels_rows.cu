/*-------------------------------------------------------------------------
 *
 * kernels_rows.cu
 *	  The row-stream kernel: exact per-row matching over the contiguous
 *	  stream (device_column.h), one thread per 256-byte chunk.
 *
 * A thread owns the rows that start inside its chunk.  It finds the first
 * of them from the chunk index (or by reading past the separator of the row
 * in progress), then reads 16-byte words -- the next one already in flight
 * while it works on the current one -- and feeds each byte to the row
 * automaton (row_matchers.cuh) until a separator starts a row at or past
 * the chunk's end.  A row longer than its chunk is simply followed to its
 * end by the thread that owns its start; the neighbouring threads skip it.
 * Rows of one thread are consecutive, so result bits are gathered in a
 * register and written with one atomicOr per 32-row word.
 *
 * Bytes are taken from 32-bit groups with compile-time shifts, so nothing
 * is indexed dynamically and nothing spills to local memory; only four
 * copies of the per-byte step are inlined, and the rare paths (non-ASCII
 * characters) are out of line, which keeps the loop in the instruction
 * cache.  After the early exit of a row (matched, or dead) whole 4-byte
 * groups without a separator are skipped.
 *
 * Its place now: the fallback for programs whose byte DFA does not fit the
 * stream kernel's shared memory (kernels_stream.cu, which runs everything
 * else), and the rows the sieve or a factored automaton leaves to it.
 * Measured when it ran every program (kernel_bench, Nsight Compute;
 * figures: test/bench/results/h200-kernels/README.md) it read at a few
 * per cent of the read bandwidth, issue-bound with under half of a
 * warp's lanes active, because rows end, and finish early, at different
 * bytes in different lanes, so both sides of the per-byte branches run.
 * The stream kernel removes exactly that: the separator is one more
 * table transition, so there are no per-row branches at all.
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "row_matchers.cuh"

static const int ROWS_BLOCK = 256;
/* Blocks that take a list's chunks, each as many as it takes (every SM's share and more). */
static const uint64_t LIST_BLOCKS = 1024;

/* Position of the first 0x00 at or after from, or limit if none before it. */
__device__ static uint64_t
find_separator(const uint8_t *data, uint64_t from, uint64_t limit)
{
	uint64_t	pos = from & ~(uint64_t) 15;

	for (; pos < limit; pos += 16)
	{
		uint4		word = gl_load16(data + pos);

#pragma unroll
		for (int k = 0; k < 16; k++)
		{
			if (pos + k >= from && pos + k < limit && gl_byte_of(word, k) == 0)
				return pos + k;
		}
	}
	return limit;
}

/* Byte k (0..15, known only at run time) of a 16-byte word. */
__device__ __forceinline__ uint32_t
byte_at(const uint4 &w, uint32_t k)
{
	uint32_t	word = (k < 4) ? w.x : (k < 8) ? w.y : (k < 12) ? w.z : w.w;

	return (word >> ((k & 3) * 8)) & 0xFF;
}

/* Where a thread is in its rows. */
struct RowCursor
{
	uint64_t	row_start;
	uint64_t	limit;
	uint32_t	row;
	uint32_t   *result;
	GlResultWriter out;
};

/*
 * Feed the byte at stream position at; a separator ends the row.  false
 * once the next row starts at or past the chunk's end: the thread is done.
 */
template <class Matcher>
__device__ __forceinline__ bool
feed(Matcher &m, RowCursor &c, uint32_t b, uint64_t at)
{
	if (b != 0)
	{
		if (!m.done)
			m.step(b);
		return true;
	}
	if (m.finish((uint32_t) (at - c.row_start)))
		c.out.set(c.result, c.row);
	c.row++;
	c.row_start = at + 1;
	if (c.row_start >= c.limit)
		return false;
	m.begin();
	return true;
}

/*
 * The rows starting in [start, limit).  The first (partial) word is fed
 * byte by byte; then each 16-byte word (the next one already loading) is
 * fed as four 32-bit groups, and a group without a separator is skipped
 * outright once the row's answer is known.
 */
template <class Matcher>
__device__ static void
run_rows(Matcher &m, const uint8_t *data, uint64_t start, uint64_t limit,
		 uint32_t row, uint32_t *result)
{
	RowCursor	c;
	uint64_t	pos = start & ~(uint64_t) 15;
	uint4		word = gl_load16(data + pos);
	uint4		ahead = gl_load16(data + pos + 16);

	c.row_start = start;
	c.limit = limit;
	c.row = row;
	c.result = result;
	c.out.init();
	m.begin();
	for (uint32_t k = (uint32_t) (start & 15); k < 16; k++)
		if (!feed(m, c, byte_at(word, k), pos + k))
			goto done;
	for (;;)
	{
		pos += 16;
		word = ahead;
		ahead = gl_load16(data + pos + 16);
#pragma unroll 1
		for (uint32_t q = 0; q < 4; q++)
		{
			uint32_t	group = word.x;

			word.x = word.y;
			word.y = word.z;
			word.z = word.w;
			if (m.done && gl_maybe_zero_bytes(group) == 0)
				continue;
#pragma unroll
			for (int j = 0; j < 4; j++)
				if (!feed(m, c, (group >> (8 * j)) & 0xFF, pos + q * 4 + j))
					goto done;
		}
	}
done:
	c.out.flush(result);
}

/* The rows that start in chunk, decided into result. */
template <class Matcher>
__device__ static void
decide_chunk(const GlProgram *prog, uint32_t aux_off, const uint8_t *__restrict__ data,
			 uint64_t nbytes, const GlChunkIndex *__restrict__ chunks, uint64_t chunk,
			 uint32_t *result)
{
	uint64_t	chunk_start = chunk * GL_DEV_CHUNK_BYTES;
	uint64_t	limit = min(chunk_start + GL_DEV_CHUNK_BYTES, nbytes);
	GlChunkIndex where = chunks[chunk];
	uint64_t	start = chunk_start;
	uint32_t	row = where.row;
	Matcher		m;

	if (where.back != 0)
	{
		/* The chunk opens inside a row that an earlier thread owns. */
		start = find_separator(data, chunk_start, limit) + 1;
		row++;
		if (start >= limit)
			return;
	}
	m.init(prog, aux_off);
	run_rows(m, data, start, limit, row, result);
}

/*
 * Every chunk, or the chunks listed: as many as the grid has threads at a
 * time.  The list's length is read before a block copies the program, so
 * that blocks past it copy nothing.
 */
template <class Matcher, bool InShared>
__global__ static void __launch_bounds__(ROWS_BLOCK)
rows_kernel(const uint8_t *__restrict__ data, uint64_t nbytes,
			const GlChunkIndex *__restrict__ chunks, uint64_t nchunks,
			const uint32_t *__restrict__ chunk_list, const uint32_t *list_len,
			uint64_t max_listed, GlKernelProgram kp, uint32_t *result)
{
	extern __shared__ uint64_t program_shared[];
	uint64_t	listed = chunk_list != NULL ? *list_len : nchunks;
	const GlProgram *prog;

	/* more listed than the caller allows: another kernel decides them */
	if (chunk_list != NULL && listed > max_listed)
		listed = 0;
	if (blockIdx.x * (uint64_t) blockDim.x >= listed)
		return;
	prog = gl_block_program<InShared>(program_shared, kp.blob, kp.blob_bytes);
	for (uint64_t i = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x; i < listed;
		 i += (uint64_t) gridDim.x * blockDim.x)
		decide_chunk<Matcher>(prog, kp.aux_off, data, nbytes, chunks,
							  chunk_list != NULL ? chunk_list[i] : i, result);
}

template <class Matcher, bool InShared>
static bool
launch_rows_in(const GlLaunch *l, const GlKernelProgram *kp,
			   const uint32_t *chunk_list, const uint32_t *list_len, uint64_t max_listed,
			   uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	blocks = (std::min(max_listed, dcol->nchunks) + ROWS_BLOCK - 1) / ROWS_BLOCK;
	uint32_t	shared = InShared ? kp->blob_bytes : 0;

	if (chunk_list != NULL)
		blocks = std::min(blocks, LIST_BLOCKS);
	if (blocks == 0)
		return true;
	if (shared > 48 * 1024 &&
		!gl_cuda_ok(cudaFuncSetAttribute(rows_kernel<Matcher, InShared>,
										 cudaFuncAttributeMaxDynamicSharedMemorySize,
										 (int) shared),
					"cudaFuncSetAttribute (rows kernel)", l->errbuf, l->errlen))
		return false;
	rows_kernel<Matcher, InShared><<<(unsigned) blocks, ROWS_BLOCK, shared, l->stream>>>
		(dcol->data, dcol->nbytes, dcol->chunks, dcol->nchunks, chunk_list, list_len,
		 max_listed, *kp, result);
	return gl_cuda_ok(cudaGetLastError(), "launching the rows kernel", l->errbuf, l->errlen);
}

template <class Matcher>
static bool
launch_rows_of(const GlLaunch *l, const GlKernelProgram *kp,
			   const uint32_t *chunk_list, const uint32_t *list_len, uint64_t max_listed,
			   uint32_t *result)
{
	if (kp->in_shared)
		return launch_rows_in<Matcher, true>(l, kp, chunk_list, list_len, max_listed, result);
	return launch_rows_in<Matcher, false>(l, kp, chunk_list, list_len, max_listed, result);
}

bool
gl_launch_rows(const GlLaunch *l, GlProgramKind kind, const GlKernelProgram *kp,
			   const uint32_t *chunk_list, const uint32_t *list_len, uint64_t max_listed,
			   uint32_t *result)
{
	switch (kind)
	{
		case GL_PROG_LIKE:
			return launch_rows_of<GlLikeRowMatcher>(l, kp, chunk_list, list_len, max_listed,
													result);
		case GL_PROG_MULTI:
			return launch_rows_of<GlMultiRowMatcher>(l, kp, chunk_list, list_len, max_listed,
													 result);
		case GL_PROG_DFA:
			return launch_rows_of<GlDfaRowMatcher>(l, kp, chunk_list, list_len, max_listed,
												   result);
	}
	return gl_cuda_fail("unknown program kind", l->errbuf, l->errlen);
}

__global__ static void
mask_nulls_kernel(uint32_t *result, const uint32_t *__restrict__ nulls, uint64_t nwords)
{
	uint64_t	w = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;

	if (w < nwords)
		result[w] &= ~nulls[w];
}

bool
gl_launch_mask_nulls(const GlLaunch *l, uint32_t *result)
{
	uint64_t	nwords = (l->dcol->nrows + 31) / 32;
	uint64_t	blocks = (nwords + 255) / 256;

	mask_nulls_kernel<<<(unsigned) blocks, 256, 0, l->stream>>>(result, l->dcol->nulls, nwords);
	return gl_cuda_ok(cudaGetLastError(), "launching the NULL mask kernel", l->errbuf, l->errlen);
}
