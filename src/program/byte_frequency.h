/*-------------------------------------------------------------------------
 *
 * byte_frequency.h
 *	  How common each byte is in typical text.  Both engines look for the
 *	  rarest bytes of a pattern first: the CPU engine's skims (cpu_like.c)
 *	  and the GPU sieve's probes (kernel_prep/program_prep.cc).
 *
 * A leaf: plain C, no PostgreSQL calls.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_BYTE_FREQUENCY_H
#define GPULIKE_BYTE_FREQUENCY_H

#include <stdint.h>

/*
 * 0 (rare) .. 255 (very common).  Only the order matters; a poor guess
 * costs speed, never correctness.
 */
extern int	gl_byte_commonness(uint8_t b);

#endif							/* GPULIKE_BYTE_FREQUENCY_H */
