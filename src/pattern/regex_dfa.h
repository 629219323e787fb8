/*-------------------------------------------------------------------------
 *
 * regex_dfa.h
 *	  Determinizing an exported regex NFA (regex_export.h) into a DFA over
 *	  input columns (groups of colors), then shrinking it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGEX_DFA_H
#define GPULIKE_REGEX_DFA_H

#include "pattern/regex_export.h"

/*
 * trans[s * ncolumns + c] is the state after reading a character of column
 * c in state s; flags[s] holds GL_DFA_ACCEPT / _ACCEPT_AT_END / _DEAD
 * (program.h).  No transition leaves an ACCEPT state or the DEAD states, so
 * an engine may test the flags lazily (every few characters, or only at
 * the end); after minimization there is at most one ACCEPT and one DEAD
 * state, each looping on every column.
 */
typedef struct GlRegexDfa
{
	int			nstates;
	int			ncolumns;
	int			start;
	uint16	   *trans;
	uint8	   *flags;
} GlRegexDfa;

/*
 * Subset construction.  column_of_color[co] is the input column of
 * character color co (0 .. nfa->ncolors - 1), or -1 for colors no
 * character has (pseudocolors, unused colors).  Returns NULL on success,
 * or a refusal text when more than max_states states (or too large a
 * table) would be needed.
 */
extern const char *gl_regex_determinize(const GlRegexNfa *nfa,
										const int *column_of_color,
										int ncolumns, int max_states,
										GlRegexDfa *dfa);

/* Merge states no input can tell apart (Moore's partition refinement). */
extern void gl_regex_dfa_minimize(GlRegexDfa *dfa);

/*
 * Merge columns that every state treats alike.  column_map[old] receives
 * the new column of each old one.
 */
extern void gl_regex_dfa_merge_columns(GlRegexDfa *dfa, int *column_map);

#endif							/* GPULIKE_REGEX_DFA_H */
