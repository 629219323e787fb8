/*
 * Probe (a study, not the extension's code): how fast can a bigram filter
 * in front of the Aho-Corasick walk read the text, before any candidate
 * is verified?  The next step the twenty-third session's notes propose for
 * 200 literals (bigram_filter_sim.cpp: its rarest bigrams pass about 2%
 * of the text's positions).
 *
 * The filter is 32 x 32 bits, one 32-bit word a lane: bit c of lane r's
 * word says that some literal's rarest bigram is (r, c) in the bytes' low
 * five bits.  A position's test is one shuffle and one funnel shift:
 * __shfl_sync() takes its source lane modulo 32 and the funnel shift its
 * amount modulo 32, so the text's words go in as they are, shifted to the
 * position's byte, with no masking.  About four instructions and one
 * shuffle a byte, no shared memory.
 *
 * The text is kernel_bench's (bench_text.h), 1 GB of rows; each warp reads
 * 2 kB spans with four 16-byte loads a lane in flight, as the sieve does;
 * the bigram across a span's end is not tested (the host's count skips it
 * too).  Mode 0 reads the same way and only XORs (the plain read the
 * percentages are of); mode 1 is the filter, counting the positions that
 * pass, checked against the host's count.
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I../../../../kernels -I../../../../../src \
 *       filter_probe.cu -o filter_probe
 */
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench_text.h"

constexpr uint32_t BLOCK = 256;
constexpr uint32_t STEPS = 4;
constexpr uint32_t STEP_BYTES = 32 * 16;
constexpr uint32_t SPAN_BYTES = STEPS * STEP_BYTES;

template <int Mode>
__global__ void __launch_bounds__(BLOCK)
probe(const uint8_t *__restrict__ data, uint64_t bytes, const uint32_t *filter,
	  unsigned long long *out)
{
	uint32_t	lane = threadIdx.x % 32;
	uint64_t	warp = (blockIdx.x * (uint64_t) BLOCK + threadIdx.x) / 32;
	uint64_t	nwarps = (uint64_t) gridDim.x * BLOCK / 32;
	uint32_t	filt = filter[lane];
	uint32_t	acc = 0;

	for (uint64_t span = warp * SPAN_BYTES; span < bytes; span += nwarps * SPAN_BYTES)
	{
		const uint4 *p = reinterpret_cast<const uint4 *>(data + span) + lane;
		uint4		own[STEPS];

#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
			own[u] = __ldg(p + u * 32);
#pragma unroll
		for (uint32_t u = 0; u < STEPS; u++)
		{
			uint32_t	w[5] = {own[u].x, own[u].y, own[u].z, own[u].w, 0};

			if (Mode == 0)
			{
				acc ^= w[0] ^ w[1] ^ w[2] ^ w[3];
				continue;
			}
			/* the next lane's first word; lane 31's, the next step's lane 0's */
			uint32_t	first_next = __shfl_sync(0xFFFFFFFF, own[u].x, (lane + 1) % 32);
			uint32_t	after = __shfl_sync(0xFFFFFFFF, u + 1 < STEPS ? own[u + 1 < STEPS ? u + 1 : u].x : 0u, 0);

			w[4] = lane < 31 ? first_next : after;
#pragma unroll
			for (uint32_t k = 0; k < 16; k++)
			{
				uint32_t	g = k / 4;
				uint32_t	b = k % 4;
				uint32_t	first = w[g] >> (8 * b);
				uint32_t	second = b < 3 ? w[g] >> (8 * (b + 1)) : w[g + 1];
				uint32_t	row = __shfl_sync(0xFFFFFFFF, filt, first);

				acc += __funnelshift_r(row, row, second) & 1;
			}
		}
	}
	for (int o = 16; o > 0; o /= 2)
		acc += __shfl_xor_sync(0xFFFFFFFF, acc, o);
	if (lane == 0)
		atomicAdd(out, (unsigned long long) acc);
}

template <int Mode>
static double
run(const uint8_t *data, uint64_t bytes, const uint32_t *filter, unsigned long long *out,
	unsigned long long *result)
{
	int			sms,
				per_sm;
	float		best = 1e30f;

	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe<Mode>, BLOCK, 0);
	for (int i = 0; i < 4; i++)
	{
		cudaEvent_t start,
					stop;
		float		ms;

		cudaMemset(out, 0, sizeof(*out));
		cudaEventCreate(&start);
		cudaEventCreate(&stop);
		cudaEventRecord(start);
		probe<Mode><<<sms * per_sm, BLOCK>>>(data, bytes, filter, out);
		cudaEventRecord(stop);
		cudaEventSynchronize(stop);
		cudaEventElapsedTime(&ms, start, stop);
		if (i > 0 && ms < best)
			best = ms;
	}
	cudaMemcpy(result, out, sizeof(*result), cudaMemcpyDeviceToHost);
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
	char		row[256];
	uint32_t	filter[32] = {0};
	uint64_t	pairs[65536] = {0};
	uint8_t    *data;
	uint32_t   *dfilter;
	unsigned long long *out,
				passes = 0,
				expected = 0;

	text.reserve(bytes + 256);
	while (text.size() < bytes)
	{
		uint32_t	len = gl_bench_comment(&rng, row);

		text.insert(text.end(), row, row + len);
		text.push_back(0);
	}
	text.resize(bytes);
	for (size_t i = 0; i + 1 < 8192; i++)
		pairs[text[i] << 8 | text[i + 1]]++;
	for (int i = 0; i < 200; i++)
	{
		std::string w = i < 10 ? fixed[i] : gl_bench_words[rng.below(gl_bench_nwords)];
		uint32_t	best = 0;
		uint64_t	count = UINT64_MAX;

		if (i >= 10)
			w[rng.below((uint32_t) w.size())] = 'q';
		for (size_t k = 0; k + 1 < w.size(); k++)
		{
			uint32_t	p = (uint8_t) w[k] << 8 | (uint8_t) w[k + 1];

			if (pairs[p] < count)
			{
				count = pairs[p];
				best = p;
			}
		}
		filter[(best >> 8) & 31] |= 1u << (best & 31);
	}
	for (uint64_t i = 0; i + 1 < bytes; i++)
		if ((i + 1) % SPAN_BYTES != 0)
			expected += (filter[text[i] & 31] >> (text[i + 1] & 31)) & 1;

	cudaMalloc(&data, bytes);
	cudaMalloc(&dfilter, sizeof(filter));
	cudaMalloc(&out, sizeof(*out));
	cudaMemcpy(data, text.data(), bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(dfilter, filter, sizeof(filter), cudaMemcpyHostToDevice);

	double		read = run<0>(data, bytes, dfilter, out, &passes);
	double		filtered = run<1>(data, bytes, dfilter, out, &passes);

	printf("plain read   %8.1f GB/s\n", read);
	printf("filter       %8.1f GB/s  %5.1f%% of the read  passes %.2f%% of positions (%llu, host %llu: %s)  %s\n",
		   filtered, 100.0 * filtered / read, 100.0 * passes / bytes, passes, expected,
		   passes == expected ? "same" : "DIFFERENT", cudaGetErrorString(cudaGetLastError()));
	return 0;
}
