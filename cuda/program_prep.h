/*-------------------------------------------------------------------------
 *
 * program_prep.h
 *	  Host-side preparation of a program for the kernels (internal to cuda/):
 *	  validation, derived tables, and the choice of skim.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROGRAM_PREP_H
#define GPULIKE_PROGRAM_PREP_H

#include "kernels.h"
#include "byte_dfa.h"
#include "classed_table.h"
#include "literal_set.h"

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
	 * where the factored walk gives up (match.cu)
	 */
	GlClassedTable replaced_classed;
	uint16_t   *replaced_wide;
	uint32_t	replaced_wide_states;
} GlPreparedProgram;

/*
 * Check that every offset, count and table entry of prog stays inside the
 * blob (the kernels trust them), and build the device blob and, unless a
 * skim alone decides, the byte DFA when it fits shared memory.  false with
 * a message if the program is malformed.
 */
extern bool gl_prepare_program(const GlProgram *prog, size_t shared_limit,
							   uint32_t max_stream_states, GlPreparedProgram *pp,
							   char *errbuf, size_t errlen);

/*
 * gl_prepare_program() with other choices, for gl_cuda_match() (sieve_first,
 * the column's pairs) and the tests (the compact table or the byte DFA
 * refused).  gl_prepare_program() takes the first value in each comment.
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
								 * program_cache.cu) */
} GlPrepareChoices;

extern bool gl_prepare_program_with(const GlProgram *prog, size_t shared_limit,
									const GlPrepareChoices *choices, GlPreparedProgram *pp,
									char *errbuf, size_t errlen);

/* The stream kernel's table, its host copy. */
extern void gl_stream_table_host(const GlPreparedProgram *pp, GlStreamTable *table);
/* The table the factored automaton replaced, its host copy (bytes 0: none). */
extern void gl_replaced_table_host(const GlPreparedProgram *pp, GlStreamTable *table);

/*
 * gl_cuda_match() with the byte DFA limited to max_stream_states states
 * (UINT32_MAX: as many as fit; 0: never, so the skims and per-row kernels
 * run) and its compact table allowed or not: kernel_test checks each.
 */
extern bool gl_cuda_match_capped(GlDeviceColumn *dcol, const GlProgram *prog,
								 uint32_t max_stream_states, bool compact_ok,
								 uint64_t *result, double *kernel_ms, char *errbuf,
								 size_t errlen);
extern void gl_prepared_free(GlPreparedProgram *pp);

/*
 * The kernels gl_cuda_match() runs for pp: "sieve", "stream" (compact
 * table), "stream-wide", "stream-classed", "stream-windowed", the last
 * four after the set sieve "set-sieve+stream..." (e.g.
 * "set-sieve+stream-windowed"), "skim", "sieve+rows", "rows".
 */
extern const char *gl_plan_name(const GlPreparedProgram *pp);

#endif							/* GPULIKE_PROGRAM_PREP_H */
