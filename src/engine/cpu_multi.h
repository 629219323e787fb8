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

#include "program/program.h"

typedef struct GlMultiPlan
{
	GlMultiTables tables;
	uint32_t	min_bytes;		/* the shortest literal's */
	bool		root_stays[256];	/* byte leaves the automaton at the root */
} GlMultiPlan;

extern void gl_cpu_multi_prepare(const GlProgram *prog, GlMultiPlan *plan);
extern bool gl_cpu_multi_match(const GlMultiPlan *plan, const char *s, uint32_t len);

#endif							/* GPULIKE_CPU_MULTI_H */
