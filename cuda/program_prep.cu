/*-------------------------------------------------------------------------
 *
 * program_prep.cu
 *	  Preparing a program for the kernels (program_prep.h).
 *
 * Validation.  Programs come from our own compiler, but a kernel that
 * trusted a bad offset would read outside shared memory, so every section
 * and every table entry used as an index is checked once here, on the host;
 * after that the device code needs no bounds checks.
 *
 * Derived tables (appended to the blob, copied into shared memory with it;
 * a blob larger than shared memory is read in place from global memory):
 *	MULTI	folded[s * nclasses + c] = next * nclasses | accept(next) << 31:
 *			one load per byte instead of three.
 *	DFA		folded[s * 128 + b] = next state for ASCII byte b, with that
 *			state's ACCEPT / DEAD flags in bits 14 and 15: ASCII text costs
 *			one load per byte, without the color lookup.
 *
 * The byte DFA (byte_dfa.cu) is built for every program except a LIKE
 * pattern that the sieve answers alone, capped by what fits the stream
 * kernel's shared memory; above the cap the skims and the per-row kernels
 * run instead.  Automata of up to GL_BYTE_DFA_COMPACT_STATES states also
 * get the compact table (one byte per entry, byte_dfa.h), which the
 * stream kernel steps with fewer instructions.  Aho–Corasick has a
 * tighter cap on the wide table: a large one leaves room for fewer blocks
 * per SM, and the AC skim then wins (H200, wide table: 18 states streamed
 * at 1.23 TB/s, 108 states at 0.63 TB/s, while 200 literals on the AC
 * skim ran at 0.91 TB/s); up to MULTI_WIDE_MAX_STATES it costs no
 * occupancy.  The compact table streams every automaton it holds, since
 * its flag stuck (H100, 20 literals, 97 states: 45.8% of the read
 * bandwidth, the skim 41.8%; its first form had lost, 108 states at 0.86
 * TB/s against the skim's 1.09 on the H200).
 *
 * The sieve (kernels_sieve.cu) for LIKE: see choose_like_sieve().  A
 * regex's prefilter (program.h: '%literal%', every match contains the
 * literal) gets the sieve too, never exact: where the byte DFA does not
 * fit, or the caller says the literal is rare in the column (sieve_first:
 * then no byte DFA is built), the sieve flags the chunks that have the
 * literal and the per-row kernel runs the automaton on their rows.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "program_prep.h"
#include "cuda_check.h"
#include "row_matchers.cuh"

extern "C"
{
#include "program/byte_frequency.h"
}

static const uint32_t MIN_RUN_CHARS = 3;
/* gl_byte_commonness() of a probe that tells nothing (above any byte's) */
static const int PROBE_NOTHING = 300;
static const uint64_t MAX_BLOB_BYTES = 1 << 30;
static const uint32_t MULTI_WIDE_MAX_STATES = 48;

/* Does [off, off + count * size) lie inside the blob? */
static bool
section_ok(const GlProgram *prog, uint64_t off, uint64_t count, uint64_t size)
{
	return off <= prog->total_size && count * size <= prog->total_size - off;
}

static const void *
section(const GlProgram *prog, uint32_t off)
{
	return (const char *) prog + off;
}

static bool
like_ok(const GlProgram *prog)
{
	const GlLikeProgram *like = &prog->u.like;
	const GlLikeSegment *segs;

	if (!section_ok(prog, like->segments_off, like->nsegments, sizeof(GlLikeSegment)))
		return false;
	segs = (const GlLikeSegment *) section(prog, like->segments_off);
	for (uint32_t s = 0; s < like->nsegments; s++)
	{
		const GlCharMasks *masks;

		if (segs[s].nchars < 1 || segs[s].nchars > GL_MAX_SEGMENT_CHARS ||
			!section_ok(prog, segs[s].masks_off, 1, sizeof(GlCharMasks)))
			return false;
		masks = (const GlCharMasks *) section(prog, segs[s].masks_off);
		if (!section_ok(prog, masks->exceptions_off, masks->nexceptions, sizeof(GlCodepointMask)))
			return false;
	}
	return true;
}

/* A DFA program's prefilter, a LIKE program nested in it; NULL if none. */
static const GlProgram *
prefilter_of(const GlProgram *prog)
{
	uint32_t	off = prog->u.dfa.prefilter_off;
	const GlProgram *nested;

	if (off == 0 || off % 8 != 0 || !section_ok(prog, off, 1, sizeof(GlProgram)))
		return NULL;
	nested = (const GlProgram *) section(prog, off);
	if (nested->magic != GL_PROGRAM_MAGIC || nested->kind != GL_PROG_LIKE ||
		nested->total_size < sizeof(GlProgram) || !section_ok(prog, off, nested->total_size, 1) ||
		!like_ok(nested))
		return NULL;
	return nested;
}

static bool
multi_ok(const GlProgram *prog)
{
	const GlMultiProgram *multi = &prog->u.multi;
	const uint8_t *byte_class;
	const uint16_t *next;

	if (multi->nstates < 1 || multi->nclasses < 1 || multi->nclasses > 256 ||
		!section_ok(prog, multi->byte_class_off, 256, 1) ||
		!section_ok(prog, multi->next_off, (uint64_t) multi->nstates * multi->nclasses, 2) ||
		!section_ok(prog, multi->accept_off, multi->nstates, 1))
		return false;
	byte_class = (const uint8_t *) section(prog, multi->byte_class_off);
	next = (const uint16_t *) section(prog, multi->next_off);
	for (int b = 0; b < 256; b++)
		if (byte_class[b] >= multi->nclasses)
			return false;
	for (uint64_t i = 0; i < (uint64_t) multi->nstates * multi->nclasses; i++)
		if (next[i] >= multi->nstates)
			return false;
	return true;
}

static bool
dfa_ok(const GlProgram *prog)
{
	const GlDfaProgram *dfa = &prog->u.dfa;
	const uint16_t *trans;
	const uint16_t *ascii_color;
	const GlColorRange *ranges;

	if (dfa->nstates < 1 || dfa->ncolors < 1 || dfa->start_state >= dfa->nstates ||
		dfa->default_color >= dfa->ncolors ||
		!section_ok(prog, dfa->trans_off, (uint64_t) dfa->nstates * dfa->ncolors, 2) ||
		!section_ok(prog, dfa->flags_off, dfa->nstates, 1) ||
		!section_ok(prog, dfa->ascii_color_off, 128, 2) ||
		!section_ok(prog, dfa->ranges_off, dfa->nranges, sizeof(GlColorRange)))
		return false;
	trans = (const uint16_t *) section(prog, dfa->trans_off);
	ascii_color = (const uint16_t *) section(prog, dfa->ascii_color_off);
	ranges = (const GlColorRange *) section(prog, dfa->ranges_off);
	for (uint64_t i = 0; i < (uint64_t) dfa->nstates * dfa->ncolors; i++)
		if (trans[i] >= dfa->nstates)
			return false;
	for (int c = 0; c < 128; c++)
		if (ascii_color[c] >= dfa->ncolors)
			return false;
	for (uint32_t r = 0; r < dfa->nranges; r++)
		if (ranges[r].color >= dfa->ncolors)
			return false;
	return true;
}

/* Allocate the device blob: the program, then aux_bytes of derived table. */
static bool
alloc_blob(const GlProgram *prog, uint64_t aux_bytes, size_t shared_limit,
		   GlPreparedProgram *pp, char *errbuf, size_t errlen)
{
	uint64_t	prog_bytes = gl_program_align(prog->total_size);
	uint64_t	total = prog_bytes + gl_program_align(aux_bytes);

	if (total > MAX_BLOB_BYTES)
		return gl_cuda_fail("program too large for the GPU engine", errbuf, errlen);
	pp->in_shared = total <= shared_limit;
	pp->blob = (uint64_t *) calloc(total / 8, 8);
	if (pp->blob == NULL)
		return gl_cuda_fail("out of host memory preparing a program", errbuf, errlen);
	memcpy(pp->blob, prog, prog->total_size);
	pp->blob_bytes = (uint32_t) total;
	pp->aux_off = (uint32_t) prog_bytes;
	return true;
}

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
	uint32_t	n = 0;

	for (uint32_t p = 0; p + gap < pairs->text_bytes; p++)
		if ((pairs->text[p] & mask[0]) == value[0])
			n += (pairs->text[p + 1] & mask[1]) == value[1] &&
				(pairs->text[p + gap] & mask[2]) == value[2];
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
static int
choose_probes(const GlCharMasks *masks, uint32_t start, uint32_t len,
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
 * anchors' separators (kernels.h), when every position of the run has an
 * exact test; else the sieve keeps its probes and verifies candidates.
 * Short runs are the ones common in text ('%final%' matches one comment
 * row in twenty), where verifying candidates cost more than comparing the
 * window in registers (kernels_sieve.cu).
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
static void
choose_like_sieve(const GlProgram *prog, bool prefilter, GlPreparedProgram *pp)
{
	const GlLikeProgram *like = &prog->u.like;
	const GlLikeSegment *segs = (const GlLikeSegment *) section(prog, like->segments_off);
	const GlCharMasks *best_masks = NULL;
	uint32_t	best_seg = 0;
	uint32_t	best_start = 0;
	uint32_t	best_len = 0;
	int			best_score = INT32_MAX;
	GlSieve    *sv = &pp->sieve;

	for (uint32_t s = 0; s < like->nsegments; s++)
	{
		const GlCharMasks *masks = (const GlCharMasks *) section(prog, segs[s].masks_off);
		const GlCodepointMask *exceptions =
			(const GlCodepointMask *) section(prog, masks->exceptions_off);
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
			score = run >= 2 ? choose_probes(masks, i - run, run, NULL, &candidate) : INT32_MAX;
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
	if (pp->skim_exact)
		choose_window(best_masks, best_start, best_len, sv);
	pp->skim = GL_SKIM_SIEVE;
}

/* Longest literal = deepest state, by breadth-first search from the root. */
static uint32_t
multi_depth(const GlProgram *prog)
{
	const GlMultiProgram *multi = &prog->u.multi;
	const uint16_t *next = (const uint16_t *) section(prog, multi->next_off);
	uint32_t   *depth = (uint32_t *) malloc(multi->nstates * sizeof(uint32_t));
	uint32_t   *queue = (uint32_t *) malloc(multi->nstates * sizeof(uint32_t));
	uint32_t	head = 0,
				tail = 0,
				deepest = 0;

	if (depth == NULL || queue == NULL)
	{
		free(depth);
		free(queue);
		return UINT32_MAX;
	}
	for (uint32_t s = 0; s < multi->nstates; s++)
		depth[s] = UINT32_MAX;
	depth[0] = 0;
	queue[tail++] = 0;
	while (head < tail)
	{
		uint32_t	s = queue[head++];

		deepest = depth[s];
		for (uint32_t c = 0; c < multi->nclasses; c++)
		{
			uint32_t	t = next[(size_t) s * multi->nclasses + c];

			if (depth[t] == UINT32_MAX)
			{
				depth[t] = depth[s] + 1;
				queue[tail++] = t;
			}
		}
	}
	free(depth);
	free(queue);
	return deepest;
}

static bool
prepare_multi(const GlProgram *prog, size_t shared_limit, GlPreparedProgram *pp,
			  char *errbuf, size_t errlen)
{
	const GlMultiProgram *multi = &prog->u.multi;
	const uint16_t *next = (const uint16_t *) section(prog, multi->next_off);
	const uint8_t *accept = (const uint8_t *) section(prog, multi->accept_off);
	uint64_t	entries = (uint64_t) multi->nstates * multi->nclasses;
	uint32_t   *folded;
	uint32_t	depth;

	if (entries >= (UINT64_C(1) << 31))
		return gl_cuda_fail("Aho-Corasick program too large for the GPU engine", errbuf, errlen);
	if (!alloc_blob(prog, entries * sizeof(uint32_t), shared_limit, pp, errbuf, errlen))
		return false;
	folded = (uint32_t *) ((char *) pp->blob + pp->aux_off);
	for (uint64_t i = 0; i < entries; i++)
		folded[i] = next[i] * multi->nclasses | (uint32_t) (accept[next[i]] != 0) << 31;
	depth = multi_depth(prog);
	if (depth == UINT32_MAX)
		return gl_cuda_fail("out of host memory preparing a program", errbuf, errlen);
	if (!accept[0])
	{
		pp->skim = GL_SKIM_MULTI;
		pp->skim_exact = true;
		pp->warmup_bytes = (depth + 15) / 16 * 16;
	}
	return true;
}

static bool
prepare_dfa(const GlProgram *prog, size_t shared_limit, GlPreparedProgram *pp,
			char *errbuf, size_t errlen)
{
	const GlDfaProgram *dfa = &prog->u.dfa;
	const uint16_t *trans = (const uint16_t *) section(prog, dfa->trans_off);
	const uint8_t *flags = (const uint8_t *) section(prog, dfa->flags_off);
	const uint16_t *ascii_color = (const uint16_t *) section(prog, dfa->ascii_color_off);
	uint16_t   *folded;

	if (dfa->nstates > GL_DFA_FOLD_MAX_STATES)
		return gl_cuda_fail("regex DFA has too many states for the GPU engine", errbuf, errlen);
	if (!alloc_blob(prog, (uint64_t) dfa->nstates * 128 * sizeof(uint16_t), shared_limit,
					pp, errbuf, errlen))
		return false;
	folded = (uint16_t *) ((char *) pp->blob + pp->aux_off);
	for (uint32_t s = 0; s < dfa->nstates; s++)
		for (uint32_t b = 0; b < 128; b++)
		{
			uint32_t	t = trans[(size_t) s * dfa->ncolors + ascii_color[b]];

			folded[s * 128 + b] = (uint16_t) (t |
											  ((flags[t] & GL_DFA_ACCEPT) ? GL_DFA_FOLD_ACCEPT : 0) |
											  ((flags[t] & GL_DFA_DEAD) ? GL_DFA_FOLD_DEAD : 0));
		}
	return true;
}

/*
 * The byte DFA, where it fits, and its compact table where the automaton
 * has one that fits; a program without either is still run exactly.
 */
static void
try_byte_dfa(const GlProgram *prog, size_t shared_limit, uint32_t max_states,
			 bool compact_ok, bool sieve_first, GlPreparedProgram *pp)
{
	uint32_t	limit = shared_limit > UINT32_MAX ? UINT32_MAX : (uint32_t) shared_limit;
	uint32_t	fit = gl_stream_max_states(limit, false);
	uint32_t	compact_fit = 0;
	uint32_t	cap;

	if (pp->skim == GL_SKIM_SIEVE && (pp->skim_exact || sieve_first))
		return;
	if (compact_ok)
	{
		compact_fit = gl_stream_max_states(limit, true);
		if (compact_fit > GL_BYTE_DFA_COMPACT_STATES)
			compact_fit = GL_BYTE_DFA_COMPACT_STATES;
	}
	if (pp->skim == GL_SKIM_MULTI && fit > MULTI_WIDE_MAX_STATES)
		fit = MULTI_WIDE_MAX_STATES;
	/* the compact table takes half the room per state */
	cap = fit > compact_fit ? fit : compact_fit;
	if (!gl_byte_dfa_for(prog, max_states < cap ? max_states : cap, &pp->byte_dfa))
		return;
	pp->compact = pp->byte_dfa.compact != NULL && pp->byte_dfa.nstates <= compact_fit;
	/* without the compact table (no memory for it): the wide one, if it fits */
	if (!pp->compact && pp->byte_dfa.nstates > fit)
		gl_byte_dfa_free(&pp->byte_dfa);
}

static bool
prepare_kind(const GlProgram *prog, size_t shared_limit, GlPreparedProgram *pp,
			 char *errbuf, size_t errlen)
{
	if (prog == NULL || prog->magic != GL_PROGRAM_MAGIC || prog->total_size < sizeof(GlProgram))
		return gl_cuda_fail("not a gpulike program", errbuf, errlen);
	pp->kind = (GlProgramKind) prog->kind;
	switch (pp->kind)
	{
		case GL_PROG_LIKE:
			if (!like_ok(prog))
				break;
			if (!alloc_blob(prog, 0, shared_limit, pp, errbuf, errlen))
				return false;
			choose_like_sieve(prog, false, pp);
			return true;
		case GL_PROG_MULTI:
			if (!multi_ok(prog))
				break;
			return prepare_multi(prog, shared_limit, pp, errbuf, errlen);
		case GL_PROG_DFA:
			if (!dfa_ok(prog) || (prog->u.dfa.prefilter_off != 0 && prefilter_of(prog) == NULL))
				break;
			if (!prepare_dfa(prog, shared_limit, pp, errbuf, errlen))
				return false;
			if (prog->u.dfa.prefilter_off != 0)
				choose_like_sieve(prefilter_of(prog), true, pp);
			return true;
	}
	return gl_cuda_fail("malformed gpulike program", errbuf, errlen);
}

bool
gl_prepare_program_with(const GlProgram *prog, size_t shared_limit,
						const GlPrepareChoices *choices, GlPreparedProgram *pp,
						char *errbuf, size_t errlen)
{
	memset(pp, 0, sizeof(*pp));
	if (!prepare_kind(prog, shared_limit, pp, errbuf, errlen))
		return false;
	try_byte_dfa(prog, shared_limit, choices->max_stream_states, choices->compact_ok,
				 choices->sieve_first, pp);
	/* a sieve that runs on its probes takes them from the column's text */
	if (pp->skim == GL_SKIM_SIEVE && (pp->skim_exact || pp->byte_dfa.nstates == 0) &&
		pp->sieve.window == 0 && pp->sieve.probe_pos >= 0 && choices->pairs != NULL)
		choose_probes(pp->sieve_masks, pp->sieve_start, pp->sieve.nchars, choices->pairs,
					  &pp->sieve);
	return true;
}

bool
gl_prepare_program(const GlProgram *prog, size_t shared_limit, uint32_t max_stream_states,
				   GlPreparedProgram *pp, char *errbuf, size_t errlen)
{
	GlPrepareChoices choices = {max_stream_states, true, false, NULL};

	return gl_prepare_program_with(prog, shared_limit, &choices, pp, errbuf, errlen);
}

void
gl_stream_table_host(const GlPreparedProgram *pp, GlStreamTable *table)
{
	table->compact = pp->compact;
	if (pp->compact)
	{
		table->table = pp->byte_dfa.compact;
		table->bytes = gl_byte_dfa_compact_bytes(pp->byte_dfa.nstates);
	}
	else
	{
		table->table = pp->byte_dfa.table;
		table->bytes = pp->byte_dfa.nstates * 256 * sizeof(uint32_t);
	}
}

void
gl_prepared_free(GlPreparedProgram *pp)
{
	free(pp->blob);
	pp->blob = NULL;
	pp->compact = false;
	gl_byte_dfa_free(&pp->byte_dfa);
}
