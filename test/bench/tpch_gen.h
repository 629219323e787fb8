/*-------------------------------------------------------------------------
 *
 * tpch_gen.h
 *	  Shared declarations of the benchmark data generator (tpch_gen.c,
 *	  bench_adv.c, tpch_text.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef TPCH_GEN_H
#define TPCH_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "tpch_text.h"

/* Rows of a table at a scale factor; -1 for an unknown table. */
extern int64_t table_rows(const char *table, double scale);

/* The adversarial table of the pattern zoo (bench_adv.c). */
extern int64_t bench_adv_rows(double scale);
extern void gen_bench_adv(int64_t id);

#endif							/* TPCH_GEN_H */
