/*-------------------------------------------------------------------------
 *
 * test_plans.h
 *	  A preparation as the test and benchmark programs ask for it and name
 *	  it (test_plans.cc): test-only, so not in gpulike.so.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_TEST_PLANS_H
#define GPULIKE_TEST_PLANS_H

#include "kernel_prep/program_prep.h"

/*
 * prog prepared as a plain match prepares it, with the byte DFA capped at
 * max_stream_states states (UINT32_MAX: as many as fit; 0: never, so the
 * skims and per-row kernels run).
 */
extern bool gl_prepare_program(const GlProgram *prog, size_t shared_limit,
							   uint32_t max_stream_states, GlPreparedProgram *pp,
							   char *errbuf, size_t errlen);

/*
 * The kernels cuda/match.cu runs for pp: "sieve", "stream" (compact
 * table), "stream-wide", "stream-classed", "stream-windowed", the last
 * four after the set sieve "set-sieve+stream..." (e.g.
 * "set-sieve+stream-windowed"), "factored-stream+rows", "skim",
 * "sieve+rows", "rows".
 */
extern const char *gl_plan_name(const GlPreparedProgram *pp);

#endif							/* GPULIKE_TEST_PLANS_H */
