/*
 * Probe (a study, not the extension's code; ready, not yet run): the
 * bigram filter with the verification it leaves, for kernel_bench's 200
 * literals -- does the pair beat the stream kernel's one table load a
 * byte (43-44% of the H200's read bandwidth)?  The filter alone
 * (FILTER_ONLY) is what call 8 measured with filter_probe.cu, folded in
 * here (`git show 0f7b001:` this directory's filter_probe.cu): the same
 * test a position, in 1024-thread blocks instead of 256, and the bigram
 * across each span's end tested too.
 *
 * Each warp reads 2 kB spans as the sieve does (four 16-byte loads a lane
 * in flight, lane 0 also the 16 bytes after the span); a lane tests its
 * 16 positions against the literals' rarest bigrams (a 32 x 32-bit table
 * on the bytes' low five bits, a word a lane: one shuffle and one funnel
 * shift a position).  A lane with candidates walks the windowed
 * Aho-Corasick table the engine builds (classed_table.cu, in shared
 * memory) from the longest literal's length before its first candidate
 * to as far after its last, from the root: every occurrence of a literal
 * holds its own rarest bigram, so it lies wholly inside some lane's
 * window, and a walk from the root reports nothing that is not there.
 * Entering MATCHED marks the position in a bitmap (one bit a byte); the
 * host checks, row by row, that the rows with a mark are exactly those
 * its own walk of the whole table matches.  Two ways to walk: each lane
 * its own window at once (LANE_WALKS: the lanes without one idle), or the
 * warp's windows listed in shared memory and walked 32 at a time
 * (QUEUED).  The host runs the same filter, windows and walks first
 * (emulate()), so the method is checked before the device checks the
 * CUDA.
 *
 * Printed: GB/s and % of a plain read in the same run, for the filter
 * alone and with the walks, the share of positions that pass and of the
 * text the walks step, and the rows' check.
 * Built from the repository's root, with test/kernels' objects
 * (make -s -C test/kernels CUDA_ARCHS=90):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -Itest/kernels -Isrc -Icuda \
 *     test/bench/results/h200-kernels/2026-11-28-bulk-copies/verify_probe.cu \
 *     test/kernels/build/engine/*.o $(find test/kernels/build/leaf -name '*.o') \
 *     -o verify_probe -lpthread
 */
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C"
{
#include "program/multi_build.h"
}
#include "classed_table.h"
#include "device_column.h"	/* GL_TEXT_SAMPLE_BYTES */
#include "bench_text.h"

constexpr uint32_t BLOCK = 1024;
constexpr uint32_t STEPS = 4;
constexpr uint32_t STEP_BYTES = 32 * 16;
constexpr uint32_t SPAN_BYTES = STEPS * STEP_BYTES;

struct Walk
{
	uint32_t	ncolumns;		/* entries a row */
	uint32_t	flip;			/* the window's */
	uint32_t	matched;		/* MATCHED's value */
	uint32_t	longest;		/* the longest literal's bytes */
};

extern __shared__ __align__(16) uint16_t entries[];

/* Walk [from, to) from the root, four bytes a load; mark where MATCHED is entered. */
__device__ static uint32_t
walk_window(const uint8_t *__restrict__ data, uint64_t from, uint64_t to, const Walk &w,
			uint32_t *marks)
{
	uint32_t	state = 0;
	uint64_t	at;

	for (at = from & ~3ull; at < to; at += 4)
	{
		uint32_t	word = __ldg(reinterpret_cast<const uint32_t *>(data + at));

#pragma unroll
		for (uint32_t k = 0; k < 4; k++)
		{
			uint32_t	b = (word >> (8 * k)) & 0xFF;
			uint32_t	col = gl_classed_window_column(b, w.flip);
			uint32_t	next = entries[(state * w.ncolumns + 2 * col) / 2];

			if (next == w.matched && state != w.matched)
				atomicOr(&marks[(at + k) / 32], 1u << ((at + k) % 32));
			state = next;
		}
	}
	return (uint32_t) (at - (from & ~3ull));
}

/*
 * A warp's windows waiting to be walked (Verify == QUEUED): when 32 are
 * listed, every lane walks one, where a lane-local walk leaves the lanes
 * without candidates idle (about two in three).
 */
typedef struct WalkQueue
{
	unsigned long long from[64];
	uint32_t	length[64];
} WalkQueue;

enum
{
	FILTER_ONLY,
	LANE_WALKS,					/* each lane walks its own window at once */
	QUEUED							/* windows listed a warp, walked 32 at a time */
};

template <int Verify>
__global__ void __launch_bounds__(BLOCK, 1)
probe(const uint8_t *__restrict__ data, uint64_t bytes, const uint16_t *table,
	  uint32_t table_bytes, Walk w, const uint32_t *filter, uint32_t *marks,
	  unsigned long long *counts)
{
	uint32_t	lane = threadIdx.x % 32;
	uint64_t	warp = (blockIdx.x * (uint64_t) BLOCK + threadIdx.x) / 32;
	uint64_t	nwarps = (uint64_t) gridDim.x * BLOCK / 32;
	uint32_t	filt = filter[lane];
	uint32_t	passed = 0;
	uint32_t	walked = 0;
	WalkQueue  *queue = reinterpret_cast<WalkQueue *>(reinterpret_cast<uint8_t *>(entries) +
												   (table_bytes + 15) / 16 * 16) +
		threadIdx.x / 32;
	uint32_t	queued = 0;

	if (Verify != FILTER_ONLY)
	{
		for (uint32_t i = threadIdx.x; i < table_bytes / 2; i += blockDim.x)
			entries[i] = table[i];
		__syncthreads();
	}
	for (uint64_t span = warp * SPAN_BYTES; span < bytes; span += nwarps * SPAN_BYTES)
	{
		const uint4 *p = reinterpret_cast<const uint4 *>(data + span) + lane;
		uint4		own[STEPS];
		uint32_t	after;

#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
			own[u] = __ldg(p + u * 32);
		after = lane == 0 && span + SPAN_BYTES < bytes ? __ldg(p + STEPS * 32).x : 0;
#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
		{
			uint32_t	v[5] = {own[u].x, own[u].y, own[u].z, own[u].w, 0};
			uint32_t	next_lane = __shfl_sync(0xFFFFFFFF, own[u].x, (lane + 1) % 32);
			uint32_t	next_step = __shfl_sync(0xFFFFFFFF,
												u + 1 < STEPS ? own[u + 1 < STEPS ? u + 1 : u].x :
												after, 0);
			uint32_t	cand = 0;

			v[4] = lane < 31 ? next_lane : next_step;
#pragma unroll
			for (uint32_t k = 0; k < 16; k++)
			{
				uint32_t	g = k / 4;
				uint32_t	b = k % 4;
				uint32_t	first = v[g] >> (8 * b);
				uint32_t	second = b < 3 ? v[g] >> (8 * (b + 1)) : v[g + 1];
				uint32_t	row = __shfl_sync(0xFFFFFFFF, filt, first);

				cand |= (__funnelshift_r(row, row, second) & 1) << k;
			}
			passed += __popc(cand);
			if (Verify != FILTER_ONLY)
			{
				uint64_t	base = span + u * STEP_BYTES + lane * 16;
				uint64_t	first = base + __ffs(cand) - 1;
				uint64_t	last = base + 31 - __clz(cand);
				uint64_t	from = first > w.longest - 2 ? first - (w.longest - 2) : 0;
				uint64_t	to = min(last + w.longest, bytes);

				if (Verify == LANE_WALKS && cand != 0)
					walked += walk_window(data, from, to, w, marks);
				if (Verify == QUEUED)
				{
					uint32_t	listing = __ballot_sync(0xFFFFFFFF, cand != 0);

					if (cand != 0)
					{
						uint32_t	i = queued + __popc(listing & ((1u << lane) - 1));

						queue->from[i] = from;
						queue->length[i] = (uint32_t) (to - from);
					}
					queued += __popc(listing);
					if (queued >= 32)
					{
						uint32_t	i = queued - 32 + lane;

						__syncwarp();
						walked += walk_window(data, queue->from[i],
											  queue->from[i] + queue->length[i], w, marks);
						queued -= 32;
						__syncwarp();
					}
				}
			}
		}
	}
	if (Verify == QUEUED)
	{
		__syncwarp();
		if (lane < queued)
			walked += walk_window(data, queue->from[lane],
								  queue->from[lane] + queue->length[lane], w, marks);
	}
	for (int o = 16; o > 0; o /= 2)
	{
		passed += __shfl_xor_sync(0xFFFFFFFF, passed, o);
		walked += __shfl_xor_sync(0xFFFFFFFF, walked, o);
	}
	if (lane == 0)
	{
		atomicAdd(&counts[0], (unsigned long long) passed);
		atomicAdd(&counts[1], (unsigned long long) walked);
	}
}

/*
 * The literals for DIRECT verification, in shared memory.  Each literal's
 * rarest bigram's key (the filter's low five bits of its two bytes) lists
 * the literals that chose it: a bucket holds count << 24 and, for one
 * literal, its entry itself, for more the index of their first entry
 * (most keys have one, so most checks load no entry).  An entry is the
 * literal's number << 16 | its length << 8 | where the bigram stands in
 * it; its bytes are one 16-byte word, 0x00 after its end, and which
 * bytes of it are the literal's, another.
 */
typedef struct alignas(16) Direct
{
	uint32_t	bucket[1024];
	uint32_t	entry[256];
	uint4		word[256];
	uint4		mask[256];
} Direct;

/*
 * Where a warp keeps its span (and the 16 bytes after it), and its lanes'
 * entries waiting: fewer than 32 left from earlier steps or rounds, and up
 * to 32 from this one.
 */
constexpr uint32_t STAGE_BYTES = SPAN_BYTES + 16;
constexpr uint32_t QUEUE_SLOTS = 64;

/*
 * The 16 bytes of text from start, as four words: from the stage when the
 * span holds them (three 8-byte loads), else from global memory (a
 * literal reaching past the span's edges), where bytes outside the column
 * read as 0x00, which no literal holds.
 */
__device__ __forceinline__ void
text_at(const uint8_t *__restrict__ data, uint64_t bytes, const uint32_t *stage, uint64_t span,
		int64_t start, uint32_t out[4])
{
	int32_t		rel = (int32_t) (start - (int64_t) span);
	uint32_t	shift = (uint32_t) (rel & 3) * 8;
	uint32_t	w[5];

	if (rel >= 0 && (rel & ~7) + 24 <= (int32_t) STAGE_BYTES)
	{
		const uint2 *pairs = reinterpret_cast<const uint2 *>(stage) + rel / 8;
		uint2		x0 = pairs[0],
					x1 = pairs[1],
					x2 = pairs[2];
		bool		odd = rel & 4;

		w[0] = odd ? x0.y : x0.x;
		w[1] = odd ? x1.x : x0.y;
		w[2] = odd ? x1.y : x1.x;
		w[3] = odd ? x2.x : x1.y;
		w[4] = odd ? x2.y : x2.x;
	}
	else
	{
#pragma unroll
		for (int i = 0; i < 5; i++)
		{
			int64_t		a = (start & ~3ll) + 4 * i;

			w[i] = a >= 0 && a < (int64_t) bytes ?
				__ldg(reinterpret_cast<const uint32_t *>(data + a)) : 0;
		}
	}
#pragma unroll
	for (int i = 0; i < 4; i++)
		out[i] = __funnelshift_r(w[i], w[i + 1], shift);
}

/*
 * Does any literal whose bigram has the key of the position rel bytes into
 * the span stand there?  A literal holds no 0x00, so one that matches lies
 * within the position's row.
 */
__device__ __forceinline__ bool
verify_direct(const uint8_t *__restrict__ data, uint64_t bytes, const uint32_t *stage,
			  uint64_t span, uint32_t rel, const Direct &d, uint32_t *checked)
{
	uint32_t	here = stage[rel / 4];
	uint32_t	next = (rel & 3) == 3 ? stage[rel / 4 + 1] : 0;
	uint32_t	pair = __funnelshift_r(here, next, (rel & 3) * 8);
	uint32_t	key = (pair & 31) << 5 | ((pair >> 8) & 31);
	uint32_t	bucket = d.bucket[key];
	uint32_t	count = bucket >> 24;

	for (uint32_t i = 0; i < count; i++)
	{
		uint32_t	e = count == 1 ? bucket & 0xFFFFFF : d.entry[(bucket & 0xFFFFFF) + i];
		uint4		lw = d.word[e >> 16];
		uint4		lm = d.mask[e >> 16];
		uint32_t	text[4];

		(*checked)++;
		text_at(data, bytes, stage, span, (int64_t) (span + rel) - (e & 15), text);
		if ((((text[0] ^ lw.x) & lm.x) | ((text[1] ^ lw.y) & lm.y) |
			 ((text[2] ^ lw.z) & lm.z) | ((text[3] ^ lw.w) & lm.w)) == 0)
			return true;
	}
	return false;
}

/*
 * The filter with DIRECT verification: each warp stages its span in
 * shared memory as it loads it and, after each step, lists its lanes with
 * candidates (one ballot: the lane's 16 bytes and which of them pass); 32
 * entries at a time are checked against the literals their keys list,
 * from the stage.  With LANES an entry's candidates are checked one after
 * another; with REQUEUED only its first, and what is left of it listed
 * again, so that every lane checks one position a round.  A position that
 * verifies is marked with an atomicOr (Mark) or only counted, to see what
 * the atomics cost.
 */
enum
{
	LANES,
	REQUEUED
};

template <bool Mark, int Listing>
__global__ void __launch_bounds__(BLOCK, 1)
probe_direct(const uint8_t *__restrict__ data, uint64_t bytes, const Direct *direct,
			 const uint32_t *filter, uint32_t *marks, unsigned long long *counts)
{
	extern __shared__ __align__(16) uint8_t shared[];
	Direct	   &d = *reinterpret_cast<Direct *>(shared);
	uint32_t	lane = threadIdx.x % 32;
	uint64_t	warp = (blockIdx.x * (uint64_t) BLOCK + threadIdx.x) / 32;
	uint64_t	nwarps = (uint64_t) gridDim.x * BLOCK / 32;
	uint32_t	filt = filter[lane];
	uint32_t   *stage = reinterpret_cast<uint32_t *>(shared + sizeof(Direct)) +
		threadIdx.x / 32 * (STAGE_BYTES / 4);
	uint32_t   *queue = reinterpret_cast<uint32_t *>(shared + sizeof(Direct) +
												  BLOCK / 32 * STAGE_BYTES) +
		threadIdx.x / 32 * QUEUE_SLOTS;
	uint32_t	passed = 0;
	uint32_t	checked = 0;
	uint32_t	found = 0;

	for (uint32_t i = threadIdx.x; i < sizeof(Direct) / 4; i += blockDim.x)
		reinterpret_cast<uint32_t *>(shared)[i] = reinterpret_cast<const uint32_t *>(direct)[i];
	__syncthreads();
	for (uint64_t span = warp * SPAN_BYTES; span < bytes; span += nwarps * SPAN_BYTES)
	{
		const uint4 *p = reinterpret_cast<const uint4 *>(data + span) + lane;
		uint32_t   *span_marks = marks + span / 32;
		uint4		own[STEPS];
		uint4		after = make_uint4(0, 0, 0, 0);
		uint32_t	queued = 0;

		/* check one position, rel bytes into the span; mark or count it */
		auto		check = [&](uint32_t rel) {
			if (verify_direct(data, bytes, stage, span, rel, d, &checked))
			{
				if (Mark)
					atomicOr(&span_marks[rel / 32], 1u << (rel % 32));
				else
					found++;
			}
		};
		/* list an entry (0: none) after those queued */
		auto		list = [&](uint32_t entry) {
			uint32_t	listing = __ballot_sync(0xFFFFFFFF, entry != 0);

			if (entry != 0)
				queue[queued + __popc(listing & ((1u << lane) - 1))] = entry;
			queued += __popc(listing);
			__syncwarp();
		};
		/* the last 32 entries (all lanes, all == true) or the rest (fewer lanes) */
		auto		check_queued = [&](bool all) {
			uint32_t	entry = all || lane < queued ? queue[queued - (all ? 32 : queued) + lane] :
				0;

			queued -= all ? 32 : queued;
			__syncwarp();
			if (Listing == LANES)
				for (uint32_t c = entry & 0xFFFF; c != 0; c &= c - 1)
					check((entry >> 16) + __ffs(c) - 1);
			else
			{
				if (entry != 0)
					check((entry >> 16) + __ffs(entry & 0xFFFF) - 1);
				list(entry & (entry - 1) & 0xFFFF ? entry & (entry - 1) : 0);
			}
		};

#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
			own[u] = __ldg(p + u * 32);
		if (lane == 0 && span + SPAN_BYTES < bytes)
			after = __ldg(p + STEPS * 32);
		__syncwarp();
#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
			reinterpret_cast<uint4 *>(stage)[u * 32 + lane] = own[u];
		if (lane == 0)
			reinterpret_cast<uint4 *>(stage)[STEPS * 32] = after;
		__syncwarp();
#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
		{
			uint32_t	v[5] = {own[u].x, own[u].y, own[u].z, own[u].w, 0};
			uint32_t	next_lane = __shfl_sync(0xFFFFFFFF, own[u].x, (lane + 1) % 32);
			uint32_t	next_step = __shfl_sync(0xFFFFFFFF,
												u + 1 < STEPS ? own[u + 1 < STEPS ? u + 1 : u].x :
												after.x, 0);
			uint32_t	cand = 0;

			v[4] = lane < 31 ? next_lane : next_step;
#pragma unroll
			for (uint32_t k = 0; k < 16; k++)
			{
				uint32_t	g = k / 4;
				uint32_t	b = k % 4;
				uint32_t	first = v[g] >> (8 * b);
				uint32_t	second = b < 3 ? v[g] >> (8 * (b + 1)) : v[g + 1];
				uint32_t	row = __shfl_sync(0xFFFFFFFF, filt, first);

				cand |= (__funnelshift_r(row, row, second) & 1) << k;
			}
			passed += __popc(cand);
			list(cand != 0 ? (u * STEP_BYTES + lane * 16) << 16 | cand : 0);
			while (queued >= 32)
				check_queued(true);
		}
		while (queued > 0)
			check_queued(false);
	}
	for (int o = 16; o > 0; o /= 2)
	{
		passed += __shfl_xor_sync(0xFFFFFFFF, passed, o);
		checked += __shfl_xor_sync(0xFFFFFFFF, checked, o);
		found += __shfl_xor_sync(0xFFFFFFFF, found, o);
	}
	if (lane == 0)
	{
		atomicAdd(&counts[0], (unsigned long long) passed);
		atomicAdd(&counts[1], (unsigned long long) checked);
		atomicAdd(&counts[2], (unsigned long long) found);
	}
}

/* A plain read of the same spans: what the percentages are of. */
__global__ void __launch_bounds__(BLOCK, 1)
plain_read(const uint8_t *__restrict__ data, uint64_t bytes, unsigned long long *counts)
{
	uint64_t	warp = (blockIdx.x * (uint64_t) BLOCK + threadIdx.x) / 32;
	uint64_t	nwarps = (uint64_t) gridDim.x * BLOCK / 32;
	uint32_t	acc = 0;

	for (uint64_t span = warp * SPAN_BYTES; span < bytes; span += nwarps * SPAN_BYTES)
	{
		const uint4 *p = reinterpret_cast<const uint4 *>(data + span) + threadIdx.x % 32;

#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
		{
			uint4		v = __ldg(p + u * 32);

			acc ^= v.x ^ v.y ^ v.z ^ v.w;
		}
	}
	if (acc == 0x12345678)
		atomicAdd(&counts[2], 1ull);	/* keeps the loads */
}

/* Rows whose marks disagree with the host's whole walk. */
static uint64_t
wrong_rows(const std::vector<uint8_t> &text, const std::vector<uint8_t> &row_matches,
		   const std::vector<uint32_t> &marks)
{
	uint64_t	rows = 0,
				wrong = 0,
				row_start = 0;

	for (uint64_t i = 0; i < text.size(); i++)
		if (text[i] == 0)
		{
			bool		marked = false;

			for (uint64_t j = row_start; j <= i && !marked; j++)
				marked = (marks[j / 32] >> (j % 32)) & 1;
			wrong += marked != (row_matches[rows] != 0);
			rows++;
			row_start = i + 1;
		}
	return wrong;
}

/*
 * The kernel's lanes on the host, sixteen positions at a time: the same
 * filter, windows and walks, so that the method is checked here and the
 * device run checks only its CUDA.
 */
static uint64_t
emulate(const std::vector<uint8_t> &text, const GlClassedTable &t, const Walk &w,
		const uint32_t filter[32], std::vector<uint32_t> &marks)
{
	uint64_t	bytes = text.size();
	uint64_t	walked = 0;

	marks.assign(bytes / 32, 0);
	for (uint64_t base = 0; base < bytes; base += 16)
	{
		uint32_t	cand = 0;

		for (uint32_t k = 0; k < 16; k++)
		{
			uint32_t	first = text[base + k];
			uint32_t	second = base + k + 1 < bytes ? text[base + k + 1] : 0;

			cand |= ((filter[first & 31] >> (second & 31)) & 1) << k;
		}
		if (cand == 0)
			continue;

		uint64_t	first = base + __builtin_ctz(cand);
		uint64_t	last = base + 31 - __builtin_clz(cand);
		uint64_t	from = (first > w.longest - 2 ? first - (w.longest - 2) : 0) & ~3ull;
		uint64_t	to = std::min<uint64_t>(last + w.longest, bytes);
		uint32_t	state = 0;

		walked += to - from;
		for (uint64_t at = from; at < to; at++)
		{
			uint16_t	next;

			memcpy(&next, t.table + gl_classed_entry_offset(&t, state, text[at]), 2);
			if (next == w.matched && state != w.matched)
				marks[at / 32] |= 1u << (at % 32);
			state = next;
		}
	}
	return walked;
}

/* The literals listed by their bigrams' keys, for probe_direct(). */
static Direct
direct_lists(const std::vector<std::string> &lits, const std::vector<uint32_t> &keys,
			 const std::vector<uint32_t> &key_at)
{
	Direct		d = {};
	uint32_t	n = 0;

	for (uint32_t key = 0; key < 1024; key++)
	{
		uint32_t	first = n;

		for (uint32_t l = 0; l < lits.size(); l++)
			if (keys[l] == key)
				d.entry[n++] = l << 16 | (uint32_t) lits[l].size() << 8 | key_at[l];
		if (n - first == 1)
			d.bucket[key] = 1u << 24 | d.entry[first];
		else if (n > first)
			d.bucket[key] = (n - first) << 24 | first;
	}
	for (uint32_t l = 0; l < lits.size(); l++)
	{
		uint8_t		bytes[16] = {0};

		memcpy(bytes, lits[l].data(), lits[l].size());
		memcpy(&d.word[l], bytes, 16);
		memset(bytes, 0xFF, lits[l].size());
		memset(bytes + lits[l].size(), 0, 16 - lits[l].size());
		memcpy(&d.mask[l], bytes, 16);
	}
	return d;
}

/*
 * probe_direct() on the host: the positions that pass, checked against
 * their keys' literals; the literals checked returned, those found counted.
 */
static uint64_t
emulate_direct(const std::vector<uint8_t> &text, const Direct &d, const uint32_t filter[32],
			   std::vector<uint32_t> &marks, uint64_t *found)
{
	uint64_t	bytes = text.size();
	uint64_t	checked = 0;

	*found = 0;
	marks.assign(bytes / 32, 0);
	for (uint64_t p = 0; p < bytes; p++)
	{
		uint32_t	second = p + 1 < bytes ? text[p + 1] : 0;
		uint32_t	key = (text[p] & 31) << 5 | (second & 31);
		uint32_t	count = d.bucket[key] >> 24;

		if (((filter[key >> 5] >> (key & 31)) & 1) == 0)
			continue;
		for (uint32_t i = 0; i < count; i++)
		{
			uint32_t	e = count == 1 ? d.bucket[key] & 0xFFFFFF :
				d.entry[(d.bucket[key] & 0xFFFFFF) + i];
			uint64_t	length = (e >> 8) & 31;
			uint64_t	at = e & 15;

			checked++;
			if (p >= at && p - at + length <= bytes &&
				memcmp(text.data() + p - at, &d.word[e >> 16], length) == 0)
			{
				marks[p / 32] |= 1u << (p % 32);
				(*found)++;
				break;
			}
		}
	}
	return checked;
}

/* Best of three timed runs (after one to warm), in GB/s; prepare() runs untimed before each. */
template <class Prepare, class Launch>
static double
best_gbps(uint64_t bytes, Prepare prepare, Launch launch)
{
	float		best = 1e30f;
	cudaEvent_t start,
				stop;

	cudaEventCreate(&start);
	cudaEventCreate(&stop);
	for (int i = 0; i < 4; i++)
	{
		float		ms = 1e30f;

		prepare();
		cudaEventRecord(start);
		launch();
		cudaEventRecord(stop);
		cudaEventSynchronize(stop);
		cudaEventElapsedTime(&ms, start, stop);
		if (i > 0 && ms < best)
			best = ms;
	}
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	return bytes / (best * 1e6);
}

int
main()
{
	const uint64_t bytes = 1ull << 30;
	static const char *const fixed[] = {"special", "Complaints", "pinto", "sauternes",
	"warthogs", "dinos", "somas", "Tiresias", "dazzle", "snooze"};
	GlXorshift	rng = {0x2545F4914F6CDD1DULL};
	std::vector<uint8_t> text;
	std::vector<std::string> lits;
	std::vector<const char *> ptrs;
	std::vector<size_t> lens;
	char		row[256];
	uint32_t	filter[32] = {0};
	std::vector<uint64_t> pairs(65536, 0);
	std::vector<uint32_t> keys,
				key_at;
	const char *error;
	GlClassedTable t;
	Walk		w = {};
	int			sms;

	text.reserve(bytes + 256);
	while (text.size() < bytes)
	{
		uint32_t	len = gl_bench_comment(&rng, row);

		text.insert(text.end(), row, row + len);
		text.push_back(0);
	}
	text.resize(bytes);
	text[bytes - 1] = 0;
	for (size_t i = 0; i + 1 < GL_TEXT_SAMPLE_BYTES; i++)
		pairs[text[i] << 8 | text[i + 1]]++;

	/* kernel_bench's shape of list: its ten words of the text, then made-up words */
	for (int i = 0; i < 200; i++)
	{
		std::string l = i < 10 ? fixed[i] : gl_bench_words[rng.below(gl_bench_nwords)];
		uint32_t	best = 0;
		uint32_t	best_at = 0;
		uint64_t	count = UINT64_MAX;

		if (i >= 10)
			l[rng.below((uint32_t) l.size())] = 'q';
		for (size_t k = 0; k + 1 < l.size(); k++)
		{
			uint32_t	p = (uint8_t) l[k] << 8 | (uint8_t) l[k + 1];

			if (pairs[p] < count)
			{
				count = pairs[p];
				best = p;
				best_at = (uint32_t) k;
			}
		}
		filter[(best >> 8) & 31] |= 1u << (best & 31);
		w.longest = std::max(w.longest, (uint32_t) l.size());
		keys.push_back(((best >> 8) & 31) << 5 | (best & 31));
		key_at.push_back(best_at);
		lits.push_back(l);
	}
	for (auto &l : lits)
	{
		ptrs.push_back(l.data());
		lens.push_back(l.size());
	}
	GlProgram  *prog = gl_build_multi(ptrs.data(), lens.data(), (int) lits.size(), false, true,
									  &error);

	if (prog == NULL || !gl_build_classed_table(prog, 200 * 1024, true, text.data(),
												GL_TEXT_SAMPLE_BYTES, &t) || t.window_flip == 0)
	{
		fprintf(stderr, "no windowed table\n");
		return 1;
	}
	w.ncolumns = t.nclasses;
	w.flip = t.window_flip;
	/*
	 * MATCHED: the state the separator leads to the root's twin from (a
	 * table numbered for the text keeps only the root's, SKIP's and the
	 * twin's numbers in place).
	 */
	for (uint32_t s = 0; s < t.nstates; s++)
	{
		uint16_t	e;

		memcpy(&e, t.table + gl_classed_entry_offset(&t, gl_classed_value(&t, s), 0), 2);
		if (e == gl_classed_twin(&t) && s != t.nstates - 1)
			w.matched = gl_classed_value(&t, s);
	}
	printf("200 literals, longest %u; windowed table: flip %#x, %u states, %u bytes\n",
		   w.longest, w.flip, t.nstates, t.bytes);

	/* the host's rows: walked whole, from the root */
	std::vector<uint8_t> row_matches;
	{
		uint32_t	state = 0;
		bool		matched = false;

		for (uint64_t i = 0; i < bytes; i++)
		{
			uint16_t	e;

			memcpy(&e, t.table + gl_classed_entry_offset(&t, state, text[i]), 2);
			state = e;
			matched |= state == w.matched;
			if (text[i] == 0)
			{
				row_matches.push_back(matched);
				matched = false;
				state = 0;
			}
		}
	}

	std::vector<uint32_t> host_marks;

	uint64_t	emulated_walk = emulate(text, t, w, filter, host_marks);

	printf("host emulation        %llu rows wrong; bytes walked %.3f a byte of text\n",
		   (unsigned long long) wrong_rows(text, row_matches, host_marks),
		   (double) emulated_walk / bytes);

	Direct		direct = direct_lists(lits, keys, key_at);
	uint64_t	emulated_found;
	uint64_t	emulated_checks = emulate_direct(text, direct, filter, host_marks,
												 &emulated_found);

	printf("host direct           %llu rows wrong; literals checked %.4f a byte of text\n",
		   (unsigned long long) wrong_rows(text, row_matches, host_marks),
		   (double) emulated_checks / bytes);

	uint8_t    *data;
	uint16_t   *dtable;
	uint32_t   *dfilter,
			   *marks;
	Direct	   *ddirect;
	unsigned long long *counts,
				host_counts[3];

	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	cudaMalloc(&data, bytes + 64);
	cudaMalloc(&dtable, t.bytes);
	cudaMalloc(&dfilter, sizeof(filter));
	cudaMalloc(&marks, bytes / 8);
	cudaMalloc(&counts, sizeof(host_counts));
	cudaMalloc(&ddirect, sizeof(Direct));
	cudaMemcpy(ddirect, &direct, sizeof(Direct), cudaMemcpyHostToDevice);
	cudaMemset(data + bytes, 0, 64);
	cudaMemcpy(data, text.data(), bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(dtable, t.table, t.bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(dfilter, filter, sizeof(filter), cudaMemcpyHostToDevice);
	uint32_t	queued_shared = (t.bytes + 15) / 16 * 16 + (BLOCK / 32) * sizeof(WalkQueue);

	cudaFuncSetAttribute(probe<LANE_WALKS>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						 (int) t.bytes);
	cudaFuncSetAttribute(probe<QUEUED>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						 (int) queued_shared);
	uint32_t	direct_shared = sizeof(Direct) + BLOCK / 32 * (STAGE_BYTES + 4 * QUEUE_SLOTS);

	cudaFuncSetAttribute(probe_direct<true, LANES>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						 (int) direct_shared);
	cudaFuncSetAttribute(probe_direct<false, LANES>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						 (int) direct_shared);
	cudaFuncSetAttribute(probe_direct<true, REQUEUED>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						 (int) direct_shared);

	/* the last run's counts and marks; its rows against the host's (UINT64_MAX: none came back) */
	auto		check = [&](unsigned long long *dcounts, uint32_t *dmarks) -> uint64_t {
		host_marks.assign(bytes / 32, 0);
		if (cudaMemcpy(host_counts, dcounts, sizeof(host_counts),
					   cudaMemcpyDeviceToHost) != cudaSuccess ||
			cudaMemcpy(host_marks.data(), dmarks, bytes / 8,
					   cudaMemcpyDeviceToHost) != cudaSuccess)
			return UINT64_MAX;
		return wrong_rows(text, row_matches, host_marks);
	};
	auto		clear = [&] {
		cudaMemset(counts, 0, sizeof(host_counts));
		cudaMemset(marks, 0, bytes / 8);
	};
	double		read = best_gbps(bytes, clear, [&] {
		plain_read<<<sms, BLOCK>>>(data, bytes, counts);
	});
	double		filtered = best_gbps(bytes, clear, [&] {
		probe<FILTER_ONLY><<<sms, BLOCK>>>(data, bytes, dtable, t.bytes, w, dfilter, marks,
										   counts);
	});
	double		lane_walks = best_gbps(bytes, clear, [&] {
		probe<LANE_WALKS><<<sms, BLOCK, t.bytes>>>(data, bytes, dtable, t.bytes, w, dfilter,
												   marks, counts);
	});
	uint64_t	lane_wrong = check(counts, marks);
	double		queued = best_gbps(bytes, clear, [&] {
		probe<QUEUED><<<sms, BLOCK, queued_shared>>>(data, bytes, dtable, t.bytes, w, dfilter,
													 marks, counts);
	});
	uint64_t	queued_wrong = check(counts, marks);
	unsigned long long queued_counts[3];

	memcpy(queued_counts, host_counts, sizeof(host_counts));
	double		direct_gbps = best_gbps(bytes, clear, [&] {
		probe_direct<true, LANES><<<sms, BLOCK, direct_shared>>>(data, bytes, ddirect, dfilter,
																 marks, counts);
	});
	uint64_t	direct_wrong = check(counts, marks);
	unsigned long long direct_counts[3];

	memcpy(direct_counts, host_counts, sizeof(host_counts));
	double		counted_gbps = best_gbps(bytes, clear, [&] {
		probe_direct<false, LANES><<<sms, BLOCK, direct_shared>>>(data, bytes, ddirect, dfilter,
																  marks, counts);
	});

	check(counts, marks);

	unsigned long long counted_found = host_counts[2];
	double		requeued_gbps = best_gbps(bytes, clear, [&] {
		probe_direct<true, REQUEUED><<<sms, BLOCK, direct_shared>>>(data, bytes, ddirect, dfilter,
																marks, counts);
	});
	uint64_t	requeued_wrong = check(counts, marks);

	uint64_t	matching = 0;

	for (uint8_t m : row_matches)
		matching += m;
	printf("rows                  %zu, %llu matching\n", row_matches.size(),
		   (unsigned long long) matching);
	printf("plain read            %8.1f GB/s\n", read);
	printf("filter alone          %8.1f GB/s  %5.1f%% of the read\n", filtered,
		   100.0 * filtered / read);
	printf("filter, lane walks    %8.1f GB/s  %5.1f%% of the read; %llu rows wrong (%s)\n",
		   lane_walks, 100.0 * lane_walks / read, (unsigned long long) lane_wrong,
		   lane_wrong == 0 ? "exact" : "WRONG");
	printf("filter, queued walks  %8.1f GB/s  %5.1f%% of the read; %llu rows wrong (%s)\n",
		   queued, 100.0 * queued / read, (unsigned long long) queued_wrong,
		   queued_wrong == 0 ? "exact" : "WRONG");
	printf("filter, direct        %8.1f GB/s  %5.1f%% of the read; %llu rows wrong (%s)\n",
		   direct_gbps, 100.0 * direct_gbps / read, (unsigned long long) direct_wrong,
		   direct_wrong == 0 ? "exact" : "WRONG");
	printf("filter, direct counted %7.1f GB/s  %5.1f%% of the read; %llu literals found"
		   " (marked %llu)\n",
		   counted_gbps, 100.0 * counted_gbps / read, counted_found,
		   (unsigned long long) emulated_found);
	printf("filter, direct requeued %6.1f GB/s  %5.1f%% of the read; %llu rows wrong (%s)\n",
		   requeued_gbps, 100.0 * requeued_gbps / read, (unsigned long long) requeued_wrong,
		   requeued_wrong == 0 ? "exact" : "WRONG");
	printf("positions passing     %.2f%%; bytes walked %.3f, literals checked %.4f a byte"
		   " of text  %s\n",
		   100.0 * direct_counts[0] / bytes, (double) queued_counts[1] / bytes,
		   (double) direct_counts[1] / bytes, cudaGetErrorString(cudaGetLastError()));
	gl_classed_table_free(&t);
	free(prog);
	return lane_wrong != 0 || queued_wrong != 0 || direct_wrong != 0 || requeued_wrong != 0;
}
