/*-------------------------------------------------------------------------
 *
 * ddl_watch.h
 *	  Notices DDL that invalidates a cache (see ddl_watch.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DDL_WATCH_H
#define GPULIKE_DDL_WATCH_H

/*
 * Hook object_access_hook and ProcessUtility_hook (_PG_init, under
 * shared_preload_libraries).
 */
extern void gl_ddl_watch_init(void);

#endif							/* GPULIKE_DDL_WATCH_H */
