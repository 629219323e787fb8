"""Search-box queries: patterns a session has never planned before.

Phrases of the comment grammar (tpch_text.c) as rare as 'Tiresias sleep
quickly' (168 of 15 M rows at scale 10): a rare noun, a common verb and
adverb.  FRESH_QUERIES take one each, through the placeholders {phrase},
{PHRASE} (upper case, for ILIKE) and {words} (its last word a segment of
its own: 'forges sleep%furiously').
"""

import random

RARE_NOUNS = ["multipliers", "sauternes", "warthogs", "frets", "dinos", "attainments",
              "somas", "patterns", "forges", "braids", "frays", "warhorses", "dugouts",
              "notornis", "epitaphs", "pearls", "tithes", "waters", "orbits", "gifts",
              "sheaves", "depths", "sentiments", "decoys", "realms", "pains", "grouches",
              "escapades"]
COMMON_VERBS = ["sleep", "wake", "are", "cajole", "haggle"]
COMMON_ADVERBS = ["furiously", "slyly", "carefully", "blithely", "quickly"]

FRESH_QUERIES = [
    ("fresh LIKE", "SELECT o_orderkey FROM orders WHERE o_comment LIKE '%{phrase}%'"),
    ("fresh regex", "SELECT o_orderkey FROM orders WHERE o_comment ~ '{phrase}[ .,]'"),
    ("fresh ILIKE", "SELECT o_orderkey FROM orders WHERE o_comment ILIKE '%{PHRASE}%'"),
    ("fresh words", "SELECT o_orderkey FROM orders WHERE o_comment LIKE '%{words}%'"),
]


def fresh_phrases():
    """Distinct phrases (700), the same order every run."""
    phrases = [f"{n} {v} {a}" for a in COMMON_ADVERBS for v in COMMON_VERBS
               for n in RARE_NOUNS]
    random.Random(7).shuffle(phrases)
    return iter(phrases)


def takes_phrase(sql):
    return any(key in sql for key in ("{phrase}", "{PHRASE}", "{words}"))


def with_phrase(sql, phrase):
    """sql with its placeholders filled from phrase."""
    words = "%".join(phrase.rsplit(" ", 1))
    return (sql.replace("{phrase}", phrase).replace("{PHRASE}", phrase.upper())
            .replace("{words}", words))
