/*-------------------------------------------------------------------------
 *
 * regex_dfa.c
 *	  From a regex's search NFA to a small DFA over input columns.
 *
 * Subset construction.  A DFA state is a set of NFA states, kept as a
 * bitset.  The start state is what the NFA's initial state reaches on the
 * begin pseudocolor.  From a state, one pass over the arcs of its members
 * computes the successor set of every column at once: an arc of a plain
 * color adds its target to that color's column, a RAINBOW arc ("any
 * character") to all of them, and an arc of the end pseudocolor that
 * reaches the final state marks the state ACCEPT_AT_END (the string may end
 * here).  Sets are interned in a hash table so each is expanded once.
 *
 * As soon as a set contains the NFA's final state the string has matched,
 * whatever follows; all such sets become one absorbing ACCEPT state, which
 * is what lets engines stop at the first match (and a state that has just
 * completed a match, accepting at the end and on every next character, is
 * made ACCEPT too).  The empty set is the absorbing DEAD state.  A later
 * pass also marks DEAD every state from which no accepting state is
 * reachable (an anchored regex that has failed to match its prefix), so
 * engines can stop early on those too.
 *
 * The search NFA of an unanchored regex loops on its initial state, so the
 * number of subsets can grow exponentially: "a[ab]{10}" meets 2^10 subsets
 * (one bit per 'a' still counting) that minimize to 12 states, and
 * "a[ab]{20}$" really needs 2^21.  A cap on subsets (and on table and set
 * memory) turns that into a refusal, and PostgreSQL evaluates the regex.
 *
 * Shrinking.  The subset DFA is rarely minimal, and engines keep its table
 * in cache or GPU shared memory, so two cheap reductions follow: Moore's
 * partition refinement merges states no input can tell apart, and columns
 * that every state treats alike are merged.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"

#include "pattern/regex_dfa.h"
#include "program/program.h"

/* At most this many transition cells (2 bytes each) while constructing. */
#define GL_DFA_MAX_CELLS	(4 * 1024 * 1024)
/* At most this many bytes of interned NFA-state sets. */
#define GL_DFA_MAX_SUBSET_BYTES (64 * 1024 * 1024)

/* Interned NFA-state sets; index = DFA state number. */
typedef struct SubsetTable
{
	int			nwords;			/* uint64 words per set */
	int			nsets;
	int			max_sets;		/* the state cap */
	int			allocated;		/* sets room in words */
	uint64	   *words;			/* [allocated * nwords] */
	int		   *slots;			/* open addressing, -1 = empty */
	uint32		slot_mask;
} SubsetTable;

static void
subset_table_init(SubsetTable *t, int nwords, int max_sets)
{
	uint32		nslots = 16;

	while (nslots < (uint32) max_sets * 2)
		nslots *= 2;
	t->nwords = nwords;
	t->nsets = 0;
	t->max_sets = max_sets;
	t->allocated = 64;
	t->words = palloc((Size) t->allocated * nwords * sizeof(uint64));
	t->slots = palloc(nslots * sizeof(int));
	memset(t->slots, -1, nslots * sizeof(int));
	t->slot_mask = nslots - 1;
}

/*
 * The index of this set, interning it if new; -1 when the cap is reached.
 * Interning may move t->words.
 */
static int
subset_intern(SubsetTable *t, const uint64 *set)
{
	Size		bytes = t->nwords * sizeof(uint64);
	uint32		slot = hash_bytes((const unsigned char *) set, bytes) & t->slot_mask;

	for (;;)
	{
		int			idx = t->slots[slot];

		if (idx < 0)
			break;
		if (memcmp(t->words + (Size) idx * t->nwords, set, bytes) == 0)
			return idx;
		slot = (slot + 1) & t->slot_mask;
	}
	if (t->nsets == t->max_sets ||
		(Size) (t->nsets + 1) * bytes > GL_DFA_MAX_SUBSET_BYTES)
		return -1;
	if (t->nsets == t->allocated)
	{
		t->allocated *= 2;
		t->words = repalloc(t->words, (Size) t->allocated * bytes);
	}
	memcpy(t->words + (Size) t->nsets * t->nwords, set, bytes);
	t->slots[slot] = t->nsets;
	return t->nsets++;
}

static inline bool
bit_is_set(const uint64 *set, int i)
{
	return (set[i >> 6] >> (i & 63)) & 1;
}

static inline void
set_bit(uint64 *set, int i)
{
	set[i >> 6] |= UINT64CONST(1) << (i & 63);
}

/* A set containing the final state has matched: collapse it to {final}. */
static void
canonicalize(uint64 *set, int nwords, int final)
{
	if (bit_is_set(set, final))
	{
		memset(set, 0, nwords * sizeof(uint64));
		set_bit(set, final);
	}
}

static bool
set_is_empty(const uint64 *set, int nwords)
{
	int			i;

	for (i = 0; i < nwords; i++)
		if (set[i] != 0)
			return false;
	return true;
}

/* Make room for state s in the output table. */
static void
reserve_states(GlRegexDfa *dfa, int *capacity, int s)
{
	if (s < *capacity)
		return;
	while (*capacity <= s)
		*capacity *= 2;
	dfa->trans = repalloc(dfa->trans, (Size) *capacity * dfa->ncolumns * sizeof(uint16));
	dfa->flags = repalloc(dfa->flags, *capacity);
}

/*
 * Successor sets of one (non-empty, non-final) set for every column, into
 * next[ncolumns * nwords]; returns whether the end pseudocolor reaches the
 * final state.
 */
static bool
step_all_columns(const GlRegexNfa *nfa, const int *column_of_color,
				 int ncolumns, int nwords, const uint64 *set,
				 uint64 *next, uint64 *rainbow)
{
	bool		accepts_at_end = false;
	int			c;
	int			w;

	memset(next, 0, (Size) ncolumns * nwords * sizeof(uint64));
	memset(rainbow, 0, nwords * sizeof(uint64));
	for (w = 0; w < nwords; w++)
	{
		uint64		members = set[w];

		while (members != 0)
		{
			int			s = w * 64 + pg_rightmost_one_pos64(members);
			int			a;

			members &= members - 1;
			for (a = nfa->arc_start[s]; a < nfa->arc_start[s + 1]; a++)
			{
				int			co = nfa->arc_color[a];
				int			to = nfa->arc_to[a];

				if (co == GL_REGEX_RAINBOW)
					set_bit(rainbow, to);
				else if (co == nfa->eos_color)
					accepts_at_end |= (to == nfa->final);
				else if (co >= 0 && co < nfa->ncolors && column_of_color[co] >= 0)
					set_bit(next + (Size) column_of_color[co] * nwords, to);
			}
		}
	}
	for (c = 0; c < ncolumns; c++)
		for (w = 0; w < nwords; w++)
			next[(Size) c * nwords + w] |= rainbow[w];
	return accepts_at_end;
}

/*
 * PostgreSQL's NFA reaches its final state only on the character (or end
 * pseudocolor) after a match, so a state that has just completed a match is
 * ACCEPT_AT_END with every column leading to ACCEPT.  Such a state already
 * decides the row: make it ACCEPT, repeatedly, so engines stop a character
 * earlier and minimization folds it into the accepting state.
 */
static void
promote_decided_states(GlRegexDfa *dfa)
{
	int			k = dfa->ncolumns;
	bool		changed = true;

	while (changed)
	{
		int			s;

		changed = false;
		for (s = 0; s < dfa->nstates; s++)
		{
			uint16	   *row = dfa->trans + (Size) s * k;
			int			c;

			if ((dfa->flags[s] & GL_DFA_ACCEPT) || !(dfa->flags[s] & GL_DFA_ACCEPT_AT_END))
				continue;
			for (c = 0; c < k; c++)
				if (!(dfa->flags[row[c]] & GL_DFA_ACCEPT))
					break;
			if (c < k)
				continue;
			dfa->flags[s] = GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END;
			for (c = 0; c < k; c++)
				row[c] = (uint16) s;
			changed = true;
		}
	}
}

/* Mark DEAD every state that cannot reach an accepting one. */
static void
mark_dead_states(GlRegexDfa *dfa)
{
	int			n = dfa->nstates;
	int			k = dfa->ncolumns;
	int		   *pred_start = palloc0((n + 1) * sizeof(int));
	int		   *preds = palloc(Max((Size) n * k, 1) * sizeof(int));
	int		   *fill = palloc(n * sizeof(int));
	bool	   *live = palloc0(n * sizeof(bool));
	int		   *queue = palloc(n * sizeof(int));
	int			head = 0,
				tail = 0;
	int			s,
				c;

	/* predecessor lists, CSR */
	for (s = 0; s < n; s++)
		for (c = 0; c < k; c++)
			pred_start[dfa->trans[(Size) s * k + c] + 1]++;
	for (s = 0; s < n; s++)
		pred_start[s + 1] += pred_start[s];
	memcpy(fill, pred_start, n * sizeof(int));
	for (s = 0; s < n; s++)
		for (c = 0; c < k; c++)
			preds[fill[dfa->trans[(Size) s * k + c]]++] = s;

	for (s = 0; s < n; s++)
		if (dfa->flags[s] & (GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END))
		{
			live[s] = true;
			queue[tail++] = s;
		}
	while (head < tail)
	{
		int			t = queue[head++];
		int			p;

		for (p = pred_start[t]; p < pred_start[t + 1]; p++)
			if (!live[preds[p]])
			{
				live[preds[p]] = true;
				queue[tail++] = preds[p];
			}
	}
	for (s = 0; s < n; s++)
		if (!live[s])
			dfa->flags[s] = GL_DFA_DEAD;

	pfree(pred_start);
	pfree(preds);
	pfree(fill);
	pfree(live);
	pfree(queue);
}

const char *
gl_regex_determinize(const GlRegexNfa *nfa, const int *column_of_color,
					 int ncolumns, int max_states, GlRegexDfa *dfa)
{
	int			nwords = (nfa->nstates + 63) / 64;
	SubsetTable table;
	uint64	   *start = palloc0(nwords * sizeof(uint64));
	uint64	   *next = palloc((Size) Max(ncolumns, 1) * nwords * sizeof(uint64));
	uint64	   *rainbow = palloc(nwords * sizeof(uint64));
	int			capacity = 64;
	int			a;
	int			cur;

	subset_table_init(&table, nwords, max_states);
	dfa->ncolumns = ncolumns;
	dfa->trans = palloc((Size) capacity * Max(ncolumns, 1) * sizeof(uint16));
	dfa->flags = palloc(capacity);

	/* the start state: the initial state stepped over the begin pseudocolor */
	for (a = nfa->arc_start[nfa->initial]; a < nfa->arc_start[nfa->initial + 1]; a++)
		if (nfa->arc_color[a] == nfa->bos_color)
			set_bit(start, nfa->arc_to[a]);
	canonicalize(start, nwords, nfa->final);
	dfa->start = subset_intern(&table, start);

	for (cur = 0; cur < table.nsets; cur++)
	{
		const uint64 *set = table.words + (Size) cur * nwords;
		uint16	   *row;
		int			c;

		CHECK_FOR_INTERRUPTS();
		if ((Size) (cur + 1) * ncolumns > GL_DFA_MAX_CELLS)
			return "regex DFA transition table too large";
		reserve_states(dfa, &capacity, cur);
		row = dfa->trans + (Size) cur * ncolumns;

		if (set_is_empty(set, nwords) || bit_is_set(set, nfa->final))
		{
			/* absorbing: DEAD, or ACCEPT (true whatever follows) */
			dfa->flags[cur] = set_is_empty(set, nwords) ? GL_DFA_DEAD :
				GL_DFA_ACCEPT | GL_DFA_ACCEPT_AT_END;
			for (c = 0; c < ncolumns; c++)
				row[c] = (uint16) cur;
			continue;
		}

		dfa->flags[cur] = step_all_columns(nfa, column_of_color, ncolumns,
										   nwords, set, next, rainbow)
			? GL_DFA_ACCEPT_AT_END : 0;
		for (c = 0; c < ncolumns; c++)
		{
			uint64	   *succ = next + (Size) c * nwords;
			int			idx;

			canonicalize(succ, nwords, nfa->final);
			idx = subset_intern(&table, succ);
			if (idx < 0)
				return psprintf("regex needs more than %d DFA states before minimization",
								max_states);
			row[c] = (uint16) idx;
		}
	}
	dfa->nstates = table.nsets;
	promote_decided_states(dfa);
	mark_dead_states(dfa);
	return NULL;
}

/* Assign class numbers to rows of width ints by equality; returns count. */
static int
number_distinct_rows(const int *rows, int nrows, int width, int *class_of)
{
	uint32		nslots = 16;
	int		   *slots;
	int			nclasses = 0;
	int			r;

	while (nslots < (uint32) nrows * 2)
		nslots *= 2;
	slots = palloc(nslots * sizeof(int));
	memset(slots, -1, nslots * sizeof(int));
	for (r = 0; r < nrows; r++)
	{
		const int  *row = rows + (Size) r * width;
		uint32		slot = hash_bytes((const unsigned char *) row,
									  width * sizeof(int)) & (nslots - 1);

		for (;;)
		{
			int			other = slots[slot];

			if (other < 0)
			{
				slots[slot] = r;
				class_of[r] = nclasses++;
				break;
			}
			if (memcmp(rows + (Size) other * width, row, width * sizeof(int)) == 0)
			{
				class_of[r] = class_of[other];
				break;
			}
			slot = (slot + 1) & (nslots - 1);
		}
	}
	pfree(slots);
	return nclasses;
}

void
gl_regex_dfa_minimize(GlRegexDfa *dfa)
{
	int			n = dfa->nstates;
	int			k = dfa->ncolumns;
	int			width = k + 1;
	int		   *signature = palloc((Size) n * width * sizeof(int));
	int		   *cls = palloc(n * sizeof(int));
	int		   *rep;
	int			nclasses = 0;
	int			s,
				c;
	uint16	   *trans;
	uint8	   *flags;

	/* start from the partition by flags; refine by successor classes */
	for (s = 0; s < n; s++)
		cls[s] = dfa->flags[s];
	for (;;)
	{
		int			before = nclasses;

		CHECK_FOR_INTERRUPTS();
		for (s = 0; s < n; s++)
		{
			int		   *sig = signature + (Size) s * width;

			sig[0] = cls[s];
			for (c = 0; c < k; c++)
				sig[c + 1] = cls[dfa->trans[(Size) s * k + c]];
		}
		nclasses = number_distinct_rows(signature, n, width, cls);
		if (nclasses == before)
			break;
	}

	rep = palloc(nclasses * sizeof(int));
	for (s = n - 1; s >= 0; s--)
		rep[cls[s]] = s;
	trans = palloc(Max((Size) nclasses * k, 1) * sizeof(uint16));
	flags = palloc(nclasses);
	for (c = 0; c < nclasses; c++)
	{
		int			col;

		flags[c] = dfa->flags[rep[c]];
		for (col = 0; col < k; col++)
			trans[(Size) c * k + col] = (uint16) cls[dfa->trans[(Size) rep[c] * k + col]];
	}
	dfa->start = cls[dfa->start];
	dfa->nstates = nclasses;
	pfree(dfa->trans);
	pfree(dfa->flags);
	dfa->trans = trans;
	dfa->flags = flags;
	pfree(signature);
	pfree(cls);
	pfree(rep);
}

void
gl_regex_dfa_merge_columns(GlRegexDfa *dfa, int *column_map)
{
	int			n = dfa->nstates;
	int			k = dfa->ncolumns;
	int		   *columns = palloc(Max((Size) n * k, 1) * sizeof(int));
	int		   *rep;
	int			ncolumns;
	uint16	   *trans;
	int			s,
				c;

	/* transpose: one row per column, to number equal columns */
	for (c = 0; c < k; c++)
		for (s = 0; s < n; s++)
			columns[(Size) c * n + s] = dfa->trans[(Size) s * k + c];
	ncolumns = number_distinct_rows(columns, k, n, column_map);

	rep = palloc(Max(ncolumns, 1) * sizeof(int));
	for (c = k - 1; c >= 0; c--)
		rep[column_map[c]] = c;
	trans = palloc(Max((Size) n * ncolumns, 1) * sizeof(uint16));
	for (s = 0; s < n; s++)
		for (c = 0; c < ncolumns; c++)
			trans[(Size) s * ncolumns + c] = dfa->trans[(Size) s * k + rep[c]];
	pfree(dfa->trans);
	dfa->trans = trans;
	dfa->ncolumns = ncolumns;
	pfree(columns);
	pfree(rep);
}
