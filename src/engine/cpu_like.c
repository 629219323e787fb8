/*-------------------------------------------------------------------------
 *
 * cpu_like.c
 *	  CPU engine: running a GL_PROG_LIKE program over one value, and
 *	  skimming a column for the rows worth running it on.
 *
 * The segments of the pattern (see like_build.c) are matched left to
 * right, each at its leftmost earliest end after the previous one; no
 * backtracking is ever needed.  Per segment:
 *
 *	- anchored at the start: compare at byte 0 (memcmp, or step the masks
 *	  over exactly nchars characters);
 *	- anchored at the end: a segment has a fixed number of characters, so
 *	  its only possible place is the last nchars characters: walk back that
 *	  many characters and compare there;
 *	- free (between '%'s):
 *	  * literal: memchr for a truly rare byte, else skim 16 start positions
 *		at a time for two of the segment's bytes (SSE2); verify candidates
 *		with memcmp.  Text full of those bytes would make this
 *		quadratic-ish, so verifications are budgeted against bytes
 *		skimmed; past the budget memchr gives way to the pair skim, and
 *		the pair skim to KMP, which is linear whatever the input.
 *	  * masks ('_', ILIKE classes): if some position takes only one or two
 *		ASCII bytes (a literal letter, an ILIKE pair), skim for the rarest
 *		such byte, walk back to the one start it implies, verify there;
 *		otherwise (or when verifications fail too often) Shift-And over
 *		characters, which is linear whatever the input.
 *
 * UTF-8 is decoded only for Shift-And; literal segments compare bytes,
 * which is exact because whole encoded characters are compared.
 *
 * A column's rows are first skimmed as one string (cpu_engine.c) for what
 * every match holds, and only the rows with a hit are matched: a literal
 * segment's bytes, as above; for a pattern of masked segments only, two
 * positions' ASCII bytes at their distance.  That is exact for text of
 * ASCII characters; where a position in between, or one of the two, may
 * also be a longer character (k and i under a UTF-8 libc locale, for
 * ILIKE), the skim reports every byte of 0x80 or more as well.  Of the
 * skim that needs no such report (the exact one) and the one over the
 * rarest bytes (the wide one), each stretch of rows takes the one with
 * fewer hits in its first kilobytes (gl_cpu_like_pick_skim()).
 *
 * No PostgreSQL calls, and matching allocates nothing (only preparing a
 * plan for more than GL_LIKE_INLINE_SEGMENTS segments mallocs): this runs
 * on the server's threads.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "engine/cpu_like.h"
#include "program/byte_frequency.h"

/* Whether position j takes only characters of one byte (ASCII). */
static bool
position_is_one_byte(const GlCharMasks *masks, const GlCodepointMask *exceptions, uint32_t j)
{
	uint64_t	bit = (uint64_t) 1 << j;

	if (masks->any_mask & bit)
		return false;
	for (uint32_t i = 0; i < masks->nexceptions; i++)
		if (exceptions[i].mask & bit)
			return false;
	return true;
}

/*
 * The ASCII bytes position j accepts, into bytes[], when there are one or
 * two of them (a literal, an ILIKE pair like s/S), whatever non-ASCII
 * characters it accepts besides (the Kelvin sign for k under a UTF-8 libc
 * locale); else 0.
 */
static uint32_t
position_ascii_bytes(const GlCharMasks *masks, uint32_t j, uint8_t *bytes)
{
	uint64_t	bit = (uint64_t) 1 << j;
	uint32_t	n = 0;

	for (int c = 0; c < 128; c++)
	{
		if (masks->ascii[c] & bit)
		{
			if (n == 2)
				return 0;
			bytes[n++] = (uint8_t) c;
		}
	}
	return n;
}

/* The commoner of a position's one or two bytes (byte_frequency.h). */
static int
bytes_commonness(const uint8_t *bytes, uint32_t n)
{
	int			commonness = gl_byte_commonness(bytes[0]);

	if (n == 2 && gl_byte_commonness(bytes[1]) > commonness)
		commonness = gl_byte_commonness(bytes[1]);
	return commonness;
}

/*
 * If position j accepts only one or two ASCII characters (a literal, or an
 * ILIKE pair like s/S), store them in bytes[] and return how many; else 0.
 */
static uint32_t
position_bytes(const GlCharMasks *masks, const GlCodepointMask *exceptions,
			   uint32_t j, uint8_t *bytes)
{
	if (!position_is_one_byte(masks, exceptions, j))
		return 0;
	return position_ascii_bytes(masks, j, bytes);
}

/*
 * The masked segment's skim anchor: the position whose one or two ASCII
 * bytes are rarest (for a pair, the commoner of the two counts).
 */
static void
choose_anchor(GlLikeSegPlan *sp)
{
	int			best_commonness = 1000;
	uint32_t	j;

	sp->nanchor = 0;
	sp->anchor_pos = 0;
	for (j = 0; j < sp->seg->nchars; j++)
	{
		uint8_t		bytes[2];
		uint32_t	n = position_bytes(sp->masks, sp->exceptions, j, bytes);
		int			commonness;

		if (n == 0)
			continue;
		commonness = bytes_commonness(bytes, n);
		if (commonness < best_commonness)
		{
			best_commonness = commonness;
			sp->nanchor = n;
			sp->anchor[0] = bytes[0];
			sp->anchor[1] = bytes[n - 1];
			sp->anchor_pos = j;
		}
	}
}

/*
 * The segment's column skims: each is the two positions whose ASCII bytes
 * are rarest together, whatever else they and the positions between them
 * take.  In text of ASCII characters only, every occurrence has those
 * bytes that far apart; an occurrence with other characters there (k, i
 * and their case variants the Kelvin sign and the dotted capital I,
 * under a UTF-8 libc locale) has a byte of 0x80 or more, so the skim
 * reports those too where it must (skim->high), and their rows are
 * matched whole.  The exact skim (skims[0]) takes only positions that
 * need no such report, so it can neither use k or i nor look across
 * them; the wide one (skims[1]) takes any.  Rarity is guessed from the
 * bytes' commonness, less for two of one word (they come together far
 * more often than their counts say: q and k in "quickly") or two of the
 * same bytes; one position's bytes alone only where no pair qualifies.
 * A candidate replaces skims[k] where its score (lower is rarer) beats
 * best[k] (INT32_MAX: none yet), so a pattern's segments are offered in
 * turn and the first of equals is kept.  (The exact skim was once chosen
 * apart, the rarest position first and then its rarest partner, blind to
 * words: "y?y" of "slyly", in most rows of TPC-H comments, for ILIKE
 * '%dugouts wake slyly%', where the joint choice takes "g" and "w" six
 * bytes apart: 3.6x the MB/s in test/bench/cpu_engine.sql.)
 */
static void
choose_column_skims(const GlLikeSegPlan *sp, bool utf8, int best[2], GlLikeColumnSkim skims[2])
{
	uint32_t	nchars = sp->seg->nchars;
	/* a segment has at most 64 positions: one bit each in its masks */
	uint8_t		bytes[64][2];
	uint32_t	nbytes[64];
	int			commonness[64];
	uint32_t	wide_before[65];	/* positions below j taking other characters too */
	uint32_t	spaces_before[64];	/* positions below j taking only a space */

	wide_before[0] = 0;
	for (uint32_t j = 0; j < nchars; j++)
	{
		bool		wide = !position_is_one_byte(sp->masks, sp->exceptions, j);

		nbytes[j] = position_ascii_bytes(sp->masks, j, bytes[j]);
		commonness[j] = nbytes[j] > 0 ? bytes_commonness(bytes[j], nbytes[j]) : 0;
		wide_before[j + 1] = wide_before[j] + (wide ? 1 : 0);
		spaces_before[j] = j == 0 ? 0 :
			spaces_before[j - 1] + (nbytes[j - 1] == 1 && bytes[j - 1][0] == ' ' ? 1 : 0);
	}
	for (uint32_t a = 0; a < nchars; a++)
	{
		if (nbytes[a] == 0)
			continue;
		/* b == a: a skim of a's bytes alone */
		for (uint32_t b = a; b < nchars; b++)
		{
			bool		a_wide = wide_before[a + 1] > wide_before[a];
			bool		b_wide = wide_before[b + 1] > wide_before[b];
			bool		high;
			int			score;

			if (nbytes[b] == 0)
				continue;
			/* without UTF-8 every character is one byte: the distance holds */
			high = utf8 ? wide_before[b + 1] > wide_before[a] : a_wide || b_wide;
			score = 2 * (commonness[a] + (b == a ? 255 : commonness[b])) + (high ? 1 : 0);
			if (b != a && spaces_before[b] == spaces_before[a])
				score += 64;
			if (b != a && bytes[a][0] == bytes[b][0])
				score += 64;
			/* a's bytes alone hit wherever any pair with a does: after all of those */
			if (b == a)
				score += 64 + 64 + 1;
			/* the exact skim (0) takes no high report; the wide one (1) any */
			for (int k = high ? 1 : 0; k < 2; k++)
			{
				GlLikeColumnSkim *skim = &skims[k];

				if (score >= best[k])
					continue;
				best[k] = score;
				skim->high = high;
				skim->dist = b - a;
				skim->first[0] = bytes[a][0];
				skim->first[1] = bytes[a][nbytes[a] - 1];
				skim->second[0] = bytes[b][0];
				skim->second[1] = bytes[b][nbytes[b] - 1];
				skim->first_pos = a;
			}
		}
	}
}

/*
 * The first hit of a column skim at or after pos, or len.  Inlined with
 * high a constant (column_skim()), so each loop tests only what it must.
 */
static inline __attribute__((always_inline)) uint32_t
skim_pair(const uint8_t *s, uint32_t pos, uint32_t len, const GlLikeColumnSkim *skim,
		  bool high)
{
	uint32_t	dist = skim->dist;
#ifdef __SSE2__
	__m128i		first_a = _mm_set1_epi8((char) skim->first[0]);
	__m128i		first_b = _mm_set1_epi8((char) skim->first[1]);
	__m128i		second_a = _mm_set1_epi8((char) skim->second[0]);
	__m128i		second_b = _mm_set1_epi8((char) skim->second[1]);

	for (; pos + dist + 16 <= len; pos += 16)
	{
		__m128i		at = _mm_loadu_si128((const __m128i *) (s + pos));
		__m128i		after = _mm_loadu_si128((const __m128i *) (s + pos + dist));
		__m128i		both = _mm_and_si128(_mm_or_si128(_mm_cmpeq_epi8(at, first_a),
													  _mm_cmpeq_epi8(at, first_b)),
										 _mm_or_si128(_mm_cmpeq_epi8(after, second_a),
													  _mm_cmpeq_epi8(after, second_b)));
		uint32_t	hits = (uint32_t) _mm_movemask_epi8(both);

		if (high)
			hits |= (uint32_t) _mm_movemask_epi8(at);	/* the bytes' top bits */
		if (hits != 0)
			return pos + (uint32_t) __builtin_ctz(hits);
	}
#endif
	for (; pos < len; pos++)
		if ((high && s[pos] >= 0x80) ||
			(pos + dist < len && (s[pos] == skim->first[0] || s[pos] == skim->first[1]) &&
			 (s[pos + dist] == skim->second[0] || s[pos + dist] == skim->second[1])))
			return pos;
	return len;
}

static uint32_t
column_skim(const uint8_t *s, uint32_t pos, uint32_t len, const GlLikeColumnSkim *skim)
{
	return skim->high ? skim_pair(s, pos, len, skim, true) :
		skim_pair(s, pos, len, skim, false);
}

/* The first byte at or after pos that is a or b, or len. */
static inline uint32_t
skim_two_bytes(const uint8_t *s, uint32_t pos, uint32_t len, uint8_t a, uint8_t b)
{
#ifdef __SSE2__
	__m128i		want_a = _mm_set1_epi8((char) a);
	__m128i		want_b = _mm_set1_epi8((char) b);

	for (; pos + 16 <= len; pos += 16)
	{
		__m128i		block = _mm_loadu_si128((const __m128i *) (s + pos));
		uint32_t	hits = (uint32_t) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, want_a),
																	 _mm_cmpeq_epi8(block, want_b)));

		if (hits != 0)
			return pos + (uint32_t) __builtin_ctz(hits);
	}
#endif
	for (; pos < len; pos++)
		if (s[pos] == a || s[pos] == b)
			return pos;
	return len;
}

/*
 * The pair skim's second byte: the rarest at another offset, preferring a
 * value other than the first's (two different bytes filter far better in
 * runs like "QQQQZ").  The first offset itself for one-byte literals.
 */
static uint32_t
pick_second_byte(const uint8_t *bytes, uint32_t n, uint32_t first)
{
	uint32_t	best = first;
	uint32_t	i;

	for (i = 0; i < n; i++)
	{
		bool		differs = bytes[i] != bytes[first];
		bool		best_differs = bytes[best] != bytes[first];

		if (i == first)
			continue;
		if (best == first || (differs && !best_differs) ||
			(differs == best_differs &&
			 gl_byte_commonness(bytes[i]) < gl_byte_commonness(bytes[best])))
			best = i;
	}
	return best;
}

static bool
same_skim(const GlLikeColumnSkim *a, const GlLikeColumnSkim *b)
{
	return a->first[0] == b->first[0] && a->first[1] == b->first[1] && a->dist == b->dist &&
		a->second[0] == b->second[0] && a->second[1] == b->second[1] && a->high == b->high &&
		a->first_pos == b->first_pos;
}

bool
gl_cpu_like_prepare(const GlProgram *prog, GlLikePlan *plan)
{
	const GlLikeSegment *segs;
	uint32_t	s;

	plan->prog = prog;
	plan->like = &prog->u.like;
	plan->utf8 = prog->utf8 != 0;
	plan->required = -1;
	plan->nskims = 0;
	plan->segs = plan->inline_segs;
	if (plan->like->nsegments > GL_LIKE_INLINE_SEGMENTS)
	{
		plan->segs = malloc(sizeof(GlLikeSegPlan) * plan->like->nsegments);
		if (plan->segs == NULL)
			return false;
	}
	segs = gl_program_section(prog, plan->like->segments_off);
	for (s = 0; s < plan->like->nsegments; s++)
	{
		GlLikeSegPlan *sp = &plan->segs[s];
		uint32_t	i;

		sp->seg = &segs[s];
		sp->masks = gl_program_section(prog, segs[s].masks_off);
		sp->exceptions = gl_program_section(prog, sp->masks->exceptions_off);
		sp->bytes = NULL;
		sp->kmp = NULL;
		sp->rare_index = 0;
		sp->rare_index2 = 0;
		sp->rare_is_rare = false;
		choose_anchor(sp);
		if (segs[s].is_literal)
		{
			sp->bytes = gl_program_section(prog, segs[s].bytes_off);
			sp->kmp = gl_program_section(prog, segs[s].kmp_off);
			for (i = 1; i < segs[s].nbytes; i++)
				if (gl_byte_commonness(sp->bytes[i]) <
					gl_byte_commonness(sp->bytes[sp->rare_index]))
					sp->rare_index = i;
			/* capitals, digits, symbols: few memchr hits, long strides */
			sp->rare_is_rare = segs[s].nbytes == 1 ||
				gl_byte_commonness(sp->bytes[sp->rare_index]) <= 90;
			sp->rare_index2 = pick_second_byte(sp->bytes, segs[s].nbytes,
											   sp->rare_index);
			if (plan->required < 0 ||
				segs[s].nbytes > segs[plan->required].nbytes)
				plan->required = (int) s;
		}
	}
	plan->required_is_all = plan->like->nsegments == 1 && plan->required == 0 &&
		!plan->like->anchored_start && !plan->like->anchored_end;
	return true;
}

void
gl_cpu_like_prepare_skims(GlLikePlan *plan)
{
	int			best[2] = {INT32_MAX, INT32_MAX};	/* exact, wide */
	GlLikeColumnSkim skims[2];

	plan->nskims = 0;
	if (plan->required >= 0)
		return;					/* the literal is skimmed for */
	for (uint32_t s = 0; s < plan->like->nsegments; s++)
		choose_column_skims(&plan->segs[s], plan->utf8, best, skims);
	/* the exact skim first: it wins ties (gl_cpu_like_pick_skim()) */
	if (best[0] != INT32_MAX)
		plan->skims[plan->nskims++] = skims[0];
	if (best[1] != INT32_MAX && (plan->nskims == 0 || !same_skim(&skims[1], &plan->skims[0])))
		plan->skims[plan->nskims++] = skims[1];
}

/* The one pair class position j's bytes have, or -1 (chunk_pairs.h). */
static int
position_pair_class(const GlLikeSegPlan *sp, uint32_t j)
{
	int			cls = -1;

	if (!position_is_one_byte(sp->masks, sp->exceptions, j))
		return -1;
	for (int c = 0; c < 128; c++)
	{
		if (!((sp->masks->ascii[c] >> j) & 1))
			continue;
		if (cls >= 0 && cls != gl_pair_class((uint8_t) c))
			return -1;
		cls = gl_pair_class((uint8_t) c);
	}
	return cls;
}

void
gl_cpu_like_required_pairs(const GlLikePlan *plan, GlRequiredPairs *req)
{
	req->npairs = 0;
	for (uint32_t s = 0; s < plan->like->nsegments; s++)
	{
		const GlLikeSegPlan *sp = &plan->segs[s];

		if (sp->seg->is_literal)
		{
			for (uint32_t i = 1; i < sp->seg->nbytes; i++)
				gl_required_pairs_add(req, gl_pair_class(sp->bytes[i - 1]),
									  gl_pair_class(sp->bytes[i]));
			continue;
		}
		for (uint32_t j = 1; j < sp->seg->nchars; j++)
		{
			int			first = position_pair_class(sp, j - 1);
			int			second = position_pair_class(sp, j);

			if (first >= 0 && second >= 0)
				gl_required_pairs_add(req, (uint8_t) first, (uint8_t) second);
		}
	}
}

void
gl_cpu_like_release(GlLikePlan *plan)
{
	if (plan->segs != plan->inline_segs)
		free(plan->segs);
	plan->segs = NULL;
}

/*
 * Decode the character at s[*pos] and advance.  Values are valid text, but
 * a malformed byte must not make us read past the end: it counts as one
 * character of its own (a code point no pattern position names).
 */
static inline uint32_t
next_char(const uint8_t *s, uint32_t len, uint32_t *pos, bool utf8)
{
	uint8_t		b = s[*pos];
	uint32_t	cp;
	uint32_t	n,
				i;

	if (b < 0x80 || !utf8)
	{
		(*pos)++;
		return b;
	}
	if (b >= 0xC0 && b < 0xE0)
		n = 2, cp = b & 0x1F;
	else if (b >= 0xE0 && b < 0xF0)
		n = 3, cp = b & 0x0F;
	else if (b >= 0xF0 && b < 0xF8)
		n = 4, cp = b & 0x07;
	else
	{
		(*pos)++;
		return 0xFFFFFFFF;
	}
	if (*pos + n > len)
	{
		*pos = len;
		return 0xFFFFFFFF;
	}
	for (i = 1; i < n; i++)
		cp = (cp << 6) | (s[*pos + i] & 0x3F);
	*pos += n;
	return cp;
}

/* Shift-And mask of code point cp (see GlCharMasks). */
static inline uint64_t
char_mask(const GlLikeSegPlan *sp, uint32_t cp)
{
	uint32_t	lo = 0,
				hi = sp->masks->nexceptions;

	if (cp < 128)
		return sp->masks->ascii[cp];
	while (lo < hi)
	{
		uint32_t	mid = (lo + hi) / 2;

		if (sp->exceptions[mid].codepoint < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sp->masks->nexceptions && sp->exceptions[lo].codepoint == cp)
		return sp->masks->any_mask | sp->exceptions[lo].mask;
	return sp->masks->any_mask;
}

/* Does the segment match starting exactly at pos?  Its end, or -1. */
static int64_t
match_at(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t pos,
		 uint32_t len, bool utf8)
{
	uint32_t	j;

	if (sp->seg->is_literal)
	{
		if (len - pos < sp->seg->nbytes ||
			memcmp(s + pos, sp->bytes, sp->seg->nbytes) != 0)
			return -1;
		return (int64_t) pos + sp->seg->nbytes;
	}
	for (j = 0; j < sp->seg->nchars; j++)
	{
		if (pos >= len)
			return -1;
		if (!((char_mask(sp, next_char(s, len, &pos, utf8)) >> j) & 1))
			return -1;
	}
	return pos;
}

/* Does the segment match the last characters of s[from..len)? */
static bool
match_suffix(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t from,
			 uint32_t len, bool utf8)
{
	uint32_t	start = len;
	uint32_t	j;

	if (sp->seg->is_literal)
		start = (len - from >= sp->seg->nbytes) ? len - sp->seg->nbytes : UINT32_MAX;
	else
	{
		for (j = 0; j < sp->seg->nchars && start != UINT32_MAX; j++)
		{
			if (start <= from)
				start = UINT32_MAX;
			else
			{
				start--;
				while (utf8 && start > from && (s[start] & 0xC0) == 0x80)
					start--;
			}
		}
	}
	if (start == UINT32_MAX)
		return false;
	return match_at(sp, s, start, len, utf8) == (int64_t) len;
}

/* KMP search for a literal segment from byte pos on; its end, or -1. */
static int64_t
kmp_find_end(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t pos,
			 uint32_t len)
{
	uint32_t	n = sp->seg->nbytes;
	int32_t		k = 0;

	for (; pos < len; pos++)
	{
		while (k > 0 && s[pos] != sp->bytes[k])
			k = sp->kmp[k - 1];
		if (s[pos] == sp->bytes[k])
			k++;
		if ((uint32_t) k == n)
			return (int64_t) pos + 1;
	}
	return -1;
}

/* Past this many failed verifications per 8 bytes searched, give up a skim. */
static inline bool
verification_budget_spent(uint32_t verifications, uint32_t searched)
{
	return verifications > 16 + searched / 8;
}

#ifdef __SSE2__
/*
 * Pair skim: candidate starts are those where the segment's two chosen
 * bytes both sit at their offsets; 16 starts are tested per step by two
 * unaligned loads and compares (Muła's "generic SIMD" substring search).
 * Loads stay inside the value: a 16-start block is taken only when all
 * 16 starts leave room for the whole segment.  KMP past the budget.
 */
static int64_t
pair_skim_find_end(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t from,
				   uint32_t len)
{
	uint32_t	n = sp->seg->nbytes;
	uint32_t	r1 = sp->rare_index;
	uint32_t	r2 = sp->rare_index2;
	__m128i		want1 = _mm_set1_epi8((char) sp->bytes[r1]);
	__m128i		want2 = _mm_set1_epi8((char) sp->bytes[r2]);
	uint32_t	verifications = 0;
	uint32_t	last_start;
	uint32_t	start = from;

	if (len - from < n)
		return -1;
	last_start = len - n;
	for (; start + 15 <= last_start; start += 16)
	{
		__m128i		at1 = _mm_loadu_si128((const __m128i *) (s + start + r1));
		__m128i		at2 = _mm_loadu_si128((const __m128i *) (s + start + r2));
		uint32_t	hits = (uint32_t) _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(at1, want1),
																	   _mm_cmpeq_epi8(at2, want2)));

		while (hits != 0)
		{
			uint32_t	candidate = start + (uint32_t) __builtin_ctz(hits);

			if (memcmp(s + candidate, sp->bytes, n) == 0)
				return (int64_t) candidate + n;
			/* Every start up to this candidate has been ruled out. */
			if (verification_budget_spent(++verifications, candidate - from))
				return kmp_find_end(sp, s, candidate + 1, len);
			hits &= hits - 1;
		}
	}
	/* Fewer than 16 starts left: at most 15 verifications, inline. */
	for (; start <= last_start; start++)
		if (s[start + r1] == sp->bytes[r1] && s[start + r2] == sp->bytes[r2] &&
			memcmp(s + start, sp->bytes, n) == 0)
			return (int64_t) start + n;
	return -1;
}
#endif

/*
 * Rare-byte skim: memchr for the rarest byte, memcmp to verify.  Past the
 * budget (text full of that byte), the pair skim, or KMP without SSE2.
 */
static int64_t
memchr_find_end(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t from,
				uint32_t len)
{
	uint32_t	n = sp->seg->nbytes;
	uint32_t	r = sp->rare_index;
	uint32_t	verifications = 0;
	uint32_t	last_start;
	uint32_t	start = from;

	if (len - from < n)
		return -1;
	last_start = len - n;
	while (start <= last_start)
	{
		const uint8_t *hit = memchr(s + start + r, sp->bytes[r], last_start - start + 1);

		if (hit == NULL)
			return -1;
		start = (uint32_t) (hit - s) - r;
		if (memcmp(s + start, sp->bytes, n) == 0)
			return (int64_t) start + n;
		if (verification_budget_spent(++verifications, start - from))
		{
#ifdef __SSE2__
			return pair_skim_find_end(sp, s, start + 1, len);
#else
			return kmp_find_end(sp, s, start + 1, len);
#endif
		}
		start++;
	}
	return -1;
}

/*
 * Leftmost occurrence of a literal segment at or after from: its end, or
 * -1.  A truly rare byte (a capital, a digit) is found fastest by memchr's
 * long strides; common ones by the pair skim, which needs two bytes in
 * place.  Either gives way when its candidates keep failing, ending with
 * KMP, which is linear whatever the input.
 */
static int64_t
literal_find_end(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t from,
				 uint32_t len)
{
#ifdef __SSE2__
	if (!sp->rare_is_rare)
		return pair_skim_find_end(sp, s, from, len);
#endif
	return memchr_find_end(sp, s, from, len);
}

int64_t
gl_cpu_like_find_required(const GlLikePlan *plan, const char *s, uint64_t from,
						  uint64_t len)
{
	return literal_find_end(&plan->segs[plan->required], (const uint8_t *) s,
							(uint32_t) from, (uint32_t) len);
}

/*
 * The bytes the skims are compared on before one is picked: enough rows
 * (about 80 of TPC-H's comments) that a phrase's words show how often
 * they come together, few enough to cost a few percent of the scan.
 */
#define SKIM_TRIAL_BYTES 4096

int
gl_cpu_like_pick_skim(const GlLikePlan *plan, const char *s, uint64_t len)
{
	uint32_t	trial = len < SKIM_TRIAL_BYTES ? (uint32_t) len : SKIM_TRIAL_BYTES;
	uint32_t	hits[2] = {0, 0};

	if (plan->nskims < 2)
		return 0;
	for (int k = 0; k < 2; k++)
		for (uint32_t pos = column_skim((const uint8_t *) s, 0, trial, &plan->skims[k]);
			 pos < trial && (k == 0 || hits[1] < hits[0]);
			 pos = column_skim((const uint8_t *) s, pos + 1, trial, &plan->skims[k]))
			hits[k]++;
	return hits[1] < hits[0] ? 1 : 0;
}

int64_t
gl_cpu_like_find_anchor(const GlLikePlan *plan, int skim, const char *s, uint64_t from,
						uint64_t len)
{
	uint32_t	hit = column_skim((const uint8_t *) s, (uint32_t) from, (uint32_t) len,
								  &plan->skims[skim]);

	return hit < len ? (int64_t) hit : -1;
}

/*
 * A skim hit is where a segment's character first_pos would stand, and the
 * hit's byte is ASCII (a skim that is not high takes no other), so it
 * starts a character: the occurrence can start only first_pos characters
 * earlier, one match_at() there settles the hit, where matching the whole
 * value would skim it again and verify at each of its anchors (on TPC-H
 * comments, ILIKE terms of 10-15 bytes, that took half of the engine's
 * time: test/bench/batch_bench).  Values are valid in the database's
 * encoding, so stepping back over UTF-8 continuation bytes finds the
 * characters' starts.
 */
bool
gl_cpu_like_hits_settle(const GlLikePlan *plan, int skim)
{
	return plan->like->nsegments == 1 && !plan->like->anchored_start &&
		!plan->like->anchored_end && !plan->skims[skim].high;
}

/*
 * Does the segment stand where a hit places it?  Then set [*start, *end)
 * to the occurrence.
 */
static bool
placed_at_hit(const GlLikePlan *plan, int skim, const uint8_t *text, uint64_t hit,
			  uint64_t len, uint64_t *start, uint64_t *end)
{
	int64_t		found;

	*start = hit;
	for (uint32_t c = 0; c < plan->skims[skim].first_pos; c++)
	{
		if (*start == 0)
			return false;		/* it would start before the text */
		(*start)--;
		while (plan->utf8 && *start > 0 && (text[*start] & 0xC0) == 0x80)
			(*start)--;
	}
	found = match_at(&plan->segs[0], text, (uint32_t) *start, (uint32_t) len, plan->utf8);
	*end = (uint64_t) found;
	return found >= 0;
}

/*
 * Most hits of a common pair are not matches: checked here, one costs a
 * match_at() and the skim goes on, where the caller would first find the
 * hit's row and its bounds.
 */
int64_t
gl_cpu_like_find_placed(const GlLikePlan *plan, int skim, const char *s, uint64_t from,
						uint64_t len, uint64_t *start, uint64_t *end)
{
	const uint8_t *text = (const uint8_t *) s;

	for (;;)
	{
		uint32_t	hit = column_skim(text, (uint32_t) from, (uint32_t) len, &plan->skims[skim]);

		if (hit >= len)
			return -1;
		if (placed_at_hit(plan, skim, text, hit, len, start, end))
			return hit;
		from = hit + 1;
	}
}

/*
 * Shift-And search for a masked segment from byte from on: the end of its
 * leftmost-ending occurrence, or -1.  Linear in the bytes, whatever they
 * are; while no partial match is alive, bytes that position 0 rejects are
 * skipped with a table lookup each.
 */
static int64_t
shift_and_find_end(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t from,
				   uint32_t len, bool utf8)
{
	const uint64_t *ascii = sp->masks->ascii;
	uint64_t	accept = (uint64_t) 1 << (sp->seg->nchars - 1);
	uint64_t	state = 0;
	uint32_t	pos = from;

	while (pos < len)
	{
		if (state == 0)
		{
			while (pos < len && s[pos] < 0x80 && !(ascii[s[pos]] & 1))
				pos++;
			if (pos >= len)
				return -1;
		}
		state = ((state << 1) | 1) & char_mask(sp, next_char(s, len, &pos, utf8));
		if (state & accept)
			return pos;
	}
	return -1;
}

/*
 * Masked segment with an anchor (a position taking only one or two ASCII
 * bytes): skim for the anchor byte (SSE2), walk back anchor_pos characters
 * to the only start that hit can belong to, and verify there.  Starts come
 * in increasing order, and a segment's end grows with its start (it always
 * spans nchars characters), so the first verified start also ends
 * earliest.  Too many failed verifications: Shift-And from that start on.
 */
static int64_t
anchor_find_end(const GlLikeSegPlan *sp, const uint8_t *s, uint32_t from,
				uint32_t len, bool utf8)
{
	uint32_t	j = sp->anchor_pos;
	uint32_t	verifications = 0;
	uint32_t	hit = from + j;	/* j characters take at least j bytes */

	while (hit < len)
	{
		uint32_t	start;
		uint32_t	k;
		int64_t		end;

		hit = skim_two_bytes(s, hit, len, sp->anchor[0], sp->anchor[1]);
		if (hit >= len)
			return -1;
		start = hit;
		for (k = 0; k < j && start > from; k++)
		{
			start--;
			while (utf8 && start > from && (s[start] & 0xC0) == 0x80)
				start--;
		}
		if (k == j)
		{
			end = match_at(sp, s, start, len, utf8);
			if (end >= 0)
				return end;
			if (verification_budget_spent(++verifications, hit - from))
				return shift_and_find_end(sp, s, start, len, utf8);
		}
		hit++;
	}
	return -1;
}

bool
gl_cpu_like_match(const GlLikePlan *plan, const char *value, uint32_t len)
{
	const GlLikeProgram *like = plan->like;
	const uint8_t *s = (const uint8_t *) value;
	uint32_t	nsegments = like->nsegments;
	uint32_t	pos = 0;
	uint32_t	i;

	if (len < like->min_bytes)
		return false;
	if (nsegments == 0)
		return like->anchored_start ? len == 0 : true;

	/*
	 * A literal tail ('%x%y') is one memcmp: most rows fail it, so try it
	 * before searching the segments ahead of it (which then must also end
	 * before it starts: checked in order below).
	 */
	if (like->anchored_end && nsegments > 1 && plan->segs[nsegments - 1].seg->is_literal &&
		!match_suffix(&plan->segs[nsegments - 1], s, 0, len, plan->utf8))
		return false;

	for (i = 0; i < nsegments; i++)
	{
		const GlLikeSegPlan *sp = &plan->segs[i];
		bool		last = (i == nsegments - 1);
		int64_t		end;

		if (i == 0 && like->anchored_start)
		{
			end = match_at(sp, s, 0, len, plan->utf8);
			if (end < 0)
				return false;
			if (last && like->anchored_end)
				return end == len;
		}
		else if (last && like->anchored_end)
			return match_suffix(sp, s, pos, len, plan->utf8);
		else if (sp->seg->is_literal)
			end = literal_find_end(sp, s, pos, len);
		else if (sp->nanchor > 0)
			end = anchor_find_end(sp, s, pos, len, plan->utf8);
		else
			end = shift_and_find_end(sp, s, pos, len, plan->utf8);
		if (end < 0)
			return false;
		pos = (uint32_t) end;
	}
	return true;
}
