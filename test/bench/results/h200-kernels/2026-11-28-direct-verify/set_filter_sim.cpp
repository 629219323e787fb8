/*
 * Simulation (a study, not the extension's code): how many positions of
 * kernel_bench's text the set sieve's filter passes for 200 made-up
 * literals ("AC 200 rare": a word of the text with one byte made 'q'),
 * keyed as the engine keys them (each literal's rarest bigram, the low
 * five bits of each byte) and as sharper keys would: six bits of each
 * byte, seven, the exact bigram; and with each literal's two rarest
 * bigrams, a position passing only where the other bigram is where the
 * literal puts it (each tested by its own key's bits: what a test of a
 * candidate's second bigram before it is listed would leave); and each
 * literal's rarest trigram as two filters at a fixed offset.
 *
 * Built and run from the repository's root:
 *   g++ -O2 -std=c++17 -Itest/kernels -Isrc \
 *     test/bench/results/h200-kernels/2026-11-28-direct-verify/set_filter_sim.cpp \
 *     -o /tmp/set_filter_sim && /tmp/set_filter_sim
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_text.h"

/* A literal's bigram: its two bytes and where it stands in the literal. */
struct Bigram
{
	uint8_t		first;
	uint8_t		second;
	uint32_t	at;
};

/* The literal's bigrams, rarest first on the pair counts. */
static std::vector<Bigram>
rarest_bigrams(const std::string &lit, const std::vector<uint64_t> &pairs)
{
	std::vector<Bigram> b;

	for (uint32_t k = 0; k + 1 < lit.size(); k++)
		b.push_back({(uint8_t) lit[k], (uint8_t) lit[k + 1], k});
	std::stable_sort(b.begin(), b.end(), [&](const Bigram &x, const Bigram &y) {
		return pairs[x.first << 8 | x.second] < pairs[y.first << 8 | y.second];
	});
	return b;
}

/* The share of text positions whose pair has some literal's rarest bigram's key under bits. */
static double
one_bigram_pass(const std::vector<uint8_t> &text, const std::vector<std::vector<Bigram>> &lits,
				uint32_t bits)
{
	uint32_t	mask = (1u << bits) - 1;
	std::vector<bool> keys(1u << (2 * bits), false);
	uint64_t	passing = 0;

	for (const auto &b : lits)
		keys[(b[0].first & mask) << bits | (b[0].second & mask)] = true;
	for (size_t p = 0; p + 1 < text.size(); p++)
		passing += keys[(text[p] & mask) << bits | (text[p + 1] & mask)];
	return (double) passing / text.size();
}

/*
 * The share of positions passing two bigrams of one literal: the rarest
 * at p, and the second rarest where the literal puts it relative to the
 * first (each under bits), keyed by the rarest.
 */
static double
two_bigram_pass(const std::vector<uint8_t> &text, const std::vector<std::vector<Bigram>> &lits,
				uint32_t bits)
{
	uint32_t	mask = (1u << bits) - 1;
	std::vector<std::vector<std::pair<uint32_t, int32_t>>> second(1u << (2 * bits));
	uint64_t	passing = 0;

	for (const auto &b : lits)
		second[(b[0].first & mask) << bits | (b[0].second & mask)].push_back(
			b.size() < 2 ? std::make_pair(UINT32_MAX, 0) :
			std::make_pair((b[1].first & mask) << bits | (b[1].second & mask),
						   (int32_t) b[1].at - (int32_t) b[0].at));
	for (size_t p = 0; p + 1 < text.size(); p++)
		for (const auto &s : second[(text[p] & mask) << bits | (text[p + 1] & mask)])
		{
			int64_t		q = (int64_t) p + s.second;

			/* a two-byte literal has no second bigram: its first alone */
			if (s.first == UINT32_MAX ||
				(q >= 0 && (size_t) q + 1 < text.size() &&
				 (uint32_t) ((text[q] & mask) << bits | (text[q + 1] & mask)) == s.first))
			{
				passing++;
				break;
			}
		}
	return (double) passing / text.size();
}

/*
 * Two filters at a fixed offset, as a second shuffle and funnel shift a
 * position could test them: each literal's rarest trigram b0 b1 b2 (on
 * the text's own trigram counts), (b0, b1) in the first filter and
 * (b1, b2) in the second, a position passing where its pair is in the
 * first and the next position's in the second -- a pair of two literals
 * passes too.  A two-byte literal (b0, b1) puts every (b1, x) in the
 * second.
 */
static double
trigram_filters_pass(const std::vector<uint8_t> &text, const std::vector<std::string> &words)
{
	std::vector<uint32_t> trigrams(1u << 24, 0);
	std::vector<bool> first(1024, false),
				second(1024, false);
	uint64_t	passing = 0;

	for (size_t p = 0; p + 2 < text.size(); p++)
		trigrams[text[p] << 16 | text[p + 1] << 8 | text[p + 2]]++;
	for (const std::string &w : words)
	{
		uint32_t	at = 0;

		for (uint32_t k = 1; k + 2 < w.size(); k++)
			if (trigrams[(uint8_t) w[k] << 16 | (uint8_t) w[k + 1] << 8 | (uint8_t) w[k + 2]] <
				trigrams[(uint8_t) w[at] << 16 | (uint8_t) w[at + 1] << 8 | (uint8_t) w[at + 2]])
				at = k;
		first[(w[at] & 31) << 5 | (w[at + 1] & 31)] = true;
		if (w.size() >= 3)
			second[(w[at + 1] & 31) << 5 | (w[at + 2] & 31)] = true;
		else
			for (uint32_t x = 0; x < 32; x++)
				second[(w[1] & 31) << 5 | x] = true;
	}
	for (size_t p = 0; p + 2 < text.size(); p++)
		passing += first[(text[p] & 31) << 5 | (text[p + 1] & 31)] &&
			second[(text[p + 1] & 31) << 5 | (text[p + 2] & 31)];
	return (double) passing / text.size();
}

int
main()
{
	const size_t bytes = 64 << 20;
	GlXorshift	rng = {0x2545F4914F6CDD1DULL};
	std::vector<uint8_t> text;
	std::vector<uint64_t> pairs(65536, 0);
	std::vector<std::vector<Bigram>> lits;
	std::vector<std::string> words;
	char		row[256];
	uint64_t	occurrences = 0;

	while (text.size() < bytes)
	{
		uint32_t	len = gl_bench_comment(&rng, row);

		text.insert(text.end(), row, row + len);
		text.push_back(0);
	}
	for (size_t i = 0; i + 1 < text.size(); i++)
		if (text[i] != 0 && text[i + 1] != 0)
			pairs[text[i] << 8 | text[i + 1]]++;
	for (int i = 0; i < 200; i++)
	{
		std::string w = gl_bench_words[rng.below(gl_bench_nwords)];

		w[rng.below((uint32_t) w.size())] = 'q';
		lits.push_back(rarest_bigrams(w, pairs));
		words.push_back(w);
		for (size_t p = std::string((char *) text.data(), 1 << 20).find(w); p != std::string::npos;
			 p = std::string((char *) text.data(), 1 << 20).find(w, p + 1))
			occurrences++;
	}
	printf("200 made-up literals, 64 MB of kernel_bench's text; occurrences in its first MB:"
		   " %llu\n", (unsigned long long) occurrences);
	printf("(kernel_bench draws its own 200; these are drawn alike)\n");
	for (uint32_t bits : {5u, 6u, 7u, 8u})
		printf("rarest bigram, %u bits a byte: %.3f%% of positions pass\n", bits,
			   100.0 * one_bigram_pass(text, lits, bits));
	for (uint32_t bits : {5u, 6u})
		printf("two rarest bigrams, %u bits a byte: %.3f%% of positions pass\n", bits,
			   100.0 * two_bigram_pass(text, lits, bits));
	printf("rarest trigram as two filters at offsets 0 and 1, 5 bits a byte: %.3f%% of"
		   " positions pass\n", 100.0 * trigram_filters_pass(text, words));
	return 0;
}
