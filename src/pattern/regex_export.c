/*-------------------------------------------------------------------------
 *
 * regex_export.c
 *	  Reading a compiled PostgreSQL regex out into plain arrays.
 *
 * The NFA.  PostgreSQL's regex compiler keeps, besides the full regex tree,
 * a "search" NFA: the regex with an implicit leading ".*" loop on its
 * initial state.  For a regex without back-references, regexec decides
 * "does the string match anywhere" with that NFA alone: it feeds the
 * begin-of-line pseudocolor, then the color of every character, then the
 * end-of-line pseudocolor, and the string matches as soon as the final
 * state is reached.  We read that NFA through the regexport API (as
 * contrib/pg_trgm does), which hides lookaround-constraint arcs by treating
 * every constraint as satisfied, so with lookaround the exported NFA accepts
 * a superset of the strings the regex does.  Back-references are
 * approximated in the search NFA by the referenced group's own language,
 * again a superset.  The only thing regexport cannot tell us is which of
 * the two begin (and end) pseudocolors regexec feeds at the string
 * boundaries: with no REG_NOTBOL/REG_NOTEOL flags it feeds the "line"
 * variants bos[1] and eos[1], so we take those from the search NFA itself.
 *
 * The color map.  pg_reg_getcharacters() enumerates only the members of
 * colors that live entirely below MAX_SIMPLE_CHR (0x7FF); the white color
 * and any color mentioned in the "high" colormap stay unknown.  We need the
 * color of every code point exactly, so we read the colormap directly:
 *
 *	- code points <= MAX_SIMPLE_CHR: the plain array locolormap;
 *	- higher code points: a row is chosen by the sorted list of code point
 *	  ranges the regex mentions (row 0 for all others), a column by the
 *	  locale character classes (isalpha, ...) the regex uses above
 *	  MAX_SIMPLE_CHR.  Without such classes there is one column, and every
 *	  range maps to one color, so the map is the ranges themselves.  With
 *	  them the color depends on the locale's classification of each code
 *	  point, which we can only learn by asking, so we ask regexec's own
 *	  lookup, pg_reg_getcolor(), for every code point up to the encoding's
 *	  maximum (about a million calls, tens of milliseconds) and merge equal
 *	  neighbours into runs.
 *
 *-------------------------------------------------------------------------
 */
#include "regex/regguts.h"		/* includes postgres.h first */

#include "regex/regexport.h"

#include "pattern/regex_export.h"

/* Export the search NFA's states and arcs. */
void
gl_regex_export_nfa(const regex_t *re, GlRegexNfa *nfa)
{
	const struct guts *g = (const struct guts *) re->re_guts;
	int			nstates = pg_reg_getnumstates(re);
	int			total = 0;
	regex_arc_t *arcs;
	int			s;
	int			i;

	nfa->nstates = nstates;
	nfa->initial = pg_reg_getinitialstate(re);
	nfa->final = pg_reg_getfinalstate(re);
	nfa->ncolors = pg_reg_getnumcolors(re);
	nfa->bos_color = g->search.bos[1];
	nfa->eos_color = g->search.eos[1];

	nfa->arc_start = palloc((nstates + 1) * sizeof(int));
	for (s = 0; s < nstates; s++)
	{
		nfa->arc_start[s] = total;
		total += pg_reg_getnumoutarcs(re, s);
	}
	nfa->arc_start[nstates] = total;

	arcs = palloc(Max(total, 1) * sizeof(regex_arc_t));
	for (s = 0; s < nstates; s++)
	{
		int			n = nfa->arc_start[s + 1] - nfa->arc_start[s];

		if (n > 0)
			pg_reg_getoutarcs(re, s, arcs + nfa->arc_start[s], n);
	}

	nfa->arc_color = palloc(Max(total, 1) * sizeof(int));
	nfa->arc_to = palloc(Max(total, 1) * sizeof(int));
	for (i = 0; i < total; i++)
	{
		nfa->arc_color[i] = arcs[i].co == COLOR_RAINBOW ? GL_REGEX_RAINBOW : arcs[i].co;
		nfa->arc_to[i] = arcs[i].to;
	}
	pfree(arcs);
}

/* Append [lo, hi] -> color, merging with the previous run when possible. */
static void
append_run(GlRegexColorMap *map, int *capacity, uint32 lo, uint32 hi, int color)
{
	GlColorRun *last = map->nruns > 0 ? &map->runs[map->nruns - 1] : NULL;

	if (lo > hi)
		return;
	if (last != NULL && last->color == color && last->hi + 1 == lo)
	{
		last->hi = hi;
		return;
	}
	if (map->nruns == *capacity)
	{
		*capacity *= 2;
		map->runs = repalloc(map->runs, *capacity * sizeof(GlColorRun));
	}
	map->runs[map->nruns].lo = lo;
	map->runs[map->nruns].hi = hi;
	map->runs[map->nruns].color = color;
	map->nruns++;
}

/*
 * High code points when no character class splits them: row 0's color
 * everywhere except in the regex's own ranges.
 */
static void
append_high_ranges(const struct colormap *cm, uint32 max_codepoint,
				   GlRegexColorMap *map, int *capacity)
{
	uint32		next = MAX_SIMPLE_CHR + 1;
	int			i;

	for (i = 0; i < cm->numcmranges && next <= max_codepoint; i++)
	{
		const colormaprange *r = &cm->cmranges[i];
		uint32		lo = Max((uint32) r->cmin, next);
		uint32		hi = Min((uint32) r->cmax, max_codepoint);

		if (lo > max_codepoint)
			break;
		if ((uint32) r->cmax < next)
			continue;
		append_run(map, capacity, next, lo - 1, cm->hicolormap[0]);
		append_run(map, capacity, lo, hi, cm->hicolormap[r->rownum]);
		next = hi + 1;
	}
	if (next <= max_codepoint)
		append_run(map, capacity, next, max_codepoint, cm->hicolormap[0]);
}

/* High code points whose color depends on locale classes: ask each one. */
static void
append_high_by_lookup(const regex_t *re, struct colormap *cm,
					  uint32 max_codepoint, GlRegexColorMap *map, int *capacity)
{
	uint32		c;

	/* pg_reg_getcolor classifies with the collation regexec would use */
	pg_set_regex_collation(re->re_collation);
	for (c = MAX_SIMPLE_CHR + 1; c <= max_codepoint; c++)
	{
		if ((c & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		append_run(map, capacity, c, c, pg_reg_getcolor(cm, (chr) c));
	}
}

/* The color of every code point 0 .. max_codepoint. */
void
gl_regex_export_colormap(const regex_t *re, uint32 max_codepoint,
						 GlRegexColorMap *map)
{
	struct colormap *cm = &((struct guts *) re->re_guts)->cmap;
	int			capacity = 64;
	uint32		c;

	for (c = 0; c < 128; c++)
		map->ascii[c] = cm->locolormap[c - CHR_MIN];

	map->nruns = 0;
	map->runs = palloc(capacity * sizeof(GlColorRun));
	for (c = 128; c <= Min(max_codepoint, MAX_SIMPLE_CHR); c++)
		append_run(map, &capacity, c, c, cm->locolormap[c - CHR_MIN]);

	if (max_codepoint <= MAX_SIMPLE_CHR)
		return;
	if (cm->hiarraycols == 1)
		append_high_ranges(cm, max_codepoint, map, &capacity);
	else
		append_high_by_lookup(re, cm, max_codepoint, map, &capacity);
}
