/*-------------------------------------------------------------------------
 *
 * cpu_multi.c
 *	  CPU engine: running a GL_PROG_MULTI (Aho–Corasick) program over one
 *	  value.
 *
 * The automaton is complete (multi_build.c), so matching is one table load
 * per byte: state = next[state][class[byte]], done at the first accepting
 * state.  Most text bytes start no literal at all; while the automaton sits
 * at the root, a tight loop skips bytes that would leave it there, which is
 * where nearly all the time of a low-selectivity search goes.  (A SIMD skim
 * for the first bytes was measured slower on English text: its first
 * letters are too common for 16-byte strides to pay for their set-up.)  Worst case
 * (text that keeps the automaton away from the root) is still one load per
 * byte: no input is slower than that.
 *
 *-------------------------------------------------------------------------
 */
#include "engine/cpu_multi.h"

void
gl_cpu_multi_prepare(const GlProgram *prog, GlMultiPlan *plan)
{
	int			b;

	plan->tables = gl_multi_tables(prog);
	plan->min_bytes = prog->u.multi.min_bytes;
	for (b = 0; b < 256; b++)
		plan->root_stays[b] = plan->tables.next[plan->tables.byte_class[b]] == 0;
}

bool
gl_cpu_multi_match(const GlMultiPlan *plan, const char *value, uint32_t len)
{
	const uint8_t *s = (const uint8_t *) value;
	const uint8_t *byte_class = plan->tables.byte_class;
	const uint16_t *next = plan->tables.next;
	const uint8_t *accept = plan->tables.accept;
	uint32_t	nclasses = plan->tables.nclasses;
	uint32_t	state = 0;
	uint32_t	pos = 0;

	if (len < plan->min_bytes)
		return false;
	if (accept[0])
		return true;			/* an empty literal: everything matches */
	while (pos < len)
	{
		if (state == 0)
		{
			while (pos < len && plan->root_stays[s[pos]])
				pos++;
			if (pos == len)
				return false;
		}
		state = next[state * nclasses + byte_class[s[pos++]]];
		if (accept[state])
			return true;
	}
	return false;
}
