/*-------------------------------------------------------------------------
 *
 * stream_table.h
 *	  The stream kernel's table, as the preparation makes it and the kernel
 *	  takes it (cuda/kernels_stream.cu), and the room the kernel leaves it
 *	  in a block's shared memory.
 *
 * The stream kernel holds its table in shared memory beside the stage
 * that the column's bytes pass through; the preparation chooses the form
 * whose table fits the room the smallest stage leaves
 * (gl_stream_table_room()).  The stage's size is the kernel's: the
 * constants here are checked against its shapes where it is built.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_STREAM_TABLE_H
#define GPULIKE_STREAM_TABLE_H

#include <stdint.h>

/*
 * The stream kernel's smallest stage (256 threads, one 2 kB slice buffer a
 * warp), and the line it starts on after the table.
 */
constexpr uint32_t GL_STREAM_SMALLEST_STAGE_BYTES = 16384;
constexpr uint32_t GL_STREAM_STAGE_ALIGN = 128;

/* The stream kernel's table forms. */
typedef enum GlStreamForm
{
	GL_STREAM_COMPACT,			/* a byte DFA, one-byte entries (byte_dfa.h) */
	GL_STREAM_FACTORED,			/* the same, of a factored automaton (its candidates) */
	GL_STREAM_WIDE,				/* a byte DFA, 16-bit entries */
	GL_STREAM_CLASSED,			/* Aho–Corasick over byte classes (classed_table.h) */
	GL_STREAM_WINDOWED			/* the same, a windowed form: no class load */
} GlStreamForm;

/*
 * A table as the stream kernel reads it.  The preparation fills in the
 * table's form and its values (gl_stream_table_host(), program_prep.h),
 * table pointing at its host copy; cuda/match.cu points table at the
 * device copy and sets the rest, which only a launch has.
 */
typedef struct GlStreamTable
{
	const void *table;			/* device copy */
	uint32_t	bytes;
	GlStreamForm form;
	uint32_t	classed_skip;	/* GL_STREAM_CLASSED, _WINDOWED: SKIP's value */
	uint32_t	classed_twin;	/* and the root's twin's (classed_table.h) */
	uint32_t	window_flip;	/* GL_STREAM_WINDOWED: its flip */
	uint32_t	candidate;		/* GL_STREAM_FACTORED: the candidate's flagged
								 * value (byte_dfa.h) */
	uint32_t   *candidate_list; /* device: the chunks where its rows start, */
	uint32_t   *candidate_count;	/* how many (zeroed by the caller; past */
	uint32_t	candidate_capacity; /* the list's room: full, none written) */
	uint32_t   *replaced_tickets;	/* the ticket counter of the replaced
									 * table's walk, zeroed where this walk
									 * gives up (cuda/stream_automata.cuh) */
	int			shape;			/* its launch shape on the device (gl_stream_shape()) */
} GlStreamTable;

/* Bytes a table may take beside the stream kernel's smallest stage. */
extern uint32_t gl_stream_table_room(uint32_t shared_limit);
/* Most byte DFA states whose table (compact or wide) fits beside the stream kernel's stage. */
extern uint32_t gl_stream_max_states(uint32_t shared_limit, bool compact);

#endif							/* GPULIKE_STREAM_TABLE_H */
