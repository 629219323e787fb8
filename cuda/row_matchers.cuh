/*-------------------------------------------------------------------------
 *
 * row_matchers.cuh
 *	  Per-row automata for the row-stream kernel (kernels_rows.cu): one for
 *	  each program kind, all with the same small interface:
 *
 *		begin()		a new row starts
 *		step(b)		the row's next byte (never the 0x00 separator)
 *		finish(len)	the row ended after len bytes: does it match?
 *		done		no later byte can change the answer (early exit);
 *					finish() still decides, so min_bytes is applied once
 *
 * All tables are read from the program blob in shared memory.
 *
 * LIKE runs its segments one after the other, each with Shift-And over
 * characters (decoded UTF-8 code points): D = ((D << 1) | inject) & mask(c),
 * where bit i of D says "the last i+1 characters match the segment's first
 * i+1 positions".  When the top bit appears the segment has matched at its
 * earliest end, which is the best place to start the next segment, so no
 * backtracking is ever needed.  An anchored first segment injects only at
 * the first character; an anchored last segment keeps running to the end
 * of the row and must hold its top bit there.  Literal segments are just
 * segments whose masks have one bit per byte value, so one loop covers
 * literals, '_' and ILIKE classes alike; the fast path for literals is the
 * skim pass (kernels_skim.cu), which decides which rows get here at all.
 *
 * MULTI steps the Aho–Corasick table folded by the preparation
 * (kernel_prep/folded_tables.h has both folded tables' layouts): entry =
 * next state premultiplied by the class count, with the accept flag of
 * that state in bit 31, so a byte costs one class load and one table load.
 *
 * DFA steps ASCII bytes through a folded table next[state][byte] with the
 * target's ACCEPT/DEAD flags in bits 14-15; other characters are decoded,
 * mapped to a color by binary search in the sorted ranges, and stepped
 * through the program's own transition table.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ROW_MATCHERS_CUH
#define GPULIKE_ROW_MATCHERS_CUH

#include "kernels_common.cuh"
#include "kernel_prep/folded_tables.h"

/* ------------------------------------------------------------------ LIKE */

/*
 * The mask of a non-ASCII character: any_mask, plus its entry in the
 * sorted exception list.  Out of line: rare in most text, and a binary
 * search inlined into every byte step would bloat the hot loop.
 */
__device__ static __noinline__ uint64_t
gl_like_wide_mask(const GlCharMasks *masks, const GlCodepointMask *exceptions, uint32_t cp)
{
	uint32_t	lo = 0,
				hi = masks->nexceptions;

	while (lo < hi)
	{
		uint32_t	mid = (lo + hi) / 2;

		if (exceptions[mid].codepoint < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < masks->nexceptions && exceptions[lo].codepoint == cp)
		return masks->any_mask | exceptions[lo].mask;
	return masks->any_mask;
}

struct GlLikeRowMatcher
{
	const GlProgram *prog;
	const GlLikeSegment *segs;
	uint32_t	nsegments;
	bool		anchored_start;
	bool		anchored_end;
	bool		utf8;
	/* per row */
	uint32_t	seg;
	uint64_t	state;
	uint64_t	accept;
	const GlCharMasks *masks;
	const GlCodepointMask *exceptions;
	bool		first_char;
	bool		done;
	bool		matched;
	GlUtf8Decoder decoder;

	__device__ void init(const GlProgram *p, uint32_t aux_off)
	{
		prog = p;
		segs = (const GlLikeSegment *) gl_dev_section(p, p->u.like.segments_off);
		nsegments = p->u.like.nsegments;
		anchored_start = p->u.like.anchored_start != 0;
		anchored_end = p->u.like.anchored_end != 0;
		utf8 = p->utf8 != 0;
	}

	__device__ __forceinline__ void enter_segment(uint32_t s)
	{
		seg = s;
		state = 0;
		accept = (uint64_t) 1 << (segs[s].nchars - 1);
		masks = (const GlCharMasks *) gl_dev_section(prog, segs[s].masks_off);
		exceptions = (const GlCodepointMask *) gl_dev_section(prog, masks->exceptions_off);
	}

	__device__ __forceinline__ void begin()
	{
		first_char = true;
		decoder.reset();
		matched = false;
		done = false;
		if (nsegments == 0)
		{
			/* '%' matches every value; the empty pattern only ''. */
			done = matched = !anchored_start;
			return;
		}
		enter_segment(0);
	}

	/* One character, given as its Shift-And mask in the current segment. */
	__device__ __forceinline__ void advance(uint64_t mask)
	{
		bool		anchored_here = (seg == 0 && anchored_start);
		uint64_t	inject = (anchored_here && !first_char) ? 0 : 1;

		first_char = false;
		if (nsegments == 0)
		{
			done = true;		/* the empty pattern and a non-empty value */
			return;
		}
		state = ((state << 1) | inject) & mask;
		if (state & accept)
		{
			if (seg + 1 < nsegments)
				enter_segment(seg + 1);
			else if (!anchored_end)
				done = matched = true;
		}
		else if (state == 0 && anchored_here)
			done = true;		/* the anchored prefix failed */
	}

	__device__ __forceinline__ void step(uint32_t b)
	{
		uint32_t	cp;

		if (b < 0x80)
		{
			decoder.reset();
			advance(nsegments ? masks->ascii[b] : 0);
		}
		else if (decoder.feed(b, utf8, &cp))
			advance(nsegments ? gl_like_wide_mask(masks, exceptions, cp) : 0);
	}

	__device__ __forceinline__ bool finish(uint32_t len) const
	{
		if (len < prog->u.like.min_bytes)
			return false;
		if (done)
			return matched;
		if (nsegments == 0)
			return first_char;
		return anchored_end && seg == nsegments - 1 && (state & accept) != 0;
	}
};

/* ----------------------------------------------------------------- MULTI */

struct GlMultiRowMatcher
{
	const GlProgram *prog;
	const uint8_t *byte_class;
	const uint32_t *folded;		/* kernel_prep/program_prep.cc: prepare_multi() */
	bool		root_accepts;
	uint32_t	state;			/* premultiplied by nclasses */
	bool		done;

	__device__ void init(const GlProgram *p, uint32_t aux_off)
	{
		prog = p;
		byte_class = (const uint8_t *) gl_dev_section(p, p->u.multi.byte_class_off);
		folded = (const uint32_t *) gl_dev_section(p, aux_off);
		root_accepts = ((const uint8_t *) gl_dev_section(p, p->u.multi.accept_off))[0] != 0;
	}

	__device__ __forceinline__ void begin()
	{
		state = 0;
		done = root_accepts;
	}

	__device__ __forceinline__ void step(uint32_t b)
	{
		uint32_t	entry = folded[state + byte_class[b]];

		state = entry & 0x7FFFFFFF;
		done = (entry >> 31) != 0;
	}

	__device__ __forceinline__ bool finish(uint32_t len) const
	{
		return done && len >= prog->u.multi.min_bytes;
	}
};

/* ------------------------------------------------------------------- DFA */

/*
 * The transition on a non-ASCII character: its color by binary search in
 * the sorted ranges (default_color when in none), then the table.  Out of
 * line for the same reason as gl_like_wide_mask().
 */
__device__ static __noinline__ uint32_t
gl_dfa_wide_step(const GlProgram *prog, const uint16_t *trans, const GlColorRange *ranges,
				 uint32_t state, uint32_t cp)
{
	uint32_t	lo = 0,
				hi = prog->u.dfa.nranges;
	uint32_t	color = prog->u.dfa.default_color;

	while (lo < hi)
	{
		uint32_t	mid = (lo + hi) / 2;

		if (ranges[mid].hi < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < prog->u.dfa.nranges && ranges[lo].lo <= cp)
		color = ranges[lo].color;
	return trans[state * prog->u.dfa.ncolors + color];
}

struct GlDfaRowMatcher
{
	const GlProgram *prog;
	const uint16_t *trans;
	const uint8_t *flags;
	const GlColorRange *ranges;
	const uint16_t *folded;		/* see match.cu: fold_dfa() */
	bool		utf8;
	uint32_t	state;
	bool		done;
	bool		matched;
	GlUtf8Decoder decoder;

	__device__ void init(const GlProgram *p, uint32_t aux_off)
	{
		prog = p;
		trans = (const uint16_t *) gl_dev_section(p, p->u.dfa.trans_off);
		flags = (const uint8_t *) gl_dev_section(p, p->u.dfa.flags_off);
		ranges = (const GlColorRange *) gl_dev_section(p, p->u.dfa.ranges_off);
		folded = (const uint16_t *) gl_dev_section(p, aux_off);
		utf8 = p->utf8 != 0;
	}

	__device__ __forceinline__ void enter(uint32_t s, uint32_t f)
	{
		state = s;
		if (f & GL_DFA_ACCEPT)
			done = matched = true;
		else if (f & GL_DFA_DEAD)
			done = true;
	}

	__device__ __forceinline__ void begin()
	{
		decoder.reset();
		done = matched = false;
		enter(prog->u.dfa.start_state, flags[prog->u.dfa.start_state]);
	}

	__device__ __forceinline__ void step(uint32_t b)
	{
		uint32_t	cp;

		if (b < 0x80)
		{
			uint32_t	entry = folded[(state << 7) | b];

			decoder.reset();
			state = entry & GL_DFA_FOLD_STATE_MASK;
			if (entry & GL_DFA_FOLD_ACCEPT)
				done = matched = true;
			else if (entry & GL_DFA_FOLD_DEAD)
				done = true;
		}
		else if (decoder.feed(b, utf8, &cp))
		{
			uint32_t	next = gl_dfa_wide_step(prog, trans, ranges, state, cp);

			enter(next, flags[next]);
		}
	}

	__device__ __forceinline__ bool finish(uint32_t len) const
	{
		if (done)
			return matched;
		return (flags[state] & (GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END)) != 0;
	}
};

#endif							/* GPULIKE_ROW_MATCHERS_CUH */
