/*-------------------------------------------------------------------------
 *
 * cpu_dfa.h
 *	  CPU engine: running a GL_PROG_DFA program over one value.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CPU_DFA_H
#define GPULIKE_CPU_DFA_H

#include <stdbool.h>
#include <stdint.h>

#include "program/program.h"

extern bool gl_cpu_match_dfa(const GlProgram *prog, const char *s, uint32_t len);

#endif							/* GPULIKE_CPU_DFA_H */
