/*-------------------------------------------------------------------------
 *
 * engine_test.c
 *	  Unit tests of gl_cpu_match_column (cpu_engine.c): a whole column on
 *	  1..8 threads must give, bit for bit, what gl_cpu_match_value gives
 *	  row by row -- with NULL rows (never match), empty rows, megabyte rows,
 *	  and row counts that do not fill the last bitmap word or chunk.  A
 *	  regex's automaton with a prefilter is skimmed for the prefilter's
 *	  literal in the column, and stepped alone for one value: the two
 *	  must agree too.  And gl_cpu_prefilter_rare()'s line, four lead rows
 *	  in 4 096; random patterns whose skim hits crowd together; a batch
 *	  of programs in one pass against each program's own; and chunks
 *	  passed over by the column's byte-pair summary.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_engine.h"
#include "engine/cpu_like.h"
#include "engine/cpu_multi.h"
#include "program/dfa_build.h"
#include "program/like_build.h"
#include "program/multi_build.h"
#include "tap.h"
#include "test_case_fold.h"

static uint32_t rng_state = 4242;

static uint32_t
rnd(uint32_t n)
{
	rng_state = rng_state * 1103515245 + 12345;
	return (rng_state >> 8) % n;
}

static const char *const words[] = {
	"special", "requests", "Customer", "Complaints", "é", "€", "furiously",
	"pending", "deposits", "k", "K", "\xe2\x84\xaa", " ", " ", " "
};

/* A column of comment-like rows; every 13th NULL, every 17th empty, some huge. */
static void
build_column(GlColumn *col, uint64_t nrows)
{
	static char buf[1 << 21];
	uint64_t	r;

	gl_column_init(col, nrows, nrows * 40);
	for (r = 0; r < nrows; r++)
	{
		size_t		len = 0;
		size_t		target = (r % 997 == 5) ? (1 << 20) + rnd(1000) : rnd(120);

		while (len < target)
		{
			const char *w = words[rnd(sizeof(words) / sizeof(words[0]))];
			size_t		wl = strlen(w);

			if (len + wl > sizeof(buf))
				break;
			memcpy(buf + len, w, wl);
			len += wl;
		}
		if (r % 17 == 3)
			len = 0;
		gl_column_append(col, gl_tid_make((uint32_t) (r / 100), (uint16_t) (r % 100 + 1)),
						 buf, (uint32_t) len, r % 13 == 7 ? GL_ROW_IS_NULL : 0);
	}
}

static bool
column_agrees(const GlProgram *prog, const GlColumn *col, int nthreads,
			  uint64_t *nmatched)
{
	size_t		nwords = gl_bitmap_words(col->nrows);
	uint64_t   *bits = malloc(nwords * sizeof(uint64_t));
	uint64_t	r;
	bool		ok = true;

	memset(bits, 0xA5, nwords * sizeof(uint64_t));	/* must be overwritten */
	if (!gl_cpu_match_column(prog, col, bits, nthreads))
		ok = false;
	*nmatched = 0;
	for (r = 0; ok && r < nwords * 64; r++)
	{
		bool		got = (bits[r / 64] >> (r % 64)) & 1;
		bool		want = false;

		if (r < col->nrows && !gl_column_is_null(col, r))
		{
			uint32_t	len;
			const char *v = gl_column_value(col, r, &len);

			want = gl_cpu_match_value(prog, v, len);
		}
		if (got != want)
		{
			tap_diag("row %llu: column %d value %d", (unsigned long long) r, got, want);
			ok = false;
		}
		*nmatched += got;
	}
	free(bits);
	return ok;
}

/*
 * The automaton of the regex 'si.*q' (colors: 0 other, 1 's', 2 'i', 3
 * 't'), with the prefilter '%si%' unless bare.
 */
static GlProgram *
build_si_q(bool bare)
{
	static const uint16_t trans[] = {
		0, 1, 0, 0,				/* 0: nothing yet */
		0, 1, 2, 0,				/* 1: just read s */
		2, 2, 2, 3,				/* 2: read si */
		3, 3, 3, 3,				/* 3: found */
	};
	static const uint8_t flags[] = {0, 0, 0, GL_DFA_ACCEPT};
	uint16_t	ascii[128] = {0};
	const char *error;
	GlDfaSpec	spec = {
		.nstates = 4, .ncolors = 4, .start_state = 0, .trans = trans, .flags = flags,
		.ascii_color = ascii, .default_color = 0, .exact = true, .utf8 = true,
	};
	GlProgram  *prog;

	ascii['s'] = 1;
	ascii['i'] = 2;
	ascii['q'] = 3;
	spec.prefilter = bare ? NULL : gl_build_like("%si%", 4, true, NULL, NULL, &error);
	prog = gl_build_dfa(&spec);
	free((void *) spec.prefilter);
	return prog;
}

/*
 * gl_cpu_prefilter_rare(): 4 096 lead rows, the last `with` of them
 * holding "si": rare up to four, one in a thousand; never for a regex
 * without a prefilter or a LIKE program.
 */
static void
check_prefilter_rare(void)
{
	static const uint64_t withs[] = {0, 1, 4, 5, 4096};
	GlProgram  *prog = build_si_q(false);
	GlProgram  *bare = build_si_q(true);
	const char *error;
	GlProgram  *like = gl_build_like("%si%", 4, true, NULL, NULL, &error);

	for (size_t i = 0; i < sizeof(withs) / sizeof(withs[0]); i++)
	{
		GlColumn	col;

		gl_column_init(&col, 4096, 4096 * 8);
		for (uint64_t r = 0; r < 4096; r++)
		{
			const char *value = r >= 4096 - withs[i] ? "a sip" : "a tip";

			gl_column_append(&col, gl_tid_make((uint32_t) (r / 100), (uint16_t) (r % 100 + 1)),
							 value, 5, 0);
		}
		tap_ok(gl_cpu_prefilter_rare(prog, &col) == (withs[i] <= 4),
			   "the prefilter '%%si%%' in %llu of 4096 lead rows: %s",
			   (unsigned long long) withs[i], withs[i] <= 4 ? "rare" : "not rare");
		if (withs[i] == 0)
			tap_ok(!gl_cpu_prefilter_rare(bare, &col) && !gl_cpu_prefilter_rare(like, &col),
				   "no prefilter, no rarity: a regex without one, a LIKE program");
		gl_column_free(&col);
	}
	free(prog);
	free(bare);
	free(like);
}

/*
 * ILIKE patterns (lowered) whose column skim spans a k: an occurrence may
 * hold the Kelvin sign there, so the skim must report its row as well.
 */
static void
check_kelvin_skims(const GlColumn *col, uint64_t nrows)
{
	static const char *const patterns[] = {
		"%pending k%", "%k deposits%", "%sk%", "%kk%", "%k%", "%special k requests%"
	};
	const char *error;

	for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
	{
		GlProgram  *prog = gl_build_like(patterns[p], strlen(patterns[p]), true,
										 test_case_class, NULL, &error);
		uint64_t	matched = 0;
		bool		agrees = prog && column_agrees(prog, col, 2, &matched);

		tap_ok(agrees, "%llu rows, ILIKE '%s' with the Kelvin sign, 2 threads: %llu matched",
			   (unsigned long long) nrows, patterns[p], (unsigned long long) matched);
		free(prog);
	}
}

/*
 * The column skims a plan takes: a pair of positions wherever one
 * qualifies (a position's bytes alone hit wherever any pair with it
 * does), and for the exact skim the rarest pair across words, not two
 * letters of one word that come together in common words ("y?y" of
 * "slyly", in most rows of TPC-H comments).
 */
static void
check_skim_choices(void)
{
	static const struct
	{
		const char *pattern;
		bool		ilike;
		const char *not_first;	/* the exact skim's first bytes are none of these */
	}			cases[] = {
		{"%dugouts wake slyly%", true, "yY"},
		{"%na_ve%", false, ""},
		{"%sp_cial%req_ests%", false, ""},
		{"%quickly%", true, ""},
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		const char *error;
		GlProgram  *prog = gl_build_like(cases[c].pattern, strlen(cases[c].pattern), true,
										 cases[c].ilike ? test_case_class : NULL, NULL, &error);
		GlLikePlan	plan;
		bool		pairs = true;
		bool		exact_ok;

		if (prog == NULL || !gl_cpu_like_prepare(prog, &plan))
		{
			tap_ok(false, "skims of '%s': not prepared", cases[c].pattern);
			free(prog);
			continue;
		}
		gl_cpu_like_prepare_skims(&plan);
		for (int k = 0; k < plan.nskims; k++)
			pairs = pairs && plan.skims[k].dist > 0;
		exact_ok = plan.nskims > 0 && !plan.skims[0].high &&
			strchr(cases[c].not_first, plan.skims[0].first[0]) == NULL &&
			strchr(cases[c].not_first, plan.skims[0].first[1]) == NULL;
		tap_ok(plan.nskims > 0 && pairs && exact_ok,
			   "skims of '%s': %d, each a pair of positions, the exact one first%s",
			   cases[c].pattern, plan.nskims,
			   cases[c].not_first[0] ? " and across words" : "");
		gl_cpu_like_release(&plan);
		free(prog);
	}
}

/*
 * A term split over two rows in turn at each of its characters: whatever
 * character the skim's hit stands for, the occurrence it places starts in
 * one row and ends in the next, so no row matches.
 */
static void
check_split_occurrences(void)
{
	static const char *const terms[] = {"quvwxy", "qu\xc3\xa9wxy"};
	int			wrong = 0;

	for (size_t t = 0; t < sizeof(terms) / sizeof(terms[0]); t++)
	{
		const char *term = terms[t];
		size_t		len = strlen(term);
		char		pattern[32];
		GlColumn	col;
		const char *error;

		gl_column_init(&col, 2 * len, 8 * len * len);
		for (size_t split = 1; split < len; split++)
		{
			char		row[32];

			snprintf(row, sizeof(row), "zz%.*s", (int) split, term);
			gl_column_append(&col, gl_tid_make((uint32_t) split, 1), row,
							 (uint32_t) strlen(row), 0);
			snprintf(row, sizeof(row), "%szz", term + split);
			gl_column_append(&col, gl_tid_make((uint32_t) split, 2), row,
							 (uint32_t) strlen(row), 0);
		}
		snprintf(pattern, sizeof(pattern), "%%%s%%", term);
		for (int ilike = 0; ilike < 2; ilike++)
		{
			GlProgram  *prog = gl_build_like(pattern, strlen(pattern), true,
											 ilike ? gl_ascii_case_class : NULL, NULL, &error);
			uint64_t	matched = 0;

			if (prog == NULL || !column_agrees(prog, &col, 1, &matched) || matched != 0)
				wrong++;
			free(prog);
		}
		gl_column_free(&col);
	}
	tap_ok(wrong == 0, "terms split over two rows at each character: %d of 4 searches matched a row",
		   wrong);
}

/*
 * Random one-segment patterns over rows of a small alphabet (ASCII with
 * both cases, a two-byte and a three-byte character, the Kelvin sign,
 * spaces), so that skim hits come close together, overlap, straddle rows
 * and fall after partial occurrences: the hit's own check
 * (gl_cpu_like_find_placed()) must give what matching each value does.
 * The same programs in one batch (gl_cpu_match_column_batch()) must give
 * each program's own pass.
 */
static void
check_hits_and_batches(void)
{
	static const char *const alphabet[] = {"a", "A", "b", "B", "k", "K", " ", "\xc3\xa9",
	"\xe2\x84\xaa", "s"};
	static const char *const pattern_chars[] = {"a", "b", "k", "s", " ", "_", "\xc3\xa9"};
	enum
	{
		NROWS = 5000, NPROGS = 24
	};
	GlColumn	col;
	GlProgram  *progs[NPROGS];
	uint64_t   *results[NPROGS];
	bool		prepared[NPROGS];
	char		buf[128];
	int			disagreeing = 0;
	int			batch_differs = 0;

	gl_column_init(&col, NROWS, NROWS * 20);
	for (int r = 0; r < NROWS; r++)
	{
		size_t		len = 0;
		int			nchars = (int) rnd(24);

		for (int c = 0; c < nchars; c++)
		{
			const char *ch = alphabet[rnd(sizeof(alphabet) / sizeof(alphabet[0]))];

			memcpy(buf + len, ch, strlen(ch));
			len += strlen(ch);
		}
		gl_column_append(&col, gl_tid_make((uint32_t) (r / 50), (uint16_t) (r % 50 + 1)),
						 buf, (uint32_t) len, r % 29 == 3 ? GL_ROW_IS_NULL : 0);
	}
	for (int p = 0; p < NPROGS; p++)
	{
		size_t		len = 1;
		int			nchars = 1 + (int) rnd(5);
		const char *error;
		uint64_t	matched = 0;

		buf[0] = '%';
		for (int c = 0; c < nchars; c++)
		{
			/* a '_' only now and then: most patterns skim for two bytes */
			const char *ch = pattern_chars[rnd(sizeof(pattern_chars) / sizeof(pattern_chars[0]) -
											  (rnd(4) == 0 ? 0 : 2))];

			memcpy(buf + len, ch, strlen(ch));
			len += strlen(ch);
		}
		buf[len++] = '%';
		progs[p] = gl_build_like(buf, len, true, p % 3 ? test_case_class : NULL, NULL, &error);
		results[p] = malloc(gl_bitmap_words(NROWS) * sizeof(uint64_t));
		if (progs[p] == NULL || !column_agrees(progs[p], &col, 1 + p % 3, &matched))
		{
			buf[len] = 0;
			tap_diag("'%s' (%s) disagrees", buf, p % 3 ? "ILIKE" : "LIKE");
			disagreeing++;
		}
	}
	tap_ok(disagreeing == 0, "%d random one-segment patterns over a small alphabet: "
		   "%d disagree with matching each value", NPROGS, disagreeing);

	tap_ok(gl_cpu_match_column_batch((const GlProgram *const *) progs, results, NULL, NPROGS,
									 &col, 2, prepared),
		   "a batch of %d programs runs", NPROGS);
	for (int p = 0; p < NPROGS; p++)
	{
		uint64_t   *alone = malloc(gl_bitmap_words(NROWS) * sizeof(uint64_t));

		gl_cpu_match_column(progs[p], &col, alone, 1);
		if (!prepared[p] ||
			memcmp(alone, results[p], gl_bitmap_words(NROWS) * sizeof(uint64_t)) != 0)
			batch_differs++;
		free(alone);
	}
	tap_ok(batch_differs == 0, "in one batch, %d of %d programs differ from their own pass",
		   batch_differs, NPROGS);

	/* a cancelled program is given up; the others still finish */
	{
		uint32_t	cancelled = 1;
		const volatile uint32_t *cancels[2] = {&cancelled, NULL};
		uint64_t   *alone = malloc(gl_bitmap_words(NROWS) * sizeof(uint64_t));

		gl_cpu_match_column(progs[1], &col, alone, 1);
		memset(results[1], 0, gl_bitmap_words(NROWS) * sizeof(uint64_t));
		gl_cpu_match_column_batch((const GlProgram *const *) progs, results, cancels, 2,
								  &col, 2, prepared);
		tap_ok(memcmp(alone, results[1], gl_bitmap_words(NROWS) * sizeof(uint64_t)) == 0,
			   "a batch with its first program cancelled still answers the second");
		free(alone);
	}
	for (int p = 0; p < NPROGS; p++)
	{
		free(progs[p]);
		free(results[p]);
	}
	gl_column_free(&col);
}

/*
 * gl_cpu_match_chunks() over the chunks gl_cpu_chunks_to_match() lists
 * gives those chunks' words of the whole column's result, and the
 * chunks it leaves out hold no match.
 */
static bool
chunks_agree(const GlProgram *prog, const GlColumn *col)
{
	uint64_t	nwords = gl_bitmap_words(col->nrows);
	uint64_t	nchunks = gl_chunk_count(col->nrows);
	uint32_t   *chunks = malloc(nchunks * sizeof(uint32_t));
	uint64_t   *whole = malloc(nwords * sizeof(uint64_t));
	uint64_t   *words = malloc(nchunks * 64 * sizeof(uint64_t));
	int64_t		n = gl_cpu_chunks_to_match(prog, col, nchunks, chunks);
	bool		ok = n >= 0 && gl_cpu_match_column(prog, col, whole, 1) &&
		gl_cpu_match_chunks(prog, col, chunks, (uint32_t) n, words);
	int64_t		k = 0;

	for (uint64_t w = 0; ok && w < nwords; w++)
	{
		bool		listed = k < n && chunks[k] == w / 64;
		uint64_t	got = listed ? words[k * 64 + w % 64] : 0;

		if (got != whole[w])
		{
			tap_diag("word %llu (chunk %llu, %s): %llx, whole column %llx",
					 (unsigned long long) w, (unsigned long long) (w / 64),
					 listed ? "listed" : "left out", (unsigned long long) got,
					 (unsigned long long) whole[w]);
			ok = false;
		}
		if (listed && w % 64 == 63)
			k++;
	}
	/* the last chunk's words past the column are 0 */
	if (ok && n > 0 && chunks[n - 1] == nchunks - 1)
		for (uint64_t w = nwords; w < nchunks * 64; w++)
			ok &= words[(n - 1) * 64 + w % 64] == 0;
	free(chunks);
	free(whole);
	free(words);
	return ok;
}

/*
 * Patterns, LIKE and ILIKE, whose column result differs from matching each
 * value, or from matching only the chunks the pair summary leaves.
 */
static int
patterns_disagreeing(const GlColumn *col, const char *const *patterns, int npatterns)
{
	int			disagreeing = 0;

	for (int p = 0; p < npatterns; p++)
		for (int ilike = 0; ilike < 2; ilike++)
		{
			const char *error;
			GlProgram  *prog = gl_build_like(patterns[p], strlen(patterns[p]), true,
											 ilike ? test_case_class : NULL, NULL, &error);
			uint64_t	matched = 0;

			if (prog == NULL || !column_agrees(prog, col, 1 + p % 3, &matched) ||
				!chunks_agree(prog, col))
			{
				tap_diag("'%s' (%s) disagrees", patterns[p], ilike ? "ILIKE" : "LIKE");
				disagreeing++;
			}
			free(prog);
		}
	return disagreeing;
}

/*
 * Literal sets (LIKE ANY's Aho-Corasick programs), case-sensitive and
 * ASCII-folded, whose column result differs from matching each value or
 * from matching only the chunks the summary leaves them: literals that
 * hold others, share a prefix, end in another, have one byte (no pair:
 * every chunk), or stand in no row.
 */
static int
literal_sets_disagreeing(const GlColumn *col)
{
	static const char *const sets[][4] = {
		{"zq", "qz"}, {"za", "qa", "hz"}, {"zq", "a"}, {"ab", "abc", "bcd", "xabcdy"},
		{"\xc3\xa9" "a", "Zd", "dZ"}, {"zebra", "quux"}, {"aZq", "zqz", "b\xe2\x84\xaa"}
	};
	int			disagreeing = 0;

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		for (int fold = 0; fold < 2; fold++)
		{
			const char *error;
			size_t		lens[4];
			int			n = 0;
			GlProgram  *prog;
			uint64_t	matched = 0;

			while (n < 4 && sets[i][n] != NULL)
			{
				lens[n] = strlen(sets[i][n]);
				n++;
			}
			prog = gl_build_multi(sets[i], lens, n, fold, true, &error);
			if (prog == NULL || !column_agrees(prog, col, 1 + (int) i % 3, &matched) ||
				!chunks_agree(prog, col))
			{
				tap_diag("literal set %zu (%s) disagrees", i, fold ? "folded" : "as is");
				disagreeing++;
			}
			free(prog);
		}
	return disagreeing;
}

/*
 * Which chunks a literal set leaves: chunk k's rows hold "ab", "ba", "Cd"
 * and "dc" for k = 0 .. 3, so {ab, cd} (and abcd, which holds ab) leaves
 * chunks 0 and 2 (the summary folds ASCII, so "Cd" may hold cd whether
 * the set folds or not): the pairs are each literal's own, in order, and
 * a literal's own pairs suffice.
 */
static void
check_literal_set_chunks(void)
{
	static const char *const rows[] = {"xab", "xba", "xCd", "xdc"};
	const char *const lits[] = {"ab", "cd", "abcd"};
	const size_t lens[] = {2, 2, 4};
	const uint64_t nrows = 4 * GL_PAIR_CHUNK_ROWS;
	GlColumn	col;
	const char *error;
	bool		ok = true;

	gl_column_init(&col, nrows, nrows * 4);
	for (uint64_t r = 0; r < nrows; r++)
		gl_column_append(&col, gl_tid_make((uint32_t) (r / 64), (uint16_t) (r % 64 + 1)),
						 rows[r / GL_PAIR_CHUNK_ROWS], 3, 0);
	ok &= gl_column_summarize_pairs(&col, 2);
	for (int fold = 0; fold < 2; fold++)
	{
		GlProgram  *prog = gl_build_multi(lits, lens, 3, fold, true, &error);
		uint32_t	listed[4] = {99, 99, 99, 99};
		int64_t		n = gl_cpu_chunks_to_match(prog, &col, 4, listed);

		ok &= n == 2 && listed[0] == 0 && listed[1] == 2 && chunks_agree(prog, &col);
		if (!ok)
			tap_diag("%s: %lld chunks, first %u", fold ? "folded" : "as is", (long long) n,
					 listed[0]);
		free(prog);
	}
	tap_ok(ok, "{ab, cd, abcd} leaves chunks 0 and 2 of ab, ba, Cd, dc, folded or not");
	gl_column_free(&col);
}

/*
 * The literal sets' skim (cpu_multi.c) leaves a candidate in every
 * occurrence of a literal, over random text of few letters (so that
 * literals occur often) with the skim's 16-byte steps and its scalar tail:
 * sets of 2- and 3-byte prefixes, folded and not, up to the most literals
 * it takes; past those it is refused, as for a literal of one byte.
 * Returns the number of sets that missed an occurrence.
 */
static int
check_multi_skim(void)
{
	static const char letters[] = "abcdAB\xc3";
	int			missed = 0;
	int			refused_right = 0;
	const int	nsets = 60;

	for (int set = 0; set < nsets; set++)
	{
		char		lits[20][6];
		const char *ptrs[20];
		size_t		lens[20];
		int			n = set < 50 ? 1 + set % 16 : 17 + set % 3;
		bool		fold = set % 2;
		bool		one_byte = set % 7 == 3;
		const char *error;
		GlProgram  *prog;
		GlMultiPlan plan;
		GlRequiredPairSets sets;
		GlMultiSkim skim;
		bool		skims;
		char		text[300];
		size_t		tlen = 1 + rnd(sizeof(text) - 1);

		for (int i = 0; i < n; i++)
		{
			lens[i] = one_byte && i == 0 ? 1 : 2 + rnd(4);
			for (size_t k = 0; k < lens[i]; k++)
				lits[i][k] = letters[rnd(sizeof(letters) - 1)];
			/* past 16: three letters, all the literals apart */
			if (n > 16)
			{
				lens[i] = 3;
				lits[i][0] = "abcd"[i % 4];
				lits[i][1] = "abcd"[i / 4 % 4];
				lits[i][2] = "xyz"[i / 16];
			}
			ptrs[i] = lits[i];
		}
		prog = gl_build_multi(ptrs, lens, n, fold, true, &error);
		if (prog == NULL)
			continue;
		gl_cpu_multi_prepare(prog, &plan);
		skims = gl_cpu_multi_prepare_column(&plan, &sets, &skim);
		free(sets.sets);
		if (!skims)
		{
			/* refused: one byte, or more literals than two a bucket (or no SSSE3) */
			refused_right += one_byte || n > 16 || !__builtin_cpu_supports("ssse3");
			free(prog);
			continue;
		}
		refused_right += !one_byte && n <= 16;
		for (size_t i = 0; i < tlen; i++)
			text[i] = letters[rnd(sizeof(letters) - 1)];
		/*
		 * an occurrence [p, end) of a literal ends in one of a literal that
		 * ends in no shorter one, and holds its window of two bytes or
		 * more: the first candidate from p is at most end - 2
		 */
		for (size_t p = 0, next = 0; p < tlen; p++)
		{
			size_t		end = SIZE_MAX;

			for (int i = 0; i < n; i++)
				if (p + lens[i] <= tlen && p + lens[i] < end &&
					(fold ? strncasecmp(text + p, lits[i], lens[i]) == 0
					 : memcmp(text + p, lits[i], lens[i]) == 0))
					end = p + lens[i];
			if (p >= next)
			{
				int64_t		at = gl_cpu_multi_skim_find(&skim, text, p, tlen);

				next = at < 0 ? tlen : (size_t) at;
			}
			if (end != SIZE_MAX && next + 2 > end)
			{
				tap_diag("set %d (%d literals, %s): an occurrence at %zu missed", set, n,
						 fold ? "folded" : "as is", p);
				missed++;
				break;
			}
		}
		free(prog);
	}
	tap_ok(refused_right == nsets, "the skim is refused exactly for one-byte literals and "
		   "more than 16: %d of %d sets", refused_right, nsets);
	return missed;
}

/* The byte pairs every match of an ILIKE pattern holds (npairs -1: no plan). */
static GlRequiredPairs
ilike_required_pairs(const char *pattern)
{
	const char *error;
	GlProgram  *prog = gl_build_like(pattern, strlen(pattern), true, test_case_class, NULL,
									 &error);
	GlRequiredPairs req = {.npairs = -1};
	GlLikePlan	plan;

	if (prog != NULL && gl_cpu_like_prepare(prog, &plan))
	{
		gl_cpu_like_required_pairs(&plan, &req);
		gl_cpu_like_release(&plan);
	}
	free(prog);
	return req;
}

/*
 * The byte-pair summary of a column's chunks (chunk_pairs.h): chunks
 * whose rows draw on different letters, summarized but for rows appended
 * after, so that whole chunks lack a pattern's pairs, one is partly
 * covered and one not at all.  The engine must still give what matching
 * each value does; it must consult the summary (a chunk whose bits are
 * cleared by hand loses its matches); and the pairs a pattern requires
 * are those of its characters that take one class each.
 */
static void
check_pair_summaries(void)
{
	static const char *const extra[] = {"z", "", "q", "\xc3\xa9", "\xe2\x84\xaa", "Z", "zq"};
	static const char *const patterns[] = {
		"%za%", "%zq%", "%qa%b%", "z%", "%a_q%", "%k%", "%\xc3\xa9%", "%ez%", "%q",
		"%hz%", "%_z_%", "%ab%cd%", "%zz%", "%Q%"
	};
	const int	npatterns = (int) (sizeof(patterns) / sizeof(patterns[0]));
	const uint64_t summarized = 6 * GL_PAIR_CHUNK_ROWS + 1000;
	const uint64_t nrows = summarized + 5000;
	GlColumn	col;
	char		buf[64];
	int			disagreeing = 0;
	GlRequiredPairs req;
	const char *error;
	GlProgram  *prog;

	gl_column_init(&col, nrows, nrows * 16);
	for (uint64_t r = 0; r < nrows; r++)
	{
		const char *more = extra[(r / GL_PAIR_CHUNK_ROWS) % 7];
		size_t		len = 0;
		int			nchars = (int) rnd(14);

		if (r == summarized)
			tap_ok(gl_column_summarize_pairs(&col, 3),
				   "the first %llu rows summarized on three threads",
				   (unsigned long long) summarized);
		for (int c = 0; c < nchars; c++)
		{
			/* a chunk's own characters now and then, else ASCII letters of either case */
			if (*more != '\0' && rnd(6) == 0)
			{
				memcpy(buf + len, more, strlen(more));
				len += strlen(more);
			}
			else
				buf[len++] = "abcdhABCD "[rnd(10)];
		}
		gl_column_append(&col, gl_tid_make((uint32_t) (r / 64), (uint16_t) (r % 64 + 1)),
						 buf, (uint32_t) len, r % 31 == 5 ? GL_ROW_IS_NULL : 0);
	}
	disagreeing = patterns_disagreeing(&col, patterns, npatterns);
	tap_ok(disagreeing == 0, "%d patterns over chunks summarized, partly and not: "
		   "%d disagree with matching each value", 2 * npatterns, disagreeing);
	disagreeing = literal_sets_disagreeing(&col);
	tap_ok(disagreeing == 0, "literal sets over the same chunks: %d disagree", disagreeing);

	/*
	 * z then q stand together in chunk 6's rows alone, which is partly
	 * summarized, as chunk 7 is not at all: two chunks to match; a
	 * pattern of one character has no pair, and leaves every chunk
	 */
	{
		GlProgram  *zq = gl_build_like("%zq%", 4, true, NULL, NULL, &error);
		GlProgram  *k = gl_build_like("%k%", 3, true, test_case_class, NULL, &error);

		uint32_t	listed[2] = {99, 99};

		tap_ok(gl_cpu_chunks_to_match(zq, &col, 2, listed) == 2 &&
			   listed[0] == 6 && listed[1] == 7 &&
			   gl_cpu_chunks_to_match(zq, &col, 1, NULL) == -1 &&
			   gl_cpu_chunks_to_match(k, &col, 7, NULL) == -1 &&
			   gl_cpu_chunks_to_match(k, &col, 8, NULL) == 8,
			   "'%%zq%%' leaves chunks 6 and 7 of 8 to match, ILIKE '%%k%%' all");
		free(zq);
		free(k);
	}
	/* the same of literal sets: one holds zq or xy; one adds a byte alone */
	{
		const char *const zq_xy[] = {"zq", "xy", "d"};
		const size_t lens[] = {2, 2, 1};
		GlProgram  *two = gl_build_multi(zq_xy, lens, 2, false, true, &error);
		GlProgram  *three = gl_build_multi(zq_xy, lens, 3, false, true, &error);
		uint32_t	listed[2] = {99, 99};

		tap_ok(gl_cpu_chunks_to_match(two, &col, 2, listed) == 2 &&
			   listed[0] == 6 && listed[1] == 7 &&
			   gl_cpu_chunks_to_match(three, &col, 8, NULL) == 8,
			   "LIKE ANY '{%%zq%%,%%xy%%}' leaves chunks 6 and 7 to match, with '%%d%%' all");
		free(two);
		free(three);
	}

	/* the rest, from within chunk 6, on two threads: every chunk covered */
	disagreeing = -1;
	if (gl_column_summarize_pairs(&col, 2) && col.pairs.summarized_rows == nrows)
		disagreeing = patterns_disagreeing(&col, patterns, npatterns);
	tap_ok(disagreeing == 0, "the rest summarized on two threads: %d patterns disagree",
		   disagreeing);
	tap_ok(literal_sets_disagreeing(&col) == 0, "and no literal set disagrees");

	/* chunk 0 holds 'z': with its bits cleared, its matches of '%za%' go */
	{
		uint64_t	nwords = gl_bitmap_words(nrows);
		uint64_t   *bits = malloc(nwords * sizeof(uint64_t));
		uint64_t	before,
					after;

		prog = gl_build_like("%za%", 4, true, NULL, NULL, &error);
		gl_cpu_match_column(prog, &col, bits, 2);
		before = gl_bitmap_count(bits, GL_PAIR_CHUNK_ROWS / 64);
		memset(col.pairs.bits, 0, GL_PAIR_CHUNK_WORDS * sizeof(uint64_t));
		gl_cpu_match_column(prog, &col, bits, 2);
		after = gl_bitmap_count(bits, GL_PAIR_CHUNK_ROWS / 64);
		tap_ok(before > 0 && after == 0,
			   "the engine reads the summary: chunk 0's %llu matches of '%%za%%' go with its bits",
			   (unsigned long long) before);
		free(bits);
		free(prog);
	}


	/* the pairs of ILIKE '%ze_bra%': z-e, b-r, r-a (not across the '_') */
	req = ilike_required_pairs("%ze_bra%");
	tap_ok(req.npairs == 3 && req.pairs[0] == 'z' * GL_PAIR_CLASSES + 'e' &&
		   req.pairs[1] == 'b' * GL_PAIR_CLASSES + 'r' &&
		   req.pairs[2] == 'r' * GL_PAIR_CLASSES + 'a',
		   "ILIKE '%%ze_bra%%' requires z-e, b-r, r-a: %d pairs", req.npairs);
	/* k takes the Kelvin sign too (three bytes): no pair with it */
	req = ilike_required_pairs("%kay%");
	tap_ok(req.npairs == 1 && req.pairs[0] == 'a' * GL_PAIR_CLASSES + 'y',
		   "ILIKE '%%kay%%' with the Kelvin sign requires a-y alone: %d pairs", req.npairs);
	gl_column_free(&col);
}

/*
 * The summary built on threads, at once and then from within a chunk, is
 * the one added row by row: rows of two printable characters, nearly
 * every row its own pair, so that a row left out would show.
 */
static void
check_threaded_summary(void)
{
	const uint64_t nrows = 3 * GL_PAIR_CHUNK_ROWS + 2500;
	const uint64_t nchunks = gl_chunk_count(nrows);
	GlColumn	col;
	GlChunkPairs one_by_one = {0};
	bool		same;

	gl_column_init(&col, nrows, 2 * nrows);
	for (uint64_t r = 0; r < nrows; r++)
	{
		char		pair[2] = {(char) (33 + r % 94), (char) (33 + r / 94 % 94)};

		if (r == 2 * GL_PAIR_CHUNK_ROWS + 700)
			(void) gl_column_summarize_pairs(&col, 3);
		gl_column_append(&col, gl_tid_make((uint32_t) (r / 64), (uint16_t) (r % 64 + 1)),
						 pair, 2, 0);
	}
	same = gl_column_summarize_pairs(&col, 2) && col.pairs.summarized_rows == nrows &&
		gl_chunk_pairs_reserve(&one_by_one, nchunks);
	for (uint64_t r = 0; same && r < nrows; r++)
	{
		uint32_t	len;
		const char *value = gl_column_value(&col, r, &len);

		gl_chunk_pairs_add(&one_by_one, r, value, len);
	}
	same = same && memcmp(one_by_one.bits, col.pairs.bits,
						  nchunks * GL_PAIR_CHUNK_WORDS * sizeof(uint64_t)) == 0;
	tap_ok(same, "a summary of %llu chunks built on threads, in two steps, is the one "
		   "row by row", (unsigned long long) nchunks);
	gl_chunk_pairs_free(&one_by_one);
	gl_column_free(&col);
}

int
main(void)
{
	static const char *const patterns[] = {
		"%special%requests%", "%Customer%Complaints%", "%é_€%", "%k%",
		"special%", "% ", "", "%", "%_%_%_%", "%requests"
	};
	static const uint64_t sizes[] = {0, 1, 63, 64, 65, 4095, 4097, 30011};
	const char *lits[] = {"special", "Complaints", "é€"};
	size_t		lens[] = {7, 10, 5};
	const char *error;
	size_t		p,
				z;
	int			threads;

	for (z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
	{
		GlColumn	col;

		build_column(&col, sizes[z]);
		for (p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
		{
			GlProgram  *prog = gl_build_like(patterns[p], strlen(patterns[p]), true,
										 p % 2 ? gl_ascii_case_class : NULL, NULL, &error);

			for (threads = 1; threads <= 8; threads *= 2)
			{
				uint64_t	matched = 0;
				bool		agrees = prog && column_agrees(prog, &col, threads, &matched);

				tap_ok(agrees,
					   "%llu rows, '%s' (%s), %d threads: %llu matched",
					   (unsigned long long) sizes[z], patterns[p],
					   p % 2 ? "ASCII ILIKE" : "LIKE", threads,
					   (unsigned long long) matched);
			}
			free(prog);
		}
		{
			GlProgram  *prog = gl_build_multi(lits, lens, 3, z % 2, true, &error);
			uint64_t	matched = 0;
			bool		agrees = prog && column_agrees(prog, &col, 3, &matched);

			tap_ok(agrees,
				   "%llu rows, Aho-Corasick, 3 threads: %llu matched",
				   (unsigned long long) sizes[z], (unsigned long long) matched);
			free(prog);
		}
		for (threads = 1; threads <= 4; threads *= 4)
		{
			GlProgram  *prog = build_si_q(false);
			GlProgram  *bare = build_si_q(true);
			uint64_t	matched = 0,
						bare_matched = 0;
			bool		agrees = prog && bare && column_agrees(prog, &col, threads, &matched) &&
				column_agrees(bare, &col, threads, &bare_matched);

			tap_ok(agrees && matched == bare_matched,
				   "%llu rows, regex 'si.*q' with its prefilter '%%si%%', %d threads: "
				   "%llu matched, %llu without it",
				   (unsigned long long) sizes[z], threads, (unsigned long long) matched,
				   (unsigned long long) bare_matched);
			free(prog);
			free(bare);
		}
		check_kelvin_skims(&col, sizes[z]);
		gl_column_free(&col);
	}
	check_skim_choices();
	check_prefilter_rare();
	check_hits_and_batches();
	check_split_occurrences();
	check_pair_summaries();
	check_literal_set_chunks();
	tap_ok(check_multi_skim() == 0, "the literal sets' skim misses no literal's start");
	check_threaded_summary();
	return tap_done();
}
