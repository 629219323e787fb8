/*-------------------------------------------------------------------------
 *
 * prep_cases.cc
 *	  The preparation's choices: the sieve's runs, probes and windows, the
 *	  folded tables, and which kernels and table forms a program is
 *	  planned with.
 *
 *-------------------------------------------------------------------------
 */
#include "prep_test.h"

/*
 * What the sieve computes from a prepared program, on the host: does the
 * run occur (with its anchors)?  And does every probe pass every byte its
 * position accepts?  Checked here by brute force, independently of the
 * kernel's bit tricks.
 */
static bool
sieve_found(const GlSieve *sv, const std::string &v)
{
	for (size_t p = 0; p + sv->nchars <= v.size(); p++)
	{
		bool		ok = (!sv->anchored_start || p == 0) &&
			(!sv->anchored_end || p + sv->nchars == v.size());

		for (uint32_t t = 0; ok && t < sv->nchars; t++)
		{
			unsigned char c = v[p + t];

			ok = c < 128 && ((sv->accept[c] >> t) & 1);
		}
		if (ok)
			return true;
	}
	return false;
}

static bool
sieve_probes_ok(const GlSieve *sv)
{
	int32_t		i = sv->probe_pos;
	int32_t		pos[3] = {i, i + 1, i + (int32_t) sv->probe_gap};
	int32_t		n = (int32_t) sv->nchars;

	if (n < 2 || sv->probe_gap < 1 || sv->probe_gap > GL_SIEVE_MAX_GAP || pos[2] >= n ||
		i < -1 || (i == -1 && !sv->anchored_start))
		return false;
	for (int k = 0; k < 3; k++)
		for (int c = 0; c < 128; c++)
		{
			/* -1: the separator before a run that starts its row */
			bool		accepted = pos[k] == -1 ? c == 0 :
				pos[k] < n && ((sv->accept[c] >> pos[k]) & 1);
			bool		passes = (c & (sv->probe_mask[k] & 0xFF)) == (sv->probe_value[k] & 0xFF);

			/* every accepted byte passes; past the run, everything passes */
			if ((accepted || pos[k] >= n) && !passes)
				return false;
		}
	return true;
}

/*
 * An exact sieve's window: the separator before the run when it is
 * anchored at the start, the run, the separator after it when anchored at
 * the end, each byte's test passing exactly what its position accepts;
 * said to be masked exactly when some byte's test has a mask (the kernel
 * for unmasked windows leaves the masks out).
 */
static bool
sieve_window_ok(const GlSieve *sv)
{
	bool		masked = false;

	if (sv->window != sv->anchored_start + sv->nchars + sv->anchored_end ||
		sv->window < 2 || sv->window > GL_SIEVE_MAX_WINDOW)
		return false;
	for (uint32_t o = 0; o < sv->window; o++)
	{
		int32_t		t = (int32_t) o - (int32_t) sv->anchored_start;

		masked |= (sv->window_mask[o] & 0xFF) != 0xFF;

		for (int c = 0; c < 256; c++)
		{
			bool		accepted = t < 0 || t >= (int32_t) sv->nchars ? c == 0 :
				c < 128 && ((sv->accept[c] >> t) & 1);
			bool		passes = (c & (sv->window_mask[o] & 0xFF)) == (sv->window_value[o] & 0xFF);

			if (accepted != passes)
				return false;
		}
	}
	return (sv->window_masked != 0) == masked;
}

/* The folded Aho-Corasick table of a prepared MULTI program, on the host. */
static bool
folded_multi_found(const GlProgram *prog, const GlPreparedProgram *pp, const std::string &v)
{
	const uint8_t *byte_class = gl_multi_tables(prog).byte_class;
	const uint32_t *folded = (const uint32_t *) ((const char *) pp->blob + pp->aux_off);
	uint32_t	state = 0;

	for (unsigned char c : v)
	{
		uint32_t	entry = folded[state + byte_class[c]];

		if (entry >> 31)
			return true;
		state = entry & 0x7FFFFFFF;
	}
	return false;
}

static std::string
random_value(void)
{
	return random_text(rnd(40), rnd(2));
}

/*
 * The skims' contracts, checked without a GPU: a LIKE sieve run occurs in every
 * value the CPU engine matches (and is the whole answer when marked exact);
 * a folded Aho-Corasick table answers like the CPU engine, and the warm-up
 * covers the longest literal.
 */
void
run_prep_cases(int n)
{
	char		err[256];
	int			checked = 0;
	int			windows = 0;
	std::string failure;

	for (int i = 0; i < n * 4 && failure.empty(); i++)
	{
		std::string pat = random_like_pattern(rnd(2));
		const char *error;
		GlProgram  *prog = gl_build_like(pat.data(), pat.size(), true,
										 rnd(2) ? NULL : test_case_class, NULL, &error);
		GlPreparedProgram pp;

		if (prog == NULL)
			continue;
		if (!gl_prepare_program(prog, 48 * 1024, 0, &pp, err, sizeof(err)))
			failure = "'" + pat + "' not prepared: " + err;
		else if (pp.skim == GL_SKIM_SIEVE && !sieve_probes_ok(&pp.sieve))
			failure = "'" + pat + "': a sieve probe rejects a byte its position accepts";
		else if (pp.skim == GL_SKIM_SIEVE && pp.sieve.window > 0 &&
				 (!pp.skim_exact || !sieve_window_ok(&pp.sieve)))
			failure = "'" + pat + "': the sieve's window is not its run's exact test";
		else if (pp.skim == GL_SKIM_SIEVE)
		{
			checked++;
			windows += pp.sieve.window > 0;
			for (int k = 0; k < 300 && failure.empty(); k++)
			{
				std::string v = random_value() + (rnd(2) ? pat : "") + random_value();
				bool		match = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());
				bool		found = sieve_found(&pp.sieve, v);

				if ((match && !found) || (pp.skim_exact && match != found))
					failure = "'" + pat + "' on '" + v + "': match " + std::to_string(match) +
						", sieve " + std::to_string(found);
			}
		}
		gl_prepared_free(&pp);
		free(prog);
	}
	tap(failure.empty() && checked > 0 && windows > 0 && windows < checked,
		"LIKE sieve runs are necessary (exact where marked) over " +
		std::to_string(checked) + " programs, " + std::to_string(windows) +
		" with an exact window" + (failure.empty() ? "" : ": " + failure));

	failure.clear();
	for (int i = 0; i < n && failure.empty(); i++)
	{
		int			nlit;
		bool		fold;
		size_t		longest;
		GlProgram  *prog = random_multi(&nlit, &fold, &longest);
		GlPreparedProgram pp;
		const uint8_t *accept;

		if (prog == NULL)
			continue;
		accept = gl_multi_tables(prog).accept;
		if (!gl_prepare_program(prog, 48 * 1024, 0, &pp, err, sizeof(err)))
			failure = std::string("MULTI not prepared: ") + err;
		else if (!accept[0] && (pp.skim != GL_SKIM_MULTI || pp.warmup_bytes < longest ||
								pp.warmup_bytes % 16 != 0))
			failure = "MULTI warm-up " + std::to_string(pp.warmup_bytes) + " bytes, longest literal " +
				std::to_string(longest);
		for (int k = 0; k < 300 && failure.empty() && !accept[0]; k++)
		{
			std::string v = random_value();
			bool		match = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());

			if (match != folded_multi_found(prog, &pp, v))
				failure = "folded Aho-Corasick differs on '" + v + "'";
		}
		gl_prepared_free(&pp);
		free(prog);
	}
	tap(failure.empty(), "folded Aho-Corasick tables" + (failure.empty() ? "" : ": " + failure));
}

/* Places of text where the sieve's three probes all pass. */
static uint32_t
probe_passes(const GlSieve *sv, const uint8_t *text, uint32_t n)
{
	uint32_t	passes = 0;

	for (uint32_t p = 0; p + sv->probe_gap < n; p++)
		passes += (text[p] & (sv->probe_mask[0] & 0xFF)) == (sv->probe_value[0] & 0xFF) &&
			(text[p + 1] & (sv->probe_mask[1] & 0xFF)) == (sv->probe_value[1] & 0xFF) &&
			(text[p + sv->probe_gap] & (sv->probe_mask[2] & 0xFF)) ==
			(sv->probe_value[2] & 0xFF);
	return passes;
}

/*
 * The sieve's probes where the column's sampled text says so: in rows
 * "abcdefxghijklmn", '%abcdefghijklmn%' (too long for a window) is never
 * found, and probes across its "fg" pass nowhere, where probes that
 * typical byte frequencies choose pass in every row.
 */
void
run_probe_choice_case(void)
{
	static const char pat[] = "%abcdefghijklmn%";
	static const char row[] = "abcdefxghijklmn";
	GlBytePairs *pairs = (GlBytePairs *) calloc(1, sizeof(GlBytePairs));
	const char *error;
	char		err[256];
	GlProgram  *prog = gl_build_like(pat, strlen(pat), true, NULL, NULL, &error);
	uint32_t	passes[2] = {0, 0};
	bool		prepared = prog != NULL;

	while (pairs->text_bytes + sizeof(row) <= GL_TEXT_SAMPLE_BYTES)
	{
		memcpy(pairs->text + pairs->text_bytes, row, sizeof(row));	/* with its 0x00 */
		pairs->text_bytes += sizeof(row);
	}
	for (uint32_t p = 0; p < pairs->text_bytes; p++)
	{
		pairs->bytes[pairs->text[p]]++;
		if (p > 0)
			pairs->pairs[pairs->text[p - 1] << 8 | pairs->text[p]]++;
	}
	pairs->nbytes = pairs->text_bytes;
	pairs->npairs = pairs->text_bytes - 1;
	for (int sampled = 0; sampled < 2 && prepared; sampled++)
	{
		GlPrepareChoices choices = {UINT32_MAX, true, false, sampled ? pairs : NULL};
		GlPreparedProgram pp;

		prepared = gl_prepare_program_with(prog, 48 * 1024, &choices, &pp, err, sizeof(err)) &&
			pp.skim == GL_SKIM_SIEVE && pp.sieve.window == 0;
		if (prepared)
			passes[sampled] = probe_passes(&pp.sieve, pairs->text, pairs->text_bytes);
		gl_prepared_free(&pp);
	}
	tap(prepared && passes[1] == 0 && passes[0] > 0,
		"the sieve's probes follow the column's sampled text: they pass " +
		std::to_string(passes[1]) + " of its places, " + std::to_string(passes[0]) +
		" by typical byte frequencies");
	free(prog);
	free(pairs);
}

/* Do the literals keep to printable ASCII, where a windowed table can hold them? */
static bool
printable_literals(const std::vector<std::string> &lits)
{
	for (const std::string &lit : lits)
		for (unsigned char c : lit)
			if (c < 0x20 || c > 0x7E)
				return false;
	return true;
}

/*
 * Which kernels an Aho–Corasick program gets, checked without a GPU, with
 * the shared memory of an H100 or H200 block: the stream kernel on its
 * compact table up to 127 states; past it (or where the compact table is
 * not allowed), on its windowed table where the literals keep to
 * printable ASCII, else on the wide table up to 255 states and the
 * classed table past that.  Lists in ASCII and in UTF-8 alternate; each
 * of the three sizes must be seen, and both of the tables past the
 * compact one beside the wide one.
 */
void
run_multi_plan_cases(int n)
{
	const size_t shared_limit = 227 * 1024;
	char		err[256];
	int			seen[3] = {0, 0, 0}; /* up to 127 states, 128 .. 255, more */
	int			seen_windowed = 0;	/* 128 .. 255 states, printable */
	int			seen_wide = 0;	/* 128 .. 255 states, not */
	std::string failure;

	for (int i = 0; i < n && failure.empty(); i++)
	{
		/* about 6, 35, 70, 140 and 350 states in ASCII */
		static const int sizes[] = {1, 6, 12, 25, 60};
		int			nlit = sizes[i % 5];
		std::vector<std::string> lits;
		GlProgram  *prog;
		GlByteDfa	dfa;
		bool		printable;

		for (int k = 0; k < nlit; k++)
			lits.push_back(random_text(4 + rnd(6), i / 5 % 2 == 1));
		printable = printable_literals(lits);
		prog = multi_of(lits, rnd(2));
		if (prog == NULL)
			continue;
		if (!gl_build_byte_dfa(prog, 4096, &dfa))
		{
			free(prog);
			continue;
		}
		seen[dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES ? 0 :
			 dfa.nstates <= GL_BYTE_DFA_WIDE_STATES ? 1 : 2]++;
		for (int compact_ok = 0; compact_ok < 2 && failure.empty(); compact_ok++)
		{
			GlPreparedProgram pp;
			const char *want = printable ? "stream-windowed" :
				dfa.nstates <= GL_BYTE_DFA_WIDE_STATES ? "stream-wide" : "stream-classed";

			GlPrepareChoices choices = {UINT32_MAX, compact_ok != 0, false, NULL};

			if (compact_ok && dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES)
				want = "stream";
			else if (dfa.nstates > GL_BYTE_DFA_COMPACT_STATES &&
					 dfa.nstates <= GL_BYTE_DFA_WIDE_STATES)
				(printable ? seen_windowed : seen_wide)++;
			if (!gl_prepare_program_with(prog, shared_limit, &choices, &pp, err, sizeof(err)))
				failure = std::string("MULTI not prepared: ") + err;
			else if (strcmp(gl_plan_name(&pp), want) != 0)
				failure = std::to_string(nlit) + (printable ? " printable" : "") +
					" literals, " + std::to_string(dfa.nstates) + " states, compact table " +
					(compact_ok ? "allowed" : "refused") + ": " + gl_plan_name(&pp) +
					", not " + want;
			gl_prepared_free(&pp);
		}
		gl_byte_dfa_free(&dfa);
		free(prog);
	}
	tap(failure.empty() && seen[0] > 0 && seen[1] > 0 && seen[2] > 0 && seen_windowed > 0 &&
		seen_wide > 0,
		"Aho-Corasick plans by states (" + std::to_string(seen[0]) + " up to 127, " +
		std::to_string(seen[1]) + " up to 255, " + std::to_string(seen[2]) + " more; " +
		std::to_string(seen_windowed) + " windowed and " + std::to_string(seen_wide) +
		" wide past the compact table's 127)" + (failure.empty() ? "" : ": " + failure));
}

/* The plan and window of each kind of classed_size_literals()' lists. */
static const struct
{
	const char *plan;
	uint32_t	window_flip;
}			classed_list_form[] = {
	{"stream-windowed", 0x40}, {"stream-windowed", 0x60}, {"stream-classed", 0}
};

/*
 * classed_size_literals()' lists get their kind's table form, without a
 * GPU, under the shared memory of an H100 or H200 block, folded or not:
 * run_classed_cases() relies on it to run each form on the device.
 */
void
run_classed_plan_cases(int n)
{
	int			planned[3] = {0, 0, 0};
	std::string failure;

	for (int i = 0; i < n && failure.empty(); i++)
	{
		std::vector<std::string> lits = classed_size_literals(i % 3);
		bool		fold = rnd(2);
		GlProgram  *prog = multi_of(lits, fold);
		GlPreparedProgram pp;
		char		err[256];

		if (prog == NULL)
			continue;
		if (!gl_prepare_program(prog, 227 * 1024, UINT32_MAX, &pp, err, sizeof(err)))
			failure = std::string("MULTI not prepared: ") + err;
		else if (strcmp(gl_plan_name(&pp), classed_list_form[i % 3].plan) != 0 ||
				 pp.classed.window_flip != classed_list_form[i % 3].window_flip)
			failure = std::to_string(lits.size()) + " literals of kind " + std::to_string(i % 3) +
				(fold ? " folded" : "") + ": " + gl_plan_name(&pp) + ", window flip " +
				std::to_string(pp.classed.window_flip);
		else
			planned[i % 3]++;
		gl_prepared_free(&pp);
		free(prog);
	}
	tap(failure.empty() && planned[0] > 0 && planned[1] > 0 && planned[2] > 0,
		"lists past 255 states plan their table form (" + std::to_string(planned[0]) +
		" in the letters' window, " + std::to_string(planned[1]) + " in the printable one, " +
		std::to_string(planned[2]) + " classed)" + (failure.empty() ? "" : ": " + failure));
}

/*
 * Which stream table a byte DFA's size gets, without a GPU: LIKE patterns
 * of many segments, 100 to 300 states, under the H100's and H200's shared
 * memory: the compact table up to 127 states, the wide one up to 255
 * (211 while its entries took 32 bits), past that no stream kernel.
 */
void
run_wide_plan_cases(void)
{
	const size_t shared_limit = 227 * 1024;
	/* what fitted there while the wide table's entries took 32 bits (1 kB a state) */
	const uint32_t wide32_fit = (shared_limit - 16 * 1024) / 1024;
	char		err[256];
	int			seen[3] = {0, 0, 0}; /* compact, wide past wide32_fit states, none */
	std::string failure;

	for (int segments = 12; segments <= 40 && failure.empty(); segments += 2)
	{
		std::string pattern = "%";
		const char *error;
		GlProgram  *prog;
		GlByteDfa	dfa;
		GlPreparedProgram pp;

		/* segments of 8 letters, each letter once in its segment */
		for (int s = 0; s < segments; s++)
		{
			for (int k = 0; k < 8; k++)
				pattern += (char) ('a' + (s * 3 + k * 5) % 26);
			pattern += "%";
		}
		prog = gl_build_like(pattern.data(), pattern.size(), false, NULL, NULL, &error);
		if (prog == NULL || !gl_build_byte_dfa(prog, 4096, &dfa))
		{
			failure = std::to_string(segments) + " segments: no byte DFA";
			free(prog);
			break;
		}

		const char *want = dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES ? "stream" :
			dfa.nstates <= GL_BYTE_DFA_WIDE_STATES ? "stream-wide" : NULL;

		if (!gl_prepare_program(prog, shared_limit, UINT32_MAX, &pp, err, sizeof(err)))
			failure = std::to_string(segments) + " segments: " + err;
		else if (want != NULL ? strcmp(gl_plan_name(&pp), want) != 0 :
				 strncmp(gl_plan_name(&pp), "stream", 6) == 0)
			failure = std::to_string(dfa.nstates) + " states: " + gl_plan_name(&pp) +
				", not " + (want != NULL ? want : "a plan without the stream kernel");
		if (want == NULL)
			seen[2]++;
		else if (dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES)
			seen[0]++;
		else if (dfa.nstates > wide32_fit)
			seen[1]++;
		gl_prepared_free(&pp);
		gl_byte_dfa_free(&dfa);
		free(prog);
	}
	tap(failure.empty() && seen[0] > 0 && seen[1] > 0 && seen[2] > 0,
		"stream tables by states (" + std::to_string(seen[0]) + " compact, " +
		std::to_string(seen[1]) + " wide past " + std::to_string(wide32_fit) + " states, " +
		std::to_string(seen[2]) +
		" past 255 without the stream kernel)" + (failure.empty() ? "" : ": " + failure));
}
