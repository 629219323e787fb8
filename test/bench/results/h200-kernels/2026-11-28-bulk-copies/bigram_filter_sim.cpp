/*
 * Study (host only): how often would a bigram filter in front of the
 * Aho-Corasick stream pass on kernel_bench's text?  Each literal's rarest
 * bigram by the first 8 kB's counts (as GlBytePairs would count them),
 * the set of those tested exactly (a 64 kbit map) and through a bloom
 * filter of 256-4096 bits, one hash.  The literal lists are drawn as
 * kernel_bench draws them, from their own seed (not its very draws).
 *   g++ -O2 -std=c++17 -Itest/kernels -Isrc bigram_filter_sim.cpp -o bigram_filter_sim
 */
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include "bench_text.h"
int main()
{
	GlXorshift rng = {0x2545F4914F6CDD1DULL};
	std::vector<uint8_t> text; char row[256];
	while (text.size() < 64000000) { uint32_t len = gl_bench_comment(&rng, row); text.insert(text.end(), row, row + len); text.push_back(0); }
	static const char *const words[] = {"special", "Complaints", "pinto", "sauternes", "warthogs", "dinos", "somas", "Tiresias", "dazzle", "snooze"};
	std::vector<uint64_t> pair(65536, 0), tri_dummy;
	size_t sample = 8192;
	for (size_t i = 0; i + 1 < sample; i++) pair[text[i] << 8 | text[i + 1]]++;
	for (int n : {20, 200}) for (int letters = 0; letters < 2; letters++) {
		GlXorshift r = {0x1234 + (uint64_t) n};
		std::vector<std::string> lits;
		for (int i = 0; i < n; i++) {
			std::string w = i < 10 ? words[i] : gl_bench_words[r.below(gl_bench_nwords)];
			if (i >= 10) { w[r.below((uint32_t) w.size())] = 'q'; if (letters) for (char &c : w) if (!isalpha((unsigned char) c)) c = 'q'; }
			lits.push_back(w);
		}
		size_t minlen = 99; for (auto &l : lits) minlen = std::min(minlen, l.size());
		std::vector<uint8_t> set(65536, 0); std::vector<uint32_t> chosen;
		for (auto &l : lits) {
			uint32_t best = 0; uint64_t bc = UINT64_MAX;
			for (size_t i = 0; i + 1 < l.size(); i++) { uint32_t p = (uint8_t) l[i] << 8 | (uint8_t) l[i + 1]; if (pair[p] < bc) { bc = pair[p]; best = p; } }
			set[best] = 1; chosen.push_back(best);
		}
		/*
		 * As filter_probe.cu tests it: the bytes' low five bits, 32 x 32; and
		 * a trigram filter of two such tables (each literal's rarest trigram:
		 * its first two bytes in one, its last two in the other, both must
		 * pass), two shuffles a byte.
		 */
		{
			uint32_t t1[32] = {0}, t2[32] = {0}, low[32] = {0};
			std::vector<uint8_t> tri(1 << 24, 0);
			std::vector<uint64_t> tricount(1 << 24, 0);
			for (size_t i = 0; i + 2 < sample; i++) tricount[text[i] << 16 | text[i + 1] << 8 | text[i + 2]]++;
			for (uint32_t p : chosen) low[(p >> 8) & 31] |= 1u << (p & 31);
			for (auto &l : lits) {
				uint32_t best = 0; uint64_t bc = UINT64_MAX;
				for (size_t i = 0; i + 2 < l.size(); i++) {
					uint32_t t = (uint8_t) l[i] << 16 | (uint8_t) l[i + 1] << 8 | (uint8_t) l[i + 2];
					if (tricount[t] < bc) { bc = tricount[t]; best = t; } }
				t1[(best >> 16) & 31] |= 1u << ((best >> 8) & 31);
				t2[(best >> 8) & 31] |= 1u << (best & 31);
				tri[best] = 1;
			}
			uint64_t nb = 0, plow = 0, ptri = 0, pexact = 0;
			for (size_t i = 0; i + 2 < text.size(); i++) {
				nb++;
				plow += (low[text[i] & 31] >> (text[i + 1] & 31)) & 1;
				ptri += ((t1[text[i] & 31] >> (text[i + 1] & 31)) & (t2[text[i + 1] & 31] >> (text[i + 2] & 31))) & 1;
				pexact += tri[text[i] << 16 | text[i + 1] << 8 | text[i + 2]];
			}
			printf("AC %3d %-9s 32 x 32 low bits: pass %.2f%%; trigram as two 32 x 32 tables: pass %.2f%% (exact trigram set %.3f%%)\n",
				   n, letters ? "letters" : "printable", 100.0 * plow / nb, 100.0 * ptri / nb, 100.0 * pexact / nb);
		}
		/*
		 * The verification the 32 x 32 filter would leave: each passing
		 * position p walked from p - (longest - 2) to p + longest - 1, within
		 * its row, windows that meet walked once; the bytes walked against
		 * the text's (the stream walks every byte once).
		 */
		{
			uint32_t low[32] = {0};
			size_t longest = 0, walked = 0, row_start = 0, covered_to = 0;
			for (auto &l : lits) longest = std::max(longest, l.size());
			for (uint32_t p : chosen) low[(p >> 8) & 31] |= 1u << (p & 31);
			for (size_t i = 0; i + 1 < text.size(); i++) {
				if (text[i] == 0) { row_start = i + 1; continue; }
				if (!((low[text[i] & 31] >> (text[i + 1] & 31)) & 1)) continue;
				size_t from = i >= row_start + longest - 2 ? i - (longest - 2) : row_start;
				size_t to = i + longest;	/* exclusive; stops at the separator */
				for (size_t j = i; j < to && j < text.size(); j++) if (text[j] == 0) { to = j; break; }
				from = std::max(from, covered_to);
				if (to > from) { walked += to - from; covered_to = to; }
			}
			printf("AC %3d %-9s verification: longest literal %zu, windows walk %.3f bytes a byte of text\n",
				   n, letters ? "letters" : "printable", longest, (double) walked / text.size());
		}
		for (int bits : {256, 1024, 4096}) {
			std::vector<uint8_t> bloom(bits, 0);
			auto h = [&](uint32_t p) { return (uint32_t) ((p * 0x9E3779B1u) >> (32 - __builtin_ctz(bits))); };
			for (uint32_t p : chosen) bloom[h(p)] = 1;
			uint64_t pass = 0, exact = 0, nb = 0;
			for (size_t i = 0; i + 1 < text.size(); i++) { uint32_t p = text[i] << 8 | text[i + 1]; nb++; pass += bloom[h(p)]; exact += set[p]; }
			int setbits = 0; for (auto b : bloom) setbits += b;
			printf("AC %3d %-9s min len %zu  bloom %4d bits (%3d set): pass %.2f%%  exact bigram set pass %.3f%%\n", n, letters ? "letters" : "printable", minlen, bits, setbits, 100.0 * pass / nb, 100.0 * exact / nb);
		}
	}
}
