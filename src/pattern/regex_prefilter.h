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

extern bool gl_regex_required_literal(const char *pattern, int len,
									  const GlDfaSpec *spec, StringInfo literal);

#endif							/* GPULIKE_REGEX_PREFILTER_H */
