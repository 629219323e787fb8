/*-------------------------------------------------------------------------
 *
 * request_bench.cu
 *	  Where a selective request's time goes around its kernels
 *	  (make -C test/kernels, build/request_bench; needs a GPU).
 *
 * The latency benchmark (test/bench/latency) saw a selective query on a
 * cached 15 M-row column take about 0.1 ms more in the server's engine
 * than in its kernels (H100, d43dcdc).  This program isolates that part:
 * a column of comment-like text of the same size, and for each pattern
 * the median of many calls of
 *	prep		gl_prepare_program_with() alone, with the choices
 *				gl_cuda_match() makes (the column's byte pairs, the
 *				device's shared memory): what a fresh pattern's request
 *				spends preparing, which the column's program cache
 *				(program_cache.cu) saves a repeated one;
 *	call		gl_cuda_match() as the server calls it, the result listed
 *				when its nonzero words are few (wall time; the program
 *				found in the column's cache after the first call);
 *	kernel		the kernel time that call reports;
 * and call - kernel, the cost around the kernels.  For scale, the floor of
 * one round trip on a stream (a 4-byte copy to the host and its
 * synchronization) is printed first.  Every listed answer is checked
 * against the CPU engine.
 *
 * Usage: request_bench [rows, default 15000000] [calls, default 200]
 *
 *-------------------------------------------------------------------------
 */
#include <algorithm>
#include <chrono>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <cuda_runtime.h>

extern "C"
{
#include "column/column.h"
#include "engine/cpu_engine.h"
#include "program/like_build.h"
}
#include "gpulike_cuda.h"
#include "kernels.h"
#include "kernel_prep/program_prep.h"
#include "test_random.h"
#include "bench_text.h"

static GlXorshift rng = {0x9E3779B97F4A7C15ULL};

static void
die(const char *what, const char *msg)
{
	printf("request_bench: %s: %s\n", what, msg);
	exit(2);
}

static double
now_ms(void)
{
	return std::chrono::duration<double, std::milli>(
		std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double
median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

/* The stream round trip's floor: a 4-byte copy back and its synchronization. */
static double
round_trip_ms(int calls)
{
	cudaStream_t stream;
	uint32_t   *dev,
			   *host;
	std::vector<double> ms;

	if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess ||
		cudaMalloc(&dev, 4) != cudaSuccess || cudaMallocHost(&host, 4) != cudaSuccess)
		die("round trip", "CUDA set-up failed");
	for (int i = 0; i < calls; i++)
	{
		double		t0 = now_ms();

		cudaMemcpyAsync(host, dev, 4, cudaMemcpyDeviceToHost, stream);
		cudaStreamSynchronize(stream);
		ms.push_back(now_ms() - t0);
	}
	cudaFreeHost(host);
	cudaFree(dev);
	cudaStreamDestroy(stream);
	return median(ms);
}

/* The rows of a listed or whole result, as a bitmap. */
static std::vector<uint64_t>
as_bitmap(const GlCudaResult &r, uint64_t nwords)
{
	std::vector<uint64_t> bits(nwords, 0);

	if (!r.listed)
		memcpy(bits.data(), r.bits, nwords * sizeof(uint64_t));
	else
		for (uint64_t i = 0; i < r.nwords; i++)
			bits[r.word_index[i]] = r.words[i];
	return bits;
}

static void
time_pattern(GlDeviceColumn *dcol, const GlColumn *col, const char *pattern, bool ilike,
			 int calls)
{
	const char *error;
	GlProgram  *prog = gl_build_like(pattern, strlen(pattern), true,
									 ilike ? gl_ascii_case_class : NULL, NULL, &error);
	uint64_t	nwords = gl_bitmap_words(col->nrows);
	/* the server's listing capacity (src/server/evaluate.c) */
	uint64_t	capacity = std::min<uint64_t>(nwords / 16, 65536);
	std::vector<uint64_t> bits(nwords), index_words(capacity), cpu(nwords);
	std::vector<uint32_t> index(capacity);
	std::vector<double> prep, call, kernel, around;
	GlCudaResult r = {bits.data(), capacity, index.data(), index_words.data()};
	size_t		shared_limit;
	char		err[256];
	uint64_t	rows = 0;

	if (prog == NULL)
		die(pattern, error);
	if (!gl_shared_memory_limit(&shared_limit, err, sizeof(err)))
		die("shared memory limit", err);
	for (int i = 0; i < calls + 1; i++)
	{
		GlPrepareChoices choices = {UINT32_MAX, true, false, dcol->pairs};
		GlPreparedProgram pp;
		double		t0 = now_ms(),
					t1,
					t2,
					kms;

		if (!gl_prepare_program_with(prog, shared_limit, &choices, &pp, err, sizeof(err)))
			die(pattern, err);
		gl_prepared_free(&pp);
		t1 = now_ms();
		if (!gl_cuda_match(dcol, prog, false, 0, -1, &r, &kms, err, sizeof(err)))
			die(pattern, err);
		t2 = now_ms();
		if (i == 0)
			continue;			/* the first call sizes the scratch */
		prep.push_back(t1 - t0);
		call.push_back(t2 - t1);
		kernel.push_back(kms);
		around.push_back(t2 - t1 - kms);
	}
	gl_cpu_match_column(prog, col, cpu.data(), 16);
	for (uint64_t w : cpu)
		rows += __builtin_popcountll(w);
	printf("%-34s %7llu %-6s %8.3f %8.3f %8.3f %8.3f%s\n", pattern, (unsigned long long) rows,
		   r.listed ? "listed" : "bitmap", median(prep), median(call), median(kernel),
		   median(around), as_bitmap(r, nwords) == cpu ? "" : "  MISMATCH vs CPU");
	free(prog);
}

int
main(int argc, char **argv)
{
	uint64_t	nrows = argc > 1 ? strtoull(argv[1], NULL, 10) : 15000000;
	int			calls = argc > 2 ? atoi(argv[2]) : 200;
	GlCudaDeviceInfo info;
	GlColumn	col;
	GlDeviceColumn *dcol;
	char		err[256];
	char		buf[256];

	if (!gl_cuda_probe(&info, 0, err, sizeof(err)))
		die("no usable CUDA device", err);
	if (!gl_column_init(&col, nrows, nrows * 50))
		die("host column", "out of memory");
	while (col.nrows < nrows)
	{
		uint32_t	len = gl_bench_comment(&rng, buf);

		if (!gl_column_append(&col, gl_tid_make((uint32_t) (col.nrows / 256),
												(uint16_t) (col.nrows % 256 + 1)),
							  buf, len, 0))
			die("host column", "out of memory");
	}
	dcol = gl_cuda_upload(&col, 1, 0, err, sizeof(err));
	if (dcol == NULL)
		die("upload", err);
	printf("# device: %s; %llu rows, %.2f GB; %d calls a pattern, medians in ms\n", info.name,
		   (unsigned long long) col.nrows, col.nbytes / 1e9, calls);
	printf("# round trip (4-byte copy to the host, synchronized): %.3f ms\n",
		   round_trip_ms(calls));
	printf("%-34s %7s %-6s %8s %8s %8s %8s\n", "pattern", "rows", "result", "prep", "call",
		   "kernel", "around");
	time_pattern(dcol, &col, "%zebra%", false, calls);
	time_pattern(dcol, &col, "%carefully final deposits%", false, calls);
	time_pattern(dcol, &col, "%quickly final sleep%", false, calls);
	time_pattern(dcol, &col, "%CAREFULLY FINAL DEPOSITS%", true, calls);
	time_pattern(dcol, &col, "%carefully%final deposits%", false, calls);
	time_pattern(dcol, &col, "%Tiresias sleep%", false, calls);
	gl_cuda_free(dcol);
	gl_column_free(&col);
	return 0;
}
