/*-------------------------------------------------------------------------
 *
 * kernels.h
 *	  Host-side launchers of the CUDA engine's kernels (internal to cuda/).
 *
 * A match runs as a short pipeline on one stream (see match.cu):
 *
 *	stream	(kernels_stream.cu) the program's byte DFA (byte_dfa.h) with the
 *			row separator folded in, one thread per 256-byte chunk: exact,
 *			one pass.  Used whenever the byte DFA fits shared memory and
 *			the program is not a plain '%literal%';
 *	skim	(kernels_skim.cu) one thread per chunk runs a byte automaton
 *			that needs no row borders -- Shift-And for a literal run of the
 *			pattern, or Aho–Corasick.  When the automaton is the whole
 *			predicate it sets the result bits and the pipeline ends there;
 *			otherwise it flags the chunks where the rows holding a hit
 *			start;
 *	compact	the flagged chunks become a dense list (warp ballots);
 *	rows	(kernels_rows.cu) one thread per chunk (every chunk, or only the
 *			listed ones) runs the exact per-row automaton over the rows that
 *			start in its chunk and sets their result bits: the fallback for
 *			programs whose byte DFA is too large;
 *	nulls	NULL rows are cleared from the result.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_KERNELS_H
#define GPULIKE_KERNELS_H

#include <cuda_runtime.h>

#include "device_column.h"

/* The program as the kernels see it: blob + derived tables, in device memory. */
typedef struct GlKernelProgram
{
	const uint64_t *blob;		/* copied into shared memory if it fits */
	uint32_t	blob_bytes;		/* multiple of 8 */
	uint32_t	in_shared;		/* 0: too large, kernels read it in place */
	uint32_t	aux_off;		/* derived table, an offset inside the blob */
	uint32_t	warmup_bytes;	/* MULTI skim: bytes to replay before a chunk */
	uint32_t	shared_limit;	/* dynamic shared memory a block may have */
} GlKernelProgram;

/* Shift-And masks of a byte needle of at most 32 positions. */
typedef struct GlSkimMasks
{
	uint32_t	mask[256];		/* bit i: position i accepts this byte */
	uint32_t	top;			/* bit of the last position */
} GlSkimMasks;

typedef struct GlLaunch
{
	const GlDeviceColumn *dcol;
	cudaStream_t stream;
	char	   *errbuf;
	size_t		errlen;
} GlLaunch;

/*
 * Blocks for a kernel whose blocks stay resident and walk the chunks in
 * grid steps: as many as fit the device at once (or as the chunks need).
 */
extern bool gl_resident_grid(const void *kernel, int block, uint32_t shared, uint64_t nchunks,
							 const GlLaunch *l, unsigned *grid);

/* The byte DFA (device copy of its table) over every chunk: exact. */
extern bool gl_launch_stream(const GlLaunch *l, const uint32_t *table, uint32_t nstates,
							 uint32_t *result);
/* Most byte DFA states whose table fits beside the stream kernel's stage. */
extern uint32_t gl_stream_max_states(uint32_t shared_limit);

/* exact: set the result bits of rows with a hit; else flag chunks. */
extern bool gl_launch_skim_shift_and(const GlLaunch *l, const GlSkimMasks *masks,
									 uint32_t warmup_bytes, bool exact,
									 uint8_t *chunk_flags, uint32_t *result);
/* Aho–Corasick is the whole predicate: always exact. */
extern bool gl_launch_skim_multi(const GlLaunch *l, const GlKernelProgram *kp,
								 uint32_t *result);
extern bool gl_launch_compact(const GlLaunch *l, const uint8_t *chunk_flags,
							  uint32_t *chunk_list, uint32_t *list_len);

/* chunk_list NULL: every chunk. */
extern bool gl_launch_rows(const GlLaunch *l, GlProgramKind kind,
						   const GlKernelProgram *kp, const uint32_t *chunk_list,
						   const uint32_t *list_len, uint32_t *result);
extern bool gl_launch_mask_nulls(const GlLaunch *l, uint32_t *result);

/* Largest dynamic shared memory a block may have on the current device. */
extern bool gl_shared_memory_limit(size_t *bytes, char *errbuf, size_t errlen);

#endif							/* GPULIKE_KERNELS_H */
