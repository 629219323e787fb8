/*-------------------------------------------------------------------------
 *
 * kernel_bench.cu
 *	  Kernel throughput on comment-like text (make -C test/kernels bench).
 *
 * Builds >= 2 GB of TPC-H-like comments on the host (words of the TPC-H
 * text grammar, rows of 19-78 bytes), uploads them with gl_cuda_upload(),
 * and times gl_cuda_match() (its device time, median of 5) per matcher and
 * pattern class.  Throughput is column value bytes / kernel time, and the
 * same as a percentage of the read bandwidth of this device, measured in
 * the same run by a plain streaming-read kernel over the same buffer.
 * Every GPU answer is counted against the CPU engine's.
 *
 * Then: adversarial text (runs of 'a', rows ending in 'b' once in a
 * while) for the same matchers, as a ratio to the average-text figure;
 * the 200 literals on comments whose upload's sample misses the factors
 * their made-up literals are looked for by (build_missed_column()); and
 * the layouts: device bytes / raw bytes of the contiguous stream against
 * pivoted tiles (32 rows, w-byte words, each tile padded to its longest
 * row) for w = 4, 8, 16, with the throughput of a thread-per-row Shift-And
 * over each pivoted layout for the same literal.
 *
 * Usage: kernel_bench [gigabytes, default 2.1] [class[,class...]]
 *
 * With classes (e.g. "literal short" or "AC 200,AC 20"), only their cases
 * run, on the average text alone: what a profiler (ncu) should look at.
 *
 * A column larger than LARGE_COLUMN_GB (issue: throughput must hold for
 * columns of 60 GB and more on one H200) is made by every host thread
 * and measured alone: no adversarial column and no layout study beside
 * it, the read bandwidth measured on a smaller buffer, and the host and
 * device bytes it takes are printed.
 *
 *-------------------------------------------------------------------------
 */
#include <algorithm>
#include <chrono>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

extern "C"
{
#include "column/column.h"
#include "engine/cpu_engine.h"
#include "program/like_build.h"
#include "program/multi_build.h"
#include "program/dfa_build.h"
}
#include "gpulike_cuda.h"
#include "program_cache.h"
#include "test_plans.h"
#include "test_random.h"
#include "test_dfa.h"
#include "bench_text.h"

/* Columns above this many GB are measured alone (see the header). */
static const double LARGE_COLUMN_GB = 16;

static GlXorshift rng = {0x2545F4914F6CDD1DULL};

/*
 * The adversarial column's own stream: drawn from rng, it moved the
 * literal lists drawn after it, so a run of some classes (no adversarial
 * column) measured other lists than the whole bench ("AC 200 rare",
 * H200: 56% of the read bandwidth against 47.6% for the whole bench's
 * draw).
 */
static GlXorshift adversarial_rng = {0x9E3779B97F4A7C15ULL};

static uint32_t
rnd(uint32_t n)
{
	return rng.below(n);
}

static void
die(const char *what, const char *msg)
{
	printf("kernel_bench: %s: %s\n", what, msg);
	exit(2);
}

/* Row nrows of col, 256 rows to a heap page. */
static void
append_row(GlColumn *col, const char *value, uint32_t len)
{
	GlTid		tid = gl_tid_make((uint32_t) (col->nrows / 256), (uint16_t) (col->nrows % 256 + 1));

	if (!gl_column_append(col, tid, value, len, 0))
		die("host column", "out of memory");
}

static void
build_column(GlColumn *col, uint64_t bytes, bool adversarial)
{
	char		buf[256];

	if (!gl_column_init(col, bytes / 45, bytes + 4096))
		die("host column", "out of memory");
	while (col->nbytes < bytes)
	{
		uint32_t	len;

		if (adversarial)
		{
			len = 19 + adversarial_rng.below(60);
			memset(buf, 'a', len);
			if (adversarial_rng.below(100) == 0)
				buf[len - 1] = 'b';
		}
		else
			len = gl_bench_comment(&rng, buf);
		append_row(col, buf, len);
	}
}

/*
 * Comments again, from a stream of their own, where every row the upload's
 * sample leaves out (gl_pair_sample_stride(), of the row count from a
 * first pass that only counts them) holds a 'q' and a lower-case letter:
 * the made-up literals' factors, which the sample then never holds
 * (kernel_prep/literal_factors.h), stand in nearly every chunk.
 */
static void
build_missed_column(GlColumn *col, uint64_t bytes)
{
	static const GlXorshift seed = {0xD1B54A32D192ED03ULL};
	GlXorshift	missed_rng = seed;
	char		buf[256];
	uint64_t	nrows = 0;
	uint64_t	stride;

	for (uint64_t n = 0; n < bytes; nrows++)
		n += gl_bench_comment(&missed_rng, buf);
	stride = gl_pair_sample_stride(nrows);
	missed_rng = seed;
	if (!gl_column_init(col, nrows, bytes + 2 * nrows + 4096))
		die("host column", "out of memory");
	for (uint64_t r = 0; r < nrows; r++)
	{
		uint32_t	len = gl_bench_comment(&missed_rng, buf);

		if (r % stride != 0)
		{
			uint32_t	at = missed_rng.below(len + 1);

			memmove(buf + at + 2, buf + at, len - at);
			buf[at] = 'q';
			buf[at + 1] = (char) ('a' + missed_rng.below(26));
			len += 2;
		}
		append_row(col, buf, len);
	}
}

/*
 * The comments of a large column, made by every host thread: pieces of
 * LARGE_PIECE_BYTES, each from a random stream of its own, appended in
 * order.  (Made by one thread, a 60 GB column and its upload took more
 * than the 270 s a device call had left on an H200's host; made by 16,
 * the column, its upload and four classes checked against the CPU engine
 * took 3 minutes on an H100's.)  Other columns stay the one stream they
 * were, so their text is the same from run to run.
 */
static const uint64_t LARGE_PIECE_BYTES = 256 << 20;

static void
build_large_column(GlColumn *col, uint64_t bytes)
{
	unsigned	nthreads = std::max(1u, std::thread::hardware_concurrency());
	std::vector<std::string> text(nthreads);
	std::vector<std::vector<uint8_t>> lens(nthreads);
	uint64_t	first_piece = 0;

	if (!gl_column_init(col, bytes / 45, bytes + 4096))
		die("host column", "out of memory");
	while (col->nbytes < bytes)
	{
		std::vector<std::thread> workers;

		for (unsigned t = 0; t < nthreads; t++)
			workers.emplace_back([&text, &lens, t, piece = first_piece + t]() {
				GlXorshift	piece_rng = {rng.state ^ (piece + 1) * 0x9E3779B97F4A7C15ULL};
				char		buf[256];

				text[t].clear();
				lens[t].clear();
				while (text[t].size() < LARGE_PIECE_BYTES)
				{
					uint32_t	len = gl_bench_comment(&piece_rng, buf);

					text[t].append(buf, len);
					lens[t].push_back((uint8_t) len);
				}
			});
		for (std::thread &w : workers)
			w.join();
		first_piece += nthreads;
		for (unsigned t = 0; t < nthreads && col->nbytes < bytes; t++)
		{
			const char *value = text[t].data();

			for (size_t r = 0; r < lens[t].size() && col->nbytes < bytes; r++)
			{
				append_row(col, value, lens[t][r]);
				value += lens[t][r];
			}
		}
	}
	/* as the server trims a loaded column: the host copy printed is what it holds */
	gl_column_trim(col);
}

/* ------------------------------------------------------- read bandwidth */

__global__ static void
read_kernel(const uint4 *p, uint64_t n, uint32_t *sink)
{
	uint32_t	acc = 0;

	for (uint64_t i = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x; i < n;
		 i += (uint64_t) gridDim.x * blockDim.x)
	{
		uint4		v = __ldg(p + i);

		acc ^= v.x ^ v.y ^ v.z ^ v.w;
	}
	if (acc == 0x12345678)
		*sink = acc;
}

static double
median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

/* GB/s of a plain streaming read over bytes of device memory. */
static double
read_bandwidth(uint64_t bytes)
{
	uint4	   *buf;
	uint32_t   *sink;
	cudaEvent_t a,
				b;
	std::vector<double> ms;
	int			sms;

	if (cudaMalloc(&buf, bytes) != cudaSuccess || cudaMalloc(&sink, 4) != cudaSuccess)
		die("read bandwidth", "cudaMalloc failed");
	cudaMemset(buf, 1, bytes);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	for (int i = 0; i < 7; i++)
	{
		float		t;

		cudaEventRecord(a);
		read_kernel<<<sms * 8, 512>>>(buf, bytes / 16, sink);
		cudaEventRecord(b);
		cudaEventSynchronize(b);
		cudaEventElapsedTime(&t, a, b);
		if (i > 0)
			ms.push_back(t);
	}
	if (cudaGetLastError() != cudaSuccess)
		die("read bandwidth", "kernel failed");
	cudaFree(buf);
	cudaFree(sink);
	return bytes / (median(ms) * 1e6);
}

/* ---------------------------------------------------------------- cases */

/* Is cls one of the comma-separated classes of list? */
static bool
listed_class(const char *list, const char *cls)
{
	size_t		len = strlen(cls);

	for (const char *p = list;; p++)
	{
		if (strncmp(p, cls, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p == NULL)
			return false;
	}
}

typedef struct Result
{
	double		gbps;
	double		ms;
	uint64_t	matches;
} Result;

static uint64_t
popcount(const std::vector<uint64_t> &bits)
{
	uint64_t	n = 0;

	for (uint64_t w : bits)
		n += __builtin_popcountll(w);
	return n;
}

/*
 * Which kernels gl_cuda_match() runs for prog on dcol now: the column's
 * cached preparation (kernel_prep/program_prep.cc decides; program_cache.cu prepares
 * again where a factored walk gave up).
 */
static std::string
plan_of(const GlProgram *prog, bool sieve_first, GlDeviceColumn *dcol)
{
	GlCachedProgram cp;
	char		err[256];
	GlPrepareChoices choices = {UINT32_MAX, true, sieve_first, NULL};
	const GlPreparedProgram *pp;

	std::string plan;

	if (!gl_program_cache_lookup(dcol, prog, &choices, &cp, err, sizeof(err)))
		return "?";
	pp = cp.pp;
	plan = std::string(gl_plan_name(pp)) +
		(pp->byte_dfa.nstates > 0 ? std::to_string(pp->byte_dfa.nstates) :
		 pp->classed.nstates > 0 ? std::to_string(pp->classed.nstates) : "");
	gl_program_cache_release(dcol, &cp, false);
	return plan;
}

/*
 * Whether the server would have the sieve go first for prog on col: its
 * rule (gl_store_prefilter_rare(), gl_cpu_prefilter_rare() on a column's
 * lead rows) on the column's first 4 096 rows, as many as the lead rows
 * (the generators draw every row alike).  Forcing the sieve on the
 * adversarial text, where 'aaaaaaab' is in 1% of the rows and the server
 * streams the regex, measured a plan no query runs: x2.3 (H200) against
 * the average text.
 */
static bool
server_sieves_first(const GlProgram *prog, const GlColumn *col)
{
	GlColumn	lead = *col;

	lead.nrows = std::min<uint64_t>(col->nrows, 4096);
	return gl_cpu_prefilter_rare(prog, &lead);
}

static Result
time_program(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
			 const char *cls, const char *what, double read_gbps)
{
	std::vector<uint64_t> gpu(gl_bitmap_words(col->nrows)), cpu(gpu.size());
	std::vector<double> times;
	char		err[256];
	Result		r;
	bool		sieve_first = server_sieves_first(prog, col);

	for (int i = 0; i < 6; i++)
	{
		GlCudaResult whole = {gpu.data()};
		double		ms;

		if (!gl_cuda_match(dcol, prog, sieve_first, 0, -1, &whole, &ms, err, sizeof(err)))
			die(what, err);
		if (i > 0)
			times.push_back(ms);
	}
	gl_cpu_match_column(prog, col, cpu.data(), 16);
	r.ms = median(times);
	r.gbps = col->nbytes / (r.ms * 1e6);
	r.matches = popcount(gpu);
	printf("%-14s %-34s %-17s %10llu %8.3f %8.1f %6.1f%%%s\n", cls, what,
		   plan_of(prog, sieve_first, dcol).c_str(), (unsigned long long) r.matches, r.ms, r.gbps,
		   100.0 * r.gbps / read_gbps, gpu == cpu ? "" : "  MISMATCH vs CPU");
	return r;
}

/*
 * ILIKE's classes under a glibc UTF-8 locale (what src/pattern/case_fold.c
 * derives there): the Kelvin sign lowers to 'k', U+0130 to 'i'.
 */
static int
libc_case_class(void *arg, uint32_t cp, uint32_t *members, int max_members)
{
	int			n = gl_ascii_case_class(arg, cp, members, max_members - 1);

	if (n < 0)
		return n;
	if (cp == 'k')
		members[n++] = 0x212A;
	if (cp == 'i')
		members[n++] = 0x130;
	return n;
}

static GlProgram *
like_with(const char *pattern, GlCaseClassFn case_class)
{
	const char *error;
	GlProgram  *p = gl_build_like(pattern, strlen(pattern), true, case_class, NULL, &error);

	if (p == NULL)
		die(pattern, error);
	return p;
}

static GlProgram *
like(const char *pattern, bool ilike)
{
	return like_with(pattern, ilike ? gl_ascii_case_class : NULL);
}

/* An Aho-Corasick program over these literals (case-sensitive). */
static GlProgram *
build_multi(const std::vector<std::string> &lits)
{
	std::vector<const char *> ptrs;
	std::vector<size_t> lens;
	const char *error;
	GlProgram  *p;

	for (auto &l : lits)
	{
		ptrs.push_back(l.data());
		lens.push_back(l.size());
	}
	p = gl_build_multi(ptrs.data(), lens.data(), (int) lits.size(), false, true, &error);
	if (p == NULL)
		die("multi", error);
	return p;
}

/* Adversarial literal lists: a^k followed by one of b, c, d, ... */
static GlProgram *
multi_runs(int n)
{
	std::vector<std::string> lits;

	for (int i = 0; i < n; i++)
		lits.push_back(std::string(2 + i % 20, 'a') + (char) ('b' + i / 20));
	return build_multi(lits);
}

static GlProgram *
multi(int n, const char *const *fixed, int nfixed, bool letters_only = false)
{
	std::vector<std::string> lits;

	for (int i = 0; i < n; i++)
	{
		if (i < nfixed)
			lits.push_back(fixed[i]);
		else
		{
			/* made-up words of the same shape: rare in the text */
			std::string w = gl_bench_words[rnd(gl_bench_nwords)];

			w[rnd((uint32_t) w.size())] = 'q';
			/* "x-ray" puts a list in the printable window; "xqray", the letters' */
			if (letters_only)
				for (char &c : w)
					if (!isalpha((unsigned char) c))
						c = 'q';
			lits.push_back(w);
		}
	}
	return build_multi(lits);
}

/*
 * The DFA of the unanchored regex 'w1.*w2...' over byte colors (ASCII byte
 * b is color b, everything else color 128): one KMP automaton per word,
 * chained, the last state ACCEPT.  What PostgreSQL's regex compiler would
 * produce for such a regex, built by hand because it needs a backend.
 */
static GlProgram *
dfa_chain(const std::vector<std::string> &seq, const char *prefilter = NULL)
{
	GlProgram  *prog;
	std::vector<uint32_t> base;
	uint32_t	nstates = 1;
	uint32_t	ncolors = 129;
	uint16_t	ascii_color[128];
	std::vector<uint16_t> trans;
	std::vector<uint8_t> flags;
	GlDfaSpec	spec;

	for (auto &w : seq)
	{
		base.push_back(nstates - 1);
		nstates += (uint32_t) w.size();
	}
	trans.assign((size_t) nstates * ncolors, 0);
	flags.assign(nstates, 0);
	for (size_t k = 0; k < seq.size(); k++)
	{
		const std::string &w = seq[k];
		uint32_t	m = (uint32_t) w.size();

		/* KMP automaton of w on states base..base+m; state j = j bytes matched */
		for (uint32_t j = 0; j < m; j++)
			for (uint32_t c = 0; c < ncolors; c++)
			{
				/* longest prefix of w that is a suffix of w[0..j) + c */
				std::string s = w.substr(0, j) + (char) (c < 128 ? c : 0x80);
				uint32_t	best = 0;

				for (uint32_t l = std::min<uint32_t>(m, (uint32_t) s.size()); l > 0; l--)
					if (s.compare(s.size() - l, l, w, 0, l) == 0)
					{
						best = l;
						break;
					}
				trans[(size_t) (base[k] + j) * ncolors + c] = (uint16_t) (base[k] + best);
			}
	}
	for (uint32_t c = 0; c < ncolors; c++)
		trans[(size_t) (nstates - 1) * ncolors + c] = (uint16_t) (nstates - 1);
	flags[nstates - 1] = GL_DFA_ACCEPT;
	for (int c = 0; c < 128; c++)
		ascii_color[c] = (uint16_t) c;
	spec = test_dfa_spec(nstates, ncolors, 0, trans.data(), flags.data(), ascii_color, 128, true);
	if (prefilter != NULL)
	{
		std::string like = std::string("%") + prefilter + "%";
		const char *error;

		spec.prefilter = gl_build_like(like.data(), like.size(), true, NULL, NULL, &error);
		if (spec.prefilter == NULL)
			die("prefilter", error);
	}
	prog = gl_build_dfa(&spec);
	free((void *) spec.prefilter);
	return prog;
}

#include "kernel_bench_layouts.cuh"

int
main(int argc, char **argv)
{
	double		gigabytes = argc > 1 ? atof(argv[1]) : 2.1;
	const char *only_class = argc > 2 ? argv[2] : NULL;
	uint64_t	bytes = (uint64_t) (gigabytes * 1e9);
	bool		large = gigabytes > LARGE_COLUMN_GB;
	GlCudaDeviceInfo info;
	char		err[256];
	GlColumn	col,
				adv;
	GlDeviceColumn *dcol,
			   *dadv;
	double		read_gbps;
	static const char *const ac1[] = {"final"};
	static const char *const ac2[] = {"special", "Complaints"};
	static const char *const ac20[] = {"special", "Complaints", "pinto", "sauternes",
	"warthogs", "dinos", "somas", "Tiresias", "dazzle", "snooze"};

	if (!gl_cuda_probe(&info, 0, err, sizeof(err)))
		die("no usable CUDA device", err);
	printf("# device: %s, %d SMs, %.1f GB\n", info.name, info.sm_count, info.total_memory / 1e9);
	if (large)
		build_large_column(&col, bytes);
	else
		build_column(&col, bytes, false);
	build_column(&adv, large || only_class != NULL ? 0 : bytes / 2, true);
	printf("# text: %llu rows, %.2f GB (avg %.1f bytes/row); adversarial: %llu rows, %.2f GB\n",
		   (unsigned long long) col.nrows, col.nbytes / 1e9, (double) col.nbytes / col.nrows,
		   (unsigned long long) adv.nrows, adv.nbytes / 1e9);
	/* one part per visible device: CUDA_VISIBLE_DEVICES picks how many */
	if ((dcol = gl_cuda_upload(&col, info.device_count, 0, err, sizeof(err))) == NULL ||
		(dadv = gl_cuda_upload(&adv, info.device_count, 0, err, sizeof(err))) == NULL)
		die("upload", err);
	if (large)
		printf("# host copy: %.2f GB (values, offsets, TIDs, bitmaps: what the server holds); "
			   "device copy: %.2f GB, %.3fx the values\n",
			   gl_column_host_bytes(&col) / 1e9, gl_cuda_device_bytes(dcol) / 1e9,
			   (double) gl_cuda_device_bytes(dcol) / col.nbytes);
	read_gbps = read_bandwidth(large ? (uint64_t) 8e9 : bytes);
	printf("# plain streaming read: %.1f GB/s (one device)\n", read_gbps);
	/* the devices are alike: %read is of the sum of their read bandwidths */
	read_gbps *= info.device_count;
	printf("# the text column is in %d part(s), one per GPU; %%read is of %.1f GB/s, "
		   "%d x one device's read\n\n", info.device_count, read_gbps, info.device_count);
	printf("%-14s %-34s %-17s %10s %8s %8s %7s\n", "class", "pattern", "kernels", "matches", "ms",
		   "GB/s", "%read");

	struct Case
	{
		const char *cls;
		const char *what;
		GlProgram  *prog;
		GlProgram  *adv_prog;
	}			cases[] = {
		{"literal short", "LIKE '%final%'", like("%final%", false), like("%aaaab%", false)},
		{"literal rare", "LIKE '%zebra%' (in no row)", like("%zebra%", false),
		like("%aaaab%", false)},
		{"literal long", "LIKE '%carefully final deposits%'", like("%carefully final deposits%", false),
		like("%aaaaaaaaaaaaaaaaaaaaaab%", false)},
		{"multi-segment", "LIKE '%special%requests%'", like("%special%requests%", false),
		like("%aaaa%aaab%", false)},
		{"multi-segment", "LIKE '%Customer%Complaints%'", like("%Customer%Complaints%", false),
		like("%aaa%aaa%aab%", false)},
		{"underscore", "LIKE '%s_ecial%r_quests%'", like("%s_ecial%r_quests%", false),
		like("%a_aaa%a_ab%", false)},
		{"ILIKE", "ILIKE '%special%requests%'", like("%special%requests%", true),
		like("%aaaa%aaab%", true)},
		{"ILIKE libc", "ILIKE '%quickly%' (Kelvin, U+0130)", like_with("%quickly%", libc_case_class),
		like_with("%aaaab%", libc_case_class)},
		{"prefix", "LIKE 'furiously%'", like("furiously%", false), like("aaaaaaaaab%", false)},
		{"rows pass", "LIKE '%e_e%' (no skim)", like("%e_e%", false), like("%a_b%", false)},
		{"AC 1", "ANY 1 literal: '%final%' as DFA", multi(1, ac1, 1), multi_runs(1)},
		{"AC 2", "ANY 2 literals", multi(2, ac2, 2), multi_runs(2)},
		{"AC 20", "ANY 20 literals", multi(20, ac20, 10), multi_runs(20)},
		{"AC 200", "ANY 200 literals", multi(200, ac20, 10), multi_runs(200)},
		/* past the compact table, within the wide one (after AC 200: AC 200 keeps its draws) */
		{"AC 40", "ANY 40 literals", multi(40, ac20, 10), multi_runs(40)},
		{"DFA", "~ 'special.*requests'", dfa_chain({"special", "requests"}), dfa_chain({"aaaa", "aaab"})},
		{"DFA", "~ 'furiously'", dfa_chain({"furiously"}), dfa_chain({"aaaaaaab"})},
		/* past the compact table's 127 states: the wide table */
		{"DFA wide", "~ 23 words 'carefully.*...above'",
			dfa_chain({"carefully", "final", "deposits", "detect", "slyly", "against", "the",
					   "regular", "requests", "furiously", "express", "packages", "boost",
					   "quickly", "along", "ironic", "accounts", "special", "pinto", "beans",
					   "sleep", "blithely", "above"}),
		dfa_chain(std::vector<std::string>(21, "aaaaaab"))},
		{"DFA sieved", "~ 'Tiresias sleep' (sieve first)",
			dfa_chain({"Tiresias sleep"}, "Tiresias sleep"),
		dfa_chain({"aaaaaaab"}, "aaaaaaab")},
		{"literal pair", "LIKE '%Tiresias sleep%'", like("%Tiresias sleep%", false),
		like("%aaaaaaab%", false)},
		/* last, so the others keep their draws: a table in the letters' window */
		{"AC 200 letters", "ANY 200 literals of letters", multi(200, ac20, 10, true),
		multi_runs(200)},
		/* made-up words alone, rare in the text: the set sieve before the stream kernel */
		{"AC 200 rare", "ANY 200 made-up literals", multi(200, ac20, 0), multi_runs(200)},
	};
	std::vector<Result> avg;

	if (only_class != NULL)
	{
		for (auto &c : cases)
			if (listed_class(only_class, c.cls))
				time_program(dcol, &col, c.prog, c.cls, c.what, read_gbps);
		return 0;
	}
	for (auto &c : cases)
		avg.push_back(time_program(dcol, &col, c.prog, c.cls, c.what, read_gbps));
	if (large)
		return 0;

	printf("\n# adversarial text (runs of 'a'), same matchers; ratio = average GB/s / adversarial GB/s\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		Result		r = time_program(dadv, &adv, cases[i].adv_prog, cases[i].cls, cases[i].what,
									 read_gbps);

		printf("%-14s %-34s %-17s slowdown x%.2f\n", "", "", "", avg[i].gbps / r.gbps);
	}
	gl_cuda_free(dadv);

	printf("\n# the sample missing the factors: comments with a 'q' and a letter in every row "
		   "the upload's sample leaves out; ratio as above, for the first match (the factored "
		   "walk gives up) and the next ones (the column's cache prepared the program again)\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		GlColumn	missed;
		GlDeviceColumn *dmissed;
		std::vector<uint64_t> bits;
		GlCudaResult whole;
		double		first_ms;
		double		first_gbps;
		std::chrono::steady_clock::time_point start;
		double		first_wall_ms;
		Result		r;

		if (strcmp(cases[i].cls, "AC 200") != 0)
			continue;
		build_missed_column(&missed, bytes / 2);
		if ((dmissed = gl_cuda_upload(&missed, info.device_count, 0, err, sizeof(err))) == NULL)
			die("upload", err);
		bits.resize(gl_bitmap_words(missed.nrows));
		whole = {bits.data()};
		start = std::chrono::steady_clock::now();
		if (!gl_cuda_match(dmissed, cases[i].prog, server_sieves_first(cases[i].prog, &missed),
						   0, -1, &whole, &first_ms, err, sizeof(err)))
			die(cases[i].what, err);
		first_wall_ms = std::chrono::duration<double, std::milli>(
			std::chrono::steady_clock::now() - start).count();
		first_gbps = missed.nbytes / (first_ms * 1e6);
		printf("%-14s %-34s %-17s %10s %8.3f %8.1f %6.1f%%  first match, slowdown x%.2f "
			   "(%.3f ms with the preparations)\n",
			   cases[i].cls, cases[i].what, "", "", first_ms, first_gbps,
			   100.0 * first_gbps / read_gbps, avg[i].gbps / first_gbps, first_wall_ms);
		r = time_program(dmissed, &missed, cases[i].prog, cases[i].cls, cases[i].what, read_gbps);
		printf("%-14s %-34s %-17s slowdown x%.2f\n", "", "", "", avg[i].gbps / r.gbps);
		gl_cuda_free(dmissed);
		gl_column_free(&missed);
	}

	printf("\n# layouts: device bytes / raw value bytes, and a thread-per-row Shift-And for '%%final%%'\n");
	printf("contiguous+separators+chunk index: %.3fx, %.1f GB/s (the sieve, above)\n",
		   (double) gl_cuda_device_bytes(dcol) / col.nbytes, avg[0].gbps);
	gl_cuda_free(dcol);
	bench_pivoted_layouts(&col, "final", read_gbps / info.device_count);	/* one device */
	return 0;
}
