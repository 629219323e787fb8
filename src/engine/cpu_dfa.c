/*-------------------------------------------------------------------------
 *
 * cpu_dfa.c
 *	  CPU engine: running a GL_PROG_DFA program (a determinized regex) over
 *	  one value.
 *
 * The value is read one character at a time: a byte below 0x80 is its own
 * code point (in UTF-8 and single-byte alike) and maps to a column through
 * the 128-entry ascii table; anything else is decoded (UTF-8 lead byte plus
 * continuation bytes, or one byte for SQL_ASCII) and looked up by binary
 * search in the program's sorted code point ranges, default_color when in
 * none.  Each character is one table load: trans[state * ncolumns + col].
 *
 * The search semantics are all in the states: the program starts in
 * start_state (the begin-of-string pseudocolor is already consumed), stops
 * at the first state flagged ACCEPT (a match has been found, whatever
 * follows) or DEAD (no match can follow), and otherwise answers, after the
 * last character, whether the state it ended in is ACCEPT_AT_END (the
 * regex's end-of-string arcs reach its final state).
 *
 * ASCII text stays in a tight loop with no decoding; a multi-byte
 * character costs one decode plus a binary search over a usually short
 * range list.  The engine only ever sees valid text in the database
 * encoding, but it never reads past len even if a value is malformed.
 *
 *-------------------------------------------------------------------------
 */
#include "engine/cpu_dfa.h"

/* The column of a non-ASCII code point. */
static inline uint32_t
column_of_codepoint(const GlDfaProgram *dfa, const GlColorRange *ranges,
					uint32_t cp)
{
	return gl_dfa_range_color(ranges, dfa->nranges, dfa->default_color, cp);
}

/*
 * Decode the UTF-8 character starting at s[*pos] (lead byte >= 0x80),
 * advancing *pos past it.  Truncated sequences yield what was there.
 */
static inline uint32_t
decode_utf8(const unsigned char *s, uint32_t len, uint32_t *pos)
{
	uint32_t	i = *pos;
	unsigned char lead = s[i++];
	uint32_t	ncont;
	uint32_t	cp;

	if (lead >= 0xF0)
	{
		cp = lead & 0x07;
		ncont = 3;
	}
	else if (lead >= 0xE0)
	{
		cp = lead & 0x0F;
		ncont = 2;
	}
	else
	{
		cp = lead & 0x1F;
		ncont = 1;
	}
	while (ncont-- > 0 && i < len)
		cp = (cp << 6) | (s[i++] & 0x3F);
	*pos = i;
	return cp;
}

bool
gl_cpu_match_dfa(const GlProgram *prog, const char *str, uint32_t len)
{
	const GlDfaProgram *dfa = &prog->u.dfa;
	const uint16_t *trans = gl_program_section(prog, dfa->trans_off);
	const uint8_t *flags = gl_program_section(prog, dfa->flags_off);
	const uint16_t *ascii = gl_program_section(prog, dfa->ascii_color_off);
	const GlColorRange *ranges = gl_program_section(prog, dfa->ranges_off);
	const unsigned char *s = (const unsigned char *) str;
	const uint32_t ncolumns = dfa->ncolors;
	const bool	utf8 = prog->utf8 != 0;
	uint32_t	state = dfa->start_state;
	uint32_t	pos = 0;

	if (flags[state] & (GL_DFA_ACCEPT | GL_DFA_DEAD))
		return (flags[state] & GL_DFA_ACCEPT) != 0;

	while (pos < len)
	{
		uint32_t	column;

		/* the common case: a run of ASCII */
		while (pos < len && s[pos] < 0x80)
		{
			state = trans[state * ncolumns + ascii[s[pos++]]];
			if (flags[state] & (GL_DFA_ACCEPT | GL_DFA_DEAD))
				return (flags[state] & GL_DFA_ACCEPT) != 0;
		}
		if (pos >= len)
			break;

		if (utf8)
			column = column_of_codepoint(dfa, ranges, decode_utf8(s, len, &pos));
		else
			column = column_of_codepoint(dfa, ranges, s[pos++]);
		state = trans[state * ncolumns + column];
		if (flags[state] & (GL_DFA_ACCEPT | GL_DFA_DEAD))
			return (flags[state] & GL_DFA_ACCEPT) != 0;
	}
	return (flags[state] & (GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END)) != 0;
}
