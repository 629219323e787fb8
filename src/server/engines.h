/*-------------------------------------------------------------------------
 *
 * engines.h
 *	  The gpulike server's choice of engine and its evaluation of MATCH
 *	  requests: program leaves on the CPU or CUDA engine, bitmap algebra,
 *	  sorted TIDs out.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ENGINES_H
#define GPULIKE_ENGINES_H

#include "column/column.h"
#include "server/protocol.h"

/* Probe devices (never in the postmaster: called by the server itself). */
extern void gl_engines_start(void);

extern bool gl_engines_gpu_ready(void);
extern int	gl_engines_cpu_threads(void);
extern uint64 gl_engines_device_budget(void);
extern void gl_engines_describe(GlStatusInfo *info);

/*
 * Evaluate a MATCH message.  Returns the sorted, unique candidate TIDs
 * (palloc'd in the current context, *ntids of them) and fills result; or
 * NULL with a reason in why when the server cannot answer (a column not
 * loaded, a stale generation, a malformed request).
 */
extern GlTid *gl_engines_run_match(const GlMatchMessage *msg, Size len,
								   uint64 *ntids, GlMatchResult *result,
								   char *why, size_t whylen);

#endif							/* GPULIKE_ENGINES_H */
