/*-------------------------------------------------------------------------
 *
 * chunk_scan.cuh
 *	  Streaming a byte automaton over a thread's 256-byte chunk, recording
 *	  where it reported hits, and turning hit positions into rows.
 *
 * Used by the Aho–Corasick skim (kernels_skim.cu) and the
 * stream kernels (kernels_stream.cu: the byte DFA of any program).  An
 * automaton A steps byte k (0..3, a constant after unrolling) of the
 * 32-bit word part of the text -- the word, not the byte, so that an
 * automaton may take the byte with a byte permute of its own.  Each
 * 32-byte word of a chunk leaves a record, one of three kinds:
 *	- hit bits (GlRecordedHits): state = a.step(state, part, k, hits)
 *	  also shifts one bit into hits, 1 where this byte completed a hit,
 *	  with one funnel shift; automata shift towards bit 31 or towards bit
 *	  0, whichever their entry makes one instruction, and a.hit_word()
 *	  puts a finished word into the common order, first byte in bit 31;
 *	- a sticky flag (A::flag_sticks): state = a.step(state, part, k)
 *	  records nothing; a hit flags the state and every state after it, so
 *	  the word's end state says whether it had hits, and the record keeps
 *	  the state it began in, from which a.hits_of() finds them again;
 *	- a state entered on hits (A::hits_by_twin): the step keeps the
 *	  largest entry in its fourth argument, and a hit's state is the
 *	  largest there is, so each 16 bytes' largest says whether they had
 *	  hits; a.word_record() keeps them and the state the word began in,
 *	  for a.hits_of() as above.
 * A chunk is read as four 64-byte slices through the warp's coalescing
 * stage (kernels_common.cuh), the next one or two slices in flight while
 * the current one is stepped; the slice loop is unrolled so the eight
 * records stay in registers: records[g] is that of bytes g * 32 .. g * 32
 * + 31.
 *
 * From a hit position to its row: the chunk index gives the row holding
 * the chunk's first byte and the 0x00 bytes before each of its 32-byte
 * words, so the row of byte p is that row, plus the zeros before p's
 * word, plus those before p in the word.  Only the 32 bytes of a word
 * with hits are read again (and stepped again, for a sticky flag, where
 * the word has more than one separator), and only where the index alone
 * does not tell that all its hits lie in the row open at its start
 * (gl_words_to_list()).
 * gl_resolve_warp_hits() does it for the whole warp at once: the lanes
 * list their words left with hits (records are indexed by constants
 * only, so they never leave registers) in the warp's stage, free between
 * chunks, and then share out the list, a word per lane.  Figures for the
 * choices in this file, and variants not kept: test/bench/results/
 * h200-kernels/README.md and h100-kernels/README.md, "Kernel design
 * measurements".
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CHUNK_SCAN_CUH
#define GPULIKE_CHUNK_SCAN_CUH

#include "kernels_common.cuh"

constexpr int GL_HIT_WORDS = GL_DEV_CHUNK_WORDS;
static_assert(GL_DEV_TAIL_PAD >= GL_SLICE_BYTES,
			  "the slice after the column's last chunk (stage_next) is in its tail pad");
static_assert(GL_HIT_WORDS == 8, "a hit word's place in a list is lane << 3 | word");

/* Bit 31 of entry appended to hits. */
__device__ __forceinline__ uint32_t
gl_shift_in_hit(uint32_t hits, uint32_t entry)
{
	return __funnelshift_l(entry, hits, 1);
}

template <class A>
__device__ __forceinline__ uint32_t
gl_scan_word(const A &a, uint32_t state, const uint4 &word, uint32_t &hits)
{
	uint32_t	parts[4] = {word.x, word.y, word.z, word.w};

#pragma unroll
	for (int k = 0; k < 16; k++)
		state = a.step(state, parts[k / 4], k % 4, hits);
	return state;
}

/*
 * Step the 32 bytes of w0, w1 and leave their record: for automata whose
 * flag sticks (A::flag_sticks), the state the word began in, the state
 * after its first 16 bytes (bit 8: a separator there ended a matching
 * row) and the state it ended in (bit 16: one in the last 16 bytes did),
 * the flag taken off at both; for the others, the word's hit bits in the
 * common order.
 */
template <class A>
__device__ __forceinline__ uint32_t
gl_scan_hit_word(const A &a, uint32_t state, const uint4 &w0, const uint4 &w1, uint32_t &record)
{
	if constexpr (A::flag_sticks)
	{
		uint32_t	start = state;
		uint32_t	parts[8] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w};

		uint32_t	mid;

#pragma unroll
		for (int k = 0; k < 16; k++)
			state = a.step(state, parts[k / 4], k % 4);
		mid = state;
		state = a.without_flag(state);
#pragma unroll
		for (int k = 16; k < 32; k++)
			state = a.step(state, parts[k / 4], k % 4);
		/* bytes 0, 1, 2: the states at the start, middle and end (each below 256) */
		record = __byte_perm(__byte_perm(start, mid, 0x7740), state, 0x3410);
		return a.without_flag(state);
	}
	else if constexpr (A::hits_by_twin)
	{
		uint32_t	start = state;
		uint32_t	first = 0;
		uint32_t	second = 0;

		state = gl_scan_word(a, state, w0, first);
		state = gl_scan_word(a, state, w1, second);
		record = a.word_record(start, first, second);
		return state;
	}
	else
	{
		record = 0;
		state = gl_scan_word(a, state, w0, record);
		state = gl_scan_word(a, state, w1, record);
		record = a.hit_word(record);
		return state;
	}
}

/*
 * Step the chunk of this lane, warp_first + lane * stride (zeros past
 * nchunks; every lane of the warp must call this, for the stage of
 * Buffers slice buffers).  Returns the state after the chunk's last byte;
 * *last_bytes, if wanted, gets the chunk's last four bytes (the last in
 * bits 24..31).  With stage_next (the same in every lane), the first
 * slice of each lane's next chunk is copied into buffer
 * gl_next_slice_buffer(Buffers) while the last slice is stepped: wait for
 * it with gl_stage_wait_all().
 *
 * With two or three buffers, the copies of the next one or two slices
 * run while a slice is stepped; with one, the next slice's copy starts
 * once the lanes have taken the current one.  The first slice waits.
 * Other orders of the fetch were slower (test/bench/results/h200-kernels/
 * README.md, variants not kept).
 */
template <int Buffers, class A>
__device__ __forceinline__ uint32_t
gl_scan_chunk(const A &a, uint32_t state, const uint8_t *__restrict__ data, uint64_t warp_first,
			  uint32_t stride, uint64_t nchunks, uint4 *warp_stage, uint32_t records[GL_HIT_WORDS],
			  uint32_t *last_bytes = nullptr, bool stage_next = false)
{
	/* slices whose copies run while one is stepped */
	constexpr uint32_t Ahead = Buffers - 1;
	GlStageCopies copies = gl_stage_copies(warp_stage, data, warp_first, stride, nchunks);

	static_assert(Buffers >= 1 && Buffers <= 3, "a stage has one to three buffers");
	/* the first slice, and as many more as will be in flight */
#pragma unroll
	for (uint32_t t = 0; t < (Ahead > 0 ? Ahead : 1); t++)
		gl_stage_fetch(copies, t, t);
#pragma unroll
	for (uint32_t t = 0; t < GL_SLICES_PER_CHUNK; t++)
	{
		uint4		words[4];
		uint32_t	later = GL_SLICES_PER_CHUNK - 1 - t;	/* slices after this one */

		/* slice t is in buffer t % Buffers */
		if (Ahead > 0 && t + Ahead < GL_SLICES_PER_CHUNK)
		{
			gl_stage_fetch(copies, (t + Ahead) % Buffers, t + Ahead);
			gl_stage_read(warp_stage, t % Buffers, Ahead, words);
		}
		else
		{
			/* every later slice's copy is started already, if there are buffers for it */
			gl_stage_read(warp_stage, t % Buffers, Ahead > 0 ? later : 0, words);
			if (Ahead == 0 && later > 0)
				gl_stage_fetch(copies, 0, t + 1);
		}
		/* slice GL_SLICES_PER_CHUNK: the next chunk's first (the column's tail pad past the last) */
		if (stage_next && later == 0)
			gl_stage_fetch(copies, gl_next_slice_buffer(Buffers), GL_SLICES_PER_CHUNK);
		state = gl_scan_hit_word(a, state, words[0], words[1], records[2 * t]);
		state = gl_scan_hit_word(a, state, words[2], words[3], records[2 * t + 1]);
		if (last_bytes != nullptr && t + 1 == GL_SLICES_PER_CHUNK)
			*last_bytes = words[3].w;
	}
	return state;
}

/*
 * gl_scan_chunk() through the line stage (kernels_common.cuh): the
 * chunk's second line is fetched once its first has been read, and with
 * stage_next the next chunk's first line once the second has (wait for
 * it with gl_stage_wait_all()).  So the second line's copy runs while the
 * first line's second slice is stepped; the slice stage of three buffers
 * keeps two slices in flight, but its copies take twice the wavefronts
 * (kernels_stream.cu has the figures).
 */
template <class A>
__device__ __forceinline__ uint32_t
gl_scan_chunk_lines(const A &a, uint32_t state, const uint8_t *__restrict__ data,
					uint64_t warp_first, uint32_t stride, uint64_t nchunks, uint4 *warp_stage,
					uint32_t records[GL_HIT_WORDS], uint32_t *last_bytes, bool stage_next)
{
	GlLineCopies copies = gl_line_copies(warp_stage, data, warp_first, stride, nchunks);

	gl_line_fetch(copies, 0);
#pragma unroll
	for (uint32_t t = 0; t < GL_SLICES_PER_CHUNK; t++)
	{
		uint4		words[4];
		uint32_t	line = t / 2;
		uint32_t	half = t % 2;

		if (half == 0)
			gl_stage_wait_all();
		gl_line_read(warp_stage, half, words);
		if (half == 1)
		{
			__syncwarp();		/* read by all before it is fetched into again */
			if (line + 1 < GL_LINES_PER_CHUNK || stage_next)
				gl_line_fetch(copies, line + 1);
		}
		state = gl_scan_hit_word(a, state, words[0], words[1], records[2 * t]);
		state = gl_scan_hit_word(a, state, words[2], words[3], records[2 * t + 1]);
		if (t + 1 == GL_SLICES_PER_CHUNK)
			*last_bytes = words[3].w;
	}
	return state;
}

/*
 * What the record of a 32-byte word says for automata that record hit
 * bits as they step: a word has hits where its record is not zero, and
 * the record is the hit bits.  (Automata whose flag sticks say it their
 * own way: kernels_stream.cu.)
 */
struct GlRecordedHits
{
	static constexpr bool flag_sticks = false;
	static constexpr bool hits_by_twin = false;
	static constexpr bool takes_candidates = false;

	__device__ __forceinline__ static bool has_hits(uint32_t record)
	{
		return record != 0;
	}

	__device__ __forceinline__ uint32_t hits_of(uint32_t record, const uint32_t parts[8],
												uint32_t zeros) const
	{
		return record;
	}
};

template <class A>
__device__ __forceinline__ bool
gl_any_hit(const A &a, const uint32_t records[GL_HIT_WORDS])
{
	bool		any = false;

#pragma unroll
	for (int g = 0; g < GL_HIT_WORDS; g++)
		any |= a.has_hits(records[g]);
	return any;
}

/* A 32-byte word with hits in a warp's list: lane << 3 | word, and its record. */
typedef struct GlHitWord
{
	uint32_t	where;
	uint32_t	record;
} GlHitWord;

/* Bit i for each byte i of flags whose top bit is set. */
__host__ __device__ __forceinline__ uint32_t
gl_byte_flags_to_bits(uint32_t flags)
{
	/* byte i's flag, moved to its low bit, lands on bit 24 + i; the other products stay below */
	return (((flags >> 7) & 0x01010101) * 0x01020408) >> 24;
}

/*
 * The top bit of each byte of x that is 1, exactly (a byte's sum below
 * never carries into the next: the top bits are taken off first).
 */
__host__ __device__ __forceinline__ uint32_t
gl_bytes_one(uint32_t x)
{
	uint32_t	low = ((x ^ 0x01010101) & 0x7F7F7F7F) + 0x7F7F7F7F;	/* top bit: low 7 bits not 1 */

	return ~(low | x) & 0x80808080;
}

/* The top bit of each byte of x below 32, exactly. */
__host__ __device__ __forceinline__ uint32_t
gl_bytes_below_32(uint32_t x)
{
	uint32_t	low = (x & 0x7F7F7F7F) + 0x60606060;	/* top bit: low 7 bits 32 or more */

	return ~(low | x) & 0x80808080;
}

/* The words of this lane's chunk with hits (bit g: word g). */
template <class A>
__device__ __forceinline__ uint32_t
gl_words_with_hits(const A &a, const uint32_t records[GL_HIT_WORDS])
{
	uint32_t	words = 0;

#pragma unroll
	for (int g = 0; g < GL_HIT_WORDS; g++)
		words |= (uint32_t) a.has_hits(records[g]) << g;
	return words;
}

/*
 * The words of this lane's chunk whose hits need their bytes read again
 * (bit g: word g), for automata whose hits come on the separators that
 * end matching rows (A::hits_end_rows), once the others are set.  A word
 * with one separator has its one hit there, in the row open at the
 * word's start, which the chunk index alone gives: the chunk's row plus
 * the separators before the word.  (The index counts a word's separators
 * as the difference of two neighbours' counts; the chunk's last word's
 * are the next chunk's row less this one's, less those before the word:
 * one more load, from the line the entry is in seven times in eight.  The
 * column's last chunk, which holds the zero tail, keeps its last word
 * listed.)  Where many rows match, most words with hits are of that
 * kind, and fewer rounds of the warp's list are left to read and count
 * bytes.  The eight words are looked at together, four counts to an
 * instruction, and their rows go to the result as one 32-row mask.  The
 * counts take plain integer instructions: a word's count is a byte of
 * one subtraction (the counts never fall, so no byte borrows), and a
 * byte's test for 1 or for less than 32 is exact in three
 * (gl_bytes_one()); other forms were slower (README, variants not kept).
 * The skim's hits fall
 * anywhere in a row, so only its words with no separator could be set
 * so: no gain; it lists them all.
 */
template <class A>
__device__ __forceinline__ uint32_t
gl_words_to_list(const A &a, uint64_t chunk, const uint32_t records[GL_HIT_WORDS],
				 const GlChunkIndex *__restrict__ chunks, uint64_t nchunks, uint32_t nrows,
				 uint32_t *result)
{
	uint4		e = __ldg(reinterpret_cast<const uint4 *>(&chunks[chunk]));
	/*
	 * byte g: the separators in word g (0..6), zeros_before[g + 1] -
	 * zeros_before[g]; the counts never fall, so no byte's difference
	 * borrows from the next (in_high's top byte is 0 less word 7's count:
	 * not a count, and left out below)
	 */
	uint32_t	in_low = __funnelshift_r(e.z, e.w, 8) - e.z;
	uint32_t	in_high = (e.w >> 8) - e.w;
	/*
	 * word 7: the chunk's separators, the next chunk's row less this one's,
	 * less those before it (the column's last chunk has the zero tail)
	 */
	uint32_t	in_last = chunk + 1 < nchunks ?
		__ldg(&chunks[chunk + 1].row) - e.x - (e.w >> 24) : 0;
	/* one separator, fewer than 32 before it (its row then fits a 32-row mask) */
	uint32_t	one_row =
		gl_byte_flags_to_bits(gl_bytes_one(in_low) & gl_bytes_below_32(e.z)) |
		gl_byte_flags_to_bits(gl_bytes_one(in_high) & gl_bytes_below_32(e.w) & 0x00FFFFFF) << 4 |
		(uint32_t) (in_last == 1 && (e.w >> 24) < 32) << 7;
	uint32_t	words = gl_words_with_hits(a, records);
	uint32_t	set = words & one_row;
	uint32_t	rows = 0;		/* bit k: row e.x + k */

#pragma unroll
	for (int g = 0; g < GL_HIT_WORDS; g++)
		if ((set >> g) & 1)
			rows |= 1u << gl_zeros_before_word(e, g);
	gl_set_rows(result, e.x, rows, nrows);
	return words & ~one_row;
}

/*
 * Set the result bits of the rows of the hits of this round's chunks
 * (rows >= nrows, the zero tail after the last row, are ignored).  Every
 * lane of the warp calls it: records are those of chunk's words (none if
 * !mine), and list has room for 32 * GL_HIT_WORDS entries, free until it
 * returns.
 */
template <class A>
__device__ __forceinline__ void
gl_resolve_warp_hits(const A &a, const uint8_t *__restrict__ data, uint64_t chunk, bool mine,
					 const uint32_t records[GL_HIT_WORDS], const GlChunkIndex *__restrict__ chunks,
					 uint64_t nchunks, uint32_t nrows, uint32_t *result, GlHitWord *list)
{
	uint32_t	lane = threadIdx.x % 32;
	uint32_t	listed = 0;
	uint32_t	count;
	uint32_t	at;
	uint32_t	total;

	if (mine && gl_any_hit(a, records))
	{
		if constexpr (A::hits_end_rows)
			listed = gl_words_to_list(a, chunk, records, chunks, nchunks, nrows, result);
		else
			listed = gl_words_with_hits(a, records);
	}
	count = __popc(listed);
	at = gl_warp_inclusive_sum(count);
	total = __shfl_sync(0xFFFFFFFF, at, 31);
	{
		GlHitWord  *out = list + at - count;
		uint32_t	where = lane << 3;

#pragma unroll
		for (int g = 0; g < GL_HIT_WORDS; g++)
			if ((listed >> g) & 1)
				*out++ = {where | g, records[g]};
	}
	__syncwarp();

	for (uint32_t first = 0; first < total; first += 32)
	{
		bool		busy = first + lane < total;
		GlHitWord	item = busy ? list[first + lane] : GlHitWord{0, 0};
		uint64_t	c = __shfl_sync(0xFFFFFFFF, chunk, item.where >> 3);
		uint32_t	g = item.where & 7;

		if (busy)
		{
			const uint4 *words = reinterpret_cast<const uint4 *>(data + c * GL_DEV_CHUNK_BYTES);
			const uint4 *entry = reinterpret_cast<const uint4 *>(&chunks[c]);
			uint4		e = __ldg(entry);	/* row, back, zeros_before[8] */
			uint4		lo = __ldg(&words[2 * g]);
			uint4		hi = __ldg(&words[2 * g + 1]);
			uint32_t	parts[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
			uint32_t	zeros = 0;
			uint32_t	row = e.x + gl_zeros_before_word(e, g);
			GlResultWriter out;

#pragma unroll
			for (int i = 0; i < 8; i++)
				zeros |= gl_zero_bytes4(parts[i]) << (4 * i);
			out.init();
			for (uint32_t h = a.hits_of(item.record, parts, zeros); h != 0;)
			{
				uint32_t	p = __clz(h);	/* earliest hit: byte g * 32 + p */
				uint32_t	r = row + __popc(zeros & ((1u << p) - 1));

				h &= ~(0x80000000u >> p);
				if (r < nrows)
					out.set(result, r);
			}
			out.flush(result);
		}
	}
	__syncwarp();				/* the list is the stage: read before refilled */
}

#endif							/* GPULIKE_CHUNK_SCAN_CUH */
