/*-------------------------------------------------------------------------
 *
 * stream_automata.cuh
 *	  The stream kernel's automata, one for each form of its table:
 *	  compact, factored (compact, with candidates), wide, classed and
 *	  windowed (kernels_stream.cu tells what each costs a byte and why it
 *	  is chosen; the tables themselves: kernel_prep/byte_dfa.h, kernel_prep/classed_table.h).
 *
 * Each steps one byte of a 32-bit part of the text against the table in
 * the block's shared memory and says, through the record of each 32-byte
 * word, which separators ended matching rows (chunk_scan.cuh).  Figures
 * for the choices in this file: test/bench/results/h200-kernels/README.md
 * and h100-kernels/README.md, "Kernel design measurements".
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_STREAM_AUTOMATA_CUH
#define GPULIKE_STREAM_AUTOMATA_CUH

#include "kernel_prep/byte_dfa.h"
#include "kernel_prep/classed_table.h"
#include "chunk_scan.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

/*
 * Consecutive chunks stepped by one thread (A::chunks_per_thread): the
 * row open at the start of the first is skipped and the row open at the
 * end of the last followed, once per group instead of once per chunk.
 * The wide table takes eight, the others four (other counts: test/bench/
 * results/h200-kernels/README.md, variants not kept).
 */
static const uint32_t CHUNKS_PER_THREAD = 4;
static const uint32_t WIDE_CHUNKS_PER_THREAD = 8;

/*
 * The block's shared memory: the byte table first, then the warps'
 * stages.  At offset 0 the table's address is a constant, so a table
 * load needs no base register: one instruction less per byte than with
 * the table after the stage (kernel_bench's '%special%requests%').
 */
extern __shared__ uint4 stream_shared[];

/*
 * Two-byte entries (kernel_prep/byte_dfa.h, the wide table): state = the state's
 * value, the next entry at ((state & 0xFF00) | byte) ^ (state & 0x3E): a
 * byte permute and a three-input logical operation, as for the compact
 * table, then the load and a funnel shift that records the flag (bit 0,
 * shifted in from the top: hit_word() reverses the word).  The permute
 * takes the state's high byte alone, so the flag needs no mask.
 */
struct WideAutomaton : GlRecordedHits
{
	/* a row's answer comes on its separator (gl_words_to_list()) */
	static constexpr bool hits_end_rows = true;
	static constexpr bool may_walk_nothing = true;
	static constexpr uint32_t chunks_per_thread = WIDE_CHUNKS_PER_THREAD;
	static constexpr bool line_stage = true;
	static constexpr uint32_t skip = gl_byte_dfa_wide_value(GL_BYTE_DFA_SKIP);
	static constexpr uint32_t start = gl_byte_dfa_wide_value(GL_BYTE_DFA_START);

	__device__ __forceinline__ static uint32_t load(uint32_t at)
	{
		return reinterpret_cast<const uint16_t *>(stream_shared)[at];
	}

	__device__ __forceinline__ uint32_t entry(uint32_t state, uint32_t b) const
	{
		return load(gl_byte_dfa_wide_slot(state, b));
	}

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t part, int k,
											 uint32_t &hits) const
	{
		/* byte 0: the text's byte k; byte 1: the state's; bytes 2, 3: its zeros */
		uint32_t	e = load(__byte_perm(part, state, 0x7650 | k) ^ (state & 0x3E));

		hits = __funnelshift_r(hits, e, 1);
		return e;
	}

	/* the first byte's flag ended in bit 0 */
	__device__ __forceinline__ uint32_t hit_word(uint32_t hits) const
	{
		return __brev(hits);
	}

	__device__ __forceinline__ bool flagged(uint32_t e) const
	{
		return (e & 1) != 0;
	}

	/* the next state, flag and all: the next step's permute drops it */
	__device__ __forceinline__ uint32_t next(uint32_t e) const
	{
		return e;
	}
};

/*
 * A word's hit bits (first byte in bit 31) for automata whose record
 * says only whether each 16-byte half ended a matching row (the compact
 * table's sticky flag, the classed tables' root's twin).  Where each half
 * holds one separator at most, as in any text whose rows are 16 bytes or
 * longer, a half's hit is on its only separator; otherwise the word is
 * stepped again from the state it began in: step(state, part, k, &hit)
 * gives the state after byte k of part, and hit 1 where that byte
 * completed a hit, else 0.  zeros has bit i set for a 0x00 byte i.
 */
template <class Step>
__device__ __forceinline__ uint32_t
hits_by_halves(uint32_t zeros, bool first_hit, bool second_hit, uint32_t state,
			   const uint32_t parts[8], Step step)
{
	uint32_t	first = zeros & 0xFFFF;
	uint32_t	second = zeros & 0xFFFF0000;
	uint32_t	hits = 0;

	if (__popc(first) <= 1 && __popc(second) <= 1)
		return __brev((first_hit ? first : 0) | (second_hit ? second : 0));
#pragma unroll
	for (int k = 0; k < 32; k++)
	{
		uint32_t	hit;

		state = step(state, parts[k / 4], k % 4, &hit);
		hits |= hit << (31 - k);
	}
	return hits;
}

/*
 * One-byte entries: state = the entry that led to it (kernel_prep/byte_dfa.h), the
 * next entry at ((state << 8) | byte) ^ (state & 0x7C): a byte permute
 * and a three-input logical operation, then the load -- nothing else per
 * byte.  The flag (bit 0) sticks: once a separator has ended a matching
 * row, every state after it is flagged too, so the flag need not be
 * recorded byte by byte; the scan looks at it at the middle and the end
 * of each 32-byte word and takes it off there (gl_scan_hit_word()),
 * keeping the state the word began in.  Which of a flagged word's
 * separators ended the matching rows is found when its rows are resolved:
 * the only one, if the word has one separator (as every word has where
 * rows are 32 bytes or longer), or each half's only one, if its halves
 * have one at most (rows of 16 bytes or longer); otherwise the word is
 * stepped again from the state it began in, its flags recorded (the
 * middle's look pays where many rows match: h200-kernels/README.md).
 */
template <class Self>
struct CompactEntries
{
	static constexpr bool flag_sticks = true;
	static constexpr bool takes_candidates = false;
	static constexpr bool may_walk_nothing = false;
	/* a row's answer comes on its separator (gl_words_to_list()) */
	static constexpr bool hits_end_rows = true;
	static constexpr uint32_t chunks_per_thread = CHUNKS_PER_THREAD;
	static constexpr bool line_stage = true;
	static constexpr uint32_t skip = GL_BYTE_DFA_COMPACT_SKIP;
	static constexpr uint32_t start = GL_BYTE_DFA_COMPACT_START;

	__device__ __forceinline__ uint32_t entry(uint32_t state, uint32_t b) const
	{
		return reinterpret_cast<const uint8_t *>(stream_shared)[gl_byte_dfa_compact_slot(state, b)];
	}

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t part, int k) const
	{
		/* byte 0: the text's byte k; byte 1: the state; bytes 2, 3: its zeros */
		uint32_t	at = __byte_perm(part, state, 0x6540 | k) ^ (state & 0x7C);

		return reinterpret_cast<const uint8_t *>(stream_shared)[at];
	}

	__device__ __forceinline__ uint32_t without_flag(uint32_t state) const
	{
		return state & ~1u;
	}

	/*
	 * a word's record: the state it began in, the states after its first
	 * 16 bytes (bits 8..15) and after all 32 (bits 16..23), each half's
	 * flag telling whether a separator in it ended a matching row
	 */
	__device__ __forceinline__ static bool has_hits(uint32_t record)
	{
		return (record & 0x10100) != 0;
	}

	/*
	 * its hit bits, first byte in bit 31: zeros has bit i set for a 0x00
	 * byte i.  The halves' flags say which separators ended matching rows
	 * (hits_by_halves()), or the word is stepped again from the state it
	 * began in.
	 */
	__device__ __forceinline__ uint32_t hits_of(uint32_t record, const uint32_t parts[8],
												uint32_t zeros) const
	{
		const Self *self = static_cast<const Self *>(this);

		return hits_by_halves(zeros, record & 0x100, record & 0x10000, record & 0xFF, parts,
							  [self](uint32_t state, uint32_t part, int k, uint32_t *hit) {
								  uint32_t	e = self->step(state, part, k);

								  *hit = (uint32_t) self->flagged(e);
								  return self->without_flag(e);
							  });
	}

	__device__ __forceinline__ uint32_t next(uint32_t e) const
	{
		return e;
	}
};

struct CompactAutomaton : CompactEntries<CompactAutomaton>
{
	__device__ __forceinline__ bool flagged(uint32_t e) const
	{
		return (e & 1) != 0;
	}
};

/*
 * The compact table of a factored automaton (kernel_prep/byte_dfa.h): its candidate's
 * flag is no row's answer.  A chunk's words whose record shows the
 * candidate where a half ends have the half's flag taken off, and the
 * chunks where the rows from the one open at the half's start to the one
 * open after it start go to the per-row kernel's list (list_candidates()).
 * Every half where a factor stood ends in the candidate (it holds every
 * byte to there), so the records show them all.  Looked for only where
 * the table has a candidate: looking in every compact table cost those
 * with no factors (kernel_bench's "AC 20").
 */
struct FactoredAutomaton : CompactEntries<FactoredAutomaton>
{
	static constexpr bool takes_candidates = true;
	uint32_t	candidate;		/* the candidate's flagged value */
	uint32_t   *list;			/* the per-row kernel's chunks, list_len of them */
	uint32_t   *list_len;		/* (past capacity: full, no more written) */
	uint32_t	capacity;
	uint32_t   *tickets;		/* the stream kernel's (gl_launch_stream()) */
	uint32_t   *replaced_tickets;	/* (GlStreamTable) */

	/* a separator's entry: the row that ends there matches */
	__device__ __forceinline__ bool flagged(uint32_t e) const
	{
		return (e & 1) != 0 && e != candidate;
	}

	__device__ __forceinline__ void take_candidates(uint32_t records[GL_HIT_WORDS],
													uint64_t chunk, uint64_t nchunks,
													const GlChunkIndex *__restrict__ chunks) const
	{
		uint32_t	zero = 0;
		uint32_t	taken = 0;
		bool		next_too = false;

		/*
		 * First whether any record's byte 1 or 2 is the candidate, three
		 * instructions a word: x ^ the candidate has a zero byte there, and
		 * (x - 1) & ~x has its top bit set at the first zero byte (exactly:
		 * a byte borrows only past a zero byte below it)
		 */
#pragma unroll
		for (int g = 0; g < GL_HIT_WORDS; g++)
		{
			uint32_t	x = records[g] ^ candidate * 0x10100u;

			zero |= (x - 0x10100u) & ~x;
		}
		if ((zero & 0x808000u) == 0)
			return;
#pragma unroll
		for (int g = 0; g < GL_HIT_WORDS; g++)
		{
			/* bytes 1 and 2: the states after the word's halves */
			uint32_t	x = records[g] ^ candidate * 0x10100u;
			uint32_t	halves = ((x & 0xFF00) == 0 ? 0x100u : 0) |
				((x & 0xFF0000) == 0 ? 0x10000u : 0);

			records[g] &= ~halves;
			taken |= halves;
			if (g == GL_HIT_WORDS - 1)
				next_too = (halves & 0x10000) != 0;
		}
		if (taken != 0)
			list_candidates(chunk, next_too, nchunks, chunks);
	}

	/*
	 * The per-row kernel decides the rows that start in the chunks listed:
	 * the row open at this chunk's first byte starts in the chunk its index
	 * entry goes back to, the halves' others in this chunk; and, where the
	 * chunk's last half ended in the candidate, the row open after it may
	 * start at the next chunk's first byte.  (A chunk listed twice is
	 * decided twice, alike.)  The lanes that list at once take their room
	 * with one atomic: a column whose rows were nearly all candidates (the
	 * sample missed the factors) had each lane append a chunk once for each
	 * of its words, and the walk crawled on one contended counter
	 * (kernel_bench's missed column).
	 */
	__device__ __noinline__ void list_candidates(uint64_t chunk, bool next_too, uint64_t nchunks,
												 const GlChunkIndex *__restrict__ chunks) const
	{
		cg::coalesced_group lanes = cg::coalesced_threads();
		uint32_t	first = (uint32_t) ((chunk * GL_DEV_CHUNK_BYTES - chunks[chunk].back) /
										GL_DEV_CHUNK_BYTES);
		uint32_t	n = 1 + (first != chunk) + (next_too && chunk + 1 < nchunks);
		uint32_t	before = cg::exclusive_scan(lanes, n);
		uint32_t	at = UINT32_MAX;

		if (lanes.thread_rank() == lanes.size() - 1)
			at = list_room(before + n);
		at = lanes.shfl(at, lanes.size() - 1);
		if (at == UINT32_MAX)
			return;
		at += before;
		list[at] = (uint32_t) chunk;
		if (first != chunk)
			list[++at] = first;
		if (next_too && chunk + 1 < nchunks)
			list[++at] = (uint32_t) chunk + 1;
	}

	/*
	 * Room for n more in the list: where it starts, or UINT32_MAX where
	 * there is none.  Past the list's capacity the walk gives up: its ticket
	 * counter is put past every ticket, so that the warps end as they come
	 * for their next chunks, and the replaced table's is zeroed, so that
	 * its walk after this one decides every row (match.cu).  The count
	 * stops there too, for it could wrap past 2^32 in a large column of
	 * candidates.
	 */
	__device__ __forceinline__ uint32_t list_room(uint32_t n) const
	{
		uint32_t	at;

		if (*(volatile uint32_t *) list_len > capacity)
			return UINT32_MAX;
		at = atomicAdd(list_len, n);
		if (at + n <= capacity)
			return at;
		atomicMax(tickets, GL_STREAM_NO_TICKETS);
		*replaced_tickets = 0;
		return UINT32_MAX;
	}

	/* The row open into chunk next, ended by the candidate: the per-row kernel's. */
	__device__ __noinline__ void list_open_row(uint64_t next,
											   const GlChunkIndex *__restrict__ chunks) const
	{
		uint32_t	at = list_room(1);

		if (at != UINT32_MAX)
			list[at] = (uint32_t) ((next * GL_DEV_CHUNK_BYTES - chunks[next].back) /
								   GL_DEV_CHUNK_BYTES);
	}
};

/*
 * What the classed table's two forms share (kernel_prep/classed_table.h): two-byte
 * entries holding the next state's value, the root's twin's the largest,
 * entered by the separator of a matching row.  The largest entry of each
 * 16 bytes, one integer max a byte off the chain of loads, says whether
 * a separator in them ended a matching row; a word's record keeps the
 * state it began in (bits 0..15) and the two answers (bits 16, 17), from
 * which hits_of() finds those separators as the compact table's sticky
 * flag does: each half's only separator, where each has one at most, or
 * the word stepped again.  SKIP's and the twin's values depend on the
 * automaton (its states and classes), so they travel with it into the
 * kernel.  Form is the automaton (CRTP: hits_of() steps its entries).
 */
template <class Form>
struct ClassedEntries
{
	static constexpr bool flag_sticks = false;
	static constexpr bool hits_by_twin = true;
	static constexpr bool takes_candidates = false;
	static constexpr bool may_walk_nothing = true;
	/* a row's answer comes on its separator (gl_words_to_list()) */
	static constexpr bool hits_end_rows = true;
	static constexpr uint32_t chunks_per_thread = CHUNKS_PER_THREAD;
	/*
	 * slices only: two slice buffers hide the entry loads (2.9 wavefronts
	 * each) better than one line buffer at as many warps (kernel_bench's
	 * "AC 200 letters")
	 */
	static constexpr bool line_stage = false;
	static constexpr uint32_t start = GL_CLASSED_ROOT;
	uint32_t	skip;
	uint32_t	twin;

	/* keep the largest entry in most; the next state */
	__device__ __forceinline__ static uint32_t record(uint32_t e, uint32_t &most)
	{
		most = max(most, e);
		return e;
	}

	/* a word's record: the state it began in, its halves' largest entries */
	__device__ __forceinline__ uint32_t word_record(uint32_t start_state, uint32_t first,
													uint32_t second) const
	{
		return start_state | (uint32_t) (first == twin) << 16 | (uint32_t) (second == twin) << 17;
	}

	__device__ __forceinline__ static bool has_hits(uint32_t record)
	{
		return (record & 0x30000) != 0;
	}

	/* its hit bits, first byte in bit 31, as the compact table's (hits_by_halves()) */
	__device__ __forceinline__ uint32_t hits_of(uint32_t record, const uint32_t parts[8],
												uint32_t zeros) const
	{
		return hits_by_halves(zeros, record & 0x10000, record & 0x20000, record & 0xFFFF, parts,
							  [this](uint32_t state, uint32_t part, int k, uint32_t *hit) {
								  uint32_t	e = static_cast<const Form *>(this)->entry(state,
																						  gl_byte_in(part, k));

								  *hit = (uint32_t) (e == twin);
								  return e;
							  });
	}

	__device__ __forceinline__ bool flagged(uint32_t e) const
	{
		return e == twin;
	}

	__device__ __forceinline__ uint32_t next(uint32_t e) const
	{
		return e;
	}
};

/*
 * The classed form, for Aho–Corasick automata too large for the compact
 * table: the byte's class offset from the first 256 bytes, added to the
 * state (its row's byte offset), then the entry's load from 256 bytes on.
 */
struct ClassedAutomaton : ClassedEntries<ClassedAutomaton>
{
	__device__ __forceinline__ uint32_t entry(uint32_t state, uint32_t b) const
	{
		const uint8_t *shared = reinterpret_cast<const uint8_t *>(stream_shared);

		return *reinterpret_cast<const uint16_t *>(shared + 256 + state + shared[b]);
	}

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t part, int k,
											 uint32_t &hits) const
	{
		/* byte k alone, by one permute */
		return record(entry(state, __byte_perm(part, 0, 0x4440 | k)), hits);
	}
};

/*
 * The windowed forms, for such automata whose literals keep to the
 * letters' or the printable bytes' window: no class load.  The byte's
 * column, min(b ^ flip, flip + 1) -- the XOR once for four bytes, a
 * permute, a min -- doubled and added to the state times the row's length
 * (the state is twice its number: one IMAD) is the entry's address.
 */
struct WindowedAutomaton : ClassedEntries<WindowedAutomaton>
{
	uint32_t	flip;

	__device__ __forceinline__ uint32_t load(uint32_t state, uint32_t column) const
	{
		/*
		 * The table's shared address and the column's part first, off the
		 * state's chain, then one multiply-add on it: written in C, the
		 * compiler added the base after the multiply-add, one more
		 * instruction a byte on the chain (SASS; kernel_bench's "AC 200").
		 * The table is read-only after the launch's barrier, and every
		 * load here depends on text read after it, so the load needs no
		 * ordering of its own.
		 */
		uint32_t	off_chain = (uint32_t) __cvta_generic_to_shared(stream_shared) + 2 * column;
		uint16_t	entry;

		asm("{\n\t.reg .u32 at;\n\tmad.lo.u32 at, %1, %2, %3;\n\tld.shared.u16 %0, [at];\n\t}"
			: "=h"(entry) : "r"(state), "r"(flip + 2), "r"(off_chain));
		return entry;
	}

	__device__ __forceinline__ uint32_t entry(uint32_t state, uint32_t b) const
	{
		return load(state, gl_classed_window_column(b, flip));
	}

	__device__ __forceinline__ uint32_t step(uint32_t state, uint32_t part, int k,
											 uint32_t &hits) const
	{
		/* byte k of the part, flipped: min() sends every byte but the window's and 0x00 to flip + 1 */
		uint32_t	flipped = __byte_perm(part ^ flip * 0x01010101u, 0, 0x4440 | k);

		return record(load(state, min(flipped, flip + 1)), hits);
	}
};

#endif							/* GPULIKE_STREAM_AUTOMATA_CUH */
