/*-------------------------------------------------------------------------
 *
 * classed_table.h
 *	  An Aho–Corasick automaton too large for the compact byte DFA, as the
 *	  stream kernel's classed table (internal to cuda/; built on the host
 *	  by classed_table.cu, run by kernels_stream.cu).
 *
 * The stream kernel decides rows, not literal occurrences: the automaton
 * of a LIKE ANY program over byte classes, with three things added:
 *	- a class of its own for the 0x00 separator, on which every state
 *	  goes back to the root;
 *	- MATCHED, where every transition into an accepting state goes
 *	  instead, and which stays there until the separator, whose entry
 *	  then carries the row's flag: one flag per matching row, on the byte
 *	  that ends it, however many literals it holds;
 *	- SKIP, the state of a thread whose first chunk begins inside a row
 *	  (kernels_stream.cu), left at the next separator.
 *
 * Layout, as shared memory holds it from offset 0:
 *	classes	256 bytes: byte b's class times two (its entries' byte offset
 *			within a row), so at most 128 classes;
 *	entries	nstates rows of nclasses uint16 entries, row r from byte
 *			2 * r * nclasses: the next state's row start (its byte
 *			offset, always even, so at most 32 768 entries in all), bit 0
 *			the flag.  The stream kernel adds the class's offset and
 *			loads the next entry; a funnel shift records the flag and an
 *			AND takes it off.
 * States: 0 the root, 1 MATCHED, then the program's others (its state s
 * is s + 1), SKIP last.  Two bytes an entry keep 200 literals' automaton
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

#include "program/program.h"

constexpr uint32_t GL_CLASSED_MAX_CLASSES = 128;
constexpr uint32_t GL_CLASSED_MAX_ENTRIES = 32768;
constexpr uint32_t GL_CLASSED_FLAG = 1;

typedef struct GlClassedTable
{
	uint32_t	nstates;		/* 0: none */
	uint32_t	nclasses;		/* the program's, and the separator's */
	uint32_t	bytes;			/* of table, a multiple of 16 */
	uint8_t    *table;			/* malloc'd: classes, then entries */
} GlClassedTable;

/*
 * Two states' numbers; a state's value, where its row starts, is its
 * number times 2 * nclasses (the root's is 0).
 */
constexpr uint32_t GL_CLASSED_ROOT = 0;
constexpr uint32_t GL_CLASSED_MATCHED = 1;

/* SKIP's value. */
static inline uint32_t
gl_classed_skip(const GlClassedTable *t)
{
	return 2 * (t->nstates - 1) * t->nclasses;
}

/*
 * The classed table of prog, a GL_PROG_MULTI program already validated
 * (program_prep.cu) whose root does not accept; false, out->nstates 0,
 * when it would pass max_bytes or the limits above, or on out-of-memory.
 */
extern bool gl_build_classed_table(const GlProgram *prog, uint32_t max_bytes,
								   GlClassedTable *out);
extern void gl_classed_table_free(GlClassedTable *t);

#endif							/* GPULIKE_CLASSED_TABLE_H */
