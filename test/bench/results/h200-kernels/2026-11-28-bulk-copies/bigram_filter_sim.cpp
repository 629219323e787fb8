/*
 * Study (host only): how often would a bigram filter in front of the
 * Aho-Corasick stream pass on kernel_bench's text, and how much would the
 * walks it leaves step?  Each literal's rarest bigram by the first 8 kB's
 * counts (as GlBytePairs would count them), tested
 *	- by the bytes' low five bits in 32 x 32 bits, as verify_probe.cu tests
 *	  it, and the windows its passing positions leave to walk;
 *	- as a trigram filter of two such tables (each literal's rarest
 *	  trigram: its first two bytes in one, its last two in the other, both
 *	  must pass), two shuffles a byte, and the exact trigram set;
 *	- exactly (a 64 kbit map) and through a bloom filter of 256-4096 bits,
 *	  one hash.
 * The literal lists are drawn as kernel_bench draws them, from their own
 * seed (not its very draws).
 *   g++ -O2 -std=c++17 -Itest/kernels -Isrc bigram_filter_sim.cpp -o bigram_filter_sim
 */
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include <algorithm>

#include "bench_text.h"

static const size_t SAMPLE_BYTES = 8192;

typedef std::vector<std::string> Literals;

/* n literals of kernel_bench's shape: its ten words of the text, then made-up words */
static Literals
draw_literals(int n, bool letters_only)
{
	static const char *const words[] = {"special", "Complaints", "pinto", "sauternes",
	"warthogs", "dinos", "somas", "Tiresias", "dazzle", "snooze"};
	GlXorshift	rng = {0x1234 + (uint64_t) n};
	Literals	lits;

	for (int i = 0; i < n; i++)
	{
		std::string w = i < 10 ? words[i] : gl_bench_words[rng.below(gl_bench_nwords)];

		if (i >= 10)
		{
			w[rng.below((uint32_t) w.size())] = 'q';
			if (letters_only)
				for (char &c : w)
					if (!isalpha((unsigned char) c))
						c = 'q';
		}
		lits.push_back(w);
	}
	return lits;
}

/* The literal's k-byte gram (k = 2 or 3) seen least often in the sample, as bytes in an integer. */
static uint32_t
rarest_gram(const std::string &l, int k, const std::vector<uint64_t> &counts)
{
	uint32_t	best = 0;
	uint64_t	best_count = UINT64_MAX;

	for (size_t i = 0; i + k <= l.size(); i++)
	{
		uint32_t	g = 0;

		for (int j = 0; j < k; j++)
			g = g << 8 | (uint8_t) l[i + j];
		if (counts[g] < best_count)
		{
			best_count = counts[g];
			best = g;
		}
	}
	return best;
}

/* Bit (b & 31) of table[a & 31]: a 32 x 32 filter's test of the pair (a, b). */
static uint32_t
low_bits_pass(const uint32_t table[32], uint32_t a, uint32_t b)
{
	return (table[a & 31] >> (b & 31)) & 1;
}

static const char *
window_name(bool letters_only)
{
	return letters_only ? "letters" : "printable";
}

/* The 32 x 32 bigram filter, the trigram filters, and their pass rates. */
static void
trigram_filters(const std::vector<uint8_t> &text, int n, bool letters_only, const Literals &lits,
				const std::vector<uint32_t> &bigrams)
{
	uint32_t	first_pair[32] = {0},
				second_pair[32] = {0},
				low[32] = {0};
	std::vector<uint8_t> trigram_set(1 << 24, 0);
	std::vector<uint64_t> trigram_counts(1 << 24, 0);
	uint64_t	positions = 0,
				low_pass = 0,
				trigram_pass = 0,
				exact_pass = 0;

	for (size_t i = 0; i + 2 < SAMPLE_BYTES; i++)
		trigram_counts[text[i] << 16 | text[i + 1] << 8 | text[i + 2]]++;
	for (uint32_t p : bigrams)
		low[(p >> 8) & 31] |= 1u << (p & 31);
	for (const std::string &l : lits)
	{
		uint32_t	t = rarest_gram(l, 3, trigram_counts);

		first_pair[(t >> 16) & 31] |= 1u << ((t >> 8) & 31);
		second_pair[(t >> 8) & 31] |= 1u << (t & 31);
		trigram_set[t] = 1;
	}
	for (size_t i = 0; i + 2 < text.size(); i++)
	{
		positions++;
		low_pass += low_bits_pass(low, text[i], text[i + 1]);
		trigram_pass += low_bits_pass(first_pair, text[i], text[i + 1]) &
			low_bits_pass(second_pair, text[i + 1], text[i + 2]);
		exact_pass += trigram_set[text[i] << 16 | text[i + 1] << 8 | text[i + 2]];
	}
	printf("AC %3d %-9s 32 x 32 low bits: pass %.2f%%; trigram as two 32 x 32 tables: "
		   "pass %.2f%% (exact trigram set %.3f%%)\n",
		   n, window_name(letters_only), 100.0 * low_pass / positions,
		   100.0 * trigram_pass / positions, 100.0 * exact_pass / positions);
}

/*
 * The verification the 32 x 32 filter would leave: each passing position
 * p walked from p - (longest - 2) to p + longest - 1, within its row,
 * windows that meet walked once; the bytes walked against the text's (the
 * stream walks every byte once).
 */
static void
verification(const std::vector<uint8_t> &text, int n, bool letters_only, const Literals &lits,
			 const std::vector<uint32_t> &bigrams)
{
	uint32_t	low[32] = {0};
	size_t		longest = 0,
				walked = 0,
				row_start = 0,
				covered_to = 0;

	for (const std::string &l : lits)
		longest = std::max(longest, l.size());
	for (uint32_t p : bigrams)
		low[(p >> 8) & 31] |= 1u << (p & 31);
	for (size_t i = 0; i + 1 < text.size(); i++)
	{
		size_t		from,
					to;

		if (text[i] == 0)
		{
			row_start = i + 1;
			continue;
		}
		if (!low_bits_pass(low, text[i], text[i + 1]))
			continue;
		from = i >= row_start + longest - 2 ? i - (longest - 2) : row_start;
		to = i + longest;		/* exclusive; stops at the separator */
		for (size_t j = i; j < to && j < text.size(); j++)
			if (text[j] == 0)
			{
				to = j;
				break;
			}
		from = std::max(from, covered_to);
		if (to > from)
		{
			walked += to - from;
			covered_to = to;
		}
	}
	printf("AC %3d %-9s verification: longest literal %zu, windows walk %.3f bytes a byte of text\n",
		   n, window_name(letters_only), longest, (double) walked / text.size());
}

/* The exact bigram set and bloom filters of 256, 1024 and 4096 bits. */
static void
bloom_filters(const std::vector<uint8_t> &text, int n, bool letters_only, const Literals &lits,
			  const std::vector<uint32_t> &bigrams)
{
	std::vector<uint8_t> bigram_set(65536, 0);
	size_t		shortest = 99;

	for (const std::string &l : lits)
		shortest = std::min(shortest, l.size());
	for (uint32_t p : bigrams)
		bigram_set[p] = 1;
	for (int bits : {256, 1024, 4096})
	{
		std::vector<uint8_t> bloom(bits, 0);
		auto		hash = [&](uint32_t p) {
			return (uint32_t) ((p * 0x9E3779B1u) >> (32 - __builtin_ctz(bits)));
		};
		uint64_t	pass = 0,
					exact = 0,
					positions = 0;
		int			set_bits = 0;

		for (uint32_t p : bigrams)
			bloom[hash(p)] = 1;
		for (size_t i = 0; i + 1 < text.size(); i++)
		{
			uint32_t	p = text[i] << 8 | text[i + 1];

			positions++;
			pass += bloom[hash(p)];
			exact += bigram_set[p];
		}
		for (uint8_t b : bloom)
			set_bits += b;
		printf("AC %3d %-9s min len %zu  bloom %4d bits (%3d set): pass %.2f%%  "
			   "exact bigram set pass %.3f%%\n",
			   n, window_name(letters_only), shortest, bits, set_bits, 100.0 * pass / positions,
			   100.0 * exact / positions);
	}
}

int
main()
{
	GlXorshift	rng = {0x2545F4914F6CDD1DULL};
	std::vector<uint8_t> text;
	std::vector<uint64_t> bigram_counts(65536, 0);
	char		row[256];

	while (text.size() < 64000000)
	{
		uint32_t	len = gl_bench_comment(&rng, row);

		text.insert(text.end(), row, row + len);
		text.push_back(0);
	}
	for (size_t i = 0; i + 1 < SAMPLE_BYTES; i++)
		bigram_counts[text[i] << 8 | text[i + 1]]++;
	for (int n : {20, 200})
		for (bool letters_only : {false, true})
		{
			Literals	lits = draw_literals(n, letters_only);
			std::vector<uint32_t> bigrams;

			for (const std::string &l : lits)
				bigrams.push_back(rarest_gram(l, 2, bigram_counts));
			trigram_filters(text, n, letters_only, lits, bigrams);
			verification(text, n, letters_only, lits, bigrams);
			bloom_filters(text, n, letters_only, lits, bigrams);
		}
	return 0;
}
