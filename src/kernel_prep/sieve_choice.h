/*-------------------------------------------------------------------------
 *
 * sieve_choice.h
 *	  The sieve's run, probes and window for a LIKE pattern (program_prep.cc
 *	  calls these while preparing a program).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SIEVE_CHOICE_H
#define GPULIKE_SIEVE_CHOICE_H

#include "kernel_prep/program_prep.h"

/*
 * The sieve for LIKE program prog (or a regex's prefilter, prefilter true:
 * never exact) into pp: pp->skim becomes GL_SKIM_SIEVE where a run is
 * worth sieving for, with pp->sieve, pp->sieve_masks and pp->sieve_start.
 */
extern void gl_choose_like_sieve(const GlProgram *prog, bool prefilter,
								 GlPreparedProgram *pp);

/*
 * The probes of run [start, start + len) of masks into sv, chosen on the
 * column's sampled text where pairs is not NULL; how common they are
 * (lower is rarer), INT32_MAX where no pair of positions can be probed.
 */
extern int	gl_choose_probes(const GlCharMasks *masks, uint32_t start, uint32_t len,
							 const GlBytePairs *pairs, GlSieve *sv);

#endif							/* GPULIKE_SIEVE_CHOICE_H */
