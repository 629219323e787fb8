/*-------------------------------------------------------------------------
 *
 * sieve_choice.cc
 *	  What the sieve (cuda/kernels_sieve.cu) looks for in a LIKE pattern: the
 *	  literal run, the three probes that find its candidates, or the
 *	  window that compares the whole run (sieve_choice.h).
 *
 * A run is consecutive pattern positions that accept only ASCII bytes;
 * each position's probe test is (byte & mask) == value, which every byte
 * the position accepts passes.  Probes are chosen rare: by typical byte
 * frequencies, checked against the column's own text where it was sampled
 * (GlBytePairs).  An exact run of a few bytes is compared whole instead.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <string.h>

#include "kernel_prep/sieve_choice.h"

extern "C"
{
#include "program/byte_frequency.h"
}

static const uint32_t MIN_RUN_CHARS = 3;
/* gl_byte_commonness() of a probe that tells nothing (above any byte's) */
static const int PROBE_NOTHING = 300;

/*
 * The probe test of run position t: the bits on which all the bytes it
 * accepts agree, and their value; how common the bytes passing it are
 * (gl_byte_commonness(), more for every free bit).  false for a position
 * that would pass 0x00, which is in every row's separator.
 */
static bool
position_probe(const GlCharMasks *masks, uint32_t t, uint32_t *mask, uint32_t *value,
			   int *commonness)
{
	int			first = -1;
	uint32_t	differ = 0;

	for (int b = 1; b < 128; b++)
		if ((masks->ascii[b] >> t) & 1)
		{
			if (first < 0)
				first = b;
			differ |= (uint32_t) (b ^ first);
		}
	if (first < 0)
		return false;
	*mask = ~differ & 0xFF;
	*value = (uint32_t) first & *mask;
	if (*value == 0)
		return false;
	*commonness = 0;
	for (int b = 0; b < 256; b++)
		if (((uint32_t) b & *mask) == *value && gl_byte_commonness((uint8_t) b) > *commonness)
			*commonness = gl_byte_commonness((uint8_t) b);
	*commonness += 16 * __builtin_popcount(differ);
	return true;
}

/* Probe k of sv tests (byte & mask) == value, four bytes at a time. */
static void
set_probe(GlSieve *sv, int k, uint32_t mask, uint32_t value)
{
	sv->probe_mask[k] = mask * 0x01010101u;
	sv->probe_value[k] = value * 0x01010101u;
}

/* The share of the column's bytes that pass probe (mask, value). */
static double
byte_share(const GlBytePairs *pairs, uint32_t mask, uint32_t value)
{
	uint64_t	n = 0;

	for (uint32_t b = 1; b < 256; b++)
		if ((b & mask) == value)
			n += pairs->bytes[b];
	return (n + 0.5) / (pairs->nbytes + 1.0);
}

/* The share of the column's byte pairs whose bytes pass probes 1 and 2. */
static double
pair_share(const GlBytePairs *pairs, uint32_t mask1, uint32_t value1, uint32_t mask2,
		   uint32_t value2)
{
	uint32_t	second[255];
	uint32_t	nsecond = 0;
	uint64_t	n = 0;

	for (uint32_t b = 1; b < 256; b++)
		if ((b & mask2) == value2)
			second[nsecond++] = b;
	for (uint32_t a = 1; a < 256; a++)
		if ((a & mask1) == value1)
			for (uint32_t k = 0; k < nsecond; k++)
				n += pairs->pairs[a << 8 | second[k]];
	return (n + 0.5) / (pairs->npairs + 1.0);
}

/* A choice of probes: positions i, i + 1 (or nothing) and j of a run. */
typedef struct ProbeChoice
{
	uint32_t	pos[3];
	int			model;			/* the pair counts' estimate: lower is rarer */
	int			typical;		/* by gl_byte_commonness(): lower is rarer */
} ProbeChoice;

/* Keep the `keep` choices lowest by key first in choices (partial selection). */
static void
keep_lowest(ProbeChoice *choices, uint32_t n, uint32_t from, uint32_t keep, bool by_model)
{
	for (uint32_t k = from; k < from + keep && k < n; k++)
		for (uint32_t m = k + 1; m < n; m++)
			if ((by_model ? choices[m].model < choices[k].model :
				 choices[m].typical < choices[k].typical))
			{
				ProbeChoice swap = choices[k];

				choices[k] = choices[m];
				choices[m] = swap;
			}
}

/* Places of the column's text sample where all three probes pass. */
static uint32_t
count_candidates(const GlBytePairs *pairs, const uint32_t mask[3], const uint32_t value[3],
				 uint32_t gap)
{
	/* three streams and no branch: the compiler compares 16 places at once */
	const uint8_t *first = pairs->text,
			   *second = pairs->text + 1,
			   *third = pairs->text + gap;
	uint8_t		m0 = (uint8_t) mask[0],
				m1 = (uint8_t) mask[1],
				m2 = (uint8_t) mask[2];
	uint8_t		v0 = (uint8_t) value[0],
				v1 = (uint8_t) value[1],
				v2 = (uint8_t) value[2];
	size_t		places = pairs->text_bytes > gap ? pairs->text_bytes - gap : 0;
	uint32_t	n = 0;

	for (size_t p = 0; p < places; p++)
		n += ((first[p] & m0) == v0) & ((second[p] & m1) == v1) & ((third[p] & m2) == v2);
	return n;
}

/*
 * Places of the text sample the typical choice may pass and stay chosen;
 * past them, the shortlisted choices by each estimate are counted too.
 */
#define FEW_CANDIDATES		1
#define PROBE_SHORTLIST		3

/*
 * The sieve's probes in run [start, start + len) of masks: positions i,
 * i + 1 and j (0 < j - i <= GL_SIEVE_MAX_GAP; a probe past the run, or on
 * a position that cannot be probed, always passes) whose bytes are rarest
 * together.  Returns how common they are (lower is rarer; comparable
 * between runs of one program), INT32_MAX if no pair i, j can be probed.
 *
 * Rarest by typical byte frequencies (gl_byte_commonness()), unless the
 * column's text was sampled at upload (GlBytePairs): a small vocabulary
 * defeats typical frequencies ("forges sleep furiously" in TPC-H
 * comments, its probes "bl" ... "y" in "blithely", a third of the rows:
 * kernel 0.56 ms, against 0.29 for probes the text makes rare, H100), and
 * so do estimates from the column's byte pairs alone, which cannot see a
 * phrase its words make common ("carefully final deposits": 84 -> 45% of
 * the read bandwidth).  So the typical choice is tried on the column's
 * sampled text; where it passes more than FEW_CANDIDATES of its places,
 * the PROBE_SHORTLIST next best by each estimate are tried too, and the
 * one passing fewest wins.  Only once the sieve is known to run on its
 * probes (gl_prepare_program_with(); runs are compared by typical
 * frequencies): a few microseconds, tens where the shortlist is tried.
 * (Trying the shortlist always, on 16 kB, cost every request 0.2 ms of
 * preparation on the H100.)
 */
int
gl_choose_probes(const GlCharMasks *masks, uint32_t start, uint32_t len,
			  const GlBytePairs *pairs, GlSieve *sv)
{
	uint32_t	mask[GL_MAX_SEGMENT_CHARS + 1];
	uint32_t	value[GL_MAX_SEGMENT_CHARS + 1];
	int			commonness[GL_MAX_SEGMENT_CHARS + 1];
	bool		ok[GL_MAX_SEGMENT_CHARS + 1];
	double		with_next[GL_MAX_SEGMENT_CHARS + 1];	/* i and i + 1 pass */
	double		alone[GL_MAX_SEGMENT_CHARS + 1];	/* j passes */
	ProbeChoice choices[GL_MAX_SEGMENT_CHARS * GL_SIEVE_MAX_GAP];
	bool		sampled = pairs != NULL && pairs->npairs > 0 && pairs->text_bytes > 0;
	uint32_t	n = 0;
	uint32_t	tried;
	int			best = INT32_MAX;

	for (uint32_t t = 0; t < len; t++)
		ok[t] = position_probe(masks, start + t, &mask[t], &value[t], &commonness[t]);
	/* past the run: a test that always passes and tells nothing */
	ok[len] = true;
	mask[len] = value[len] = 0;
	commonness[len] = PROBE_NOTHING;
	for (uint32_t t = 0; sampled && t < len; t++)
	{
		uint32_t	next = t + 1 < len && ok[t + 1] ? t + 1 : len;

		if (!ok[t])
			continue;
		alone[t] = byte_share(pairs, mask[t], value[t]);
		with_next[t] = pair_share(pairs, mask[t], value[t], mask[next], value[next]);
	}
	for (uint32_t i = 0; i < len; i++)
		for (uint32_t j = i + 1; j < len && j - i <= GL_SIEVE_MAX_GAP; j++)
		{
			ProbeChoice *c = &choices[n];

			if (!ok[i] || !ok[j])
				continue;
			c->pos[0] = i;
			c->pos[1] = i + 1 < len && ok[i + 1] ? i + 1 : len;
			c->pos[2] = j;
			c->typical = 0;
			/* each position counts once (i + 1 may be j) */
			for (int k = 0; k < 3; k++)
				if (k != 2 || c->pos[2] != c->pos[1])
					c->typical += commonness[c->pos[k]] - PROBE_NOTHING;
			/* log2 of the share of places passing, in 1/64ths */
			c->model = sampled ? (int) (log2(with_next[i] *
											 (c->pos[2] != c->pos[1] ? alone[j] : 1.0)) * 64) : 0;
			n++;
		}
	if (n == 0)
		return INT32_MAX;
	/* the typical choice first: where the text does not defeat it, it stays */
	keep_lowest(choices, n, 0, 1, false);
	tried = 1;
	for (uint32_t k = 0; k < tried; k++)
	{
		const ProbeChoice *c = &choices[k];
		uint32_t	m[3] = {mask[c->pos[0]], mask[c->pos[1]], mask[c->pos[2]]};
		uint32_t	v[3] = {value[c->pos[0]], value[c->pos[1]], value[c->pos[2]]};
		uint32_t	gap = c->pos[2] - c->pos[0];
		int			score = sampled ? (int) count_candidates(pairs, m, v, gap) : c->typical;

		if (score < best)
		{
			best = score;
			sv->probe_pos = c->pos[0];
			sv->probe_gap = gap;
			for (int p = 0; p < 3; p++)
				set_probe(sv, p, m[p], v[p]);
		}
		if (k == 0 && sampled && best > FEW_CANDIDATES)
		{
			keep_lowest(choices, n, 1, PROBE_SHORTLIST, true);
			keep_lowest(choices, n, 1 + PROBE_SHORTLIST, PROBE_SHORTLIST, false);
			tried = n < 1 + 2 * PROBE_SHORTLIST ? n : 1 + 2 * PROBE_SHORTLIST;
		}
	}
	return best;
}

/*
 * Probes for a run that must start its row: the 0x00 separator before it
 * (position -1), its first position, and the rarest other position within
 * the gap.  About one byte in fifty is a separator (rows of comment text
 * average 48 bytes), so candidates are row starts only, where the same
 * run anywhere in a row would make many (H200, 'furiously%': 57% of the
 * read bandwidth, 43% with probes inside the run).  The column's first
 * row has no separator before it: the kernel checks it apart.
 */
static void
choose_row_start_probes(const GlCharMasks *masks, uint32_t start, uint32_t len, GlSieve *sv)
{
	/* mask and value 0 (a position that cannot be probed): always passes */
	uint32_t	mask[2] = {0, 0};
	uint32_t	value[2] = {0, 0};
	uint32_t	gap = 2;
	int			best = INT32_MAX;
	int			commonness;
	uint32_t	m,
				v;

	if (position_probe(masks, start, &m, &v, &commonness))
	{
		mask[0] = m;
		value[0] = v;
	}
	for (uint32_t t = 1; t < len && t + 1 <= GL_SIEVE_MAX_GAP; t++)
	{
		if (position_probe(masks, start + t, &m, &v, &commonness) && commonness < best)
		{
			best = commonness;
			mask[1] = m;
			value[1] = v;
			gap = t + 1;
		}
	}
	sv->probe_pos = -1;
	sv->probe_gap = gap;
	set_probe(sv, 0, 0xFF, 0);	/* the separator */
	set_probe(sv, 1, mask[0], value[0]);
	set_probe(sv, 2, mask[1], value[1]);
}

/*
 * Is the probe test of run position t, (byte & mask) == value, passed by
 * the bytes that position accepts and by no other?  The bytes passing it
 * are 2^(free bits) values, all of them accepted when that many are.
 */
static bool
probe_is_exact(const GlCharMasks *masks, uint32_t t, uint32_t mask)
{
	int			accepted = 0;

	for (int b = 1; b < 128; b++)
		accepted += (masks->ascii[b] >> t) & 1;
	return accepted == 1 << __builtin_popcount(~mask & 0xFF);
}

/*
 * The window of an exact run of up to GL_SIEVE_MAX_WINDOW bytes with its
 * anchors' separators (cuda/kernels.h), when every position of the run has an
 * exact test; else the sieve keeps its probes and verifies candidates.
 * Short runs are the ones common in text ('%final%' matches one comment
 * row in twenty), where verifying candidates cost more than comparing the
 * window in registers (cuda/kernels_sieve.cu).
 */
static void
choose_window(const GlCharMasks *masks, uint32_t start, uint32_t len, GlSieve *sv)
{
	uint32_t	mask[GL_SIEVE_MAX_WINDOW];
	uint32_t	value[GL_SIEVE_MAX_WINDOW];
	uint32_t	width = 0;

	if (sv->anchored_start + len + sv->anchored_end > GL_SIEVE_MAX_WINDOW)
		return;
	if (sv->anchored_start)
	{
		mask[width] = 0xFF;
		value[width++] = 0;
	}
	for (uint32_t t = 0; t < len; t++, width++)
	{
		int			commonness;

		if (!position_probe(masks, start + t, &mask[width], &value[width], &commonness) ||
			!probe_is_exact(masks, start + t, mask[width]))
			return;
	}
	if (sv->anchored_end)
	{
		mask[width] = 0xFF;
		value[width++] = 0;
	}
	sv->window = width;
	for (uint32_t o = 0; o < width; o++)
	{
		sv->window_mask[o] = mask[o] * 0x01010101u;
		sv->window_value[o] = value[o] * 0x01010101u;
		sv->window_masked |= mask[o] != 0xFF;
	}
}

/*
 * The sieve for a LIKE pattern: a run of consecutive pattern positions
 * that accept only ASCII characters, the one with the rarest probes (the
 * longer on a tie).  Any value that matches the pattern contains that run
 * as plain bytes (an ASCII byte is always a whole UTF-8 character), so
 * chunks without it cannot hold a match; and when the pattern is just the
 * run, with its anchors, a hit is a match.  Runs shorter than
 * MIN_RUN_CHARS would flag nearly every chunk: then the rows pass runs
 * alone.  A regex's prefilter (prefilter true) is never the match itself.
 */
void
gl_choose_like_sieve(const GlProgram *prog, bool prefilter, GlPreparedProgram *pp)
{
	const GlLikeProgram *like = &prog->u.like;
	const GlLikeSegment *segs = (const GlLikeSegment *) gl_program_section(prog, like->segments_off);
	const GlCharMasks *best_masks = NULL;
	uint32_t	best_seg = 0;
	uint32_t	best_start = 0;
	uint32_t	best_len = 0;
	int			best_score = INT32_MAX;
	GlSieve    *sv = &pp->sieve;

	for (uint32_t s = 0; s < like->nsegments; s++)
	{
		const GlCharMasks *masks = (const GlCharMasks *) gl_program_section(prog, segs[s].masks_off);
		const GlCodepointMask *exceptions =
			(const GlCodepointMask *) gl_program_section(prog, masks->exceptions_off);
		uint64_t	not_ascii_only = masks->any_mask;
		uint32_t	run = 0;

		for (uint32_t e = 0; e < masks->nexceptions; e++)
			not_ascii_only |= exceptions[e].mask;
		for (uint32_t i = 0; i <= segs[s].nchars; i++)
		{
			GlSieve		candidate = {};
			int			score;

			if (i < segs[s].nchars && ((not_ascii_only >> i) & 1) == 0)
			{
				run++;
				continue;
			}
			/* a maximal run ends before position i */
			score = run >= 2 ? gl_choose_probes(masks, i - run, run, NULL, &candidate) : INT32_MAX;
			if (score < best_score || (score == best_score && score != INT32_MAX &&
									   run > best_len))
			{
				best_score = score;
				best_masks = masks;
				best_seg = s;
				best_start = i - run;
				best_len = run;
				*sv = candidate;
			}
			run = 0;
		}
	}
	if (best_score == INT32_MAX)
		return;
	/* the run itself: the pattern, when it is one segment made of it alone */
	pp->skim_exact = !prefilter && like->nsegments == 1 && best_len == segs[best_seg].nchars;
	if (!pp->skim_exact && best_len < MIN_RUN_CHARS)
		return;
	memset(sv->accept, 0, sizeof(sv->accept));
	for (int b = 1; b < 128; b++)
		sv->accept[b] = (best_masks->ascii[b] >> best_start) &
			(best_len == 64 ? UINT64_MAX : (UINT64_C(1) << best_len) - 1);
	sv->nchars = best_len;
	pp->sieve_masks = best_masks;
	pp->sieve_start = best_start;
	sv->anchored_start = pp->skim_exact && like->anchored_start;
	sv->anchored_end = pp->skim_exact && like->anchored_end;
	if (sv->anchored_start)
		choose_row_start_probes(best_masks, best_start, best_len, sv);
	sv->window = 0;
	sv->window_masked = 0;
	if (pp->skim_exact)
		choose_window(best_masks, best_start, best_len, sv);
	pp->skim = GL_SKIM_SIEVE;
}
