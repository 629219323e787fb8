/*-------------------------------------------------------------------------
 *
 * program_prep.h
 *	  Preparing a program for the CUDA engine's kernels, on the host:
 *	  validation, derived tables, the stream kernel's table, the choice of
 *	  sieve or skim, and so the plan cuda/match.cu runs.
 *
 * The preparation is plain C++, built by the system compiler: it decides
 * everything about a program that needs no GPU, from the program's bytes,
 * a block's shared memory and the column's text sample, and its results
 * can be checked on any machine (test/unit/prep).  The CUDA engine keeps
 * the prepared programs of each device column (cuda/program_cache.cu),
 * copies their tables to the device and launches the plan.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROGRAM_PREP_H
#define GPULIKE_PROGRAM_PREP_H

#include <stddef.h>

#include "kernel_prep/byte_dfa.h"
#include "kernel_prep/byte_pairs.h"
#include "kernel_prep/classed_table.h"
#include "kernel_prep/literal_set.h"
#include "kernel_prep/sieve.h"
#include "kernel_prep/stream_table.h"

typedef enum GlSkimKind
{
	GL_SKIM_NONE,				/* the stream or rows pass over every chunk */
	GL_SKIM_SIEVE,				/* a literal run of a LIKE pattern */
	GL_SKIM_MULTI				/* the Aho–Corasick automaton itself */
} GlSkimKind;

typedef struct GlPreparedProgram
{
	GlProgramKind kind;
	uint64_t   *blob;			/* malloc'd: the program, then derived tables */
	uint32_t	blob_bytes;
	uint32_t	aux_off;
	uint32_t	warmup_bytes;	/* GL_SKIM_MULTI */
	bool		in_shared;		/* fits the shared memory of a block */
	GlSkimKind	skim;
	bool		skim_exact;		/* the skim alone decides: no other pass */
	GlSieve		sieve;			/* GL_SKIM_SIEVE */
	const GlCharMasks *sieve_masks; /* its run: positions [sieve_start, */
	uint32_t	sieve_start;	/* sieve_start + sieve.nchars) of these */
	/*
	 * nstates > 0: the stream kernel decides, on byte_dfa.compact (compact)
	 * or wide; the automaton's other tables are freed once that one is made
	 */
	GlByteDfa	byte_dfa;
	bool		compact;		/* the stream kernel takes byte_dfa.compact, */
	uint32_t	compact_bytes;	/* this long (renumbered for the column's text) */
	uint16_t   *wide;			/* malloc'd, else its wide table (byte_dfa.h) */
	GlClassedTable classed;		/* nstates > 0: the stream kernel decides
								 * (Aho–Corasick with no byte DFA) */
	GlLiteralSet *literal_set;	/* malloc'd, or NULL: the set sieve runs
								 * before the stream kernel (MULTI) */
	uint32_t	factored;		/* > 0: the compact table is the factored
								 * automaton of MULTI (literal_factors.h),
								 * this many literals looked for by a factor,
								 * and blob holds the per-row kernel's tables */
	uint32_t	candidate;		/* its candidate's flagged value */
	/*
	 * factored > 0: the stream kernel's table the factored automaton took
	 * the place of (classed, windowed or wide), which walks every chunk
	 * where the factored walk gives up (cuda/match.cu)
	 */
	GlClassedTable replaced_classed;
	uint16_t   *replaced_wide;
	uint32_t	replaced_wide_states;
} GlPreparedProgram;

/*
 * What the caller chooses: gl_cuda_match() (sieve_first, the column's
 * pairs), the column's program cache (unfactored) and the tests (the
 * compact table or the byte DFA refused).  A plain match takes the first
 * value in each comment.
 */
typedef struct GlPrepareChoices
{
	uint32_t	max_stream_states;	/* UINT32_MAX, or a cap (0: no byte DFA) */
	bool		compact_ok;		/* true; false: the stream kernel's wide table */
	bool		sieve_first;	/* false; true: no byte DFA where a sieve
								 * narrows the rows (gl_cuda_match()) */
	const GlBytePairs *pairs;	/* NULL; the column's text, for the probes,
								 * the compact and windowed tables'
								 * numbering and the set sieve's choice */
	bool		unfactored;		/* false; true: no factored automaton (its
								 * walk gave up on the column:
								 * cuda/program_cache.cu) */
} GlPrepareChoices;

/*
 * Check that every offset, count and table entry of prog stays inside the
 * blob (the kernels trust them), and build the device blob and, unless a
 * skim alone decides, the stream kernel's table where one fits shared_limit
 * (a block's shared memory).  false with a message if the program is
 * malformed or too large.
 */
extern bool gl_prepare_program_with(const GlProgram *prog, size_t shared_limit,
									const GlPrepareChoices *choices, GlPreparedProgram *pp,
									char *errbuf, size_t errlen);

/* The stream kernel's table, its host copy. */
extern void gl_stream_table_host(const GlPreparedProgram *pp, GlStreamTable *table);
/* The table the factored automaton replaced, its host copy (bytes 0: none). */
extern void gl_replaced_table_host(const GlPreparedProgram *pp, GlStreamTable *table);

extern void gl_prepared_free(GlPreparedProgram *pp);

/*
 * The kernels cuda/match.cu runs for a prepared program (cuda/kernels.h):
 *
 *	LIKE that is one ASCII run		 sieve, exact
 *	  with its anchors
 *	any other program whose byte	 stream, exact (compact table up
 *	  DFA fits shared memory		 to 127 states, else wide to 255)
 *	Aho–Corasick past the compact	 stream, exact (windowed table where
 *	  table whose classed table		   its literals keep to printable
 *	  fits shared memory			   ASCII; else wide to 255, classed)
 *	Aho–Corasick on the wide or		 set sieve -> stream (ends at once
 *	  classed table, its literals	   unless the set sieve gave up)
 *	  rare in the column
 *	Aho–Corasick past the compact	 stream on the factored automaton,
 *	  table whose literals rare in	   exact but for its candidates,
 *	  the column leave one that fits   listing their chunks -> rows(listed
 *	  it, a factor each				   chunks), or, past 1/8 of them,
 *									   stream on the table it replaced,
 *									   exact (literal_factors.h), the
 *									   plan then of its next matches
 *	otherwise:
 *	  LIKE with an ASCII run,		 sieve -> compact -> rows(listed chunks)
 *	  DFA with a prefilter (also
 *	  first, when the caller says
 *	  its literal is rare)
 *	  MULTI							 Aho–Corasick skim, exact
 *	  LIKE, DFA						 rows(every chunk)
 *
 * Within GL_PLAN_STREAM, the table's form says which stream kernel
 * (gl_stream_table_host()), and a set sieve or the per-row kernel on a
 * factored automaton's candidates may come with it.
 */
typedef enum GlPlan
{
	GL_PLAN_SIEVE,				/* the sieve alone, exact */
	GL_PLAN_STREAM,				/* the byte DFA, exact */
	GL_PLAN_SKIM,				/* the Aho–Corasick skim, exact */
	GL_PLAN_SIEVE_ROWS,			/* sieve -> compact -> rows(listed chunks) */
	GL_PLAN_ROWS				/* rows(every chunk) */
} GlPlan;

extern GlPlan gl_prepared_plan(const GlPreparedProgram *pp);

#endif							/* GPULIKE_PROGRAM_PREP_H */
