/*-------------------------------------------------------------------------
 *
 * counting.cu
 *	  Counting a match's candidates on the device, as a counting answer
 *	  does on the host (column/answer.c), so that a count comes back as a
 *	  number and the few rows that must still be listed.
 *
 * A count(*) over a 15 M-row column used to bring its whole result back:
 * 1.9 MB copied from the device, masked word by word and walked page by
 * page on the host, longer than the request's kernels took
 * (test/bench/throughput's per-request breakdown; figures in
 * test/bench/results/h100-kernels/README.md).  Here two small
 * kernels follow the match on its stream:
 *
 *	finish	one thread per result word: negated if asked (an exact
 *			program's NOT), then masked to the rows that can be
 *			candidates -- the masking the server did on the host;
 *	count	one thread per page of the column's page index: a page on a
 *			block the asker calls all-visible, with no delta row on it
 *			(GL_COUNTING_NO_BLOCK), whose set rows are all known live, has
 *			them counted and its bits cleared (atomicAnd: a word may hold
 *			rows of two pages, and each thread clears only its own);
 *			every other page's bits stay, to be listed.
 *
 * That is the host's rule to the page (answer.c's count_page), so the
 * rows left are exactly those a counting answer lists, and the listing
 * (result_words.cu) brings them back with the count.  The arrays come
 * from the server (counting_rows.h) whenever the column changes; they
 * take 0.25 bytes a row more than the NULL bitmap and a few bytes a page.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "cuda_check.h"

bool
gl_cuda_set_counting(GlDeviceColumn *dcol, const GlCountingRows *rows, char *errbuf,
					 size_t errlen)
{
	GlDeviceCounting *c = &dcol->counting;
	size_t		bitmap_bytes;
	size_t		page_bytes;
	size_t		need;
	char	   *p;

	c->rows = 0;
	if (rows == NULL)
		return true;
	if (dcol->next != NULL || rows->nrows != dcol->nrows)
		return gl_cuda_fail("counting needs a column in one part, and arrays of its rows",
							errbuf, errlen);
	bitmap_bytes = gl_round_up(gl_bitmap_words(rows->nrows) * sizeof(uint64_t), 256);
	page_bytes = gl_round_up(((size_t) rows->npages + 1) * sizeof(uint32_t), 256);
	need = 2 * bitmap_bytes + 2 * page_bytes;
	if (!gl_cuda_ok(cudaSetDevice(dcol->device), "cudaSetDevice", errbuf, errlen))
		return false;
	if (need > c->capacity)
	{
		cudaFree(c->memory);
		c->memory = NULL;
		c->capacity = 0;
		if (!gl_cuda_ok(cudaMalloc(&c->memory, need + need / 4), "cudaMalloc (counting)",
						errbuf, errlen))
			return false;
		c->capacity = need + need / 4;
	}
	p = (char *) c->memory;
	c->answerable = (const uint64_t *) p;
	c->uncertain = (const uint64_t *) (p + bitmap_bytes);
	c->page_first_row = (const uint32_t *) (p + 2 * bitmap_bytes);
	c->page_block = (const uint32_t *) (p + 2 * bitmap_bytes + page_bytes);
	if (!gl_cuda_ok(cudaMemcpy((void *) c->answerable, rows->answerable,
							   gl_bitmap_words(rows->nrows) * sizeof(uint64_t),
							   cudaMemcpyHostToDevice), "cudaMemcpy (counting)", errbuf, errlen) ||
		!gl_cuda_ok(cudaMemcpy((void *) c->uncertain, rows->uncertain,
							   gl_bitmap_words(rows->nrows) * sizeof(uint64_t),
							   cudaMemcpyHostToDevice), "cudaMemcpy (counting)", errbuf, errlen) ||
		!gl_cuda_ok(cudaMemcpy((void *) c->page_first_row, rows->page_first_row,
							   ((size_t) rows->npages + 1) * sizeof(uint32_t),
							   cudaMemcpyHostToDevice), "cudaMemcpy (counting)", errbuf, errlen) ||
		!gl_cuda_ok(cudaMemcpy((void *) c->page_block, rows->page_block,
							   (size_t) rows->npages * sizeof(uint32_t),
							   cudaMemcpyHostToDevice), "cudaMemcpy (counting)", errbuf, errlen))
		return false;
	c->npages = rows->npages;
	c->rows = rows->nrows;
	return true;
}

bool
gl_cuda_can_count(const GlDeviceColumn *dcol)
{
	return dcol->next == NULL && dcol->counting.rows == dcol->nrows &&
		dcol->counting.memory != NULL;
}

__global__ static void
finish_kernel(unsigned long long *result, const unsigned long long *__restrict__ answerable,
			  bool negate, uint64_t nwords)
{
	uint64_t	w = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x;

	if (w < nwords)
		result[w] = (negate ? ~result[w] : result[w]) & answerable[w];
}

/* The bits of rows [lo, hi) within word w (lo < hi, both within or around it). */
__device__ __forceinline__ unsigned long long
rows_of_word(uint64_t w, uint32_t lo, uint32_t hi)
{
	uint64_t	first = w * 64;
	uint32_t	from = lo > first ? (uint32_t) (lo - first) : 0;
	uint32_t	to = hi < first + 64 ? (uint32_t) (hi - first) : 64;
	unsigned long long below_to = to == 64 ? ~0ULL : (1ULL << to) - 1;

	return below_to & ~((1ULL << from) - 1);
}

__global__ static void
count_kernel(unsigned long long *result, const unsigned long long *__restrict__ uncertain,
			 const uint32_t *__restrict__ page_first_row,
			 const uint32_t *__restrict__ page_block, uint32_t npages,
			 const unsigned long long *__restrict__ visible, uint32_t nblocks,
			 unsigned long long *counted)
{
	uint32_t	p = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t	n = 0;

	if (p < npages)
	{
		uint32_t	block = page_block[p];

		if (block < nblocks && ((visible[block / 64] >> (block % 64)) & 1))
		{
			uint32_t	lo = page_first_row[p];
			uint32_t	hi = page_first_row[p + 1];
			uint32_t	nset = 0;
			bool		certain = true;

			for (uint64_t w = lo / 64; w * 64 < hi; w++)
			{
				unsigned long long set = result[w] & rows_of_word(w, lo, hi);

				nset += __popcll(set);
				certain &= (set & uncertain[w]) == 0;
			}
			if (nset > 0 && certain)
			{
				for (uint64_t w = lo / 64; w * 64 < hi; w++)
					atomicAnd(&result[w], ~rows_of_word(w, lo, hi));
				n = nset;
			}
		}
	}
	for (int offset = 16; offset > 0; offset /= 2)
		n += __shfl_down_sync(0xFFFFFFFFu, n, offset);
	if (threadIdx.x % 32 == 0 && n > 0)
		atomicAdd(counted, (unsigned long long) n);
}

bool
gl_launch_count(const GlLaunch *l, uint32_t *result, const uint64_t *visible, uint32_t nblocks,
				bool negate, unsigned long long *counted)
{
	const GlDeviceCounting *c = &l->dcol->counting;
	uint64_t	nwords = gl_bitmap_words(l->dcol->nrows);

	if (!gl_cuda_can_count(l->dcol))
		return gl_cuda_fail("counting on a column without its counting arrays", l->errbuf,
							l->errlen);
	finish_kernel<<<(unsigned) ((nwords + 255) / 256), 256, 0, l->stream>>>(
		(unsigned long long *) result, (const unsigned long long *) c->answerable, negate,
		nwords);
	if (c->npages > 0 && nblocks > 0)
		count_kernel<<<(c->npages + 255) / 256, 256, 0, l->stream>>>(
			(unsigned long long *) result, (const unsigned long long *) c->uncertain,
			c->page_first_row, c->page_block, c->npages,
			(const unsigned long long *) visible, nblocks, counted);
	return gl_cuda_ok(cudaGetLastError(), "launching the counting kernels", l->errbuf,
					  l->errlen);
}
