/*-------------------------------------------------------------------------
 *
 * classed_table.cc
 *	  Build the stream kernel's classed table of an Aho–Corasick program
 *	  (classed_table.h has the layout and why).
 *
 * A windowed table's states may be numbered for the text (state_numbers()):
 * a row of n states starts on bank (n * words a row) % 32, and a warp's
 * load takes as many wavefronts as the most distinct words one bank is
 * asked for, so the busiest rows should start where their likeliest
 * words miss each other's.  The column's sample (the stream's own rows,
 * cuda/device_column.cu) is walked once for each state's visits and the bank
 * words its steps read; the 32 busiest states, the root at bank 0, then
 * by visits, each take the first bank that the words of those placed
 * before it meet least often, by the product of the two states' word
 * counts (lanes are in their states independently); each gets the lowest
 * free number whose row starts there.  The other states keep their order
 * in the numbers left.  Simulated (bank_sim's walk, 8 kB of sample), 200
 * literals: 3.02 -> 2.96 wavefronts a load in the printable window, 3.27
 * -> 2.91 in the letters' (bank_sim's own list: 3.10 -> 2.91).  Measured,
 * test/kernels/kernel_bench, % of the read bandwidth: H200, "AC 200"
 * (printable) 40.5-40.7 -> 41.6-41.7, "AC 200 letters" 39.5 -> 40.8-41.1;
 * H100 50.9-51.2 -> 51.2-51.3 and 52.7-53.0 -> 53.5-53.8.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "kernel_prep/classed_table.h"

/* States numbered for the banks: the busiest, as many as there are banks. */
static const uint32_t NUMBERED_STATES = 32;
static const uint32_t BANKS = 32;
/* Bank words in a row, at most: (0x60 + 2) / 2, rounded up to a power of two. */
static const uint32_t MAX_ROW_WORDS = 64;

/*
 * The automaton as the table holds it, by state id: 0 the root, 1
 * MATCHED, then the program's states (its state t is t + 1), SKIP, and
 * the root's twin last; a column's program class, or
 * GL_CLASSED_MAX_CLASSES for the separator.
 */
typedef struct Automaton
{
	GlMultiTables m;			/* the program's */
	uint32_t	nstates;
	uint32_t	skip;
	uint32_t	twin;
	uint32_t	ncolumns;
	uint32_t	flip;			/* the windowed form's; 0: classed */
	uint32_t	column_class[GL_CLASSED_MAX_CLASSES];
} Automaton;

/*
 * The program class of each column of a windowed table of this flip
 * (classed_table.h), GL_CLASSED_MAX_CLASSES for the separator's; false
 * where some byte outside the window but the separator has a class of its
 * own.  (Byte 0x01 is outside either window.)
 */
static bool
window_classes(const uint8_t *byte_class, uint32_t flip, uint32_t column_class[])
{
	for (uint32_t b = 1; b < 256; b++)
	{
		uint32_t	column = gl_classed_window_column(b, flip);

		if (column < flip || b == 1)
			column_class[column] = byte_class[b];
		else if (byte_class[b] != column_class[column])
			return false;
	}
	column_class[gl_classed_window_column(0, flip)] = GL_CLASSED_MAX_CLASSES;
	return true;
}

/* The first windowed form's flip that prog's bytes allow and that fits max_bytes; 0: none. */
static uint32_t
choose_window(const uint8_t *byte_class, uint64_t nstates, uint32_t max_bytes,
			  uint32_t column_class[])
{
	for (uint32_t flip : GL_CLASSED_WINDOW_FLIPS)
		if ((nstates * (flip + 2) * sizeof(uint16_t) + 15) / 16 * 16 <= max_bytes &&
			window_classes(byte_class, flip, column_class))
			return flip;
	return 0;
}

/* State s's successor on column col. */
static uint32_t
successor(const Automaton *a, uint32_t s, uint32_t col)
{
	uint32_t	c = a->column_class[col];
	size_t		from;
	uint32_t	t;

	if (c == GL_CLASSED_MAX_CLASSES)
	{
		/* the separator: back to the root, or its twin after a matching row */
		return s == GL_CLASSED_MATCHED ? a->twin : GL_CLASSED_ROOT;
	}
	if (s == GL_CLASSED_MATCHED || s == a->skip)
		return s;				/* both keep to the separator */
	/* the program's state: its root (the root's twin too), or s - 1 */
	from = s == GL_CLASSED_ROOT || s == a->twin ? 0 : s - 1;
	t = a->m.next[from * a->m.nclasses + c];
	return a->m.accept[t] ? GL_CLASSED_MATCHED : t == 0 ? GL_CLASSED_ROOT : t + 1;
}

/*
 * Walk the sample (rows ending in 0x00) from the root: visits[s] the bytes
 * read in state s, and, for the states with a place in busiest (its index
 * there, else -1), words[place][w] those read from bank word w of the row.
 */
static void
walk_sample(const Automaton *a, const uint8_t *sample, uint32_t sample_bytes,
			const int *place, uint32_t *visits, double (*words)[MAX_ROW_WORDS])
{
	uint32_t	s = GL_CLASSED_ROOT;

	for (uint32_t i = 0; i < sample_bytes; i++)
	{
		uint32_t	col = gl_classed_window_column(sample[i], a->flip);

		if (visits != NULL)
			visits[s]++;
		if (words != NULL && place[s] >= 0)
			words[place[s]][col / 2]++;
		s = successor(a, s, col);
	}
}

/* The lowest number below SKIP's, but the root's, not taken, whose row starts on bank; 0: none. */
static uint32_t
free_number_on(const Automaton *a, const uint32_t residue[BANKS], const bool *taken,
			   uint32_t bank)
{
	for (uint32_t n = residue[bank]; n < a->skip; n += BANKS)
		if (n != GL_CLASSED_ROOT && !taken[n])
			return n;
	return 0;
}

/*
 * number[s] for each state s of a windowed automaton, from the sample
 * (see the header comment); false on out-of-memory (or a row of an even
 * number of words), number untouched.
 */
static bool
state_numbers(const Automaton *a, const uint8_t *sample, uint32_t sample_bytes,
			  uint32_t *number)
{
	uint32_t	row_words = (a->flip + 2) / 2;
	uint32_t   *visits = (uint32_t *) calloc(a->nstates, sizeof(uint32_t));
	uint32_t   *order = (uint32_t *) malloc(a->nstates * sizeof(uint32_t));
	int		   *place = (int *) malloc(a->nstates * sizeof(int));
	bool	   *taken = (bool *) calloc(a->nstates, sizeof(bool));
	uint32_t	nbusy;
	double		words[NUMBERED_STATES][MAX_ROW_WORDS] = {{0}};
	uint32_t	bank[NUMBERED_STATES];
	uint32_t	residue[BANKS];
	uint32_t	next_free = 1;

	/* an even row would reach half the banks' starts: both windows' rows are odd */
	if (row_words % 2 == 0 || visits == NULL || order == NULL || place == NULL || taken == NULL)
	{
		free(visits);
		free(order);
		free(place);
		free(taken);
		return false;
	}

	/* the root first, then the others by visits (not SKIP or the twin: they keep the last numbers) */
	walk_sample(a, sample, sample_bytes, NULL, visits, NULL);
	for (uint32_t s = 0; s < a->skip; s++)
		order[s] = s;
	std::stable_sort(order + 1, order + a->skip,
					 [&](uint32_t x, uint32_t y) { return visits[x] > visits[y]; });
	nbusy = std::min(NUMBERED_STATES, a->skip);
	for (uint32_t s = 0; s < a->nstates; s++)
		place[s] = -1;
	for (uint32_t k = 0; k < nbusy; k++)
		place[order[k]] = (int) k;
	walk_sample(a, sample, sample_bytes, place, NULL, words);

	/* the numbers whose rows start on bank b are residue[b] + 32 i (row_words is odd) */
	for (uint32_t n = 0; n < BANKS; n++)
		residue[n * row_words % BANKS] = n;

	bank[0] = 0;
	number[GL_CLASSED_ROOT] = GL_CLASSED_ROOT;
	taken[GL_CLASSED_ROOT] = true;
	for (uint32_t k = 1; k < nbusy; k++)
	{
		double		least = -1;

		bank[k] = 0;
		for (uint32_t b = 0; b < BANKS; b++)
		{
			double		meet = 0;

			if (free_number_on(a, residue, taken, b) == 0)
				continue;
			for (uint32_t j = 0; j < k; j++)
				for (uint32_t w = 0; w < row_words; w++)
				{
					/* word w here and word v there share a bank: b + w = bank[j] + v */
					for (uint32_t v = (b + w + 2 * BANKS - bank[j]) % BANKS; v < row_words; v += BANKS)
						meet += words[k][w] * words[j][v];
				}
			if (least < 0 || meet < least)
			{
				least = meet;
				bank[k] = b;
			}
		}
		number[order[k]] = free_number_on(a, residue, taken, bank[k]);
		if (number[order[k]] == 0)
		{
			/* no bank had a number left (a small automaton): the lowest free one */
			while (taken[next_free])
				next_free++;
			number[order[k]] = next_free;
		}
		taken[number[order[k]]] = true;
	}
	/* the others, in their order, in the numbers left; SKIP and the twin last */
	for (uint32_t s = 1; s < a->skip; s++)
	{
		if (place[s] >= 0)
			continue;
		while (taken[next_free])
			next_free++;
		number[s] = next_free;
		taken[next_free] = true;
	}
	number[a->skip] = a->skip;
	number[a->twin] = a->twin;

	free(visits);
	free(order);
	free(place);
	free(taken);
	return true;
}

bool
gl_build_classed_table(const GlProgram *prog, uint32_t max_bytes, bool windowed_ok,
					   const uint8_t *sample, uint32_t sample_bytes, GlClassedTable *out)
{
	Automaton	a;
	uint32_t	header;
	uint64_t	bytes;
	uint16_t   *entries;
	uint32_t   *number;

	memset(out, 0, sizeof(*out));
	a.m = gl_multi_tables(prog);
	a.nstates = a.m.nstates + 3;
	a.skip = a.nstates - 2;
	a.twin = a.nstates - 1;
	a.ncolumns = a.m.nclasses + 1;
	a.flip = 0;
	if (a.ncolumns > GL_CLASSED_MAX_CLASSES)
		return false;
	if (windowed_ok)
		a.flip = choose_window(a.m.byte_class, a.nstates, max_bytes, a.column_class);
	if (a.flip != 0)
	{
		a.ncolumns = a.flip + 2;
		header = 0;
	}
	else
	{
		/* each column a class: the program's, then the separator's */
		for (uint32_t c = 0; c < a.m.nclasses; c++)
			a.column_class[c] = c;
		a.column_class[a.m.nclasses] = GL_CLASSED_MAX_CLASSES;
		header = 256;
	}
	bytes = (header + (uint64_t) a.nstates * a.ncolumns * sizeof(uint16_t) + 15) / 16 * 16;
	if ((a.flip == 0 && (uint64_t) a.nstates * a.ncolumns > GL_CLASSED_MAX_ENTRIES) ||
		bytes > max_bytes)
		return false;
	number = (uint32_t *) malloc(a.nstates * sizeof(uint32_t));
	out->table = (uint8_t *) calloc(bytes, 1);
	if (number == NULL || out->table == NULL)
	{
		free(number);
		free(out->table);
		out->table = NULL;
		return false;
	}
	for (uint32_t s = 0; s < a.nstates; s++)
		number[s] = s;
	/* a sample that cannot be walked (no memory) leaves the states in order */
	if (a.flip != 0 && sample != NULL && sample_bytes > 0)
		(void) state_numbers(&a, sample, sample_bytes, number);

	out->window_flip = a.flip;
	out->nclasses = a.ncolumns; /* gl_classed_value() needs it */
	if (a.flip == 0)
		for (uint32_t b = 0; b < 256; b++)
			out->table[b] = (uint8_t) (2 * (b == 0 ? a.m.nclasses : a.m.byte_class[b]));
	entries = (uint16_t *) (out->table + header);
	for (uint32_t s = 0; s < a.nstates; s++)
	{
		uint16_t   *row = entries + (size_t) number[s] * a.ncolumns;

		for (uint32_t col = 0; col < a.ncolumns; col++)
			row[col] = (uint16_t) gl_classed_value(out, number[successor(&a, s, col)]);
	}
	free(number);
	out->nstates = a.nstates;
	out->bytes = (uint32_t) bytes;
	return true;
}

void
gl_classed_table_free(GlClassedTable *t)
{
	free(t->table);
	memset(t, 0, sizeof(*t));
}
