/*-------------------------------------------------------------------------
 *
 * program_cache.cu
 *	  A device column's prepared programs: its cache of them
 *	  (kernel_prep/prepared_cache.h), kept by its head part, and the shared
 *	  memory they are prepared for.
 *
 * The cache is plain host code; what only the engine knows is how much
 * shared memory a block may have on the column's devices, which a
 * program is prepared for, so it is asked of the driver here, and only
 * where the cache does not hold the program already.
 *
 *-------------------------------------------------------------------------
 */
#include "kernels.h"
#include "program_cache.h"
#include "cuda_check.h"

/*
 * The smallest shared memory a block may have on the parts' devices (they
 * are normally alike).  The caller's current device is left as it was: it
 * places the next upload.
 */
static bool
smallest_shared_limit(const GlDeviceColumn *dcol, size_t *shared_limit, char *errbuf,
					  size_t errlen)
{
	int			current;
	bool		ok = true;

	if (!gl_cuda_ok(cudaGetDevice(&current), "cudaGetDevice", errbuf, errlen))
		return false;
	*shared_limit = SIZE_MAX;
	for (const GlDeviceColumn *part = dcol; ok && part != NULL; part = part->next)
	{
		size_t		limit;

		ok = gl_cuda_ok(cudaSetDevice(part->device), "cudaSetDevice", errbuf, errlen) &&
			gl_shared_memory_limit(&limit, errbuf, errlen);
		if (ok && limit < *shared_limit)
			*shared_limit = limit;
	}
	cudaSetDevice(current);
	return ok;
}

bool
gl_program_cache_lookup(GlDeviceColumn *dcol, const GlProgram *prog,
						const GlPrepareChoices *choices, GlCachedProgram *out,
						char *errbuf, size_t errlen)
{
	bool		found;
	size_t		shared_limit;

	if (!gl_prepared_cache_find(&dcol->programs, prog, choices, out, &found, errbuf, errlen))
		return false;
	return found ||
		(smallest_shared_limit(dcol, &shared_limit, errbuf, errlen) &&
		 gl_prepared_cache_add(dcol->programs, prog, choices, dcol->pairs, shared_limit, out,
							   errbuf, errlen));
}

void
gl_program_cache_release(GlDeviceColumn *dcol, GlCachedProgram *cp, bool walk_gave_up)
{
	gl_prepared_cache_release(dcol->programs, cp, walk_gave_up);
}
