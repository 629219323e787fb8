/*-------------------------------------------------------------------------
 *
 * table_cases.cc
 *	  The stream kernel's tables as the preparation makes them: byte DFAs,
 *	  the compact, wide and classed tables walked on the host against the
 *	  CPU engine, and malformed programs refused.
 *
 *-------------------------------------------------------------------------
 */
#include "prep_test.h"

/* What the stream kernel computes for one row, on the host. */
static bool
byte_dfa_matches(const GlByteDfa *dfa, const std::string &v)
{
	uint32_t	state = gl_byte_dfa_state(GL_BYTE_DFA_START);

	for (unsigned char c : v)
		state = dfa->table[gl_byte_dfa_slot(state, c)] & GL_BYTE_DFA_STATE_BITS;
	return (dfa->table[gl_byte_dfa_slot(state, 0)] & GL_BYTE_DFA_FLAG) != 0;
}

/*
 * The same with the compact table (byte_dfa.h), as the stream kernel walks
 * it: from the state the row before left (*state: START, or START flagged
 * if that row matched), through the row's separator; the flag is taken off
 * first, as the kernel does at 32-byte borders.  Alongside, the walk from
 * the flagged twin of each state must stay the same walk, flagged
 * (*twins_ok cleared where it does not).
 */
static bool
compact_matches(const uint8_t *table, uint32_t *state, const std::string &v, bool *twins_ok)
{
	uint32_t	plain = *state & ~1u;
	uint32_t	twin = plain | 1;

	for (size_t i = 0; i <= v.size(); i++)
	{
		unsigned char c = i < v.size() ? (unsigned char) v[i] : 0;

		plain = table[gl_byte_dfa_compact_slot(plain, c)];
		twin = table[gl_byte_dfa_compact_slot(twin, c)];
		if (twin != (plain | 1) || (c != 0 && (plain & 1) != 0))
			*twins_ok = false;
	}
	*state = plain;
	return (plain & 1) != 0;
}

/*
 * v and its separator through the wide table from *state, as the stream
 * kernel steps it: whether the separator is flagged.  *flags_ok turns
 * false where a byte not a separator comes flagged.
 */
static bool
wide_matches(const uint16_t *table, uint32_t *state, const std::string &v, bool *flags_ok)
{
	uint32_t	e = *state;

	for (size_t i = 0; i <= v.size(); i++)
	{
		unsigned char c = i < v.size() ? (unsigned char) v[i] : 0;

		e = table[gl_byte_dfa_wide_slot(e, c)];
		if (c != 0 && (e & 1) != 0)
			*flags_ok = false;
	}
	*state = e;
	return (e & 1) != 0;
}

/* Values for a program: its own text pieces, mixed into random text. */
static std::string
value_for(bool utf8, const std::string &piece)
{
	std::string v = random_text(rnd(30), utf8);

	if (rnd(2))
		v += piece;
	return v + random_text(rnd(30), utf8);
}

/*
 * Byte DFAs against the CPU engine, without a GPU: LIKE / ILIKE (UTF-8
 * and single-byte), Aho–Corasick and random regex DFAs, each on values
 * that contain their pieces and on the empty value, and their compact and
 * wide tables where they have one.  Also checks the SKIP state, the flag of
 * every separator transition and of nothing else.
 */
void
run_byte_dfa_cases(int n)
{
	int			built = 0,
				over_cap = 0,
				compacted = 0,
				numbered_compacts = 0,
				widened = 0;
	std::string failure;

	for (int i = 0; i < n * 10 && failure.empty(); i++)
	{
		int			kind = i % 3;
		bool		utf8 = rnd(2);
		std::string piece;
		std::string what;
		GlProgram  *prog;
		GlByteDfa	dfa;

		if (kind == 0)
		{
			const char *error;
			int			flavor = rnd(3);

			piece = random_like_pattern(utf8);
			prog = gl_build_like(piece.data(), piece.size(), utf8 || rnd(2),
								 flavor == 0 ? NULL : flavor == 1 ? gl_ascii_case_class : test_case_class,
								 NULL, &error);
			what = (flavor ? "ILIKE '" : "LIKE '") + piece + "'";
		}
		else if (kind == 1)
		{
			int			nlit;
			bool		fold;

			prog = random_multi(&nlit, &fold);
			what = "Aho-Corasick " + std::to_string(nlit) + " literals";
		}
		else
		{
			prog = random_dfa(utf8, 30);
			what = "DFA " + std::to_string(prog->u.dfa.nstates) + " states";
		}
		if (prog == NULL)
			continue;
		if (!gl_build_byte_dfa(prog, 4096, &dfa))
		{
			over_cap++;
			free(prog);
			continue;
		}
		built++;
		/* the kept copy, asked for twice (built, then found), is the same table */
		for (int again = 0; again < 2 && failure.empty(); again++)
		{
			GlByteDfa	kept;

			if (!gl_byte_dfa_for(prog, 4096, &kept) || kept.nstates != dfa.nstates ||
				memcmp(kept.table, dfa.table, (size_t) dfa.nstates * 256 * sizeof(uint32_t)) != 0 ||
				(kept.compact == NULL) != (dfa.compact == NULL) ||
				(dfa.compact != NULL &&
				 memcmp(kept.compact, dfa.compact, gl_byte_dfa_compact_bytes(dfa.nstates)) != 0))
				failure = what + ": the recent programs' copy differs";
			gl_byte_dfa_free(&kept);
		}
		for (uint32_t id = 0; id < dfa.nstates && failure.empty(); id++)
			for (uint32_t b = 0; b < 256 && failure.empty(); b++)
			{
				uint32_t	entry = dfa.table[gl_byte_dfa_slot(gl_byte_dfa_state(id), b)];
				uint32_t	next = (entry & GL_BYTE_DFA_STATE_BITS) >> 10;
				bool		ok = entry == ((entry & GL_BYTE_DFA_STATE_BITS) | (entry & GL_BYTE_DFA_FLAG)) &&
					(entry & GL_BYTE_DFA_STATE_BITS) == gl_byte_dfa_state(next) &&
					next < dfa.nstates;

				if (b == 0)		/* separator: to START, flagged only from a row state */
					ok = ok && next == GL_BYTE_DFA_START &&
						(id != GL_BYTE_DFA_SKIP || !(entry & GL_BYTE_DFA_FLAG));
				else			/* others: never flagged; SKIP stays */
					ok = ok && !(entry & GL_BYTE_DFA_FLAG) &&
						(id == GL_BYTE_DFA_SKIP) == (next == GL_BYTE_DFA_SKIP);
				if (!ok)
					failure = what + ": bad entry, state " + std::to_string(id) + " byte " +
						std::to_string(b);
			}
		/* the compact table, where the automaton is small enough for one */
		bool		has_compact = dfa.compact != NULL;

		if (has_compact != (dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES))
			failure = what + ": compact table " + (has_compact ? "made" : "refused") + " for " +
				std::to_string(dfa.nstates) + " states";
		uint32_t	compact_state = GL_BYTE_DFA_COMPACT_START;
		bool		twins_ok = true;
		/* and the wide table, where it has at most GL_BYTE_DFA_WIDE_STATES */
		uint16_t   *wide = gl_byte_dfa_wide_table(&dfa);
		uint32_t	wide_state = gl_byte_dfa_wide_value(GL_BYTE_DFA_START);
		bool		flags_ok = true;

		if ((wide != NULL) != (dfa.nstates <= GL_BYTE_DFA_WIDE_STATES))
			failure = what + ": wide table " + (wide != NULL ? "made" : "refused") + " for " +
				std::to_string(dfa.nstates) + " states";
		/* and renumbered for the banks on a sample of such values (kernel_prep/compact_for_text.cc) */
		uint8_t    *numbered = NULL;
		uint32_t	numbered_rows = 0;
		uint32_t	numbered_state = GL_BYTE_DFA_COMPACT_START;

		if (has_compact)
		{
			std::string sample;

			while (sample.size() < 2048)
				sample += value_for(prog->utf8 != 0, kind == 0 ? piece : "") + '\0';
			numbered = gl_compact_for_text(dfa.compact, gl_byte_dfa_compact_bytes(dfa.nstates) /
										   GL_BYTE_DFA_COMPACT_ROW_BYTES,
										   (const uint8_t *) sample.data(), (uint32_t) sample.size(),
										   64, &numbered_rows);
			if (numbered == NULL)
				failure = what + ": no renumbered compact table";
			else if (numbered[gl_byte_dfa_compact_slot(GL_BYTE_DFA_COMPACT_SKIP, 'a')] !=
					 GL_BYTE_DFA_COMPACT_SKIP ||
					 numbered[gl_byte_dfa_compact_slot(GL_BYTE_DFA_COMPACT_SKIP, 0)] !=
					 GL_BYTE_DFA_COMPACT_START ||
					 numbered_rows < GL_BYTE_DFA_COMPACT_MIN_ROWS ||
					 numbered_rows > std::max<uint32_t>(64, gl_byte_dfa_compact_bytes(dfa.nstates) /
														GL_BYTE_DFA_COMPACT_ROW_BYTES))
				failure = what + ": the renumbered compact table moved SKIP, or has " +
					std::to_string(numbered_rows) + " rows";
			numbered_compacts += numbered != NULL && numbered_rows >
				gl_byte_dfa_compact_bytes(dfa.nstates) / GL_BYTE_DFA_COMPACT_ROW_BYTES;
		}
		compacted += has_compact;
		widened += wide != NULL;
		for (int k = 0; k < 400 && failure.empty(); k++)
		{
			std::string v = k == 0 ? "" : value_for(prog->utf8 != 0, kind == 0 ? piece : "");
			bool		cpu = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());

			if (cpu != byte_dfa_matches(&dfa, v))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu);
			else if (has_compact && cpu != compact_matches(dfa.compact, &compact_state, v, &twins_ok))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", compact table differs";
			else if (numbered != NULL &&
					 cpu != compact_matches(numbered, &numbered_state, v, &twins_ok))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", renumbered compact table differs";
			else if (!twins_ok)
				failure = what + " on '" + v + "': a flagged twin walks another way, " +
					"or a byte not a separator is flagged";
			else if (wide != NULL && cpu != wide_matches(wide, &wide_state, v, &flags_ok))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", wide table differs";
			else if (!flags_ok)
				failure = what + " on '" + v + "': the wide table flags a byte not a separator";
		}
		free(wide);
		free(numbered);
		gl_byte_dfa_free(&dfa);
		free(prog);
	}
	tap(failure.empty() && built > n && compacted > n && widened > n && numbered_compacts > 0,
		"byte DFAs equal the CPU engine over " + std::to_string(built) + " programs (" +
		std::to_string(over_cap) + " over the cap, " + std::to_string(compacted) +
		" also as compact tables, renumbered for their values' text too (" +
		std::to_string(numbered_compacts) + " of them in more rows), " +
		std::to_string(widened) + " as wide tables)" +
		(failure.empty() ? "" : ": " + failure));
}

/* One byte through a classed table, as the stream kernel takes it: the entry. */
static uint32_t
classed_entry(const GlClassedTable *t, uint32_t state, unsigned char b)
{
	uint16_t	e;

	memcpy(&e, t->table + gl_classed_entry_offset(t, state, b), sizeof(e));
	return e;
}

/*
 * Classed tables of Aho–Corasick programs (classed_table.h), in both
 * forms (the windowed one's states in order or numbered for a sample of
 * text), against the CPU engine, without a GPU: values streamed one after
 * another, each followed by its separator, which alone may lead to the
 * root's twin (the table's largest value), and only after a matching
 * value; the twin goes on as the root does; SKIP keeps to the separator.
 */
void
run_classed_table_cases(int n)
{
	int			built = 0,
				numbered = 0,
				letters = 0,
				printable = 0,
				refused = 0,
				matched = 0;
	std::string failure;

	for (int i = 0; i < n * 4 && failure.empty(); i++)
	{
		bool		fold;
		/* more than random_multi()'s 200: some pass the table's limits */
		std::vector<std::string> lits = random_literals(20, 400, &fold);
		GlProgram  *prog = multi_of(lits, fold);
		GlClassedTable t;
		std::string what = "Aho-Corasick " + std::to_string(lits.size()) + " literals" +
			(fold ? " folded" : "");
		uint32_t	state;

		if (prog == NULL)
			continue;
		/* half the tables numbered for a sample of values like those matched */
		std::string sample;
		bool		sampled = rnd(2);

		for (int k = 0; k < 200 && sampled; k++)
			sample += value_for(prog->utf8 != 0, lits[rnd(lits.size())]) + std::string(1, '\0');
		if (!gl_build_classed_table(prog, 227 * 1024, rnd(2), (const uint8_t *) sample.data(),
									(uint32_t) sample.size(), &t))
		{
			refused++;
			free(prog);
			continue;
		}
		built++;
		numbered += sampled && t.window_flip != 0;
		letters += t.window_flip == 0x40;
		printable += t.window_flip == 0x60;
		if (t.window_flip != 0)
			what += " (window flip " + std::to_string(t.window_flip) + ")";
		uint32_t	skip = gl_classed_skip(&t);
		uint32_t	twin = gl_classed_twin(&t);

		for (uint32_t c = 0; c < 256 && failure.empty(); c++)
			if (classed_entry(&t, twin, (unsigned char) c) !=
				classed_entry(&t, GL_CLASSED_ROOT, (unsigned char) c))
				failure = what + ": the root's twin differs from the root on byte " +
					std::to_string(c);
		for (uint32_t st = 0; st < t.nstates && failure.empty(); st++)
			for (uint32_t c = 0; c < 256; c++)
				if (classed_entry(&t, gl_classed_value(&t, st), (unsigned char) c) > twin)
					failure = what + ": an entry is larger than the root's twin";
		/* from the root, then from where each value's separator led */
		state = GL_CLASSED_ROOT;
		for (int k = 0; k < 300 && failure.empty(); k++)
		{
			std::string v = k == 0 ? "" : value_for(prog->utf8 != 0, lits[rnd(lits.size())]);
			bool		cpu = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());
			uint32_t	end;

			for (unsigned char c : v)
			{
				uint32_t	e = classed_entry(&t, state, c);

				if (e == twin || classed_entry(&t, skip, c) != skip)
					failure = what + " on '" + v + "': a byte not a separator leads to the " +
						"root's twin, or SKIP left before the separator";
				state = e;
			}
			end = classed_entry(&t, state, 0);
			matched += cpu;
			if (failure.empty() &&
				(end != (cpu ? twin : GL_CLASSED_ROOT) ||
				 classed_entry(&t, skip, 0) != GL_CLASSED_ROOT))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", the separator's entry differs";
			state = end;
		}
		gl_classed_table_free(&t);
		free(prog);
	}
	tap(failure.empty() && built > n && letters > n / 8 && printable > n / 8 &&
		numbered > n / 8 &&
		built - letters - printable > n &&
		refused > 0 && matched > built * 30,
		"classed tables equal the CPU engine over " + std::to_string(built) +
		" Aho-Corasick programs (" + std::to_string(letters) + " in the letters' window, " +
		std::to_string(printable) + " in the printable one, " +
		std::to_string(numbered) + " windowed ones numbered for a sample, " +
		std::to_string(refused) + " over the limits, " +
		std::to_string(matched) + " matching values)" + (failure.empty() ? "" : ": " + failure));
}

/* Malformed programs must be refused before any kernel sees them. */
void
run_malformed_cases(void)
{
	char		err[256];
	GlPreparedProgram pp;
	GlProgram  *prog = random_dfa(true, 10);
	uint16_t   *trans = (uint16_t *) gl_program_section(prog, prog->u.dfa.trans_off);
	const char *error;
	bool		refused;

	trans[0] = (uint16_t) prog->u.dfa.nstates;
	refused = !gl_prepare_program(prog, 48 * 1024, UINT32_MAX, &pp, err, sizeof(err));
	tap(refused, std::string("a DFA with a transition out of range is refused: ") + err);
	gl_prepared_free(&pp);
	free(prog);

	prog = random_dfa(true, 10);
	prog->u.dfa.ranges_off = prog->total_size;
	prog->u.dfa.nranges = 1;
	refused = !gl_prepare_program(prog, 48 * 1024, UINT32_MAX, &pp, err, sizeof(err));
	tap(refused, std::string("a DFA with ranges past the end is refused: ") + err);
	gl_prepared_free(&pp);
	free(prog);

	prog = gl_build_like("%a_c%", 5, true, NULL, NULL, &error);
	((GlLikeSegment *) gl_program_section(prog, prog->u.like.segments_off))[0].nchars = 65;
	refused = !gl_prepare_program(prog, 48 * 1024, UINT32_MAX, &pp, err, sizeof(err));
	tap(refused, std::string("a LIKE segment of 65 positions is refused: ") + err);
	gl_prepared_free(&pp);
	free(prog);
}
