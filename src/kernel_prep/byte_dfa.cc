/*-------------------------------------------------------------------------
 *
 * byte_dfa.cc
 *	  Building the byte DFA of a program (byte_dfa.h) on the host.
 *
 * Every program kind already has an exact per-row matcher: a small
 * deterministic machine fed one byte at a time (the same machines as
 * cuda/row_matchers.cuh and the CPU engine).  Its whole state -- segment,
 * Shift-And register, "first character" flag, early-exit flags, and the
 * UTF-8 decoder's partial character -- is a finite value, so the byte DFA
 * is simply the set of states reachable from the row start, found by
 * breadth-first search: each new state gets a number, and its 256
 * transitions are the machine's step on each byte (on 0x00: back to the
 * start, flagged when the machine would accept the row there).  This is
 * the subset construction of a deterministic machine, so it is exact by
 * construction; the search stops, and the caller falls back to the
 * per-row kernels, when more than max_states states appear.  A byte that
 * acts from a state as an earlier byte does (the machine says which:
 * earlier_alike()) takes that byte's transition without a step: a fresh
 * pattern's automaton of 20-odd states is built in 0.02-0.03 ms instead
 * of 0.10-0.13 on the CPU machine.
 *
 * What keeps the state count small:
 *	- once a row's answer is known (matched, or dead) the rest of the
 *	  state is forgotten: one sticky state for each answer;
 *	- a multi-byte character is applied as soon as its leading bytes
 *	  decide how it acts (for LIKE: which exception mask, or none; for a
 *	  regex: which color), and its remaining continuation bytes are then
 *	  no-ops.  Only prefixes of the few code points that the pattern names
 *	  (ILIKE's Kelvin sign, a regex range border) stay partial.  This
 *	  needs valid UTF-8, which is all a text column holds;
 *	- fields that cannot matter any more are cleared ("first character"
 *	  outside an anchored first segment, the decoder when idle).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include <map>
#include <unordered_map>
#include <vector>

#include "kernel_prep/byte_dfa.h"

/* The state of one row's matcher; compared as bytes, so always memset. */
struct SimState
{
	uint64_t	reg;			/* LIKE: Shift-And register */
	uint32_t	at;				/* LIKE: segment; DFA / MULTI: automaton state */
	uint32_t	partial;		/* bits of an undecided multi-byte character */
	uint8_t		pending;		/* its continuation bytes still to come */
	uint8_t		first_char;
	uint8_t		done;
	uint8_t		matched;
	uint32_t	pad;
};
static_assert(sizeof(SimState) % 8 == 0, "SimState is hashed as whole words");

/* States are found again by their bytes (they are always memset). */
struct SimStateBytes
{
	size_t		operator() (const SimState &s) const
	{
		uint64_t	words[sizeof(SimState) / 8];
		uint64_t	h = 0;

		memcpy(words, &s, sizeof(words));
		for (uint64_t w : words)
			h = (h ^ w) * UINT64_C(0x9E3779B97F4A7C15);
		return (size_t) (h ^ (h >> 29));
	}

	bool		operator() (const SimState &a, const SimState &b) const
	{
		return memcmp(&a, &b, sizeof(SimState)) == 0;
	}
};

static SimState
blank_state(void)
{
	SimState	s;

	memset(&s, 0, sizeof(s));
	return s;
}

/* A decided row: only the answer is kept. */
static SimState
settle(SimState s)
{
	if (s.done)
	{
		bool		matched = s.matched;

		s = blank_state();
		s.done = 1;
		s.matched = matched;
	}
	else if (s.pending == 0)
		s.partial = 0;
	return s;
}

/*
 * Text machines (LIKE, regex DFA): characters are decoded from UTF-8 (or
 * are single bytes), and Model says how a character acts:
 *	begin(), accepts(s)
 *	decided(s, lo, hi, &ch): do all code points in [lo, hi] act alike?
 *	apply(s, ch)
 *	forget_unobservable(s, lo, hi): the character is one of [lo, hi] but
 *		not yet decided; drop what none of those code points can observe.
 *
 * The last one keeps partial characters from multiplying the states: a
 * lead byte such as 0xE2 (which may begin the Kelvin sign) arrives in
 * every state of an ILIKE '%...k...%', and without it each of them would
 * get its own copy per pending byte (ILIKE '%tiresias sleep quickly%':
 * 140 states, too many for shared memory; with it, 32).
 */
template <class Model>
struct TextMachine
{
	const Model &m;
	bool		utf8;
	uint8_t		ascii_first[128];	/* the first byte acting as ASCII byte b does */

	/* ASCII bytes act alike when the model tells them apart nowhere. */
	TextMachine(const Model &model, bool is_utf8) : m(model), utf8(is_utf8)
	{
		uint8_t		firsts[128];
		int			nfirsts = 0;

		for (uint32_t b = 1; b < 128; b++)
		{
			ascii_first[b] = (uint8_t) b;
			for (int k = 0; k < nfirsts && ascii_first[b] == b; k++)
				if (m.same_ascii(firsts[k], b))
					ascii_first[b] = firsts[k];
			if (ascii_first[b] == b)
				firsts[nfirsts++] = (uint8_t) b;
		}
	}

	/*
	 * A byte below b whose step from s is step(s, b), or b: every byte of
	 * a decided row, ASCII twins, and continuation bytes while no
	 * character is pending (the tail of one already applied).
	 */
	uint32_t	earlier_alike(const SimState &s, uint32_t b) const
	{
		if (s.done)
			return 1;
		if (b < 0x80)
			return ascii_first[b];
		if (utf8 && b < 0xC0 && s.pending == 0)
			return 0x80;
		return b;
	}

	SimState	begin() const
	{
		return settle(m.begin());
	}

	bool		accepts(const SimState &s) const
	{
		return m.accepts(s);
	}

	void		apply_codepoint(SimState &s, uint32_t cp) const
	{
		typename Model::Char ch = 0;

		m.decided(s, cp, cp, &ch);
		m.apply(s, ch);
	}

	/*
	 * Apply the partial character once its remaining bits cannot matter.
	 * An overlong lead (0xC0, 0xC1) never starts a valid character: it
	 * acts as the code point no pattern names, at once.  Valid UTF-8 is
	 * never overlong, so a character is at least floor, the smallest code
	 * point its length encodes (0xE0 alone is U+0800..U+0FFF, not
	 * U+0000..U+0FFF).
	 */
	void		try_decide(SimState &s, uint32_t floor) const
	{
		uint32_t	free_bits = 6 * s.pending;
		uint64_t	lo = (uint64_t) s.partial << free_bits;
		uint64_t	hi = lo | ((UINT64_C(1) << free_bits) - 1);
		typename Model::Char ch = 0;

		if (hi < 0x80)
		{
			s.pending = 0;
			apply_codepoint(s, 0xFFFFFFFF);
			return;
		}
		if (lo < floor)
			lo = floor;
		if (hi <= UINT32_MAX && m.decided(s, (uint32_t) lo, (uint32_t) hi, &ch))
		{
			s.pending = 0;
			m.apply(s, ch);
		}
		else if (hi <= UINT32_MAX)
			m.forget_unobservable(s, (uint32_t) lo, (uint32_t) hi);
	}

	SimState	step(SimState s, uint32_t b) const
	{
		if (s.done)
			return s;
		if (b < 0x80 || !utf8)
		{
			s.pending = 0;
			apply_codepoint(s, b);
		}
		else if (b >= 0xC0)
		{
			uint32_t	n = (b >= 0xF8) ? 0 : (b >= 0xF0) ? 3 : (b >= 0xE0) ? 2 : 1;

			s.pending = 0;
			if (n == 0)
				apply_codepoint(s, 0xFFFFFFFF);	/* as cuda/row_matchers.cuh */
			else
			{
				static const uint32_t floor_of_length[4] = {0, 0x80, 0x800, 0x10000};

				s.pending = (uint8_t) n;
				s.partial = b & (0x7Fu >> (n + 1));
				try_decide(s, floor_of_length[n]);
			}
		}
		else if (s.pending > 0)
		{
			s.partial = (s.partial << 6) | (b & 0x3F);
			s.pending--;
			try_decide(s, 0);
		}
		/* else: the tail of a character already applied */
		return settle(s);
	}
};

/* ------------------------------------------------------------------ LIKE */

struct LikeModel
{
	typedef uint64_t Char;		/* the character's Shift-And mask */

	const GlProgram *prog;
	const GlLikeSegment *segs;

	const GlCharMasks *masks(uint32_t seg) const
	{
		return (const GlCharMasks *) gl_program_section(prog, segs[seg].masks_off);
	}

	SimState	begin() const
	{
		SimState	s = blank_state();

		/* only an anchored start looks at it: elsewhere it would split states */
		s.first_char = prog->u.like.anchored_start;
		if (prog->u.like.nsegments == 0)
			s.done = s.matched = !prog->u.like.anchored_start;
		return s;
	}

	bool		same_ascii(uint32_t a, uint32_t b) const
	{
		for (uint32_t seg = 0; seg < prog->u.like.nsegments; seg++)
			if (masks(seg)->ascii[a] != masks(seg)->ascii[b])
				return false;
		return true;
	}

	bool		decided(const SimState &s, uint32_t lo, uint32_t hi, Char *mask) const
	{
		const GlCharMasks *cm;
		const GlCodepointMask *exc;
		uint32_t	a = 0,
					b;

		*mask = 0;
		if (prog->u.like.nsegments == 0)
			return true;
		cm = masks(s.at);
		if (hi < 128)
		{
			*mask = cm->ascii[lo];
			return lo == hi;
		}
		exc = (const GlCodepointMask *) gl_program_section(prog, cm->exceptions_off);
		b = cm->nexceptions;
		while (a < b)			/* first exception >= lo */
		{
			uint32_t	mid = (a + b) / 2;

			if (exc[mid].codepoint < lo)
				a = mid + 1;
			else
				b = mid;
		}
		if (a == cm->nexceptions || exc[a].codepoint > hi)
		{
			*mask = cm->any_mask;
			return true;
		}
		*mask = cm->any_mask | exc[a].mask;
		return lo == hi;
	}

	/*
	 * Every character of [lo, hi] acts through any_mask or an exception's
	 * mask, and advance() moves register bit j to j + 1: only bits below a
	 * position some of them accept are ever seen again.  (accepts() reads
	 * the last position's bit of an anchored end: kept too, so even a row
	 * that ends inside a character is judged as before.)
	 */
	void		forget_unobservable(SimState &s, uint32_t lo, uint32_t hi) const
	{
		const GlLikeProgram *like = &prog->u.like;
		const GlCharMasks *cm;
		const GlCodepointMask *exc;
		uint64_t	reach;
		uint64_t	keep;

		if (like->nsegments == 0)
			return;
		cm = masks(s.at);
		exc = (const GlCodepointMask *) gl_program_section(prog, cm->exceptions_off);
		reach = cm->any_mask;
		for (uint32_t e = 0; e < cm->nexceptions && exc[e].codepoint <= hi; e++)
			if (exc[e].codepoint >= lo)
				reach |= exc[e].mask;
		keep = reach >> 1;
		if (like->anchored_end && s.at == like->nsegments - 1)
			keep |= UINT64_C(1) << (segs[s.at].nchars - 1);
		s.reg &= keep;
	}

	/* GlLikeRowMatcher::advance(), on the simulated state. */
	void		apply(SimState &s, Char mask) const
	{
		const GlLikeProgram *like = &prog->u.like;
		bool		anchored_here = s.at == 0 && like->anchored_start;
		uint64_t	inject = (anchored_here && !s.first_char) ? 0 : 1;
		uint64_t	accept;

		s.first_char = 0;
		if (like->nsegments == 0)
		{
			s.done = 1;
			return;
		}
		accept = UINT64_C(1) << (segs[s.at].nchars - 1);
		s.reg = ((s.reg << 1) | inject) & mask;
		if (s.reg & accept)
		{
			if (s.at + 1 < like->nsegments)
			{
				s.at++;
				s.reg = 0;
			}
			else if (!like->anchored_end)
				s.done = s.matched = 1;
		}
		else if (s.reg == 0 && anchored_here)
			s.done = 1;
	}

	bool		accepts(const SimState &s) const
	{
		const GlLikeProgram *like = &prog->u.like;

		if (s.done)
			return s.matched;
		if (like->nsegments == 0)
			return s.first_char;
		return like->anchored_end && s.at == like->nsegments - 1 &&
			(s.reg >> (segs[s.at].nchars - 1)) & 1;
	}
};

/* ------------------------------------------------------------------- DFA */

struct RegexModel
{
	typedef uint32_t Char;		/* the character's color */

	const GlProgram *prog;
	const uint16_t *trans;
	const uint8_t *flags;
	const uint16_t *ascii_color;
	const GlColorRange *ranges;
	/* forget_unobservable(): per [lo, hi], each state's stand-in */
	mutable std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> stand_ins;

	void		enter(SimState &s, uint32_t state) const
	{
		s.at = state;
		if (flags[state] & GL_DFA_ACCEPT)
			s.done = s.matched = 1;
		else if (flags[state] & GL_DFA_DEAD)
			s.done = 1;
	}

	SimState	begin() const
	{
		SimState	s = blank_state();

		enter(s, prog->u.dfa.start_state);
		return s;
	}

	bool		same_ascii(uint32_t a, uint32_t b) const
	{
		return ascii_color[a] == ascii_color[b];
	}

	/* One color for all of [lo, hi]? */
	bool		decided(const SimState &s, uint32_t lo, uint32_t hi, Char *color) const
	{
		std::vector<uint32_t> colors;

		(void) s;
		if (hi < 128)
		{
			*color = ascii_color[lo];
			return lo == hi;
		}
		colors = colors_in(lo, hi);
		for (uint32_t other : colors)
			if (other != colors[0])
				return false;
		*color = colors[0];
		return true;
	}

	void		apply(SimState &s, Char color) const
	{
		enter(s, trans[(size_t) s.at * prog->u.dfa.ncolors + color]);
	}

	/* The colors of the code points in [lo, hi] (gaps between ranges: default_color). */
	std::vector<uint32_t> colors_in(uint32_t lo, uint32_t hi) const
	{
		const GlDfaProgram *dfa = &prog->u.dfa;
		std::vector<uint32_t> colors;
		uint64_t	pos = lo;

		for (uint32_t r = 0; r < dfa->nranges && pos <= hi; r++)
		{
			if (ranges[r].hi < pos)
				continue;
			if (ranges[r].lo > hi)
				break;
			if (ranges[r].lo > pos)
				colors.push_back(dfa->default_color);
			colors.push_back(ranges[r].color);
			pos = (uint64_t) ranges[r].hi + 1;
		}
		if (pos <= hi)
			colors.push_back(dfa->default_color);
		return colors;
	}

	/*
	 * An undecided character of [lo, hi] sees of its state only where each
	 * of its colors leads, and the state's own flags (accepts() reads them):
	 * states alike in those stand in for each other, the lowest-numbered
	 * for all.
	 */
	void		forget_unobservable(SimState &s, uint32_t lo, uint32_t hi) const
	{
		const GlDfaProgram *dfa = &prog->u.dfa;
		auto		key = std::make_pair(lo, hi);
		auto		found = stand_ins.find(key);

		if (found == stand_ins.end())
		{
			std::vector<uint32_t> colors = colors_in(lo, hi);
			std::map<std::vector<uint32_t>, uint32_t> first_alike;
			std::vector<uint32_t> stand_in(dfa->nstates);

			for (uint32_t st = 0; st < dfa->nstates; st++)
			{
				std::vector<uint32_t> seen(1, flags[st]);

				for (uint32_t color : colors)
					seen.push_back(trans[(size_t) st * dfa->ncolors + color]);
				stand_in[st] = first_alike.emplace(seen, st).first->second;
			}
			found = stand_ins.emplace(key, std::move(stand_in)).first;
		}
		s.at = found->second[s.at];
	}

	bool		accepts(const SimState &s) const
	{
		if (s.done)
			return s.matched;
		return (flags[s.at] & (GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END)) != 0;
	}
};

/* Sorted, disjoint ranges: what both row matchers' binary searches assume. */
static bool
ranges_sorted(const RegexModel &m)
{
	for (uint32_t r = 0; r < m.prog->u.dfa.nranges; r++)
		if (m.ranges[r].lo > m.ranges[r].hi ||
			(r > 0 && m.ranges[r].lo <= m.ranges[r - 1].hi))
			return false;
	return true;
}

/* ----------------------------------------------------------------- MULTI */

/* Aho–Corasick is a byte automaton already: only the answer is sticky. */
struct MultiMachine
{
	GlMultiTables m;
	uint8_t		class_first[256];	/* the first byte of byte b's class */

	MultiMachine(const GlProgram *p) : m(gl_multi_tables(p))
	{
		int			first_of[256];

		for (int c = 0; c < 256; c++)
			first_of[c] = -1;
		for (uint32_t b = 1; b < 256; b++)
		{
			if (first_of[m.byte_class[b]] < 0)
				first_of[m.byte_class[b]] = (int) b;
			class_first[b] = (uint8_t) first_of[m.byte_class[b]];
		}
	}

	/* A byte below b whose step from s is step(s, b), or b. */
	uint32_t	earlier_alike(const SimState &s, uint32_t b) const
	{
		return s.done ? 1 : class_first[b];
	}

	SimState	begin() const
	{
		SimState	s = blank_state();

		s.done = s.matched = m.accept[0] != 0;
		return settle(s);
	}

	SimState	step(SimState s, uint32_t b) const
	{
		if (s.done)
			return s;
		s.at = m.next[(size_t) s.at * m.nclasses + m.byte_class[b]];
		s.done = s.matched = m.accept[s.at] != 0;
		return settle(s);
	}

	bool		accepts(const SimState &s) const
	{
		return s.matched;
	}
};

/*
 * Aho–Corasick over some literals and the rare factors of others
 * (literal_factors.cc): a state whose string ends in one of the literals
 * decides its row (matched), one that ends in a factor only makes its row
 * a candidate, decided later by the per-row kernel: done, not matched, the
 * one state every candidate's row shares until its separator (the
 * compact table then keeps it to the end of the 16 bytes: byte_dfa.h).
 */
struct FactoredMachine : MultiMachine
{
	const uint8_t *end_kind;	/* per Aho–Corasick state: GlFactoredEnd */

	FactoredMachine(const GlProgram *p, const uint8_t *kind) : MultiMachine(p), end_kind(kind)
	{
	}

	SimState	decide(SimState s) const
	{
		s.done = end_kind[s.at] != GL_FACTORED_NO_END;
		s.matched = end_kind[s.at] == GL_FACTORED_LITERAL_END;
		return settle(s);
	}

	SimState	begin() const
	{
		return decide(blank_state());
	}

	SimState	step(SimState s, uint32_t b) const
	{
		if (s.done)
			return s;
		s.at = m.next[(size_t) s.at * m.nclasses + m.byte_class[b]];
		return decide(s);
	}
};

/* ------------------------------------------------------- the construction */

template <class Machine>
static bool
explore(const Machine &machine, uint32_t max_states, GlByteDfa *out)
{
	std::vector<SimState> states;
	std::unordered_map<SimState, uint32_t, SimStateBytes, SimStateBytes> ids;
	std::vector<uint32_t> table;

	if (max_states < 2)
		return false;
	states.push_back(blank_state());	/* GL_BYTE_DFA_SKIP: never looked up */
	states.push_back(machine.begin());
	ids[states[GL_BYTE_DFA_START]] = GL_BYTE_DFA_START;
	table.assign(2 * 256, gl_byte_dfa_state(GL_BYTE_DFA_SKIP));
	table[gl_byte_dfa_slot(gl_byte_dfa_state(GL_BYTE_DFA_SKIP), 0)] =
		gl_byte_dfa_state(GL_BYTE_DFA_START);
	for (uint32_t i = GL_BYTE_DFA_START; i < states.size(); i++)
	{
		uint32_t	value = gl_byte_dfa_state(i);
		SimState	previous = blank_state();
		uint32_t	previous_id = UINT32_MAX;

		table[gl_byte_dfa_slot(value, 0)] = gl_byte_dfa_state(GL_BYTE_DFA_START) |
			(machine.accepts(states[i]) ? GL_BYTE_DFA_FLAG : 0);
		for (uint32_t b = 1; b < 256; b++)
		{
			uint32_t	alike = machine.earlier_alike(states[i], b);
			SimState	t;
			uint32_t	id;

			/* a byte acting as an earlier one does is not stepped again */
			if (alike != b)
			{
				table[gl_byte_dfa_slot(value, b)] = table[gl_byte_dfa_slot(value, alike)];
				continue;
			}
			t = machine.step(states[i], b);

			/*
			 * Runs of bytes lead to one state (the letters a pattern does
			 * not name, continuation bytes): compared with the previous
			 * byte's state first, the hash table is asked half as often.
			 */
			if (previous_id != UINT32_MAX && memcmp(&t, &previous, sizeof(t)) == 0)
				id = previous_id;
			else
			{
				auto		found = ids.find(t);

				if (found != ids.end())
					id = found->second;
				else
				{
					if (states.size() >= max_states)
						return false;
					id = (uint32_t) states.size();
					ids[t] = id;
					states.push_back(t);
					table.resize(states.size() * 256, 0);
				}
				previous = t;
				previous_id = id;
			}
			table[gl_byte_dfa_slot(value, b)] = gl_byte_dfa_state(id);
		}
	}
	out->table = (uint32_t *) malloc(table.size() * sizeof(uint32_t));
	if (out->table == NULL)
		return false;
	memcpy(out->table, table.data(), table.size() * sizeof(uint32_t));
	out->nstates = (uint32_t) states.size();
	return true;
}

static bool
build_byte_dfa(const GlProgram *prog, uint32_t max_states, GlByteDfa *out)
{
	/* Entries hold number * 1024 below bit 31. */
	if (max_states > GL_BYTE_DFA_MAX_STATES)
		max_states = GL_BYTE_DFA_MAX_STATES;
	switch (prog->kind)
	{
		case GL_PROG_LIKE:
			{
				LikeModel	m = {prog, (const GlLikeSegment *)
				gl_program_section(prog, prog->u.like.segments_off)};
				TextMachine<LikeModel> machine(m, prog->utf8 != 0);

				return explore(machine, max_states, out);
			}
		case GL_PROG_DFA:
			{
				const GlDfaProgram *dfa = &prog->u.dfa;
				RegexModel	m = {prog,
					(const uint16_t *) gl_program_section(prog, dfa->trans_off),
					(const uint8_t *) gl_program_section(prog, dfa->flags_off),
					(const uint16_t *) gl_program_section(prog, dfa->ascii_color_off),
				(const GlColorRange *) gl_program_section(prog, dfa->ranges_off)};
				TextMachine<RegexModel> machine(m, prog->utf8 != 0);

				if (!ranges_sorted(m))
					return false;
				return explore(machine, max_states, out);
			}
		case GL_PROG_MULTI:
			{
				MultiMachine machine(prog);

				return explore(machine, max_states, out);
			}
	}
	return false;
}

/*
 * Row numbers of the compact table, in the order states get them
 * (byte_dfa.h): START, SKIP, rows 16..31 (the ones of distinct bank
 * offsets first), rows 1..15, then the rest in order.
 */
static uint32_t
compact_row(uint32_t id)
{
	static const uint8_t first_rows[32] = {
		0, 16, 18, 20, 22, 24, 26, 28, 30, 17, 19, 21, 23, 25, 27, 29, 31,
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	};
	uint32_t	rank = id == GL_BYTE_DFA_START ? 0 : id == GL_BYTE_DFA_SKIP ? 1 : id;

	return rank < 32 ? first_rows[rank] : rank;
}

/* The compact value of byte DFA state number id. */
static uint32_t
compact_value(uint32_t id)
{
	return 2 * compact_row(id);
}

/*
 * The compact table of dfa (byte_dfa.h), malloc'd; NULL when dfa has too
 * many states for one, or on out-of-memory.
 */
static uint8_t *
compact_table(const GlByteDfa *dfa)
{
	uint8_t    *out;

	static_assert(GL_BYTE_DFA_SKIP == 0 && GL_BYTE_DFA_START == 1, "compact_row() swaps them");
	if (dfa->nstates == 0 || dfa->nstates > GL_BYTE_DFA_COMPACT_STATES ||
		(out = (uint8_t *) calloc(gl_byte_dfa_compact_bytes(dfa->nstates), 1)) == NULL)
		return NULL;
	for (uint32_t i = 0; i < dfa->nstates; i++)
		for (uint32_t b = 0; b < 256; b++)
		{
			uint32_t	entry = dfa->table[gl_byte_dfa_slot(gl_byte_dfa_state(i), b)];
			uint32_t	next = (entry & GL_BYTE_DFA_STATE_BITS) >> 10;
			uint32_t	value = compact_value(next);

			/* a flag leads to START (explore()) */
			if (entry & GL_BYTE_DFA_FLAG)
			{
				if (next != GL_BYTE_DFA_START)
				{
					free(out);
					return NULL;
				}
				value |= 1;
			}
			out[gl_byte_dfa_compact_slot(compact_value(i), b)] = (uint8_t) value;
			/* the flagged twin: the same transitions, flagged */
			out[gl_byte_dfa_compact_slot(compact_value(i) | 1, b)] = (uint8_t) (value | 1);
		}
	return out;
}

uint16_t *
gl_byte_dfa_wide_table(const GlByteDfa *dfa)
{
	uint16_t   *out;

	if (dfa->nstates == 0 || dfa->nstates > GL_BYTE_DFA_WIDE_STATES ||
		(out = (uint16_t *) malloc(gl_byte_dfa_wide_bytes(dfa->nstates))) == NULL)
		return NULL;
	for (uint32_t i = 0; i < dfa->nstates; i++)
		for (uint32_t b = 0; b < 256; b++)
		{
			uint32_t	entry = dfa->table[gl_byte_dfa_slot(gl_byte_dfa_state(i), b)];
			uint32_t	next = (entry & GL_BYTE_DFA_STATE_BITS) >> 10;

			out[gl_byte_dfa_wide_slot(gl_byte_dfa_wide_value(i), b)] =
				(uint16_t) (gl_byte_dfa_wide_value(next) | ((entry & GL_BYTE_DFA_FLAG) ? 1 : 0));
		}
	return out;
}

/*
 * The candidate state of a factored automaton's compact table (byte_dfa.h):
 * entered flagged, and then held on every byte, 0x00 too, until the
 * stream kernel takes the flag off; without it, it skips to the next
 * separator as explore() made it.  It is the one state other than SKIP
 * that every non-zero byte keeps and the separator leads to START
 * unflagged (the other states of an Aho–Corasick automaton never stop).
 */
static bool
mark_candidate(const GlByteDfa *dfa)
{
	uint32_t	candidate = UINT32_MAX;
	uint32_t	value;

	for (uint32_t i = GL_BYTE_DFA_START + 1; i < dfa->nstates && candidate == UINT32_MAX; i++)
	{
		uint32_t	self = gl_byte_dfa_state(i);
		bool		stays = dfa->table[gl_byte_dfa_slot(self, 0)] ==
			gl_byte_dfa_state(GL_BYTE_DFA_START);

		for (uint32_t b = 1; b < 256 && stays; b++)
			stays = dfa->table[gl_byte_dfa_slot(self, b)] == self;
		if (stays)
			candidate = i;
	}
	if (candidate == UINT32_MAX)
		return false;
	value = compact_value(candidate);
	for (uint32_t i = 0; i < dfa->nstates; i++)
		for (uint32_t b = 0; b < 256; b++)
		{
			uint8_t    *e = &dfa->compact[gl_byte_dfa_compact_slot(compact_value(i), b)];

			if (i != candidate && *e == value)
				*e = (uint8_t) (value | 1);
		}
	for (uint32_t b = 0; b < 256; b++)
		dfa->compact[gl_byte_dfa_compact_slot(value | 1, b)] = (uint8_t) (value | 1);
	return true;
}

bool
gl_build_factored_byte_dfa(const GlProgram *prog, const uint8_t *end_kind, uint32_t max_states,
						   GlByteDfa *out)
{
	out->nstates = 0;
	out->table = NULL;
	out->compact = NULL;
	try
	{
		FactoredMachine machine(prog, end_kind);

		if (max_states > GL_BYTE_DFA_COMPACT_STATES)
			max_states = GL_BYTE_DFA_COMPACT_STATES;
		if (!explore(machine, max_states, out))
		{
			gl_byte_dfa_free(out);
			return false;
		}
	}
	catch (...)
	{
		gl_byte_dfa_free(out);
		return false;
	}
	out->compact = compact_table(out);
	if (out->compact == NULL || !mark_candidate(out))
	{
		gl_byte_dfa_free(out);
		return false;
	}
	return true;
}

uint32_t
gl_compact_candidate(const uint8_t *table, uint32_t rows)
{
	for (uint32_t r = 0; r < rows; r++)
	{
		uint32_t	value = 2 * r + 1;
		bool		held = true;

		for (uint32_t b = 0; b < 256 && held; b++)
			held = table[gl_byte_dfa_compact_slot(value, b)] == value;
		if (held)
			return value;
	}
	return GL_COMPACT_NO_CANDIDATE;
}

bool
gl_build_byte_dfa(const GlProgram *prog, uint32_t max_states, GlByteDfa *out)
{
	out->nstates = 0;
	out->table = NULL;
	out->compact = NULL;
	/* The server's threads must never see a C++ exception (out of memory). */
	try
	{
		if (!build_byte_dfa(prog, max_states, out))
			return false;
	}
	catch (...)
	{
		return false;
	}
	out->compact = compact_table(out);
	return true;
}

void
gl_byte_dfa_free(GlByteDfa *dfa)
{
	free(dfa->table);
	free(dfa->compact);
	dfa->table = NULL;
	dfa->compact = NULL;
	dfa->nstates = 0;
}
