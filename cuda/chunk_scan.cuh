/*-------------------------------------------------------------------------
 *
 * chunk_scan.cuh
 *	  Streaming a byte automaton over a thread's 256-byte chunk, recording
 *	  where it reported hits, and turning hit positions into rows.
 *
 * Used by the Aho–Corasick skim (kernels_skim.cu) and the
 * stream kernels (kernels_stream.cu: the byte DFA of any program).  An
 * automaton A has one operation,
 *
 *		state = a.step(state, part, k, hits)
 *
 * on byte k (0..3, a constant after unrolling) of the 32-bit word part of
 * the text -- the word, not the byte, so that an automaton may take the
 * byte with a byte permute of its own -- which also shifts one bit into
 * hits: 1 when this byte completed a hit, taken with one funnel shift.
 * Automata shift towards bit 31 or towards bit 0, whichever their entry
 * makes one instruction; a.hit_word() puts a finished word of 32 bytes
 * into the common order.  A chunk is read as four 64-byte slices through
 * the warp's coalescing stage (kernels_common.cuh), the next slice in
 * flight while the current one is stepped; the slice loop is unrolled so
 * the eight 32-bit hit words stay in registers: hits[g] holds bytes
 * g * 32 .. g * 32 + 31, the first of them in bit 31.
 *
 * From a hit position to its row: the chunk index gives the row holding
 * the chunk's first byte, and the row of byte p is that row plus the
 * number of 0x00 separators before p in the chunk.  gl_resolve_hits()
 * re-reads the chunk (it was just read: L1/L2 hits), counts separators
 * 4 bytes at a time with a bit trick and __popc, and sets one result bit
 * per hit.  Replaying the automaton is never needed.  Only threads with a
 * hit run it, so it costs nothing for selective patterns and one more
 * read of the chunk for the rest.  It is inlined, with the hit words
 * indexed by constants only, so they never leave registers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CHUNK_SCAN_CUH
#define GPULIKE_CHUNK_SCAN_CUH

#include "kernels_common.cuh"

constexpr int GL_HIT_WORDS = GL_DEV_CHUNK_BYTES / 32;

/* Bit 31 of entry appended to hits. */
__device__ __forceinline__ uint32_t
gl_shift_in_hit(uint32_t hits, uint32_t entry)
{
	return __funnelshift_l(entry, hits, 1);
}

template <class A>
__device__ __forceinline__ uint32_t
gl_scan_word(const A &a, uint32_t state, const uint4 &word, uint32_t &hits)
{
	uint32_t	parts[4] = {word.x, word.y, word.z, word.w};

#pragma unroll
	for (int k = 0; k < 16; k++)
		state = a.step(state, parts[k / 4], k % 4, hits);
	return state;
}

/*
 * Step the chunk of this lane, warp_first + lane * stride (zeros past
 * nchunks; every lane of the warp must call this, for the stage of
 * Buffers slice buffers).  Returns the state after the chunk's last byte.
 *
 * Each slice's copy is started while the slice before it is stepped; the
 * first one waits.  (Starting the next chunk's first slice during this
 * chunk's last was slower, 0.99 against 0.86 ms on the H200 for
 * '%special%requests%'.)
 */
template <int Buffers, class A>
__device__ __forceinline__ uint32_t
gl_scan_chunk(const A &a, uint32_t state, const uint8_t *__restrict__ data, uint64_t warp_first,
			  uint32_t stride, uint64_t nchunks, uint4 *warp_stage, uint32_t hits[GL_HIT_WORDS])
{
	static_assert(Buffers == 1 || Buffers == 2, "a stage has one or two buffers");
	gl_stage_fetch(warp_stage, 0, data, warp_first, stride, nchunks, 0);
#pragma unroll
	for (uint32_t t = 0; t < GL_SLICES_PER_CHUNK; t++)
	{
		uint4		words[4];
		bool		more = t + 1 < GL_SLICES_PER_CHUNK;

		/* slice t is in buffer t % Buffers */
		if (Buffers == 2 && more)
		{
			gl_stage_fetch(warp_stage, (t + 1) % 2, data, warp_first, stride, nchunks, t + 1);
			gl_stage_read<1>(warp_stage, t % 2, words);
		}
		else
		{
			gl_stage_read<0>(warp_stage, t % Buffers, words);
			if (more)
				gl_stage_fetch(warp_stage, 0, data, warp_first, stride, nchunks, t + 1);
		}
		hits[2 * t] = 0;
		hits[2 * t + 1] = 0;
		state = gl_scan_word(a, state, words[0], hits[2 * t]);
		state = gl_scan_word(a, state, words[1], hits[2 * t]);
		state = gl_scan_word(a, state, words[2], hits[2 * t + 1]);
		state = gl_scan_word(a, state, words[3], hits[2 * t + 1]);
		hits[2 * t] = a.hit_word(hits[2 * t]);
		hits[2 * t + 1] = a.hit_word(hits[2 * t + 1]);
	}
	return state;
}

__device__ __forceinline__ bool
gl_any_hit(const uint32_t hits[GL_HIT_WORDS])
{
	uint32_t	any = 0;

#pragma unroll
	for (int g = 0; g < GL_HIT_WORDS; g++)
		any |= hits[g];
	return any != 0;
}

/*
 * Set the result bit of the row of every hit of a chunk (rows >= nrows,
 * the zero padding after the last row, are ignored), and of row
 * "first_row + separators in the chunk" when tail_hit (a row that started
 * in this chunk and was matched past its end).
 */
__device__ __forceinline__ void
gl_resolve_hits(const uint8_t *__restrict__ chunk_bytes, const uint32_t hits[GL_HIT_WORDS],
				bool tail_hit, uint32_t first_row, uint32_t nrows, uint32_t *result)
{
	const uint4 *words = reinterpret_cast<const uint4 *>(chunk_bytes);
	uint32_t	row = first_row;
	GlResultWriter out;

	out.init();
#pragma unroll
	for (int g = 0; g < GL_HIT_WORDS; g++)
	{
		uint4		a = __ldg(&words[2 * g]);
		uint4		b = __ldg(&words[2 * g + 1]);
		uint32_t	parts[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
		uint32_t	zeros = 0;
		uint32_t	h = hits[g];

#pragma unroll
		for (int i = 0; i < 8; i++)
			zeros |= gl_zero_bytes4(parts[i]) << (4 * i);
		while (h != 0)
		{
			uint32_t	p = __clz(h);	/* earliest hit: byte g * 32 + p */
			uint32_t	r = row + __popc(zeros & ((1u << p) - 1));

			h &= ~(0x80000000u >> p);
			if (r < nrows)
				out.set(result, r);
		}
		row += __popc(zeros);
	}
	if (tail_hit && row < nrows)
		out.set(result, row);
	out.flush(result);
}

#endif							/* GPULIKE_CHUNK_SCAN_CUH */
