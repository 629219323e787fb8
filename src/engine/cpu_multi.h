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
	const GlMultiProgram *multi;
	const uint8_t *byte_class;
	const uint16_t *next;
	const uint8_t *accept;
	bool		root_stays[256];	/* byte leaves the automaton at the root */
} GlMultiPlan;

extern void gl_cpu_multi_prepare(const GlProgram *prog, GlMultiPlan *plan);
extern bool gl_cpu_multi_match(const GlMultiPlan *plan, const char *s, uint32_t len);

#endif							/* GPULIKE_CPU_MULTI_H */
