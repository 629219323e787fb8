/*-------------------------------------------------------------------------
 *
 * tpch_text.h
 *	  Random numbers and the TPC-H text pool for the benchmark generator.
 *
 * See tpch_text.c for how the pool is built from the specification's
 * grammar and why every row gets its own random stream.
 *
 *-------------------------------------------------------------------------
 */
#ifndef TPCH_TEXT_H
#define TPCH_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* A small, fast random stream (splitmix64); one per generated row. */
typedef struct RowRandom
{
	uint64_t	state;
} RowRandom;

/* Seed the stream of row `key` of the table identified by `table_salt`. */
extern void row_random_seed(RowRandom *r, uint64_t table_salt, uint64_t key);
extern uint64_t row_random_next(RowRandom *r);
/* Uniform integer in [lo, hi], both inclusive. */
extern int64_t row_random_range(RowRandom *r, int64_t lo, int64_t hi);

/* A word list with the specification's relative weights. */
typedef struct WeightedWords
{
	const char *const *words;
	const int  *weights;
	int			count;
	int			total_weight;
} WeightedWords;

extern const char *weighted_pick(const WeightedWords *list, RowRandom *r);

/*
 * The text pool: a long run of grammar-generated sentences.  A "text
 * string [min, max]" of the specification is a substring of it, of uniform
 * random length in [min, max], at a uniform random offset.
 */
extern void text_pool_build(size_t bytes);
/* Appends the substring to `out` (not NUL-terminated); returns its length. */
extern int	text_pool_substring(RowRandom *r, int min_len, int max_len, char *out);
/* The whole pool, for generators that want longer runs of text. */
extern const char *text_pool_data(size_t *bytes);

/* Random alphanumeric "v-string" of length in [min, max] (addresses). */
extern int	random_vstring(RowRandom *r, int min_len, int max_len, char *out);

#endif							/* TPCH_TEXT_H */
