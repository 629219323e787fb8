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

/* Byte k (0..15, a compile-time constant after unrolling) of a 16-byte word. */
__device__ __forceinline__ uint32_t
gl_byte_of(const uint4 &w, int k)
{
	uint32_t	word = (k < 4) ? w.x : (k < 8) ? w.y : (k < 12) ? w.z : w.w;

	return (word >> ((k & 3) * 8)) & 0xFF;
}

/*
 * Coalesced reading of per-thread chunks.  Every thread works through its
 * own 256-byte chunk of the stream, but a warp loading "its own 16 bytes"
 * per lane would touch 32 different lines per instruction.  Instead the
 * warp reads each chunk as four 64-byte slices: in load instruction j,
 * lane L fetches piece (j * 32 + L) % 4 of slice t of the chunk owned by
 * lane (j * 32 + L) / 4, so one instruction covers eight whole 64-byte
 * runs; the pieces go through a padded shared-memory stage (80 bytes per
 * lane: both the scattered stores and the per-lane reads stay free of bank
 * conflicts) and each lane takes back its own slice.  The lanes of a warp
 * own consecutive chunks (chunk = first + lane), so the owner's chunk is
 * plain arithmetic, not a shuffle: shuffles would compete with the
 * automaton's table loads for the shared-memory pipe.  Lanes past the last
 * chunk still take part (the exchange needs the whole warp) and read
 * zeros.
 */
constexpr uint32_t GL_SLICE_BYTES = 64;
constexpr uint32_t GL_SLICES_PER_CHUNK = GL_DEV_CHUNK_BYTES / GL_SLICE_BYTES;
constexpr uint32_t GL_SLICE_PITCH16 = 5;		/* 80 bytes, in uint4 */
constexpr uint32_t GL_STAGE_BYTES_PER_WARP = 32 * GL_SLICE_PITCH16 * 16;

__device__ __forceinline__ uint4
gl_stage_piece(const uint8_t *data, uint64_t lane_chunk, uint64_t nchunks, uint32_t t, int j)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	p = j * 32 + lane;
	uint64_t	chunk = lane_chunk - lane + p / 4;

	if (chunk >= nchunks)
		return make_uint4(0, 0, 0, 0);
	return gl_load16(data + chunk * GL_DEV_CHUNK_BYTES + t * GL_SLICE_BYTES + (p % 4) * 16);
}

/* Exchange the pieces through the warp's stage; words = this lane's slice. */
__device__ __forceinline__ void
gl_stage_exchange(uint4 *warp_stage, const uint4 *pieces, uint4 *words)
{
	uint32_t	lane = threadIdx.x % 32;

#pragma unroll
	for (int j = 0; j < 4; j++)
	{
		uint32_t	p = j * 32 + lane;

		warp_stage[(p / 4) * GL_SLICE_PITCH16 + p % 4] = pieces[j];
	}
	__syncwarp();
#pragma unroll
	for (int j = 0; j < 4; j++)
		words[j] = warp_stage[lane * GL_SLICE_PITCH16 + j];
	__syncwarp();
}

/*
 * 0x80 in every 0x00 byte of w, 0 elsewhere.  Carry-free (the low seven
 * bits of each byte are added separately), so unlike the shorter
 * gl_maybe_zero_bytes() below it never marks the byte above a zero.
 */
__device__ __forceinline__ uint32_t
gl_zero_byte_flags(uint32_t w)
{
	return ~(((w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | w | 0x7F7F7F7Fu);
}

/*
 * 0x80 in the zero bytes of w, and maybe in a byte just above a zero byte
 * (the borrow of the subtraction): two instructions, exact as to whether
 * w has any zero byte, a superset as to which.
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
