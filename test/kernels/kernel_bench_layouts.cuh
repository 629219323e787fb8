/*-------------------------------------------------------------------------
 *
 * kernel_bench_layouts.cuh
 *	  kernel_bench's layout study, kept as the record of a rejected layout:
 *	  the pivoted tiles of DESIGN.md §4 (Sitaridi & Ross) against the
 *	  contiguous stream the engine uses (cuda/device_column.h says why).
 *
 * Pivot-w: 32 consecutive rows form a tile; word k (w bytes) of row i sits
 * at tile_base + (k * 32 + i) * w, so a warp (one row per lane) reads one
 * contiguous run per step.  Each tile is padded to its own longest row.
 * The kernel is the natural one for that layout: a thread per row, one
 * w-byte load per step, Shift-And over its bytes, stop at the first hit,
 * one __ballot_sync per warp for 32 result bits.  Zero padding after a
 * row's end only resets the automaton, so no per-byte length test.
 *
 * Also printed: the bytes of pivot-w after sorting rows by length (the
 * padding almost vanishes, but a 4-byte permutation per row must be kept).
 *
 *-------------------------------------------------------------------------
 */

template <int W>
struct PivotWord;
template <>
struct PivotWord<4>
{
	typedef uint32_t T;
};
template <>
struct PivotWord<8>
{
	typedef uint2 T;
};
template <>
struct PivotWord<16>
{
	typedef uint4 T;
};

__device__ __forceinline__ uint32_t
word_byte(uint32_t w, int j)
{
	return (w >> (8 * j)) & 0xFF;
}
__device__ __forceinline__ uint32_t
word_byte(uint2 w, int j)
{
	return word_byte(j < 4 ? w.x : w.y, j & 3);
}
__device__ __forceinline__ uint32_t
word_byte(uint4 w, int j)
{
	return word_byte(j < 4 ? w.x : j < 8 ? w.y : j < 12 ? w.z : w.w, j & 3);
}

template <int W>
__global__ static void
pivot_shift_and_kernel(const uint8_t *data, const uint64_t *tile_off, const uint32_t *lens,
					   uint64_t nrows, const uint32_t *needle_masks, uint32_t top,
					   uint32_t *result)
{
	typedef typename PivotWord<W>::T Word;
	__shared__ uint32_t masks[256];
	uint64_t	row = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;
	uint32_t	lane = threadIdx.x & 31;
	uint32_t	hits = 0;
	uint32_t	ballot;

	for (int i = threadIdx.x; i < 256; i += blockDim.x)
		masks[i] = needle_masks[i];
	__syncthreads();
	if (row < nrows)
	{
		uint32_t	len = lens[row];
		const Word *p = (const Word *) (data + tile_off[row >> 5]) + lane;
		uint32_t	state = 0;

		for (uint32_t k = 0; k * W < len && !(hits & top); k++)
		{
			Word		w = __ldg(p + (size_t) k * 32);

#pragma unroll
			for (int j = 0; j < W; j++)
			{
				state = ((state << 1) | 1) & masks[word_byte(w, j)];
				hits |= state;
			}
		}
	}
	ballot = __ballot_sync(0xFFFFFFFF, (hits & top) != 0);
	if (lane == 0 && row < nrows)
		result[row >> 5] = ballot;
}

/* Bytes of pivot-w tiles over rows taken in the given order. */
static uint64_t
pivot_bytes(const std::vector<uint32_t> &lens, int w)
{
	uint64_t	total = 0;

	for (size_t t = 0; t < lens.size(); t += 32)
	{
		uint32_t	longest = 0;

		for (size_t i = t; i < t + 32 && i < lens.size(); i++)
			longest = std::max(longest, lens[i]);
		total += (uint64_t) (longest + w - 1) / w * w * 32;
	}
	return total;
}

template <int W>
static void
bench_pivot(const GlColumn *col, const std::vector<uint32_t> &lens, const uint32_t *host_masks,
			uint32_t top, uint64_t expected, double read_gbps)
{
	uint64_t	ntiles = (col->nrows + 31) / 32;
	uint64_t	bytes = pivot_bytes(lens, W);
	std::vector<uint64_t> tile_off(ntiles);
	std::vector<uint8_t> host(bytes, 0);
	uint8_t    *d_data;
	uint64_t   *d_off;
	uint32_t   *d_lens,
			   *d_masks,
			   *d_result;
	std::vector<double> times;
	std::vector<uint32_t> result((col->nrows + 31) / 32);
	uint64_t	off = 0,
				matches = 0;
	cudaEvent_t a,
				b;

	for (uint64_t t = 0; t < ntiles; t++)
	{
		uint32_t	longest = 0;

		tile_off[t] = off;
		for (uint64_t r = t * 32; r < t * 32 + 32 && r < col->nrows; r++)
		{
			uint32_t	len;
			const char *v = gl_column_value(col, r, &len);

			longest = std::max(longest, len);
			for (uint32_t j = 0; j < len; j++)
				host[off + ((j / W) * 32 + (r - t * 32)) * W + j % W] = (uint8_t) v[j];
		}
		off += (uint64_t) (longest + W - 1) / W * W * 32;
	}
	if (cudaMalloc(&d_data, bytes + 64) != cudaSuccess ||
		cudaMalloc(&d_off, ntiles * 8) != cudaSuccess ||
		cudaMalloc(&d_lens, col->nrows * 4) != cudaSuccess ||
		cudaMalloc(&d_masks, 1024) != cudaSuccess ||
		cudaMalloc(&d_result, result.size() * 4) != cudaSuccess)
		die("pivot layout", "cudaMalloc failed");
	cudaMemcpy(d_data, host.data(), bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(d_off, tile_off.data(), ntiles * 8, cudaMemcpyHostToDevice);
	cudaMemcpy(d_lens, lens.data(), col->nrows * 4, cudaMemcpyHostToDevice);
	cudaMemcpy(d_masks, host_masks, 1024, cudaMemcpyHostToDevice);
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	for (int i = 0; i < 6; i++)
	{
		float		ms;

		cudaEventRecord(a);
		pivot_shift_and_kernel<W><<<(unsigned) ((col->nrows + 255) / 256), 256>>>
			(d_data, d_off, d_lens, col->nrows, d_masks, top, d_result);
		cudaEventRecord(b);
		cudaEventSynchronize(b);
		cudaEventElapsedTime(&ms, a, b);
		if (i > 0)
			times.push_back(ms);
	}
	if (cudaGetLastError() != cudaSuccess)
		die("pivot layout", "kernel failed");
	cudaMemcpy(result.data(), d_result, result.size() * 4, cudaMemcpyDeviceToHost);
	for (uint32_t w : result)
		matches += __builtin_popcount(w);
	printf("pivot-%-2d: %.3fx raw (tiles + 8 B/tile + 4 B/row length), %8.1f GB/s (%5.1f%% of read), %llu matches%s\n",
		   W, (double) (bytes + ntiles * 8 + col->nrows * 4) / col->nbytes,
		   col->nbytes / (median(times) * 1e6),
		   100.0 * col->nbytes / (median(times) * 1e6) / read_gbps,
		   (unsigned long long) matches, matches == expected ? "" : "  MISMATCH vs CPU");
	cudaFree(d_data);
	cudaFree(d_off);
	cudaFree(d_lens);
	cudaFree(d_masks);
	cudaFree(d_result);
}

static void
bench_pivoted_layouts(const GlColumn *col, const char *literal, double read_gbps)
{
	std::vector<uint32_t> lens(col->nrows);
	uint32_t	masks[256] = {0};
	uint32_t	n = (uint32_t) strlen(literal);
	std::string pattern = std::string("%") + literal + "%";
	GlProgram  *prog = like(pattern.c_str(), false);
	std::vector<uint64_t> cpu(gl_bitmap_words(col->nrows));
	uint64_t	expected;

	for (uint64_t r = 0; r < col->nrows; r++)
		gl_column_value(col, r, &lens[r]);
	for (uint32_t j = 0; j < n; j++)
		masks[(uint8_t) literal[j]] |= 1u << j;
	gl_cpu_match_column(prog, col, cpu.data(), 16);
	expected = popcount(cpu);
	free(prog);
	bench_pivot<4>(col, lens, masks, 1u << (n - 1), expected, read_gbps);
	bench_pivot<8>(col, lens, masks, 1u << (n - 1), expected, read_gbps);
	bench_pivot<16>(col, lens, masks, 1u << (n - 1), expected, read_gbps);
	std::sort(lens.begin(), lens.end());
	for (int w : {4, 8, 16})
		printf("pivot-%-2d sorted by length: %.3fx raw (tiles + 8 B/tile + 4 B/row length + 4 B/row permutation)\n",
			   w, (double) (pivot_bytes(lens, w) + (col->nrows + 31) / 32 * 8 + col->nrows * 8) /
			   col->nbytes);
}
