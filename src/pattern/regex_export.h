/*-------------------------------------------------------------------------
 *
 * regex_export.h
 *	  A compiled PostgreSQL regex, read out into plain arrays: its search
 *	  NFA over colors and its code point -> color map.
 *
 * Everything the determinizer (regex_dfa.c) and the program assembly
 * (compile_regex.c) need from PostgreSQL's regex library passes through
 * these two structs, so only regex_export.c has to know the library's
 * internals.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGEX_EXPORT_H
#define GPULIKE_REGEX_EXPORT_H

#include "regex/regex.h"

/* An arc color standing for "every character color" (not BOS/EOS). */
#define GL_REGEX_RAINBOW	(-2)

/*
 * The search NFA: the regex with an implicit leading ".*" (unless anchored),
 * so "does any substring match" becomes "is the final state reachable".
 * Lookaround constraints are treated as satisfied (the NFA is then a
 * superset of the regex).  Arcs of state s are arc_color/arc_to
 * [arc_start[s] .. arc_start[s + 1]).
 */
typedef struct GlRegexNfa
{
	int			nstates;
	int			initial;		/* state before anything is read */
	int			final;			/* reaching it means "match" */
	int			ncolors;		/* colors are 0 .. ncolors - 1 */
	int			bos_color;		/* fed once before the first character */
	int			eos_color;		/* fed once after the last character */
	int		   *arc_start;		/* [nstates + 1] */
	int		   *arc_color;		/* a color, or GL_REGEX_RAINBOW */
	int		   *arc_to;
} GlRegexNfa;

/* Consecutive code points [lo, hi] that all have one color. */
typedef struct GlColorRun
{
	uint32		lo;
	uint32		hi;
	int			color;
} GlColorRun;

/*
 * The color of every code point the database encoding can hold:
 * ascii[c] for c < 128, then runs covering 128 .. max_codepoint in
 * increasing order without gaps.
 */
typedef struct GlRegexColorMap
{
	int			ascii[128];
	int			nruns;
	GlColorRun *runs;
} GlRegexColorMap;

extern void gl_regex_export_nfa(const regex_t *re, GlRegexNfa *nfa);
extern void gl_regex_export_colormap(const regex_t *re, uint32 max_codepoint,
									 GlRegexColorMap *map);

#endif							/* GPULIKE_REGEX_EXPORT_H */
