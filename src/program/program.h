/*-------------------------------------------------------------------------
 *
 * program.h
 *	  The compiled form of one pattern predicate: what every engine runs.
 *
 * The pattern compiler (backend side, src/pattern/) turns "column OP
 * pattern" into a GlProgram, through the builders of this module
 * (like_build.h, multi_build.h, dfa_build.h), which the tests use too.
 * The CPU engine (src/engine/) and the CUDA kernels (cuda/) both run
 * GlPrograms, and both include only this module's headers and column.h, so
 * the two engines cannot drift apart.
 *
 * A program is one contiguous, position-independent blob: a fixed header
 * followed by sections addressed by byte offsets from the start of the blob.
 * That makes it trivially shippable through shm_mq to the server and copyable
 * into device memory in one cudaMemcpy.  Offsets are always 8-byte aligned.
 *
 * Three kinds of program:
 *
 *	GL_PROG_LIKE	LIKE / ILIKE / SIMILAR-TO-that-is-really-LIKE.  The pattern
 *			is split at '%' into segments; each segment is a sequence
 *			of at most 64 character positions, every position a set of
 *			code points (a literal, '_' = any one character, or an
 *			ILIKE case class).  Segments are matched in order, each
 *			starting where the previous one ended (leftmost earliest
 *			end is optimal for '%'-separated segments).  The first
 *			segment is anchored at the start unless the pattern starts
 *			with '%'; the last is anchored at the end unless it ends
 *			with '%'.  Zero segments and anchored = the empty pattern
 *			(matches only ''); zero segments unanchored = '%' (matches
 *			every non-NULL value).
 *
 *			Each segment carries Shift-And masks (always valid) and,
 *			when it is a plain byte string, the bytes and a KMP failure
 *			table so engines can take the literal fast path.
 *
 *	GL_PROG_MULTI	"value contains at least one of N byte strings": an
 *			Aho–Corasick automaton over byte classes.  Used for
 *			LIKE ANY ('{%a%,%b%}') and OR-ed '%literal%' predicates.
 *
 *	GL_PROG_DFA	POSIX regex (~ ~* and SIMILAR TO), determinized from
 *			PostgreSQL's own regex NFA (regexport) over its colors.
 *			Input is decoded to code points, mapped to colors, and
 *			stepped through the transition table.
 *
 * Every program says whether it is exact (its answer equals PostgreSQL's
 * operator for every non-NULL input) or a superset (it may say true where
 * PostgreSQL says false, never the reverse).  Superset programs must not be
 * negated by anyone; the executor always rechecks the original quals anyway.
 *
 * Engines see only bytes of valid text in the database encoding (UTF-8 or
 * SQL_ASCII; the compiler refuses other encodings).  NULL rows never match.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROGRAM_H
#define GPULIKE_PROGRAM_H

#include <stdint.h>
#include <stddef.h>

#define GL_PROGRAM_MAGIC		0x31504C47	/* "GLP1" */
#define GL_MAX_SEGMENT_CHARS	64		/* one uint64 Shift-And register */

typedef enum GlProgramKind
{
	GL_PROG_LIKE = 1,
	GL_PROG_MULTI = 2,
	GL_PROG_DFA = 3
} GlProgramKind;

/* ---------------------------------------------------------------- LIKE */

/*
 * Shift-And masks for one segment.  Bit i of mask(c) is set when pattern
 * position i accepts code point c.  ascii[c] already includes the bits of
 * '_' positions; a non-ASCII code point c gets any_mask OR the mask of its
 * entry in the sorted exception list (if present).
 */
typedef struct GlCharMasks
{
	uint64_t	ascii[128];
	uint64_t	any_mask;		/* positions that accept any character */
	uint32_t	nexceptions;	/* entries in exceptions_off */
	uint32_t	exceptions_off; /* GlCodepointMask[nexceptions], sorted by cp */
} GlCharMasks;

typedef struct GlCodepointMask
{
	uint32_t	codepoint;
	uint32_t	pad;
	uint64_t	mask;
} GlCodepointMask;

typedef struct GlLikeSegment
{
	uint32_t	nchars;			/* pattern positions, 1..GL_MAX_SEGMENT_CHARS */
	uint32_t	min_bytes;		/* fewest bytes a match can span */
	uint32_t	masks_off;		/* GlCharMasks */
	uint32_t	is_literal;		/* 1: plain bytes, compare byte for byte */
	uint32_t	nbytes;			/* literal only: byte length */
	uint32_t	bytes_off;		/* literal only: uint8_t[nbytes] */
	uint32_t	kmp_off;		/* literal only: int32_t failure[nbytes] */
	uint32_t	pad;
} GlLikeSegment;

typedef struct GlLikeProgram
{
	uint32_t	nsegments;
	uint32_t	anchored_start; /* first segment must match at byte 0 */
	uint32_t	anchored_end;	/* last segment must end at the last byte */
	uint32_t	min_bytes;		/* rows shorter than this cannot match */
	uint32_t	segments_off;	/* GlLikeSegment[nsegments] */
	uint32_t	pad;
} GlLikeProgram;

/* ---------------------------------------------------------- MULTI (AC) */

/*
 * Aho–Corasick automaton, fully expanded (every state has a transition for
 * every byte class), so stepping is one table load per byte.  Byte classes
 * fold bytes that no literal distinguishes into class 0.  A state whose
 * accept flag is set means some literal ended here: the row matches.
 */
typedef struct GlMultiProgram
{
	uint32_t	nliterals;
	uint32_t	nstates;		/* state 0 is the root */
	uint32_t	nclasses;
	uint32_t	min_bytes;		/* shortest literal */
	uint32_t	byte_class_off; /* uint8_t[256] */
	uint32_t	next_off;		/* uint16_t[nstates * nclasses] */
	uint32_t	accept_off;		/* uint8_t[nstates] */
	uint32_t	pad;
} GlMultiProgram;

/* ----------------------------------------------------------- DFA (regex) */

#define GL_DFA_ACCEPT		0x01	/* a match has been found: row is true */
#define GL_DFA_ACCEPT_AT_END 0x02	/* true if the value ends here ($) */
#define GL_DFA_DEAD			0x04	/* no match can follow: row is false */

/*
 * A deterministic automaton over colors.  Code points < 128 map through
 * ascii_color; others through sorted, disjoint [lo, hi] ranges, and
 * default_color when in none of them.  The search is unanchored unless the
 * regex itself anchors it: that is already built into the states.
 *
 * prefilter_off, when not 0, is a whole GL_PROG_LIKE program '%literal%'
 * nested in this one, the literal being a string every value the automaton
 * matches contains (dfa_required.h): an engine may run the automaton only
 * on the values the prefilter matches.
 */
typedef struct GlDfaProgram
{
	uint32_t	nstates;
	uint32_t	ncolors;
	uint32_t	start_state;
	uint32_t	default_color;
	uint32_t	trans_off;		/* uint16_t[nstates * ncolors] */
	uint32_t	flags_off;		/* uint8_t[nstates], GL_DFA_* */
	uint32_t	ascii_color_off;	/* uint16_t[128] */
	uint32_t	nranges;
	uint32_t	ranges_off;		/* GlColorRange[nranges] */
	uint32_t	prefilter_off;	/* a GlProgram of kind GL_PROG_LIKE, or 0 */
} GlDfaProgram;

typedef struct GlColorRange
{
	uint32_t	lo;
	uint32_t	hi;
	uint32_t	color;
	uint32_t	pad;
} GlColorRange;

/* The color of code point cp >= 128: binary search of the sorted ranges. */
static inline uint32_t
gl_dfa_range_color(const GlColorRange *ranges, uint32_t nranges, uint32_t default_color,
				   uint32_t cp)
{
	uint32_t	lo = 0;
	uint32_t	hi = nranges;

	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;

		if (cp < ranges[mid].lo)
			hi = mid;
		else if (cp > ranges[mid].hi)
			lo = mid + 1;
		else
			return ranges[mid].color;
	}
	return default_color;
}

/* ------------------------------------------------------------- program */

typedef struct GlProgram
{
	uint32_t	magic;			/* GL_PROGRAM_MAGIC */
	uint32_t	total_size;		/* bytes of the whole blob */
	uint32_t	kind;			/* GlProgramKind */
	uint32_t	exact;			/* 1: equals PostgreSQL; 0: superset */
	uint32_t	utf8;			/* 1: decode UTF-8; 0: one byte = one char */
	uint32_t	pad;
	union
	{
		GlLikeProgram like;
		GlMultiProgram multi;
		GlDfaProgram dfa;
	}			u;
} GlProgram;

/* Address of a section of a program blob. */
static inline const void *
gl_program_section(const GlProgram *prog, uint32_t off)
{
	return (const char *) prog + off;
}

/*
 * A MULTI program's tables from its sections, for every reader of them
 * (the CPU engine, the GPU engine's preparation); the sections are those
 * the program's validator checked.
 */
typedef struct GlMultiTables
{
	uint32_t	nstates;
	uint32_t	nclasses;
	const uint8_t *byte_class;	/* [256] */
	const uint16_t *next;		/* [nstates * nclasses] */
	const uint8_t *accept;		/* [nstates] */
} GlMultiTables;

static inline GlMultiTables
gl_multi_tables(const GlProgram *prog)
{
	const GlMultiProgram *multi = &prog->u.multi;
	GlMultiTables t;

	t.nstates = multi->nstates;
	t.nclasses = multi->nclasses;
	t.byte_class = (const uint8_t *) gl_program_section(prog, multi->byte_class_off);
	t.next = (const uint16_t *) gl_program_section(prog, multi->next_off);
	t.accept = (const uint8_t *) gl_program_section(prog, multi->accept_off);
	return t;
}

/* Round a section size up so the next section stays 8-byte aligned. */
static inline size_t
gl_program_align(size_t n)
{
	return (n + 7) & ~(size_t) 7;
}

#endif							/* GPULIKE_PROGRAM_H */
