/*-------------------------------------------------------------------------
 *
 * kernel_test_bytes.cu
 *	  kernel_test's host check of the byte tests the kernels' hit path is
 *	  built on (chunk_scan.cuh, a CUDA header: it runs where kernel_test
 *	  is built, GPU or not).
 *
 *-------------------------------------------------------------------------
 */
#include "kernel_test.h"
#include "chunk_scan.cuh"

/*
 * The byte tests the hit path counts a chunk's separators with
 * (chunk_scan.cuh), for every value of each byte among random others.
 */
void
run_byte_flag_case(void)
{
	std::string failure;

	for (int pos = 0; pos < 4 && failure.empty(); pos++)
		for (uint32_t b = 0; b < 256 && failure.empty(); b++)
			for (int k = 0; k < 16 && failure.empty(); k++)
			{
				uint32_t	x = (rnd(1 << 16) << 16 | rnd(1 << 16)) & ~(0xFFu << 8 * pos) |
					b << 8 * pos;
				uint32_t	one = 0,
							below = 0;

				for (int i = 0; i < 4; i++)
				{
					uint32_t	byte = (x >> 8 * i) & 0xFF;

					one |= (byte == 1) << i;
					below |= (byte < 32) << i;
				}
				if (gl_byte_flags_to_bits(gl_bytes_one(x)) != one ||
					gl_byte_flags_to_bits(gl_bytes_below_32(x)) != below)
				{
					char		msg[64];

					snprintf(msg, sizeof(msg), ": 0x%08x", x);
					failure = msg;
				}
			}
	tap(failure.empty(), "bytes equal to 1 and below 32 are found exactly" + failure);
}
