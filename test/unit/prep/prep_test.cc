/*-------------------------------------------------------------------------
 *
 * prep_test.cc
 *	  The CUDA engine's program preparation (src/kernel_prep) against the
 *	  CPU engine, on the host: no GPU and no nvcc (make -C test/unit check).
 *
 * The preparation decides everything about a program that needs no GPU,
 * so everything it decides is checked here: the sieve's runs, probes and
 * windows (necessary for a match, exact where marked) and the folded
 * Aho–Corasick table (prep_cases.cc); which kernels and table forms a
 * program is planned with, by its states and under an H100's or H200's
 * shared memory; the byte DFAs and their compact, renumbered, wide and
 * classed tables, walked byte by byte as the stream kernel walks them,
 * against the CPU engine (table_cases.cc); malformed programs refused; the
 * literals recovered from an Aho–Corasick automaton and the set sieve's
 * choice on the column's pairs (set_cases.cc); the factored automaton's
 * choice and its table row by row (factor_cases.cc).  What the kernels do
 * with them is kernel_test's (test/kernels), on a GPU.
 *
 * Usage: prep_test [cases, default 120].  TAP output (test/unit/tap.h);
 * exit status 0 when all passed.
 *
 *-------------------------------------------------------------------------
 */
#include "prep_test.h"
#include "tap.h"

static GlXorshift rng = {0x9E3779B97F4A7C15ULL};

uint32_t
rnd(uint32_t n)
{
	return rng.below(n);
}

void
tap(bool ok, const std::string &what)
{
	tap_ok(ok, "%s", what.c_str());
}

int
main(int argc, char **argv)
{
	int			n = argc > 1 ? atoi(argv[1]) : 120;

	run_prep_cases(n);
	run_probe_choice_case();
	run_multi_plan_cases(n);
	run_wide_plan_cases();
	run_byte_dfa_cases(n);
	run_classed_table_cases(n);
	run_classed_plan_cases(n / 4);
	run_malformed_cases();
	run_set_literal_cases(n);
	run_set_choice_case();
	run_factor_choice_case();
	return tap_done();
}
