/*-------------------------------------------------------------------------
 *
 * test_random.h
 *	  Reproducible random numbers for the preparation's test (prep_test.cc)
 *	  and the standalone kernel programs (test/kernels: kernel_test.cu,
 *	  kernel_bench.cu): xorshift64, so a seed always gives the same columns
 *	  and patterns.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_TEST_RANDOM_H
#define GPULIKE_TEST_RANDOM_H

#include <stdint.h>

struct GlXorshift
{
	uint64_t	state;

	/* Uniform-ish in [0, n); 0 when n is 0. */
	uint32_t	below(uint32_t n)
	{
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		return n ? (uint32_t) (state % n) : 0;
	}
};

#endif							/* GPULIKE_TEST_RANDOM_H */
