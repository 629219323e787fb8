/*-------------------------------------------------------------------------
 *
 * byte_dfa.h
 *	  One byte automaton for any program, with the row separator folded in
 *	  (built by byte_dfa.cc, run by the stream kernel of
 *	  cuda/kernels_stream.cu: this header is compiled by both, g++ and nvcc).
 *
 * The device column is one stream of values, each followed by a 0x00
 * separator (cuda/device_column.h).  A byte DFA over that stream needs no
 * notion of rows at all: every state has a transition for every byte,
 * and the transition on 0x00 goes back to the start state and says, in
 * its flag bit, whether the row that just ended matches.  So a thread
 * steps bytes with one table load each, whatever the program was (LIKE,
 * ILIKE, '_', Aho–Corasick or a regex), and learns the rows' answers only
 * at separators.
 *
 * The automaton's table (uint32 entries, the form every other is made
 * from): the next state's value -- its number times 1024 (the byte offset
 * of its 256 entries) plus (number % 32) * 4 -- with bit 31 set when
 * "this is a separator and the row that ends here matches".  The entry
 * for (state, byte) sits at byte offset value ^ (byte << 2).  The stream
 * kernel takes one of two smaller forms of it, below: the compact table
 * (one byte an entry, up to 127 states) or the wide table (two bytes, up
 * to 255).  Two states are fixed:
 *	GL_BYTE_DFA_SKIP	"inside a row another thread owns": every non-zero
 *						byte stays, the separator goes to START, never flagged;
 *	GL_BYTE_DFA_START	a row begins.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_BYTE_DFA_H
#define GPULIKE_BYTE_DFA_H

#include <stdint.h>

#include "kernel_prep/host_device.h"
#include "program/program.h"

constexpr uint32_t GL_BYTE_DFA_SKIP = 0;
constexpr uint32_t GL_BYTE_DFA_START = 1;
constexpr uint32_t GL_BYTE_DFA_STATE_BITS = 0x7FFFFFFC;
constexpr uint32_t GL_BYTE_DFA_FLAG = 0x80000000;
constexpr uint32_t GL_BYTE_DFA_MAX_STATES = 1u << 21;

/* The value of state number id, as entries and the kernel carry it. */
GL_HOST_DEVICE constexpr uint32_t
gl_byte_dfa_state(uint32_t id)
{
	return (id << 10) | ((id & 31) << 2);
}

/* Index (in uint32 entries) of the entry of state value s for byte b. */
GL_HOST_DEVICE static inline uint32_t
gl_byte_dfa_slot(uint32_t s, uint32_t b)
{
	return (s ^ (b << 2)) >> 2;
}

typedef struct GlByteDfa
{
	uint32_t	nstates;		/* 0: no byte DFA (over the cap) */
	uint32_t   *table;			/* malloc'd, nstates * 256 entries */
	uint8_t    *compact;		/* malloc'd compact table (below), or NULL */
} GlByteDfa;

/*
 * The compact table: the same automaton with one byte per entry, for
 * automata of at most GL_BYTE_DFA_COMPACT_STATES states (the stream
 * kernel's faster form, cuda/kernels_stream.cu).  Each state has a row number
 * r (0..127) and the value 2 * r, plus 1 for its flagged twin (below);
 * its entries fill the 256 bytes from value * 256, the entry for byte b
 * at
 *
 *		(value * 256 + b) ^ (value & 0x7C)
 *
 * and each entry is the next state's value.  value * 256 + b is the
 * entry with the text byte below it, one byte permute; the XOR moves a
 * row's bytes across the 32 shared-memory banks (bank = bits 2..6 of the
 * offset) by (r / 2) % 32.  Lanes of a warp read neighbouring bytes in
 * different states, so rows are numbered for text: START, the usual
 * state, is row 0, and the next 16 states (SKIP first) rows 16..31,
 * whose bank offsets have bit 3 set: that puts the lower-case letters
 * and the space, four letters to a bank, on banks START never uses for
 * them.  (Bank conflicts on average, simulated on kernel_bench's text
 * and matching Nsight Compute where both were measured: 2.2-way without
 * the XOR, 1.8 with states in order, 1.1-1.2 so, for '%special%requests%',
 * '%final%', '%quickly%'.  Where the column's text was sampled, its rows
 * are numbered for that text instead, in up to 64 rows:
 * compact_for_text.cc.)  The flag, bit 0, comes with a separator that
 * ends a matching row, and then sticks: each state has a flagged twin,
 * value + 1, in the other half of its half kB, whose transitions are the
 * state's own, flagged.  So the stream kernel need not record the flag
 * byte by byte; it looks at it once per 16 bytes and takes it off there
 * (cuda/kernels_stream.cu).  The table is half a kB per row, at least 32 rows
 * (16 kB).
 */
constexpr uint32_t GL_BYTE_DFA_COMPACT_STATES = 127;
constexpr uint32_t GL_BYTE_DFA_COMPACT_ROW_BYTES = 512;
constexpr uint32_t GL_BYTE_DFA_COMPACT_MIN_ROWS = 32;
constexpr uint32_t GL_BYTE_DFA_COMPACT_START = 0;
constexpr uint32_t GL_BYTE_DFA_COMPACT_SKIP = 2 * 16;

/* Byte offset of the entry of state value s for byte b. */
GL_HOST_DEVICE constexpr uint32_t
gl_byte_dfa_compact_slot(uint32_t s, uint32_t b)
{
	return ((s << 8) | b) ^ (s & 0x7C);
}

/* Bytes of the compact table of an automaton of nstates states. */
GL_HOST_DEVICE constexpr uint32_t
gl_byte_dfa_compact_bytes(uint32_t nstates)
{
	return (nstates > GL_BYTE_DFA_COMPACT_MIN_ROWS ? nstates : GL_BYTE_DFA_COMPACT_MIN_ROWS) *
		GL_BYTE_DFA_COMPACT_ROW_BYTES;
}

/*
 * The compact table of nrows rows renumbered for the banks on sample
 * (rows ending in 0x00; compact_for_text.cc), malloc'd, in at most
 * max(nrows, max_rows) rows, its row count in *out_rows; NULL where
 * there is no sample, no memory, or a transition past nrows rows.
 */
extern uint8_t *gl_compact_for_text(const uint8_t *table, uint32_t nrows, const uint8_t *sample,
									uint32_t sample_bytes, uint32_t max_rows, uint32_t *out_rows);

/*
 * The wide table: the same automaton with two bytes per entry, for
 * automata of at most GL_BYTE_DFA_WIDE_STATES states past the compact
 * table (or where it is refused).  State number n has the value
 *
 *		n * 256 + (n % 32) * 2
 *
 * and its entry for byte b is the uint16 at index
 *
 *		(n * 256 + b) ^ ((n % 32) * 2)
 *
 * holding the next state's value, plus 1 (bit 0) on a separator that ends
 * a matching row.  As in the compact table, the index is the value with
 * the text byte put below the state by one byte permute, and its row
 * moved across the shared-memory banks by one three-input logical
 * operation, which also drops the flag; the stream kernel records the
 * flag byte by byte (no twins: they would halve the states).  Half the
 * bytes of the automaton's own table, so a 150-state regex leaves room
 * for two stage buffers, where the uint32 table left one (cuda/kernels_stream.cu).
 */
constexpr uint32_t GL_BYTE_DFA_WIDE_STATES = 255;

GL_HOST_DEVICE constexpr uint32_t
gl_byte_dfa_wide_value(uint32_t n)
{
	return (n << 8) | ((n & 31) << 1);
}

/* Index (in uint16 entries) of the entry of wide state value v for byte b. */
GL_HOST_DEVICE constexpr uint32_t
gl_byte_dfa_wide_slot(uint32_t v, uint32_t b)
{
	return ((v & 0xFF00) | b) ^ (v & 0x3E);
}

/* Bytes of the wide table of an automaton of nstates states. */
GL_HOST_DEVICE constexpr uint32_t
gl_byte_dfa_wide_bytes(uint32_t nstates)
{
	return nstates * 256 * sizeof(uint16_t);
}

/* The wide table of dfa, malloc'd; NULL past GL_BYTE_DFA_WIDE_STATES or on out-of-memory. */
extern uint16_t *gl_byte_dfa_wide_table(const GlByteDfa *dfa);

/*
 * Build the byte DFA of prog (already validated by program_prep.cc), and
 * its compact table when it has at most GL_BYTE_DFA_COMPACT_STATES states
 * (compact stays NULL when there is no memory for it).  Returns false with
 * nstates = 0 when it would need more than max_states states (the caller
 * then uses the per-row kernels) or on out-of-memory.
 * Exact for valid text in the database encoding, which is all a column
 * ever holds.
 */
extern bool gl_build_byte_dfa(const GlProgram *prog, uint32_t max_states, GlByteDfa *out);

/* The same, from the automata of recent programs where one is kept (byte_dfa_recent.cc). */
extern bool gl_byte_dfa_for(const GlProgram *prog, uint32_t max_states, GlByteDfa *out);
extern void gl_byte_dfa_free(GlByteDfa *dfa);

/*
 * A factored automaton (literal_factors.h): an Aho–Corasick program over
 * some literals and rare factors of others, and for each of its states
 * what its string ends in.  Its compact table has one more kind of state,
 * the candidate: a row where a factor stands (and no literal before it)
 * may hold a literal the automaton does not follow, and is decided later
 * by the per-row kernel.  The factor's last byte enters the candidate's
 * flagged twin, which holds every byte, separators too: the row's flag
 * must not stand for a match, and the rows after it in those bytes are not
 * followed either.  The stream kernel takes the flag off every 16 bytes as
 * for any state; without it, the candidate skips to the next separator, as
 * SKIP does, and the kernel finds the flagged twin in its record there
 * (cuda/kernels_stream.cu): the rows from the one open at the start of those 16
 * bytes to the one open after them are the per-row kernel's.  false where
 * the automaton has more than max_states (at most
 * GL_BYTE_DFA_COMPACT_STATES) states, no candidate, or no memory.
 */
typedef enum GlFactoredEnd
{
	GL_FACTORED_NO_END = 0,
	GL_FACTORED_LITERAL_END,	/* a literal is a suffix of the state's string */
	GL_FACTORED_FACTOR_END		/* a factor is, and no literal */
} GlFactoredEnd;

extern bool gl_build_factored_byte_dfa(const GlProgram *prog, const uint8_t *end_kind,
									   uint32_t max_states, GlByteDfa *out);

/* No candidate: a value no compact entry has. */
constexpr uint32_t GL_COMPACT_NO_CANDIDATE = 0x100;

/* The candidate's flagged value in a compact table of rows rows, or GL_COMPACT_NO_CANDIDATE. */
extern uint32_t gl_compact_candidate(const uint8_t *table, uint32_t rows);

#endif							/* GPULIKE_BYTE_DFA_H */
