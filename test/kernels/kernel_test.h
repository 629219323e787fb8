/*-------------------------------------------------------------------------
 *
 * kernel_test.h
 *	  What kernel_test's files share: the preparation's test files it is
 *	  built on (test/unit/prep/prep_test.h: the TAP lines, the random
 *	  source, the columns and programs its cases are drawn from, and the
 *	  preparation's cases), and the cases on the device main() runs, each
 *	  file a group of them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_KERNEL_TEST_H
#define GPULIKE_KERNEL_TEST_H

#include <thread>

#include "prep_test.h"
#include "gpulike_cuda.h"
#include "device_column.h"

/* kernel_test_bytes.cu: the byte tests of the hit path, on the host */
extern void run_byte_flag_case(void);

/* kernel_test_set.cu: the set sieve */
extern void run_set_sieve_cases(void);

/* kernel_test_factors.cu: the factored automaton */
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
