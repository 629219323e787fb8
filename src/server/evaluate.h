/*-------------------------------------------------------------------------
 *
 * evaluate.h
 *	  The gpulike server's evaluation of a MATCH request: program leaves on
 *	  the CPU or CUDA engine, bitmap algebra, candidates by heap page out
 *	  (evaluate.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_EVALUATE_H
#define GPULIKE_EVALUATE_H

#include "column/answer.h"
#include "protocol/protocol.h"
#include "server/stored_column.h"

/*
 * One MATCH request to evaluate.  The caller (serve.c) fills the
 * inputs: a well-formed message, each leaf's column (columns[i] for item
 * i; operators' entries unused), the counting bitmap if the request
 * counts (else NULL), whether the GPU may be used (each leaf's column then
 * has its complete device copy, or none), and the flag that says its
 * backend left (or NULL).  gl_evaluate_match may run on a request thread.
 */
typedef struct GlEvaluation
{
	const GlMatchMessage *msg;
	GlStoredColumn **columns;
	const GlVisibleBlocks *visible;
	bool		use_gpu;
	const volatile uint32 *cancel;

	/* out: ok, the answer (malloc'd: gl_answer_free it) and its summary */
	TimestampTz started_at;		/* when a request thread took it up */
	bool		ok;
	GlAnswer	answer;
	GlMatchResult result;
	char		why[256];		/* when not ok: for an UNAVAILABLE reply */
	bool	   *gpu_failed;		/* [item]: the leaf's GPU match failed; its
								 * column's device copy is to be dropped */
	char		gpu_failure[160];	/* the last such failure */
	char		log_message[320];	/* for the server log, or "" */
} GlEvaluation;

extern void gl_evaluate_match(GlEvaluation *ev);

/*
 * Can no row match the request -- each of its leaves positive, over a
 * column whose pair summary leaves it no chunk to match?  Then its
 * evaluation takes microseconds, less than handing it to a request
 * thread and back would (serve.c runs it at once).  columns as in
 * GlEvaluation.
 */
extern bool gl_evaluate_no_row_can_match(const GlMatchMessage *msg,
										 GlStoredColumn *const *columns);

#endif							/* GPULIKE_EVALUATE_H */
