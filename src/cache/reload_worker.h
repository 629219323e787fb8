/*-------------------------------------------------------------------------
 *
 * reload_worker.h
 *	  Background rebuilding of stale and not-yet-loaded caches (see
 *	  reload_worker.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_RELOAD_WORKER_H
#define GPULIKE_RELOAD_WORKER_H

/* Register the launcher with the postmaster (shared_preload_libraries). */
extern void gl_reload_launcher_register(void);

#endif							/* GPULIKE_RELOAD_WORKER_H */
