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

/*
 * Evaluate a well-formed MATCH message (requests.c checks it first) whose
 * counting bitmap, if it asks for counting, is visible (else NULL): fills
 * *answer (malloc'd: gl_answer_free it) and result, and returns true; or
 * false with a reason in why when the server cannot answer (a column not
 * held under the generation named, out of memory).
 */
extern bool gl_evaluate_match(const GlMatchMessage *msg,
							  const GlVisibleBlocks *visible,
							  GlAnswer *answer, GlMatchResult *result,
							  char *why, size_t whylen);

#endif							/* GPULIKE_EVALUATE_H */
