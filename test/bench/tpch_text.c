/*-------------------------------------------------------------------------
 *
 * tpch_text.c
 *	  The TPC-H comment text: a grammar of pseudo-English sentences, a pool
 *	  of them, and random substrings of the pool.
 *
 * The TPC-H specification (clause 4.2.2.10) does not store comments as
 * independent sentences.  It generates one long "text pool" from a small
 * grammar, and every comment column value is a substring of that pool:
 *
 *		sentence   := NP VP T | NP VP PP T | NP VP NP T
 *					| NP PP VP NP T | NP PP VP PP T
 *		NP (noun phrase)   := N | J N | J, J N | D J N
 *		VP (verb phrase)   := V | X V | V D | X V D
 *		PP (prep. phrase)  := P the NP
 *
 * with N nouns, V verbs, J adjectives, D adverbs, P prepositions,
 * X auxiliaries and T terminators drawn from fixed, weighted word lists
 * (the weights below follow the specification's distributions: a few words
 * such as "deposits", "regular", "furiously" are very common, most are
 * rare).  That is what gives LIKE patterns such as '%special%requests%'
 * their characteristic selectivities, so the benchmark reproduces it.
 *
 * A substring starts at a uniform random offset, so values may begin or end
 * mid-word, exactly as in the reference data.  The specification's pool is
 * 300 MB; the generator picks the size (smaller pools for small scale
 * factors only shorten start-up, they do not change word frequencies).
 *
 * Random numbers: every row of every table has its own stream, seeded from
 * (table, key).  A row is therefore the same whichever process generates
 * it, and a table can be generated in any number of parallel chunks.
 *
 *-------------------------------------------------------------------------
 */
#include "tpch_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- random */

static uint64_t
splitmix64_step(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

void
row_random_seed(RowRandom *r, uint64_t table_salt, uint64_t key)
{
	uint64_t	mix = table_salt * UINT64_C(0xD1342543DE82EF95) + key;

	/* Two scrambling steps so that neighbouring keys look unrelated. */
	r->state = splitmix64_step(&mix);
	r->state ^= splitmix64_step(&mix);
}

uint64_t
row_random_next(RowRandom *r)
{
	return splitmix64_step(&r->state);
}

int64_t
row_random_range(RowRandom *r, int64_t lo, int64_t hi)
{
	uint64_t	span = (uint64_t) (hi - lo) + 1;

	/* Modulo bias is below 2^-40 for the spans used here. */
	return lo + (int64_t) (row_random_next(r) % span);
}

const char *
weighted_pick(const WeightedWords *list, RowRandom *r)
{
	int			target = (int) row_random_range(r, 0, list->total_weight - 1);

	for (int i = 0; i < list->count; i++)
	{
		target -= list->weights[i];
		if (target < 0)
			return list->words[i];
	}
	return list->words[list->count - 1];
}

/* ------------------------------------------------------------ word lists */

#define WORD_LIST(name, words_array, weights_array) \
	static WeightedWords name = {words_array, weights_array, \
		(int) (sizeof(words_array) / sizeof(words_array[0])), 0}

static const char *const nouns[] = {
	"packages", "requests", "accounts", "deposits", "foxes", "ideas",
	"theodolites", "pinto beans", "instructions", "dependencies", "excuses",
	"platelets", "asymptotes", "courts", "dolphins", "multipliers",
	"sauternes", "warthogs", "frets", "dinos", "attainments", "somas",
	"Tiresias", "patterns", "forges", "braids", "hockey players", "frays",
	"warhorses", "dugouts", "notornis", "epitaphs", "pearls", "tithes",
	"waters", "orbits", "gifts", "sheaves", "depths", "sentiments", "decoys",
	"realms", "pains", "grouches", "escapades"
};
static const int noun_weights[] = {
	40, 40, 40, 40, 20, 20, 20, 20, 20, 10, 10, 10, 10, 5, 5, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
};

static const char *const verbs[] = {
	"sleep", "wake", "are", "cajole", "haggle", "nag", "use", "boost",
	"affix", "detect", "integrate", "maintain", "nod", "was", "lose",
	"sublate", "solve", "thrash", "promise", "engage", "hinder", "print",
	"x-ray", "breach", "eat", "grow", "impress", "mold", "poach", "serve",
	"run", "dazzle", "snooze", "doze", "unwind", "kindle", "play", "hang",
	"believe", "doubt"
};
static const int verb_weights[] = {
	20, 20, 20, 20, 20, 10, 10, 10, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
};

static const char *const adjectives[] = {
	"special", "pending", "unusual", "express", "furious", "sly", "careful",
	"blithe", "quick", "fluffy", "slow", "quiet", "ruthless", "thin",
	"close", "dogged", "daring", "brave", "stealthy", "permanent",
	"enticing", "idle", "busy", "regular", "final", "ironic", "even", "bold",
	"silent"
};
static const int adjective_weights[] = {
	20, 20, 20, 20, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	50, 40, 40, 30, 20, 10
};

static const char *const adverbs[] = {
	"sometimes", "always", "never", "furiously", "slyly", "carefully",
	"blithely", "quickly", "fluffily", "slowly", "quietly", "ruthlessly",
	"thinly", "closely", "doggedly", "daringly", "bravely", "stealthily",
	"permanently", "enticingly", "idly", "busily", "regularly", "finally",
	"ironically", "evenly", "boldly", "silently"
};
static const int adverb_weights[] = {
	1, 1, 1, 50, 50, 50, 40, 30, 20, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1
};

static const char *const prepositions[] = {
	"about", "above", "according to", "across", "after", "against", "along",
	"alongside of", "among", "around", "at", "atop", "before", "behind",
	"beneath", "beside", "besides", "between", "beyond", "by", "despite",
	"during", "except", "for", "from", "in place of", "inside",
	"instead of", "into", "near", "of", "on", "outside", "over", "past",
	"since", "through", "throughout", "to", "toward", "under", "until", "up",
	"upon", "without", "with", "within"
};
static const int preposition_weights[] = {
	50, 50, 50, 50, 50, 40, 40, 30, 30, 20, 10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1
};

static const char *const auxiliaries[] = {
	"do", "may", "might", "shall", "will", "would", "can", "could", "should",
	"ought to", "must", "will have to", "shall have to", "could have to",
	"should have to", "must have to", "need to", "try to"
};
static const int auxiliary_weights[] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
};

static const char *const terminators[] = {".", ";", ":", "?", "!", "--"};
static const int terminator_weights[] = {50, 1, 1, 1, 1, 1};

/* Sentence shapes, noun and verb phrase shapes, with their weights. */
static const char *const sentence_shapes[] = {
	"NVT", "NVPT", "NVNT", "NPVNT", "NPVPT"
};
static const int sentence_weights[] = {3, 3, 3, 1, 1};
static const char *const noun_phrase_shapes[] = {"N", "JN", "J,JN", "DJN"};
static const int noun_phrase_weights[] = {10, 20, 10, 50};
static const char *const verb_phrase_shapes[] = {"V", "XV", "VD", "XVD"};
static const int verb_phrase_weights[] = {30, 1, 40, 1};

WORD_LIST(noun_list, nouns, noun_weights);
WORD_LIST(verb_list, verbs, verb_weights);
WORD_LIST(adjective_list, adjectives, adjective_weights);
WORD_LIST(adverb_list, adverbs, adverb_weights);
WORD_LIST(preposition_list, prepositions, preposition_weights);
WORD_LIST(auxiliary_list, auxiliaries, auxiliary_weights);
WORD_LIST(terminator_list, terminators, terminator_weights);
WORD_LIST(sentence_list, sentence_shapes, sentence_weights);
WORD_LIST(noun_phrase_list, noun_phrase_shapes, noun_phrase_weights);
WORD_LIST(verb_phrase_list, verb_phrase_shapes, verb_phrase_weights);

static void
compute_total_weight(WeightedWords *list)
{
	list->total_weight = 0;
	for (int i = 0; i < list->count; i++)
		list->total_weight += list->weights[i];
}

/* ------------------------------------------------------------------ pool */

static char *pool;
static size_t pool_bytes;
static size_t pool_used;

/* Append a word, separated from the previous one by a space. */
static void
pool_append_word(const char *word)
{
	size_t		len = strlen(word);

	if (pool_used > 0 && pool_used < pool_bytes)
		pool[pool_used++] = ' ';
	if (pool_used + len > pool_bytes)
		len = pool_bytes - pool_used;
	memcpy(pool + pool_used, word, len);
	pool_used += len;
}

/* Append directly after the previous word (',' and terminators). */
static void
pool_append_tight(const char *text)
{
	size_t		len = strlen(text);

	if (pool_used + len > pool_bytes)
		len = pool_bytes - pool_used;
	memcpy(pool + pool_used, text, len);
	pool_used += len;
}

static void
emit_noun_phrase(RowRandom *r)
{
	for (const char *s = weighted_pick(&noun_phrase_list, r); *s; s++)
	{
		switch (*s)
		{
			case 'N':
				pool_append_word(weighted_pick(&noun_list, r));
				break;
			case 'J':
				pool_append_word(weighted_pick(&adjective_list, r));
				break;
			case 'D':
				pool_append_word(weighted_pick(&adverb_list, r));
				break;
			case ',':
				pool_append_tight(",");
				break;
		}
	}
}

static void
emit_verb_phrase(RowRandom *r)
{
	for (const char *s = weighted_pick(&verb_phrase_list, r); *s; s++)
	{
		switch (*s)
		{
			case 'V':
				pool_append_word(weighted_pick(&verb_list, r));
				break;
			case 'X':
				pool_append_word(weighted_pick(&auxiliary_list, r));
				break;
			case 'D':
				pool_append_word(weighted_pick(&adverb_list, r));
				break;
		}
	}
}

static void
emit_sentence(RowRandom *r)
{
	for (const char *s = weighted_pick(&sentence_list, r); *s; s++)
	{
		switch (*s)
		{
			case 'N':
				emit_noun_phrase(r);
				break;
			case 'V':
				emit_verb_phrase(r);
				break;
			case 'P':
				pool_append_word(weighted_pick(&preposition_list, r));
				pool_append_word("the");
				emit_noun_phrase(r);
				break;
			case 'T':
				pool_append_tight(weighted_pick(&terminator_list, r));
				break;
		}
	}
}

void
text_pool_build(size_t bytes)
{
	RowRandom	r;
	WeightedWords *lists[] = {
		&noun_list, &verb_list, &adjective_list, &adverb_list,
		&preposition_list, &auxiliary_list, &terminator_list, &sentence_list,
		&noun_phrase_list, &verb_phrase_list
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		compute_total_weight(lists[i]);

	pool = malloc(bytes);
	if (pool == NULL)
	{
		fprintf(stderr, "tpch_gen: out of memory for a %zu-byte text pool\n", bytes);
		exit(1);
	}
	pool_bytes = bytes;
	pool_used = 0;
	/* The pool is the same for every process and every scale factor. */
	row_random_seed(&r, UINT64_C(0x7e47), 0);
	while (pool_used < pool_bytes)
		emit_sentence(&r);
}

int
text_pool_substring(RowRandom *r, int min_len, int max_len, char *out)
{
	int			len = (int) row_random_range(r, min_len, max_len);
	size_t		offset = (size_t) row_random_range(r, 0, (int64_t) (pool_bytes - len));

	memcpy(out, pool + offset, len);
	return len;
}

const char *
text_pool_data(size_t *bytes)
{
	*bytes = pool_bytes;
	return pool;
}

int
random_vstring(RowRandom *r, int min_len, int max_len, char *out)
{
	static const char alphabet[] =
		"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ,";
	int			len = (int) row_random_range(r, min_len, max_len);

	for (int i = 0; i < len; i++)
		out[i] = alphabet[row_random_range(r, 0, (int) sizeof(alphabet) - 2)];
	return len;
}
