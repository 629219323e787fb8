/*-------------------------------------------------------------------------
 *
 * byte_dfa_recent.cc
 *	  The byte DFAs of recent programs, so that a repeated query does not
 *	  build its automaton again.
 *
 * Building a byte DFA (byte_dfa.cc) costs 0.02-0.05 ms for a pattern of a
 * few dozen states, and much more when it runs into the state cap and
 * fails, where a selective query takes 0.4 ms end to end.  Applications
 * repeat their queries with the same patterns, so the server keeps the
 * last few automata, keyed by the program's bytes and the cap (a program
 * is self-contained: equal bytes, equal automaton).  Failures are kept
 * too: "over the cap" is as costly to find again.
 *
 * Each caller gets its own malloc'd copy of the tables, wide and compact
 * (a few kB to a few hundred kB, copied in microseconds), so no entry is ever shared with a
 * match in progress, and the list may drop entries at any time.  The
 * server's threads share the list under one mutex; the build itself runs
 * outside it.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include <list>
#include <mutex>
#include <string>
#include <vector>

#include "kernel_prep/byte_dfa.h"

/* Automata kept: a handful of an application's patterns. */
static const size_t RECENT_ENTRIES = 16;

typedef struct RecentDfa
{
	std::string program;		/* the program's bytes */
	uint32_t	max_states;
	uint32_t	nstates;		/* 0: over the cap */
	std::vector<uint32_t> table;
	std::vector<uint8_t> compact;	/* empty: none */
} RecentDfa;

static std::mutex recent_lock;
static std::list<RecentDfa> recent;	/* most recently used first */

/* A malloc'd copy of a kept entry into out; false on out-of-memory. */
static bool
copy_out(const RecentDfa &entry, GlByteDfa *out)
{
	if (entry.nstates == 0)
		return true;
	out->table = (uint32_t *) malloc(entry.table.size() * sizeof(uint32_t));
	if (out->table == NULL)
		return false;
	memcpy(out->table, entry.table.data(), entry.table.size() * sizeof(uint32_t));
	out->nstates = entry.nstates;
	/* without memory for the compact copy, the wide table alone still serves */
	if (!entry.compact.empty() &&
		(out->compact = (uint8_t *) malloc(entry.compact.size())) != NULL)
		memcpy(out->compact, entry.compact.data(), entry.compact.size());
	return true;
}

static bool
find_recent(const std::string &program, uint32_t max_states, GlByteDfa *out, bool *found)
{
	std::lock_guard<std::mutex> hold(recent_lock);

	*found = false;
	for (auto it = recent.begin(); it != recent.end(); ++it)
		if (it->max_states == max_states && it->program == program)
		{
			recent.splice(recent.begin(), recent, it);
			*found = true;
			return copy_out(recent.front(), out);
		}
	return true;
}

static void
remember(std::string &&program, uint32_t max_states, const GlByteDfa *built)
{
	RecentDfa	entry;

	entry.program = std::move(program);
	entry.max_states = max_states;
	entry.nstates = built->nstates;
	if (built->nstates > 0)
		entry.table.assign(built->table, built->table + (size_t) built->nstates * 256);
	if (built->compact != NULL)
		entry.compact.assign(built->compact,
							 built->compact + gl_byte_dfa_compact_bytes(built->nstates));

	std::lock_guard<std::mutex> hold(recent_lock);

	recent.push_front(std::move(entry));
	if (recent.size() > RECENT_ENTRIES)
		recent.pop_back();
}

bool
gl_byte_dfa_for(const GlProgram *prog, uint32_t max_states, GlByteDfa *out)
{
	out->nstates = 0;
	out->table = NULL;
	out->compact = NULL;
	/* The server's threads must never see a C++ exception (out of memory). */
	try
	{
		std::string program((const char *) prog, prog->total_size);
		bool		found;
		bool		built;

		if (!find_recent(program, max_states, out, &found))
			return false;
		if (found)
			return out->nstates > 0;
		built = gl_build_byte_dfa(prog, max_states, out);
		remember(std::move(program), max_states, out);
		return built;
	}
	catch (...)
	{
		/* keeping it failed: the automaton itself, if built, is still good */
		return out->nstates > 0;
	}
}
