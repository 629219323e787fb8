/*-------------------------------------------------------------------------
 *
 * cpu_engine.h
 *	  The CPU engine: one GlProgram over one value, or over a column with
 *	  one bit per matching row (cpu_engine.c).
 *
 * Always built, exact, and the reference the CUDA engine (cuda/,
 * gpulike_cuda.h) is tested against.  A leaf: it includes only the
 * program module's headers and column/column.h, never calls palloc or elog,
 * and is safe to run from the server's worker threads.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CPU_ENGINE_H
#define GPULIKE_CPU_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "program/program.h"

/* Does one value match?  (len bytes; never NULL) */
extern bool gl_cpu_match_value(const GlProgram *prog, const char *s, uint32_t len);

/*
 * Match rows [0, col->nrows) and write the result bitmap (gl_bitmap_words
 * words, fully overwritten; NULL rows are 0).  nthreads <= 1 runs on the
 * calling thread.  Returns false only if threads could not be started, in
 * which case the caller may retry with nthreads = 1.
 */
extern bool gl_cpu_match_column(const GlProgram *prog, const GlColumn *col,
								uint64_t *result, int nthreads);

/*
 * The same, given up between chunks of rows once *cancel is nonzero (the
 * asker left): the result is then incomplete, and must not be used.
 */
extern bool gl_cpu_match_column_until(const GlProgram *prog, const GlColumn *col,
									  uint64_t *result, int nthreads,
									  const volatile uint32_t *cancel);

/*
 * Whether a regex's prefilter literal (a DFA program's prefilter section)
 * is rare in these rows -- the lead rows of a column's sample, drawn at
 * random -- so that the GPU should sieve for it first.  False for other
 * programs, and when the match cannot run.
 */
extern bool gl_cpu_prefilter_rare(const GlProgram *prog, const GlColumn *lead);

#endif							/* GPULIKE_CPU_ENGINE_H */
