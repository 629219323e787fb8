/*-------------------------------------------------------------------------
 *
 * server.h
 *	  The gpulike server, a background worker (see server.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SERVER_H
#define GPULIKE_SERVER_H

/* Register the worker with the postmaster (shared_preload_libraries). */
extern void gl_server_register(void);

#endif							/* GPULIKE_SERVER_H */
