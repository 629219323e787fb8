/*-------------------------------------------------------------------------
 *
 * kernel_test_set.cu
 *	  kernel_test's cases of the set sieve on the device, giving up
 *	  included (its preparation's cases: test/unit/prep/set_cases.cc).
 *
 *-------------------------------------------------------------------------
 */
#include "kernel_test.h"

/* Does the column's cache plan prog with the set sieve first? */
static bool
plans_set_sieve(const GlDeviceColumn *dcol, const GlProgram *prog, std::string *plan)
{
	GlPrepareChoices with_pairs = {UINT32_MAX, true, false, dcol->pairs};
	GlPreparedProgram pp;
	char		err[256];

	if (!gl_prepare_program_with(prog, 227 * 1024, &with_pairs, &pp, err, sizeof(err)))
	{
		*plan = err;
		return false;
	}
	*plan = gl_plan_name(&pp);
	gl_prepared_free(&pp);
	return plan->compare(0, 10, "set-sieve+") == 0;
}

/*
 * The set sieve on the device.  Lists of literals rare in the text (40,
 * one of them with a non-ASCII letter: the wide table behind the set
 * sieve; 200: the windowed one), folded or not, planted in one row in 50 (whole rows, row starts
 * and ends, long rows across spans and chunks).  Then a column whose
 * sampled rows (the upload counts every fourth of 200 000) hold none of
 * the filter's pairs while the others hold 'qz' at every other byte: the
 * set is chosen, the set sieve gives up and the stream kernel answers.
 * Each plan is checked to start with the set sieve, each answer against
 * the CPU engine's.
 */
void
run_set_sieve_cases(void)
{
	for (int i = 0; i < 5; i++)
	{
		bool		fold = i % 2;
		bool		give_up = i == 4;
		std::vector<std::string> lits = rare_literals(i < 2 || give_up ? 40 : 200);

		/* an e-acute in one of the 40 keeps them off the windowed table: the wide one */
		if (i < 2)
			lits[0] += "\xC3\xA9";
		GlProgram  *prog;
		std::string what = give_up ? "set sieve giving up" :
			"set sieve " + std::to_string(lits.size()) + " literals" + (fold ? " folded" : "");
		GlColumn	col;
		GlDeviceColumn *dcol;
		std::string plan;

		if (give_up)
		{
			gl_column_init(&col, 200000, 200000 * 40);
			for (uint32_t r = 0; r < 200000; r++)
			{
				std::string v = random_text(rnd(40), false);

				if (r % 4 != 0)
					for (uint32_t k = rnd(40); k > 0; k--)
						v += "qz";
				append_row(&col, v + random_text(rnd(3), false), false);
			}
		}
		else
			set_sieve_text(&col, 300000, lits, 50, fold);
		if (give_up)
			lits.insert(lits.end(), {"qzqzk", "zqa", "kqz"});
		prog = multi_of(lits, fold);
		dcol = upload(&col, what.c_str());
		if (dcol != NULL && prog != NULL)
		{
			bool		set_first = plans_set_sieve(dcol, prog, &plan);

			tap(set_first, what + " planned: " + plan);
			compare(dcol, &col, prog, what);
		}
		gl_cuda_free(dcol);
		gl_column_free(&col);
		free(prog);
	}
}
