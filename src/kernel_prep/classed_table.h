/*-------------------------------------------------------------------------
 *
 * classed_table.h
 *	  An Aho–Corasick automaton too large for the compact byte DFA, as the
 *	  stream kernel's classed table (built by classed_table.cc, run by
 *	  cuda/kernels_stream.cu: this header is compiled by both).
 *
 * The stream kernel decides rows, not literal occurrences: the automaton
 * of a LIKE ANY program over byte classes, with three things added:
 *	- a class of its own for the 0x00 separator, on which every state
 *	  goes back to the root;
 *	- MATCHED, where every transition into an accepting state goes
 *	  instead, and which stays there until the separator, which then
 *	  leads to the root's TWIN instead of the root: the twin's row is the
 *	  root's, and entering it says that the row the separator ended
 *	  matched, once per matching row however many literals it holds;
 *	- SKIP, the state of a thread whose first chunk begins inside a row
 *	  (cuda/kernels_stream.cu), left at the next separator.
 * The twin is numbered last, so its value is the table's largest: the
 * stream kernel keeps the largest entry of each 16 bytes (one integer
 * max a byte, off the chain of loads) and knows from it whether they
 * ended a matching row, where a flag bit in every entry cost a funnel
 * shift to record it and an AND to take it off, the latter on the chain.
 *
 * Layout, as shared memory holds it from offset 0:
 *	classes	256 bytes: byte b's class times two (its entries' byte offset
 *			within a row), so at most 128 classes;
 *	entries	nstates rows of nclasses uint16 entries, row r from byte
 *			2 * r * nclasses: the next state's row start (its byte
 *			offset, always even, so at most 32 768 entries in all).  The
 *			stream kernel adds the class's offset and loads the next
 *			entry.
 * The windowed forms, where the program's bytes allow: no class table and
 * no class load.  Byte b's column is computed, min(b ^ flip, flip + 1)
 * (gl_classed_window_column()), and rows of flip + 2 entries start at
 * offset 0.  flip 0x40, the letters' window, puts the 64 bytes 0x40..0x7F
 * in columns 0..63, the separator (0x00 ^ 0x40) in 64 and every other
 * byte in 65: it serves literals of letters, as word lists are.  flip
 * 0x60, the printable window, puts 0x20..0x7F in columns 0..95 (the
 * XOR swaps 0x20..0x3F with 0x40..0x5F and sends 0x60..0x7F to 0..31),
 * the separator in 96 and the rest, control bytes and non-ASCII, in 97:
 * it serves literals of printable ASCII, with spaces, digits and
 * hyphens.  Either needs every byte outside its window but the separator
 * in one program class.  An entry holds the next state's number times
 * two, which the kernel multiplies by the row's length
 * and adds the column's offset to (one IMAD): 200 literals' rows pass the
 * 64 kB a byte offset can reach.  The rows are two or three times as long
 * as 200 literals' 30 classes make them, but each byte is one shared load
 * instead of two (bank_sim, "AC 200": 3.10 wavefronts a byte, letters'
 * window, against 1.00 + 3.07).  H200, test/kernels/kernel_bench's "AC
 * 200" (a hyphen in "x-ray": the printable window, 148 kB, 32 warps an SM
 * as before): 34.8% of the read bandwidth -> 38.8-39.2%.
 *
 * States: 0 the root, 1 MATCHED, then the program's others (its state s
 * is s + 1), SKIP, the root's twin last; a windowed table built with a
 * sample of the column's text numbers its busiest states for the banks
 * instead (the root stays 0, SKIP and the twin last: classed_table.cc).  Two bytes an entry keep 200 literals' automaton
 * (752 states of 30 classes, kernel_bench's "AC 200") in 45 kB of shared
 * memory, three blocks to an SM beside the stage, and neighbouring
 * entries share a bank word.  The two rows most lanes are in, the root
 * and MATCHED (40% of the lanes' steps for "AC 200"), come first, side by
 * side on different banks while the rows are no longer than 16 words:
 * simulated, 3.01 wavefronts a load against 3.17 with SKIP first and
 * MATCHED last (bank_sim).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CLASSED_TABLE_H
#define GPULIKE_CLASSED_TABLE_H

#include <stdint.h>

#include "kernel_prep/host_device.h"
#include "program/program.h"

constexpr uint32_t GL_CLASSED_MAX_CLASSES = 128;
constexpr uint32_t GL_CLASSED_MAX_ENTRIES = 32768;

/* The windowed forms' flips, the smaller table first: letters, printable. */
constexpr uint32_t GL_CLASSED_WINDOW_FLIPS[] = {0x40, 0x60};

typedef struct GlClassedTable
{
	uint32_t	nstates;		/* 0: none */
	uint32_t	nclasses;		/* entries a row: the program's classes and
								 * the separator's, or the window's flip + 2 */
	uint32_t	window_flip;	/* a windowed form's flip; 0: classed */
	uint32_t	bytes;			/* of table, a multiple of 16 */
	uint8_t    *table;			/* malloc'd: classes (unless windowed), then entries */
} GlClassedTable;

/* Byte b's column in a windowed table of this flip. */
GL_HOST_DEVICE constexpr uint32_t
gl_classed_window_column(uint32_t b, uint32_t flip)
{
	return (b ^ flip) < flip + 1 ? b ^ flip : flip + 1;
}

/* The byte offset in t->table of state's entry for byte b (host-side checks). */
static inline uint32_t
gl_classed_entry_offset(const GlClassedTable *t, uint32_t state, uint8_t b)
{
	return t->window_flip != 0 ?
		state * t->nclasses + 2 * gl_classed_window_column(b, t->window_flip) :
		256 + state + t->table[b];
}

/*
 * Two states' numbers; a state's value, where its row starts, is its
 * number times 2 * nclasses (the root's is 0), or in a windowed form its
 * number times two (gl_classed_value()).
 */
constexpr uint32_t GL_CLASSED_ROOT = 0;
constexpr uint32_t GL_CLASSED_MATCHED = 1;

/* State s's value: its row's byte offset, or (windowed) twice its number. */
static inline uint32_t
gl_classed_value(const GlClassedTable *t, uint32_t s)
{
	return t->window_flip != 0 ? 2 * s : 2 * s * t->nclasses;
}

/* SKIP's value. */
static inline uint32_t
gl_classed_skip(const GlClassedTable *t)
{
	return gl_classed_value(t, t->nstates - 2);
}

/* The root's twin's value, the largest: the state after a matching row. */
static inline uint32_t
gl_classed_twin(const GlClassedTable *t)
{
	return gl_classed_value(t, t->nstates - 1);
}

/*
 * The classed table of prog, a GL_PROG_MULTI program already validated
 * (program_prep.cc) whose root does not accept: where windowed_ok, the
 * first windowed form that the program's bytes allow and that fits
 * max_bytes, else the classed form; false, out->nstates 0, when that
 * would pass max_bytes or the limits above, or on out-of-memory.  A
 * windowed form's states are numbered for the banks from sample (rows,
 * each ending in 0x00), if there is one.
 */
extern bool gl_build_classed_table(const GlProgram *prog, uint32_t max_bytes, bool windowed_ok,
								   const uint8_t *sample, uint32_t sample_bytes,
								   GlClassedTable *out);
extern void gl_classed_table_free(GlClassedTable *t);

#endif							/* GPULIKE_CLASSED_TABLE_H */
