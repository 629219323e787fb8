/*-------------------------------------------------------------------------
 *
 * cpu_multi.h
 *	  CPU engine: running a GL_PROG_MULTI (Aho–Corasick) program.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CPU_MULTI_H
#define GPULIKE_CPU_MULTI_H

#include <stdbool.h>
#include <stdint.h>

#include "column/chunk_pairs.h"
#include "program/program.h"

typedef struct GlMultiPlan
{
	GlMultiTables tables;
	uint32_t	min_bytes;		/* the shortest literal's */
	uint32_t	nliterals;
	bool		root_stays[256];	/* byte leaves the automaton at the root */
} GlMultiPlan;

/*
 * Where a literal of the automaton may stand in a string: `width` of its
 * bytes (its rarest window) tested at 16 positions at once by their
 * nibbles, each literal in one of eight buckets (cpu_multi.c).  width 0:
 * no skim.
 */
typedef struct GlMultiSkim
{
	uint32_t	width;			/* 2 or 3; 0: none */
	uint8_t		low[3][16];		/* [k][nibble]: buckets whose windows' byte k
								 * may have that low nibble */
	uint8_t		high[3][16];	/* and that high nibble */
} GlMultiSkim;

extern void gl_cpu_multi_prepare(const GlProgram *prog, GlMultiPlan *plan);
extern bool gl_cpu_multi_match(const GlMultiPlan *plan, const char *s, uint32_t len);

/*
 * What narrows the automaton's work over a column, found in one walk of
 * its literals (cpu_multi.c).  sets: the byte pairs of the literals, a set
 * for each literal that ends in no shorter one (chunk_pairs.h), every
 * matching value holding one set whole; none (nsets 0) where they would
 * not narrow anything (a literal of one byte) or would cost more to test
 * than they spare, and on out-of-memory; the caller frees sets->sets.
 * skim: the literals' skim; the result says whether there is one (not
 * for a literal of one byte, more literals than the buckets keep apart,
 * or a CPU without SSSE3).
 */
extern bool gl_cpu_multi_prepare_column(const GlMultiPlan *plan, GlRequiredPairSets *sets,
										GlMultiSkim *skim);

/*
 * The first position p >= from of s (len bytes) where s[p .. p + width)
 * may be a literal's window, or -1.  Every occurrence of a literal holds
 * one of such a position's windows (of itself, or of a shorter literal it
 * ends in); most such positions are in none (the caller matches).
 */
extern int64_t gl_cpu_multi_skim_find(const GlMultiSkim *skim, const char *s, uint64_t from,
									  uint64_t len);

#endif							/* GPULIKE_CPU_MULTI_H */
