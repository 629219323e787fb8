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
	bool		root_stays[256];	/* byte leaves the automaton at the root */
} GlMultiPlan;

extern void gl_cpu_multi_prepare(const GlProgram *prog, GlMultiPlan *plan);
extern bool gl_cpu_multi_match(const GlMultiPlan *plan, const char *s, uint32_t len);

/*
 * The byte pairs of the automaton's literals, a set for each literal that
 * ends in no shorter one (chunk_pairs.h): every matching value holds one
 * set whole.  False, with no sets, where they would not narrow anything
 * (a literal of one byte) or would cost more to test than they spare, and
 * on out-of-memory; the caller frees sets->sets.
 */
extern bool gl_cpu_multi_required_pair_sets(const GlMultiPlan *plan, GlRequiredPairSets *sets);

#endif							/* GPULIKE_CPU_MULTI_H */
