/*-------------------------------------------------------------------------
 *
 * store.h
 *	  The gpulike server's column store: for each registry slot, the column
 *	  being served and the one being loaded, their device copies, and the
 *	  host and device memory budgets.
 *
 * Only the server's main thread uses the store (engines read the columns
 * it hands them while it waits).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_STORE_H
#define GPULIKE_STORE_H

#include "column/column.h"
#include "column/deferred.h"
#include "settings.h"
#include "utils/timestamp.h"

typedef struct GlStoredColumn
{
	int			slot;
	uint64		generation;
	GlColumn	col;
	struct GlDeviceColumn *device;	/* cuda/gpulike_cuda.h; NULL: not on the GPU */
	uint64		device_rows;	/* rows of col present in the device copy */
	uint64		device_bytes;
	/* the device copy's parts: where each is, and its bytes */
	int			nparts;
	int			part_device[GL_MAX_GPU_PARTS];
	uint64		part_bytes[GL_MAX_GPU_PARTS];
	TimestampTz last_used;
	/* the planner's sample (gl_store_sample), packed as gl_column_sample's */
	char	   *sample;
	uint32		sample_rows;
	size_t		sample_bytes;
	uint64		sample_taken_at;	/* col.nrows then */
	/* while loading: changes logged meanwhile, and the quota (0: none) */
	GlDeferred	deferred;
	uint64		byte_limit;
	/* when a newer copy replaced it (0: never; store.c: retired) */
	TimestampTz retired_at;
} GlStoredColumn;

extern void gl_store_init(void);
extern void gl_store_request_reloads(void);

/*
 * The complete column of (slot, generation), or NULL: the serving one, or
 * the one it just replaced, for requests that named it before.
 */
extern GlStoredColumn *gl_store_lookup(int slot, uint64 generation);
extern bool gl_store_slot_valid(int slot);
extern int	gl_store_nslots(void);
extern GlStoredColumn *gl_store_serving(int slot);

/*
 * A sample of sc's rows for the planner (gl_column_sample), kept until the
 * column has grown by a tenth: an estimate does not need the latest rows.
 * False on out-of-memory.
 */
extern bool gl_store_sample(GlStoredColumn *sc, uint32 max_rows,
							const char **rows, uint32 *nrows, size_t *nbytes);

/* Write a column's sizes and device (and a query, if counted) to the registry. */
extern void gl_store_publish(GlStoredColumn *sc, bool count_query);

/*
 * Loading (loader.c has the protocol).  Failures fill err, a message for
 * the loading backend.  byte_limit (0: none) bounds the new column's host
 * bytes: its owner's quota.  The end puts the new column in place of the
 * serving one and tells the registry, unless the load failed meanwhile
 * (the registry no longer wants its generation: GL_LOAD_WENT_STALE).
 */
typedef enum GlLoadEndStatus
{
	GL_LOAD_INSTALLED,
	GL_LOAD_WENT_STALE,
	GL_LOAD_FAILED
} GlLoadEndStatus;

extern bool gl_store_load_begin(int slot, uint64 generation, uint64 rows_hint,
								uint64 bytes_hint, uint64 byte_limit,
								char *err, size_t errlen);
extern bool gl_store_load_rows(int slot, uint64 generation, const char *rows,
							   Size len, uint32 nrows, char *err, size_t errlen);
extern GlLoadEndStatus gl_store_load_end(int slot, uint64 generation,
										 uint64 *nrows, uint64 *host_bytes,
										 uint64 *device_bytes,
										 char *err, size_t errlen);
extern void gl_store_load_abort(int slot, uint64 generation);
extern void gl_store_forget(int slot);

/* Apply the delta log, then drop columns the registry no longer wants. */
extern void gl_store_sync(void);

/*
 * Does the registry still call (slot, generation) ready?  A cache marked
 * stale (a delta log overflow, TRUNCATE) must not answer even if the store
 * still holds it.
 */
extern bool gl_store_registry_ready(int slot, uint64 generation);

/* A request used the column: LRU stamp and registry counters. */
extern void gl_store_note_query(GlStoredColumn *sc);

/* store_device.c: make sure a device copy exists and is current; false: use the CPU. */
extern bool gl_store_ensure_device(GlStoredColumn *sc);
extern void gl_store_drop_device(GlStoredColumn *sc);
extern void gl_store_bytes_per_device(uint64 *held, int ndevices);
extern int	gl_store_gpus_of(const GlStoredColumn *sc);

/* After gpulike.gpu_memory changed: drop LRU device copies over it. */
extern void gl_store_fit_device_budget(void);

extern void gl_store_totals(int *ncolumns, uint64 *host_bytes,
							uint64 *device_bytes);

#endif							/* GPULIKE_STORE_H */
