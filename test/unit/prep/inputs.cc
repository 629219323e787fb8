/*-------------------------------------------------------------------------
 *
 * inputs.cc
 *	  The columns and programs prep_test and kernel_test (test/kernels)
 *	  draw their cases from: random text, adversarial runs, LIKE patterns,
 *	  literal lists and DFAs.
 *
 *-------------------------------------------------------------------------
 */
#include "prep_test.h"

/* Characters the random text is made of; patterns use the same ones. */
static const char *const ascii_chars[] = {"a", "a", "b", "c", " ", "k", "s", "A", "K", "i"};
static const char *const utf8_chars[] = {
	"a", "b", "k", "s", " ", "i", "\xC3\xA9" /* é */ , "\xC3\x89" /* É */ ,
	"\xE2\x82\xAC" /* € */ , "\xF0\x9D\x84\x9E" /* 𝄞 */ ,
	"\xE2\x84\xAA" /* Kelvin */ , "\xC5\xBF" /* long s */ ,
	"\xC4\xB0" /* I with dot */ , "\xE0\xA4\x85" /* U+0905, a lead byte 0xE0 */
};

std::string
random_text(uint32_t nchars, bool utf8)
{
	std::string s;

	for (uint32_t i = 0; i < nchars; i++)
		s += utf8 ? utf8_chars[rnd(sizeof(utf8_chars) / sizeof(utf8_chars[0]))]
			: ascii_chars[rnd(sizeof(ascii_chars) / sizeof(ascii_chars[0]))];
	return s;
}

void
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

void
build_random(GlColumn *col, uint32_t nrows, bool utf8)
{
	gl_column_init(col, nrows, nrows * 40);
	for (uint32_t r = 0; r < nrows; r++)
		append_row(col, random_text(rnd(10) == 0 ? rnd(400) : rnd(60), utf8), rnd(20) == 0);
}

void
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
int
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

std::string
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
GlProgram *
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
std::vector<std::string>
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
 * window) and UTF-8 (the classed form).
 */
std::vector<std::string>
classed_size_literals(int kind)
{
	/* fewer and shorter in UTF-8, whose characters take more states and classes */
	std::vector<std::string> lits(kind == 2 ? 55 + rnd(20) : 80 + rnd(80));

	for (std::string &lit : lits)
		lit = kind == 2 ? random_text(4 + rnd(3), true) : random_text(5 + rnd(5), false);
	keep_to_kind(lits, (uint32_t) kind);
	return lits;
}

GlProgram *
random_multi(int *nliterals_out, bool *fold_out, size_t *longest_out)
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
GlProgram *
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
	uint32_t	start_state;
	GlDfaSpec	spec;

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
	start_state = rnd(nstates);
	spec = test_dfa_spec(nstates, ncolors, start_state, trans.data(), flags.data(), ascii_color,
						 rnd(ncolors), utf8);
	spec.ranges = ranges.data();
	spec.nranges = nranges;
	return gl_build_dfa(&spec);
}

/*
 * A regex's automaton with its prefilter (program.h): "contains w (ASCII),
 * then a random automaton decides from there" -- the Knuth-Morris-Pratt
 * states of w over colors of its own bytes (0: any other character), then
 * random states with random flags -- and the prefilter '%w%', which every
 * value it matches contains.
 */
GlProgram *
prefiltered_dfa(const std::string &w, bool utf8)
{
	uint32_t	m = (uint32_t) w.size();
	uint32_t	ntail = 1 + rnd(6);
	std::string distinct;
	std::vector<uint32_t> fail(m, 0);
	uint16_t	ascii_color[128] = {0};
	std::string like = "%" + w + "%";
	const char *error;
	GlDfaSpec	spec;
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
	spec = test_dfa_spec(m + ntail, ncolors, 0, trans.data(), flags.data(), ascii_color, 0, utf8);
	spec.prefilter = gl_build_like(like.data(), like.size(), utf8, NULL, NULL, &error);
	prog = spec.prefilter != NULL ? gl_build_dfa(&spec) : NULL;
	free((void *) spec.prefilter);
	return prog;
}
