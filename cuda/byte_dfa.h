/*-------------------------------------------------------------------------
 *
 * byte_dfa.h
 *	  One byte automaton for any program, with the row separator folded in
 *	  (internal to cuda/; built on the host by byte_dfa.cu, run by the
 *	  stream kernel of kernels_stream.cu).
 *
 * The device column is one stream of values, each followed by a 0x00
 * separator (device_column.h).  A byte DFA over that stream needs no
 * notion of rows at all: every state has a transition for every byte,
 * and the transition on 0x00 goes back to the start state and says, in
 * its flag bit, whether the row that just ended matches.  So a thread
 * steps bytes with one table load each, whatever the program was (LIKE,
 * ILIKE, '_', Aho–Corasick or a regex), and learns the rows' answers only
 * at separators.
 *
 * Table entry (uint32): the next state's value -- its number times 1024
 * (the byte offset of its 256 entries) plus (number % 32) * 4 -- with
 * bit 31 set when "this is a separator and the row that ends here
 * matches".  The entry for (state, byte) sits at byte offset
 * value ^ (byte << 2): one shift and one three-input logical operation,
 * no multiply.  The XOR spreads the 32 lanes of a warp over the 32 shared
 * memory banks when they read the same byte in different states (runs of
 * one letter, as in adversarial text), instead of all hitting bank
 * byte % 32.  Two states are fixed:
 *	GL_BYTE_DFA_SKIP	"inside a row another thread owns": every non-zero
 *						byte stays, the separator goes to START, never flagged;
 *	GL_BYTE_DFA_START	a row begins.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_BYTE_DFA_H
#define GPULIKE_BYTE_DFA_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "program/program.h"

constexpr uint32_t GL_BYTE_DFA_SKIP = 0;
constexpr uint32_t GL_BYTE_DFA_START = 1;
constexpr uint32_t GL_BYTE_DFA_STATE_BITS = 0x7FFFFFFC;
constexpr uint32_t GL_BYTE_DFA_FLAG = 0x80000000;
constexpr uint32_t GL_BYTE_DFA_MAX_STATES = 1u << 21;

/* The value of state number id, as entries and the kernel carry it. */
__host__ __device__ static inline uint32_t
gl_byte_dfa_state(uint32_t id)
{
	return (id << 10) | ((id & 31) << 2);
}

/* Index (in uint32 entries) of the entry of state value s for byte b. */
__host__ __device__ static inline uint32_t
gl_byte_dfa_slot(uint32_t s, uint32_t b)
{
	return (s ^ (b << 2)) >> 2;
}

typedef struct GlByteDfa
{
	uint32_t	nstates;		/* 0: no byte DFA (over the cap) */
	uint32_t   *table;			/* malloc'd, nstates * 256 entries */
} GlByteDfa;

/*
 * Build the byte DFA of prog (already validated by program_prep.cu).
 * Returns false with nstates = 0 when it would need more than max_states
 * states (the caller then uses the per-row kernels) or on out-of-memory.
 * Exact for valid text in the database encoding, which is all a column
 * ever holds.
 */
extern bool gl_build_byte_dfa(const GlProgram *prog, uint32_t max_states, GlByteDfa *out);

/* The same, from the automata of recent programs where one is kept (byte_dfa_recent.cu). */
extern bool gl_byte_dfa_for(const GlProgram *prog, uint32_t max_states, GlByteDfa *out);
extern void gl_byte_dfa_free(GlByteDfa *dfa);

#endif							/* GPULIKE_BYTE_DFA_H */
