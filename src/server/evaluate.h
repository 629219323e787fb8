/*-------------------------------------------------------------------------
 *
 * engines.h
 *	  The gpulike server's choice of engine and its evaluation of MATCH
 *	  requests: program leaves on the CPU or CUDA engine, bitmap algebra,
 *	  candidates by heap page out.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ENGINES_H
#define GPULIKE_ENGINES_H

#include "column/candidates.h"
#include "column/column.h"
#include "protocol/protocol.h"

/* Probe devices (never in the postmaster: called by the server itself). */
extern void gl_engines_start(void);

extern bool gl_engines_gpu_ready(void);
extern int	gl_engines_device_count(void);	/* GPUs the server uses */
extern int	gl_engines_cpu_threads(void);
extern uint64 gl_engines_device_budget(void);
extern void gl_engines_describe(GlStatusInfo *info);

/*
 * Evaluate a MATCH message: fills *answer (malloc'd: gl_answer_free it)
 * and result, and returns true; or false with a reason in why when the
 * server cannot answer (a column not loaded, a stale generation, a
 * malformed request, out of memory).
 */
extern bool gl_engines_run_match(const GlMatchMessage *msg, Size len,
								 GlAnswer *answer, GlMatchResult *result,
								 char *why, size_t whylen);

#endif							/* GPULIKE_ENGINES_H */
