/*-------------------------------------------------------------------------
 *
 * literal_factors.h
 *	  A LIKE ANY list whose literals rare in the column are looked for by a
 *	  rare factor each, on the compact table, and their rows decided by the
 *	  per-row kernel (program_prep.cc chooses it).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_LITERAL_FACTORS_H
#define GPULIKE_LITERAL_FACTORS_H

#include "kernel_prep/byte_dfa.h"
#include "kernel_prep/byte_pairs.h"

/*
 * The factored automaton of MULTI program prog (already validated) on the
 * column whose sample is pairs (byte_dfa.h: gl_build_factored_byte_dfa()),
 * in at most max_states states, into *out, with the number of literals
 * looked for by a factor in *nfactored.  false where no literal has a
 * factor the sample never holds, where the program's literals cannot be
 * recovered (literal_set.h), where the automaton has more states, or on
 * out-of-memory.
 */
extern bool gl_factor_literals(const GlProgram *prog, const GlBytePairs *pairs,
							   uint32_t max_states, GlByteDfa *out, uint32_t *nfactored);

#endif							/* GPULIKE_LITERAL_FACTORS_H */
