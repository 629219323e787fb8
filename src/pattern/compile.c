/*-------------------------------------------------------------------------
 *
 * compile.c
 *	  The pattern compiler's front door (compile.h): which operators are
 *	  ours, dispatch to the LIKE and regex compilers, and the one-line
 *	  description EXPLAIN shows.
 *
 * Operators are recognised by their implementation function, not by OID or
 * name: "~~" on text, varchar (which uses text's operator), bpchar and name
 * all end in one of the like.c / regexp.c functions below, and a user's
 * operator that merely shares the name does not.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "pattern/compile.h"
#include "pattern/compile_like.h"
#include "pattern/compile_regex.h"

bool
gl_pattern_operator(Oid opno, GlPatternOp *op, bool *negated)
{
	switch (get_opcode(opno))
	{
		case F_TEXTLIKE:
		case F_BPCHARLIKE:
		case F_NAMELIKE:
			*op = GL_OP_LIKE;
			*negated = false;
			return true;
		case F_TEXTNLIKE:
		case F_BPCHARNLIKE:
		case F_NAMENLIKE:
			*op = GL_OP_LIKE;
			*negated = true;
			return true;
		case F_TEXTICLIKE:
		case F_BPCHARICLIKE:
		case F_NAMEICLIKE:
			*op = GL_OP_ILIKE;
			*negated = false;
			return true;
		case F_TEXTICNLIKE:
		case F_BPCHARICNLIKE:
		case F_NAMEICNLIKE:
			*op = GL_OP_ILIKE;
			*negated = true;
			return true;
		case F_TEXTREGEXEQ:
		case F_BPCHARREGEXEQ:
		case F_NAMEREGEXEQ:
			*op = GL_OP_REGEX;
			*negated = false;
			return true;
		case F_TEXTREGEXNE:
		case F_BPCHARREGEXNE:
		case F_NAMEREGEXNE:
			*op = GL_OP_REGEX;
			*negated = true;
			return true;
		case F_TEXTICREGEXEQ:
		case F_BPCHARICREGEXEQ:
		case F_NAMEICREGEXEQ:
			*op = GL_OP_IREGEX;
			*negated = false;
			return true;
		case F_TEXTICREGEXNE:
		case F_BPCHARICREGEXNE:
		case F_NAMEICREGEXNE:
			*op = GL_OP_IREGEX;
			*negated = true;
			return true;
		default:
			return false;
	}
}

GlProgram *
gl_compile_pattern(GlPatternOp op, text *pattern, Oid collation,
				   const char **refusal)
{
	*refusal = NULL;
	switch (op)
	{
		case GL_OP_LIKE:
			return gl_compile_like(pattern, GL_LIKE_AS_IS, collation, refusal);
		case GL_OP_ILIKE:
			return gl_compile_like(pattern, GL_LIKE_LOWERED, collation, refusal);
		case GL_OP_UPPER_LIKE:
			return gl_compile_like(pattern, GL_LIKE_UPPERED, collation, refusal);
		case GL_OP_REGEX:
		case GL_OP_IREGEX:
			return gl_compile_regex(pattern, op == GL_OP_IREGEX, collation, refusal);
	}
	*refusal = "unknown pattern operator";
	return NULL;
}

GlProgram *
gl_compile_any(GlPatternOp op, text **patterns, int npatterns,
			   Oid collation, const char **refusal)
{
	*refusal = NULL;
	if (op != GL_OP_LIKE && op != GL_OP_ILIKE)
	{
		*refusal = "only LIKE and ILIKE patterns are combined";
		return NULL;
	}
	if (npatterns < 2)
	{
		*refusal = "a single pattern is compiled on its own";
		return NULL;
	}
	return gl_compile_like_any(patterns, npatterns, op == GL_OP_ILIKE,
							   collation, refusal);
}

static void
describe_like(const GlProgram *prog, StringInfo buf)
{
	const GlLikeProgram *like = &prog->u.like;
	const GlLikeSegment *segs = gl_program_section(prog, like->segments_off);
	uint32_t	nliteral = 0;
	uint32_t	i;

	if (like->nsegments == 0)
	{
		appendStringInfoString(buf, like->anchored_start ? "empty-string test"
							   : "match-all ('%')");
		return;
	}
	for (i = 0; i < like->nsegments; i++)
		nliteral += segs[i].is_literal;
	if (nliteral == like->nsegments)
		appendStringInfoString(buf, "KMP-hybrid");
	else if (nliteral == 0)
		appendStringInfoString(buf, "Shift-And");
	else
		appendStringInfoString(buf, "KMP-hybrid + Shift-And");
	appendStringInfo(buf, " (%u segment%s", like->nsegments,
					 like->nsegments == 1 ? "" : "s");
	if (like->anchored_start && like->anchored_end)
		appendStringInfoString(buf, ", anchored both ends");
	else if (like->anchored_start)
		appendStringInfoString(buf, ", anchored start");
	else if (like->anchored_end)
		appendStringInfoString(buf, ", anchored end");
	appendStringInfoChar(buf, ')');
}

/* A DFA's prefilter, '%literal%': ", prefilter 'literal'" */
static void
describe_prefilter(const GlProgram *prefilter, StringInfo buf)
{
	const GlLikeSegment *seg = gl_program_section(prefilter, prefilter->u.like.segments_off);

	appendStringInfoString(buf, ", prefilter '");
	appendBinaryStringInfo(buf, gl_program_section(prefilter, seg->bytes_off), seg->nbytes);
	appendStringInfoChar(buf, '\'');
}

char *
gl_program_describe(const GlProgram *prog)
{
	StringInfoData buf;

	initStringInfo(&buf);
	switch ((GlProgramKind) prog->kind)
	{
		case GL_PROG_LIKE:
			describe_like(prog, &buf);
			break;
		case GL_PROG_MULTI:
			appendStringInfo(&buf, "Aho-Corasick (%u literals, %u states)",
							 prog->u.multi.nliterals, prog->u.multi.nstates);
			break;
		case GL_PROG_DFA:
			appendStringInfo(&buf, "DFA (%u states, %u colors",
							 prog->u.dfa.nstates, prog->u.dfa.ncolors);
			if (prog->u.dfa.prefilter_off != 0)
				describe_prefilter(gl_program_section(prog, prog->u.dfa.prefilter_off), &buf);
			appendStringInfoChar(&buf, ')');
			break;
		default:
			appendStringInfo(&buf, "unknown program kind %u", prog->kind);
			break;
	}
	if (!prog->exact)
		appendStringInfoString(&buf, ", superset: rechecked");
	return buf.data;
}
