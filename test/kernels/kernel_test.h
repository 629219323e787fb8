/*-------------------------------------------------------------------------
 *
 * kernel_test.h
 *	  What kernel_test's files share: the TAP lines, the random source, the
 *	  columns and programs its cases are drawn from, and the cases main()
 *	  runs, each file a group of them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_KERNEL_TEST_H
#define GPULIKE_KERNEL_TEST_H

#include <algorithm>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <thread>
#include <vector>

/* The C headers first, with C linkage (gpulike_cuda.h includes column.h). */
extern "C"
{
#include "column/column.h"
#include "engine/cpu_engine.h"
#include "program/like_build.h"
#include "program/multi_build.h"
#include "program/dfa_build.h"
}
#include "gpulike_cuda.h"
#include "program_prep.h"
#include "test_random.h"
#include "test_dfa.h"

/* kernel_test.cu: one TAP line; a random number below n */
extern void tap(bool ok, const std::string &what);
extern uint32_t rnd(uint32_t n);

/* kernel_test_inputs.cu: columns and programs */
extern std::string random_text(uint32_t nchars, bool utf8);
extern void append_row(GlColumn *col, const std::string &value, bool isnull);
extern void build_random(GlColumn *col, uint32_t nrows, bool utf8);
extern void build_adversarial(GlColumn *col);
extern int	test_case_class(void *arg, uint32_t cp, uint32_t *members, int max_members);
extern std::string random_like_pattern(bool utf8);
extern GlProgram *multi_of(const std::vector<std::string> &lits, bool fold);
extern std::vector<std::string> random_literals(uint32_t few, uint32_t many, bool *fold);
extern std::vector<std::string> classed_size_literals(int kind);
extern GlProgram *random_multi(int *nliterals_out, bool *fold_out,
							   size_t *longest_out = NULL);
extern GlProgram *random_dfa(bool utf8, uint32_t max_states);
extern GlProgram *prefiltered_dfa(const std::string &w, bool utf8);

/* kernel_test_prep.cu: the preparation, on the host */
extern void run_prep_cases(int n);
extern void run_probe_choice_case(void);
extern void run_multi_plan_cases(int n);
extern void run_classed_plan_cases(int n);
extern void run_wide_plan_cases(void);

/* kernel_test_tables.cu: the stream kernel's tables, on the host */
extern void run_byte_dfa_cases(int n);
extern void run_byte_flag_case(void);
extern void run_classed_table_cases(int n);
extern void run_malformed_cases(void);

/* kernel_test_set.cu: the set sieve */
extern void run_set_literal_cases(int n);
extern void run_set_choice_case(void);
extern void run_set_sieve_cases(void);
/* literals with a 'q', a 'z' or a 'Q': the random text never holds them */
extern std::vector<std::string> rare_literals(uint32_t n);

/* kernel_test_factors.cu: the factored automaton */
extern void run_factor_choice_case(void);
extern void run_factored_cases(void);

/* kernel_test_device.cu: the cases on the device */
extern void compare(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
					const std::string &what);
extern GlDeviceColumn *upload(const GlColumn *col, const char *what, int nparts = 1);
extern void run_all_kinds(const GlColumn *col, const char *colname, bool utf8_data, int n,
						  int nparts = 1);
extern void run_crowded_chunk_case(void);
extern void run_append_case(const GlColumn *col, int nparts = 1);
extern void run_lanes_case(const GlColumn *col, int nparts);
extern void run_refusal_cases(void);

/* kernel_test_counting.cu: counting on the device */
extern void run_counting_cases(void);

#endif							/* GPULIKE_KERNEL_TEST_H */
