/*-------------------------------------------------------------------------
 *
 * ddl_watch.h
 *	  Notices DDL that invalidates a cache (see ddl_watch.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DDL_WATCH_H
#define GPULIKE_DDL_WATCH_H

extern void gl_ddl_watch_init(void);

/*
 * The cache code alters our own triggers (creating them, enabling them
 * ALWAYS) while it holds the table locked for a load; those changes must
 * not mark the cache being built stale.  Set around such DDL.
 */
extern bool gl_ddl_watch_paused;

#endif							/* GPULIKE_DDL_WATCH_H */
