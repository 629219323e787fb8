/*-------------------------------------------------------------------------
 *
 * factor_cases.cc
 *	  The factored automaton (kernel_prep/literal_factors.h): its choice,
 *	  and its answers row by row against the CPU engine; and the columns
 *	  kernel_test runs it on (test/kernels).
 *
 *-------------------------------------------------------------------------
 */
#include "prep_test.h"

/* A list of words cut from the random text (common in it), then rare literals. */
std::vector<std::string>
mixed_literals(const GlColumn *col, uint32_t ncommon, uint32_t nrare)
{
	std::vector<std::string> lits;

	while (lits.size() < ncommon)
	{
		uint32_t	len;
		const char *v = gl_column_value(col, rnd((uint32_t) col->nrows), &len);
		uint32_t	want = 4 + rnd(3);

		if (len >= want)
			lits.push_back(std::string(v + rnd(len - want + 1), want));
	}
	for (const std::string &l : rare_literals(nrare))
		lits.push_back(l);
	return lits;
}

/*
 * nrows rows of random text, one in twenty long (up to 3 000 bytes, over
 * several chunks).  Where sampled_every > 0, the rows the upload leaves
 * out of its sample (every sampled_every-th is in it) hold, one in
 * plant_every each, one of the rare literals (its letters' cases flipped
 * at random, for a folded list) and a piece of one, which may hold its
 * factor and not the literal: a candidate that does not match.
 */
void
factored_text(GlColumn *col, uint32_t nrows, const std::vector<std::string> &rare,
			  uint32_t sampled_every, uint32_t plant_every, bool fold)
{
	gl_column_init(col, nrows, (uint64_t) nrows * 200);
	for (uint32_t r = 0; r < nrows; r++)
	{
		std::string v = random_text(rnd(20) == 0 ? rnd(3000) : rnd(60), false);

		for (int kind = 0; kind < 2 && sampled_every > 0 && r % sampled_every != 0; kind++)
		{
			std::string l = rare[rnd((uint32_t) rare.size())];

			if (rnd(plant_every) != 0)
				continue;
			if (kind == 1)
			{
				uint32_t	from = rnd((uint32_t) l.size());

				l = l.substr(from, 1 + rnd((uint32_t) (l.size() - from)));
			}
			for (char &c : l)
				if (fold && isalpha((unsigned char) c) && rnd(2))
					c ^= 0x20;
			v.insert(rnd(3) == 0 ? 0 : rnd(3) == 0 ? v.size() : rnd((uint32_t) v.size() + 1), l);
		}
		append_row(col, v, rnd(30) == 0);
	}
}

/*
 * The program prepared on the column's sample: its plan and, if factored,
 * its table; unfactored: as the column's cache prepares it again where the
 * factored walk gave up.
 */
bool
prepare_on(const GlBytePairs *pairs, const GlProgram *prog, GlPreparedProgram *pp,
		   std::string *plan, bool unfactored)
{
	GlPrepareChoices with_pairs = {UINT32_MAX, true, false, pairs, unfactored};
	char		err[256];

	if (!gl_prepare_program_with(prog, 227 * 1024, &with_pairs, pp, err, sizeof(err)))
	{
		*plan = err;
		return false;
	}
	*plan = gl_plan_name(pp);
	return true;
}

/*
 * The factored automaton is chosen for 30 rare literals among 8 of the
 * text's words, on a sample without the rare ones; and not where the
 * list has none of them, nor where the sample holds them.  Its compact
 * table, walked row by row on the host over text that holds them: a row
 * it matches matches (CPU engine), a row it leaves neither matched nor a
 * candidate does not, and every row that holds a rare literal is a
 * candidate or matched.  The table it replaced stays with it.
 */
void
run_factor_choice_case(void)
{
	GlColumn	sampled,
				planted,
				seen;
	std::vector<std::string> lits;
	std::vector<std::string> rare;
	GlProgram  *prog;
	GlProgram  *common;
	GlBytePairs *pairs;
	GlBytePairs *seen_pairs;
	GlPreparedProgram pp;
	GlStreamTable replaced;
	std::string plan,
				common_plan,
				seen_plan;
	uint64_t	wrong = 0,
				candidates = 0,
				matched = 0;

	factored_text(&sampled, 5000, {}, 0, 1, false);
	lits = mixed_literals(&sampled, 8, 30);
	rare.assign(lits.begin() + 8, lits.end());
	factored_text(&planted, 5000, rare, 1000000, 10, false);
	factored_text(&seen, 5000, rare, 1000000, 2, false);
	prog = multi_of(lits, false);
	common = multi_of(std::vector<std::string>(lits.begin(), lits.begin() + 8), false);
	pairs = gl_count_byte_pairs(&sampled);
	seen_pairs = gl_count_byte_pairs(&seen);
	if (prog == NULL || common == NULL || pairs == NULL || seen_pairs == NULL)
	{
		tap(false, "factored automaton: building the case");
		return;
	}
	if (prepare_on(pairs, common, &pp, &common_plan))
		gl_prepared_free(&pp);
	if (prepare_on(seen_pairs, prog, &pp, &seen_plan))
		gl_prepared_free(&pp);
	if (prepare_on(pairs, prog, &pp, &plan) && pp.factored > 0)
	{
		std::vector<uint64_t> cpu(gl_bitmap_words(planted.nrows) + 1);

		gl_cpu_match_column(prog, &planted, cpu.data(), 2);
		for (uint64_t r = 0; r < planted.nrows; r++)
		{
			uint32_t	len;
			const uint8_t *v = (const uint8_t *) gl_column_value(&planted, r, &len);
			uint32_t	state = GL_BYTE_DFA_COMPACT_START;
			bool		candidate = false;
			bool		holds_rare = false;
			bool		is_match;
			bool		want = (cpu[r / 64] >> (r % 64)) & 1;

			if ((planted.nulls[r / 64] >> (r % 64)) & 1)
				continue;
			for (uint32_t k = 0; k <= len && !candidate; k++)
			{
				uint32_t	e = pp.byte_dfa.compact[gl_byte_dfa_compact_slot(state,
																			k < len ? v[k] : 0)];

				candidate = e == pp.candidate;
				state = k < len ? e & ~1u : e;
			}
			for (const std::string &l : rare)
				holds_rare |= std::string((const char *) v, len).find(l) != std::string::npos;
			is_match = !candidate && (state & 1);
			candidates += candidate;
			matched += is_match;
			if ((is_match && !want) || (!candidate && !is_match && want) ||
				(holds_rare && !candidate && !is_match))
				wrong++;
		}
	}
	tap(plan == "factored-stream+rows" && common_plan != plan && seen_plan != plan,
		"the factored automaton is chosen for 30 rare literals among 8 words of the text: " +
		plan + "; not for the 8 words alone: " + common_plan + ", nor where the sample "
		"holds the rare ones: " + seen_plan);
	tap(pp.factored > 0 && wrong == 0 && candidates > 0 && matched > 0,
		"its compact table row by row: " + std::to_string(wrong) + " rows wrong of " +
		std::to_string(planted.nrows) + " (" + std::to_string(matched) + " matched, " +
		std::to_string(candidates) + " candidates)");
	gl_replaced_table_host(&pp, &replaced);
	tap(pp.factored > 0 && replaced.bytes > 0 && replaced.form != GL_STREAM_FACTORED,
		"the table it replaced is kept, for a column whose sample missed the factors: " +
		std::to_string(replaced.bytes) + " bytes");
	gl_prepared_free(&pp);
	free(pairs);
	free(seen_pairs);
	free(prog);
	free(common);
	gl_column_free(&sampled);
	gl_column_free(&planted);
	gl_column_free(&seen);
}
