/*-------------------------------------------------------------------------
 *
 * test_dfa.h
 *	  The spec of a hand-made regex DFA, as the test programs build theirs
 *	  (inputs.cc, test/kernels/kernel_bench.cu): exact, over
 *	  ASCII colors, no code point ranges until the caller adds some, no
 *	  prefilter until the caller builds one.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_TEST_DFA_H
#define GPULIKE_TEST_DFA_H

extern "C"
{
#include "program/dfa_build.h"
}

static inline GlDfaSpec
test_dfa_spec(uint32_t nstates, uint32_t ncolors, uint32_t start_state, const uint16_t *trans,
			  const uint8_t *flags, const uint16_t *ascii_color, uint32_t default_color,
			  bool utf8)
{
	GlDfaSpec	spec = {};

	spec.nstates = nstates;
	spec.ncolors = ncolors;
	spec.start_state = start_state;
	spec.trans = trans;
	spec.flags = flags;
	spec.ascii_color = ascii_color;
	spec.default_color = default_color;
	spec.exact = true;
	spec.utf8 = utf8;
	return spec;
}

#endif							/* GPULIKE_TEST_DFA_H */
