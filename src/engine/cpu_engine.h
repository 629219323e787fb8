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
 * calling thread; threads that cannot be started leave their share to
 * the others.  Returns false only if the program could not be prepared
 * (not a program, or no memory for its plan): the result is then
 * undefined.
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
 * Several programs over one column in one pass: each chunk of rows is
 * matched by every program in turn while its bytes are in the cache, so
 * the column is read once for all of them.  results[i] is program i's
 * bitmap, written as by gl_cpu_match_column(); cancels (or NULL) holds a
 * cancel flag per program (or NULL), as gl_cpu_match_column_until()'s.
 * prepared[i] is set false where program i could not be prepared (its
 * result is then undefined).  Returns false, with every result undefined,
 * only when there was no memory for the plans.
 */
extern bool gl_cpu_match_column_batch(const GlProgram *const *progs, uint64_t *const *results,
									  const volatile uint32_t *const *cancels, int nprogs,
									  const GlColumn *col, int nthreads, bool *prepared);

/*
 * The chunks of GL_PAIR_CHUNK_ROWS rows of the column that prog may match
 * in, the column's pair summary (chunk_pairs.h) ruling out the others:
 * their number, with the chunks listed in increasing order in chunks[]
 * (room for `limit`; NULL: not listed) -- or -1 when there are more than
 * `limit`, or the program cannot be prepared.
 */
extern int64_t gl_cpu_chunks_to_match(const GlProgram *prog, const GlColumn *col,
									  uint64_t limit, uint32_t *chunks);

/*
 * Match the rows of the listed chunks only, on the calling thread: words
 * [k * 64, (k + 1) * 64) of `words` are chunk chunks[k]'s bitmap words
 * (bits past the column's last row 0).  For a program the pair summary
 * narrows to a few chunks, so that its result costs what those chunks
 * do, not what the column's size does.  False if the program cannot be
 * prepared.
 */
extern bool gl_cpu_match_chunks(const GlProgram *prog, const GlColumn *col,
								const uint32_t *chunks, uint32_t nchunks, uint64_t *words);

/*
 * Whether a regex's prefilter literal (a DFA program's prefilter section)
 * is rare in these rows -- the lead rows of a column's sample, drawn at
 * random -- so that the GPU should sieve for it first.  False for other
 * programs, and when the match cannot run.
 */
extern bool gl_cpu_prefilter_rare(const GlProgram *prog, const GlColumn *lead);

#endif							/* GPULIKE_CPU_ENGINE_H */
