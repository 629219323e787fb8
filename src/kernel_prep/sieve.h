/*-------------------------------------------------------------------------
 *
 * sieve.h
 *	  The sieve's look-up of one literal run of a LIKE pattern, as the
 *	  preparation fills it in (sieve_choice.cc) and the sieve kernel reads
 *	  it (cuda/kernels_sieve.cu, which takes it by value).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SIEVE_H
#define GPULIKE_SIEVE_H

#include <stdint.h>

/* The sieve's largest probe gap: all probes within a lane's 32 bytes. */
constexpr uint32_t GL_SIEVE_MAX_GAP = 15;
/* The longest window: all its bytes within a lane's 32 (cuda/kernels_sieve.cu). */
constexpr uint32_t GL_SIEVE_MAX_WINDOW = 12;

/*
 * A literal run of a LIKE pattern as the sieve looks for it: nchars
 * positions that accept ASCII bytes only, three of them probed with
 * (byte & mask) == value, a test every byte their position accepts
 * passes: probe_pos, the position after it (mask and value 0 past the
 * run: always passes) and probe_pos + probe_gap.  A run anchored at the
 * row start may probe position -1, the 0x00 separator before it: then
 * only row starts are candidates.
 *
 * An exact run of a few bytes is compared whole instead (window > 0):
 * window consecutive bytes, the separator before the run if it is
 * anchored at the row start, the run, and the separator after it if
 * anchored at the end, each tested with (byte & mask) == value, a test
 * that passes exactly the bytes its position accepts.  No candidate then
 * needs verifying.
 */
typedef struct GlSieve
{
	uint64_t	accept[128];	/* bit t: position t accepts this byte */
	uint32_t	nchars;			/* 2 .. 64 */
	int32_t		probe_pos;		/* first probe: a position of the run, or -1 */
	uint32_t	probe_gap;		/* third probe this much later: 1 .. 15 */
	uint32_t	probe_mask[3];	/* each byte of the mask, four times */
	uint32_t	probe_value[3];
	uint32_t	anchored_start; /* the run must start its row ... */
	uint32_t	anchored_end;	/* ... and end it (exact sieves only) */
	uint32_t	window;			/* bytes compared whole: 0 (probes), 2 .. 12 */
	uint32_t	window_mask[GL_SIEVE_MAX_WINDOW];	/* each byte of the mask, four times */
	uint32_t	window_value[GL_SIEVE_MAX_WINDOW];
	uint32_t	window_masked;	/* some byte of the window is tested through its mask */
} GlSieve;

#endif							/* GPULIKE_SIEVE_H */
