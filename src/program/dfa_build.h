/*-------------------------------------------------------------------------
 *
 * dfa_build.h
 *	  From a deterministic automaton over colors to a GL_PROG_DFA program
 *	  (program.h).
 *
 * A leaf (plain C, malloc, no PostgreSQL calls), like like_build.h and
 * multi_build.h: the regex compiler (compile_regex.c) hands it the DFA it
 * determinized from PostgreSQL's regex NFA, and the unit and kernel tests
 * the automata they make up, so that the program's layout is written once.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DFA_BUILD_H
#define GPULIKE_DFA_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "program/program.h"

/* An automaton over colors, as GlDfaProgram describes it. */
typedef struct GlDfaSpec
{
	uint32_t	nstates;
	uint32_t	ncolors;
	uint32_t	start_state;
	const uint16_t *trans;		/* [nstates * ncolors]: the next state */
	const uint8_t *flags;		/* [nstates]: GL_DFA_* */
	const uint16_t *ascii_color;	/* [128]: color of each ASCII code point */
	const GlColorRange *ranges; /* code points >= 128: sorted, disjoint */
	uint32_t	nranges;
	uint32_t	default_color;	/* of a code point in no range */
	bool		exact;			/* equals PostgreSQL's answer (program.h) */
	bool		utf8;			/* values are UTF-8, else one byte a char */
	const GlProgram *prefilter; /* '%literal%' every match contains, or NULL */
} GlDfaSpec;

/* The program blob (malloc'd), or NULL if memory ran out. */
extern GlProgram *gl_build_dfa(const GlDfaSpec *spec);

#endif							/* GPULIKE_DFA_BUILD_H */
