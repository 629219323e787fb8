/*-------------------------------------------------------------------------
 *
 * device_column.h
 *	  The device form of a cached column, shared by the CUDA engine's files
 *	  (internal: the server sees only the opaque GlDeviceColumn of
 *	  gpulike_cuda.h).
 *
 * Layout: "contiguous stream with separators and a chunk index".
 *
 *	data	every value in row order, each followed by one 0x00 byte.  Text
 *			never contains NUL, so the separator resets every byte automaton
 *			(Shift-And, Aho–Corasick) for free and marks where the next row
 *			starts.  A NULL row is stored like '' and masked out at the end
 *			with the NULL bitmap.  The buffer ends with at least
 *			GL_DEV_TAIL_PAD zero bytes so 16-byte loads may run past the last
 *			row, and is always a whole number of chunks long.
 *	chunks	the stream is cut into GL_DEV_CHUNK_BYTES-byte chunks, one GPU
 *			thread each; for every chunk, the row that contains its first
 *			byte, how far back that row starts, and the 0x00 bytes in the
 *			chunk before each of its 32-byte words.  A thread can begin
 *			anywhere without reading any per-row offset array, and the row
 *			of a hit is found from its own 32-byte word alone
 *			(chunk_scan.cuh).
 *	nulls	one bit per row (uint32 words, same bit order as the host's
 *			uint64 words on a little-endian machine).
 *
 * Why not the pivoted tiles of DESIGN.md section 4?  The stream is the
 * smallest form (raw + 1 byte a row + 16 per chunk + 1/8 a row), every
 * DRAM sector a warp fetches through its stage (kernels_common.cuh) is
 * used whole, and the separator makes every program one branch-free byte
 * automaton (kernels_stream.cu) at one speed whatever the row lengths; a
 * thread per row over padded tiles diverges and reads padding
 * (kernel_bench's layout study: test/bench/results/h200-kernels/
 * README.md, "device_column.h: the layout").  Long values need no special
 * area: a sieve or skim thread never looks at row borders, and a stream
 * thread follows its last row past its chunk.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DEVICE_COLUMN_H
#define GPULIKE_DEVICE_COLUMN_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "gpulike_cuda.h"
#include "kernel_prep/byte_pairs.h"

/* Bytes of stream per GPU thread; a multiple of 64 (four 16-byte loads). */
constexpr uint32_t GL_DEV_CHUNK_BYTES = 256;
/* Zero bytes kept after the last separator: room for read-ahead. */
constexpr uint32_t GL_DEV_TAIL_PAD = 64;

/* n rounded up to a multiple of unit: the device copy's sizes and offsets */
static inline uint64_t
gl_round_up(uint64_t n, uint64_t unit)
{
	return (n + unit - 1) / unit * unit;
}

/* 32-byte words in a chunk: the unit a hit's row is found in. */
constexpr uint32_t GL_DEV_CHUNK_WORDS = GL_DEV_CHUNK_BYTES / 32;

/* Where chunk c (bytes [c * GL_DEV_CHUNK_BYTES, ...)) sits among the rows. */
typedef struct GlChunkIndex
{
	uint32_t	row;			/* row containing the chunk's first byte */
	uint32_t	back;			/* that row starts this many bytes earlier */
	/* 0x00 bytes (separators, the zero tail) in the chunk before word w */
	uint8_t		zeros_before[GL_DEV_CHUNK_WORDS];
} GlChunkIndex;

/* One 16-byte load reads an entry (chunk_scan.cuh): row in .x, the counts in .z and .w. */
static_assert(sizeof(GlChunkIndex) == 16 && offsetof(GlChunkIndex, zeros_before) == 8,
			  "a chunk index entry is row, back, then the eight zero counts");

/*
 * Several GPUs: a column is split into parts, one per device, each a
 * device column of its own holding consecutive rows from first_row (a
 * multiple of 64, so each part's result bitmap is a whole-word slice of
 * the column's).  The kernels see one part at a time; gl_cuda_match()
 * runs the parts at once and the slices make the answer.  How many parts
 * is the server's choice (gl_cuda_upload).
 */
/*
 * What a lane of a part keeps from one match to the next, so that a match
 * issues no allocation, stream or event calls (cudaFree alone
 * synchronizes the whole device): its stream, the events that time its
 * kernels, device scratch (the program, the result bitmap, chunk lists,
 * its listed words) and pinned host buffers the result comes back into,
 * grown only when too small.  The part owns one set per lane
 * (GL_CUDA_LANES), as CUB leaves temporary storage to its caller, so that
 * matches on different lanes share nothing but the column's data; each is
 * made at its lane's first match (match.cu) and freed with the part.  The
 * scratch is under 1 % of the part's bytes a lane and not counted in them.
 */
typedef struct GlMatchResources
{
	cudaStream_t stream;
	cudaEvent_t start;
	cudaEvent_t stop;
	void	   *scratch;
	size_t		scratch_bytes;
	uint64_t   *host_result;
	size_t		host_result_bytes;
	void	   *host_listing;	/* a listed result's count, words, indices */
	size_t		host_listing_bytes;
	uint64_t	resident_stamp; /* the cached program whose blob and byte DFA
								 * the scratch holds (program_cache.h); 0: none */
	int			stream_shape;	/* the stream kernel's launch shape for that
								 * program's table (gl_stream_shape()) */
	int			replaced_shape; /* and for the table a factored one replaced */
} GlMatchResources;


/* The prepared programs of a column (kernel_prep/prepared_cache.h). */
typedef struct GlPreparedCache GlPreparedCache;

/*
 * What a counting match reads beside the result (counting.cu): the
 * column's GlCountingRows on the device, in one allocation, set by the
 * server whenever the column changes.  rows: the column rows they
 * describe; a match counts only while that is the part's nrows.
 */
typedef struct GlDeviceCounting
{
	void	   *memory;
	size_t		capacity;
	uint64_t	rows;
	uint32_t	npages;
	const uint64_t *answerable;
	const uint64_t *uncertain;
	const uint32_t *page_first_row;
	const uint32_t *page_block;
} GlDeviceCounting;

struct GlDeviceColumn
{
	int			device;
	uint64_t	first_row;		/* the part's row 0 in the column */
	GlDeviceColumn *next;		/* the next part, on the next device */
	uint64_t	nrows;
	uint64_t	nbytes;			/* stream bytes used: values + separators */
	uint64_t	nchunks;		/* chunks covering nbytes */
	uint64_t	capacity_bytes; /* allocated for data */
	uint64_t	capacity_rows;	/* allocated for nulls (multiple of 64) */
	uint64_t	capacity_chunks;
	uint8_t    *data;
	uint32_t   *nulls;
	GlChunkIndex *chunks;
	GlMatchResources *match[GL_CUDA_LANES]; /* NULL until the lane's first match */
	GlBytePairs *pairs;			/* the first part's: the column's; NULL if none */
	GlPreparedCache *programs;	/* the first part's; NULL until the first
								 * match (program_cache.h) */
	GlDeviceCounting counting;	/* a column in one part: empty until set */
};

/*
 * 0x80 in every 0x00 byte of w, 0 elsewhere: how the index counts the
 * zero bytes of a word and how the kernels find them.  Carry-free (the
 * low seven bits of each byte are added separately), so it never marks
 * the byte above a zero.
 */
__device__ __forceinline__ uint32_t
gl_zero_byte_flags(uint32_t w)
{
	return ~(((w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | w | 0x7F7F7F7Fu);
}

/* Rows are numbered with 32 bits on the device (per part). */
constexpr uint64_t GL_DEV_MAX_ROWS = UINT32_MAX;

#endif							/* GPULIKE_DEVICE_COLUMN_H */
