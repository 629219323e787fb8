/*-------------------------------------------------------------------------
 *
 * bank_sim.cu
 *	  Shared-memory bank conflicts of the stream kernel's table loads,
 *	  simulated on the host (make -C test/kernels, then build/bank_sim;
 *	  no GPU needed).
 *
 * The stream kernel (cuda/kernels_stream.cu) steps 32 lanes in lockstep,
 * each through its own chunks, and each byte is one shared-memory load per
 * lane.  A warp's load takes as many wavefronts as the most distinct
 * 32-bit words any one of the 32 banks is asked for (lanes asking for the
 * same word share it).  Which words the lanes ask for depends on the
 * table's layout, the states the lanes are in and the bytes they read, so
 * this program walks kernel_bench's text exactly as the kernel does --
 * lane L of a warp starting at chunk group L, in SKIP when its group opens
 * inside a row -- with the engine's own byte DFA, and averages the
 * wavefronts per load for the wide table (kernel_prep/byte_dfa.h's 16-bit entries)
 * and the compact one (one byte per entry, rows numbered for text), as
 * kernel_prep/byte_dfa.cc numbers its rows and as kernel_prep/compact_for_text.cc renumbers them
 * for the text's first GL_TEXT_SAMPLE_BYTES.
 *
 * The averages matched Nsight Compute where both were measured on an
 * H200 ('%special%requests%': the wide table's first form, 32-bit
 * entries, 2.0 simulated, 2.1 measured; compact with states in order 1.7
 * and 1.8; compact as built 1.2 and 1.3-1.4), so a layout can be judged
 * here before it takes any GPU time.  (The 16-bit wide table: 2.3; two
 * entries a bank word put bytes 64 apart, the space and 'a', on one
 * bank.)
 *
 * The Aho–Corasick skim (cuda/kernels_skim.cu) is walked the same way over
 * the tables gl_prepare_program() builds for kernel_bench's "AC 20" and
 * "AC 200" literal lists: the class table (256 bytes) and the folded one,
 * two loads a byte.  (200 literals: 1.00 + 3.43 wavefronts a byte.  A
 * table over a 64-byte window of the text's bytes, one 16-bit load a
 * byte, simulated 3.43 and measured 17% fewer wavefronts under Nsight
 * Compute, but the skim was no faster: branch next/skim-window.)  And the
 * classed table the stream kernel now runs such automata with
 * (kernel_prep/classed_table.h), walked as the stream kernel walks rows, with the
 * share of the lanes' steps its busiest states take, and its windowed
 * form, which has no class load, its states in order and numbered for the
 * banks on the text's first GL_TEXT_SAMPLE_BYTES (as the device column's
 * sample, device_column.h, numbers them).  Last, the factored automaton
 * (kernel_prep/literal_factors.h) chosen on the text's own sample, its compact table
 * walked as the stream kernel walks it.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

extern "C"
{
#include "column/column.h"
#include "program/like_build.h"
#include "program/multi_build.h"
}
#include "kernel_prep/byte_dfa.h"
#include "kernel_prep/classed_table.h"
#include "test_plans.h"
#include "bench_text.h"

static const uint32_t CHUNK = 256;
static const uint32_t CHUNKS_PER_THREAD = 4;	/* as kernels_stream.cu (the wide table: eight) */

/* Wavefronts of one warp-wide load of these byte offsets. */
static uint32_t
wavefronts(const uint32_t offset[32])
{
	uint32_t	words[32];
	uint32_t	nwords = 0;
	uint32_t	per_bank[32] = {0};
	uint32_t	most = 0;

	for (int lane = 0; lane < 32; lane++)
	{
		uint32_t	w = offset[lane] / 4;
		bool		seen = false;

		for (uint32_t i = 0; i < nwords && !seen; i++)
			seen = words[i] == w;
		if (!seen)
			words[nwords++] = w;
	}
	for (uint32_t i = 0; i < nwords; i++)
		if (++per_bank[words[i] % 32] > most)
			most = per_bank[words[i] % 32];
	return most;
}

static void
simulate(const char *pattern, const std::vector<uint8_t> &text)
{
	const char *error;
	GlProgram  *prog = gl_build_like(pattern, strlen(pattern), true, NULL, NULL, &error);
	GlByteDfa	dfa;
	uint16_t   *wide_table = NULL;
	uint64_t	groups = text.size() / (CHUNK * CHUNKS_PER_THREAD);
	uint64_t	loads = 0,
				wide_waves = 0,
				compact_waves = 0,
				numbered_waves = 0;
	uint8_t    *numbered = NULL;
	uint32_t	numbered_rows = 0;

	if (prog == NULL || !gl_build_byte_dfa(prog, GL_BYTE_DFA_COMPACT_STATES, &dfa) ||
		dfa.compact == NULL || (wide_table = gl_byte_dfa_wide_table(&dfa)) == NULL)
	{
		printf("%-24s no compact byte DFA\n", pattern);
		gl_byte_dfa_free(&dfa);
		free(prog);
		return;
	}
	numbered = gl_compact_for_text(dfa.compact,
								   gl_byte_dfa_compact_bytes(dfa.nstates) /
								   GL_BYTE_DFA_COMPACT_ROW_BYTES,
								   text.data(), GL_TEXT_SAMPLE_BYTES, 64, &numbered_rows);
	for (uint64_t warp = 0; warp + 32 <= groups; warp += 32)
	{
		uint32_t	wide[32],
					small[32],
					other[32];

		for (int lane = 0; lane < 32; lane++)
		{
			uint64_t	first = (warp + lane) * CHUNKS_PER_THREAD * CHUNK;
			bool		inside_row = first > 0 && text[first - 1] != 0;

			wide[lane] = gl_byte_dfa_wide_value(inside_row ? GL_BYTE_DFA_SKIP : GL_BYTE_DFA_START);
			small[lane] = inside_row ? GL_BYTE_DFA_COMPACT_SKIP : GL_BYTE_DFA_COMPACT_START;
			other[lane] = small[lane];
		}
		for (uint32_t pos = 0; pos < CHUNKS_PER_THREAD * CHUNK; pos++)
		{
			uint32_t	wide_at[32],
						small_at[32],
						other_at[32];

			for (int lane = 0; lane < 32; lane++)
			{
				uint32_t	b = text[(warp + lane) * CHUNKS_PER_THREAD * CHUNK + pos];

				wide_at[lane] = gl_byte_dfa_wide_slot(wide[lane], b) * 2;
				small_at[lane] = gl_byte_dfa_compact_slot(small[lane], b);
				wide[lane] = wide_table[wide_at[lane] / 2];
				small[lane] = dfa.compact[small_at[lane]];
				/* the kernel takes the sticky flag off at each 16 bytes (mid-word and end) */
				other_at[lane] = gl_byte_dfa_compact_slot(other[lane], b);
				other[lane] = numbered[other_at[lane]];
				if (pos % 16 == 15)
				{
					small[lane] &= ~1u;
					other[lane] &= ~1u;
				}
			}
			wide_waves += wavefronts(wide_at);
			compact_waves += wavefronts(small_at);
			numbered_waves += wavefronts(other_at);
			loads++;
		}
	}
	printf("%-24s %3u states   wide %.2f   compact %.2f   numbered %.2f (%u rows)\n", pattern,
		   dfa.nstates, (double) wide_waves / loads, (double) compact_waves / loads,
		   (double) numbered_waves / loads, numbered_rows);
	free(numbered);
	free(wide_table);
	gl_byte_dfa_free(&dfa);
	free(prog);
}

/*
 * The classed stream (kernel_prep/classed_table.h) over the same automaton, walked as
 * the stream kernel walks it: the class load and the entry's, a byte; or,
 * windowed, the entry's load alone.
 */
static void
simulate_classed(int n, const GlProgram *prog, bool windowed_ok, uint32_t sample_bytes,
				 const std::vector<uint8_t> &text)
{
	GlClassedTable t;
	uint64_t	groups = text.size() / (CHUNK * CHUNKS_PER_THREAD);
	uint64_t	loads = 0,
				class_waves = 0,
				entry_waves = 0;
	std::vector<uint64_t> visits;

	if (!gl_build_classed_table(prog, 1 << 30, windowed_ok, text.data(), sample_bytes, &t) ||
		(t.window_flip != 0) != windowed_ok)
	{
		printf("AC %-3d no %s table\n", n, windowed_ok ? "windowed" : "classed");
		gl_classed_table_free(&t);
		return;
	}
	visits.assign(t.nstates, 0);
	for (uint64_t warp = 0; warp + 32 <= groups; warp += 32)
	{
		uint32_t	state[32];

		for (int lane = 0; lane < 32; lane++)
		{
			uint64_t	first = (warp + lane) * CHUNKS_PER_THREAD * CHUNK;

			state[lane] = first > 0 && text[first - 1] != 0 ? gl_classed_skip(&t) : GL_CLASSED_ROOT;
		}
		for (uint32_t pos = 0; pos < CHUNKS_PER_THREAD * CHUNK; pos++)
		{
			uint32_t	class_at[32],
						entry_at[32];

			for (int lane = 0; lane < 32; lane++)
			{
				uint32_t	b = text[(warp + lane) * CHUNKS_PER_THREAD * CHUNK + pos];
				uint16_t	e;

				visits[state[lane] / (t.window_flip != 0 ? 2 : 2 * t.nclasses)]++;
				class_at[lane] = b;
				entry_at[lane] = gl_classed_entry_offset(&t, state[lane], (uint8_t) b);
				memcpy(&e, t.table + entry_at[lane], 2);
				state[lane] = e;
			}
			if (t.window_flip == 0)
				class_waves += wavefronts(class_at);
			entry_waves += wavefronts(entry_at);
			loads++;
		}
	}
	std::sort(visits.begin(), visits.end(), std::greater<uint64_t>());
	printf("AC %-3d %-9s %-8s %3u states %2u columns   class %.2f + entry %.2f"
		   "   (busiest states: %.0f%% %.0f%% %.0f%% %.0f%%, top 16 %.0f%%)\n", n,
		   t.window_flip == 0x40 ? "letters" : t.window_flip != 0 ? "printable" : "classed",
		   sample_bytes > 0 ? "numbered" : "", t.nstates,
		   t.nclasses, (double) class_waves / loads, (double) entry_waves / loads,
		   100.0 * visits[0] / (loads * 32), 100.0 * visits[1] / (loads * 32),
		   100.0 * visits[2] / (loads * 32), 100.0 * visits[3] / (loads * 32),
		   100.0 * std::accumulate(visits.begin(), visits.begin() + 16, (uint64_t) 0) / (loads * 32));
	gl_classed_table_free(&t);
}

/*
 * kernel_bench's literal list of n (its ten words of the text, then
 * made-up words with one letter turned into 'q'), as a program.
 */
static GlProgram *
bench_list(int n, GlXorshift *rng)
{
	static const char *const words[] = {"special", "Complaints", "pinto", "sauternes",
	"warthogs", "dinos", "somas", "Tiresias", "dazzle", "snooze"};
	std::vector<std::string> lits;
	std::vector<const char *> ptrs;
	std::vector<size_t> lens;
	const char *error;

	for (int i = 0; i < n; i++)
	{
		std::string w = i < 10 ? words[i] : gl_bench_words[rng->below(gl_bench_nwords)];

		if (i >= 10)
			w[rng->below((uint32_t) w.size())] = 'q';
		lits.push_back(w);
	}
	for (auto &l : lits)
	{
		ptrs.push_back(l.data());
		lens.push_back(l.size());
	}
	return gl_build_multi(ptrs.data(), lens.data(), n, false, true, &error);
}

/*
 * The factored automaton of prog (kernel_prep/literal_factors.h) on the text's own
 * sample, walked as the stream kernel walks its compact table.
 */
static void
simulate_factored(int n, const GlProgram *prog, const std::vector<uint8_t> &text)
{
	GlColumn	col;
	GlBytePairs *pairs;
	GlPreparedProgram pp;
	GlPrepareChoices choices = {UINT32_MAX, true, false, NULL};
	char		err[256];
	uint64_t	groups = text.size() / (CHUNK * CHUNKS_PER_THREAD);
	uint64_t	loads = 0,
				waves = 0;

	gl_column_init(&col, text.size() / 32, text.size());
	for (size_t at = 0, end; at < text.size(); at = end + 1)
	{
		end = std::find(text.begin() + at, text.end(), 0) - text.begin();
		if (end == text.size())
			break;
		gl_column_append(&col, gl_tid_make((uint32_t) (col.nrows / 256),
										   (uint16_t) (col.nrows % 256 + 1)),
						 (const char *) text.data() + at, (uint32_t) (end - at), 0);
	}
	pairs = gl_count_byte_pairs(&col);
	choices.pairs = pairs;
	if (pairs == NULL || !gl_prepare_program_with(prog, 227 * 1024, &choices, &pp, err,
												  sizeof(err)) || pp.factored == 0)
	{
		printf("AC %-3d no factored automaton\n", n);
		free(pairs);
		gl_column_free(&col);
		return;
	}
	for (uint64_t warp = 0; warp + 32 <= groups; warp += 32)
	{
		uint32_t	state[32];

		for (int lane = 0; lane < 32; lane++)
		{
			uint64_t	first = (warp + lane) * CHUNKS_PER_THREAD * CHUNK;

			state[lane] = first > 0 && text[first - 1] != 0 ? GL_BYTE_DFA_COMPACT_SKIP :
				GL_BYTE_DFA_COMPACT_START;
		}
		for (uint32_t pos = 0; pos < CHUNKS_PER_THREAD * CHUNK; pos++)
		{
			uint32_t	at[32];

			for (int lane = 0; lane < 32; lane++)
			{
				uint64_t	k = (warp + lane) * CHUNKS_PER_THREAD * CHUNK + pos;

				at[lane] = gl_byte_dfa_compact_slot(state[lane], text[k]);
				state[lane] = pp.byte_dfa.compact[at[lane]];
				/* the kernel takes the flag off at each 16 bytes */
				if (pos % 16 == 15)
					state[lane] &= ~1u;
			}
			waves += wavefronts(at);
			loads++;
		}
	}
	printf("AC %-3d factored  %3u states, %u literals by a factor   entry %.2f\n", n,
		   pp.byte_dfa.nstates, pp.factored, (double) waves / loads);
	gl_prepared_free(&pp);
	free(pairs);
	gl_column_free(&col);
}

/* The AC skim over kernel_bench's literal list of n, then its stream tables. */
static void
simulate_skim(int n, GlXorshift *rng, const std::vector<uint8_t> &text)
{
	GlProgram  *prog = bench_list(n, rng);
	GlPreparedProgram pp;
	char		err[256];
	const uint8_t *byte_class;
	const uint32_t *folded;
	uint64_t	groups = text.size() / (CHUNK * CHUNKS_PER_THREAD);
	uint64_t	loads = 0,
				class_waves = 0,
				folded_waves = 0;

	if (prog == NULL || !gl_prepare_program(prog, 1 << 30, 0, &pp, err, sizeof(err)))
	{
		printf("AC %-3d no program\n", n);
		free(prog);
		return;
	}
	byte_class = gl_multi_tables(prog).byte_class;
	folded = (const uint32_t *) ((const char *) pp.blob + pp.aux_off);

	for (uint64_t warp = 0; warp + 32 <= groups; warp += 32)
	{
		uint32_t	state[32] = {0};

		for (uint32_t pos = 0; pos < CHUNKS_PER_THREAD * CHUNK; pos++)
		{
			uint32_t	class_at[32],
						folded_at[32];

			for (int lane = 0; lane < 32; lane++)
			{
				uint32_t	b = text[(warp + lane) * CHUNKS_PER_THREAD * CHUNK + pos];

				class_at[lane] = b;
				folded_at[lane] = (state[lane] + byte_class[b]) * 4;
				state[lane] = folded[folded_at[lane] / 4] & 0x7FFFFFFF;
			}
			class_waves += wavefronts(class_at);
			folded_waves += wavefronts(folded_at);
			loads++;
		}
	}
	printf("AC %-3d skim     %3u states %2u classes   class %.2f + folded %.2f\n", n,
		   prog->u.multi.nstates, prog->u.multi.nclasses, (double) class_waves / loads,
		   (double) folded_waves / loads);
	simulate_classed(n, prog, false, 0, text);
	simulate_classed(n, prog, true, 0, text);
	simulate_classed(n, prog, true, GL_TEXT_SAMPLE_BYTES, text);
	simulate_factored(n, prog, text);
	gl_prepared_free(&pp);
	free(prog);
}

int
main(int argc, char **argv)
{
	GlXorshift	rng = {0x2545F4914F6CDD1DULL};
	std::vector<uint8_t> text;
	uint64_t	bytes = (argc > 1 ? atof(argv[1]) : 0.064) * 1e9;
	char		row[256];

	while (text.size() < bytes)
	{
		uint32_t	len = gl_bench_comment(&rng, row);

		text.insert(text.end(), row, row + len);
		text.push_back(0);
	}
	text.resize((text.size() + CHUNK - 1) / CHUNK * CHUNK, 0);
	printf("# %.3f GB of kernel_bench's text; wavefronts per warp-wide table load\n",
		   text.size() / 1e9);
	for (const char *pattern : {"%special%requests%", "%Customer%Complaints%", "%s_ecial%r_quests%",
								"%final%", "%quickly%", "%e_e%"})
		simulate(pattern, text);
	for (int n : {20, 200})
		simulate_skim(n, &rng, text);
	return 0;
}
