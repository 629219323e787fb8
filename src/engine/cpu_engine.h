/*-------------------------------------------------------------------------
 *
 * engine.h
 *	  The matching engines' common interface.
 *
 * An engine evaluates one GlProgram over a column and sets one bit per
 * matching row.  The CPU engine is always built, exact, and the reference
 * the CUDA engine is tested against.  Engines are leaves: they include only
 * pattern/program.h and column/column.h, never call palloc or elog, and are
 * safe to run from the server's worker threads.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ENGINE_H
#define GPULIKE_ENGINE_H

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

#endif							/* GPULIKE_ENGINE_H */
