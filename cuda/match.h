/*-------------------------------------------------------------------------
 *
 * match.h
 *	  gl_cuda_match() with the preparation's choices in full, for cuda/ and
 *	  the kernel tests (test/kernels), which cap the byte DFA or refuse the
 *	  compact table so that every kernel runs on every program.
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
