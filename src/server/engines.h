/*-------------------------------------------------------------------------
 *
 * engines.h
 *	  The gpulike server's engines and devices: which engine answers (the
 *	  CUDA engine where a usable GPU was found at start, the CPU engine
 *	  always), the GPUs it uses, their memory budget, and what status()
 *	  says of them (engines.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ENGINES_H
#define GPULIKE_ENGINES_H

#include "protocol/protocol.h"

/* Probe devices (never in the postmaster: called by the server itself). */
extern void gl_engines_start(void);

extern bool gl_engines_gpu_ready(void);
extern int	gl_engines_device_count(void);	/* GPUs the server uses */
extern const char *gl_engines_gpu_name(void);	/* the first one's */
/* Device bytes the cached columns' copies may take over all GPUs. */
extern uint64 gl_engines_device_budget(void);

/*
 * The engine, why it is the CPU's, the threads, and each GPU's name and
 * memory (not what the caches hold there: the store knows that).
 */
extern void gl_engines_describe(GlStatusInfo *info);

#endif							/* GPULIKE_ENGINES_H */
