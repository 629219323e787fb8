/*
 * Probe (a study, not the extension's code): how many shared-memory
 * wavefronts does a cp.async of 16 bytes a lane take, by pattern?  The
 * stream kernel's stage copies take 8 an instruction where 4 would be the
 * ideal (512 bytes).  Each kernel below issues the same number of
 * copies; Nsight Compute's source counters give the wavefronts of each
 * LDGSTS.
 *   contiguous       lane L: global base + 16 L -> shared 16 L
 *   contiguous_zfill the same with the src-size operand (16)
 *   stage            the stage's pattern: 8 chunks 1 kB apart, 4 lanes a
 *                    64-byte slice, into gl_stage_slot()'s swizzled slots
 *   stage_nozfill    the same without the src-size operand
 *   contiguous_ca    contiguous, cp.async.ca (through L1)
 *   lines            eight lanes to a chunk's 128-byte line, four chunks
 *   stage_flat       the stage's sources, contiguous destinations
 *   half_lines       eight 64-byte runs, two to a line (four lines)
 *   scattered        every lane a line of its own
 * nvcc -O3 -arch=sm_90 ldgsts_probe.cu -o ldgsts_probe
 */
#include <cstdio>
#include <cstdint>

constexpr int ROUNDS = 64;
constexpr uint64_t WARP_BYTES = ROUNDS / 4 * 32768;

__device__ __forceinline__ uint32_t
slot(uint32_t row, uint32_t piece)
{
	return row * 4 + (piece ^ ((row >> 1) & 3));
}

template <int Pattern>
__global__ void
probe(const uint8_t *data, uint32_t *sink)
{
	__shared__ __align__(128) uint4 stage[8][128];
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	warp = threadIdx.x / 32;
	const uint8_t *base = data + (blockIdx.x * 8 + warp) * (uint64_t) WARP_BYTES;
	uint32_t	acc = 0;

	for (int r = 0; r < ROUNDS; r++)
	{

		for (int j = 0; j < 4; j++)
		{
			const uint8_t *from;
			uint32_t	to;

			uint32_t	row = j * 8 + lane / 4;
			uint32_t	contiguous = (uint32_t) __cvta_generic_to_shared(&stage[warp][j * 32 + lane]);

			if (Pattern == 2 || Pattern == 3 || Pattern == 6)
			{
				/* slice r % 4 of chunk row of 32 chunks 1 kB apart, anew every 4 rounds */
				from = base + (r / 4) * 32768 + row * 1024 + (r % 4) * 64 + (lane % 4) * 16;
				to = Pattern == 6 ? contiguous :
					(uint32_t) __cvta_generic_to_shared(&stage[warp][slot(row, lane % 4)]);
			}
			else if (Pattern == 5)
			{
				/* eight lanes to a chunk's 128-byte line: four whole lines */
				from = base + (r / 2) * 16384 + (j * 4 + lane / 8) * 1024 + (r % 2) * 128 +
					(lane % 8) * 16;
				to = contiguous;
			}
			else if (Pattern == 7)
			{
				/* eight 64-byte runs, two to a line: four whole lines in halves */
				from = base + (r / 4) * 32768 + (row / 2) * 1024 + (row % 2) * 64 +
					(r % 4) * 128 + (lane % 4) * 16;
				to = contiguous;
			}
			else if (Pattern == 8)
			{
				/* every lane a line of its own */
				from = base + (r / 4) * 32768 + (j * 32 + lane) * 256 + (r % 4) * 16;
				to = contiguous;
			}
			else
			{
				from = base + r * 2048 + j * 512 + lane * 16;
				to = contiguous;
			}
			if (Pattern == 0 || Pattern >= 3 && Pattern != 4)
				asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(to), "l"(from) : "memory");
			else if (Pattern == 1 || Pattern == 2)
				asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(to), "l"(from), "r"(16) : "memory");
			else
				asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(to), "l"(from) : "memory");
		}
		asm volatile("cp.async.commit_group;" ::: "memory");
		asm volatile("cp.async.wait_group 0;" ::: "memory");
		__syncwarp();
		acc += stage[warp][lane].x;
		__syncwarp();
	}
	sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int
main()
{
	const int	blocks = 264;
	size_t		bytes = (size_t) blocks * 8 * WARP_BYTES;
	uint8_t    *data;
	uint32_t   *sink;

	cudaMalloc(&data, bytes);
	cudaMemset(data, 1, bytes);
	cudaMalloc(&sink, blocks * 256 * 4);
	probe<0><<<blocks, 256>>>(data, sink);
	probe<1><<<blocks, 256>>>(data, sink);
	probe<2><<<blocks, 256>>>(data, sink);
	probe<3><<<blocks, 256>>>(data, sink);
	probe<4><<<blocks, 256>>>(data, sink);
	probe<5><<<blocks, 256>>>(data, sink);
	probe<6><<<blocks, 256>>>(data, sink);
	probe<7><<<blocks, 256>>>(data, sink);
	probe<8><<<blocks, 256>>>(data, sink);
	printf("probe: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
	return 0;
}
