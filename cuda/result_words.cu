/*-------------------------------------------------------------------------
 *
 * result_words.cu
 *	  The nonzero words of a result bitmap, listed in order: how a
 *	  selective match comes back to the host without its whole bitmap.
 *
 * A 15 M-row column's result is 1.9 MB, and the host walks it several
 * times (masking, grouping into pages) even when a handful of rows
 * matched, for longer than the query's kernels take.  Listing the
 * nonzero words instead makes all of that scale with the rows that
 * matched.  CUB's DeviceSelect picks the indices of the nonzero words
 * (NULL rows taken out), in order, into scratch sized for the worst case
 * (every word); a small kernel writes their count and the first
 * `capacity` of them, with their words (and a counting match's count),
 * straight into pinned host memory, so the host, having synchronized
 * once, either has the listing or copies back the whole bitmap (other
 * forms: test/bench/results/h200-kernels/README.md, variants not kept).
 *
 *-------------------------------------------------------------------------
 */
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "kernels.h"
#include "cuda_check.h"

/*
 * The result's words with the NULL rows taken out; as CUB's predicate,
 * whether one of them is nonzero.
 */
struct MaskedResult
{
	const unsigned long long *result;
	const unsigned long long *nulls;

	__device__ unsigned long long operator[](uint32_t w) const
	{
		return result[w] & ~nulls[w];
	}

	__device__ bool operator()(uint32_t w) const
	{
		return (*this)[w] != 0;
	}
};

bool
gl_list_words_temp_bytes(uint64_t nwords, size_t *bytes, char *errbuf, size_t errlen)
{
	thrust::counting_iterator<uint32_t> words(0);

	*bytes = 0;
	return gl_cuda_ok(cub::DeviceSelect::If(NULL, *bytes, words, (uint32_t *) NULL,
											(uint32_t *) NULL, (int64_t) nwords,
											MaskedResult{NULL, NULL}),
					  "cub::DeviceSelect::If (temporary storage)", errbuf, errlen);
}

/*
 * The listing's way to the host: its count, and the first capacity
 * indices and words, written straight into pinned host memory, so a
 * selective match has no copies to wait for after its kernels.
 */
__global__ static void
listing_to_host_kernel(MaskedResult masked, const uint32_t *__restrict__ index,
					   const uint32_t *__restrict__ count, uint32_t capacity,
					   const unsigned long long *__restrict__ counted, GlHostListing host)
{
	uint32_t	n = *count;

	if (blockIdx.x == 0 && threadIdx.x == 0)
	{
		*host.count = n;
		if (counted != NULL)
			*host.counted = *counted;
	}
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < capacity && i < n;
		 i += gridDim.x * blockDim.x)
	{
		uint32_t	w = index[i];

		host.index[i] = w;
		host.words[i] = masked[w];
	}
}

bool
gl_launch_list_words(const GlLaunch *l, const uint32_t *result, void *temp,
					 size_t temp_bytes, uint32_t *index, uint32_t *count, uint32_t capacity,
					 const unsigned long long *counted, const GlHostListing *host)
{
	MaskedResult masked = {(const unsigned long long *) result,
						  (const unsigned long long *) l->dcol->nulls};
	uint64_t	nwords = gl_bitmap_words(l->dcol->nrows);
	thrust::counting_iterator<uint32_t> all_words(0);
	/* its writes cross the bus to host memory, which a few blocks keep busy */
	uint32_t	blocks = capacity < 256 * 8 ? (capacity + 255) / 256 : 8;

	if (!gl_cuda_ok(cub::DeviceSelect::If(temp, temp_bytes, all_words, index, count,
										  (int64_t) nwords, masked, l->stream),
					"cub::DeviceSelect::If", l->errbuf, l->errlen))
		return false;
	listing_to_host_kernel<<<blocks > 0 ? blocks : 1, 256, 0, l->stream>>>(
		masked, index, count, capacity, counted, *host);
	return gl_cuda_ok(cudaGetLastError(), "launching the listing's copy to the host",
					  l->errbuf, l->errlen);
}
