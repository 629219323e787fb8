/*-------------------------------------------------------------------------
 *
 * prep_test.h
 *	  What the preparation's test files share (prep_test.cc runs them):
 *	  the TAP lines, the random source, the columns and programs the cases
 *	  are drawn from, and the cases, each file a group of them.
 *
 * kernel_test (test/kernels) is built on the same files: it draws its
 * columns and programs from inputs.cc, set_cases.cc and factor_cases.cc,
 * and runs these cases before its own on the device, so that its draws
 * stay those it always made.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PREP_TEST_H
#define GPULIKE_PREP_TEST_H

#include <algorithm>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

/* The C headers with C linkage. */
extern "C"
{
#include "column/column.h"
#include "engine/cpu_engine.h"
#include "program/like_build.h"
#include "program/multi_build.h"
#include "program/dfa_build.h"
}
#include "kernel_prep/program_prep.h"
#include "test_plans.h"
#include "test_random.h"
#include "test_dfa.h"

/* the main program's (prep_test.cc, kernel_test.cu): one TAP line; a random number below n */
extern void tap(bool ok, const std::string &what);
extern uint32_t rnd(uint32_t n);

/* inputs.cc: columns and programs */
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

/* prep_cases.cc: the preparation's choices */
extern void run_prep_cases(int n);
extern void run_probe_choice_case(void);
extern void run_multi_plan_cases(int n);
extern void run_classed_plan_cases(int n);
extern void run_wide_plan_cases(void);

/* table_cases.cc: the stream kernel's tables */
extern void run_byte_dfa_cases(int n);
extern void run_classed_table_cases(int n);
extern void run_malformed_cases(void);

/* set_cases.cc: the set sieve's literals and its choice */
extern void run_set_literal_cases(int n);
extern void run_set_choice_case(void);
/* literals with a 'q', a 'z' or a 'Q': the random text never holds them */
extern std::vector<std::string> rare_literals(uint32_t n);
/* rows of the random text with lits planted in one in plant_every */
extern void set_sieve_text(GlColumn *col, uint32_t nrows, const std::vector<std::string> &lits,
						   uint32_t plant_every, bool fold);

/* factor_cases.cc: the factored automaton */
extern void run_factor_choice_case(void);
/* ncommon words cut from col's text, then nrare rare literals */
extern std::vector<std::string> mixed_literals(const GlColumn *col, uint32_t ncommon,
											   uint32_t nrare);
/* rows of random text, rare literals planted in those the upload's sample leaves out */
extern void factored_text(GlColumn *col, uint32_t nrows, const std::vector<std::string> &rare,
						  uint32_t sampled_every, uint32_t plant_every, bool fold);
/* prog prepared on the column's sample (pairs): its plan's name, or the error */
extern bool prepare_on(const GlBytePairs *pairs, const GlProgram *prog, GlPreparedProgram *pp,
					   std::string *plan, bool unfactored = false);

#endif							/* GPULIKE_PREP_TEST_H */
