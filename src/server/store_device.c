/*-------------------------------------------------------------------------
 *
 * store_device.c
 *	  Device copies of the server's columns (CUDA builds): upload, delta
 *	  append, and the device memory budget with least-recently-used
 *	  eviction.
 *
 * A serving column gets a device copy when it is loaded or used while the
 * GPU engine is in use.  A column of gpulike.gpu_split_min_size or more is
 * split into gpulike.gpu_split_parts parts (0: one per GPU), which the CUDA
 * engine places on the GPUs in turn, beginning with the one holding the
 * fewest bytes, and matches at once; a smaller column goes whole to that
 * GPU.  When the copies would exceed gpulike.gpu_memory (0: 80% of all the
 * GPUs' memory), the least recently used other copies are dropped first; a
 * column that still does not fit is served by the CPU engine and tried
 * again on its next use.  The size of a copy is known only after the
 * upload (the layout is the CUDA engine's), so room is made for an upper
 * estimate first and the budget checked again afterwards.  Any CUDA failure
 * (a full device among them) drops the copy; the CPU engine keeps
 * answering from the host copy.
 *
 * Without CUDA every column stays on the host and these are no-ops.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "registry/stats.h"
#include "server/evaluate.h"
#include "server/store.h"
#ifdef GPULIKE_HAVE_CUDA
#include "gpulike_cuda.h"
#endif

#ifdef GPULIKE_HAVE_CUDA

static uint64
device_bytes_total(void)
{
	uint64		total = 0;
	int			i;

	for (i = 0; i < gl_store_nslots(); i++)
	{
		GlStoredColumn *sc = gl_store_serving(i);

		if (sc != NULL)
			total += sc->device_bytes;
	}
	return total;
}

/* Drop least recently used device copies (not keep's) until need fits. */
static bool
make_device_room(uint64 need, GlStoredColumn *keep)
{
	uint64		budget = gl_engines_device_budget();

	while (device_bytes_total() + need > budget)
	{
		GlStoredColumn *victim = NULL;
		int			i;

		for (i = 0; i < gl_store_nslots(); i++)
		{
			GlStoredColumn *sc = gl_store_serving(i);

			if (sc == NULL || sc == keep || sc->device == NULL)
				continue;
			if (victim == NULL || sc->last_used < victim->last_used)
				victim = sc;
		}
		if (victim == NULL)
			return false;
		ereport(LOG,
				(errmsg("gpulike server: evicting cache slot %d from the GPU to make room",
						victim->slot)));
		gl_store_drop_device(victim);
		gl_store_publish(victim, false);
		gl_stats_count_gpu_eviction(victim->slot);
	}
	return true;
}

void
gl_store_fit_device_budget(void)
{
	(void) make_device_room(0, NULL);
}

/* Bytes of cached columns' parts on each of the first ndevices GPUs. */
void
gl_store_bytes_per_device(uint64 *held, int ndevices)
{
	int			i,
				k;

	memset(held, 0, ndevices * sizeof(uint64));
	for (i = 0; i < gl_store_nslots(); i++)
	{
		GlStoredColumn *sc = gl_store_serving(i);

		if (sc != NULL && sc->device != NULL)
			for (k = 0; k < sc->nparts; k++)
				if (sc->part_device[k] < ndevices)
					held[sc->part_device[k]] += sc->part_bytes[k];
	}
}

/* GPUs holding parts of sc: parts go to the GPUs in turn. */
int
gl_store_gpus_of(const GlStoredColumn *sc)
{
	int			k;

	for (k = 1; k < sc->nparts; k++)
		if (sc->part_device[k] == sc->part_device[0])
			break;
	return sc->device != NULL ? Max(k, 1) : 0;
}

/* The GPU whose parts hold the fewest bytes: where the next copy begins. */
static int
emptiest_device(void)
{
	uint64		held[GL_MAX_GPUS];
	int			ndevices = gl_engines_device_count();
	int			best = 0;

	gl_store_bytes_per_device(held, ndevices);
	for (int d = 1; d < ndevices; d++)
		if (held[d] < held[best])
			best = d;
	return best;
}

/* Into how many parts to split sc over the GPUs (gpulike.gpu_split_*). */
static int
parts_for(const GlStoredColumn *sc)
{
	if (sc->col.nbytes < (uint64) gl_gpu_split_min_kb * 1024)
		return 1;
	return gl_gpu_split_parts > 0 ? gl_gpu_split_parts : gl_engines_device_count();
}

/* After an upload or append: sizes of the copy and of each part. */
static void
note_device_sizes(GlStoredColumn *sc)
{
	GlCudaPart	parts[GL_MAX_GPU_PARTS];
	int			k;

	sc->device_rows = sc->col.nrows;
	sc->device_bytes = gl_cuda_device_bytes(sc->device);
	sc->nparts = Min(gl_cuda_parts(sc->device, parts, GL_MAX_GPU_PARTS), GL_MAX_GPU_PARTS);
	for (k = 0; k < sc->nparts; k++)
	{
		sc->part_device[k] = parts[k].device;
		sc->part_bytes[k] = parts[k].bytes;
	}
}

bool
gl_store_ensure_device(GlStoredColumn *sc)
{
	char		err[256];
	uint64		estimate;

	/* an empty column is no work for a GPU; a retired one answers on the CPU */
	if (!gl_engines_gpu_ready() || sc->col.nrows == 0 || sc->retired_at != 0)
		return false;
	if (sc->device != NULL)
	{
		if (sc->device_rows < sc->col.nrows)
		{
			if (!gl_cuda_append(sc->device, &sc->col, sc->device_rows,
								err, sizeof(err)))
			{
				ereport(LOG,
						(errmsg("gpulike server: could not append rows on the GPU: %s", err)));
				gl_store_drop_device(sc);
				return false;
			}
			note_device_sizes(sc);
		}
		return true;
	}

	/* Values plus per-row length, offset and padding: a rough upper bound. */
	estimate = sc->col.nbytes + sc->col.nrows * 16;
	if (!make_device_room(estimate, sc))
		return false;
	sc->device = gl_cuda_upload(&sc->col, parts_for(sc), emptiest_device(),
								err, sizeof(err));
	if (sc->device == NULL)
	{
		ereport(LOG,
				(errmsg("gpulike server: could not upload cache slot %d to the GPU: %s",
						sc->slot, err)));
		return false;
	}
	note_device_sizes(sc);
	if (!make_device_room(0, sc))
	{
		gl_store_drop_device(sc);
		return false;
	}
	return true;
}

void
gl_store_drop_device(GlStoredColumn *sc)
{
	if (sc->device != NULL)
		gl_cuda_free(sc->device);
	sc->device = NULL;
	sc->device_rows = 0;
	sc->device_bytes = 0;
	sc->nparts = 0;
}

#else							/* !GPULIKE_HAVE_CUDA */

void
gl_store_bytes_per_device(uint64 *held, int ndevices)
{
	memset(held, 0, ndevices * sizeof(uint64));
}

int
gl_store_gpus_of(const GlStoredColumn *sc)
{
	return 0;
}

void
gl_store_fit_device_budget(void)
{
}

bool
gl_store_ensure_device(GlStoredColumn *sc)
{
	return false;
}

void
gl_store_drop_device(GlStoredColumn *sc)
{
	sc->device = NULL;
	sc->device_rows = 0;
	sc->device_bytes = 0;
	sc->nparts = 0;
}

#endif							/* GPULIKE_HAVE_CUDA */
