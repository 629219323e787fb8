/*-------------------------------------------------------------------------
 *
 * multi_build.c
 *	  Aho–Corasick automaton for "contains one of N literals" (see
 *	  multi_build.h and GlMultiProgram in program.h).
 *
 * The algorithm
 * -------------
 * 1. Byte classes.  Bytes that occur in no literal all behave alike (they
 *	  send every state back towards the root), so they share class 0; every
 *	  byte that occurs gets its own class.  With ASCII folding, 'A' and 'a'
 *	  share a class and the literals are read lowercased.  Fewer classes
 *	  mean a smaller table, which matters when it must sit in a GPU's shared
 *	  memory or a CPU's L1.
 * 2. A trie of the literals over classes; a node that ends a literal
 *	  accepts.
 * 3. Breadth-first, each node's failure link (the longest proper suffix of
 *	  its string that is also a trie node) and, from it, the missing
 *	  transitions: next(u, c) = next(fail(u), c).  Nodes at lower depth are
 *	  finished first, so this is one pass.  A node also accepts when its
 *	  failure node does (a literal ends inside its string).
 *
 * The result is a complete DFA: one table load per input byte, no failure
 * chasing at match time, and the worst case is the same as the best case.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "program/multi_build.h"
#include "program/program_builder.h"

static uint8_t
fold_byte(uint8_t b, bool ascii_fold)
{
	if (ascii_fold && b >= 'A' && b <= 'Z')
		return b - 'A' + 'a';
	return b;
}

/* Assign byte classes; returns the number of classes (>= 1). */
static uint32_t
assign_byte_classes(const char *const *literals, const size_t *lens,
					int nliterals, bool ascii_fold, uint8_t *byte_class)
{
	bool		used[256] = {false};
	uint32_t	nclasses = 1;
	int			i,
				b;
	size_t		k;

	for (i = 0; i < nliterals; i++)
		for (k = 0; k < lens[i]; k++)
			used[fold_byte((uint8_t) literals[i][k], ascii_fold)] = true;

	memset(byte_class, 0, 256);
	for (b = 0; b < 256; b++)
		if (used[b] && fold_byte((uint8_t) b, ascii_fold) == b)
			byte_class[b] = (uint8_t) nclasses++;
	if (ascii_fold)
		for (b = 'A'; b <= 'Z'; b++)
			byte_class[b] = byte_class[b - 'A' + 'a'];
	return nclasses;
}

GlProgram *
gl_build_multi(const char *const *literals, const size_t *lens, int nliterals,
			   bool ascii_fold, bool utf8, const char **error)
{
	uint8_t		byte_class[256];
	uint32_t	nclasses;
	size_t		max_states = 1;
	uint32_t	nstates = 1;
	int32_t    *next = NULL;
	uint32_t   *fail = NULL;
	uint32_t   *queue = NULL;
	uint8_t    *accept = NULL;
	uint16_t   *next16 = NULL;
	uint32_t	min_bytes = UINT32_MAX;
	GlProgramBuilder b;
	GlProgram  *prog = NULL;
	GlProgram  *hdr;
	uint32_t	head = 0,
				tail = 0;
	uint32_t	byte_class_off,
				next_off,
				accept_off;
	size_t		k;
	uint32_t	c;
	int			i;

	*error = NULL;
	if (nliterals < 1)
	{
		*error = "no literals";
		return NULL;
	}
	nclasses = assign_byte_classes(literals, lens, nliterals, ascii_fold, byte_class);
	for (i = 0; i < nliterals; i++)
	{
		max_states += lens[i];
		if (lens[i] < min_bytes)
			min_bytes = (uint32_t) lens[i];
	}
	/* Shared prefixes may make the trie smaller; it is counted exactly below. */
	if (max_states > GL_MULTI_MAX_STATES)
		max_states = GL_MULTI_MAX_STATES;

	next = malloc(sizeof(int32_t) * max_states * nclasses);
	fail = calloc(max_states, sizeof(uint32_t));
	queue = malloc(sizeof(uint32_t) * max_states);
	accept = calloc(max_states, 1);
	if (!next || !fail || !queue || !accept)
	{
		*error = "out of memory";
		goto done;
	}
	memset(next, -1, sizeof(int32_t) * nclasses);

	/* The trie. */
	for (i = 0; i < nliterals; i++)
	{
		uint32_t	s = 0;

		for (k = 0; k < lens[i]; k++)
		{
			int32_t    *slot;

			c = byte_class[(uint8_t) literals[i][k]];
			slot = &next[(size_t) s * nclasses + c];
			if (*slot < 0)
			{
				if (nstates >= max_states)
				{
					*error = "too many Aho-Corasick states";
					goto done;
				}
				memset(&next[(size_t) nstates * nclasses], -1,
					   sizeof(int32_t) * nclasses);
				*slot = (int32_t) nstates++;
			}
			s = (uint32_t) *slot;
		}
		accept[s] = 1;
	}

	/* Failure links and the missing transitions, breadth first. */
	for (c = 0; c < nclasses; c++)
	{
		if (next[c] < 0)
			next[c] = 0;
		else
		{
			fail[next[c]] = 0;
			queue[tail++] = (uint32_t) next[c];
		}
	}
	while (head < tail)
	{
		uint32_t	u = queue[head++];

		accept[u] |= accept[fail[u]];
		for (c = 0; c < nclasses; c++)
		{
			int32_t    *slot = &next[(size_t) u * nclasses + c];
			int32_t		via_fail = next[(size_t) fail[u] * nclasses + c];

			if (*slot < 0)
				*slot = via_fail;
			else
			{
				fail[*slot] = (uint32_t) via_fail;
				queue[tail++] = (uint32_t) *slot;
			}
		}
	}

	next16 = malloc(sizeof(uint16_t) * (size_t) nstates * nclasses);
	if (next16 == NULL)
	{
		*error = "out of memory";
		goto done;
	}
	for (k = 0; k < (size_t) nstates * nclasses; k++)
		next16[k] = (uint16_t) next[k];

	gl_builder_init(&b, GL_PROG_MULTI);
	byte_class_off = gl_builder_add(&b, byte_class, 256);
	next_off = gl_builder_add(&b, next16, sizeof(uint16_t) * (size_t) nstates * nclasses);
	accept_off = gl_builder_add(&b, accept, nstates);
	hdr = gl_builder_header(&b);
	if (hdr != NULL)
	{
		hdr->utf8 = utf8 ? 1 : 0;
		hdr->u.multi.nliterals = (uint32_t) nliterals;
		hdr->u.multi.nstates = nstates;
		hdr->u.multi.nclasses = nclasses;
		hdr->u.multi.min_bytes = min_bytes;
		hdr->u.multi.byte_class_off = byte_class_off;
		hdr->u.multi.next_off = next_off;
		hdr->u.multi.accept_off = accept_off;
	}
	prog = gl_builder_finish(&b);
	if (prog == NULL)
		*error = "out of memory";

done:
	free(next);
	free(fail);
	free(queue);
	free(accept);
	free(next16);
	return prog;
}
