/*-------------------------------------------------------------------------
 *
 * kernel_test_factors.cu
 *	  kernel_test's cases of the factored automaton on the device: the
 *	  stream kernel and the per-row kernel on its candidates, or the table
 *	  it replaced where the candidates are too many (its choice and its
 *	  table, on the host: test/unit/prep/factor_cases.cc).
 *
 *-------------------------------------------------------------------------
 */
#include "kernel_test.h"
#include "program_cache.h"

/* The plan of prog in dcol's cache, as gl_cuda_match() finds it. */
static std::string
cached_plan(GlDeviceColumn *dcol, const GlProgram *prog)
{
	GlPrepareChoices choices = {UINT32_MAX, true, false, NULL};
	GlCachedProgram cp;
	char		err[256];

	std::string plan;

	if (!gl_program_cache_lookup(dcol, prog, &choices, &cp, err, sizeof(err)))
		return err;
	plan = gl_plan_name(cp.pp);
	gl_program_cache_release(dcol, &cp, false);
	return plan;
}

/*
 * On the device: 40 and 200 rare literals among 8 words of the text,
 * folded or not, planted (whole, or a piece of one) in the rows the
 * upload's sample leaves out (it counts every fourth of 200 000), short
 * rows and rows over several chunks, few enough that the per-row kernel
 * decides the candidates (one row in 60 or 100: at most about one chunk
 * in 16 holds one, the list's capacity is one in 8: match.cu); last,
 * planted in every such row, so that nearly every chunk has a candidate:
 * the factored walk gives up and the table it replaced walks the column.
 * Each plan is checked to be the factored one, each answer against the
 * CPU engine's (compare(): with the compact table refused too, and the
 * skim alone).  After the matches, the column's cache holds the program
 * still factored -- the walk did not give up -- but for the last column:
 * there it holds the table the factored automaton replaced, which
 * answered compare()'s later matches.  (Planted one row in 4 or 20, every
 * column's walk gave up, and only the replaced table's answers were
 * checked.)
 */
void
run_factored_cases(void)
{
	for (int i = 0; i < 5; i++)
	{
		bool		fold = i % 2;
		bool		everywhere = i == 4;
		uint32_t	nrare = i < 2 || everywhere ? 40 : 200;
		std::string what = "factored " + std::to_string(nrare) + " literals" +
			(fold ? " folded" : "") + (everywhere ? ", candidates everywhere" : "");
		GlColumn	col;
		GlDeviceColumn *dcol;
		std::vector<std::string> lits;
		GlProgram  *prog;

		factored_text(&col, 200000, {}, 0, 1, false);
		lits = mixed_literals(&col, 8, nrare);
		gl_column_free(&col);
		factored_text(&col, 200000, std::vector<std::string>(lits.begin() + 8, lits.end()), 4,
					  everywhere ? 1 : i < 2 ? 100 : 60, fold);
		prog = multi_of(lits, fold);
		dcol = upload(&col, what.c_str());
		if (dcol != NULL && prog != NULL)
		{
			GlPreparedProgram pp;
			std::string plan;
			std::string replaced_plan;
			std::string cached;

			if (prepare_on(dcol->pairs, prog, &pp, &plan))
				gl_prepared_free(&pp);
			if (prepare_on(dcol->pairs, prog, &pp, &replaced_plan, true))
				gl_prepared_free(&pp);
			tap(plan == "factored-stream+rows", what + " planned: " + plan);
			compare(dcol, &col, prog, what);
			cached = cached_plan(dcol, prog);
			tap(cached == (everywhere ? replaced_plan : plan),
				what + " cached after the matches: " + cached);
		}
		gl_cuda_free(dcol);
		gl_column_free(&col);
		free(prog);
	}
}
