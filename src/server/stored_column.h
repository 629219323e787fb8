/*-------------------------------------------------------------------------
 *
 * stored_column.h
 *	  One column held by the gpulike server: its host copy, its copy on
 *	  the GPUs, its sample for the planner, and what it tells the registry
 *	  (stored_column.c).  Which columns there are, and the memory budgets
 *	  they share, are the store's (store.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_STORED_COLUMN_H
#define GPULIKE_STORED_COLUMN_H

#include "storage/dsm.h"
#include "utils/timestamp.h"

#include "column/column.h"
#include "column/load_queue.h"
#include "program/program.h"
#include "settings.h"

typedef struct GlStoredColumn
{
	int			slot;
	uint64		generation;
	GlColumn	col;
	struct GlDeviceColumn *device;	/* cuda/gpulike_cuda.h; NULL: not on the GPU */
	uint64		device_rows;	/* rows of col present in the device copy */
	uint64		device_bytes;
	bool		device_counts;	/* the device copy has the counting arrays
								 * of col as it is (gl_store_device_counting) */
	bool		counting_refused;	/* and giving them failed, logged: not
									 * tried again until col changes */
	/* the device copy's parts: where each is, and its bytes */
	int			nparts;
	int			part_device[GL_MAX_GPU_PARTS];
	uint64		part_bytes[GL_MAX_GPU_PARTS];
	TimestampTz last_used;
	/* the planner's sample (gl_store_sample): its image in shared memory */
	dsm_segment *sample;
	uint32		sample_max_rows;	/* as asked for */
	uint32		sample_lead_rows;
	uint64		sample_taken_at;	/* col.nrows then */
	/* rows spread over col for the server's own rarity questions
	 * (gl_store_refresh_lead): malloc'd, read by the request threads */
	struct GlSampleImage *lead;
	GlColumn	lead_rows;		/* a view of lead's rows */
	uint64		lead_taken_at;	/* col.nrows then */
	/* while loading: changes logged meanwhile */
	GlLoadQueue	load_queue;
	/* its owner's quota, as the load found it (0: none), and its host
	 * bytes when the load was installed: what changes added since */
	uint64		byte_limit;
	uint64		loaded_bytes;
	/* when a newer copy replaced it (0: never; store.c: retired) */
	TimestampTz retired_at;
	/* the store's bookkeeping (store.c: sync) */
	bool		changed;		/* serving: rows came that the registry has
								 * not been told of */
	bool		missed;			/* a logged change could not be kept: the
								 * column is not exact */
	int			missed_errno;	/* why: ENOMEM, or its values file's error */
} GlStoredColumn;

/* Free the column, its device copy, its queue and its sample. */
extern void gl_store_free_column(GlStoredColumn *sc);

/*
 * A sample of sc's rows for the planner (column/sample.h), in a DSM segment
 * that backends map, kept until the column has grown by a tenth (an
 * estimate does not need the latest rows) or a sample of another size is
 * asked for.  False when there is no memory for it.
 */
extern bool gl_store_sample(GlStoredColumn *sc, uint32 max_rows, uint32 lead_rows,
							dsm_handle *handle, size_t *image_bytes);

/*
 * Keep sc's lead rows (GL_LEAD_ROWS rows spread over the column) current:
 * taken again once the column has grown by a tenth, as the planner's
 * sample is.  Only between requests (the store's indexing): the request
 * threads read them.  Without memory, none are kept.
 */
#define GL_LEAD_ROWS	4096
extern void gl_store_refresh_lead(GlStoredColumn *sc);

/*
 * Should the GPU sieve for prog's prefilter literal (a regex's) before it
 * runs the automaton?  When the literal is in so few of sc's lead rows
 * that the sieve leaves the automaton almost nothing
 * (gl_cpu_prefilter_rare); false without lead rows.
 */
extern bool gl_store_prefilter_rare(const GlStoredColumn *sc, const GlProgram *prog);

/*
 * Write a column's sizes and devices to its registry slot (only while the
 * slot is ready under its generation), and count a query if asked.
 */
extern void gl_store_publish(GlStoredColumn *sc, bool count_query);

/*
 * The device copy.  Upload sc in nparts parts placed on the GPUs in turn
 * from first_device, or append the rows it lacks; false, logged, when
 * CUDA fails (the copy is then dropped).  Drop frees it; gpus_of says how
 * many GPUs hold parts of it (0: none).  The room for a copy, and which
 * GPU gets it, are the store's to choose (gl_store_ensure_device).
 */
#ifdef GPULIKE_HAVE_CUDA
extern bool gl_store_upload(GlStoredColumn *sc, int nparts, int first_device);
extern bool gl_store_append_device(GlStoredColumn *sc);

/*
 * Give a device copy in one part, holding every row, the arrays it counts
 * a counting request's rows with (cuda/counting.cu), unless it has them
 * for the column as it is: whoever changes the column or its device copy
 * calls gl_store_counting_stale.  Without them (no memory, a CUDA
 * failure, logged once until the column changes) requests are counted on
 * the host, as before.
 */
extern void gl_store_device_counting(GlStoredColumn *sc);
#endif

/* col or its device copy changed: the counting arrays no longer describe it. */
static inline void
gl_store_counting_stale(GlStoredColumn *sc)
{
	sc->device_counts = false;
	sc->counting_refused = false;
}
extern void gl_store_drop_device(GlStoredColumn *sc);
extern int	gl_store_gpus_of(const GlStoredColumn *sc);

#endif							/* GPULIKE_STORED_COLUMN_H */
