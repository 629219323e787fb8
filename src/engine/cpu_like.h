/*-------------------------------------------------------------------------
 *
 * cpu_like.h
 *	  CPU engine: running a GL_PROG_LIKE program.
 *
 * A program is prepared once (section pointers resolved, a rare byte chosen
 * per literal segment) and then run over any number of values, possibly
 * from several threads at once: the plan is read-only while matching.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CPU_LIKE_H
#define GPULIKE_CPU_LIKE_H

#include <stdbool.h>
#include <stdint.h>

#include "column/chunk_pairs.h"
#include "program/program.h"

typedef struct GlLikeSegPlan
{
	const GlLikeSegment *seg;
	const GlCharMasks *masks;
	const GlCodepointMask *exceptions;
	const uint8_t *bytes;		/* literal segments only */
	const int32_t *kmp;			/* literal segments only */
	uint32_t	rare_index;		/* literal: offset of its rarest byte */
	uint32_t	rare_index2;	/* literal: the next rarest (== rare_index if 1 byte) */
	bool		rare_is_rare;	/* literal: memchr for it beats a pair skim */
	uint32_t	nanchor;		/* 0, or 1-2: position anchor_pos accepts */
	uint8_t		anchor[2];		/* only these ASCII bytes (s, S for ILIKE) */
	uint32_t	anchor_pos;		/* the rarest such position */
} GlLikeSegPlan;

/*
 * A column skim of a masked segment (gl_cpu_like_find_anchor()): a byte
 * first[0] or first[1] with a byte second[0] or second[1] dist bytes
 * after it (dist 0: the first alone), or, with high, any byte of 0x80 or
 * more.  The first byte stands for the segment's character first_pos:
 * a hit (of a skim that is not high) can belong only to the occurrence
 * that starts first_pos characters before it.
 */
typedef struct GlLikeColumnSkim
{
	uint8_t		first[2];
	uint32_t	dist;
	uint8_t		second[2];
	bool		high;
	uint32_t	first_pos;
} GlLikeColumnSkim;

/* Plans of patterns with this many segments or fewer need no malloc. */
#define GL_LIKE_INLINE_SEGMENTS 8

typedef struct GlLikePlan
{
	const GlProgram *prog;
	const GlLikeProgram *like;
	bool		utf8;
	int			required;		/* longest literal segment, or -1 */
	bool		required_is_all;	/* the pattern is '%' required '%' */
	/* no literal: column skims (gl_cpu_like_prepare_skims()), 0 until prepared */
	int			nskims;
	GlLikeColumnSkim skims[2];
	GlLikeSegPlan *segs;
	GlLikeSegPlan inline_segs[GL_LIKE_INLINE_SEGMENTS];
} GlLikePlan;

/* false only when memory for a plan with many segments ran out */
extern bool gl_cpu_like_prepare(const GlProgram *prog, GlLikePlan *plan);
/*
 * The pairs of byte classes every match holds (chunk_pairs.h): within each
 * segment, each two adjacent characters that take only ASCII bytes, of
 * one class each.
 */
extern void gl_cpu_like_required_pairs(const GlLikePlan *plan, GlRequiredPairs *req);
/* The plan's column skims, for matching a column (gl_cpu_like_find_anchor()). */
extern void gl_cpu_like_prepare_skims(GlLikePlan *plan);
extern void gl_cpu_like_release(GlLikePlan *plan);
extern bool gl_cpu_like_match(const GlLikePlan *plan, const char *s, uint32_t len);

/*
 * The end of the leftmost occurrence, at or after byte from of s, of a
 * literal that every match contains (plan->required >= 0), or -1.  When
 * plan->required_is_all, a value containing it matches.
 */
extern int64_t gl_cpu_like_find_required(const GlLikePlan *plan, const char *s,
										 uint64_t from, uint64_t len);

/*
 * Which of the plan's column skims to use over len bytes of rows at s: the
 * one with fewer hits in their first few kB (0 where it has fewer than two,
 * as a plan with a literal segment has none).
 */
extern int	gl_cpu_like_pick_skim(const GlLikePlan *plan, const char *s, uint64_t len);

/*
 * Where, at or after byte from of s, the next hit of column skim `skim`
 * is, or -1: every match has such a place.
 */
extern int64_t gl_cpu_like_find_anchor(const GlLikePlan *plan, int skim, const char *s,
									   uint64_t from, uint64_t len);

/*
 * Whether a hit of column skim `skim` settles a match by itself: the
 * pattern is one masked segment between two '%' (ILIKE '%term%') and the
 * skim not high, so a hit can belong only to the occurrence that starts
 * first_pos characters before it.
 */
extern bool gl_cpu_like_hits_settle(const GlLikePlan *plan, int skim);

/*
 * For a skim whose hits settle matches: the next hit at or after byte
 * from of s where the segment stands, within s's len bytes, or -1; the
 * occurrence is bytes [*start, *end) of s.  Rows' bounds are the
 * caller's to check: a value matches if the occurrence lies within it.
 */
extern int64_t gl_cpu_like_find_placed(const GlLikePlan *plan, int skim, const char *s,
									   uint64_t from, uint64_t len, uint64_t *start,
									   uint64_t *end);

#endif							/* GPULIKE_CPU_LIKE_H */
