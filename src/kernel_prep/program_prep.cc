/*-------------------------------------------------------------------------
 *
 * program_prep.cc
 *	  Preparing a program for the kernels (program_prep.h).
 *
 * Validation.  Programs come from our own compiler, but a kernel that
 * trusted a bad offset would read outside shared memory, so every section
 * and every table entry used as an index is checked once here, on the host;
 * after that the device code needs no bounds checks.
 *
 * Derived tables (folded_tables.h), appended to the blob for the skim and
 * the per-row kernel, so only where no stream kernel runs or where the
 * per-row kernel decides a factored automaton's candidates (elsewhere the
 * blob is the program alone).
 *
 * The byte DFA (byte_dfa.cc) is built for every program except a LIKE
 * pattern that the sieve answers alone, capped by what fits the stream
 * kernel's shared memory; above the cap the skims and the per-row kernels
 * run instead.  Automata of up to GL_BYTE_DFA_COMPACT_STATES states also
 * get the compact table (one byte per entry, byte_dfa.h), which the
 * stream kernel steps with fewer instructions; the others, up to
 * GL_BYTE_DFA_WIDE_STATES, the wide table (two bytes per entry, made here
 * when it is the one taken).  Aho–Corasick had a tighter cap on the
 * wide table (48 states) while that table had 32-bit entries and one
 * launch shape (H200: 18 states streamed at 1.23 TB/s, 108 states at
 * 0.63 TB/s, 200 literals on the AC skim at 0.91 TB/s); with two-byte
 * entries and the launch shape fitted to the table, 40 literals (165
 * states) stream at 42.3-42.4% of the read bandwidth on the wide table
 * against 36.5-36.7% on the classed one (H200); where their literals keep
 * to printable ASCII they take the windowed table instead (173 states:
 * 45.8-46.6% against 44.0-44.4% on the wide one).  The compact table
 * streams every automaton it holds, since its flag stuck (H100, 20
 * literals, 97 states: 45.8% of the read bandwidth, the skim 41.8%; its
 * first form had lost, 108 states at 0.86 TB/s against the skim's 1.09
 * on the H200).  An Aho–Corasick automaton past the compact table streams
 * over its byte classes where that table fits (classed_table.h: H100, 200
 * literals, 752 states, 46.1-46.6% against the skim's 42.5-43.0); the
 * skim takes the larger ones.
 *
 * An Aho–Corasick automaton that streams on the wide or the classed table
 * gets the set sieve before the stream kernel where its literals are rare
 * in the column's sample (literal_set.cc).
 *
 * The sieve (cuda/kernels_sieve.cu) for LIKE: see sieve_choice.cc.  A
 * regex's prefilter (program.h: '%literal%', every match contains the
 * literal) gets the sieve too, never exact: where the byte DFA does not
 * fit, or the caller says the literal is rare in the column (sieve_first:
 * then no byte DFA is built), the sieve flags the chunks that have the
 * literal and the per-row kernel runs the automaton on their rows.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include <stdio.h>

#include "kernel_prep/folded_tables.h"
#include "kernel_prep/literal_factors.h"
#include "kernel_prep/program_prep.h"
#include "kernel_prep/sieve_choice.h"

static const uint64_t MAX_BLOB_BYTES = 1 << 30;

/* A preparation refused: the message into errbuf, for the server's log. */
static bool
prep_fail(const char *message, char *errbuf, size_t errlen)
{
	if (errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "%s", message);
	return false;
}

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
	GlMultiTables tables;

	if (multi->nstates < 1 || multi->nclasses < 1 || multi->nclasses > 256 ||
		!section_ok(prog, multi->byte_class_off, 256, 1) ||
		!section_ok(prog, multi->next_off, (uint64_t) multi->nstates * multi->nclasses, 2) ||
		!section_ok(prog, multi->accept_off, multi->nstates, 1))
		return false;
	tables = gl_multi_tables(prog);
	for (int b = 0; b < 256; b++)
		if (tables.byte_class[b] >= tables.nclasses)
			return false;
	for (uint64_t i = 0; i < (uint64_t) tables.nstates * tables.nclasses; i++)
		if (tables.next[i] >= tables.nstates)
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
		return prep_fail("program too large for the GPU engine", errbuf, errlen);
	free(pp->blob);
	pp->in_shared = total <= shared_limit;
	pp->blob = (uint64_t *) calloc(total / 8, 8);
	if (pp->blob == NULL)
		return prep_fail("out of host memory preparing a program", errbuf, errlen);
	memcpy(pp->blob, prog, prog->total_size);
	pp->blob_bytes = (uint32_t) total;
	pp->aux_off = (uint32_t) prog_bytes;
	return true;
}

/* Longest literal = deepest state, by breadth-first search from the root. */
static uint32_t
multi_depth(const GlProgram *prog)
{
	GlMultiTables m = gl_multi_tables(prog);
	uint32_t   *depth = (uint32_t *) malloc(m.nstates * sizeof(uint32_t));
	uint32_t   *queue = (uint32_t *) malloc(m.nstates * sizeof(uint32_t));
	uint32_t	head = 0,
				tail = 0,
				deepest = 0;

	if (depth == NULL || queue == NULL)
	{
		free(depth);
		free(queue);
		return UINT32_MAX;
	}
	for (uint32_t s = 0; s < m.nstates; s++)
		depth[s] = UINT32_MAX;
	depth[0] = 0;
	queue[tail++] = 0;
	while (head < tail)
	{
		uint32_t	s = queue[head++];

		deepest = depth[s];
		for (uint32_t c = 0; c < m.nclasses; c++)
		{
			uint32_t	t = m.next[(size_t) s * m.nclasses + c];

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

/* The skim's folded table (the blob's derived table). */
static bool
fold_multi(const GlProgram *prog, size_t shared_limit, GlPreparedProgram *pp,
		   char *errbuf, size_t errlen)
{
	GlMultiTables m = gl_multi_tables(prog);
	uint64_t	entries = (uint64_t) m.nstates * m.nclasses;
	uint32_t   *folded;

	if (entries >= (UINT64_C(1) << 31))
		return prep_fail("Aho-Corasick program too large for the GPU engine", errbuf, errlen);
	if (!alloc_blob(prog, entries * sizeof(uint32_t), shared_limit, pp, errbuf, errlen))
		return false;
	folded = (uint32_t *) ((char *) pp->blob + pp->aux_off);
	for (uint64_t i = 0; i < entries; i++)
		folded[i] = m.next[i] * m.nclasses | (uint32_t) (m.accept[m.next[i]] != 0) << 31;
	return true;
}

static bool
prepare_multi(const GlProgram *prog, size_t shared_limit, GlPreparedProgram *pp,
			  char *errbuf, size_t errlen)
{
	const uint8_t *accept = gl_multi_tables(prog).accept;
	uint32_t	depth;

	if (!alloc_blob(prog, 0, shared_limit, pp, errbuf, errlen))
		return false;
	depth = multi_depth(prog);
	if (depth == UINT32_MAX)
		return prep_fail("out of host memory preparing a program", errbuf, errlen);
	if (!accept[0])
	{
		pp->skim = GL_SKIM_MULTI;
		pp->skim_exact = true;
		pp->warmup_bytes = (depth + 15) / 16 * 16;
	}
	return true;
}

/* The per-row kernel's folded table (the blob's derived table). */
static bool
fold_dfa(const GlProgram *prog, size_t shared_limit, GlPreparedProgram *pp,
		 char *errbuf, size_t errlen)
{
	const GlDfaProgram *dfa = &prog->u.dfa;
	const uint16_t *trans = (const uint16_t *) section(prog, dfa->trans_off);
	const uint8_t *flags = (const uint8_t *) section(prog, dfa->flags_off);
	const uint16_t *ascii_color = (const uint16_t *) section(prog, dfa->ascii_color_off);
	uint16_t   *folded;

	if (dfa->nstates > GL_DFA_FOLD_MAX_STATES)
		return prep_fail("regex DFA has too many states for the GPU engine", errbuf, errlen);
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
 * The compact table renumbered for the banks on the column's text where it
 * was sampled (compact_for_text.cc), in as many rows as the room allows.
 */
static void
number_compact_for_text(const GlBytePairs *pairs, uint32_t limit, GlPreparedProgram *pp)
{
	uint32_t	nrows = gl_byte_dfa_compact_bytes(pp->byte_dfa.nstates) /
		GL_BYTE_DFA_COMPACT_ROW_BYTES;
	uint32_t	rows;
	uint8_t    *numbered;

	pp->compact_bytes = nrows * GL_BYTE_DFA_COMPACT_ROW_BYTES;
	numbered = gl_compact_for_text(pp->byte_dfa.compact, nrows,
								   pairs != NULL ? pairs->text : NULL,
								   pairs != NULL ? pairs->text_bytes : 0,
								   gl_stream_table_room(limit) / GL_BYTE_DFA_COMPACT_ROW_BYTES,
								   &rows);
	if (numbered == NULL)
		return;					/* no sample, or no memory: the fixed numbering,
								 * as exact, with more bank conflicts */
	free(pp->byte_dfa.compact);
	pp->byte_dfa.compact = numbered;
	pp->compact_bytes = rows * GL_BYTE_DFA_COMPACT_ROW_BYTES;
}

/*
 * The byte DFA, where it fits, and its compact table where the automaton
 * has one that fits; a program without either is still run exactly.
 */
static void
try_byte_dfa(const GlProgram *prog, size_t shared_limit, uint32_t max_states,
			 bool compact_ok, bool sieve_first, const GlBytePairs *pairs,
			 GlPreparedProgram *pp)
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
	/* the compact table takes half the room per state */
	cap = fit > compact_fit ? fit : compact_fit;
	if (!gl_byte_dfa_for(prog, max_states < cap ? max_states : cap, &pp->byte_dfa))
		return;
	pp->compact = pp->byte_dfa.compact != NULL && pp->byte_dfa.nstates <= compact_fit;
	if (pp->compact)
		number_compact_for_text(pairs, limit, pp);
	/*
	 * A prepared program lives in the program cache: only the table the
	 * stream kernel copies stays (the 32-bit table took up to 255 kB, a
	 * compact table the wide one replaced 127 kB).
	 */
	if (!pp->compact)
	{
		/* without the compact table (no memory for it): the wide one, if it fits */
		if (pp->byte_dfa.nstates <= fit)
			pp->wide = gl_byte_dfa_wide_table(&pp->byte_dfa);
		if (pp->wide == NULL)
		{
			gl_byte_dfa_free(&pp->byte_dfa);
			return;
		}
		free(pp->byte_dfa.compact);
		pp->byte_dfa.compact = NULL;
	}
	free(pp->byte_dfa.table);
	pp->byte_dfa.table = NULL;
}

/*
 * An Aho–Corasick automaton past the compact table: its classed table,
 * where it fits, its states numbered for the banks on the column's sample
 * text, if any (classed_table.h).  With no byte DFA (past the wide table
 * too) in either form, so the stream kernel decides rows instead of the
 * skim reporting every literal; beside a wide table only in the windowed
 * form, which then replaces it: one shared load a byte, not a two-byte
 * load and a funnel shift, and a third of the room (H200,
 * test/kernels/kernel_bench's 40 literals, 173 states: 44.0-44.4 ->
 * 45.8-46.6% of the read bandwidth in the whole bench, 46.1-46.5 ->
 * 47.5-47.7 with the other Aho–Corasick classes).  The classed form, two
 * loads a byte, lost to the wide table (40 literals: 36.5-36.7 against
 * 42.3-42.4%).
 */
static void
try_classed_table(const GlProgram *prog, size_t shared_limit, uint32_t max_states,
				  const GlBytePairs *pairs, GlPreparedProgram *pp)
{
	uint32_t	limit = shared_limit > UINT32_MAX ? UINT32_MAX : (uint32_t) shared_limit;
	bool		beside_wide = pp->byte_dfa.nstates > 0;
	GlClassedTable classed;

	if (pp->skim != GL_SKIM_MULTI || pp->compact ||
		!gl_build_classed_table(prog, gl_stream_table_room(limit), true,
								pairs != NULL ? pairs->text : NULL,
								pairs != NULL ? pairs->text_bytes : 0, &classed))
		return;
	if (classed.nstates > max_states || (beside_wide && classed.window_flip == 0))
	{
		gl_classed_table_free(&classed);
		return;
	}
	if (beside_wide)
	{
		free(pp->wide);
		pp->wide = NULL;
		gl_byte_dfa_free(&pp->byte_dfa);
	}
	pp->classed = classed;
}

/* The table a factored automaton replaced (GlPreparedProgram). */
static void
free_replaced(GlPreparedProgram *pp)
{
	gl_classed_table_free(&pp->replaced_classed);
	free(pp->replaced_wide);
	pp->replaced_wide = NULL;
	pp->replaced_wide_states = 0;
}

/*
 * An Aho–Corasick automaton past the compact table, where its literals
 * rare in the column leave, looked for by a factor each, one that fits the
 * compact table (literal_factors.h): the stream kernel on that, and the
 * per-row kernel on the candidates' rows, its tables in the blob; the
 * table it replaces is kept for the columns where the candidates are too
 * many for the per-row kernel (the sample missed the factors), and is the
 * whole preparation once the column has shown that (choices->unfactored:
 * cuda/program_cache.cu).  H200,
 * kernel_bench, % of the read bandwidth, the windowed table -> factored:
 * 40 literals 47.4-47.5 -> 55.9-56.0, 200 43.8-43.9 -> 51.4-51.7, 200 of
 * letters 44.7-44.9 -> 51.6-51.8 (literal_factors.cc).  Where the set
 * sieve runs first its literals are rare all together: it keeps its place
 * (200 made-up literals: 56.8%).
 */
static void
try_factored(const GlProgram *prog, size_t shared_limit, const GlPrepareChoices *choices,
			 GlPreparedProgram *pp)
{
	uint32_t	limit = shared_limit > UINT32_MAX ? UINT32_MAX : (uint32_t) shared_limit;
	uint32_t	compact_fit = std::min(gl_stream_max_states(limit, true),
									   choices->max_stream_states);
	const GlBytePairs *pairs = choices->pairs;
	GlByteDfa	factored;
	uint32_t	nfactored;

	if (pp->kind != GL_PROG_MULTI || !choices->compact_ok || choices->unfactored ||
		pp->compact || pp->literal_set != NULL ||
		(pp->wide == NULL && pp->classed.nstates == 0) ||
		!gl_factor_literals(prog, pairs, compact_fit, &factored, &nfactored))
		return;
	pp->replaced_classed = pp->classed;
	memset(&pp->classed, 0, sizeof(pp->classed));
	pp->replaced_wide = pp->wide;
	pp->replaced_wide_states = pp->wide != NULL ? pp->byte_dfa.nstates : 0;
	pp->wide = NULL;
	gl_byte_dfa_free(&pp->byte_dfa);
	pp->byte_dfa = factored;
	pp->compact = true;
	number_compact_for_text(pairs, limit, pp);
	free(pp->byte_dfa.table);
	pp->byte_dfa.table = NULL;
	pp->candidate = gl_compact_candidate(pp->byte_dfa.compact,
										 pp->compact_bytes / GL_BYTE_DFA_COMPACT_ROW_BYTES);
	if (pp->candidate == GL_COMPACT_NO_CANDIDATE)
	{
		/* never, by construction: then the skim, exact alone */
		gl_byte_dfa_free(&pp->byte_dfa);
		free_replaced(pp);
		pp->compact = false;
		return;
	}
	pp->factored = nfactored;
}

static bool
prepare_kind(const GlProgram *prog, size_t shared_limit, GlPreparedProgram *pp,
			 char *errbuf, size_t errlen)
{
	if (prog == NULL || prog->magic != GL_PROGRAM_MAGIC || prog->total_size < sizeof(GlProgram))
		return prep_fail("not a gpulike program", errbuf, errlen);
	pp->kind = (GlProgramKind) prog->kind;
	switch (pp->kind)
	{
		case GL_PROG_LIKE:
			if (!like_ok(prog))
				break;
			if (!alloc_blob(prog, 0, shared_limit, pp, errbuf, errlen))
				return false;
			gl_choose_like_sieve(prog, false, pp);
			return true;
		case GL_PROG_MULTI:
			if (!multi_ok(prog))
				break;
			return prepare_multi(prog, shared_limit, pp, errbuf, errlen);
		case GL_PROG_DFA:
			if (!dfa_ok(prog) || (prog->u.dfa.prefilter_off != 0 && prefilter_of(prog) == NULL))
				break;
			if (!alloc_blob(prog, 0, shared_limit, pp, errbuf, errlen))
				return false;
			if (prog->u.dfa.prefilter_off != 0)
				gl_choose_like_sieve(prefilter_of(prog), true, pp);
			return true;
	}
	return prep_fail("malformed gpulike program", errbuf, errlen);
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
				 choices->sieve_first, choices->pairs, pp);
	try_classed_table(prog, shared_limit, choices->max_stream_states, choices->pairs, pp);
	/*
	 * an Aho–Corasick automaton past the compact table: the set sieve
	 * first, where its literals are rare (cuda/kernels_set_sieve.cu)
	 */
	if (pp->kind == GL_PROG_MULTI &&
		((pp->byte_dfa.nstates > 0 && !pp->compact) || pp->classed.nstates > 0))
		pp->literal_set = gl_choose_literal_set(prog, choices->pairs);
	try_factored(prog, shared_limit, choices, pp);
	/*
	 * the skim's and the per-row kernel's tables, only where no stream
	 * kernel runs or the per-row kernel decides its candidates
	 */
	if ((pp->byte_dfa.nstates == 0 && pp->classed.nstates == 0) || pp->factored > 0)
	{
		if (pp->kind == GL_PROG_MULTI && !fold_multi(prog, shared_limit, pp, errbuf, errlen))
			return false;
		if (pp->kind == GL_PROG_DFA && !fold_dfa(prog, shared_limit, pp, errbuf, errlen))
			return false;
	}
	/* a sieve that runs on its probes takes them from the column's text */
	if (pp->skim == GL_SKIM_SIEVE && (pp->skim_exact || pp->byte_dfa.nstates == 0) &&
		pp->sieve.window == 0 && pp->sieve.probe_pos >= 0 && choices->pairs != NULL)
		gl_choose_probes(pp->sieve_masks, pp->sieve_start, pp->sieve.nchars, choices->pairs,
						 &pp->sieve);
	/* pp outlives the caller's program (cuda/program_cache.cu): its run is in pp's copy */
	if (pp->sieve_masks != NULL)
		pp->sieve_masks = (const GlCharMasks *) ((const char *) pp->blob +
												 ((const char *) pp->sieve_masks -
												  (const char *) prog));
	return true;
}

void
gl_prepared_free(GlPreparedProgram *pp)
{
	free(pp->blob);
	pp->blob = NULL;
	pp->compact = false;
	pp->compact_bytes = 0;
	free(pp->wide);
	pp->wide = NULL;
	gl_byte_dfa_free(&pp->byte_dfa);
	gl_classed_table_free(&pp->classed);
	free_replaced(pp);
	free(pp->literal_set);
	pp->literal_set = NULL;
	pp->factored = 0;
}

/* The plan of a prepared program (the table in program_prep.h). */
GlPlan
gl_prepared_plan(const GlPreparedProgram *pp)
{
	if (pp->skim == GL_SKIM_SIEVE && pp->skim_exact)
		return GL_PLAN_SIEVE;
	if (pp->byte_dfa.nstates > 0 || pp->classed.nstates > 0)
		return GL_PLAN_STREAM;
	if (pp->skim == GL_SKIM_MULTI)
		return GL_PLAN_SKIM;
	if (pp->skim == GL_SKIM_SIEVE)
		return GL_PLAN_SIEVE_ROWS;
	return GL_PLAN_ROWS;
}
