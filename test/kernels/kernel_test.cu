/*-------------------------------------------------------------------------
 *
 * kernel_test.cu
 *	  Every CUDA kernel against the CPU engine, bit for bit (a standalone
 *	  program: make -C test/kernels check).
 *
 * Columns: random text over a small alphabet (so patterns hit often), text
 * with 2-, 3- and 4-byte UTF-8 characters (and the Kelvin sign and long s
 * that ILIKE classes drag in), adversarial runs (aaaa...ab), rows longer
 * than 64 KB, rows whose lengths straddle the 256-byte chunk borders, long
 * runs of empty and NULL rows, and a column built by upload + append.
 * Programs: LIKE and ILIKE from random patterns through the real builder
 * (like_build.c), in UTF-8 and single-byte mode, and patterns cut from the
 * column's own rows in every anchor form (the sieve); Aho–Corasick from random
 * literal lists (multi_build.c); random DFAs (random tables, flags, colors
 * and code point ranges, assembled by dfa_build.c; some too large for
 * shared memory, which the kernels then read from global memory).  Each case compares
 * gl_cuda_match() with gl_cpu_match_column() twice -- as planned (the
 * stream kernel where the byte DFA fits) and with the byte DFA refused
 * (skims and per-row kernels) -- and prints one TAP line each; malformed
 * programs must be refused, not run.  Checks of the host-side preparation
 * (sieve runs and probes, folded tables, byte DFAs against the CPU engine,
 * validation) run first, also without a GPU, and alone with --host-only
 * (the test suite's kernels part on a machine with nvcc and no GPU).
 * Usage: kernel_test [cases, default 120] [--host-only].  Exit status: 0
 * all passed, 1 a mismatch, 2 no usable device.
 *
 *-------------------------------------------------------------------------
 */
#include <algorithm>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

/* The C headers first, with C linkage (gpulike_cuda.h includes column.h). */
extern "C"
{
#include "column/column.h"
#include "engine/cpu_engine.h"
#include "program/like_build.h"
#include "program/multi_build.h"
#include "program/dfa_build.h"
}
#include "gpulike_cuda.h"
#include "program_prep.h"
#include "chunk_scan.cuh"
#include "test_random.h"

static int	test_number = 0;
static int	failures = 0;

static GlXorshift rng = {0x9E3779B97F4A7C15ULL};

static uint32_t
rnd(uint32_t n)
{
	return rng.below(n);
}

static void
tap(bool ok, const std::string &what)
{
	test_number++;
	if (!ok)
		failures++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", test_number, what.c_str());
}

/* ---------------------------------------------------------------- columns */

/* Characters the random text is made of; patterns use the same ones. */
static const char *const ascii_chars[] = {"a", "a", "b", "c", " ", "k", "s", "A", "K", "i"};
static const char *const utf8_chars[] = {
	"a", "b", "k", "s", " ", "i", "\xC3\xA9" /* é */ , "\xC3\x89" /* É */ ,
	"\xE2\x82\xAC" /* € */ , "\xF0\x9D\x84\x9E" /* 𝄞 */ ,
	"\xE2\x84\xAA" /* Kelvin */ , "\xC5\xBF" /* long s */ ,
	"\xC4\xB0" /* I with dot */ , "\xE0\xA4\x85" /* U+0905, a lead byte 0xE0 */
};

static std::string
random_text(uint32_t nchars, bool utf8)
{
	std::string s;

	for (uint32_t i = 0; i < nchars; i++)
		s += utf8 ? utf8_chars[rnd(sizeof(utf8_chars) / sizeof(utf8_chars[0]))]
			: ascii_chars[rnd(sizeof(ascii_chars) / sizeof(ascii_chars[0]))];
	return s;
}

static void
append_row(GlColumn *col, const std::string &value, bool isnull)
{
	uint64_t	row = col->nrows;

	if (!gl_column_append(col, gl_tid_make((uint32_t) (row / 100), (uint16_t) (row % 100 + 1)),
						  value.data(), (uint32_t) value.size(),
						  isnull ? GL_ROW_IS_NULL : 0))
	{
		printf("Bail out! out of memory building a column\n");
		exit(2);
	}
}

static void
build_random(GlColumn *col, uint32_t nrows, bool utf8)
{
	gl_column_init(col, nrows, nrows * 40);
	for (uint32_t r = 0; r < nrows; r++)
		append_row(col, random_text(rnd(10) == 0 ? rnd(400) : rnd(60), utf8), rnd(20) == 0);
}

static void
build_adversarial(GlColumn *col)
{
	uint32_t	lengths[] = {0, 1, 254, 255, 256, 257, 511, 512, 513, 70000, 200000, 3};

	gl_column_init(col, 5000, 1 << 20);
	for (uint32_t rep = 0; rep < 3; rep++)
	{
		for (uint32_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
		{
			std::string s(lengths[i], 'a');

			if (lengths[i] > 0 && rnd(2))
				s[lengths[i] - 1] = 'b';
			if (lengths[i] > 100 && rnd(2))
				s[rnd(lengths[i])] = 'c';
			append_row(col, s, false);
		}
		/* runs of empty and NULL rows: whole chunks of separators */
		for (uint32_t i = 0; i < 700; i++)
			append_row(col, "", rnd(3) == 0);
		for (uint32_t i = 0; i < 300; i++)
			append_row(col, random_text(rnd(8), rep == 1), rnd(4) == 0);
	}
}

/* --------------------------------------------------------------- programs */

/* ILIKE classes with non-ASCII members, as some collations have them. */
static int
test_case_class(void *arg, uint32_t cp, uint32_t *members, int max_members)
{
	int			n = 0;

	(void) arg;
	if (max_members < 3)
		return -1;
	members[n++] = cp;
	if (cp >= 'a' && cp <= 'z')
		members[n++] = cp - 'a' + 'A';
	if (cp == 'k')
		members[n++] = 0x212A;
	if (cp == 's')
		members[n++] = 0x17F;
	if (cp == 'i')
		members[n++] = 0x130;
	if (cp == 0xE9)
		members[n++] = 0xC9;
	return n;
}

static std::string
random_like_pattern(bool utf8)
{
	std::string p;
	uint32_t	ntokens = rnd(9);

	for (uint32_t i = 0; i < ntokens; i++)
	{
		uint32_t	kind = rnd(20);

		if (kind < 5)
			p += "%";
		else if (kind < 7)
			p += "_";
		else if (kind < 8)
			p += rnd(2) ? "\\%" : "\\a";
		else if (kind < 11)
			p += random_text(3 + rnd(4), utf8);	/* skim-able runs */
		else
			p += random_text(1, utf8);
	}
	return p;
}

/* An Aho-Corasick program over these literals (NULL if the builder refuses them). */
static GlProgram *
multi_of(const std::vector<std::string> &lits, bool fold)
{
	std::vector<const char *> ptrs;
	std::vector<size_t> lens;
	const char *error;

	for (auto &l : lits)
	{
		ptrs.push_back(l.data());
		lens.push_back(l.size());
	}
	return gl_build_multi(ptrs.data(), lens.data(), (int) lits.size(), fold, true, &error);
}

/*
 * Make drawn literals keep to kind's bytes: 0 letters alone (spaces made
 * 'b': the classed table's letters' window), 1 ASCII with a hyphen in the
 * first (its printable window), 2 as drawn.
 */
static void
keep_to_kind(std::vector<std::string> &lits, uint32_t kind)
{
	if (kind == 0)
		for (std::string &lit : lits)
			std::replace(lit.begin(), lit.end(), ' ', 'b');
	if (kind == 1)
		lits[0].insert(rnd((uint32_t) lits[0].size() + 1), "-");
}

/*
 * Literals for an Aho-Corasick program: up to `few` or up to `many` of
 * them, half the time each, mostly of 1-5 bytes, some up to 14; and
 * whether the program folds case, in *fold.
 */
static std::vector<std::string>
random_literals(uint32_t few, uint32_t many, bool *fold)
{
	std::vector<std::string> lits(1 + rnd(rnd(2) ? few : many));
	/* a third of each kind (keep_to_kind()); the third kind ASCII or UTF-8 */
	uint32_t	kind = rnd(3);

	*fold = rnd(2);
	for (std::string &lit : lits)
		lit = random_text(1 + rnd(rnd(4) ? 5 : 14), kind == 2 && rnd(2));
	keep_to_kind(lits, kind);
	return lits;
}

/*
 * Literals past the wide byte DFA's 255 states, so that the stream kernel
 * takes the classed table (classed_table.h), of one of three kinds:
 * letters alone (its letters' window), ASCII with a hyphen (its printable
 * window) and UTF-8 (the classed form), as classed_list_form[] says.
 */
static const struct
{
	const char *plan;
	uint32_t	window_flip;
}			classed_list_form[] = {
	{"stream-windowed", 0x40}, {"stream-windowed", 0x60}, {"stream-classed", 0}
};

static std::vector<std::string>
classed_size_literals(int kind)
{
	/* fewer and shorter in UTF-8, whose characters take more states and classes */
	std::vector<std::string> lits(kind == 2 ? 55 + rnd(20) : 80 + rnd(80));

	for (std::string &lit : lits)
		lit = kind == 2 ? random_text(4 + rnd(3), true) : random_text(5 + rnd(5), false);
	keep_to_kind(lits, (uint32_t) kind);
	return lits;
}

static GlProgram *
random_multi(int *nliterals_out, bool *fold_out, size_t *longest_out = NULL)
{
	std::vector<std::string> lits = random_literals(4, 200, fold_out);
	size_t		longest = 0;

	for (const std::string &lit : lits)
		longest = std::max(longest, lit.size());
	*nliterals_out = (int) lits.size();
	if (longest_out != NULL)
		*longest_out = longest;
	return multi_of(lits, *fold_out);
}

/* A random DFA: random transitions, flags, ASCII colors and code point ranges. */
static GlProgram *
random_dfa(bool utf8, uint32_t max_states)
{
	uint32_t	nstates = 1 + rnd(max_states);
	uint32_t	ncolors = 1 + rnd(8);
	uint32_t	nranges = rnd(6);
	std::vector<uint16_t> trans(nstates * ncolors);
	std::vector<uint8_t> flags(nstates);
	uint16_t	ascii_color[128];
	std::vector<GlColorRange> ranges(nranges);
	uint32_t	cp = 128;
	GlDfaSpec	spec = {};

	for (auto &t : trans)
		t = (uint16_t) rnd(nstates);
	for (auto &f : flags)
	{
		uint32_t	x = rnd(100);

		f = x < 4 ? GL_DFA_ACCEPT : x < 8 ? GL_DFA_DEAD : x < 30 ? GL_DFA_ACCEPT_AT_END : 0;
	}
	for (int c = 0; c < 128; c++)
		ascii_color[c] = (uint16_t) rnd(ncolors);
	for (auto &r : ranges)
	{
		r.lo = cp + rnd(utf8 ? 3000 : 20);
		r.hi = r.lo + rnd(utf8 ? 70000 : 30);
		r.color = rnd(ncolors);
		r.pad = 0;
		cp = r.hi + 1;
	}
	spec.nstates = nstates;
	spec.ncolors = ncolors;
	spec.start_state = rnd(nstates);
	spec.trans = trans.data();
	spec.flags = flags.data();
	spec.ascii_color = ascii_color;
	spec.ranges = ranges.data();
	spec.nranges = nranges;
	spec.default_color = rnd(ncolors);
	spec.exact = true;
	spec.utf8 = utf8;
	return gl_build_dfa(&spec);
}

/*
 * A regex's automaton with its prefilter (program.h): "contains w (ASCII),
 * then a random automaton decides from there" -- the Knuth-Morris-Pratt
 * states of w over colors of its own bytes (0: any other character), then
 * random states with random flags -- and the prefilter '%w%', which every
 * value it matches contains.
 */
static GlProgram *
prefiltered_dfa(const std::string &w, bool utf8)
{
	uint32_t	m = (uint32_t) w.size();
	uint32_t	ntail = 1 + rnd(6);
	std::string distinct;
	std::vector<uint32_t> fail(m, 0);
	uint16_t	ascii_color[128] = {0};
	std::string like = "%" + w + "%";
	const char *error;
	GlDfaSpec	spec = {};
	GlProgram  *prog;

	for (char c : w)
		if (distinct.find(c) == std::string::npos)
		{
			distinct += c;
			ascii_color[(unsigned char) c] = (uint16_t) distinct.size();
		}
	for (uint32_t i = 1, j = 0; i < m; i++)
	{
		while (j > 0 && w[i] != w[j])
			j = fail[j - 1];
		if (w[i] == w[j])
			j++;
		fail[i] = j;
	}

	uint32_t	ncolors = (uint32_t) distinct.size() + 1;
	std::vector<uint16_t> trans((m + ntail) * ncolors);
	std::vector<uint8_t> flags(m + ntail, 0);

	for (uint32_t j = 0; j < m; j++)
		for (uint32_t c = 0; c < ncolors; c++)
		{
			uint32_t	next = 0;

			if (c > 0)
			{
				next = j;
				while (next > 0 && w[next] != distinct[c - 1])
					next = fail[next - 1];
				next = w[next] == distinct[c - 1] ? next + 1 : 0;
			}
			trans[j * ncolors + c] = (uint16_t) (next == m ? m : next);
		}
	for (uint32_t t = m; t < m + ntail; t++)
	{
		uint32_t	x = rnd(100);

		for (uint32_t c = 0; c < ncolors; c++)
			trans[t * ncolors + c] = (uint16_t) (m + rnd(ntail));
		flags[t] = x < 25 ? GL_DFA_ACCEPT : x < 35 ? GL_DFA_DEAD : x < 60 ? GL_DFA_ACCEPT_AT_END : 0;
	}
	spec.nstates = m + ntail;
	spec.ncolors = ncolors;
	spec.start_state = 0;
	spec.trans = trans.data();
	spec.flags = flags.data();
	spec.ascii_color = ascii_color;
	spec.ranges = NULL;
	spec.nranges = 0;
	spec.default_color = 0;
	spec.exact = true;
	spec.utf8 = utf8;
	spec.prefilter = gl_build_like(like.data(), like.size(), utf8, NULL, NULL, &error);
	prog = spec.prefilter != NULL ? gl_build_dfa(&spec) : NULL;
	free((void *) spec.prefilter);
	return prog;
}

/* ---------------------------------------------------------------- compare */

/*
 * One program as gl_cuda_match() plans it (the stream kernel when the byte
 * DFA fits), with the compact table refused (the stream kernel's wide
 * table), and with the byte DFA refused, so the skims and the per-row
 * kernels that remain for large automata are checked too.
 */
static void
compare_plan(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
			 const std::vector<uint64_t> &cpu, uint32_t max_stream_states, bool compact_ok,
			 const std::string &what)
{
	size_t		nwords = gl_bitmap_words(col->nrows);
	std::vector<uint64_t> gpu(nwords + 1, 0xDEADBEEFDEADBEEFULL);
	char		err[256] = "";
	double		ms;
	uint64_t	matches = 0;

	if (!gl_cuda_match_capped(dcol, prog, max_stream_states, compact_ok, gpu.data(), &ms, err,
							  sizeof(err)))
	{
		tap(false, what + ": gl_cuda_match failed: " + err);
		return;
	}
	for (size_t w = 0; w < nwords; w++)
	{
		matches += __builtin_popcountll(cpu[w]);
		if (cpu[w] != gpu[w])
		{
			uint64_t	diff = cpu[w] ^ gpu[w];
			uint64_t	row = w * 64 + __builtin_ctzll(diff);
			char		msg[160];

			snprintf(msg, sizeof(msg), ": row %llu: cpu %d gpu %d",
					 (unsigned long long) row, (int) ((cpu[w] >> (row % 64)) & 1),
					 (int) ((gpu[w] >> (row % 64)) & 1));
			tap(false, what + msg);
			return;
		}
	}
	if (gpu[nwords] != 0xDEADBEEFDEADBEEFULL)
	{
		tap(false, what + ": wrote past the end of the result");
		return;
	}
	tap(true, what + " (" + std::to_string(matches) + " rows)");
}

/*
 * The program as the server runs it, the result listed when its nonzero
 * words are few (result_words.cu): with room for all of them, exactly
 * those words, in order, and the bitmap left alone; with room for one
 * fewer, the whole bitmap instead.
 */
static void
compare_listed(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
			   const std::vector<uint64_t> &cpu, const std::string &what)
{
	size_t		nwords = gl_bitmap_words(col->nrows);
	std::vector<uint32_t> want;
	bool		ok = true;

	for (size_t w = 0; w < nwords; w++)
		if (cpu[w] != 0)
			want.push_back((uint32_t) w);
	for (uint64_t capacity : {(uint64_t) want.size() + 1, (uint64_t) want.size() - 1})
	{
		if (capacity == 0 || capacity > nwords + 1)
			continue;	/* no room is no listing; want.size() - 1 may wrap */

		std::vector<uint64_t> bits(nwords + 1, 0xDEADBEEFDEADBEEFULL);
		std::vector<uint32_t> index(capacity);
		std::vector<uint64_t> words(capacity);
		GlCudaResult result = {bits.data(), capacity, index.data(), words.data()};
		char		err[256] = "";
		double		ms;
		bool		fits = capacity >= want.size();

		if (!gl_cuda_match(dcol, prog, false, -1, &result, &ms, err, sizeof(err)))
		{
			tap(false, what + " listed: gl_cuda_match failed: " + err);
			return;
		}
		ok = ok && result.listed == fits && bits[nwords] == 0xDEADBEEFDEADBEEFULL;
		if (fits)
		{
			ok = ok && result.nwords == want.size() && bits[0] == 0xDEADBEEFDEADBEEFULL;
			for (size_t i = 0; ok && i < want.size(); i++)
				ok = index[i] == want[i] && words[i] == cpu[want[i]];
		}
		else
		{
			for (size_t w = 0; ok && w < nwords; w++)
				ok = bits[w] == cpu[w];
		}
	}
	tap(ok, what + " listed (" + std::to_string(want.size()) + " nonzero words)");
}

static void
compare(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
		const std::string &what)
{
	std::vector<uint64_t> cpu(gl_bitmap_words(col->nrows) + 1);
	GlPreparedProgram pp;
	char		err[256];
	const char *plan = "refused";
	bool		compact = false;

	gl_cpu_match_column(prog, col, cpu.data(), 2);
	if (gl_prepare_program(prog, 227 * 1024, UINT32_MAX, &pp, err, sizeof(err)))
	{
		plan = gl_plan_name(&pp);
		compact = pp.compact;
	}
	compare_plan(dcol, col, prog, cpu, UINT32_MAX, true, what + " [" + plan + "]");
	gl_prepared_free(&pp);
	if (compact)
		compare_plan(dcol, col, prog, cpu, UINT32_MAX, false, what + " [stream-wide]");
	compare_plan(dcol, col, prog, cpu, 0, true, what + " [skim/rows]");
	if (dcol->next == NULL)
		compare_listed(dcol, col, prog, cpu, what);
}

static void
run_like_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname,
			   int n, bool utf8_data)
{
	for (int i = 0; i < n; i++)
	{
		std::string pat = random_like_pattern(utf8_data);
		bool		utf8 = utf8_data || rnd(2);
		int			flavor = rnd(3);	/* LIKE, ILIKE ASCII, ILIKE wide */
		const char *error;
		GlProgram  *prog = gl_build_like(pat.data(), pat.size(), utf8,
										 flavor == 0 ? NULL : flavor == 1 ? gl_ascii_case_class : test_case_class,
										 NULL, &error);

		if (prog == NULL)
			continue;			/* refused (e.g. too long a segment) */
		compare(dcol, col, prog, std::string(colname) + (flavor ? " ILIKE '" : " LIKE '") +
				pat + "'" + (utf8 ? "" : " (single-byte)"));
		free(prog);
	}
}

static void
run_multi_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	for (int i = 0; i < n; i++)
	{
		int			nlit;
		bool		fold;
		GlProgram  *prog = random_multi(&nlit, &fold);

		if (prog == NULL)
			continue;
		compare(dcol, col, prog, std::string(colname) + " Aho-Corasick " +
				std::to_string(nlit) + " literals" + (fold ? " folded" : ""));
		free(prog);
	}
}

/* classed_size_literals()' lists of each kind in turn, run as planned and otherwise. */
static void
run_classed_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	for (int i = 0; i < n; i++)
	{
		std::vector<std::string> lits = classed_size_literals(i % 3);
		bool		fold = rnd(2);
		GlProgram  *prog = multi_of(lits, fold);

		if (prog == NULL)
			continue;
		compare(dcol, col, prog, std::string(colname) + " Aho-Corasick " +
				std::to_string(lits.size()) + " literals" + (fold ? " folded" : ""));
		free(prog);
	}
}

static void
run_dfa_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	for (int i = 0; i < n; i++)
	{
		bool		utf8 = rnd(4) != 0;
		/* now and then one too large for shared memory: read in place */
		GlProgram  *prog = random_dfa(utf8, i % 10 == 9 ? 4000 : 40);

		compare(dcol, col, prog, std::string(colname) + " DFA " +
				std::to_string(prog->u.dfa.nstates) + " states" + (utf8 ? "" : " (single-byte)"));
		free(prog);
	}
	/* with a prefilter: the sieve, then the rows of the chunks it flags */
	for (int i = 0; i < n / 2 + 1; i++)
	{
		std::string w = random_text(3 + rnd(3), false);
		bool		utf8 = rnd(4) != 0;
		GlProgram  *prog = prefiltered_dfa(w, utf8);
		GlPreparedProgram pp;
		char		err[256];
		std::string what = std::string(colname) + " DFA with prefilter '%" + w + "%'";

		if (prog == NULL)
			continue;
		GlPrepareChoices sieve_first = {UINT32_MAX, true, true, NULL};

		if (gl_prepare_program_with(prog, 227 * 1024, &sieve_first, &pp, err, sizeof(err)))
		{
			tap(strcmp(gl_plan_name(&pp), "sieve+rows") == 0,
				what + ": sieve first plans " + gl_plan_name(&pp));
			gl_prepared_free(&pp);
		}
		else
			tap(false, what + ": " + err);
		compare(dcol, col, prog, what);
		free(prog);
	}
}

/* ------------------------------------------- host checks of the preparation */

/*
 * What the sieve computes from a prepared program, on the host: does the
 * run occur (with its anchors)?  And does every probe pass every byte its
 * position accepts?  Checked here by brute force, independently of the
 * kernel's bit tricks.
 */
static bool
sieve_found(const GlSieve *sv, const std::string &v)
{
	for (size_t p = 0; p + sv->nchars <= v.size(); p++)
	{
		bool		ok = (!sv->anchored_start || p == 0) &&
			(!sv->anchored_end || p + sv->nchars == v.size());

		for (uint32_t t = 0; ok && t < sv->nchars; t++)
		{
			unsigned char c = v[p + t];

			ok = c < 128 && ((sv->accept[c] >> t) & 1);
		}
		if (ok)
			return true;
	}
	return false;
}

static bool
sieve_probes_ok(const GlSieve *sv)
{
	int32_t		i = sv->probe_pos;
	int32_t		pos[3] = {i, i + 1, i + (int32_t) sv->probe_gap};
	int32_t		n = (int32_t) sv->nchars;

	if (n < 2 || sv->probe_gap < 1 || sv->probe_gap > GL_SIEVE_MAX_GAP || pos[2] >= n ||
		i < -1 || (i == -1 && !sv->anchored_start))
		return false;
	for (int k = 0; k < 3; k++)
		for (int c = 0; c < 128; c++)
		{
			/* -1: the separator before a run that starts its row */
			bool		accepted = pos[k] == -1 ? c == 0 :
				pos[k] < n && ((sv->accept[c] >> pos[k]) & 1);
			bool		passes = (c & (sv->probe_mask[k] & 0xFF)) == (sv->probe_value[k] & 0xFF);

			/* every accepted byte passes; past the run, everything passes */
			if ((accepted || pos[k] >= n) && !passes)
				return false;
		}
	return true;
}

/*
 * An exact sieve's window: the separator before the run when it is
 * anchored at the start, the run, the separator after it when anchored at
 * the end, each byte's test passing exactly what its position accepts;
 * said to be masked exactly when some byte's test has a mask (the kernel
 * for unmasked windows leaves the masks out).
 */
static bool
sieve_window_ok(const GlSieve *sv)
{
	bool		masked = false;

	if (sv->window != sv->anchored_start + sv->nchars + sv->anchored_end ||
		sv->window < 2 || sv->window > GL_SIEVE_MAX_WINDOW)
		return false;
	for (uint32_t o = 0; o < sv->window; o++)
	{
		int32_t		t = (int32_t) o - (int32_t) sv->anchored_start;

		masked |= (sv->window_mask[o] & 0xFF) != 0xFF;

		for (int c = 0; c < 256; c++)
		{
			bool		accepted = t < 0 || t >= (int32_t) sv->nchars ? c == 0 :
				c < 128 && ((sv->accept[c] >> t) & 1);
			bool		passes = (c & (sv->window_mask[o] & 0xFF)) == (sv->window_value[o] & 0xFF);

			if (accepted != passes)
				return false;
		}
	}
	return (sv->window_masked != 0) == masked;
}

/* The folded Aho-Corasick table of a prepared MULTI program, on the host. */
static bool
folded_multi_found(const GlProgram *prog, const GlPreparedProgram *pp, const std::string &v)
{
	const uint8_t *byte_class =
		(const uint8_t *) gl_program_section(prog, prog->u.multi.byte_class_off);
	const uint32_t *folded = (const uint32_t *) ((const char *) pp->blob + pp->aux_off);
	uint32_t	state = 0;

	for (unsigned char c : v)
	{
		uint32_t	entry = folded[state + byte_class[c]];

		if (entry >> 31)
			return true;
		state = entry & 0x7FFFFFFF;
	}
	return false;
}

static std::string
random_value(void)
{
	return random_text(rnd(40), rnd(2));
}

/*
 * The skims' contracts, checked without a GPU: a LIKE sieve run occurs in every
 * value the CPU engine matches (and is the whole answer when marked exact);
 * a folded Aho-Corasick table answers like the CPU engine, and the warm-up
 * covers the longest literal.
 */
static void
run_prep_cases(int n)
{
	char		err[256];
	int			checked = 0;
	int			windows = 0;
	std::string failure;

	for (int i = 0; i < n * 4 && failure.empty(); i++)
	{
		std::string pat = random_like_pattern(rnd(2));
		const char *error;
		GlProgram  *prog = gl_build_like(pat.data(), pat.size(), true,
										 rnd(2) ? NULL : test_case_class, NULL, &error);
		GlPreparedProgram pp;

		if (prog == NULL)
			continue;
		if (!gl_prepare_program(prog, 48 * 1024, 0, &pp, err, sizeof(err)))
			failure = "'" + pat + "' not prepared: " + err;
		else if (pp.skim == GL_SKIM_SIEVE && !sieve_probes_ok(&pp.sieve))
			failure = "'" + pat + "': a sieve probe rejects a byte its position accepts";
		else if (pp.skim == GL_SKIM_SIEVE && pp.sieve.window > 0 &&
				 (!pp.skim_exact || !sieve_window_ok(&pp.sieve)))
			failure = "'" + pat + "': the sieve's window is not its run's exact test";
		else if (pp.skim == GL_SKIM_SIEVE)
		{
			checked++;
			windows += pp.sieve.window > 0;
			for (int k = 0; k < 300 && failure.empty(); k++)
			{
				std::string v = random_value() + (rnd(2) ? pat : "") + random_value();
				bool		match = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());
				bool		found = sieve_found(&pp.sieve, v);

				if ((match && !found) || (pp.skim_exact && match != found))
					failure = "'" + pat + "' on '" + v + "': match " + std::to_string(match) +
						", sieve " + std::to_string(found);
			}
		}
		gl_prepared_free(&pp);
		free(prog);
	}
	tap(failure.empty() && checked > 0 && windows > 0 && windows < checked,
		"LIKE sieve runs are necessary (exact where marked) over " +
		std::to_string(checked) + " programs, " + std::to_string(windows) +
		" with an exact window" + (failure.empty() ? "" : ": " + failure));

	failure.clear();
	for (int i = 0; i < n && failure.empty(); i++)
	{
		int			nlit;
		bool		fold;
		size_t		longest;
		GlProgram  *prog = random_multi(&nlit, &fold, &longest);
		GlPreparedProgram pp;
		const uint8_t *accept;

		if (prog == NULL)
			continue;
		accept = (const uint8_t *) gl_program_section(prog, prog->u.multi.accept_off);
		if (!gl_prepare_program(prog, 48 * 1024, 0, &pp, err, sizeof(err)))
			failure = std::string("MULTI not prepared: ") + err;
		else if (!accept[0] && (pp.skim != GL_SKIM_MULTI || pp.warmup_bytes < longest ||
								pp.warmup_bytes % 16 != 0))
			failure = "MULTI warm-up " + std::to_string(pp.warmup_bytes) + " bytes, longest literal " +
				std::to_string(longest);
		for (int k = 0; k < 300 && failure.empty() && !accept[0]; k++)
		{
			std::string v = random_value();
			bool		match = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());

			if (match != folded_multi_found(prog, &pp, v))
				failure = "folded Aho-Corasick differs on '" + v + "'";
		}
		gl_prepared_free(&pp);
		free(prog);
	}
	tap(failure.empty(), "folded Aho-Corasick tables" + (failure.empty() ? "" : ": " + failure));
}

/* Places of text where the sieve's three probes all pass. */
static uint32_t
probe_passes(const GlSieve *sv, const uint8_t *text, uint32_t n)
{
	uint32_t	passes = 0;

	for (uint32_t p = 0; p + sv->probe_gap < n; p++)
		passes += (text[p] & (sv->probe_mask[0] & 0xFF)) == (sv->probe_value[0] & 0xFF) &&
			(text[p + 1] & (sv->probe_mask[1] & 0xFF)) == (sv->probe_value[1] & 0xFF) &&
			(text[p + sv->probe_gap] & (sv->probe_mask[2] & 0xFF)) ==
			(sv->probe_value[2] & 0xFF);
	return passes;
}

/*
 * The sieve's probes where the column's sampled text says so: in rows
 * "abcdefxghijklmn", '%abcdefghijklmn%' (too long for a window) is never
 * found, and probes across its "fg" pass nowhere, where probes that
 * typical byte frequencies choose pass in every row.
 */
static void
run_probe_choice_case(void)
{
	static const char pat[] = "%abcdefghijklmn%";
	static const char row[] = "abcdefxghijklmn";
	GlBytePairs *pairs = (GlBytePairs *) calloc(1, sizeof(GlBytePairs));
	const char *error;
	char		err[256];
	GlProgram  *prog = gl_build_like(pat, strlen(pat), true, NULL, NULL, &error);
	uint32_t	passes[2] = {0, 0};
	bool		prepared = prog != NULL;

	while (pairs->text_bytes + sizeof(row) <= GL_TEXT_SAMPLE_BYTES)
	{
		memcpy(pairs->text + pairs->text_bytes, row, sizeof(row));	/* with its 0x00 */
		pairs->text_bytes += sizeof(row);
	}
	for (uint32_t p = 0; p < pairs->text_bytes; p++)
	{
		pairs->bytes[pairs->text[p]]++;
		if (p > 0)
			pairs->pairs[pairs->text[p - 1] << 8 | pairs->text[p]]++;
	}
	pairs->nbytes = pairs->text_bytes;
	pairs->npairs = pairs->text_bytes - 1;
	for (int sampled = 0; sampled < 2 && prepared; sampled++)
	{
		GlPrepareChoices choices = {UINT32_MAX, true, false, sampled ? pairs : NULL};
		GlPreparedProgram pp;

		prepared = gl_prepare_program_with(prog, 48 * 1024, &choices, &pp, err, sizeof(err)) &&
			pp.skim == GL_SKIM_SIEVE && pp.sieve.window == 0;
		if (prepared)
			passes[sampled] = probe_passes(&pp.sieve, pairs->text, pairs->text_bytes);
		gl_prepared_free(&pp);
	}
	tap(prepared && passes[1] == 0 && passes[0] > 0,
		"the sieve's probes follow the column's sampled text: they pass " +
		std::to_string(passes[1]) + " of its places, " + std::to_string(passes[0]) +
		" by typical byte frequencies");
	free(prog);
	free(pairs);
}

/*
 * Which kernels an Aho–Corasick program gets, checked without a GPU, with
 * the shared memory of an H100 or H200 block: the stream kernel on its
 * compact table up to 127 states (on its wide table where the compact one
 * is not allowed), on the wide table up to 255, on the classed table past
 * that.  Each of the three sizes must be seen.
 */
static void
run_multi_plan_cases(int n)
{
	const size_t shared_limit = 227 * 1024;
	char		err[256];
	int			seen[3] = {0, 0, 0}; /* up to 127 states, 128 .. 255, more */
	std::string failure;

	for (int i = 0; i < n && failure.empty(); i++)
	{
		/* about 6, 35, 70, 140 and 350 states */
		static const int sizes[] = {1, 6, 12, 25, 60};
		int			nlit = sizes[i % 5];
		std::vector<std::string> lits;
		GlProgram  *prog;
		GlByteDfa	dfa;

		for (int k = 0; k < nlit; k++)
			lits.push_back(random_text(4 + rnd(6), false));
		prog = multi_of(lits, rnd(2));
		if (prog == NULL)
			continue;
		if (!gl_build_byte_dfa(prog, 4096, &dfa))
		{
			free(prog);
			continue;
		}
		seen[dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES ? 0 :
			 dfa.nstates <= GL_BYTE_DFA_WIDE_STATES ? 1 : 2]++;
		for (int compact_ok = 0; compact_ok < 2 && failure.empty(); compact_ok++)
		{
			GlPreparedProgram pp;
			const char *want = compact_ok && dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES ?
				"stream" : "stream-wide";

			GlPrepareChoices choices = {UINT32_MAX, compact_ok != 0, false, NULL};

			if (!gl_prepare_program_with(prog, shared_limit, &choices, &pp, err, sizeof(err)))
				failure = std::string("MULTI not prepared: ") + err;
			else
			{
				/* past the byte DFA's cap, every automaton here fits a classed table */
				if (dfa.nstates > GL_BYTE_DFA_WIDE_STATES)
					want = pp.classed.window_flip != 0 ? "stream-windowed" : "stream-classed";
				if (strcmp(gl_plan_name(&pp), want) != 0)
					failure = std::to_string(nlit) + " literals, " + std::to_string(dfa.nstates) +
						" states, compact table " + (compact_ok ? "allowed" : "refused") + ": " +
						gl_plan_name(&pp) + ", not " + want;
			}
			gl_prepared_free(&pp);
		}
		gl_byte_dfa_free(&dfa);
		free(prog);
	}
	tap(failure.empty() && seen[0] > 0 && seen[1] > 0 && seen[2] > 0,
		"Aho-Corasick plans by states (" + std::to_string(seen[0]) + " up to 127, " +
		std::to_string(seen[1]) + " up to 255, " + std::to_string(seen[2]) + " more)" +
		(failure.empty() ? "" : ": " + failure));
}

/*
 * classed_size_literals()' lists get their kind's table form, without a
 * GPU, under the shared memory of an H100 or H200 block, folded or not:
 * run_classed_cases() relies on it to run each form on the device.
 */
static void
run_classed_plan_cases(int n)
{
	int			planned[3] = {0, 0, 0};
	std::string failure;

	for (int i = 0; i < n && failure.empty(); i++)
	{
		std::vector<std::string> lits = classed_size_literals(i % 3);
		bool		fold = rnd(2);
		GlProgram  *prog = multi_of(lits, fold);
		GlPreparedProgram pp;
		char		err[256];

		if (prog == NULL)
			continue;
		if (!gl_prepare_program(prog, 227 * 1024, UINT32_MAX, &pp, err, sizeof(err)))
			failure = std::string("MULTI not prepared: ") + err;
		else if (strcmp(gl_plan_name(&pp), classed_list_form[i % 3].plan) != 0 ||
				 pp.classed.window_flip != classed_list_form[i % 3].window_flip)
			failure = std::to_string(lits.size()) + " literals of kind " + std::to_string(i % 3) +
				(fold ? " folded" : "") + ": " + gl_plan_name(&pp) + ", window flip " +
				std::to_string(pp.classed.window_flip);
		else
			planned[i % 3]++;
		gl_prepared_free(&pp);
		free(prog);
	}
	tap(failure.empty() && planned[0] > 0 && planned[1] > 0 && planned[2] > 0,
		"lists past 255 states plan their table form (" + std::to_string(planned[0]) +
		" in the letters' window, " + std::to_string(planned[1]) + " in the printable one, " +
		std::to_string(planned[2]) + " classed)" + (failure.empty() ? "" : ": " + failure));
}

/*
 * Which stream table a byte DFA's size gets, without a GPU: LIKE patterns
 * of many segments, 100 to 300 states, under the H100's and H200's shared
 * memory: the compact table up to 127 states, the wide one up to 255
 * (211 while its entries took 32 bits), past that no stream kernel.
 */
static void
run_wide_plan_cases(void)
{
	const size_t shared_limit = 227 * 1024;
	/* what fitted there while the wide table's entries took 32 bits (1 kB a state) */
	const uint32_t wide32_fit = (shared_limit - 16 * 1024) / 1024;
	char		err[256];
	int			seen[3] = {0, 0, 0}; /* compact, wide past wide32_fit states, none */
	std::string failure;

	for (int segments = 12; segments <= 40 && failure.empty(); segments += 2)
	{
		std::string pattern = "%";
		const char *error;
		GlProgram  *prog;
		GlByteDfa	dfa;
		GlPreparedProgram pp;

		/* segments of 8 letters, each letter once in its segment */
		for (int s = 0; s < segments; s++)
		{
			for (int k = 0; k < 8; k++)
				pattern += (char) ('a' + (s * 3 + k * 5) % 26);
			pattern += "%";
		}
		prog = gl_build_like(pattern.data(), pattern.size(), false, NULL, NULL, &error);
		if (prog == NULL || !gl_build_byte_dfa(prog, 4096, &dfa))
		{
			failure = std::to_string(segments) + " segments: no byte DFA";
			free(prog);
			break;
		}

		const char *want = dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES ? "stream" :
			dfa.nstates <= GL_BYTE_DFA_WIDE_STATES ? "stream-wide" : NULL;

		if (!gl_prepare_program(prog, shared_limit, UINT32_MAX, &pp, err, sizeof(err)))
			failure = std::to_string(segments) + " segments: " + err;
		else if (want != NULL ? strcmp(gl_plan_name(&pp), want) != 0 :
				 strncmp(gl_plan_name(&pp), "stream", 6) == 0)
			failure = std::to_string(dfa.nstates) + " states: " + gl_plan_name(&pp) +
				", not " + (want != NULL ? want : "a plan without the stream kernel");
		if (want == NULL)
			seen[2]++;
		else if (dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES)
			seen[0]++;
		else if (dfa.nstates > wide32_fit)
			seen[1]++;
		gl_prepared_free(&pp);
		gl_byte_dfa_free(&dfa);
		free(prog);
	}
	tap(failure.empty() && seen[0] > 0 && seen[1] > 0 && seen[2] > 0,
		"stream tables by states (" + std::to_string(seen[0]) + " compact, " +
		std::to_string(seen[1]) + " wide past " + std::to_string(wide32_fit) + " states, " +
		std::to_string(seen[2]) +
		" past 255 without the stream kernel)" + (failure.empty() ? "" : ": " + failure));
}

/* What the stream kernel computes for one row, on the host. */
static bool
byte_dfa_matches(const GlByteDfa *dfa, const std::string &v)
{
	uint32_t	state = gl_byte_dfa_state(GL_BYTE_DFA_START);

	for (unsigned char c : v)
		state = dfa->table[gl_byte_dfa_slot(state, c)] & GL_BYTE_DFA_STATE_BITS;
	return (dfa->table[gl_byte_dfa_slot(state, 0)] & GL_BYTE_DFA_FLAG) != 0;
}

/*
 * The same with the compact table (byte_dfa.h), as the stream kernel walks
 * it: from the state the row before left (*state: START, or START flagged
 * if that row matched), through the row's separator; the flag is taken off
 * first, as the kernel does at 32-byte borders.  Alongside, the walk from
 * the flagged twin of each state must stay the same walk, flagged
 * (*twins_ok cleared where it does not).
 */
static bool
compact_matches(const uint8_t *table, uint32_t *state, const std::string &v, bool *twins_ok)
{
	uint32_t	plain = *state & ~1u;
	uint32_t	twin = plain | 1;

	for (size_t i = 0; i <= v.size(); i++)
	{
		unsigned char c = i < v.size() ? (unsigned char) v[i] : 0;

		plain = table[gl_byte_dfa_compact_slot(plain, c)];
		twin = table[gl_byte_dfa_compact_slot(twin, c)];
		if (twin != (plain | 1) || (c != 0 && (plain & 1) != 0))
			*twins_ok = false;
	}
	*state = plain;
	return (plain & 1) != 0;
}

/*
 * v and its separator through the wide table from *state, as the stream
 * kernel steps it: whether the separator is flagged.  *flags_ok turns
 * false where a byte not a separator comes flagged.
 */
static bool
wide_matches(const uint16_t *table, uint32_t *state, const std::string &v, bool *flags_ok)
{
	uint32_t	e = *state;

	for (size_t i = 0; i <= v.size(); i++)
	{
		unsigned char c = i < v.size() ? (unsigned char) v[i] : 0;

		e = table[gl_byte_dfa_wide_slot(e, c)];
		if (c != 0 && (e & 1) != 0)
			*flags_ok = false;
	}
	*state = e;
	return (e & 1) != 0;
}

/* Values for a program: its own text pieces, mixed into random text. */
static std::string
value_for(bool utf8, const std::string &piece)
{
	std::string v = random_text(rnd(30), utf8);

	if (rnd(2))
		v += piece;
	return v + random_text(rnd(30), utf8);
}

/*
 * Byte DFAs against the CPU engine, without a GPU: LIKE / ILIKE (UTF-8
 * and single-byte), Aho–Corasick and random regex DFAs, each on values
 * that contain their pieces and on the empty value, and their compact and
 * wide tables where they have one.  Also checks the SKIP state, the flag of
 * every separator transition and of nothing else.
 */
static void
run_byte_dfa_cases(int n)
{
	int			built = 0,
				over_cap = 0,
				compacted = 0,
				numbered_compacts = 0,
				widened = 0;
	std::string failure;

	for (int i = 0; i < n * 10 && failure.empty(); i++)
	{
		int			kind = i % 3;
		bool		utf8 = rnd(2);
		std::string piece;
		std::string what;
		GlProgram  *prog;
		GlByteDfa	dfa;

		if (kind == 0)
		{
			const char *error;
			int			flavor = rnd(3);

			piece = random_like_pattern(utf8);
			prog = gl_build_like(piece.data(), piece.size(), utf8 || rnd(2),
								 flavor == 0 ? NULL : flavor == 1 ? gl_ascii_case_class : test_case_class,
								 NULL, &error);
			what = (flavor ? "ILIKE '" : "LIKE '") + piece + "'";
		}
		else if (kind == 1)
		{
			int			nlit;
			bool		fold;

			prog = random_multi(&nlit, &fold);
			what = "Aho-Corasick " + std::to_string(nlit) + " literals";
		}
		else
		{
			prog = random_dfa(utf8, 30);
			what = "DFA " + std::to_string(prog->u.dfa.nstates) + " states";
		}
		if (prog == NULL)
			continue;
		if (!gl_build_byte_dfa(prog, 4096, &dfa))
		{
			over_cap++;
			free(prog);
			continue;
		}
		built++;
		/* the kept copy, asked for twice (built, then found), is the same table */
		for (int again = 0; again < 2 && failure.empty(); again++)
		{
			GlByteDfa	kept;

			if (!gl_byte_dfa_for(prog, 4096, &kept) || kept.nstates != dfa.nstates ||
				memcmp(kept.table, dfa.table, (size_t) dfa.nstates * 256 * sizeof(uint32_t)) != 0 ||
				(kept.compact == NULL) != (dfa.compact == NULL) ||
				(dfa.compact != NULL &&
				 memcmp(kept.compact, dfa.compact, gl_byte_dfa_compact_bytes(dfa.nstates)) != 0))
				failure = what + ": the recent programs' copy differs";
			gl_byte_dfa_free(&kept);
		}
		for (uint32_t id = 0; id < dfa.nstates && failure.empty(); id++)
			for (uint32_t b = 0; b < 256 && failure.empty(); b++)
			{
				uint32_t	entry = dfa.table[gl_byte_dfa_slot(gl_byte_dfa_state(id), b)];
				uint32_t	next = (entry & GL_BYTE_DFA_STATE_BITS) >> 10;
				bool		ok = entry == ((entry & GL_BYTE_DFA_STATE_BITS) | (entry & GL_BYTE_DFA_FLAG)) &&
					(entry & GL_BYTE_DFA_STATE_BITS) == gl_byte_dfa_state(next) &&
					next < dfa.nstates;

				if (b == 0)		/* separator: to START, flagged only from a row state */
					ok = ok && next == GL_BYTE_DFA_START &&
						(id != GL_BYTE_DFA_SKIP || !(entry & GL_BYTE_DFA_FLAG));
				else			/* others: never flagged; SKIP stays */
					ok = ok && !(entry & GL_BYTE_DFA_FLAG) &&
						(id == GL_BYTE_DFA_SKIP) == (next == GL_BYTE_DFA_SKIP);
				if (!ok)
					failure = what + ": bad entry, state " + std::to_string(id) + " byte " +
						std::to_string(b);
			}
		/* the compact table, where the automaton is small enough for one */
		bool		has_compact = dfa.compact != NULL;

		if (has_compact != (dfa.nstates <= GL_BYTE_DFA_COMPACT_STATES))
			failure = what + ": compact table " + (has_compact ? "made" : "refused") + " for " +
				std::to_string(dfa.nstates) + " states";
		uint32_t	compact_state = GL_BYTE_DFA_COMPACT_START;
		bool		twins_ok = true;
		/* and the wide table, where it has at most GL_BYTE_DFA_WIDE_STATES */
		uint16_t   *wide = gl_byte_dfa_wide_table(&dfa);
		uint32_t	wide_state = gl_byte_dfa_wide_value(GL_BYTE_DFA_START);
		bool		flags_ok = true;

		if ((wide != NULL) != (dfa.nstates <= GL_BYTE_DFA_WIDE_STATES))
			failure = what + ": wide table " + (wide != NULL ? "made" : "refused") + " for " +
				std::to_string(dfa.nstates) + " states";
		/* and renumbered for the banks on a sample of such values (compact_for_text.cu) */
		uint8_t    *numbered = NULL;
		uint32_t	numbered_rows = 0;
		uint32_t	numbered_state = GL_BYTE_DFA_COMPACT_START;

		if (has_compact)
		{
			std::string sample;

			while (sample.size() < 2048)
				sample += value_for(prog->utf8 != 0, kind == 0 ? piece : "") + '\0';
			numbered = gl_compact_for_text(dfa.compact, gl_byte_dfa_compact_bytes(dfa.nstates) /
										   GL_BYTE_DFA_COMPACT_ROW_BYTES,
										   (const uint8_t *) sample.data(), (uint32_t) sample.size(),
										   64, &numbered_rows);
			if (numbered == NULL)
				failure = what + ": no renumbered compact table";
			else if (numbered[gl_byte_dfa_compact_slot(GL_BYTE_DFA_COMPACT_SKIP, 'a')] !=
					 GL_BYTE_DFA_COMPACT_SKIP ||
					 numbered[gl_byte_dfa_compact_slot(GL_BYTE_DFA_COMPACT_SKIP, 0)] !=
					 GL_BYTE_DFA_COMPACT_START ||
					 numbered_rows < GL_BYTE_DFA_COMPACT_MIN_ROWS ||
					 numbered_rows > std::max<uint32_t>(64, gl_byte_dfa_compact_bytes(dfa.nstates) /
														GL_BYTE_DFA_COMPACT_ROW_BYTES))
				failure = what + ": the renumbered compact table moved SKIP, or has " +
					std::to_string(numbered_rows) + " rows";
			numbered_compacts += numbered != NULL && numbered_rows >
				gl_byte_dfa_compact_bytes(dfa.nstates) / GL_BYTE_DFA_COMPACT_ROW_BYTES;
		}
		compacted += has_compact;
		widened += wide != NULL;
		for (int k = 0; k < 400 && failure.empty(); k++)
		{
			std::string v = k == 0 ? "" : value_for(prog->utf8 != 0, kind == 0 ? piece : "");
			bool		cpu = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());

			if (cpu != byte_dfa_matches(&dfa, v))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu);
			else if (has_compact && cpu != compact_matches(dfa.compact, &compact_state, v, &twins_ok))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", compact table differs";
			else if (numbered != NULL &&
					 cpu != compact_matches(numbered, &numbered_state, v, &twins_ok))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", renumbered compact table differs";
			else if (!twins_ok)
				failure = what + " on '" + v + "': a flagged twin walks another way, " +
					"or a byte not a separator is flagged";
			else if (wide != NULL && cpu != wide_matches(wide, &wide_state, v, &flags_ok))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", wide table differs";
			else if (!flags_ok)
				failure = what + " on '" + v + "': the wide table flags a byte not a separator";
		}
		free(wide);
		free(numbered);
		gl_byte_dfa_free(&dfa);
		free(prog);
	}
	tap(failure.empty() && built > n && compacted > n && widened > n && numbered_compacts > 0,
		"byte DFAs equal the CPU engine over " + std::to_string(built) + " programs (" +
		std::to_string(over_cap) + " over the cap, " + std::to_string(compacted) +
		" also as compact tables, renumbered for their values' text too (" +
		std::to_string(numbered_compacts) + " of them in more rows), " +
		std::to_string(widened) + " as wide tables)" +
		(failure.empty() ? "" : ": " + failure));
}

/*
 * The byte tests the hit path counts a chunk's separators with
 * (chunk_scan.cuh), for every value of each byte among random others.
 */
static void
run_byte_flag_case(void)
{
	std::string failure;

	for (int pos = 0; pos < 4 && failure.empty(); pos++)
		for (uint32_t b = 0; b < 256 && failure.empty(); b++)
			for (int k = 0; k < 16 && failure.empty(); k++)
			{
				uint32_t	x = (rnd(1 << 16) << 16 | rnd(1 << 16)) & ~(0xFFu << 8 * pos) |
					b << 8 * pos;
				uint32_t	one = 0,
							below = 0;

				for (int i = 0; i < 4; i++)
				{
					uint32_t	byte = (x >> 8 * i) & 0xFF;

					one |= (byte == 1) << i;
					below |= (byte < 32) << i;
				}
				if (gl_byte_flags_to_bits(gl_bytes_one(x)) != one ||
					gl_byte_flags_to_bits(gl_bytes_below_32(x)) != below)
				{
					char		msg[64];

					snprintf(msg, sizeof(msg), ": 0x%08x", x);
					failure = msg;
				}
			}
	tap(failure.empty(), "bytes equal to 1 and below 32 are found exactly" + failure);
}

/* ------------------------------------------------- the set sieve's literals */

/* A literal as the set holds it, written out: its bytes, a letter of either case in lower case. */
static std::string
set_literal_text(const GlSetLiteral &lit)
{
	std::string s;

	for (uint32_t k = 0; k < lit.length; k++)
		s += lit.masks[k] == 0xDF ? (char) (lit.bytes[k] | 0x20) : (char) lit.bytes[k];
	return s;
}

/*
 * The literals of a list that contain no other, written as
 * set_literal_text() writes them (folded lists in lower case), sorted.
 */
static std::vector<std::string>
minimal_literals(std::vector<std::string> lits, bool fold)
{
	std::vector<std::string> out;

	for (std::string &l : lits)
		for (char &c : l)
			if (fold && isalpha((unsigned char) c))
				c = (char) tolower((unsigned char) c);
	std::sort(lits.begin(), lits.end());
	lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
	for (const std::string &l : lits)
	{
		bool		holds_another = false;

		for (const std::string &other : lits)
			holds_another |= other != l && l.find(other) != std::string::npos;
		if (!holds_another)
			out.push_back(l);
	}
	return out;
}

/*
 * gl_set_literals() gives back each drawn list's literals that contain no
 * other, and refuses exactly the lists where one of those is a single
 * byte or longer than 16; folded or not, with a non-letter among the
 * letters.
 */
static void
run_set_literal_cases(int n)
{
	GlSetLiteral *got = (GlSetLiteral *) malloc(GL_SET_MAX_LITERALS * sizeof(GlSetLiteral));
	int			recovered = 0,
				refused = 0;
	std::string failure;

	for (int i = 0; i < n && failure.empty(); i++)
	{
		bool		fold = rnd(2);
		std::vector<std::string> lits;
		std::vector<std::string> want;
		std::vector<std::string> have;
		bool		eligible = true;
		uint32_t	count;
		GlProgram  *prog;

		for (uint32_t k = 1 + rnd(40); k > 0; k--)
		{
			std::string l;

			for (uint32_t j = rnd(10) == 0 ? 1 + rnd(20) : 2 + rnd(6); j > 0; j--)
				l += "abqAB-"[rnd(6)];
			lits.push_back(l);
		}
		prog = multi_of(lits, fold);
		if (prog == NULL)
			continue;
		want = minimal_literals(lits, fold);
		for (const std::string &l : want)
			eligible &= l.size() >= 2 && l.size() <= GL_SET_MAX_BYTES;
		if (gl_set_literals(prog, got, &count))
		{
			for (uint32_t k = 0; k < count; k++)
				have.push_back(set_literal_text(got[k]));
			std::sort(have.begin(), have.end());
			recovered++;
		}
		else
			refused++;
		if (eligible ? have != want : !have.empty())
			failure = std::to_string(lits.size()) + " literals" + (fold ? " folded" : "") +
				": " + std::to_string(have.size()) + " recovered, " +
				std::to_string(want.size()) + " contain no other" +
				(eligible ? "" : " (one of them 1 or more than 16 bytes long)");
		free(prog);
	}
	free(got);
	tap(failure.empty() && recovered > 0 && refused > 0,
		"an Aho-Corasick automaton gives back its literals that contain no other (" +
		std::to_string(recovered) + " lists, " + std::to_string(refused) + " refused)" +
		(failure.empty() ? "" : ": " + failure));
}

/* Literals with a 'q' or a 'z', which set_sieve_text() holds only where they are planted. */
static std::vector<std::string>
rare_literals(uint32_t n)
{
	std::vector<std::string> lits;

	for (uint32_t i = 0; i < n; i++)
	{
		std::string l = random_text(1 + rnd(12), false);

		l.insert(rnd((uint32_t) l.size() + 1), 1, "qzQ"[rnd(3)]);
		lits.push_back(l);
	}
	return lits;
}

/*
 * nrows rows of the random text (no 'q', no 'z'); with plant_every > 0,
 * a literal of lits, as drawn or each letter's case flipped (folded),
 * planted in every plant_every-th row on average: the row itself, or at
 * its start, its end or inside.
 */
static void
set_sieve_text(GlColumn *col, uint32_t nrows, const std::vector<std::string> &lits,
			   uint32_t plant_every, bool fold)
{
	gl_column_init(col, nrows, nrows * 40);
	for (uint32_t r = 0; r < nrows; r++)
	{
		std::string v = random_text(rnd(20) == 0 ? rnd(3000) : rnd(60), false);

		if (plant_every > 0 && rnd(plant_every) == 0)
		{
			std::string l = lits[rnd((uint32_t) lits.size())];

			for (char &c : l)
				if (fold && isalpha((unsigned char) c) && rnd(2))
					c ^= 0x20;
			v.insert(rnd(3) == 0 ? 0 : rnd(3) == 0 ? v.size() : rnd((uint32_t) v.size() + 1), l);
		}
		append_row(col, v, rnd(30) == 0);
	}
}

/*
 * The set is chosen where its literals are rare in the column's pairs
 * (rare_literals() over set_sieve_text()), and not for literals of the
 * text's own letters.
 */
static void
run_set_choice_case(void)
{
	GlColumn	col;
	std::vector<std::string> rare = rare_literals(60);
	GlProgram  *rare_prog = multi_of(rare, false);
	GlProgram  *common_prog = multi_of({"ab", "kis", "sack"}, false);
	GlBytePairs *pairs;
	GlLiteralSet *chosen = NULL;
	GlLiteralSet *refused = NULL;

	set_sieve_text(&col, 5000, rare, 100, false);
	pairs = gl_count_byte_pairs(&col);
	if (pairs != NULL && rare_prog != NULL && common_prog != NULL)
	{
		chosen = gl_choose_literal_set(rare_prog, pairs);
		refused = gl_choose_literal_set(common_prog, pairs);
	}
	tap(chosen != NULL && refused == NULL,
		"the set sieve is chosen for 60 literals rare in the text" +
		(chosen != NULL ? " (" + std::to_string(chosen->sample_pass * 100) + "% of pairs pass)"
		 : std::string(": not chosen")) +
		", not for three of its own words" + (refused != NULL ? ": chosen" : ""));
	free(chosen);
	free(refused);
	free(pairs);
	free(rare_prog);
	free(common_prog);
	gl_column_free(&col);
}

/* One byte through a classed table, as the stream kernel takes it: the entry. */
static uint32_t
classed_entry(const GlClassedTable *t, uint32_t state, unsigned char b)
{
	uint16_t	e;

	memcpy(&e, t->table + gl_classed_entry_offset(t, state, b), sizeof(e));
	return e;
}

/*
 * Classed tables of Aho–Corasick programs (classed_table.h), in both
 * forms (the windowed one's states in order or numbered for a sample of
 * text), against the CPU engine, without a GPU: values streamed one after
 * another, each followed by its separator, which alone may lead to the
 * root's twin (the table's largest value), and only after a matching
 * value; the twin goes on as the root does; SKIP keeps to the separator.
 */
static void
run_classed_table_cases(int n)
{
	int			built = 0,
				numbered = 0,
				letters = 0,
				printable = 0,
				refused = 0,
				matched = 0;
	std::string failure;

	for (int i = 0; i < n * 4 && failure.empty(); i++)
	{
		bool		fold;
		/* more than random_multi()'s 200: some pass the table's limits */
		std::vector<std::string> lits = random_literals(20, 400, &fold);
		GlProgram  *prog = multi_of(lits, fold);
		GlClassedTable t;
		std::string what = "Aho-Corasick " + std::to_string(lits.size()) + " literals" +
			(fold ? " folded" : "");
		uint32_t	state;

		if (prog == NULL)
			continue;
		/* half the tables numbered for a sample of values like those matched */
		std::string sample;
		bool		sampled = rnd(2);

		for (int k = 0; k < 200 && sampled; k++)
			sample += value_for(prog->utf8 != 0, lits[rnd(lits.size())]) + std::string(1, '\0');
		if (!gl_build_classed_table(prog, 227 * 1024, rnd(2), (const uint8_t *) sample.data(),
									(uint32_t) sample.size(), &t))
		{
			refused++;
			free(prog);
			continue;
		}
		built++;
		numbered += sampled && t.window_flip != 0;
		letters += t.window_flip == 0x40;
		printable += t.window_flip == 0x60;
		if (t.window_flip != 0)
			what += " (window flip " + std::to_string(t.window_flip) + ")";
		uint32_t	skip = gl_classed_skip(&t);
		uint32_t	twin = gl_classed_twin(&t);

		for (uint32_t c = 0; c < 256 && failure.empty(); c++)
			if (classed_entry(&t, twin, (unsigned char) c) !=
				classed_entry(&t, GL_CLASSED_ROOT, (unsigned char) c))
				failure = what + ": the root's twin differs from the root on byte " +
					std::to_string(c);
		for (uint32_t st = 0; st < t.nstates && failure.empty(); st++)
			for (uint32_t c = 0; c < 256; c++)
				if (classed_entry(&t, gl_classed_value(&t, st), (unsigned char) c) > twin)
					failure = what + ": an entry is larger than the root's twin";
		/* from the root, then from where each value's separator led */
		state = GL_CLASSED_ROOT;
		for (int k = 0; k < 300 && failure.empty(); k++)
		{
			std::string v = k == 0 ? "" : value_for(prog->utf8 != 0, lits[rnd(lits.size())]);
			bool		cpu = gl_cpu_match_value(prog, v.data(), (uint32_t) v.size());
			uint32_t	end;

			for (unsigned char c : v)
			{
				uint32_t	e = classed_entry(&t, state, c);

				if (e == twin || classed_entry(&t, skip, c) != skip)
					failure = what + " on '" + v + "': a byte not a separator leads to the " +
						"root's twin, or SKIP left before the separator";
				state = e;
			}
			end = classed_entry(&t, state, 0);
			matched += cpu;
			if (failure.empty() &&
				(end != (cpu ? twin : GL_CLASSED_ROOT) ||
				 classed_entry(&t, skip, 0) != GL_CLASSED_ROOT))
				failure = what + " on '" + v + "': cpu " + std::to_string(cpu) +
					", the separator's entry differs";
			state = end;
		}
		gl_classed_table_free(&t);
		free(prog);
	}
	tap(failure.empty() && built > n && letters > n / 8 && printable > n / 8 &&
		numbered > n / 8 &&
		built - letters - printable > n &&
		refused > 0 && matched > built * 30,
		"classed tables equal the CPU engine over " + std::to_string(built) +
		" Aho-Corasick programs (" + std::to_string(letters) + " in the letters' window, " +
		std::to_string(printable) + " in the printable one, " +
		std::to_string(numbered) + " windowed ones numbered for a sample, " +
		std::to_string(refused) + " over the limits, " +
		std::to_string(matched) + " matching values)" + (failure.empty() ? "" : ": " + failure));
}

/* Malformed programs must be refused before any kernel sees them. */
static void
run_malformed_cases(void)
{
	char		err[256];
	GlPreparedProgram pp;
	GlProgram  *prog = random_dfa(true, 10);
	uint16_t   *trans = (uint16_t *) gl_program_section(prog, prog->u.dfa.trans_off);
	const char *error;
	bool		refused;

	trans[0] = (uint16_t) prog->u.dfa.nstates;
	refused = !gl_prepare_program(prog, 48 * 1024, UINT32_MAX, &pp, err, sizeof(err));
	tap(refused, std::string("a DFA with a transition out of range is refused: ") + err);
	gl_prepared_free(&pp);
	free(prog);

	prog = random_dfa(true, 10);
	prog->u.dfa.ranges_off = prog->total_size;
	prog->u.dfa.nranges = 1;
	refused = !gl_prepare_program(prog, 48 * 1024, UINT32_MAX, &pp, err, sizeof(err));
	tap(refused, std::string("a DFA with ranges past the end is refused: ") + err);
	gl_prepared_free(&pp);
	free(prog);

	prog = gl_build_like("%a_c%", 5, true, NULL, NULL, &error);
	((GlLikeSegment *) gl_program_section(prog, prog->u.like.segments_off))[0].nchars = 65;
	refused = !gl_prepare_program(prog, 48 * 1024, UINT32_MAX, &pp, err, sizeof(err));
	tap(refused, std::string("a LIKE segment of 65 positions is refused: ") + err);
	gl_prepared_free(&pp);
	free(prog);
}

/* nparts > 1: split as on a host with several GPUs (parts share a device here). */
static GlDeviceColumn *
upload(const GlColumn *col, const char *what, int nparts = 1)
{
	char		err[256] = "";
	GlDeviceColumn *dcol = gl_cuda_upload(col, nparts, 0, err, sizeof(err));

	tap(dcol != NULL, std::string("upload ") + what + (dcol ? "" : std::string(": ") + err));
	return dcol;
}

/*
 * Patterns cut from the column's own rows (first, last, random), so the
 * sieve's runs do occur: '%s%', 's%', '%s' and 's' itself, LIKE and
 * ILIKE, with s any piece of a value (escaped) -- hits at row starts and
 * ends, at chunk borders, at the column's first and last bytes.
 */
static void
run_sieve_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	static const char *const forms[] = {"%%%s%%", "%s%%", "%%%s", "%s"};

	for (int i = 0; i < n; i++)
	{
		/* row 0 as '%s%' and 's%' (no separator before it), the last row as '%s' */
		uint64_t	row = i <= 1 ? 0 : i == 2 ? col->nrows - 1 : rnd((uint32_t) col->nrows);
		uint32_t	len;
		const char *v = gl_column_value(col, row, &len);
		uint32_t	from = len > 0 ? rnd(len) : 0;
		uint32_t	take = (i % 4 >= 2) ? len - from : 1 + rnd(len - from < 40 ? len - from + 1 : 40);
		std::string piece;
		char		pat[512];
		const char *error;
		bool		ilike = rnd(2);
		const char *form = forms[i % 4];
		GlProgram  *prog;

		if (form[0] != '%')
			from = 0;
		if (from + take > len)
			take = len - from;
		for (uint32_t k = from; k < from + take; k++)
		{
			if (v[k] == '%' || v[k] == '_' || v[k] == '\\')
				piece += '\\';
			piece += v[k];
		}
		snprintf(pat, sizeof(pat), form, piece.c_str());
		prog = gl_build_like(pat, strlen(pat), true, ilike ? gl_ascii_case_class : NULL, NULL,
							 &error);
		if (prog == NULL)
			continue;
		compare(dcol, col, prog, std::string(colname) + (ilike ? " ILIKE '" : " LIKE '") +
				pat + "' (cut from row " + std::to_string(row) + ")");
		free(prog);
	}
}

static void
run_all_kinds(const GlColumn *col, const char *colname, bool utf8_data, int n, int nparts = 1)
{
	GlDeviceColumn *dcol = upload(col, colname, nparts);

	if (dcol == NULL)
		return;
	run_like_cases(dcol, col, colname, n, utf8_data);
	run_sieve_cases(dcol, col, colname, n / 2);
	run_multi_cases(dcol, col, colname, n / 2);
	run_classed_cases(dcol, col, colname, std::max(3, n / 10));
	run_dfa_cases(dcol, col, colname, n / 2);
	gl_cuda_free(dcol);
}

/*
 * Chunks that open with k empty rows (k = 56..79), then a matching row of
 * 40 bytes whose separator is the only one in the chunk's fourth 32-byte
 * word, then a row of filler to the chunk's end.  The stream kernel sets
 * the row of such a word from the chunk index, all of a chunk's such rows
 * as one 64-row mask from the chunk's first row (gl_words_to_list());
 * a row 64 or more separators into its chunk does not fit the mask and
 * must go the other way, its word read again.
 */
static void
run_crowded_chunk_case(void)
{
	GlColumn	col;
	GlDeviceColumn *dcol;
	const std::string hit = "a final row, forty bytes long, matching.";
	const char *error;

	gl_column_init(&col, 3000, 24 * GL_DEV_CHUNK_BYTES);
	for (uint32_t k = 56; k < 80; k++)
	{
		for (uint32_t i = 0; i < k; i++)
			append_row(&col, "", false);
		append_row(&col, hit, false);
		append_row(&col, std::string(GL_DEV_CHUNK_BYTES - k - (hit.size() + 1) - 1, 'z'), false);
	}
	dcol = upload(&col, "crowded chunks");
	if (dcol != NULL)
	{
		GlProgram  *like = gl_build_like("%fin_l%", 7, true, NULL, NULL, &error);
		GlProgram  *multi = multi_of({"final", "qqqq"}, false);

		compare(dcol, &col, like, "crowded chunks LIKE '%fin_l%'");
		compare(dcol, &col, multi, "crowded chunks Aho-Corasick 2 literals");
		free(like);
		free(multi);
		gl_cuda_free(dcol);
	}
	gl_column_free(&col);
}

/* Does the column's cache plan prog with the set sieve first? */
static bool
plans_set_sieve(const GlDeviceColumn *dcol, const GlProgram *prog, std::string *plan)
{
	GlPrepareChoices with_pairs = {UINT32_MAX, true, false, dcol->pairs};
	GlPreparedProgram pp;
	char		err[256];

	if (!gl_prepare_program_with(prog, 227 * 1024, &with_pairs, &pp, err, sizeof(err)))
	{
		*plan = err;
		return false;
	}
	*plan = gl_plan_name(&pp);
	gl_prepared_free(&pp);
	return plan->compare(0, 10, "set-sieve+") == 0;
}

/*
 * The set sieve on the device.  Lists of literals rare in the text (40:
 * the wide table behind the set sieve; 200: the classed or windowed
 * one), folded or not, planted in one row in 50 (whole rows, row starts
 * and ends, long rows across spans and chunks).  Then a column whose
 * sampled rows (the upload counts every fourth of 200 000) hold none of
 * the filter's pairs while the others hold 'qz' at every other byte: the
 * set is chosen, the set sieve gives up and the stream kernel answers.  Each plan is checked
 * to start with the set sieve, each answer against the CPU engine's.
 */
static void
run_set_sieve_cases(void)
{
	for (int i = 0; i < 5; i++)
	{
		bool		fold = i % 2;
		bool		give_up = i == 4;
		std::vector<std::string> lits = rare_literals(i < 2 || give_up ? 40 : 200);
		GlProgram  *prog;
		std::string what = give_up ? "set sieve giving up" :
			"set sieve " + std::to_string(lits.size()) + " literals" + (fold ? " folded" : "");
		GlColumn	col;
		GlDeviceColumn *dcol;
		std::string plan;

		if (give_up)
		{
			gl_column_init(&col, 200000, 200000 * 40);
			for (uint32_t r = 0; r < 200000; r++)
			{
				std::string v = random_text(rnd(40), false);

				if (r % 4 != 0)
					for (uint32_t k = rnd(40); k > 0; k--)
						v += "qz";
				append_row(&col, v + random_text(rnd(3), false), false);
			}
		}
		else
			set_sieve_text(&col, 300000, lits, 50, fold);
		if (give_up)
			lits.insert(lits.end(), {"qzqzk", "zqa", "kqz"});
		prog = multi_of(lits, fold);
		dcol = upload(&col, what.c_str());
		if (dcol != NULL && prog != NULL)
		{
			bool		set_first = plans_set_sieve(dcol, prog, &plan);

			tap(set_first, what + " planned: " + plan);
			compare(dcol, &col, prog, what);
		}
		gl_cuda_free(dcol);
		gl_column_free(&col);
		free(prog);
	}
}

/*
 * Programs that come again (program_cache.cu): more programs than a
 * column keeps, pairs of them alike in size ('%ab%' and '%ba%'), matched
 * in rounds forwards and backwards, so that
 * some come from the cache with their blob still on the device, some from
 * the cache after another program's copy, and some are prepared again
 * after their eviction; every answer against the CPU engine's.
 */
static void
run_repeated_programs(GlDeviceColumn *dcol, const GlColumn *col, const std::string &colname)
{
	static const char *const patterns[] = {"%ab%", "%ba%", "%a_b%", "%b_a%", "%a%b%", "%abc%"};
	const int	npatterns = sizeof(patterns) / sizeof(patterns[0]);
	std::vector<GlProgram *> progs;
	std::vector<std::vector<uint64_t>> cpu;

	for (const char *pattern : patterns)
	{
		const char *error;

		progs.push_back(gl_build_like(pattern, strlen(pattern), false, NULL, NULL, &error));
		cpu.emplace_back(gl_bitmap_words(col->nrows) + 1);
		gl_cpu_match_column(progs.back(), col, cpu.back().data(), 2);
	}
	for (int round = 0; round < 3; round++)
		for (int k = 0; k < npatterns; k++)
		{
			int			i = round % 2 ? npatterns - 1 - k : k;
			std::string what = colname + " round " + std::to_string(round) + " LIKE '" +
				patterns[i] + "'";

			compare_plan(dcol, col, progs[i], cpu[i], UINT32_MAX, true, what);
			if (dcol->next == NULL)
				compare_listed(dcol, col, progs[i], cpu[i], what);
		}
	for (GlProgram *prog : progs)
		free(prog);
}

/*
 * Upload half (in nparts parts), then append the rest in uneven pieces,
 * programs matched before the appends coming again after them.
 */
static void
run_append_case(const GlColumn *col, int nparts = 1)
{
	GlColumn	part;
	char		err[256] = "";
	GlDeviceColumn *dcol;
	uint64_t	row = 0;
	bool		ok = true;

	gl_column_init(&part, col->nrows, col->nbytes);
	for (; row < col->nrows / 2; row++)
	{
		uint32_t	len;
		const char *v = gl_column_value(col, row, &len);

		gl_column_append(&part, gl_column_tid(col, row), v, len,
						 gl_column_is_null(col, row) ? GL_ROW_IS_NULL : 0);
	}
	dcol = upload(&part, "first half for append", nparts);
	if (dcol != NULL)
		run_repeated_programs(dcol, &part, "before appending");
	while (dcol != NULL && ok && row < col->nrows)
	{
		uint64_t	first = row;
		uint64_t	end = row + 1 + rnd(3000);

		for (; row < col->nrows && row < end; row++)
		{
			uint32_t	len;
			const char *v = gl_column_value(col, row, &len);

			gl_column_append(&part, gl_column_tid(col, row), v, len,
							 gl_column_is_null(col, row) ? GL_ROW_IS_NULL : 0);
		}
		ok = gl_cuda_append(dcol, &part, first, err, sizeof(err));
	}
	if (dcol == NULL)
		return;
	tap(ok, std::string("append in pieces") + (ok ? "" : std::string(": ") + err));
	run_repeated_programs(dcol, &part, "appended");
	run_like_cases(dcol, &part, "appended", 30, false);
	run_dfa_cases(dcol, &part, "appended", 10);
	gl_cuda_free(dcol);
	gl_column_free(&part);
}

static void
run_refusal_cases(void)
{
	GlColumn	col;
	GlDeviceColumn *dcol;
	const char *error;
	GlProgram  *prog = gl_build_like("%abc%", 5, true, NULL, NULL, &error);
	std::vector<uint64_t> result(2);
	GlCudaResult whole = {result.data()};
	char		err[256] = "";
	double		ms;
	bool		refused;

	gl_column_init(&col, 10, 100);
	append_row(&col, "xabcx", false);
	dcol = upload(&col, "one row");
	if (dcol == NULL)
		return;
	prog->u.like.segments_off = prog->total_size + 64;
	refused = !gl_cuda_match(dcol, prog, false, -1, &whole, &ms, err, sizeof(err));
	tap(refused, std::string("a program with a bad offset is refused: ") + err);
	prog->magic = 0;
	refused = !gl_cuda_match(dcol, prog, false, -1, &whole, &ms, err, sizeof(err));
	tap(refused, std::string("a program with a bad magic is refused: ") + err);
	free(prog);
	gl_cuda_free(dcol);
	gl_column_free(&col);

	gl_column_init(&col, 10, 100);
	dcol = upload(&col, "empty column");
	prog = gl_build_like("%", 1, true, NULL, NULL, &error);
	if (dcol != NULL)
		tap(gl_cuda_match(dcol, prog, false, -1, &whole, &ms, err, sizeof(err)),
			"matching an empty column");
	free(prog);
	gl_cuda_free(dcol);
	gl_column_free(&col);
}

/* The TAP plan and the counts, last; the exit status. */
static int
tap_plan(const char *note)
{
	printf("1..%d\n", test_number);
	printf("# %d passed, %d failed%s%s%s\n", test_number - failures, failures,
		   note ? " (" : "", note ? note : "", note ? ")" : "");
	return failures ? 1 : 0;
}

int
main(int argc, char **argv)
{
	GlCudaDeviceInfo info;
	char		err[256] = "";
	GlColumn	col;
	bool		host_only = false;
	int			n = 120;

	for (int i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--host-only") == 0)
			host_only = true;
		else
			n = atoi(argv[i]);
	}

	/* What needs no GPU first, so it runs everywhere. */
	run_prep_cases(n);
	run_probe_choice_case();
	run_multi_plan_cases(n);
	run_wide_plan_cases();
	run_byte_dfa_cases(n);
	run_classed_table_cases(n);
	run_classed_plan_cases(n / 4);
	run_malformed_cases();
	run_byte_flag_case();
	run_set_literal_cases(n);
	run_set_choice_case();
	if (host_only)
		return tap_plan("the host-side checks alone: --host-only");
	if (!gl_cuda_probe(&info, 0, err, sizeof(err)))
	{
		printf("Bail out! no usable CUDA device: %s\n", err);
		return 2;
	}
	printf("# device: %s, %d SMs, compute capability %d.%d\n",
		   info.name, info.sm_count, info.cc_major, info.cc_minor);

	run_refusal_cases();
	run_crowded_chunk_case();
	run_set_sieve_cases();

	build_random(&col, 20000, false);
	run_all_kinds(&col, "ascii", false, n);
	run_append_case(&col);
	/* the split over several GPUs, three parts (on one device if that is all) */
	run_all_kinds(&col, "ascii in 3 parts", false, n / 4, 3);
	run_append_case(&col, 3);
	gl_column_free(&col);

	build_random(&col, 20000, true);
	run_all_kinds(&col, "utf8", true, n);
	gl_column_free(&col);

	build_adversarial(&col);
	run_all_kinds(&col, "adversarial", false, n / 2);
	gl_column_free(&col);

	/*
	 * More chunks than the resident grid takes in one round of four per
	 * thread: the skim walks it in two rounds, the second part full, and
	 * the stream kernel's warps take several whole tickets each before
	 * the single-chunk ones.
	 */
	build_random(&col, 4000000, false);
	run_all_kinds(&col, "ascii, 4 M rows", false, n / 15);
	gl_column_free(&col);

	return tap_plan(NULL);
}
