/*-------------------------------------------------------------------------
 *
 * kernels_common.cuh
 *	  Device helpers shared by the kernels: loading the program into shared
 *	  memory, byte access to 16-byte words, UTF-8 decoding one byte at a
 *	  time, and setting result bits.
 *
 * Every kernel copies the whole program blob (program.h) into shared
 * memory first (when it fits): the blob is position independent, so the device code reads
 * masks, exception lists, automaton tables and color ranges through the
 * same offsets the CPU engine uses, and every table load is a shared-memory
 * load.  Derived tables (folded automata, see match.cu) are appended to the
 * blob by the host and copied along with it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_KERNELS_COMMON_CUH
#define GPULIKE_KERNELS_COMMON_CUH

#include <stdint.h>

#include "program/program.h"
#include "device_column.h"

/* Device twin of gl_program_section() (program.h is plain C, host only). */
__device__ __forceinline__ const void *
gl_dev_section(const GlProgram *prog, uint32_t off)
{
	return (const char *) prog + off;
}

/*
 * The program as this block reads it: copied into shared memory (nbytes, a
 * multiple of 8) when InShared, else in place in global memory (a program
 * too large for shared memory: slower, through L1/L2, but still exact).
 * InShared is a template constant so the hot loops compile to plain
 * shared-memory loads.
 */
template <bool InShared>
__device__ __forceinline__ const GlProgram *
gl_block_program(uint64_t *shared, const uint64_t *__restrict__ blob, uint32_t nbytes)
{
	if constexpr (InShared)
	{
		for (uint32_t i = threadIdx.x; i < nbytes / 8; i += blockDim.x)
			shared[i] = __ldg(&blob[i]);
		__syncthreads();
		return (const GlProgram *) shared;
	}
	else
		return (const GlProgram *) blob;
}

/* 16 bytes of the stream at an aligned position. */
__device__ __forceinline__ uint4
gl_load16(const uint8_t *p)
{
	return __ldg(reinterpret_cast<const uint4 *>(p));
}

/* The 16 bytes at pos (aligned), or zeros from limit (a multiple of 16) on. */
__device__ __forceinline__ uint4
gl_load16_below(const uint8_t *data, uint64_t pos, uint64_t limit)
{
	return pos < limit ? gl_load16(data + pos) : make_uint4(0, 0, 0, 0);
}

/* Byte k (0..3) of a 32-bit word of text. */
__device__ __forceinline__ uint32_t
gl_byte_in(uint32_t part, int k)
{
	return (part >> (8 * k)) & 0xFF;
}

/* Byte k (0..15, a compile-time constant after unrolling) of a 16-byte word. */
__device__ __forceinline__ uint32_t
gl_byte_of(const uint4 &w, int k)
{
	return gl_byte_in((k < 4) ? w.x : (k < 8) ? w.y : (k < 12) ? w.z : w.w, k & 3);
}

/*
 * Coalesced reading of per-thread chunks.  Every thread works through its
 * own 256-byte chunks of the stream, but a warp loading "its own 16 bytes"
 * per lane would touch 32 different lines per instruction.  Instead the
 * warp reads each chunk as four 64-byte slices: in copy instruction j,
 * lane L fetches piece (j * 32 + L) % 4 of slice t of the chunk owned by
 * lane (j * 32 + L) / 4, so one instruction covers eight whole 64-byte
 * runs, and each lane then reads back its own slice.  The lanes of a warp
 * own chunks `stride` apart (chunk = warp_first + lane * stride), so the
 * owner's chunk is plain arithmetic, not a shuffle: shuffles would
 * compete with the automaton's table loads for the shared-memory pipe.
 * Lanes past the last chunk still take part (the warp shares the stage)
 * and read zeros.
 *
 * The pieces travel by cp.async, straight from memory into the warp's
 * stage in shared memory: no register holds them, and no store
 * instruction moves them, which leaves the load/store pipe to the table
 * loads.  A stage has one to three slice buffers.  With two, the next
 * slice's copy starts before the current one is waited for; with three,
 * the next two slices' copies (the stream kernel, where its table leaves
 * the room: kernels_stream.cu); with one, it starts as soon as the lanes
 * have taken the current slice into registers, and the stage takes half
 * the shared memory (the Aho–Corasick skim, whose tables need it).  Each
 * choice was the faster (kernel_bench; figures in test/bench/results/
 * h200-kernels/README.md, "Kernel design measurements").
 *
 * A buffer holds 32 rows (lanes) of four 16-byte pieces, piece i of row r
 * in slot r * 4 + (i ^ ((r >> 1) & 3)).  A 16-byte access is served
 * eight lanes at a time: eight pieces of one copy instruction fill two
 * rows, one in each half of the 32 banks, and a lane's reading of piece j
 * meets seven other rows' piece j in seven other bank groups.  So neither
 * conflicts (a plain pitch cannot do both).
 * The reads take 4 wavefronts, the ideal; the copies take 8, twice the
 * ideal, because a copy instruction takes a wavefront for every 128-byte
 * line it reads, and these read eight (the line stage below takes 4).
 */
constexpr uint32_t GL_SLICE_BYTES = 64;
constexpr uint32_t GL_SLICES_PER_CHUNK = GL_DEV_CHUNK_BYTES / GL_SLICE_BYTES;
constexpr uint32_t GL_SLICE_BUFFER_BYTES = 32 * GL_SLICE_BYTES;

/* This warp's stage of `buffers` slice buffers within the block's stages. */
__device__ __forceinline__ uint4 *
gl_warp_stage(uint4 *stages, uint32_t buffers)
{
	return stages + (threadIdx.x / 32) * buffers * (GL_SLICE_BUFFER_BYTES / 16);
}

__device__ __forceinline__ uint32_t
gl_stage_slot(uint32_t row, uint32_t piece)
{
	return row * 4 + (piece ^ ((row >> 1) & 3));
}

/*
 * Where this lane's four copies of each slice of a chunk come from and go
 * to (piece j of the chunk owned by lane (j * 32 + L) / 4), worked out once
 * for the chunk: a slice's copies then only add the slice's and the
 * buffer's offsets.  Piece j's row in the stage is row j * 8 + L / 4, and
 * the swizzle of gl_stage_slot() depends on the row's bits 1-2 alone, the
 * same for every j: so piece j's slot is piece 0's plus j * 32.  A piece
 * past nchunks copies no bytes (zeros) from the column's start.
 *
 * Worked out at every slice, these were about 60 instructions for the 64
 * bytes a lane copies (other forms: test/bench/results/h200-kernels/
 * README.md, variants not kept).
 */
typedef struct GlStageCopies
{
	const uint8_t *from[4];		/* piece j of slice 0 */
	uint32_t	bytes[4];		/* 16, or 0 past nchunks */
	uint32_t	to;				/* piece 0's shared address in buffer 0 */
} GlStageCopies;

__device__ __forceinline__ GlStageCopies
gl_stage_copies(uint4 *warp_stage, const uint8_t *data, uint64_t warp_first, uint32_t stride,
				uint64_t nchunks)
{
	uint32_t	lane = threadIdx.x % 32;
	GlStageCopies c;

#pragma unroll
	for (int j = 0; j < 4; j++)
	{
		uint64_t	chunk = warp_first + (uint64_t) (j * 8 + lane / 4) * stride;
		bool		inside = chunk < nchunks;

		c.from[j] = inside ? data + chunk * GL_DEV_CHUNK_BYTES + (lane % 4) * 16 : data;
		c.bytes[j] = inside ? 16 : 0;
	}
	c.to = (uint32_t) __cvta_generic_to_shared(warp_stage + gl_stage_slot(lane / 4, lane % 4));
	return c;
}

/* Start copying slice t of the chunks into buffer `which`, as one cp.async group. */
__device__ __forceinline__ void
gl_stage_fetch(const GlStageCopies &c, uint32_t which, uint32_t t)
{
#pragma unroll
	for (int j = 0; j < 4; j++)
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
					 :: "r"(c.to + which * GL_SLICE_BUFFER_BYTES + j * 32 * 16),
					 "l"(c.from[j] + t * GL_SLICE_BYTES), "r"(c.bytes[j]) : "memory");
	asm volatile("cp.async.commit_group;" ::: "memory");
}

/*
 * The line stage: the same, a whole 128-byte line (two slices) of each
 * chunk at a time, into one line buffer a warp.  A cp.async instruction
 * takes one shared-memory wavefront for each 128-byte line it reads, and
 * one line's bytes must land in one 128-byte row of the stage (Nsight
 * Compute of a probe kernel of such copies, ldgsts_probe.cu in main's
 * history at 6a75a42^).  So eight lanes copy a chunk's line into the 128
 * bytes of its row: the line buffer holds 32 rows of eight 16-byte
 * pieces, piece k of row r in slot r * 8 + (k ^ (r & 7)), so that eight
 * lanes reading the same piece of their rows meet eight bank groups.
 * Copy instruction i takes row i * 4 + q (q = lane / 8), piece lane % 8:
 * 4 wavefronts, the ideal, and 4 to read a slice back.  A line buffer is
 * twice a slice buffer, so it serves where the table leaves room for it
 * (kernels_stream.cu).
 */
constexpr uint32_t GL_LINE_BYTES = 128;
constexpr uint32_t GL_LINE_BUFFER_BYTES = 32 * GL_LINE_BYTES;
constexpr uint32_t GL_LINES_PER_CHUNK = GL_DEV_CHUNK_BYTES / GL_LINE_BYTES;

/* This warp's line buffer within the block's stages. */
__device__ __forceinline__ uint4 *
gl_warp_line_stage(uint4 *stages)
{
	return stages + (threadIdx.x / 32) * (GL_LINE_BUFFER_BYTES / 16);
}

__device__ __forceinline__ uint32_t
gl_line_slot(uint32_t row, uint32_t piece)
{
	return row * 8 + (piece ^ (row & 7));
}

/*
 * Where this lane's eight copies of each line of a chunk come from and go
 * to, worked out once for the chunk: instruction i's source is i * step
 * past instruction 0's, its slot i * 512 bytes past even or odd i's.
 */
typedef struct GlLineCopies
{
	const uint8_t *from;		/* instruction 0's piece of line 0 */
	uint32_t	step;			/* bytes from instruction i's chunk to i + 1's */
	uint32_t	inside;			/* bit i: instruction i's chunk is a chunk; bit 8 + i: its next too */
	uint32_t	to_even;		/* instruction 0's slot's shared address */
	uint32_t	to_odd;			/* and instruction 1's, less 512 */
} GlLineCopies;

__device__ __forceinline__ GlLineCopies
gl_line_copies(uint4 *warp_stage, const uint8_t *data, uint64_t warp_first, uint32_t stride,
			   uint64_t nchunks)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	q = lane / 8;
	uint32_t	k = lane % 8;
	uint32_t	base = (uint32_t) __cvta_generic_to_shared(warp_stage);
	GlLineCopies c;

	c.from = data + (warp_first + q * stride) * GL_DEV_CHUNK_BYTES + k * 16;
	c.step = 4 * stride * GL_DEV_CHUNK_BYTES;
	c.inside = 0;
#pragma unroll
	for (int i = 0; i < 8; i++)
	{
		uint64_t	chunk = warp_first + (uint64_t) (i * 4 + q) * stride;

		c.inside |= (uint32_t) (chunk < nchunks) << i | (uint32_t) (chunk + 1 < nchunks) << (8 + i);
	}
	/* row i * 4 + q: its low three bits are q, or q + 4 for odd i */
	c.to_even = base + (q * 8 + (k ^ q)) * 16;
	c.to_odd = base + (q * 8 + (k ^ (q | 4))) * 16;
	return c;
}

/*
 * Start copying line `line` of the chunks into the line buffer, as one
 * cp.async group; line GL_LINES_PER_CHUNK is the next chunk's first.  A
 * piece past nchunks copies no bytes (zeros).
 */
__device__ __forceinline__ void
gl_line_fetch(const GlLineCopies &c, uint32_t line)
{
	uint32_t	inside = line < GL_LINES_PER_CHUNK ? c.inside : c.inside >> 8;

#pragma unroll
	for (int i = 0; i < 8; i++)
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
					 :: "r"(((i & 1) ? c.to_odd : c.to_even) + i * 512),
					 "l"(c.from + i * c.step + line * GL_LINE_BYTES),
					 "r"(((inside >> i) & 1) * 16) : "memory");
	asm volatile("cp.async.commit_group;" ::: "memory");
}

/* This lane's half `half` (a slice) of the line buffer, as it stands. */
__device__ __forceinline__ void
gl_line_read(const uint4 *warp_stage, uint32_t half, uint4 words[4])
{
	uint32_t	lane = threadIdx.x % 32;

#pragma unroll
	for (int j = 0; j < 4; j++)
		words[j] = warp_stage[gl_line_slot(lane, half * 4 + j)];
}

/* Buffer `which` of this warp's stage. */
__device__ __forceinline__ const uint4 *
gl_stage_buffer(const uint4 *warp_stage, uint32_t which)
{
	return warp_stage + which * (GL_SLICE_BUFFER_BYTES / 16);
}

/*
 * This lane's slice from buffer `which`, once all fetches but the
 * `pending` most recent ones (0, 1 or 2: a constant where the caller's
 * loop is unrolled) have arrived; that buffer is then free.
 */
__device__ __forceinline__ void
gl_stage_read(const uint4 *warp_stage, uint32_t which, uint32_t pending, uint4 words[4])
{
	const uint4 *buffer = gl_stage_buffer(warp_stage, which);
	uint32_t	lane = threadIdx.x % 32;

	if (pending >= 2)
		asm volatile("cp.async.wait_group 2;" ::: "memory");
	else if (pending == 1)
		asm volatile("cp.async.wait_group 1;" ::: "memory");
	else
		asm volatile("cp.async.wait_group 0;" ::: "memory");
	__syncwarp();				/* the other lanes' copies are complete too */
#pragma unroll
	for (int j = 0; j < 4; j++)
		words[j] = buffer[gl_stage_slot(lane, j)];
	__syncwarp();				/* read by all before it is fetched into again */
}

/*
 * The buffer a chunk's slice GL_SLICES_PER_CHUNK would take, free once the
 * chunk's last slice has been read: the next chunk's first slice goes there.
 */
__host__ __device__ constexpr uint32_t
gl_next_slice_buffer(uint32_t buffers)
{
	return GL_SLICES_PER_CHUNK % buffers;
}

/* Wait for every fetch of this warp's stage: its buffers then hold what was fetched. */
__device__ __forceinline__ void
gl_stage_wait_all(void)
{
	asm volatile("cp.async.wait_group 0;" ::: "memory");
	__syncwarp();
}

/*
 * 0x80 in the zero bytes of w, and maybe in a byte just above a zero byte
 * (the borrow of the subtraction): two instructions, exact as to whether
 * w has any zero byte, a superset as to which (gl_zero_byte_flags(),
 * device_column.h, is exact as to which).
 */
__device__ __forceinline__ uint32_t
gl_maybe_zero_bytes(uint32_t w)
{
	return (w - 0x01010101u) & ~w & 0x80808080u;
}

/* Byte flags (0x80 or 0 in each byte) as four bits: bit j for byte j. */
__device__ __forceinline__ uint32_t
gl_gather_byte_flags(uint32_t flags)
{
	/* the multiply moves the four flag bits next to each other at 28..31 */
	return ((flags >> 7) * 0x10204080u) >> 28;
}

/* The 0x00 bytes of w as four bits: bit j set for byte j. */
__device__ __forceinline__ uint32_t
gl_zero_bytes4(uint32_t w)
{
	return gl_gather_byte_flags(gl_zero_byte_flags(w));
}

/*
 * v summed over this lane and the lanes below it in its group of Width
 * consecutive lanes (the whole warp by default; every lane takes part).
 */
template <uint32_t Width = 32>
__device__ __forceinline__ uint32_t
gl_warp_inclusive_sum(uint32_t v)
{
	uint32_t	lane = threadIdx.x % Width;

	static_assert(Width >= 2 && Width <= 32 && (Width & (Width - 1)) == 0,
				  "a group is a power of two lanes of one warp");
	for (uint32_t d = 1; d < Width; d <<= 1)
	{
		uint32_t	below = __shfl_up_sync(0xFFFFFFFF, v, d, Width);

		if (lane >= d)
			v += below;
	}
	return v;
}

/*
 * UTF-8 decoding fed one byte at a time.  feed() returns true when b
 * completes a character (in cp).  Malformed input never faults: a stray
 * continuation byte or an invalid lead byte yields 0xFFFFFFFF, a code point
 * no pattern names, as the CPU engine does.  With utf8 off every byte is a
 * character.
 */
struct GlUtf8Decoder
{
	uint32_t	cp;
	uint32_t	pending;		/* continuation bytes still expected */

	__device__ __forceinline__ void reset()
	{
		cp = 0;
		pending = 0;
	}

	__device__ __forceinline__ bool feed(uint32_t b, bool utf8, uint32_t *out)
	{
		if (b < 0x80 || !utf8)
		{
			*out = b;
			pending = 0;
			return true;
		}
		if (b >= 0xC0)
		{
			pending = (b >= 0xF8) ? 0 : (b >= 0xF0) ? 3 : (b >= 0xE0) ? 2 : 1;
			cp = b & (0x7Fu >> (pending + 1));
			if (pending == 0)
			{
				*out = 0xFFFFFFFF;
				return true;
			}
			return false;
		}
		if (pending == 0)
		{
			*out = 0xFFFFFFFF;
			return true;
		}
		cp = (cp << 6) | (b & 0x3F);
		if (--pending > 0)
			return false;
		*out = cp;
		return true;
	}
};

/*
 * The result bitmap has a bit per row; rows >= nrows (the zero tail after
 * the last row, which reads as empty rows) are never set.  Three ways to
 * set bits, each where it is cheapest: one row (gl_set_row()), the rows
 * of a 32-row mask (gl_set_rows()), and consecutive rows one by one
 * (GlResultWriter).
 */

/*
 * The 0x00 bytes of a chunk before its word g, from the chunk's index
 * entry read as one 16-byte load (row, back, then the eight counts).
 */
__device__ __forceinline__ uint32_t
gl_zeros_before_word(const uint4 &entry, uint32_t g)
{
	return __byte_perm(g < 4 ? entry.z : entry.w, 0, 0x4440 | (g & 3));
}

/* Set row's result bit. */
__device__ __forceinline__ void
gl_set_row(uint32_t *result, uint32_t row, uint32_t nrows)
{
	if (row < nrows)
		atomicOr(&result[row / 32], 1u << (row % 32));
}

/*
 * Set the result bits of rows first + k for the bits k of rows, those
 * below nrows: at most two atomic ORs, one a result word.
 */
__device__ __forceinline__ void
gl_set_rows(uint32_t *result, uint32_t first, uint32_t rows, uint32_t nrows)
{
	uint32_t	shift = first % 32;
	uint32_t   *at = result + first / 32;
	uint64_t	placed;

	if (first >= nrows)
		return;
	if (nrows - first < 32)
		rows &= (1u << (nrows - first)) - 1;
	placed = (uint64_t) rows << shift;
	if ((uint32_t) placed != 0)
		atomicOr(at, (uint32_t) placed);
	if ((uint32_t) (placed >> 32) != 0)
		atomicOr(at + 1, (uint32_t) (placed >> 32));
}

/*
 * Result bits of consecutive rows, gathered in a register and written with
 * one atomicOr per 32-row word (neighbouring threads share border words).
 */
struct GlResultWriter
{
	uint32_t	word;
	uint32_t	bits;

	__device__ __forceinline__ void init()
	{
		word = UINT32_MAX;
		bits = 0;
	}

	__device__ __forceinline__ void set(uint32_t *result, uint32_t row)
	{
		if ((row >> 5) != word)
		{
			flush(result);
			word = row >> 5;
		}
		bits |= 1u << (row & 31);
	}

	__device__ __forceinline__ void flush(uint32_t *result)
	{
		if (bits != 0)
			atomicOr(&result[word], bits);
		bits = 0;
	}
};

#endif							/* GPULIKE_KERNELS_COMMON_CUH */
