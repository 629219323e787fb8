/*-------------------------------------------------------------------------
 *
 * compact_for_text.cc
 *	  Renumber a compact table's rows for the banks, on the column's text
 *	  (the layout: byte_dfa.h).
 *
 * A warp's table load takes as many shared-memory wavefronts as the most
 * distinct words one bank is asked for.  Lanes in one state never meet
 * (a row's 64 words cover the 32 banks twice, and ASCII text reads only
 * its first 128 bytes), so what costs is lanes in two states whose bytes
 * fall on one bank.  The entry of byte b in row r sits on bank
 * (b / 4 % 32) ^ (r / 2 % 32): the row's number moves its bytes across the
 * banks.  The fixed numbering (byte_dfa.cc) puts the states after START
 * on banks START does not use for letters and the space, which serves
 * text where START is busiest and the others take turns; it cannot serve
 * a pattern whose busy states are several ('%e_e%': START 63% of the
 * steps, the matching row's state 19%, 'e' and 'e_' 8% each, three of
 * them on the same banks: 2.07 wavefronts a load).
 *
 * So, as the windowed classed table does (classed_table.cc), the column's
 * sample (the stream's own rows, cuda/device_column.cu) is walked once for each
 * row's visits and the bank words its bytes read, and the busiest rows,
 * START first, each take the row number whose banks the words of those
 * placed before it meet least often, by the product of the two rows'
 * word counts (lanes are in their states independently).  Rows up to 64
 * reach every bank offset, so the table may grow to 32 kB (from 16 kB,
 * the fewest rows) where the room allows; START and SKIP keep their rows
 * (the kernel has them as constants), the other rows fill the numbers
 * left.  Simulated (test/kernels/bank_sim), wavefronts a load, fixed ->
 * numbered: '%e_e%' 2.07 -> 1.73, '%s_ecial%r_quests%' 1.52 -> 1.16,
 * '%special%requests%' 1.20 -> 1.09, '%final%' 1.29 -> 1.23 (the table
 * 32 kB each, which still leaves the stream kernel's line buffers their
 * 32 warps).  Measured ('%e_e%', Nsight Compute, H200): 2.08 -> 1.77
 * wavefronts a shared load.  test/kernels/kernel_bench, % of the read
 * bandwidth, two rounds, fixed -> numbered, with the line stage: H200 '%e_e%'
 * 56.8-56.9 -> 61.6-61.8, 20 literals 51.7-52.0 -> 56.0-56.1, two
 * 63.1-63.9 -> 65.8-65.9; H100 62.2 -> 64.2-64.5, 59.5-59.6 ->
 * 61.6-61.9 and 65.9-66.2 -> 67.6-68.0; the other classes within 1.2
 * points but the H100's wide DFA, 70.0-71.0 -> 79.3-80.3 (the line
 * stage's).  (Numbered alone, with three slice buffers: H200 '%e_e%'
 * 59.6-60.4, 20 literals 55.5-56.0.)
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "kernel_prep/byte_dfa.h"

static const uint32_t BANKS = 32;
/* Rows numbered for the banks: the busiest, START among them. */
static const uint32_t NUMBERED_ROWS = 32;
/* Rows 0..63 reach each of the 32 bank offsets twice. */
static const uint32_t ROWS_FOR_BANKS = 64;
static const uint32_t NO_ROW = UINT32_MAX;

static const uint32_t START_ROW = GL_BYTE_DFA_COMPACT_START / 2;
static const uint32_t SKIP_ROW = GL_BYTE_DFA_COMPACT_SKIP / 2;

/* The bank offset of row r: bits 2..6 of its value 2 r. */
static inline uint32_t
bank_offset(uint32_t r)
{
	return (r >> 1) % BANKS;
}

/* The row after byte b in row r, flag or not. */
static inline uint32_t
next_row(const uint8_t *table, uint32_t r, uint32_t b)
{
	return table[gl_byte_dfa_compact_slot(2 * r, b)] >> 1;
}

/*
 * How often lanes in a row placed at bank offset x would ask the banks
 * that lanes in the rows placed before it ask, by bank (load[bank]: their
 * words' counts, summed).
 */
static double
meet(const double *words, uint32_t x, const double *load)
{
	double		m = 0;

	for (uint32_t w = 0; w < BANKS; w++)
		m += words[w] * load[w ^ x];
	return m;
}

uint8_t *
gl_compact_for_text(const uint8_t *table, uint32_t nrows, const uint8_t *sample,
					uint32_t sample_bytes, uint32_t max_rows, uint32_t *out_rows)
{
	uint32_t	limit = std::max(nrows, std::min(ROWS_FOR_BANKS, max_rows));
	uint32_t	visits[GL_BYTE_DFA_COMPACT_STATES + 1] = {0};
	double		words[GL_BYTE_DFA_COMPACT_STATES + 1][BANKS] = {{0}};
	bool		used[GL_BYTE_DFA_COMPACT_STATES + 1] = {false};
	bool		taken[GL_BYTE_DFA_COMPACT_STATES + 1] = {false};
	uint32_t	row[GL_BYTE_DFA_COMPACT_STATES + 1];
	uint32_t	order[GL_BYTE_DFA_COMPACT_STATES + 1];
	double		load[BANKS] = {0};
	uint32_t	nplaced = 0,
				norder = 0,
				rows = 0,
				next_free = 1;
	uint8_t    *out;

	if (nrows > GL_BYTE_DFA_COMPACT_STATES + 1 || sample == NULL || sample_bytes == 0)
		return NULL;

	/* the rows in use: those START and SKIP reach */
	{
		uint32_t	stack[GL_BYTE_DFA_COMPACT_STATES + 1];
		uint32_t	depth = 0;

		used[START_ROW] = used[SKIP_ROW] = true;
		stack[depth++] = START_ROW;
		stack[depth++] = SKIP_ROW;
		while (depth > 0)
		{
			uint32_t	r = stack[--depth];

			for (uint32_t b = 0; b < 256; b++)
			{
				uint32_t	t = next_row(table, r, b);

				if (t >= nrows)
					return NULL;	/* not a compact table of nrows rows */
				if (!used[t])
				{
					used[t] = true;
					stack[depth++] = t;
				}
			}
		}
	}

	/* each row's visits and the bank words its bytes read, walking the sample from START */
	for (uint32_t i = 0, r = START_ROW; i < sample_bytes; i++)
	{
		visits[r]++;
		words[r][(sample[i] >> 2) % BANKS]++;
		r = next_row(table, r, sample[i]);
	}

	/* START and SKIP stay; the busiest others take the rows their banks meet least */
	for (uint32_t r = 0; r < nrows; r++)
		row[r] = NO_ROW;
	row[START_ROW] = START_ROW;
	row[SKIP_ROW] = SKIP_ROW;
	taken[START_ROW] = taken[SKIP_ROW] = true;
	for (uint32_t w = 0; w < BANKS; w++)
		load[w ^ bank_offset(START_ROW)] += words[START_ROW][w];
	nplaced++;
	for (uint32_t r = 0; r < nrows; r++)
		if (used[r] && visits[r] > 0 && r != START_ROW && r != SKIP_ROW)
			order[norder++] = r;
	std::stable_sort(order, order + norder,
					 [&](uint32_t a, uint32_t b) { return visits[a] > visits[b]; });
	for (uint32_t k = 0; k < norder && nplaced < NUMBERED_ROWS; k++)
	{
		uint32_t	r = order[k];
		uint32_t	best = NO_ROW;
		double		least = 0;

		for (uint32_t to = 1; to < limit; to++)
		{
			double		m;

			if (taken[to])
				continue;
			m = meet(words[r], bank_offset(to), load);
			if (best == NO_ROW || m < least)
			{
				best = to;
				least = m;
			}
		}
		row[r] = best;
		taken[best] = true;
		for (uint32_t w = 0; w < BANKS; w++)
			load[w ^ bank_offset(best)] += words[r][w];
		nplaced++;
	}
	/* the other rows in use, in their order, in the numbers left */
	for (uint32_t r = 0; r < nrows; r++)
	{
		if (!used[r] || row[r] != NO_ROW)
			continue;
		while (taken[next_free])
			next_free++;
		row[r] = next_free;
		taken[next_free] = true;
	}
	for (uint32_t r = 0; r < nrows; r++)
		if (used[r] && row[r] + 1 > rows)
			rows = row[r] + 1;
	rows = std::max(rows, GL_BYTE_DFA_COMPACT_MIN_ROWS);

	if ((out = (uint8_t *) calloc(rows, GL_BYTE_DFA_COMPACT_ROW_BYTES)) == NULL)
		return NULL;
	for (uint32_t r = 0; r < nrows; r++)
	{
		if (!used[r])
			continue;
		for (uint32_t flag = 0; flag < 2; flag++)
			for (uint32_t b = 0; b < 256; b++)
			{
				uint32_t	e = table[gl_byte_dfa_compact_slot(2 * r + flag, b)];

				out[gl_byte_dfa_compact_slot(2 * row[r] + flag, b)] =
					(uint8_t) (2 * row[e >> 1] | (e & 1));
			}
	}
	*out_rows = rows;
	return out;
}
