/*-------------------------------------------------------------------------
 *
 * launch_sizing.cu
 *	  Launch sizing shared by the kernels: how much shared memory a block
 *	  may have, and how many blocks a kernel whose blocks stay resident
 *	  (and walk the column) gets.
 *
 *-------------------------------------------------------------------------
 */
#include <mutex>

#include "kernels.h"
#include "cuda_check.h"

/*
 * A kernel's resident blocks are asked of the runtime once for each block
 * size, dynamic shared memory and device, and kept: the occupancy query,
 * the SM count and, over 48 kB, the shared-memory attribute cost
 * microseconds a match, which a point query notices
 * (test/kernels/request_bench).  The attribute, once set for a kernel on
 * a device, allows the device's whole opt-in limit, so the kernel's later
 * launches with other amounts need no new setting (it is a permission:
 * the occupancy and the carveout follow the amount each launch asks
 * for).  Slots are reused in turn when all are taken.  Parts on several
 * devices run in threads of their own (match.cu): hence the lock.
 */
typedef struct ResidentBlocks
{
	const void *kernel;			/* NULL: an empty slot */
	int			device;
	int			block;
	uint32_t	shared;
	int			per_sm;
	int			sms;
} ResidentBlocks;

static const int RESIDENT_SLOTS = 256;
static ResidentBlocks resident_slots[RESIDENT_SLOTS];
static int	resident_next_slot;
static std::mutex resident_lock;

static bool
ask_resident_blocks(const void *kernel, int device, int block, uint32_t shared,
					const GlLaunch *l, ResidentBlocks *rb)
{
	int			optin;

	rb->kernel = kernel;
	rb->device = device;
	rb->block = block;
	rb->shared = shared;
	if (shared > 48 * 1024 &&
		!(gl_cuda_ok(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
					 "cudaDeviceGetAttribute", l->errbuf, l->errlen) &&
		  gl_cuda_ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin),
					 "cudaFuncSetAttribute", l->errbuf, l->errlen)))
		return false;
	return gl_cuda_ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rb->per_sm, kernel, block,
																	shared),
					  "cudaOccupancyMaxActiveBlocksPerMultiprocessor", l->errbuf, l->errlen) &&
		gl_cuda_ok(cudaDeviceGetAttribute(&rb->sms, cudaDevAttrMultiProcessorCount, device),
				   "cudaDeviceGetAttribute", l->errbuf, l->errlen);
}

/* kernel's resident blocks on the current device, from its slot or asked and kept. */
static bool
resident_blocks(const void *kernel, int block, uint32_t shared, const GlLaunch *l,
				ResidentBlocks *rb)
{
	int			device;

	if (!gl_cuda_ok(cudaGetDevice(&device), "cudaGetDevice", l->errbuf, l->errlen))
		return false;
	{
		std::lock_guard<std::mutex> hold(resident_lock);

		for (const ResidentBlocks &slot : resident_slots)
			if (slot.kernel == kernel && slot.device == device && slot.block == block &&
				slot.shared == shared)
			{
				*rb = slot;
				return true;
			}
	}
	if (!ask_resident_blocks(kernel, device, block, shared, l, rb))
		return false;
	{
		std::lock_guard<std::mutex> hold(resident_lock);

		resident_slots[resident_next_slot] = *rb;
		resident_next_slot = (resident_next_slot + 1) % RESIDENT_SLOTS;
	}
	return true;
}

bool
gl_blocks_per_sm(const void *kernel, int block, uint32_t shared, const GlLaunch *l, int *per_sm)
{
	ResidentBlocks rb;

	*per_sm = 0;
	if (!resident_blocks(kernel, block, shared, l, &rb))
		return false;
	*per_sm = rb.per_sm;
	return true;
}

bool
gl_resident_grid(const void *kernel, int block, uint32_t shared, uint64_t nthreads,
				 const GlLaunch *l, unsigned *grid)
{
	ResidentBlocks rb;
	uint64_t	needed = (nthreads + block - 1) / block;
	uint64_t	resident;

	if (!resident_blocks(kernel, block, shared, l, &rb))
		return false;
	if (rb.per_sm < 1)
		return gl_cuda_fail("a kernel's shared memory does not fit the device", l->errbuf,
							l->errlen);
	resident = (uint64_t) rb.per_sm * rb.sms;
	*grid = (unsigned) (needed < resident ? (needed ? needed : 1) : resident);
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
