/*
 * Probe (a study, not the extension's code; ready, not yet run): would
 * TMA bulk copies (cp.async.bulk, Hopper and later) serve the stream
 * kernel's stage better than cp.async where the table leaves no room for
 * the line buffer (200 literals' 154 kB windowed table: one 2 kB slice
 * buffer a warp, 32 warps)?  A cp.async of eight chunks' 64-byte slices
 * takes 8 shared-memory wavefronts on the LSU pipe the table loads wait
 * on; a bulk copy goes through the TMA unit.
 *
 * Each warp walks its own 32 "chunks" (lane L's chunk L, 256 bytes, four
 * 64-byte slices) of a 1 GB buffer, slice by slice, as the stream kernel
 * does: stage the slice, read it back (four 16-byte loads a lane), then
 * one dependent 16-bit table load a byte from a 96 kB table of random
 * even offsets (as a windowed table's chain, with more bank conflicts;
 * the printable window's 154 kB table leaves room for one slice buffer,
 * as the Buffers = 1 runs have, the letters' 98 kB for two).
 * Variants (template Mode):
 *   0  cp.async, the stage's pattern (one instruction: 8 chunks' slices)
 *   1  cp.async.bulk, 64 bytes a lane, one mbarrier a buffer
 *   2  as 0, copies and read-back only (no table loads)
 *   3  as 1, copies and read-back only
 *   4  table loads only, on a slice staged once
 *   5  a TMA tensor copy, one a warp: the 2D box of its 32 chunks' slice t
 *      (64 bytes x 32 rows of 256), swizzled 64B, one mbarrier a buffer
 *      (call 3; modes 0-4 ran alone in call 1)
 *   6  as 5, copies and read-back only
 * and Buffers (1 or 2: the next slice's copy in flight while one is
 * stepped).  Prints GB/s for each; run it alone and under Nsight Compute
 * (--section MemoryWorkloadAnalysis_Tables) for the shared wavefronts.
 *   nvcc -O3 -std=c++17 -arch=sm_90 bulk_probe.cu -o bulk_probe
 */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>

constexpr uint32_t WARPS = 32;
constexpr uint32_t BLOCK = WARPS * 32;
constexpr uint32_t CHUNK = 256;
constexpr uint32_t SLICE = 64;
constexpr uint32_t SLICE_BUFFER = 32 * SLICE;	/* a warp's slice buffer */
/* as 200 literals of letters' windowed table: room for two slice buffers */
constexpr uint32_t TABLE_BYTES = 96 * 1024;
constexpr uint64_t DATA_BYTES = 1ull << 30;
constexpr uint64_t WARP_SPAN = 32 * CHUNK;	/* the bytes a warp takes at a time */

/* 1024: a 64B-swizzled TMA box lands on 512-byte boundaries */
extern __shared__ __align__(1024) uint8_t shared_bytes[];

/* the stage's slot of lane row's piece (as gl_stage_slot(): swizzled) */
__device__ __forceinline__ uint32_t
stage_slot(uint32_t row, uint32_t piece)
{
	return row * 4 + (piece ^ ((row >> 1) & 3));
}

__device__ __forceinline__ void
copy16(uint32_t to, const uint8_t *from)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(to), "l"(from) : "memory");
}

__device__ __forceinline__ void
bulk_copy(uint32_t to, const uint8_t *from, uint32_t bytes, uint32_t bar)
{
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
				 " [%0], [%1], %2, [%3];"
				 :: "r"(to), "l"(from), "r"(bytes), "r"(bar) : "memory");
}

__device__ __forceinline__ void
tensor_copy(uint32_t to, const CUtensorMap *map, uint32_t x, uint32_t y, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
				 " [%0], [%1, {%2, %3}], [%4];"
				 :: "r"(to), "l"((uint64_t) map), "r"(x), "r"(y), "r"(bar) : "memory");
}

__device__ __forceinline__ void
bar_init(uint32_t bar)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
}

__device__ __forceinline__ void
bar_expect(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes)
				 : "memory");
}

__device__ __forceinline__ void
bar_wait(uint32_t bar, uint32_t phase)
{
	asm volatile("{\n\t.reg .pred done;\n"
				 "wait:\n\t"
				 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
				 "@!done bra wait;\n\t}"
				 :: "r"(bar), "r"(phase) : "memory");
}

template <int Mode, int Buffers>
__global__ void __launch_bounds__(BLOCK, 1)
probe(const uint8_t *data, const uint16_t *table, uint32_t *sink,
	  const __grid_constant__ CUtensorMap map)
{
	/* the copies each mode makes, and what it does with the staged bytes */
	constexpr bool Tensor = Mode == 5 || Mode == 6;
	constexpr bool Bulk = Mode == 1 || Mode == 3;
	constexpr bool OnBarriers = Tensor || Bulk;	/* waited on an mbarrier, read XOR-ordered */
	constexpr bool CopiesOnly = Mode == 2 || Mode == 3 || Mode == 6;
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	warp = threadIdx.x / 32;
	uint8_t    *stage_base = shared_bytes + TABLE_BYTES + warp * Buffers * SLICE_BUFFER;
	uint64_t   *bars = (uint64_t *) (shared_bytes + TABLE_BYTES + WARPS * Buffers * SLICE_BUFFER) +
		warp * Buffers;
	uint32_t	stage = (uint32_t) __cvta_generic_to_shared(stage_base);
	uint32_t	bar0 = (uint32_t) __cvta_generic_to_shared(bars);
	uint64_t	warps = (uint64_t) gridDim.x * WARPS;
	uint64_t	spans = DATA_BYTES / WARP_SPAN;
	uint32_t	state = lane * 2;
	uint32_t	acc = 0;
	uint32_t	phase[2] = {0, 0};

	for (uint32_t i = threadIdx.x; i < TABLE_BYTES / 2; i += blockDim.x)
		((uint16_t *) shared_bytes)[i] = table[i];
	if (lane < Buffers)
		bar_init(bar0 + lane * 8);
	asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	__syncthreads();

	/* slice t of span s into buffer b */
	auto fetch = [&](uint64_t s, uint32_t t, uint32_t b) {
		const uint8_t *span = data + s * WARP_SPAN;
		uint32_t	buffer = stage + b * SLICE_BUFFER;

		if (Tensor)
		{
			asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
			__syncwarp();
			if (lane == 0)
			{
				bar_expect(bar0 + b * 8, SLICE_BUFFER);
				tensor_copy(buffer, &map, t * SLICE, (uint32_t) (s * 32), bar0 + b * 8);
			}
		}
		else if (Bulk)
		{
			/* the async proxy writes where the generic one read: order them */
			asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
			__syncwarp();
			if (lane == 0)
				bar_expect(bar0 + b * 8, SLICE_BUFFER);
			__syncwarp();
			bulk_copy(buffer + lane * SLICE, span + lane * CHUNK + t * SLICE, SLICE, bar0 + b * 8);
		}
		else
		{
			/* instruction j: chunks j * 8 .. j * 8 + 7, four lanes a slice */
#pragma unroll
			for (uint32_t j = 0; j < 4; j++)
			{
				uint32_t	row = j * 8 + lane / 4;

				copy16(buffer + stage_slot(row, lane % 4) * 16,
					   span + row * CHUNK + t * SLICE + (lane % 4) * 16);
			}
			asm volatile("cp.async.commit_group;" ::: "memory");
		}
	};
	/* buffer b's copy, with another (the next buffer's) in flight after it or not */
	auto wait = [&](uint32_t b, bool another) {
		if (OnBarriers)
		{
			bar_wait(bar0 + b * 8, phase[b]);
			phase[b] ^= 1;
		}
		else if (another)
			asm volatile("cp.async.wait_group 1;" ::: "memory");
		else
			asm volatile("cp.async.wait_group 0;" ::: "memory");
		__syncwarp();
	};

	uint64_t	first = blockIdx.x * (uint64_t) WARPS + warp;
	uint32_t	b = 0;

	fetch(first, 0, 0);
	if (Mode == 4)
		wait(0, false);
	for (uint64_t s = first; s < spans; s += warps)
		for (uint32_t t = 0; t < CHUNK / SLICE; t++)
		{
			uint64_t	next_s = t + 1 < CHUNK / SLICE ? s : s + warps;
			uint32_t	next_t = t + 1 < CHUNK / SLICE ? t + 1 : 0;
			const uint4 *buffer = (const uint4 *) (stage_base + b * SLICE_BUFFER);
			uint4		words[4];

			if (Mode != 4)
			{
				bool		another = Buffers == 2 && next_s < spans;

				if (another)
				{
					__syncwarp();	/* the other buffer read by all (last slice) */
					fetch(next_s, next_t, b ^ 1);
				}
				wait(b, another);
			}
			/* a bulk copy lands lane L's 64 bytes at 64 L: read its pieces in
			 * an order that puts eight lanes on the 32 banks */
#pragma unroll
			for (uint32_t j = 0; j < 4; j++)
				words[j] = OnBarriers ? buffer[lane * 4 + (j ^ ((lane >> 1) & 3))] :
					buffer[stage_slot(lane, j)];
			if (CopiesOnly)
				acc += words[0].x ^ words[1].y ^ words[2].z ^ words[3].w;
			else
			{
#pragma unroll
				for (uint32_t j = 0; j < 4; j++)
				{
					uint32_t	w[4] = {words[j].x, words[j].y, words[j].z, words[j].w};

#pragma unroll
					for (uint32_t k = 0; k < 16; k++)
						state = ((const uint16_t *) shared_bytes)
							[(state + ((w[k / 4] >> (8 * (k % 4))) & 0xFF)) % (TABLE_BYTES / 2)];
				}
			}
			if (Mode != 4)
			{
				if (Buffers == 1)
				{
					__syncwarp();		/* read by all before it is fetched into again */
					if (next_s < spans)
						fetch(next_s, next_t, 0);
				}
				else
					b ^= 1;
			}
		}
	/* nothing is in flight: the last slice fetched none */
	sink[blockIdx.x * BLOCK + threadIdx.x] = acc + state;
}

template <int Mode, int Buffers>
static void
run(const char *name, const uint8_t *data, const uint16_t *table, uint32_t *sink, int blocks,
	const CUtensorMap &map)
{
	size_t		shared = TABLE_BYTES + WARPS * Buffers * (SLICE_BUFFER + 8);
	cudaEvent_t start, stop;
	float		ms = 0;

	cudaFuncSetAttribute(probe<Mode, Buffers>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						 (int) shared);
	cudaEventCreate(&start);
	cudaEventCreate(&stop);
	probe<Mode, Buffers><<<blocks, BLOCK, shared>>>(data, table, sink, map);	/* warm */
	cudaEventRecord(start);
	probe<Mode, Buffers><<<blocks, BLOCK, shared>>>(data, table, sink, map);
	cudaEventRecord(stop);
	cudaEventSynchronize(stop);
	cudaEventElapsedTime(&ms, start, stop);
	/* the same sum for the modes that read the same words (2 and 6, if the swizzle is right) */
	std::vector<uint32_t> out((size_t) blocks * BLOCK);
	uint32_t	sum = 0;

	cudaMemcpy(out.data(), sink, out.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost);
	for (uint32_t v : out)
		sum += v;
	printf("%-40s buffers %d  %8.1f GB/s  sum %08x  %s\n", name, Buffers,
		   DATA_BYTES / (ms * 1e6), sum, cudaGetErrorString(cudaGetLastError()));
}

int
main()
{
	int			sms;
	uint8_t    *data;
	uint16_t   *table;
	uint32_t   *sink;
	std::vector<uint8_t> host(DATA_BYTES);
	std::vector<uint16_t> host_table(TABLE_BYTES / 2);

	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	uint64_t	x = 0x2545F4914F6CDD1DULL;
	auto		next = [&x]() { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x; };

	for (uint64_t i = 0; i < DATA_BYTES; i++)
		host[i] = "abcdefghijklmnopqrstuvwxyz    "[next() % 30];
	for (auto &e : host_table)
		e = (uint16_t) ((next() % (TABLE_BYTES / 2 - 256)) & ~1u);
	cudaMalloc(&data, DATA_BYTES);
	cudaMalloc(&table, TABLE_BYTES);
	cudaMalloc(&sink, (size_t) sms * BLOCK * sizeof(uint32_t));
	cudaMemcpy(data, host.data(), DATA_BYTES, cudaMemcpyHostToDevice);
	cudaMemcpy(table, host_table.data(), TABLE_BYTES, cudaMemcpyHostToDevice);

	/* the column as a 2D tensor: a row a chunk */
	PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
	cudaDriverEntryPointQueryResult found;
	CUtensorMap map = {};
	cuuint64_t	dims[2] = {CHUNK, DATA_BYTES / CHUNK};
	cuuint64_t	strides[1] = {CHUNK};
	cuuint32_t	box[2] = {SLICE, 32};
	cuuint32_t	element_strides[2] = {1, 1};

	if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **) &encode, 12000,
										 cudaEnableDefault, &found) != cudaSuccess ||
		encode == NULL ||
		encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, data, dims, strides, box,
			   element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
			   CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
	{
		fprintf(stderr, "cuTensorMapEncodeTiled failed\n");
		return 1;
	}

	run<0, 1>("cp.async stage + table loads", data, table, sink, sms, map);
	run<1, 1>("bulk copies + table loads", data, table, sink, sms, map);
	run<2, 1>("cp.async stage alone", data, table, sink, sms, map);
	run<3, 1>("bulk copies alone", data, table, sink, sms, map);
	run<4, 1>("table loads alone", data, table, sink, sms, map);
	run<0, 2>("cp.async stage + table loads", data, table, sink, sms, map);
	run<1, 2>("bulk copies + table loads", data, table, sink, sms, map);
	run<2, 2>("cp.async stage alone", data, table, sink, sms, map);
	run<3, 2>("bulk copies alone", data, table, sink, sms, map);
	run<5, 1>("tensor copies + table loads", data, table, sink, sms, map);
	run<6, 1>("tensor copies alone", data, table, sink, sms, map);
	run<5, 2>("tensor copies + table loads", data, table, sink, sms, map);
	run<6, 2>("tensor copies alone", data, table, sink, sms, map);
	return 0;
}
