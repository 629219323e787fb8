/*-------------------------------------------------------------------------
 *
 * literal_set.h
 *	  The literals of an Aho–Corasick program, as the set sieve
 *	  (cuda/kernels_set_sieve.cu) looks for them where they are rare in a
 *	  column's text (program_prep.cc chooses it, literal_set.cc builds it).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_LITERAL_SET_H
#define GPULIKE_LITERAL_SET_H

#include <stdint.h>

#include "kernel_prep/byte_pairs.h"
#include "program/program.h"

/* Literals a set holds, and bytes a literal: each is one 16-byte word. */
constexpr uint32_t GL_SET_MAX_LITERALS = 256;
constexpr uint32_t GL_SET_MAX_BYTES = 16;
/* Keys of the filter: the low five bits of a pair of bytes. */
constexpr uint32_t GL_SET_KEYS = 32 * 32;

/*
 * Each literal is found by one of its bigrams, the one whose key is rarest
 * in the column's sampled text, and the filter passes a position whose
 * byte and the next have a literal's bigram's key: (first & 31) << 5 |
 * (second & 31).  The low five bits are those an ASCII letter's two cases
 * share, and a lane holds a word of the filter (cuda/kernels_set_sieve.cu).  A
 * key lists the literals whose bigram has it: its bucket is count << 24
 * and, for one literal, that literal's entry itself, for more the index of
 * the first of their entries (most keys have at most one).  An entry is the
 * literal's number << 16 | its length << 8 | where its bigram starts in
 * it.  A literal's byte k is tested as (text & masks[k]) == bytes[k]: mask
 * 0xFF, or 0xDF for an ASCII letter of either case; 0 past its end.  The
 * kernel reads each literal's 16 bytes and masks as one 16-byte word.
 *
 * It is passed to the kernel by value (__grid_constant__), 13 kB.
 */
typedef struct GlLiteralSet
{
	uint32_t	filter[32];		/* bit b of word a: key a << 5 | b passes */
	uint32_t	bucket[GL_SET_KEYS];
	uint32_t	entry[GL_SET_MAX_LITERALS];
	alignas(16) uint8_t bytes[GL_SET_MAX_LITERALS][GL_SET_MAX_BYTES];
	alignas(16) uint8_t masks[GL_SET_MAX_LITERALS][GL_SET_MAX_BYTES];
	double		sample_pass;	/* share of the sample's byte pairs that pass */
} GlLiteralSet;

/*
 * The literal set of MULTI program prog (already validated) where the
 * set sieve is worth running on the column whose byte pairs are pairs:
 * every literal of 2 to 16 bytes whose bytes the program tells apart
 * alone or as an ASCII letter's two cases, and few positions of the
 * column's sample passing the filter.  NULL where not (or out of memory);
 * malloc'd.
 */
extern GlLiteralSet *gl_choose_literal_set(const GlProgram *prog, const GlBytePairs *pairs);

/*
 * The program's literals, recovered from its automaton: those that
 * contain no other (a row has one of them exactly when it has one of the
 * program's), each as its bytes' values and masks as GlLiteralSet holds
 * them, into out (room for GL_SET_MAX_LITERALS) and their number into
 * *count.  false where one is not 2 to GL_SET_MAX_BYTES bytes long, where
 * a byte of one is not tested as above, or where there are more than
 * GL_SET_MAX_LITERALS.  Exposed for the tests (test/unit/prep).
 */
typedef struct GlSetLiteral
{
	uint32_t	length;
	uint8_t		bytes[GL_SET_MAX_BYTES];
	uint8_t		masks[GL_SET_MAX_BYTES];
} GlSetLiteral;

extern bool gl_set_literals(const GlProgram *prog, GlSetLiteral *out, uint32_t *count);

/*
 * The trie of an Aho–Corasick automaton, walked breadth first from the
 * root: order[i] the i-th state reached, and for each state its trie
 * parent, the class of the byte from it (via), its depth and its longest
 * proper suffix in the trie.  A transition that is not a trie edge leads
 * to a state no deeper than the one it leaves, so the walk meets each
 * state first by its trie edge.  The arrays are the caller's, nstates
 * each; returns the number of states reached.
 */
typedef struct GlTrieWalk
{
	uint32_t   *order;
	uint32_t   *parent;
	uint32_t   *via;
	uint32_t   *depth;
	uint32_t   *suffix;
} GlTrieWalk;

extern uint32_t gl_trie_walk(const GlMultiTables *m, const GlTrieWalk *w);

#endif							/* GPULIKE_LITERAL_SET_H */
