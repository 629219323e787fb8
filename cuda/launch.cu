/*-------------------------------------------------------------------------
 *
 * launch.cu
 *	  Launch sizing shared by the kernels: how much shared memory a block
 *	  may have, and how many blocks a kernel whose blocks stay resident
 *	  (and walk the column) gets.
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "cuda_check.h"

bool
gl_blocks_per_sm(const void *kernel, int block, uint32_t shared, const GlLaunch *l, int *per_sm)
{
	*per_sm = 0;
	if (shared > 48 * 1024 &&
		!gl_cuda_ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
										 (int) shared),
					"cudaFuncSetAttribute", l->errbuf, l->errlen))
		return false;
	return gl_cuda_ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, block, shared),
					  "cudaOccupancyMaxActiveBlocksPerMultiprocessor", l->errbuf, l->errlen);
}

bool
gl_resident_grid(const void *kernel, int block, uint32_t shared, uint64_t nthreads,
				 const GlLaunch *l, unsigned *grid)
{
	int			device;
	int			sms;
	int			per_sm;
	uint64_t	needed = (nthreads + block - 1) / block;

	if (!gl_blocks_per_sm(kernel, block, shared, l, &per_sm) ||
		!gl_cuda_ok(cudaGetDevice(&device), "cudaGetDevice", l->errbuf, l->errlen) ||
		!gl_cuda_ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
					"cudaDeviceGetAttribute", l->errbuf, l->errlen))
		return false;
	if (per_sm < 1)
		return gl_cuda_fail("a kernel's shared memory does not fit the device", l->errbuf,
							l->errlen);
	*grid = (unsigned) (needed < (uint64_t) per_sm * sms ? (needed ? needed : 1) :
						(uint64_t) per_sm * sms);
	return true;
}

bool
gl_shared_memory_limit(size_t *bytes, char *errbuf, size_t errlen)
{
	int			device;
	int			limit;

	if (!gl_cuda_ok(cudaGetDevice(&device), "cudaGetDevice", errbuf, errlen) ||
		!gl_cuda_ok(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
					"cudaDeviceGetAttribute", errbuf, errlen))
		return false;
	*bytes = (size_t) limit;
	return true;
}
