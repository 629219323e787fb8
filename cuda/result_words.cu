/*-------------------------------------------------------------------------
 *
 * result_words.cu
 *	  The nonzero words of a result bitmap, listed in order: how a
 *	  selective match comes back to the host without its whole bitmap.
 *
 * A 15 M-row column's result is 1.9 MB, and the host walks it several
 * times (masking, grouping into pages) even when a handful of rows
 * matched: about 2 ms on the H200 host for a query whose kernels take
 * 0.25.  Listing the nonzero words instead makes all of that scale with
 * the rows that matched.  CUB's DeviceSelect picks the indices of the
 * nonzero words, in order, into scratch sized for the worst case (every
 * word); a small kernel gathers the words of the first `capacity` of
 * them, so the host, having read the count, copies back either those or
 * the whole bitmap.
 *
 *-------------------------------------------------------------------------
 */
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "kernels.h"
#include "cuda_check.h"

/* Is word w of the result nonzero? */
struct WordIsSet
{
	const unsigned long long *result;

	__device__ bool operator()(uint32_t w) const
	{
		return result[w] != 0;
	}
};

bool
gl_list_words_temp_bytes(uint64_t nwords, size_t *bytes, char *errbuf, size_t errlen)
{
	thrust::counting_iterator<uint32_t> words(0);

	*bytes = 0;
	return gl_cuda_ok(cub::DeviceSelect::If(NULL, *bytes, words, (uint32_t *) NULL,
											(uint32_t *) NULL, (int64_t) nwords,
											WordIsSet{NULL}),
					  "cub::DeviceSelect::If (temporary storage)", errbuf, errlen);
}

__global__ static void
gather_words_kernel(const unsigned long long *__restrict__ result,
					const uint32_t *__restrict__ index, const uint32_t *__restrict__ count,
					uint32_t capacity, unsigned long long *__restrict__ words)
{
	uint32_t	i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < capacity && i < *count)
		words[i] = result[index[i]];
}

bool
gl_launch_list_words(const GlLaunch *l, const uint32_t *result, void *temp,
					 size_t temp_bytes, uint32_t *index, uint32_t *count,
					 uint32_t capacity, uint64_t *words)
{
	const unsigned long long *result64 = (const unsigned long long *) result;
	uint64_t	nwords = gl_bitmap_words(l->dcol->nrows);
	thrust::counting_iterator<uint32_t> all_words(0);

	if (!gl_cuda_ok(cub::DeviceSelect::If(temp, temp_bytes, all_words, index, count,
										  (int64_t) nwords, WordIsSet{result64},
										  l->stream),
					"cub::DeviceSelect::If", l->errbuf, l->errlen))
		return false;
	if (capacity == 0)
		return true;
	gather_words_kernel<<<(capacity + 255) / 256, 256, 0, l->stream>>>(
		result64, index, count, capacity, (unsigned long long *) words);
	return gl_cuda_ok(cudaGetLastError(), "launching the word gather kernel", l->errbuf,
					  l->errlen);
}
