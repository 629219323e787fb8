/*-------------------------------------------------------------------------
 *
 * kernels_sieve.cu
 *	  The sieve: a literal run of a LIKE pattern found at memory speed,
 *	  four start positions per 32-bit instruction, with no table and no
 *	  automaton state.
 *
 * The run (kernels.h, GlSieve) is n pattern positions that accept ASCII
 * bytes only: a literal, an ILIKE pair such as s/S.  Three of them, i,
 * i + 1 and j = i + d, are the probes, chosen rare in text by
 * kernel_prep/program_prep.cc; each is a test (byte & mask) == value that every byte
 * its position accepts passes.  (A run that must start its row probes
 * the 0x00 separator before it as i = -1, so only row starts are
 * candidates; the column's first row, with no separator before it, is
 * verified apart.)  Every occurrence of the run has its probe-i byte at
 * some position q and the others at q + 1 and q + d, and the sieve looks
 * at every q of the column:
 *
 *	- a warp reads 512 contiguous bytes per step, 16 per lane, with plain
 *	  coalesced 16-byte loads, so every DRAM sector is used once and no
 *	  shared-memory stage is needed;
 *	- lane L tests the 16 positions q of its own bytes.  The bytes at
 *	  q + d come from its own words and the next lane's (one shuffle per
 *	  word; the warp's last lane gets the first word after the warp's
 *	  span, loaded by lane 0 with the rest);
 *	- with four bytes to a register, (w & mask) ^ value has a zero byte
 *	  exactly where the probe passes; the three probes' misses are ORed
 *	  and the zero bytes found with two instructions.  For the four
 *	  positions of a word that is about eight integer instructions, no
 *	  loads, no shared memory.
 *
 * The instruction budget is what limits the sieve: at the H200's 4.5 TB/s
 * the SMs issue about 7 instructions per byte of text.  Three probes ORed
 * before one zero test beat two tested separately (too many candidates to
 * verify in English-like text) and four (the scan itself issue-bound).
 * Figures for the choices in this file: test/bench/results/h200-kernels/
 * README.md, "Kernel design measurements" (kernel_bench's sieve classes).
 *
 * A candidate start p = q - i is verified against all n positions (their
 * accept bits, 1 KB in shared memory) and the run's anchors by reading the
 * bytes again (L1 hits), so the sieve's answer is exact.  Candidates are
 * few and fall unevenly on the lanes, so a warp that has any lists them
 * in shared memory and verifies them with all its lanes (verify_step()).
 * A run never contains 0x00, so a hit lies inside one row.
 *
 * Two outputs, as for the other skims:
 *	exact	the run with its anchors is the whole pattern ('abc', 'abc%',
 *			'%abc', '%abc%'): the row of each hit gets its result bit, the
 *			row found from the chunk index entry of the 512 bytes' first
 *			chunk and a warp scan of the lanes' separator counts;
 *	flags	any other LIKE pattern whose byte DFA is too large for the
 *			stream kernel: the chunk of a hit, and the chunk where that
 *			chunk's first row starts, are flagged for the rows pass over
 *			listed chunks (kernels_rows.cu).
 *
 * The probe gap d is a template constant in whole words (d / 4) so the
 * window of eight words is indexed with constants only and stays in
 * registers; d % 4 is a funnel shift.  (Probing any three positions would
 * need a template per gap: hence i + 1.)
 *
 * The window form.  A short run common in text ('%final%' is in one
 * comment row in twenty) makes a candidate in nearly every other step,
 * and listing and verifying them cost more than the scan.  An exact run
 * of up to GL_SIEVE_MAX_WINDOW bytes, with the separators of its anchors,
 * can instead be compared whole in registers: byte o of the window is
 * tested with its exact mask test on the words shifted by o bytes, the
 * misses ORed as for the probes -- about two instructions per byte of the
 * window for four positions -- and a position with no miss is a hit,
 * with nothing left to verify.  The lane of a hit finds its row from the
 * chunk index and the separators below the hit.  The window's width is a
 * template constant, so every shift is a constant too.
 *
 * Comparing the whole window at every position cost more than three
 * probes where the run is rare ('%zebra%'), so the window too is probed
 * first -- its first two bytes and its last one, whose shifts are
 * constants as well -- and compared whole only in the steps where some
 * lane has a candidate.
 *
 * There the SMs' integer pipe is the limit (Nsight Compute, '%final%'),
 * so a step with hits does as little as it can: the probes' misses are
 * kept and only the window's other bytes are added; a lane's row comes
 * from the chunk index's separator counts, not from a warp scan; each hit
 * sets its bit with an atomicOr of its own; only the words a lane's
 * window reaches are shuffled; a step whose probes pass somewhere goes on
 * to the hits without a second vote; and the chunk index entries of its
 * rows come with the span's text (load_span()).  Other forms were slower
 * (test/bench/results/h200-kernels/README.md, variants not kept).
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "kernels_common.cuh"

static const int SIEVE_BLOCK = 256;
static const uint32_t SIEVE_LANE_BYTES = 16;
static const uint32_t SIEVE_STEP_BYTES = 32 * SIEVE_LANE_BYTES;
/*
 * Steps a warp loads at once: four 512-byte loads in flight per lane
 * (two and eight were not kept: README, variants not kept).
 */
static const int SIEVE_UNROLL = 4;
static const uint32_t SIEVE_SPAN_BYTES = SIEVE_UNROLL * SIEVE_STEP_BYTES;

/*
 * The probes' misses at the lane's 16 positions, one byte per position:
 * 0 where all three pass.  ORing the misses first leaves one zero-byte
 * test per word; this is the whole cost of a byte of text that is not a
 * candidate, so it is kept to a few instructions per word.
 */
template <int GapWords>
__device__ __forceinline__ void
probe_window(const uint4 &own, const uint4 &next, const GlSieve &sv, uint32_t gap_shift,
			 uint32_t miss[4])
{
	uint32_t	w[8] = {own.x, own.y, own.z, own.w, next.x, next.y, next.z, next.w};

#pragma unroll
	for (int g = 0; g < 4; g++)
	{
		uint32_t	at_next = __funnelshift_r(w[g], w[g + 1], 8);
		uint32_t	at_gap = __funnelshift_r(w[g + GapWords], w[g + GapWords + 1], gap_shift);

		miss[g] = ((w[g] & sv.probe_mask[0]) ^ sv.probe_value[0]) |
			((at_next & sv.probe_mask[1]) ^ sv.probe_value[1]) |
			((at_gap & sv.probe_mask[2]) ^ sv.probe_value[2]);
	}
}

/*
 * Does the run (and its anchors) occur at p?  Bytes past limit never
 * match.  The bytes are loaded four at a time before they are tested, so
 * a verification waits for one load latency per four positions, not one
 * per position.
 */
__device__ static bool
verify(const uint8_t *__restrict__ data, int64_t p, uint64_t limit, const GlSieve &sv,
	   const uint64_t *accept)
{
	if (p < 0 || (uint64_t) p + sv.nchars >= limit)
		return false;
	if (sv.anchored_start && p > 0 && data[p - 1] != 0)
		return false;
	if (sv.anchored_end && data[p + sv.nchars] != 0)
		return false;
	for (uint32_t t = 0; t < sv.nchars; t += 4)
	{
		uint32_t	b[4];

#pragma unroll
		for (int k = 0; k < 4; k++)
			b[k] = t + k < sv.nchars ? data[p + t + k] : 0;
#pragma unroll
		for (int k = 0; k < 4; k++)
			if (t + k < sv.nchars && (b[k] >= 128 || ((accept[b[k]] >> (t + k)) & 1) == 0))
				return false;
	}
	return true;
}

/* The run's accept bits into the block's shared memory (every thread calls it). */
__device__ static void
share_accept(uint64_t *accept, const GlSieve &sv)
{
	for (uint32_t b = threadIdx.x; b < 128; b += blockDim.x)
		accept[b] = sv.accept[b];
	__syncthreads();
}

/*
 * The column's first row has no separator before it, so neither the
 * separator probe nor a window starting with the separator sees a run
 * anchored at its start: one thread checks it apart.
 */
__device__ static void
check_first_row(const uint8_t *__restrict__ data, uint64_t limit, uint32_t nrows,
				const GlSieve &sv, const uint64_t *accept, uint32_t *result)
{
	if (sv.anchored_start && blockIdx.x == 0 && threadIdx.x == 0 && nrows > 0 &&
		verify(data, 0, limit, sv, accept))
		atomicOr(&result[0], 1u);
}

/*
 * The row holding the lane's first byte in a step, from its chunk's index
 * entry: the row of the chunk's first byte plus the separators of the
 * chunk's 32-byte words before the lane's; plus, for a lane that holds
 * the second half of a word, the separators of the lane before it
 * (separators: each lane's own).  Every lane of the warp calls it.
 */
__device__ __forceinline__ uint32_t
row_from_entry(const uint4 &entry, uint32_t word, uint32_t separators)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	first_half = __shfl_xor_sync(0xFFFFFFFF, separators, 1);
	uint32_t	row = entry.x + gl_zeros_before_word(entry, word);

	static_assert(2 * SIEVE_LANE_BYTES == GL_DEV_CHUNK_BYTES / GL_DEV_CHUNK_WORDS,
				  "two lanes make one word of the chunk index");
	return lane % 2 == 1 ? row + first_half : row;
}

/*
 * The probe sieve's: the entry loaded here (one 16-byte load), in the
 * steps with candidates alone, which are rare.
 */
__device__ __forceinline__ uint32_t
lane_first_row(const GlChunkIndex *__restrict__ chunks, uint64_t limit, uint64_t step,
			   uint32_t separators)
{
	uint64_t	at = step + threadIdx.x % 32 * SIEVE_LANE_BYTES;
	uint4		entry = make_uint4(0, 0, 0, 0);

	if (at < limit)
		entry = __ldg(reinterpret_cast<const uint4 *>(&chunks[at / GL_DEV_CHUNK_BYTES]));
	return row_from_entry(entry, at % GL_DEV_CHUNK_BYTES / 32, separators);
}

/*
 * The window sieve's: the entry of the lane's chunk in step u, from the
 * lane of the span that loaded it with the text (SieveSpan), by three
 * shuffles.  Where a short run is common half the steps have hits, and
 * the entry's load, waited on at once, took many of the warps' stalls
 * ('%final%', Nsight Compute).
 */
__device__ __forceinline__ uint32_t
lane_first_row_of_span(const uint4 &entries, int u, uint32_t separators)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	holder = (u * SIEVE_STEP_BYTES + lane * SIEVE_LANE_BYTES) / GL_DEV_CHUNK_BYTES;
	uint4		entry;

	entry.x = __shfl_sync(0xFFFFFFFF, entries.x, holder);
	entry.y = 0;
	entry.z = __shfl_sync(0xFFFFFFFF, entries.z, holder);
	entry.w = __shfl_sync(0xFFFFFFFF, entries.w, holder);
	return row_from_entry(entry, lane * SIEVE_LANE_BYTES % GL_DEV_CHUNK_BYTES / 32, separators);
}

/* Some position of the lane may have no miss (exact as to whether any). */
__device__ __forceinline__ bool
any_passes(const uint32_t miss[4])
{
	uint32_t	any = 0;

#pragma unroll
	for (int g = 0; g < 4; g++)
		any |= gl_maybe_zero_bytes(miss[g]);
	return any != 0;
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

/* Per warp: the step's candidates, and where its lanes are among the rows. */
typedef struct SieveWarpScratch
{
	uint16_t	candidates[SIEVE_STEP_BYTES];	/* offsets in the step */
	uint32_t	lane_row[32];	/* row holding each lane's first byte */
	uint32_t	lane_zeros[32]; /* bit k: the lane's byte k is a separator */
} SieveWarpScratch;

/*
 * Verify the candidates of one 512-byte step (bit k of cand: the run's
 * probe-i byte may be the lane's byte k) with the whole warp.  They are
 * few and unevenly spread over the lanes, so each lane checking its own
 * would leave most of the warp idle: instead they are listed in shared
 * memory (a warp scan of the counts gives each lane its place) and the
 * lanes take them in turn.  A hit's row is the row at its lane's first
 * byte (lane_first_row()) plus the separators before it in its lane.
 */
template <bool Exact>
__device__ static void
verify_step(uint32_t cand, const uint4 &own, uint64_t step,
			const uint8_t *__restrict__ data, uint64_t limit, const GlSieve &sv,
			const uint64_t *accept, SieveWarpScratch *ws, const GlChunkIndex *chunks,
			uint32_t nrows, uint8_t *flags, uint32_t *result)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	count = __popc(cand);
	uint32_t	upto = gl_warp_inclusive_sum(count);
	uint32_t	total = __shfl_sync(0xFFFFFFFF, upto, 31);
	for (uint32_t i = upto - count; cand != 0; cand &= cand - 1, i++)
		ws->candidates[i] = (uint16_t) (lane * SIEVE_LANE_BYTES + __ffs(cand) - 1);
	if (Exact)
	{
		uint32_t	zeros = gl_zero_bytes4(own.x) | gl_zero_bytes4(own.y) << 4 |
			gl_zero_bytes4(own.z) << 8 | gl_zero_bytes4(own.w) << 12;

		ws->lane_row[lane] = lane_first_row(chunks, limit, step, __popc(zeros));
		ws->lane_zeros[lane] = zeros;
	}
	__syncwarp();
	for (uint32_t i = lane; i < total; i += 32)
	{
		uint32_t	off = ws->candidates[i];

		if (!verify(data, (int64_t) (step + off) - sv.probe_pos, limit, sv, accept))
			continue;
		if (Exact)
		{
			uint32_t	owner = off / SIEVE_LANE_BYTES;
			uint32_t	below = (1u << (off % SIEVE_LANE_BYTES)) - 1;
			/* the separator probe (probe_pos -1) ends the row before the hit's */
			uint32_t	row = ws->lane_row[owner] + __popc(ws->lane_zeros[owner] & below) +
				(sv.probe_pos < 0);

			gl_set_row(result, row, nrows);
		}
		else
			flag_chunk((step + off) / GL_DEV_CHUNK_BYTES, chunks, flags);
	}
	__syncwarp();				/* the scratch is reused by the next step */
}

/*
 * What a warp's span of SIEVE_UNROLL steps reads, loaded up front so that
 * no step waits inside: the lane's 16 bytes of each step and the 16 bytes
 * after the span (lane 0); for the window sieve (Entries), the index
 * entries of the span's eight chunks too, one a lane of lanes 0-7: one
 * 128-byte line, which arrives with the text, so a step with hits waits
 * on no load of its own: '%final%' gains more than the rarer runs lose
 * (kernel_bench).
 */
typedef struct SieveSpan
{
	uint4		own[SIEVE_UNROLL];
	uint4		after;
	uint4		entries;		/* Entries, lane i < 8: the span's chunk i's entry */
} SieveSpan;

static_assert(SIEVE_SPAN_BYTES / GL_DEV_CHUNK_BYTES <= 32, "a lane of the warp holds each entry");

template <bool Entries>
__device__ __forceinline__ void
load_span(const uint8_t *__restrict__ data, const GlChunkIndex *__restrict__ chunks,
		  uint64_t limit, uint64_t span, SieveSpan *s)
{
	uint32_t	lane = threadIdx.x % 32;
	const uint4 *entries = reinterpret_cast<const uint4 *>(chunks + span / GL_DEV_CHUNK_BYTES);
	bool		has_entry = lane < SIEVE_SPAN_BYTES / GL_DEV_CHUNK_BYTES;

	/*
	 * A span wholly inside the column, every one but its last: one address
	 * and constant offsets, no bounds to test (the warp takes one branch).
	 * The 64-bit positions and compares of the tested loads cost the
	 * integer pipe a dozen instructions a span (kernel_bench).
	 */
	if (span + SIEVE_SPAN_BYTES + SIEVE_LANE_BYTES <= limit)
	{
		const uint4 *own = reinterpret_cast<const uint4 *>(data + span) + lane;

#pragma unroll
		for (int u = 0; u < SIEVE_UNROLL; u++)
			s->own[u] = __ldg(own + u * 32);
		s->after = lane == 0 ? __ldg(own + SIEVE_UNROLL * 32) : make_uint4(0, 0, 0, 0);
		if (Entries)
			s->entries = has_entry ? __ldg(entries + lane) : make_uint4(0, 0, 0, 0);
		return;
	}
#pragma unroll
	for (int u = 0; u < SIEVE_UNROLL; u++)
	{
		uint64_t	at = span + u * SIEVE_STEP_BYTES + lane * SIEVE_LANE_BYTES;

		s->own[u] = gl_load16_below(data, at, limit);
	}
	s->after = lane == 0 ? gl_load16_below(data, span + SIEVE_SPAN_BYTES, limit) :
		make_uint4(0, 0, 0, 0);
	if (Entries)
		s->entries = has_entry && span + lane * GL_DEV_CHUNK_BYTES < limit ?
			__ldg(entries + lane) : make_uint4(0, 0, 0, 0);
}

/*
 * The first Words of the four 32-bit words after the lane's own 16 bytes
 * in step u: lane L + 1's, or those after the step.  The rest are left 0:
 * the probes and windows that reach fewer words shuffle only those.
 */
template <int Words>
__device__ __forceinline__ uint4
next_words(const SieveSpan &s, int u)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	from = (lane + 1) % 32;
	uint4		v = lane == 0 ? (u + 1 < SIEVE_UNROLL ? s.own[u + 1] : s.after) : s.own[u];
	uint4		next = make_uint4(0, 0, 0, 0);

	static_assert(Words >= 1 && Words <= 4, "the next lane holds four words");
	next.x = __shfl_sync(0xFFFFFFFF, v.x, from);
	if (Words > 1)
		next.y = __shfl_sync(0xFFFFFFFF, v.y, from);
	if (Words > 2)
		next.z = __shfl_sync(0xFFFFFFFF, v.z, from);
	if (Words > 3)
		next.w = __shfl_sync(0xFFFFFFFF, v.w, from);
	return next;
}

template <int GapWords, bool Exact>
__global__ static void __launch_bounds__(SIEVE_BLOCK)
sieve_kernel(const uint8_t *__restrict__ data, uint64_t limit,
			 const GlChunkIndex *__restrict__ chunks, uint32_t nrows, GlSieve sv,
			 uint8_t *flags, uint32_t *result)
{
	__shared__ uint64_t accept[128];
	__shared__ SieveWarpScratch scratch[SIEVE_BLOCK / 32];
	uint64_t	warp = (blockIdx.x * (uint64_t) blockDim.x + threadIdx.x) / 32;
	uint64_t	nwarps = (uint64_t) gridDim.x * blockDim.x / 32;
	uint32_t	gap_shift = 8 * (sv.probe_gap % 4);

	share_accept(accept, sv);
	if (Exact)
		check_first_row(data, limit, nrows, sv, accept, result);

	for (uint64_t span = warp * SIEVE_SPAN_BYTES; span < limit;
		 span += nwarps * SIEVE_SPAN_BYTES)
	{
		SieveSpan	sp;

		load_span<false>(data, chunks, limit, span, &sp);
#pragma unroll
		for (int u = 0; u < SIEVE_UNROLL; u++)
		{
			uint64_t	step = span + u * SIEVE_STEP_BYTES;
			uint32_t	miss[4];

			probe_window<GapWords>(sp.own[u], next_words<GapWords + 1>(sp, u), sv, gap_shift,
								   miss);
			if (__ballot_sync(0xFFFFFFFF, any_passes(miss)) != 0)
			{
				uint32_t	cand = 0;

#pragma unroll
				for (int g = 0; g < 4; g++)
					cand |= gl_gather_byte_flags(gl_maybe_zero_bytes(miss[g])) << (4 * g);
				verify_step<Exact>(cand, sp.own[u], step, data, limit, sv, accept,
								   &scratch[threadIdx.x / 32], chunks, nrows, flags, result);
			}
		}
	}
}

/* Which of the window's bytes window_misses() tests. */
typedef enum WindowBytes
{
	WINDOW_PROBES,				/* its first two and its last */
	WINDOW_OTHERS				/* the bytes in between */
} WindowBytes;

/*
 * Add the misses of some of the window's bytes at the lane's 16 positions
 * to miss, one byte per position: it stays 0 where all of them pass.
 * The probes and then the others leave 0 exactly where the whole window
 * does, so a step with candidates tests no byte twice.  Unless Masked
 * (every byte of the window is tested whole, as for a case-sensitive
 * LIKE), a byte's test is one three-input logical operation, not two:
 * the kernel is bound by the integer pipe where hits are common.
 */
template <int Window, bool Masked, WindowBytes Bytes>
__device__ __forceinline__ void
window_misses(const uint4 &own, const uint4 &next, const GlSieve &sv, uint32_t miss[4])
{
	uint32_t	w[8] = {own.x, own.y, own.z, own.w, next.x, next.y, next.z, next.w};

#pragma unroll
	for (int g = 0; g < 4; g++)
	{
#pragma unroll
		for (int o = 0; o < Window; o++)
		{
			/* the bytes o later than the word's four positions */
			uint32_t	at = o % 4 == 0 ? w[g + o / 4] :
				__funnelshift_r(w[g + o / 4], w[g + o / 4 + 1], 8 * (o % 4));
			bool		probe = o <= 1 || o == Window - 1;

			if (probe != (Bytes == WINDOW_PROBES))
				continue;
			if (Masked)
				miss[g] |= (at & sv.window_mask[o]) ^ sv.window_value[o];
			else
				miss[g] |= at ^ sv.window_value[o];
		}
	}
}

/*
 * The flags (0x80 in a byte) of the lane's four words in one word: byte
 * k of word g at bit 8k + g.  So a lane's hits are walked in one loop,
 * not one per word, a little faster ('%final%').
 */
__device__ __forceinline__ uint32_t
transpose_flags(const uint32_t flags[4])
{
	return flags[0] >> 7 | flags[1] >> 6 | flags[2] >> 5 | flags[3] >> 4;
}

/*
 * Set the result bits of the step's hits (hit[g]: 0x80 in the bytes of
 * word g where the window starts).  A hit's row is the row of its lane's
 * first byte (lane_first_row_of_span()) plus the separators before the
 * hit in its lane -- plus one when the window starts with the separator
 * before the run.  Every lane of the warp calls it.  A lane seldom has
 * more than one hit, so each is set with an atomicOr of its own, faster
 * than gathering a lane's bits per result word first ('%final%').
 */
__device__ static void
window_hits(const uint32_t hit[4], const uint4 &own, const uint4 &entries, int u,
			const GlSieve &sv, uint32_t nrows, uint32_t *result)
{
	uint32_t	flags[4] = {gl_zero_byte_flags(own.x), gl_zero_byte_flags(own.y),
		gl_zero_byte_flags(own.z), gl_zero_byte_flags(own.w)};
	uint32_t	zeros = transpose_flags(flags);
	uint32_t	row = lane_first_row_of_span(entries, u, __popc(zeros)) + sv.anchored_start;

	for (uint32_t h = transpose_flags(hit); h != 0; h &= h - 1)
	{
		/* the hit is byte k of word g; before it: words below g, and bytes below k of g */
		uint32_t	bit = __ffs(h) - 1;
		uint32_t	g = bit & 7;
		uint32_t	k = bit >> 3;
		uint32_t	before = ((1u << g) - 1) * 0x01010101u |
			((0x01010101u << g) & ((1u << (8 * k)) - 1));

		gl_set_row(result, row + __popc(zeros & before), nrows);
	}
}

template <int Window, bool Masked>
__global__ static void __launch_bounds__(SIEVE_BLOCK)
sieve_window_kernel(const uint8_t *__restrict__ data, uint64_t limit,
					const GlChunkIndex *__restrict__ chunks, uint32_t nrows, GlSieve sv,
					uint32_t *result)
{
	__shared__ uint64_t accept[128];
	uint64_t	warp = (blockIdx.x * (uint64_t) blockDim.x + threadIdx.x) / 32;
	uint64_t	nwarps = (uint64_t) gridDim.x * blockDim.x / 32;

	share_accept(accept, sv);
	check_first_row(data, limit, nrows, sv, accept, result);

	for (uint64_t span = warp * SIEVE_SPAN_BYTES; span < limit;
		 span += nwarps * SIEVE_SPAN_BYTES)
	{
		SieveSpan	sp;

		load_span<true>(data, chunks, limit, span, &sp);
#pragma unroll
		for (int u = 0; u < SIEVE_UNROLL; u++)
		{
			uint4		next = next_words<(Window + 2) / 4>(sp, u);
			uint32_t	miss[4] = {0, 0, 0, 0};
			uint32_t	hit[4];

			window_misses<Window, Masked, WINDOW_PROBES>(sp.own[u], next, sv, miss);
			if (__ballot_sync(0xFFFFFFFF, any_passes(miss)) == 0)
				continue;
			window_misses<Window, Masked, WINDOW_OTHERS>(sp.own[u], next, sv, miss);
#pragma unroll
			for (int g = 0; g < 4; g++)
				hit[g] = gl_zero_byte_flags(miss[g]);
			window_hits(hit, sp.own[u], sp.entries, u, sv, nrows, result);
		}
	}
}

template <int Window, bool Masked>
static bool
launch_sieve_window(const GlLaunch *l, const GlSieve *sv, uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	limit = dcol->nchunks * GL_DEV_CHUNK_BYTES;
	uint64_t	threads = (limit + SIEVE_SPAN_BYTES - 1) / SIEVE_SPAN_BYTES * 32;
	unsigned	grid;

	if (!gl_resident_grid((const void *) sieve_window_kernel<Window, Masked>, SIEVE_BLOCK, 0,
						  threads, l, &grid))
		return false;
	sieve_window_kernel<Window, Masked><<<grid, SIEVE_BLOCK, 0, l->stream>>>
		(dcol->data, limit, dcol->chunks, (uint32_t) dcol->nrows, *sv, result);
	return gl_cuda_ok(cudaGetLastError(), "launching the sieve", l->errbuf, l->errlen);
}

template <int GapWords>
static bool
launch_sieve_gap(const GlLaunch *l, const GlSieve *sv, bool exact, uint8_t *chunk_flags,
				 uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	const void *kernel = exact ? (const void *) sieve_kernel<GapWords, true> :
		(const void *) sieve_kernel<GapWords, false>;
	uint64_t	limit = dcol->nchunks * GL_DEV_CHUNK_BYTES;
	uint64_t	threads = (limit + SIEVE_SPAN_BYTES - 1) / SIEVE_SPAN_BYTES * 32;
	unsigned	grid;

	if (!gl_resident_grid(kernel, SIEVE_BLOCK, 0, threads, l, &grid))
		return false;
	if (exact)
		sieve_kernel<GapWords, true><<<grid, SIEVE_BLOCK, 0, l->stream>>>
			(dcol->data, limit, dcol->chunks, (uint32_t) dcol->nrows, *sv, NULL, result);
	else
		sieve_kernel<GapWords, false><<<grid, SIEVE_BLOCK, 0, l->stream>>>
			(dcol->data, limit, dcol->chunks, (uint32_t) dcol->nrows, *sv, chunk_flags, NULL);
	return gl_cuda_ok(cudaGetLastError(), "launching the sieve", l->errbuf, l->errlen);
}

/* The window kernel of sieve's width, Window or wider (a template each). */
template <int Window>
static bool
launch_sieve_window_of(const GlLaunch *l, const GlSieve *sieve, uint32_t *result)
{
	if (sieve->window == Window)
		return sieve->window_masked ? launch_sieve_window<Window, true>(l, sieve, result) :
			launch_sieve_window<Window, false>(l, sieve, result);
	if constexpr (Window < GL_SIEVE_MAX_WINDOW)
		return launch_sieve_window_of<Window + 1>(l, sieve, result);
	return gl_cuda_fail("sieve window out of range", l->errbuf, l->errlen);
}

bool
gl_launch_sieve(const GlLaunch *l, const GlSieve *sieve, bool exact, uint8_t *chunk_flags,
				uint32_t *result)
{
	if (exact && sieve->window > 0)
		return launch_sieve_window_of<2>(l, sieve, result);
	switch (sieve->probe_gap / 4)
	{
		case 0:
			return launch_sieve_gap<0>(l, sieve, exact, chunk_flags, result);
		case 1:
			return launch_sieve_gap<1>(l, sieve, exact, chunk_flags, result);
		case 2:
			return launch_sieve_gap<2>(l, sieve, exact, chunk_flags, result);
		case 3:
			return launch_sieve_gap<3>(l, sieve, exact, chunk_flags, result);
	}
	return gl_cuda_fail("sieve probe gap out of range", l->errbuf, l->errlen);
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
