/*-------------------------------------------------------------------------
 *
 * cuda_check.h
 *	  Turning a CUDA runtime status into the engine's (false, message) form.
 *
 * Every CUDA call of the engine goes through gl_cuda_ok(): on failure the
 * message names the step that failed and CUDA's own text, so the server
 * can log why a query went back to the CPU engine.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CUDA_CHECK_H
#define GPULIKE_CUDA_CHECK_H

#include <stdio.h>

#include <cuda_runtime.h>

static inline bool
gl_cuda_ok(cudaError_t status, const char *step, char *errbuf, size_t errlen)
{
	if (status == cudaSuccess)
		return true;
	if (errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "CUDA error in %s: %s", step,
				 cudaGetErrorString(status));
	return false;
}

static inline bool
gl_cuda_fail(const char *message, char *errbuf, size_t errlen)
{
	if (errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "%s", message);
	return false;
}

#endif							/* GPULIKE_CUDA_CHECK_H */
