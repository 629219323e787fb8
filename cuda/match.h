/*-------------------------------------------------------------------------
 *
 * match.h
 *	  gl_cuda_match() with the preparation's choices, in full (internal to
 *	  cuda/ and its test programs).
 *
 * The server asks gl_cuda_match() (gpulike_cuda.h) for a match as planned;
 * the kernel tests (test/kernels) ask for the same match with the byte DFA
 * capped or its compact table refused, so that every kernel runs on every
 * program, and check each answer against the CPU engine.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_MATCH_H
#define GPULIKE_MATCH_H

#include "device_column.h"
#include "kernel_prep/program_prep.h"

/*
 * prog prepared once with choices (or found prepared) for every part of
 * dcol, then matched on lane (gl_cuda_match() says the rest).
 */
extern bool gl_cuda_match_with(GlDeviceColumn *dcol, const GlProgram *prog,
							   const GlPrepareChoices *choices, int lane, int fail_part,
							   GlCudaResult *result, double *kernel_ms, char *errbuf,
							   size_t errlen);

#endif							/* GPULIKE_MATCH_H */
