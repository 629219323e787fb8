/*-------------------------------------------------------------------------
 *
 * kernels.h
 *	  Host-side launchers of the CUDA engine's kernels (internal to cuda/).
 *
 * A match runs as a short pipeline on one stream (match.cu); which
 * kernels run for which program is kernel_prep/program_prep.h's table:
 *
 *	stream	(kernels_stream.cu) a byte DFA or classed Aho–Corasick table
 *			over every chunk, the row separator folded in: exact;
 *	sieve	(kernels_sieve.cu) a LIKE pattern's literal run, four positions
 *			an instruction: result bits when the run is the whole pattern,
 *			else flags on the chunks where rows holding it start;
 *	set sieve (kernels_set_sieve.cu) a LIKE ANY list's rare literals, by a
 *			bigram filter: exact, or it gives up and the stream kernel
 *			after it walks the column;
 *	compact	the flagged chunks as a dense list (warp ballots);
 *	skim	(kernels_skim.cu) an Aho–Corasick automaton too large for a
 *			byte DFA, a thread a chunk, blind to row borders: exact;
 *	rows	(kernels_rows.cu) the per-row automaton over the rows starting
 *			in every chunk, or the listed ones;
 *	count	(counting.cu) when the asker counts, the rows a counting
 *			answer counts, counted and cleared;
 *	list	the result's nonzero words, NULL rows out, into pinned host
 *			memory (result_words.cu); or, with too many of them,
 *	nulls	NULL rows cleared from the bitmap before it is copied back.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_KERNELS_H
#define GPULIKE_KERNELS_H

#include <cuda_runtime.h>

#include "device_column.h"
#include "kernel_prep/sieve.h"
#include "kernel_prep/stream_table.h"

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

typedef struct GlLaunch
{
	const GlDeviceColumn *dcol;
	cudaStream_t stream;
	size_t		shared_limit;	/* a block's shared memory on the column's
								 * devices, the smallest (GlCachedProgram) */
	char	   *errbuf;
	size_t		errlen;
} GlLaunch;

/* Blocks of a kernel that an SM holds at once, with this much dynamic shared memory. */
extern bool gl_blocks_per_sm(const void *kernel, int block, uint32_t shared, const GlLaunch *l,
							 int *per_sm);

/*
 * Blocks for a kernel whose blocks stay resident and walk the column (in
 * grid steps, or taking tickets): as many as fit the device at once (or as
 * nthreads need).
 */
extern bool gl_resident_grid(const void *kernel, int block, uint32_t shared, uint64_t nthreads,
							 const GlLaunch *l, unsigned *grid);

/*
 * The launch shape for table on the current device: chosen once per
 * table and device (the occupancy API), kept with the resident program.
 */
extern bool gl_stream_shape(const GlLaunch *l, const GlStreamTable *table, int *shape);
/*
 * The table's automaton over every chunk, in table->shape: exact.  tickets:
 * a device counter the caller has zeroed on l->stream (the warps take their
 * chunks from it), or set to GL_STREAM_NO_TICKETS: then the kernel ends at
 * once, unless a kernel before it on the stream zeroed it.
 */
#define GL_STREAM_NO_TICKETS 0x7F7F7F7Fu	/* a memset of 0x7F bytes */

extern bool gl_launch_stream(const GlLaunch *l, const GlStreamTable *table, uint32_t *tickets,
							 uint32_t *result);

/* exact: set the result bits of rows with a hit; else flag chunks. */
extern bool gl_launch_sieve(const GlLaunch *l, const GlSieve *sieve, bool exact,
							uint8_t *chunk_flags, uint32_t *result);
typedef struct GlLiteralSet GlLiteralSet;

/*
 * The set sieve (kernel_prep/literal_set.h): sets the result bits of the rows that
 * hold one of set's literals, or gives up by zeroing *give_up, which the
 * caller has set past every ticket of the stream kernel that follows.
 */
extern bool gl_launch_set_sieve(const GlLaunch *l, const GlLiteralSet *set, uint32_t *give_up,
								uint32_t *result);
/* Aho–Corasick is the whole predicate: always exact. */
extern bool gl_launch_skim_multi(const GlLaunch *l, const GlKernelProgram *kp,
								 uint32_t *result);
extern bool gl_launch_compact(const GlLaunch *l, const uint8_t *chunk_flags,
							  uint32_t *chunk_list, uint32_t *list_len);

/*
 * chunk_list NULL: every chunk; else the *list_len chunks listed, where
 * there are at most max_listed of them (more: none).
 */
extern bool gl_launch_rows(const GlLaunch *l, GlProgramKind kind,
						   const GlKernelProgram *kp, const uint32_t *chunk_list,
						   const uint32_t *list_len, uint64_t max_listed, uint32_t *result);
extern bool gl_launch_mask_nulls(const GlLaunch *l, uint32_t *result);

/*
 * The nonzero 64-bit words of result with the column's NULL rows taken
 * out, listed (result_words.cu): their indices, in order, into index
 * (device scratch with room for every word) and their number into
 * *count; then that number into host->count and, of the first capacity
 * of them, the indices and words into host->index and host->words --
 * pinned host memory, written by a kernel.  temp: CUB's temporary
 * storage, of gl_list_words_temp_bytes.
 */
typedef struct GlHostListing
{
	uint32_t   *count;
	uint32_t   *index;
	uint64_t   *words;
	uint64_t   *counted;		/* a counting match's count (gl_launch_count) */
} GlHostListing;

extern bool gl_list_words_temp_bytes(uint64_t nwords, size_t *bytes, char *errbuf,
									 size_t errlen);
extern bool gl_launch_list_words(const GlLaunch *l, const uint32_t *result, void *temp,
								 size_t temp_bytes, uint32_t *index, uint32_t *count,
								 uint32_t capacity, const unsigned long long *counted,
								 const GlHostListing *host);

/*
 * A counting match's result (gpulike_cuda.h's GlCudaResult.count): the
 * matches, negated if asked, among the rows that can be candidates, less
 * the rows counted into *counted (the caller zeroes it on l->stream); the
 * asker's all-visible blocks are at visible, in device memory.
 */
extern bool gl_launch_count(const GlLaunch *l, uint32_t *result, const uint64_t *visible,
							uint32_t nblocks, bool negate, unsigned long long *counted);

/* Largest dynamic shared memory a block may have on the current device. */
extern bool gl_shared_memory_limit(size_t *bytes, char *errbuf, size_t errlen);

#endif							/* GPULIKE_KERNELS_H */
