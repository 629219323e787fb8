/*-------------------------------------------------------------------------
 *
 * store.h
 *	  The gpulike server's column store: for each registry slot, the column
 *	  being served, the one being loaded and the one a load just replaced,
 *	  kept in sync with the delta log and the registry, within the host and
 *	  device memory budgets (store.c).  One column is stored_column.h's.
 *
 * Only the server's main thread uses the store (engines read the columns
 * it hands them while it waits).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_STORE_H
#define GPULIKE_STORE_H

#include "server/stored_column.h"

extern void gl_store_init(void);
extern void gl_store_request_reloads(void);

/*
 * The complete column of (slot, generation), or NULL: the serving one, or
 * the one it just replaced, for requests that named it before.
 */
extern GlStoredColumn *gl_store_lookup(int slot, uint64 generation);

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
										 char *err, size_t errlen);
extern void gl_store_load_abort(int slot, uint64 generation);

/*
 * Apply the delta log, then drop the columns the registry no longer wants
 * (uncached, stale, rebuilt under a new generation, a load of a forgotten
 * slot), publish what changed, and keep within the budgets.
 */
extern void gl_store_sync(void);

/*
 * Does the registry still call (slot, generation) ready?  A cache marked
 * stale (a delta log overflow, TRUNCATE) must not answer even if the store
 * still holds it.
 */
extern bool gl_store_registry_ready(int slot, uint64 generation);

/* A request used the column: LRU stamp and registry counters. */
extern void gl_store_note_query(GlStoredColumn *sc);

/*
 * Make sure sc has a device copy with all its rows (and, where it can
 * count, its counting arrays: gl_store_device_counting), making room
 * within the device budget by dropping the least recently used others;
 * false: the CPU engine must answer (no GPU, no room, a CUDA failure).
 */
extern bool gl_store_ensure_device(GlStoredColumn *sc);

/*
 * Would gl_store_ensure_device(sc) change nothing: sc is not for a GPU
 * (empty, retired, no GPU) or its device copy has all its rows?
 */
extern bool gl_store_device_current(const GlStoredColumn *sc);

/* After gpulike.gpu_memory changed: drop LRU device copies over it. */
extern void gl_store_fit_device_budget(void);

/* Bytes of cached columns' parts on each of the first ndevices GPUs. */
extern void gl_store_bytes_per_device(uint64 *held, int ndevices);

/* Columns held, their memory, their values' files and their device copies. */
extern void gl_store_totals(int *ncolumns, uint64 *host_bytes, uint64 *file_bytes,
							uint64 *device_bytes);

#endif							/* GPULIKE_STORE_H */
