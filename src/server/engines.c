/*-------------------------------------------------------------------------
 *
 * engines.c
 *	  The gpulike server's choice of engine, and the facts about its GPUs.
 *
 * The server probes for CUDA devices itself at start (a CUDA context cannot
 * be inherited across fork, so never the postmaster), unless
 * gpulike.device = cpu, which never touches CUDA.  It uses up to
 * GL_MAX_GPUS of the devices the probe accepts (compute capability 8.0 or
 * newer: cuda/archs.mk), or none, and then says why the CPU engine answers
 * (status().cpu_reason).  That choice is made once; a request runs its
 * leaves on the GPU when one is ready, the backend did not ask for the CPU,
 * and the column has (or can get, within the device budget) a device copy
 * (evaluate.c, store.c).  The device budget is gpulike.gpu_memory, or 80%
 * of all the GPUs' memory.  The CPU engine splits each column over
 * gpulike.cpu_threads threads (0: one per core).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "server/engines.h"
#include "settings.h"
#ifdef GPULIKE_HAVE_CUDA
#include "gpulike_cuda.h"
#endif

static bool gpu_ready = false;

#ifdef GPULIKE_HAVE_CUDA
static GlCudaDeviceInfo device_info;	/* device 0 */
static int	device_count = 0;	/* used by the server: at most GL_MAX_GPUS */
static uint64 devices_memory = 0;	/* their total memory */
#endif

/* Why the server uses the CPU engine, for status(); "" when it uses GPUs. */
static char cpu_reason[256] = "";

void
gl_engines_start(void)
{
#ifdef GPULIKE_HAVE_CUDA
	char		err[256];

	if (gl_device_choice == GL_DEVICE_CPU)
	{
		strlcpy(cpu_reason, "gpulike.device = cpu", sizeof(cpu_reason));
		ereport(LOG, (errmsg("gpulike server: gpulike.device = cpu, using the CPU engine")));
		return;
	}
	if (gl_cuda_probe(&device_info, gl_debug_compute_capability, err, sizeof(err)) &&
		device_info.device_count > 0)
	{
		device_count = Min(device_info.device_count, GL_MAX_GPUS);
		for (int d = 0; d < device_count; d++)
		{
			GlCudaDeviceMemory memory;

			if (!gl_cuda_device_memory(d, &memory, err, sizeof(err)))
			{
				device_count = d;
				break;
			}
			devices_memory += memory.total_memory;
		}
	}
	if (device_count > 0)
	{
		gpu_ready = true;
		ereport(LOG,
				(errmsg("gpulike server: using %d GPU(s), the first \"%s\" (%zu MB)",
						device_count, device_info.name, device_info.total_memory >> 20)));
		return;
	}
	snprintf(cpu_reason, sizeof(cpu_reason), "no usable GPU: %s", err);
	ereport(gl_device_choice == GL_DEVICE_GPU ? WARNING : LOG,
			(errmsg("gpulike server: no usable GPU, using the CPU engine"),
			 errdetail("%s", err)));
#else
	strlcpy(cpu_reason, "gpulike was built without CUDA", sizeof(cpu_reason));
	if (gl_device_choice == GL_DEVICE_GPU)
		ereport(WARNING,
				(errmsg("gpulike server: gpulike.device = gpu, but gpulike was built without CUDA; using the CPU engine")));
#endif
}

bool
gl_engines_gpu_ready(void)
{
	return gpu_ready;
}

int
gl_engines_device_count(void)
{
#ifdef GPULIKE_HAVE_CUDA
	return device_count;
#else
	return 0;
#endif
}

const char *
gl_engines_gpu_name(void)
{
#ifdef GPULIKE_HAVE_CUDA
	return device_info.name;
#else
	return "";
#endif
}

uint64
gl_engines_device_budget(void)
{
#ifdef GPULIKE_HAVE_CUDA
	if (gl_gpu_memory_mb > 0)
		return (uint64) gl_gpu_memory_mb * 1024 * 1024;
	return (uint64) (devices_memory * 0.8);
#else
	return 0;
#endif
}

void
gl_engines_describe(GlStatusInfo *info)
{
	strlcpy(info->engine, gpu_ready ? "cuda" : "cpu", sizeof(info->engine));
	strlcpy(info->cpu_reason, cpu_reason, sizeof(info->cpu_reason));
	info->cpu_threads = gl_cpu_engine_threads();
	info->has_device = false;
	info->ndevices = 0;
#ifdef GPULIKE_HAVE_CUDA
	if (gpu_ready)
	{
		info->has_device = true;
		strlcpy(info->device_name, device_info.name, sizeof(info->device_name));
		for (int d = 0; d < device_count; d++)
		{
			GlDeviceStatus *dev = &info->devices[d];
			GlCudaDeviceMemory memory;
			char		err[256];

			/* Free memory changes; ask again (cheap next to a request). */
			if (gl_cuda_device_memory(d, &memory, err, sizeof(err)))
			{
				strlcpy(dev->name, memory.name, sizeof(dev->name));
				dev->total_bytes = memory.total_memory;
				dev->free_bytes = memory.free_memory;
			}
			info->device_total_bytes += dev->total_bytes;
			info->device_free_bytes += dev->free_bytes;
		}
		info->ndevices = device_count;
	}
#endif
}
