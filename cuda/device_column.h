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
 *			byte and how far back that row starts.  A thread can begin
 *			anywhere without reading any per-row offset array.
 *	nulls	one bit per row (uint32 words, same bit order as the host's
 *			uint64 words on a little-endian machine).
 *
 * Why not the pivoted tiles of DESIGN.md §4?  Device bytes are raw + 1 per
 * row + 8 per 256-byte chunk + 1/8 per row (about 1.05x for 60-byte rows,
 * against 1.71-1.74x measured for pivot-4/8/16 on comment-like text, see
 * kernel_bench), and the skim pass, which does most of the work, reads a
 * warp's 32 chunks in whole 64-byte runs through a small shared-memory
 * stage (kernels_common.cuh): every sector fetched from DRAM is used
 * completely, with no per-tile padding and no row-length skew in a warp.
 * Measured on an H200 (kernel_bench): a thread-per-row Shift-And over
 * pivot-16 ran '%final%' at 1.69 TB/s of column bytes (1.74x the memory);
 * the contiguous skim runs a rare 25-byte literal at 1.74 TB/s but
 * '%final%' at 0.58 TB/s, because each slice with one of its 5% matching
 * rows is replayed to find the row: the cost of exactness without per-row
 * offsets, and the first thing to improve.
 * Long values need no special area: a skim thread never looks at row
 * borders, and a row-level thread simply follows its row past its chunk.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_DEVICE_COLUMN_H
#define GPULIKE_DEVICE_COLUMN_H

#include <stdint.h>

#include "gpulike_cuda.h"

/* Bytes of stream per GPU thread; a multiple of 64 (four 16-byte loads). */
constexpr uint32_t GL_DEV_CHUNK_BYTES = 256;
/* Zero bytes kept after the last separator: room for read-ahead. */
constexpr uint32_t GL_DEV_TAIL_PAD = 64;

/* Where chunk c (bytes [c * GL_DEV_CHUNK_BYTES, ...)) sits among the rows. */
typedef struct GlChunkIndex
{
	uint32_t	row;			/* row containing the chunk's first byte */
	uint32_t	back;			/* that row starts this many bytes earlier */
} GlChunkIndex;

struct GlDeviceColumn
{
	int			device;
	uint64_t	nrows;
	uint64_t	nbytes;			/* stream bytes used: values + separators */
	uint64_t	raw_bytes;		/* value bytes alone (for reporting) */
	uint64_t	nchunks;		/* chunks covering nbytes */
	uint64_t	capacity_bytes; /* allocated for data */
	uint64_t	capacity_rows;	/* allocated for nulls (multiple of 64) */
	uint64_t	capacity_chunks;
	uint8_t    *data;
	uint32_t   *nulls;
	GlChunkIndex *chunks;
};

/* Rows are numbered with 32 bits on the device. */
constexpr uint64_t GL_DEV_MAX_ROWS = UINT32_MAX;

#endif							/* GPULIKE_DEVICE_COLUMN_H */
