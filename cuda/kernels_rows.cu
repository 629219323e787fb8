/*-------------------------------------------------------------------------
 *
 * kernels_rows.cu
 *	  The row-stream kernel: exact per-row matching over the contiguous
 *	  stream (device_column.h), one thread per 256-byte chunk.
 *
 * A thread owns the rows that start inside its chunk.  The warp reads its
 * 32 chunks in coalesced slices (kernels_common.cuh); each lane feeds the
 * bytes of its own chunk to the row automaton (row_matchers.cuh), ignoring
 * the answer for the row already under way at the chunk's start (an
 * earlier thread owns it), and stops when a separator would start a row at
 * or past the chunk's end.  The row still open at the chunk's end is
 * followed to its separator with plain loads, however long it is: a row
 * longer than its chunk is simply finished by the thread that owns its
 * start.  In list mode (after a skim) the lanes' chunks are the listed
 * ones, not consecutive, and the stage gathers them just the same.  Rows
 * of one thread are consecutive, so result bits are gathered in a register
 * and written with one atomicOr per 32-row word.
 *
 * Bytes are taken from 32-bit groups with compile-time shifts, so nothing
 * is indexed dynamically and nothing spills to local memory; only four
 * copies of the per-byte step are inlined, and the rare paths (non-ASCII
 * characters) are out of line, which keeps the loop in the instruction
 * cache.  After the early exit of a row (matched, or dead) whole 4-byte
 * groups without a separator are skipped.
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "row_matchers.cuh"

static const int ROWS_BLOCK = 256;
static const uint32_t ROWS_STAGE_BYTES = (ROWS_BLOCK / 32) * GL_STAGE_BYTES_PER_WARP;

/* Byte k (0..15, known only at run time) of a 16-byte word. */
__device__ __forceinline__ uint32_t
byte_at(const uint4 &w, uint32_t k)
{
	uint32_t	word = (k < 4) ? w.x : (k < 8) ? w.y : (k < 12) ? w.z : w.w;

	return (word >> ((k & 3) * 8)) & 0xFF;
}

__device__ __forceinline__ bool
has_zero_byte(uint32_t w)
{
	return ((w - 0x01010101u) & ~w & 0x80808080u) != 0;
}

/* Where a thread is in its rows. */
struct RowCursor
{
	uint64_t	row_start;
	uint64_t	limit;			/* rows starting here or later are not ours */
	uint32_t	row;
	bool		discard;		/* the current row began in an earlier chunk */
	bool		stopped;
	uint32_t   *result;
	GlResultWriter out;
};

/*
 * Feed the byte at stream position at; a separator ends the row.  Once the
 * next row would start at or past the limit the cursor stops.
 */
template <class Matcher>
__device__ __forceinline__ void
feed(Matcher &m, RowCursor &c, uint32_t b, uint64_t at)
{
	if (b != 0)
	{
		if (!m.done)
			m.step(b);
		return;
	}
	if (!c.discard && m.finish((uint32_t) (at - c.row_start)))
		c.out.set(c.result, c.row);
	c.discard = false;
	c.row++;
	c.row_start = at + 1;
	if (c.row_start >= c.limit)
		c.stopped = true;
	else
		m.begin();
}

/*
 * Feed a 16-byte word starting at stream position at, as four 32-bit
 * groups; a group without a separator is skipped outright once the row's
 * answer is known.
 */
template <class Matcher>
__device__ __forceinline__ void
feed_word(Matcher &m, RowCursor &c, uint4 word, uint64_t at)
{
#pragma unroll 1
	for (uint32_t q = 0; q < 4 && !c.stopped; q++)
	{
		uint32_t	group = word.x;

		word.x = word.y;
		word.y = word.z;
		word.z = word.w;
		if (m.done && !has_zero_byte(group))
			continue;
#pragma unroll
		for (int j = 0; j < 4; j++)
			if (!c.stopped)
				feed(m, c, (group >> (8 * j)) & 0xFF, at + q * 4 + j);
	}
}

template <class Matcher, bool InShared>
__global__ static void __launch_bounds__(ROWS_BLOCK)
rows_kernel(const uint8_t *__restrict__ data, uint64_t nbytes,
			const GlChunkIndex *__restrict__ chunks, uint64_t nchunks,
			const uint32_t *__restrict__ chunk_list, const uint32_t *list_len,
			GlKernelProgram kp, uint32_t *result)
{
	extern __shared__ uint4 rows_shared[];
	const GlProgram *prog =
		gl_block_program<InShared>((uint64_t *) (rows_shared + ROWS_STAGE_BYTES / 16),
								   kp.blob, kp.blob_bytes);
	uint32_t	lane = threadIdx.x % 32;
	uint64_t	i = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;
	uint64_t	nwork = chunk_list != NULL ? *list_len : nchunks;
	uint4	   *warp_stage = rows_shared + (threadIdx.x - lane) * GL_SLICE_PITCH16;
	bool		active = i < nwork;
	uint64_t	chunk = 0;
	uint64_t	chunk_start;
	uint4		pieces[4];
	RowCursor	c;
	Matcher		m;

	if (i - lane >= nwork)
		return;					/* the whole warp has nothing to do */
	if (active)
		chunk = chunk_list != NULL ? chunk_list[i] : i;
	chunk_start = chunk * GL_DEV_CHUNK_BYTES;
	c.limit = min(chunk_start + GL_DEV_CHUNK_BYTES, nbytes);
	c.row_start = chunk_start;
	c.result = result;
	c.out.init();
	c.stopped = !active;
	c.row = 0;
	c.discard = false;
	m.init(prog, kp.aux_off);
	m.begin();
	if (active)
	{
		GlChunkIndex where = chunks[chunk];

		/* A row already under way belongs to an earlier thread: just skip it. */
		c.row = where.row;
		c.discard = where.back != 0;
		if (c.discard)
			m.done = true;
	}

	/* The chunk itself, in coalesced slices. */
#pragma unroll
	for (int j = 0; j < 4; j++)
		pieces[j] = gl_stage_piece(data, chunk, active, 0, j);
#pragma unroll 1
	for (uint32_t t = 0; t < GL_SLICES_PER_CHUNK; t++)
	{
		uint4		words[4];

		gl_stage_exchange(warp_stage, pieces, words);
		if (t + 1 < GL_SLICES_PER_CHUNK)
		{
#pragma unroll
			for (int j = 0; j < 4; j++)
				pieces[j] = gl_stage_piece(data, chunk, active, t + 1, j);
		}
#pragma unroll 1
		for (int j = 0; j < 4; j++)
		{
			uint4		word = j == 0 ? words[0] : j == 1 ? words[1] : j == 2 ? words[2] : words[3];

			if (c.stopped)
				break;
			feed_word(m, c, word, chunk_start + t * GL_SLICE_BYTES + j * 16);
		}
	}

	/*
	 * Our last row runs on past the chunk: follow it to its separator.  (If
	 * the row open here is the skipped one, no row starts in this chunk.)
	 */
	for (uint64_t pos = chunk_start + GL_DEV_CHUNK_BYTES; !c.stopped && !c.discard; pos += 16)
		feed_word(m, c, gl_load16(data + pos), pos);
	c.out.flush(result);
}

template <class Matcher, bool InShared>
static bool
launch_rows_in(const GlLaunch *l, const GlKernelProgram *kp,
			   const uint32_t *chunk_list, const uint32_t *list_len, uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	blocks = (dcol->nchunks + ROWS_BLOCK - 1) / ROWS_BLOCK;
	uint32_t	shared = ROWS_STAGE_BYTES + (InShared ? kp->blob_bytes : 0);

	if (shared > 48 * 1024 &&
		!gl_cuda_ok(cudaFuncSetAttribute(rows_kernel<Matcher, InShared>,
										 cudaFuncAttributeMaxDynamicSharedMemorySize,
										 (int) shared),
					"cudaFuncSetAttribute (rows kernel)", l->errbuf, l->errlen))
		return false;
	rows_kernel<Matcher, InShared><<<(unsigned) blocks, ROWS_BLOCK, shared, l->stream>>>
		(dcol->data, dcol->nbytes, dcol->chunks, dcol->nchunks, chunk_list, list_len,
		 *kp, result);
	return gl_cuda_ok(cudaGetLastError(), "launching the rows kernel", l->errbuf, l->errlen);
}

template <class Matcher>
static bool
launch_rows_of(const GlLaunch *l, const GlKernelProgram *kp,
			   const uint32_t *chunk_list, const uint32_t *list_len, uint32_t *result)
{
	/* The stage and the program share the block's shared memory. */
	if (kp->in_shared && ROWS_STAGE_BYTES + kp->blob_bytes <= kp->shared_limit)
		return launch_rows_in<Matcher, true>(l, kp, chunk_list, list_len, result);
	return launch_rows_in<Matcher, false>(l, kp, chunk_list, list_len, result);
}

bool
gl_launch_rows(const GlLaunch *l, GlProgramKind kind, const GlKernelProgram *kp,
			   const uint32_t *chunk_list, const uint32_t *list_len, uint32_t *result)
{
	switch (kind)
	{
		case GL_PROG_LIKE:
			return launch_rows_of<GlLikeRowMatcher>(l, kp, chunk_list, list_len, result);
		case GL_PROG_MULTI:
			return launch_rows_of<GlMultiRowMatcher>(l, kp, chunk_list, list_len, result);
		case GL_PROG_DFA:
			return launch_rows_of<GlDfaRowMatcher>(l, kp, chunk_list, list_len, result);
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
