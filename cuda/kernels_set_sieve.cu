/*-------------------------------------------------------------------------
 *
 * kernels_set_sieve.cu
 *	  The set sieve: the literals of a LIKE ANY list that are rare in the
 *	  column, found by a bigram filter at nearly the read bandwidth and
 *	  checked literal by literal, with no automaton.
 *
 * The stream kernel walks an Aho–Corasick automaton one dependent table
 * load a byte, and with hundreds of literals those loads bind it to the
 * shared memory's wavefronts (kernel_bench's "AC 200").  Where the
 * literals are rare in the text most positions need no automaton: the
 * set (kernel_prep/literal_set.h) gives each literal a bigram, and a
 * position whose pair of bytes has no literal's key cannot be where that
 * bigram of a literal stands.
 *
 *	- a warp reads 2 kB spans as the sieve does (four coalesced 16-byte
 *	  loads a lane in flight) and keeps each 512-byte step of it in
 *	  shared memory, its stage, where the checks read it, as the step's
 *	  turn comes;
 *	- lane L tests its 16 positions: the filter is 32 x 32 bits, a word a
 *	  lane, indexed by the low five bits of the two bytes: one shuffle
 *	  (the first byte picks the lane) and one funnel shift (the second
 *	  picks the bit) a position, no shared memory;
 *	- the lanes with candidates in a step are listed (one ballot) once
 *	  the next step is staged (a literal may end there), each with its
 *	  own 48 bytes of text (16 before its own, 16 after), its position
 *	  and its candidates, so that a listed lane outlives its span; with
 *	  32 listed, every lane takes one and checks its candidates against
 *	  the literals of their keys (a bucket load, the literal's 16 bytes
 *	  and mask, the text's 16 bytes: four masked compares), and only the
 *	  warp's last few are checked in a round of fewer than 32;
 *	- a literal that stands at a candidate lies within the candidate's row
 *	  (no literal holds 0x00), whose result bit is set: the row of the
 *	  candidate's chunk from the chunk index, plus the separators before
 *	  its 32-byte word there, plus those before it in the word.
 * A literal always holds its own bigram, so every occurrence is checked,
 * and a check compares every byte: the answer is exact.
 *
 * Candidates must be few.  The set is chosen where few of the sample's
 * pairs pass (kernel_prep/literal_set.cc), but the sample may miss a part of the
 * column full of them (adversarial text passes at every position).  So a
 * warp counts the lanes it lists, and past MAX_LISTED_PER_SPAN a span
 * (with some slack) it gives up: it zeroes give_up and stops.  give_up is
 * the stream kernel's ticket counter, set by the caller past every ticket
 * before this kernel; the stream kernel that follows on the same stream
 * (match.cu) then finds no ticket and ends at once, or, zeroed, walks the
 * whole column itself.  The bits set here before giving up are rows that
 * match, so they stand.  The other warps do not look at give_up (README,
 * variants not kept).
 *
 * Checking the candidates of literals common in the text costs more than
 * the stream kernel's walk (hence the choice on the sample), and one or
 * two literals the compact table walks faster: the set sieve is chosen
 * only before the wide and classed tables (kernel_bench's "AC 200 rare";
 * test/bench/results/h200-kernels/README.md, "Kernel design measurements").
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"
#include "kernels_common.cuh"
#include "kernel_prep/literal_set.h"

/*
 * Warps a block: as many as the device's shared memory holds beside the
 * tables, up to 32 (a Hopper or an A100 holds 32 or 24 of their 6 kB; an
 * sm_86 or sm_89, whose block has 99 kB at most, 14).  One block an SM.
 */
static const uint32_t SET_MAX_WARPS = 32;
static const uint32_t SET_LANE_BYTES = 16;
static const uint32_t SET_STEP_BYTES = 32 * SET_LANE_BYTES;
static const uint32_t SET_STEPS = 4;
static const uint32_t SET_SPAN_BYTES = SET_STEPS * SET_STEP_BYTES;
/* a warp's stage: its span and the 16 bytes after it */
static const uint32_t STAGE_BYTES = SET_SPAN_BYTES + 16;
/* a warp's listed lanes: fewer than 32 left, and up to 32 from a step */
static const uint32_t QUEUE_SLOTS = 64;

/*
 * A listed lane, whole in itself so that it outlives its span's stage and
 * every round of checks takes 32: the 48 bytes from 16 before the lane's
 * own to 16 after (every literal at a candidate lies there, and so does
 * the 32-byte word of the chunk index that holds it), the position of
 * its first byte and its candidates.
 */
typedef struct ListedLane
{
	uint4		text[3];
	unsigned long long at;
	uint32_t	cand;
	uint32_t	pad;
} ListedLane;
/* the literals' tables as shared memory holds them: GlLiteralSet from bucket to masks */
static const uint32_t TABLE_BYTES = sizeof(uint32_t) * (GL_SET_KEYS + GL_SET_MAX_LITERALS) +
	2 * sizeof(uint4) * GL_SET_MAX_LITERALS;
/* a warp's shared memory: its stage, then (after every warp's stage) its listed lanes */
static const uint32_t WARP_SHARED_BYTES = STAGE_BYTES + sizeof(ListedLane) * QUEUE_SLOTS;
/*
 * Give up past this many listed lanes a span, on average over the warp's
 * spans, after LISTED_SLACK more: about 2% of positions passing, where
 * checking them costs about what the stream kernel's walk does.
 */
static const uint32_t MAX_LISTED_PER_SPAN = 32;
static const uint32_t LISTED_SLACK = 512;

static_assert(offsetof(GlLiteralSet, masks) + sizeof(uint4) * GL_SET_MAX_LITERALS -
			  offsetof(GlLiteralSet, bucket) == TABLE_BYTES,
			  "the set's tables lie together, bucket to masks");
static_assert(SET_SPAN_BYTES % 32 == 0, "a span holds whole 32-byte words of the chunk index");

typedef struct SetTables
{
	const uint32_t *bucket;
	const uint32_t *entry;
	const uint4 *bytes;
	const uint4 *masks;
} SetTables;

/* The 16 bytes from byte o (0 to 32) of a listed lane's text, as four words. */
__device__ __forceinline__ void
window_at(const uint32_t *w, uint32_t o, uint32_t out[4])
{
#pragma unroll
	for (int i = 0; i < 4; i++)
		out[i] = __funnelshift_r(w[o / 4 + i], w[o / 4 + i + 1], (o & 3) * 8);
}

/* Does a literal whose bigram has the key of candidate k (0..15) of l stand there? */
__device__ __forceinline__ bool
literal_at(const ListedLane *l, uint32_t k, const SetTables &t)
{
	const uint32_t *w = reinterpret_cast<const uint32_t *>(l->text);
	uint32_t	p = 16 + k;
	uint32_t	pair = __funnelshift_r(w[p / 4], w[p / 4 + 1], (p & 3) * 8);
	uint32_t	bucket = t.bucket[(pair & 31) << 5 | ((pair >> 8) & 31)];
	uint32_t	count = bucket >> 24;

	for (uint32_t i = 0; i < count; i++)
	{
		uint32_t	e = count == 1 ? bucket & 0xFFFFFF : t.entry[(bucket & 0xFFFFFF) + i];
		uint4		lit = t.bytes[e >> 16];
		uint4		mask = t.masks[e >> 16];
		uint32_t	text[4];

		window_at(w, p - (e & 0xFF), text);
		if ((((text[0] & mask.x) ^ lit.x) | ((text[1] & mask.y) ^ lit.y) |
			 ((text[2] & mask.z) ^ lit.z) | ((text[3] & mask.w) ^ lit.w)) == 0)
			return true;
	}
	return false;
}

/*
 * The row of candidate k of l: its chunk's row, the separators before its
 * 32-byte word in the chunk (the chunk index), and those before it in the
 * word (which l's text holds from byte 0 or 16).
 */
__device__ __forceinline__ uint32_t
row_at(const GlChunkIndex *__restrict__ chunks, const ListedLane *l, uint32_t k)
{
	uint64_t	pos = l->at + k;
	uint4		entry = __ldg(reinterpret_cast<const uint4 *>(&chunks[pos / GL_DEV_CHUNK_BYTES]));
	const uint32_t *word = reinterpret_cast<const uint32_t *>(l->text) +
		(uint32_t) ((pos & ~31ull) + 16 - l->at) / 4;
	uint32_t	before = pos & 31;
	uint32_t	row = entry.x + gl_zeros_before_word(entry, pos % GL_DEV_CHUNK_BYTES / 32);

#pragma unroll
	for (uint32_t i = 0; i < 8; i++)
	{
		int32_t		left = (int32_t) before - 4 * (int32_t) i;
		uint32_t	mask = left >= 4 ? 0xFFFFFFFFu : left <= 0 ? 0 : (1u << (8 * left)) - 1;

		row += __popc(gl_zero_byte_flags(word[i]) & mask);
	}
	return row;
}

__global__ static void __launch_bounds__(SET_MAX_WARPS * 32, 1)
set_sieve_kernel(const uint8_t *__restrict__ data, uint64_t limit,
				 const GlChunkIndex *__restrict__ chunks, uint32_t nrows,
				 __grid_constant__ const GlLiteralSet set, uint32_t *give_up, uint32_t *result)
{
	extern __shared__ __align__(16) uint32_t set_shared[];
	uint32_t	lane = threadIdx.x % 32;
	uint64_t	warp = (blockIdx.x * (uint64_t) blockDim.x + threadIdx.x) / 32;
	uint64_t	nwarps = (uint64_t) gridDim.x * blockDim.x / 32;
	uint32_t	filter = set.filter[lane];
	SetTables	t = {set_shared, set_shared + GL_SET_KEYS,
		reinterpret_cast<const uint4 *>(set_shared + GL_SET_KEYS + GL_SET_MAX_LITERALS),
	reinterpret_cast<const uint4 *>(set_shared + GL_SET_KEYS + GL_SET_MAX_LITERALS) +
	GL_SET_MAX_LITERALS};
	uint32_t   *stage = set_shared + (TABLE_BYTES + threadIdx.x / 32 * STAGE_BYTES) / 4;
	ListedLane *queue = reinterpret_cast<ListedLane *>(set_shared + (TABLE_BYTES + blockDim.x / 32 *
																	 STAGE_BYTES) / 4) +
		threadIdx.x / 32 * QUEUE_SLOTS;
	uint32_t	queued = 0;
	uint32_t	listed = 0;
	uint32_t	spans = 0;

	/* check the candidates of one listed lane */
	auto		check = [&](const ListedLane *l) {
		for (uint32_t c = l->cand; c != 0; c &= c - 1)
			if (literal_at(l, __ffs(c) - 1, t))
				gl_set_row(result, row_at(chunks, l, __ffs(c) - 1), nrows);
	};

	for (uint32_t i = threadIdx.x; i < TABLE_BYTES / 4; i += blockDim.x)
		set_shared[i] = reinterpret_cast<const uint32_t *>(&set.bucket)[i];
	__syncthreads();

	for (uint64_t span = warp * SET_SPAN_BYTES; span < limit; span += nwarps * SET_SPAN_BYTES)
	{
		uint4		own[SET_STEPS];
		uint4		after = make_uint4(0, 0, 0, 0);
		uint32_t	pending = 0;	/* the lane's candidates in the step before */
		uint32_t	pending_rel = 0;	/* where that step's 16 bytes of the lane are */

		/*
		 * List the lanes with candidates in the step before, their text
		 * from the stage (which now holds the 16 bytes after them too), and
		 * check 32 when there are.
		 */
		auto		list_pending = [&]() {
			const uint4 *staged = reinterpret_cast<const uint4 *>(stage);
			uint32_t	listing = __ballot_sync(0xFFFFFFFF, pending != 0);

			if (pending != 0)
			{
				ListedLane *l = &queue[queued + __popc(listing & ((1u << lane) - 1))];

				l->text[0] = pending_rel >= 16 ? staged[pending_rel / 16 - 1] :
					span >= 16 ? gl_load16(data + span - 16) : make_uint4(0, 0, 0, 0);
				l->text[1] = staged[pending_rel / 16];
				l->text[2] = staged[pending_rel / 16 + 1];
				l->at = span + pending_rel;
				l->cand = pending;
			}
			queued += __popc(listing);
			listed += __popc(listing);
			__syncwarp();
			if (queued >= 32)
			{
				check(&queue[queued - 32 + lane]);
				__syncwarp();
				queued -= 32;
			}
		};

#pragma unroll
		for (uint32_t u = 0; u < SET_STEPS; u++)
			own[u] = gl_load16_below(data, span + u * SET_STEP_BYTES + lane * SET_LANE_BYTES,
									 limit);
		if (lane == 0)
			after = gl_load16_below(data, span + SET_SPAN_BYTES, limit);

#pragma unroll
		for (uint32_t u = 0; u < SET_STEPS; u++)
		{
			uint32_t	v[5] = {own[u].x, own[u].y, own[u].z, own[u].w, 0};
			uint32_t	next_lane = __shfl_sync(0xFFFFFFFF, own[u].x, (lane + 1) % 32);
			uint32_t	next_step = __shfl_sync(0xFFFFFFFF, u + 1 < SET_STEPS ?
												own[u + 1 < SET_STEPS ? u + 1 : u].x : after.x, 0);
			uint32_t	cand = 0;

			/*
			 * The step goes to the stage as its turn comes, not the span at
			 * once, so its test waits for its own loads alone; the lanes of
			 * the step before are listed once it is there.
			 */
			reinterpret_cast<uint4 *>(stage)[u * 32 + lane] = own[u];
			__syncwarp();
			list_pending();
			v[4] = lane < 31 ? next_lane : next_step;
#pragma unroll
			for (uint32_t k = 0; k < SET_LANE_BYTES; k++)
			{
				uint32_t	first = v[k / 4] >> (8 * (k % 4));
				uint32_t	second = k % 4 < 3 ? v[k / 4] >> (8 * (k % 4 + 1)) : v[k / 4 + 1];
				uint32_t	row = __shfl_sync(0xFFFFFFFF, filter, first);

				cand |= (__funnelshift_r(row, row, second) & 1) << k;
			}
			pending = cand;
			pending_rel = u * SET_STEP_BYTES + lane * SET_LANE_BYTES;
		}
		if (lane == 0)
			reinterpret_cast<uint4 *>(stage)[SET_SPAN_BYTES / 16] = after;
		__syncwarp();
		list_pending();

		spans++;
		if (listed > spans * MAX_LISTED_PER_SPAN + LISTED_SLACK)
		{
			if (lane == 0)
				atomicExch(give_up, 0);
			return;
		}
	}
	/* the warp's last few */
	if (lane < queued)
		check(&queue[lane]);
}

bool
gl_launch_set_sieve(const GlLaunch *l, const GlLiteralSet *set, uint32_t *give_up,
					uint32_t *result)
{
	const GlDeviceColumn *dcol = l->dcol;
	uint64_t	limit = dcol->nchunks * GL_DEV_CHUNK_BYTES;
	uint64_t	threads = (limit + SET_SPAN_BYTES - 1) / SET_SPAN_BYTES * 32;
	uint32_t	warps;
	uint32_t	shared;
	unsigned	grid;

	if (l->shared_limit < TABLE_BYTES + WARP_SHARED_BYTES)
		return gl_cuda_fail("the set sieve's shared memory does not fit the device", l->errbuf,
							l->errlen);
	warps = (uint32_t) ((l->shared_limit - TABLE_BYTES) / WARP_SHARED_BYTES);
	if (warps > SET_MAX_WARPS)
		warps = SET_MAX_WARPS;
	shared = TABLE_BYTES + warps * WARP_SHARED_BYTES;
	if (!gl_resident_grid((const void *) set_sieve_kernel, warps * 32, shared, threads, l, &grid))
		return false;
	set_sieve_kernel<<<grid, warps * 32, shared, l->stream>>>
		(dcol->data, limit, dcol->chunks, (uint32_t) dcol->nrows, *set, give_up, result);
	return gl_cuda_ok(cudaGetLastError(), "launching the set sieve", l->errbuf, l->errlen);
}
