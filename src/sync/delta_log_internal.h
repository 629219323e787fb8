/*-------------------------------------------------------------------------
 *
 * delta_log_internal.h
 *	  Writer side of the delta log (the sync trigger) and its shared memory.
 *	  The server-side contract is delta_log.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DELTA_LOG_INTERNAL_H
#define GPULIKE_DELTA_LOG_INTERNAL_H

#include "sync/delta_log.h"

extern Size gl_delta_log_shmem_size(void);
extern void gl_delta_log_shmem_request(void);
extern void gl_delta_log_shmem_init(void);

/*
 * Append all entries of one row change, or none of them: returns false
 * when they do not fit (the caller then marks the caches stale).  Never
 * waits for space.
 */
extern bool gl_delta_log_append(const GlDeltaRow *rows, int nrows);

/* Entries of one slot not yet drained (for the caches view). */
extern uint64 gl_delta_log_pending_slot(int slot);

#endif							/* GPULIKE_DELTA_LOG_INTERNAL_H */
