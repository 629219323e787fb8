/*-------------------------------------------------------------------------
 *
 * like_build.c
 *	  From LIKE pattern bytes to a GL_PROG_LIKE program (see like_build.h).
 *
 * How a LIKE pattern becomes a program
 * ------------------------------------
 * PostgreSQL's matcher (like_match.c) walks pattern and text together and
 * recurses at every '%'.  Because '%' matches any run of characters, a
 * pattern is equivalent to the list of its '%'-free runs ("segments"), each
 * of which must occur in the value in order, without overlapping:
 *
 *		'ab_c%x%yz'  ->  [a b _ c] anchored at the start, [x], [y z] anchored
 *						 at the end
 *
 * Matching each segment at its leftmost earliest end is optimal (any later
 * occurrence leaves less room for the rest), so engines never backtrack.
 *
 * Every segment position is a set of code points: one code point for a
 * literal, all of them for '_', and for ILIKE the case class of the pattern
 * character (every x with lower(x) == that character; the caller supplies
 * the classes because only the backend knows the collation's lower()).  The
 * sets become Shift-And masks: bit j of mask(c) says "position j accepts c",
 * and the search state D (bit j = "positions 0..j match the text just read")
 * advances per character as D = ((D << 1) | 1) & mask(c).  At most 64
 * positions fit one register, so a longer '%'-free run is refused.
 *
 * A segment whose positions are all single code points is also stored as
 * plain bytes with a KMP failure table: engines then search it byte by byte
 * (memchr skim, KMP) and never decode characters.  Comparing bytes is exact
 * for UTF-8 because a character's encoding is unique and self-synchronizing:
 * a byte match of whole characters starts and ends on character boundaries.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "program/like_build.h"
#include "program/program_builder.h"

typedef enum LikeTokenKind
{
	TOK_PERCENT,				/* '%' */
	TOK_ANY,					/* '_' */
	TOK_CHAR					/* a literal character (escaped or not) */
} LikeTokenKind;

typedef struct LikeToken
{
	LikeTokenKind kind;
	uint32_t	cp;				/* TOK_CHAR: the code point (or byte) */
} LikeToken;

/* Everything one segment contributes to the blob, before layout. */
typedef struct SegmentParts
{
	GlLikeSegment seg;
	GlCharMasks masks;
	GlCodepointMask *exceptions;
	uint8_t		bytes[GL_MAX_SEGMENT_CHARS * 4];
	int32_t		kmp[GL_MAX_SEGMENT_CHARS * 4];
} SegmentParts;

int
gl_utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *) out;

	if (cp < 0x80)
	{
		o[0] = (unsigned char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		o[0] = 0xC0 | (cp >> 6);
		o[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000)
	{
		o[0] = 0xE0 | (cp >> 12);
		o[1] = 0x80 | ((cp >> 6) & 0x3F);
		o[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	o[0] = 0xF0 | (cp >> 18);
	o[1] = 0x80 | ((cp >> 12) & 0x3F);
	o[2] = 0x80 | ((cp >> 6) & 0x3F);
	o[3] = 0x80 | (cp & 0x3F);
	return 4;
}

/*
 * Decode one UTF-8 character; returns its byte length, or -1 if the bytes
 * are not valid UTF-8 (truncated, overlong, surrogate, beyond U+10FFFF).
 */
int
gl_utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *) s;
	uint32_t	c;
	int			n,
				i;

	if (len == 0)
		return -1;
	if (u[0] < 0x80)
	{
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xC2 && u[0] <= 0xDF)
		n = 2, c = u[0] & 0x1F;
	else if (u[0] >= 0xE0 && u[0] <= 0xEF)
		n = 3, c = u[0] & 0x0F;
	else if (u[0] >= 0xF0 && u[0] <= 0xF4)
		n = 4, c = u[0] & 0x07;
	else
		return -1;
	if ((size_t) n > len)
		return -1;
	for (i = 1; i < n; i++)
	{
		if ((u[i] & 0xC0) != 0x80)
			return -1;
		c = (c << 6) | (u[i] & 0x3F);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
		(c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
		return -1;
	*cp = c;
	return n;
}

int
gl_ascii_case_class(void *arg, uint32_t cp, uint32_t *members, int max_members)
{
	(void) arg;
	if (max_members < 2)
		return -1;
	members[0] = cp;
	if (cp >= 'a' && cp <= 'z')
	{
		members[1] = cp - 'a' + 'A';
		return 2;
	}
	if (cp >= 'A' && cp <= 'Z')
	{
		members[1] = cp - 'A' + 'a';
		return 2;
	}
	return 1;
}

/*
 * Split the pattern into tokens, resolving escapes.  toks has room for len
 * entries (every token consumes at least one byte).  Returns the count, or
 * -1 with *error set.
 */
static int
tokenize(const char *p, size_t len, bool utf8, LikeToken *toks,
		 const char **error)
{
	size_t		i = 0;
	int			n = 0;

	while (i < len)
	{
		int			clen;

		if (p[i] == '%' || p[i] == '_')
		{
			toks[n].kind = (p[i] == '%') ? TOK_PERCENT : TOK_ANY;
			toks[n++].cp = 0;
			i++;
			continue;
		}
		if (p[i] == '\\')
		{
			i++;
			if (i >= len)
			{
				*error = "LIKE pattern ends with the escape character";
				return -1;
			}
		}
		toks[n].kind = TOK_CHAR;
		if (utf8)
		{
			clen = gl_utf8_decode(p + i, len - i, &toks[n].cp);
			if (clen < 0)
			{
				*error = "pattern is not valid UTF-8";
				return -1;
			}
		}
		else
		{
			toks[n].cp = (unsigned char) p[i];
			clen = 1;
		}
		n++;
		i += clen;
	}
	return n;
}

static int
capped_segments(int n)
{
	return n < GL_LIKE_MAX_SEGMENTS ? n : GL_LIKE_MAX_SEGMENTS;
}

static int
compare_exceptions(const void *a, const void *b)
{
	uint32_t	x = ((const GlCodepointMask *) a)->codepoint;
	uint32_t	y = ((const GlCodepointMask *) b)->codepoint;

	return (x > y) - (x < y);
}

/* KMP failure table: kmp[i] = length of the longest proper border of b[0..i]. */
static void
build_kmp(const uint8_t *b, uint32_t n, int32_t *kmp)
{
	uint32_t	i;
	int32_t		k = 0;

	if (n == 0)
		return;
	kmp[0] = 0;
	for (i = 1; i < n; i++)
	{
		while (k > 0 && b[i] != b[k])
			k = kmp[k - 1];
		if (b[i] == b[k])
			k++;
		kmp[i] = k;
	}
}

/*
 * Fill parts from tokens toks[0..n): masks, exceptions, and (when every
 * position is one code point) the literal bytes and KMP table.
 */
static bool
build_segment(const LikeToken *toks, int n, bool utf8,
			  GlCaseClassFn case_class, void *arg, SegmentParts *parts,
			  const char **error)
{
	uint32_t	members[GL_MAX_CASE_CLASS];
	uint32_t	nexc = 0;
	uint32_t	nbytes = 0;
	bool		literal = true;
	uint32_t	min_bytes = 0;
	int			j;

	memset(&parts->seg, 0, sizeof(parts->seg));
	memset(&parts->masks, 0, sizeof(parts->masks));
	parts->exceptions = malloc(sizeof(GlCodepointMask) * n * GL_MAX_CASE_CLASS);
	if (parts->exceptions == NULL)
	{
		*error = "out of memory";
		return false;
	}

	for (j = 0; j < n; j++)
	{
		uint64_t	bit = (uint64_t) 1 << j;
		int			nmembers;
		int			shortest = 4;
		int			m;

		if (toks[j].kind == TOK_ANY)
		{
			int			c;

			parts->masks.any_mask |= bit;
			for (c = 0; c < 128; c++)
				parts->masks.ascii[c] |= bit;
			literal = false;
			min_bytes += 1;
			continue;
		}

		if (case_class != NULL)
		{
			nmembers = case_class(arg, toks[j].cp, members, GL_MAX_CASE_CLASS);
			if (nmembers < 0)
			{
				*error = "an ILIKE case class is too large";
				return false;
			}
		}
		else
		{
			members[0] = toks[j].cp;
			nmembers = 1;
		}
		if (nmembers != 1)
			literal = false;

		for (m = 0; m < nmembers; m++)
		{
			uint32_t	x = members[m];
			char		encoded[4];
			int			xlen = utf8 ? gl_utf8_encode(x, encoded) : 1;

			if (!utf8 && x > 0xFF)
				continue;		/* no single byte is this character */
			if (xlen < shortest)
				shortest = xlen;
			if (x < 128)
				parts->masks.ascii[x] |= bit;
			else
			{
				parts->exceptions[nexc].codepoint = x;
				parts->exceptions[nexc].pad = 0;
				parts->exceptions[nexc].mask = bit;
				nexc++;
			}
		}
		/* An empty class never matches; count one byte so min stays sane. */
		min_bytes += (nmembers > 0) ? shortest : 1;

		if (literal)
		{
			if (utf8)
				nbytes += gl_utf8_encode(members[0], (char *) parts->bytes + nbytes);
			else
				parts->bytes[nbytes++] = (uint8_t) members[0];
		}
	}

	/* Sort the exceptions and merge entries for the same code point. */
	if (nexc > 0)
	{
		uint32_t	out = 0;
		uint32_t	i;

		qsort(parts->exceptions, nexc, sizeof(GlCodepointMask), compare_exceptions);
		for (i = 1; i < nexc; i++)
		{
			if (parts->exceptions[i].codepoint == parts->exceptions[out].codepoint)
				parts->exceptions[out].mask |= parts->exceptions[i].mask;
			else
				parts->exceptions[++out] = parts->exceptions[i];
		}
		nexc = out + 1;
	}
	parts->masks.nexceptions = nexc;

	parts->seg.nchars = (uint32_t) n;
	parts->seg.min_bytes = min_bytes;
	parts->seg.is_literal = literal ? 1 : 0;
	if (literal)
	{
		parts->seg.nbytes = nbytes;
		build_kmp(parts->bytes, nbytes, parts->kmp);
	}
	return true;
}

/* Lay the segments out in a blob; returns it or NULL on out-of-memory. */
static GlProgram *
assemble(SegmentParts *parts, int nsegments, bool anchored_start,
		 bool anchored_end, bool utf8)
{
	GlProgramBuilder b;
	GlLikeSegment *segs;
	GlProgram  *hdr;
	uint32_t	min_bytes = 0;
	uint32_t	segs_off;
	int			s;

	segs = calloc(nsegments > 0 ? nsegments : 1, sizeof(GlLikeSegment));
	if (segs == NULL)
		return NULL;
	gl_builder_init(&b, GL_PROG_LIKE);
	for (s = 0; s < nsegments; s++)
	{
		SegmentParts *sp = &parts[s];

		segs[s] = sp->seg;
		if (sp->masks.nexceptions > 0)
			sp->masks.exceptions_off =
				gl_builder_add(&b, sp->exceptions,
							   sizeof(GlCodepointMask) * sp->masks.nexceptions);
		segs[s].masks_off = gl_builder_add(&b, &sp->masks, sizeof(GlCharMasks));
		if (sp->seg.is_literal)
		{
			segs[s].bytes_off = gl_builder_add(&b, sp->bytes, sp->seg.nbytes);
			segs[s].kmp_off = gl_builder_add(&b, sp->kmp,
											 sizeof(int32_t) * sp->seg.nbytes);
		}
		min_bytes += sp->seg.min_bytes;
	}
	segs_off = gl_builder_add(&b, segs, sizeof(GlLikeSegment) * nsegments);
	free(segs);

	hdr = gl_builder_header(&b);
	if (hdr != NULL)
	{
		hdr->utf8 = utf8 ? 1 : 0;
		hdr->u.like.nsegments = (uint32_t) nsegments;
		hdr->u.like.anchored_start = anchored_start ? 1 : 0;
		hdr->u.like.anchored_end = anchored_end ? 1 : 0;
		hdr->u.like.min_bytes = min_bytes;
		hdr->u.like.segments_off = segs_off;
	}
	return gl_builder_finish(&b);
}

GlProgram *
gl_build_like(const char *pattern, size_t len, bool utf8,
			  GlCaseClassFn case_class, void *arg, const char **error)
{
	LikeToken  *toks;
	SegmentParts *parts = NULL;
	GlProgram  *prog = NULL;
	int			ntoks;
	int			nsegments = 0;
	int			i,
				start;

	*error = NULL;
	toks = malloc(sizeof(LikeToken) * (len + 1));
	if (toks == NULL)
	{
		*error = "out of memory";
		return NULL;
	}
	ntoks = tokenize(pattern, len, utf8, toks, error);
	if (ntoks < 0)
		goto done;

	/* At most one segment per two tokens, plus one; at most the cap. */
	parts = calloc(capped_segments(ntoks / 2 + 1), sizeof(SegmentParts));
	if (parts == NULL)
	{
		*error = "out of memory";
		goto done;
	}

	/* Every maximal run of non-'%' tokens is a segment. */
	for (i = 0; i < ntoks; i = start)
	{
		while (i < ntoks && toks[i].kind == TOK_PERCENT)
			i++;
		start = i;
		while (start < ntoks && toks[start].kind != TOK_PERCENT)
			start++;
		if (start == i)
			break;
		if (nsegments == GL_LIKE_MAX_SEGMENTS)
		{
			*error = "the pattern has more than 1024 '%'-separated runs";
			goto done;
		}
		if (start - i > GL_MAX_SEGMENT_CHARS)
		{
			*error = "a run of the pattern between '%' signs is longer than 64 characters";
			goto done;
		}
		if (!build_segment(toks + i, start - i, utf8, case_class, arg,
						   &parts[nsegments++], error))
			goto done;
	}

	prog = assemble(parts, nsegments,
					ntoks == 0 || toks[0].kind != TOK_PERCENT,
					ntoks == 0 || toks[ntoks - 1].kind != TOK_PERCENT,
					utf8);
	if (prog == NULL)
		*error = "out of memory";

done:
	if (parts != NULL)
	{
		for (i = 0; i < nsegments; i++)
			free(parts[i].exceptions);
		free(parts);
	}
	free(toks);
	return prog;
}

bool
gl_like_contains_literal(const char *pattern, size_t len, char *literal,
						 size_t *literal_len)
{
	size_t		i = 0;
	size_t		n = 0;
	size_t		trailing;

	if (len == 0 || pattern[0] != '%')
		return false;
	while (i < len && pattern[i] == '%')
		i++;
	while (i < len && pattern[i] != '%')
	{
		if (pattern[i] == '_')
			return false;
		if (pattern[i] == '\\')
		{
			if (i + 1 >= len)
				return false;
			i++;
		}
		literal[n++] = pattern[i++];
	}
	/* What is left must be all '%', and there must be some unless n == 0. */
	trailing = i;
	while (i < len && pattern[i] == '%')
		i++;
	if (i < len || (n > 0 && trailing == len))
		return false;
	*literal_len = n;
	return true;
}
