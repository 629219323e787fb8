/*-------------------------------------------------------------------------
 *
 * dfa_required.h
 *	  Whether every value an automaton over colors matches contains a given
 *	  string (see dfa_required.c).
 *
 * A leaf, like dfa_build.h: the regex compiler proposes literals read off
 * the pattern's text and keeps one this check proves, as the prefilter of
 * the program (program.h); the unit tests check it on automata of their
 * own.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DFA_REQUIRED_H
#define GPULIKE_DFA_REQUIRED_H

#include <stdbool.h>
#include <stdint.h>

#include "program/dfa_build.h"

/* Characters of a literal the check takes: a LIKE segment's. */
#define GL_DFA_REQUIRED_MAX_CHARS	GL_MAX_SEGMENT_CHARS

/*
 * True when every value the automaton of spec matches contains the nbytes
 * bytes of lit (characters in spec's encoding, at most
 * GL_DFA_REQUIRED_MAX_CHARS of them).  False when some matching value does
 * not, and also when lit is empty, malformed or too long, or the check
 * would take too long: false never loses a row, it only means "no
 * prefilter".
 */
extern bool gl_dfa_requires(const GlDfaSpec *spec, const char *lit, uint32_t nbytes);

#endif							/* GPULIKE_DFA_REQUIRED_H */
