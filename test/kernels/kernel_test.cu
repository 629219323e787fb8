/*-------------------------------------------------------------------------
 *
 * kernel_test.cu
 *	  Every CUDA kernel against the CPU engine, bit for bit (a standalone
 *	  program: make -C test/kernels check).
 *
 * Columns: random text over a small alphabet (so patterns hit often), text
 * with 2-, 3- and 4-byte UTF-8 characters (and the Kelvin sign and long s
 * that ILIKE classes drag in), adversarial runs (aaaa...ab), rows longer
 * than 64 KB, rows whose lengths straddle the 256-byte chunk borders, long
 * runs of empty and NULL rows, and a column built by upload + append.
 * Programs: LIKE and ILIKE from random patterns through the real builder
 * (like_build.c), in UTF-8 and single-byte mode, and patterns cut from the
 * column's own rows in every anchor form (the sieve); Aho–Corasick from random
 * literal lists (multi_build.c); random DFAs (random tables, flags, colors
 * and code point ranges, assembled by dfa_build.c; some too large for
 * shared memory, which the kernels then read from global memory).  Each case compares
 * gl_cuda_match() with gl_cpu_match_column() twice -- as planned (the
 * stream kernel where the byte DFA fits) and with the byte DFA refused
 * (skims and per-row kernels) -- and prints one TAP line each; malformed
 * programs must be refused, not run.  The preparation's checks (sieve
 * runs and probes, folded tables, byte DFAs against the CPU engine,
 * validation: test/unit/prep, whose files this program is built on, where
 * prep_test runs them with no GPU and no nvcc) run first, as they always
 * have, so the device cases draw what they always drew; with them the
 * byte tests of the hit path (chunk_scan.cuh).  They run without a GPU
 * too, and alone with --host-only (the test suite's kernels part on a
 * machine with nvcc and no GPU).
 * Usage: kernel_test [cases, default 120] [--host-only].  Exit status: 0
 * all passed, 1 a mismatch, 2 no usable device.
 *
 *-------------------------------------------------------------------------
 */
#include "kernel_test.h"

static int	test_number = 0;
static int	failures = 0;

static GlXorshift rng = {0x9E3779B97F4A7C15ULL};

uint32_t
rnd(uint32_t n)
{
	return rng.below(n);
}

void
tap(bool ok, const std::string &what)
{
	test_number++;
	if (!ok)
		failures++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", test_number, what.c_str());
}

/* The TAP plan and the counts, last; the exit status. */
static int
tap_plan(const char *note)
{
	printf("1..%d\n", test_number);
	printf("# %d passed, %d failed%s%s%s\n", test_number - failures, failures,
		   note ? " (" : "", note ? note : "", note ? ")" : "");
	return failures ? 1 : 0;
}

int
main(int argc, char **argv)
{
	GlCudaDeviceInfo info;
	char		err[256] = "";
	GlColumn	col;
	bool		host_only = false;
	int			n = 120;

	for (int i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--host-only") == 0)
			host_only = true;
		else
			n = atoi(argv[i]);
	}

	/* What needs no GPU first, so it runs everywhere. */
	run_prep_cases(n);
	run_probe_choice_case();
	run_multi_plan_cases(n);
	run_wide_plan_cases();
	run_byte_dfa_cases(n);
	run_classed_table_cases(n);
	run_classed_plan_cases(n / 4);
	run_malformed_cases();
	run_byte_flag_case();
	run_set_literal_cases(n);
	run_set_choice_case();
	run_factor_choice_case();
	if (host_only)
		return tap_plan("the host-side checks alone: --host-only");
	if (!gl_cuda_probe(&info, 0, err, sizeof(err)))
	{
		printf("Bail out! no usable CUDA device: %s\n", err);
		return 2;
	}
	printf("# device: %s, %d SMs, compute capability %d.%d\n",
		   info.name, info.sm_count, info.cc_major, info.cc_minor);

	run_refusal_cases();
	run_crowded_chunk_case();
	run_set_sieve_cases();
	run_factored_cases();

	build_random(&col, 20000, false);
	run_all_kinds(&col, "ascii", false, n);
	run_append_case(&col);
	/* the split over several GPUs, three parts (on one device if that is all) */
	run_all_kinds(&col, "ascii in 3 parts", false, n / 4, 3);
	run_append_case(&col, 3);
	run_lanes_case(&col, 1);
	run_lanes_case(&col, 3);
	gl_column_free(&col);
	run_counting_cases();

	build_random(&col, 20000, true);
	run_all_kinds(&col, "utf8", true, n);
	gl_column_free(&col);

	build_adversarial(&col);
	run_all_kinds(&col, "adversarial", false, n / 2);
	gl_column_free(&col);

	/*
	 * More chunks than the resident grid takes in one round of four per
	 * thread: the skim walks it in two rounds, the second part full, and
	 * the stream kernel's warps take several whole tickets each before
	 * the single-chunk ones.
	 */
	build_random(&col, 4000000, false);
	run_all_kinds(&col, "ascii, 4 M rows", false, n / 15);
	gl_column_free(&col);

	return tap_plan(NULL);
}
