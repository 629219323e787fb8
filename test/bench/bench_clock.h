/*-------------------------------------------------------------------------
 *
 * bench_clock.h
 *	  The clock the C benchmarks of test/bench time with.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <time.h>

/* Milliseconds on the monotonic clock. */
static inline double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#endif							/* BENCH_CLOCK_H */
