/*-------------------------------------------------------------------------
 *
 * gpulike_cuda.h
 *	  C interface of the CUDA engine (the .cu files here), called by the server.
 *
 * Built only when nvcc is found (the Makefile defines GPULIKE_HAVE_CUDA).
 * Every function returns false on any CUDA error and writes a message to
 * errbuf; the caller then falls back to the CPU engine.  Nothing here calls
 * PostgreSQL; the CUDA runtime is linked statically, so on a host without a
 * driver the probe simply fails.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CUDA_H
#define GPULIKE_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* Inside the C linkage block: C++ includers get C names for these too. */
#include "column/answer.h"
#include "column/column.h"
#include "column/counting_rows.h"
#include "program/program.h"

typedef struct GlCudaDeviceInfo
{
	int			device_count;
	char		name[256];		/* of device 0 */
	size_t		total_memory;	/* bytes, device 0 */
	size_t		free_memory;
	int			sm_count;
	int			cc_major;
	int			cc_minor;
} GlCudaDeviceInfo;

/* One device's memory, for status reports. */
typedef struct GlCudaDeviceMemory
{
	char		name[256];
	size_t		total_memory;
	size_t		free_memory;
} GlCudaDeviceMemory;

/* A column resident in device memory (opaque). */
typedef struct GlDeviceColumn GlDeviceColumn;

/* Where one part of a device column lives. */
typedef struct GlCudaPart
{
	int			device;
	uint64_t	first_row;
	uint64_t	nrows;
	size_t		bytes;			/* device memory it holds */
} GlCudaPart;

/*
 * The first device and how many there are; false (and why) when there is
 * none the kernels can run on.  assumed_capability > 0 (10 * major +
 * minor) stands for the device's own compute capability: tests of the
 * refusal of older GPUs.
 */
extern bool gl_cuda_probe(GlCudaDeviceInfo *info, int assumed_capability,
						  char *errbuf, size_t errlen);

/* The oldest compute capability the kernels are built for (cuda/archs.mk). */
#define GL_CUDA_MIN_CAPABILITY	80
extern bool gl_cuda_device_memory(int device, GlCudaDeviceMemory *memory,
								  char *errbuf, size_t errlen);

/*
 * Build the device layout of col and upload it, split into nparts parts of
 * consecutive rows placed on the visible devices in turn from first_device
 * (the caller chooses: one part per device to use several GPUs; more parts
 * than devices put several on one device); NULL on failure.
 */
extern GlDeviceColumn *gl_cuda_upload(const GlColumn *col, int nparts, int first_device,
									  char *errbuf, size_t errlen);

/* The parts of dcol (at most max of them written); returns their number. */
extern int	gl_cuda_parts(const GlDeviceColumn *dcol, GlCudaPart *parts, int max);

/* Append rows [first_row, col->nrows) of col (delta rows) to a device column. */
extern bool gl_cuda_append(GlDeviceColumn *dcol, const GlColumn *col,
						   uint64_t first_row, char *errbuf, size_t errlen);

/* Device bytes held by a device column. */
extern size_t gl_cuda_device_bytes(const GlDeviceColumn *dcol);

/*
 * Counting on the device (counting.cu).  The server gives a column in one
 * part the arrays of its rows that counting needs (counting_rows.h), and
 * again whenever the column changes (rows NULL: takes them away); while
 * they describe the column's rows, gl_cuda_can_count() says so, and a
 * match may count its rows as a counting answer would (answer.h), on
 * the device: the count comes back, and only the rows the answer must
 * list.  False (and why) when the arrays could not be set; the column
 * then has none.
 */
extern bool gl_cuda_set_counting(GlDeviceColumn *dcol, const GlCountingRows *rows,
								 char *errbuf, size_t errlen);
extern bool gl_cuda_can_count(const GlDeviceColumn *dcol);

/*
 * A counting match: the asker's all-visible heap blocks, and whether the
 * program's result is to be negated (an exact program's NOT) before it
 * is counted.
 */
typedef struct GlCudaCount
{
	GlVisibleBlocks visible;
	bool		negate;
} GlCudaCount;

/*
 * Where a match's result goes on the host.  bits (gl_bitmap_words(nrows)
 * words) receives the whole bitmap -- unless capacity > 0 and at most
 * capacity of its words are nonzero: then only those come back, their
 * indices (increasing) in word_index and their bits in words, nwords of
 * them, listed is set and bits is not written.  Only a column in one
 * part is ever listed.
 *
 * With count (the column can count: gl_cuda_can_count), the result is
 * the program's matches (negated if asked) among the rows that can be
 * candidates, less the rows counted, which are only counted: counted
 * receives their number.  What comes back then needs no masking, and
 * lists exactly the rows a counting answer lists (answer.c).
 */
typedef struct GlCudaResult
{
	uint64_t   *bits;
	uint64_t	capacity;
	uint32_t   *word_index;
	uint64_t   *words;
	bool		listed;
	uint64_t	nwords;
	const GlCudaCount *count;
	uint64_t	counted;
} GlCudaResult;

/*
 * Matches one column may run at once: one on each lane.  A lane of a part
 * has its own stream, scratch and host buffers (device_column.h), so the
 * host work of one match -- preparing its program, copying its result
 * back -- overlaps the kernels of the others, and their kernels share the
 * GPU.  The caller gives each match in flight on a column a lane of its
 * own.  Each lane costs a result bitmap of the column on the device and
 * in pinned host memory.  Lanes overlap host work, not reading (a kernel
 * reads the column at most of the device's bandwidth): test/bench/
 * throughput --gpu-lanes 1,4,8 compares (test/bench/README.md).
 */
#define GL_CUDA_LANES	8

/*
 * Run prog over all rows of dcol into result, on lane (0 <= lane <
 * GL_CUDA_LANES; no other match on dcol may be using it), while matches
 * on the other lanes run.  kernel_ms receives the device time of the
 * matching kernels (the slowest part's; kernels of other lanes running
 * beside them lengthen it).  sieve_first:
 * the caller knows the literal of the program's prefilter (program.h) to
 * be rare in the column, so the sieve's flagged chunks are matched row by
 * row rather than streaming the whole column through the automaton.
 * fail_part >= 0 makes that part fail as a device error would
 * (gpulike.debug_gpu_fail_part: tests of the CPU fallback).
 */
extern bool gl_cuda_match(GlDeviceColumn *dcol, const GlProgram *prog, bool sieve_first,
						  int lane, int fail_part, GlCudaResult *result, double *kernel_ms,
						  char *errbuf, size_t errlen);

extern void gl_cuda_free(GlDeviceColumn *dcol);

#ifdef __cplusplus
}
#endif

#endif							/* GPULIKE_CUDA_H */
