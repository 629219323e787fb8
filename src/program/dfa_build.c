/*-------------------------------------------------------------------------
 *
 * dfa_build.c
 *	  Assembling a GL_PROG_DFA program (see dfa_build.h): the transition
 *	  table, the state flags, the ASCII colors, the code point ranges and
 *	  the prefilter program, if any, each a section of the blob, in that
 *	  order.
 *
 *-------------------------------------------------------------------------
 */
#include "program/dfa_build.h"
#include "program/program_builder.h"

GlProgram *
gl_build_dfa(const GlDfaSpec *spec)
{
	GlProgramBuilder b;
	uint32_t	trans_off,
				flags_off,
				ascii_off,
				ranges_off,
				prefilter_off = 0;
	GlProgram  *header;

	gl_builder_init(&b, GL_PROG_DFA);
	trans_off = gl_builder_add(&b, spec->trans,
							   (size_t) spec->nstates * spec->ncolors * sizeof(uint16_t));
	flags_off = gl_builder_add(&b, spec->flags, spec->nstates);
	ascii_off = gl_builder_add(&b, spec->ascii_color, 128 * sizeof(uint16_t));
	ranges_off = gl_builder_add(&b, spec->ranges,
								(size_t) spec->nranges * sizeof(GlColorRange));
	if (spec->prefilter != NULL)
		prefilter_off = gl_builder_add(&b, spec->prefilter, spec->prefilter->total_size);
	header = gl_builder_header(&b);
	if (header != NULL)
	{
		header->exact = spec->exact ? 1 : 0;
		header->utf8 = spec->utf8 ? 1 : 0;
		header->u.dfa.nstates = spec->nstates;
		header->u.dfa.ncolors = spec->ncolors;
		header->u.dfa.start_state = spec->start_state;
		header->u.dfa.default_color = spec->default_color;
		header->u.dfa.trans_off = trans_off;
		header->u.dfa.flags_off = flags_off;
		header->u.dfa.ascii_color_off = ascii_off;
		header->u.dfa.nranges = spec->nranges;
		header->u.dfa.ranges_off = ranges_off;
		header->u.dfa.prefilter_off = prefilter_off;
	}
	return gl_builder_finish(&b);
}
