/*-------------------------------------------------------------------------
 *
 * folded_tables.h
 *	  The derived tables the preparation appends to a program's blob for
 *	  the skim and the per-row kernel (program_prep.cc folds them;
 *	  cuda/kernels_skim.cu and cuda/row_matchers.cuh step them).
 *
 * They are made only where no stream kernel runs, or where the per-row
 * kernel decides a factored automaton's candidates, and are copied into
 * shared memory with the program (a blob larger than shared memory is read
 * in place from global memory):
 *	MULTI	folded[s * nclasses + c] = next * nclasses | accept(next) << 31:
 *			one load per byte instead of three.
 *	DFA		folded[s * 128 + b] = next state for ASCII byte b, with that
 *			state's ACCEPT / DEAD flags in bits 14 and 15: ASCII text costs
 *			one load per byte, without the color lookup.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_FOLDED_TABLES_H
#define GPULIKE_FOLDED_TABLES_H

#include <stdint.h>

/* Folded ASCII entries of a DFA: next state in bits 0-13, its ACCEPT / DEAD flags above. */
constexpr uint32_t GL_DFA_FOLD_STATE_MASK = 0x3FFF;
constexpr uint32_t GL_DFA_FOLD_MAX_STATES = 0x4000;
constexpr uint32_t GL_DFA_FOLD_ACCEPT = 0x4000;
constexpr uint32_t GL_DFA_FOLD_DEAD = 0x8000;

#endif							/* GPULIKE_FOLDED_TABLES_H */
