/*-------------------------------------------------------------------------
 *
 * set_cases.cc
 *	  The set sieve's preparation: the literals recovered from a program,
 *	  and the choice on the column's pairs; and the columns of rare
 *	  literals kernel_test runs the set sieve on (test/kernels).
 *
 *-------------------------------------------------------------------------
 */
#include "prep_test.h"

/* A literal as the set holds it, written out: its bytes, a letter of either case in lower case. */
static std::string
set_literal_text(const GlSetLiteral &lit)
{
	std::string s;

	for (uint32_t k = 0; k < lit.length; k++)
		s += lit.masks[k] == 0xDF ? (char) (lit.bytes[k] | 0x20) : (char) lit.bytes[k];
	return s;
}

/*
 * The literals of a list that contain no other, written as
 * set_literal_text() writes them (folded lists in lower case), sorted.
 */
static std::vector<std::string>
minimal_literals(std::vector<std::string> lits, bool fold)
{
	std::vector<std::string> out;

	for (std::string &l : lits)
		for (char &c : l)
			if (fold && isalpha((unsigned char) c))
				c = (char) tolower((unsigned char) c);
	std::sort(lits.begin(), lits.end());
	lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
	for (const std::string &l : lits)
	{
		bool		holds_another = false;

		for (const std::string &other : lits)
			holds_another |= other != l && l.find(other) != std::string::npos;
		if (!holds_another)
			out.push_back(l);
	}
	return out;
}

/*
 * gl_set_literals() gives back each drawn list's literals that contain no
 * other, and refuses exactly the lists where one of those is a single
 * byte or longer than 16; folded or not, with a non-letter among the
 * letters.
 */
void
run_set_literal_cases(int n)
{
	GlSetLiteral *got = (GlSetLiteral *) malloc(GL_SET_MAX_LITERALS * sizeof(GlSetLiteral));
	int			recovered = 0,
				refused = 0;
	std::string failure;

	for (int i = 0; i < n && failure.empty(); i++)
	{
		bool		fold = rnd(2);
		std::vector<std::string> lits;
		std::vector<std::string> want;
		std::vector<std::string> have;
		bool		eligible = true;
		uint32_t	count;
		GlProgram  *prog;

		for (uint32_t k = 1 + rnd(40); k > 0; k--)
		{
			std::string l;

			for (uint32_t j = rnd(10) == 0 ? 1 + rnd(20) : 2 + rnd(6); j > 0; j--)
				l += "abqAB-"[rnd(6)];
			lits.push_back(l);
		}
		prog = multi_of(lits, fold);
		if (prog == NULL)
			continue;
		want = minimal_literals(lits, fold);
		for (const std::string &l : want)
			eligible &= l.size() >= 2 && l.size() <= GL_SET_MAX_BYTES;
		if (gl_set_literals(prog, got, &count))
		{
			for (uint32_t k = 0; k < count; k++)
				have.push_back(set_literal_text(got[k]));
			std::sort(have.begin(), have.end());
			recovered++;
		}
		else
			refused++;
		if (eligible ? have != want : !have.empty())
			failure = std::to_string(lits.size()) + " literals" + (fold ? " folded" : "") +
				": " + std::to_string(have.size()) + " recovered, " +
				std::to_string(want.size()) + " contain no other" +
				(eligible ? "" : " (one of them 1 or more than 16 bytes long)");
		free(prog);
	}
	free(got);
	tap(failure.empty() && recovered > 0 && refused > 0,
		"an Aho-Corasick automaton gives back its literals that contain no other (" +
		std::to_string(recovered) + " lists, " + std::to_string(refused) + " refused)" +
		(failure.empty() ? "" : ": " + failure));
}

/* Literals with a 'q' or a 'z', which set_sieve_text() holds only where they are planted. */
std::vector<std::string>
rare_literals(uint32_t n)
{
	std::vector<std::string> lits;

	for (uint32_t i = 0; i < n; i++)
	{
		std::string l = random_text(1 + rnd(12), false);

		l.insert(rnd((uint32_t) l.size() + 1), 1, "qzQ"[rnd(3)]);
		lits.push_back(l);
	}
	return lits;
}

/*
 * nrows rows of the random text (no 'q', no 'z'); with plant_every > 0,
 * a literal of lits, as drawn or each letter's case flipped (folded),
 * planted in every plant_every-th row on average: the row itself, or at
 * its start, its end or inside.
 */
void
set_sieve_text(GlColumn *col, uint32_t nrows, const std::vector<std::string> &lits,
			   uint32_t plant_every, bool fold)
{
	gl_column_init(col, nrows, nrows * 40);
	for (uint32_t r = 0; r < nrows; r++)
	{
		std::string v = random_text(rnd(20) == 0 ? rnd(3000) : rnd(60), false);

		if (plant_every > 0 && rnd(plant_every) == 0)
		{
			std::string l = lits[rnd((uint32_t) lits.size())];

			for (char &c : l)
				if (fold && isalpha((unsigned char) c) && rnd(2))
					c ^= 0x20;
			v.insert(rnd(3) == 0 ? 0 : rnd(3) == 0 ? v.size() : rnd((uint32_t) v.size() + 1), l);
		}
		append_row(col, v, rnd(30) == 0);
	}
}

/*
 * The set is chosen where its literals are rare in the column's pairs
 * (rare_literals() over set_sieve_text()), and not for literals of the
 * text's own letters.  Then the same list with an e-acute and a 'q' for
 * its first literal: the e-acute's two bytes never meet in the text, but
 * their key is that of "ci", a pair in every hundred of it, so its
 * bigram must be the one that ends in the 'q' (the filter would pass
 * more than the set is chosen for).
 */
void
run_set_choice_case(void)
{
	GlColumn	col;
	std::vector<std::string> rare = rare_literals(60);
	std::vector<std::string> accented = rare;
	GlProgram  *rare_prog = multi_of(rare, false);
	GlProgram  *accented_prog;
	GlProgram  *common_prog = multi_of({"ab", "kis", "sack"}, false);
	GlBytePairs *pairs;
	GlLiteralSet *chosen = NULL;
	GlLiteralSet *refused = NULL;
	GlLiteralSet *chosen_accented = NULL;

	accented[0] = "\xC3\xA9q";
	accented_prog = multi_of(accented, false);
	set_sieve_text(&col, 5000, rare, 100, false);
	pairs = gl_count_byte_pairs(&col);
	if (pairs != NULL && rare_prog != NULL && common_prog != NULL && accented_prog != NULL)
	{
		chosen = gl_choose_literal_set(rare_prog, pairs);
		refused = gl_choose_literal_set(common_prog, pairs);
		chosen_accented = gl_choose_literal_set(accented_prog, pairs);
	}
	tap(chosen != NULL && refused == NULL,
		"the set sieve is chosen for 60 literals rare in the text" +
		(chosen != NULL ? " (" + std::to_string(chosen->sample_pass * 100) + "% of pairs pass)"
		 : std::string(": not chosen")) +
		", not for three of its own words" + (refused != NULL ? ": chosen" : ""));
	tap(chosen_accented != NULL,
		"the set sieve is chosen for them with an e-acute, whose bytes' key is that of 'ci'" +
		(chosen_accented != NULL ?
		 " (" + std::to_string(chosen_accented->sample_pass * 100) + "% of pairs pass)" :
		 std::string(": not chosen")));
	free(chosen);
	free(refused);
	free(chosen_accented);
	free(pairs);
	free(rare_prog);
	free(accented_prog);
	free(common_prog);
	gl_column_free(&col);
}
