/*-------------------------------------------------------------------------
 *
 * stored_column.c
 *	  One column held by the gpulike server (see stored_column.h).
 *
 * A stored column is a GlColumn (column.h: values in row order, their
 * TIDs, NULL and liveness flags) of one registry slot and generation,
 * plus what the server keeps beside it: a copy on the GPUs, a sample for
 * the planner, and, while it is loading, the changes logged meanwhile.
 *
 * The device copy (CUDA builds).  A column is uploaded whole, or split
 * into parts of consecutive rows that the CUDA engine places on the GPUs
 * in turn from a first one, and matches at once; how many parts and which
 * GPU first, and whether there is room, the store decides
 * (gl_store_ensure_device).  Rows the delta log added since are appended
 * before the copy is used.  Any CUDA failure (a full device among them)
 * drops the copy; the CPU engine keeps answering from the host copy.  The
 * size of a copy is known only after the upload (the layout is the CUDA
 * engine's).
 *
 * The registry (registry.h) shows what the server holds of each ready
 * copy: rows, host and device bytes, the devices its parts are on, and
 * the queries it served.  gl_store_publish writes them, and the registry
 * keeps them only while the slot is still ready under this column's
 * generation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/resowner.h"

#include "column/sample.h"
#include "engine/cpu_engine.h"
#include "protocol/protocol.h"
#include "registry/registry.h"
#include "server/stored_column.h"
#include "settings.h"
#ifdef GPULIKE_HAVE_CUDA
#include "gpulike_cuda.h"
#endif

void
gl_store_free_column(GlStoredColumn *sc)
{
	if (sc->sample != NULL)
		dsm_detach(sc->sample);
	free(sc->lead);
	gl_load_queue_free(&sc->load_queue);
	gl_store_drop_device(sc);
	gl_column_free(&sc->col);
	pfree(sc);
}

/*
 * The segment is the server's alone to write; it maps it until the next
 * sample replaces it, and a backend that maps it keeps it alive until it
 * lets go (a backend that asks between the two finds it gone and keeps
 * PostgreSQL's estimate).  Not tied to any resource owner: the server's
 * requests are not transactions.
 */
bool
gl_store_sample(GlStoredColumn *sc, uint32 max_rows, uint32 lead_rows,
				dsm_handle *handle, size_t *image_bytes)
{
	if (sc->sample == NULL || sc->sample_max_rows != max_rows ||
		sc->sample_lead_rows != lead_rows ||
		sc->col.nrows > sc->sample_taken_at + sc->sample_taken_at / 10)
	{
		size_t		size;
		GlSampleImage *image = gl_sample_image_build(&sc->col, max_rows, lead_rows,
													 GL_SAMPLE_MAX_BYTES, &size);
		ResourceOwner saved_owner = CurrentResourceOwner;
		dsm_segment *seg = NULL;

		if (image != NULL)
		{
			CurrentResourceOwner = NULL;
			seg = dsm_create(size, DSM_CREATE_NULL_IF_MAXSEGMENTS);
			CurrentResourceOwner = saved_owner;
		}
		if (seg == NULL)
		{
			free(image);
			return false;
		}
		memcpy(dsm_segment_address(seg), image, size);
		free(image);
		if (sc->sample != NULL)
			dsm_detach(sc->sample);
		sc->sample = seg;
		sc->sample_max_rows = max_rows;
		sc->sample_lead_rows = lead_rows;
		sc->sample_taken_at = sc->col.nrows;
	}
	*handle = dsm_segment_handle(sc->sample);
	*image_bytes = dsm_segment_map_length(sc->sample);
	return true;
}

void
gl_store_refresh_lead(GlStoredColumn *sc)
{
	GlSampleImage *image;
	size_t		size;

	if (sc->lead != NULL && sc->col.nrows <= sc->lead_taken_at + sc->lead_taken_at / 10)
		return;
	image = gl_sample_image_build(&sc->col, GL_LEAD_ROWS, GL_LEAD_ROWS,
								  GL_SAMPLE_MAX_BYTES, &size);
	free(sc->lead);
	sc->lead = NULL;
	if (image == NULL || !gl_sample_image_view(image, size, false, &sc->lead_rows))
	{
		free(image);
		return;
	}
	sc->lead = image;
	sc->lead_taken_at = sc->col.nrows;
}

bool
gl_store_prefilter_rare(const GlStoredColumn *sc, const GlProgram *prog)
{
	return sc->lead != NULL && gl_cpu_prefilter_rare(prog, &sc->lead_rows);
}

/* "cpu", or the devices holding parts: "cuda:0", "cuda:0,cuda:1". */
static void
describe_devices(const GlStoredColumn *sc, char *buf, size_t len)
{
	int			k;

	if (sc->device == NULL)
	{
		strlcpy(buf, "cpu", len);
		return;
	}
	buf[0] = '\0';
	for (k = 0; k < gl_store_gpus_of(sc); k++)
	{
		char		name[16];

		snprintf(name, sizeof(name), "%scuda:%d", k > 0 ? "," : "", sc->part_device[k]);
		strlcat(buf, name, len);
	}
}

void
gl_store_publish(GlStoredColumn *sc, bool count_query)
{
	GlCacheHolding held;

	memset(&held, 0, sizeof(held));
	held.nrows = sc->col.nrows;
	held.host_bytes = gl_column_host_bytes(&sc->col);
	held.file_bytes = gl_column_file_bytes(&sc->col);
	held.device_bytes = sc->device_bytes;
	describe_devices(sc, held.device, sizeof(held.device));
	held.nparts = sc->nparts;
	memcpy(held.part_device, sc->part_device, sizeof(held.part_device));
	memcpy(held.part_bytes, sc->part_bytes, sizeof(held.part_bytes));
	gl_registry_publish(sc->slot, sc->generation, &held, count_query);
}

/* ------------------------------------------------------- the device copy */

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

void
gl_store_drop_device(GlStoredColumn *sc)
{
#ifdef GPULIKE_HAVE_CUDA
	if (sc->device != NULL)
		gl_cuda_free(sc->device);
#endif
	sc->device = NULL;
	sc->device_rows = 0;
	sc->device_bytes = 0;
	gl_store_counting_stale(sc);
	sc->nparts = 0;
}

#ifdef GPULIKE_HAVE_CUDA

/* After an upload, an append or new counting arrays: sizes of the copy and of each part. */
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
gl_store_upload(GlStoredColumn *sc, int nparts, int first_device)
{
	char		err[256];

	sc->device = gl_cuda_upload(&sc->col, nparts, first_device,
								err, sizeof(err));
	if (sc->device == NULL)
	{
		ereport(LOG,
				(errmsg("gpulike server: could not upload cache slot %d to the GPU: %s",
						sc->slot, err)));
		return false;
	}
	gl_store_counting_stale(sc);
	note_device_sizes(sc);
	return true;
}

bool
gl_store_append_device(GlStoredColumn *sc)
{
	char		err[256];

	if (sc->device_rows >= sc->col.nrows)
		return true;
	if (!gl_cuda_append(sc->device, &sc->col, sc->device_rows,
						err, sizeof(err)))
	{
		ereport(LOG,
				(errmsg("gpulike server: could not append rows on the GPU: %s", err)));
		gl_store_drop_device(sc);
		return false;
	}
	gl_store_counting_stale(sc);
	note_device_sizes(sc);
	return true;
}

void
gl_store_device_counting(GlStoredColumn *sc)
{
	GlCountingRows rows;
	char		err[256];

	if (!gl_gpu_counting ||
		sc->device == NULL || sc->device_counts || sc->counting_refused || sc->nparts != 1 ||
		sc->device_rows != sc->col.nrows || !gl_counting_rows_build(&sc->col, &rows))
		return;
	if (gl_cuda_set_counting(sc->device, &rows, err, sizeof(err)))
		sc->device_counts = true;
	else
	{
		sc->counting_refused = true;
		ereport(LOG,
				(errmsg("gpulike server: could not give the GPU what counting needs, counting on the host: %s",
						err)));
	}
	gl_counting_rows_free(&rows);
	note_device_sizes(sc);		/* the arrays' bytes are the copy's too */
}

#endif							/* GPULIKE_HAVE_CUDA */
