/*-------------------------------------------------------------------------
 *
 * regex_prefilter.h
 *	  A literal every match of a regex contains (see regex_prefilter.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGEX_PREFILTER_H
#define GPULIKE_REGEX_PREFILTER_H

#include "lib/stringinfo.h"

#include "program/dfa_build.h"

/* A character that a backslash before it makes a literal (ARE). */
extern bool gl_regex_escapes_to_literal(char c);

extern bool gl_regex_required_literal(const char *pattern, int len,
									  const GlDfaSpec *spec, StringInfo literal);

#endif							/* GPULIKE_REGEX_PREFILTER_H */
