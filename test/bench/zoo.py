"""The pattern zoo: predicates that span what a matcher has to be good at.

Classes (the chart groups speedups by them):

  literal      '%x%' with x of 1..64 bytes: prefixes of one phrase (short
               ones match almost every row, long ones none, so the whole
               text is scanned) and literals sampled from the data (always
               at least one match)
  prefix       'x%'   anchored at the start
  suffix       '%x'   anchored at the end
  multi-seg    '%a%b%c%': segments matched in order
  underscore   '_'-heavy patterns ('_' is one character, not one byte)
  ilike        ILIKE, case folding (ASCII and multibyte)
  not-like     NOT LIKE / NOT ILIKE (unselective: the planner should keep
               a sequential scan)
  regex        classes, anchors, bounded repeats, case-insensitive
  regex-alt    alternations of 2..200 literals (an Aho-Corasick case)
  like-any     LIKE ANY (ARRAY[...]) of 2..200 literals, and OR of LIKEs
  similar      SIMILAR TO (rewritten to a regex by the parser)
  selectivity  a ladder from 100% down to no match on one column
  adversarial  worst cases for naive matchers (bench_adv.c), UTF-8, NULLs,
               empty strings, TOASTed long values, escaped % _ \\
  char(n)      LIKE on a blank-padded char(n) column

Entries marked core=True form the reduced zoo of large runs; --small runs
every entry.  The 200-literal alternations are not core: PostgreSQL's own
regex engine needs about 2 s for them at SF 0.01, half an hour at SF 10.  Literal lists are drawn from the TPC-H word lists with a
fixed seed, so the zoo is the same on every run.
"""

import random

from bench_query import Query

ADJECTIVES = ["special", "pending", "unusual", "express", "furious", "sly",
              "careful", "blithe", "quick", "fluffy", "slow", "quiet",
              "ruthless", "thin", "close", "dogged", "daring", "brave",
              "stealthy", "permanent", "enticing", "idle", "busy", "regular",
              "final", "ironic", "even", "bold", "silent"]
NOUNS = ["packages", "requests", "accounts", "deposits", "foxes", "ideas",
         "theodolites", "pinto beans", "instructions", "dependencies",
         "excuses", "platelets", "asymptotes", "courts", "dolphins",
         "multipliers", "sauternes", "warthogs", "frets", "dinos",
         "attainments", "somas", "Tiresias", "patterns", "forges", "braids",
         "hockey players", "frays", "warhorses", "dugouts", "notornis",
         "epitaphs", "pearls", "tithes", "waters", "orbits", "gifts",
         "sheaves", "depths", "sentiments", "decoys", "realms", "pains",
         "grouches", "escapades"]

# Prefixes of this phrase give the literal-length ladder.
PHRASE = ("furiously regular deposits sleep quickly. slyly ironic packages "
          "nag blithely final accounts")


def phrases(count, seed):
    """`count` distinct 'adjective noun' phrases, fixed by the seed."""
    rng = random.Random(seed)
    chosen = []
    while len(chosen) < count:
        phrase = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}"
        if phrase not in chosen:
            chosen.append(phrase)
    return chosen


def orders_query(name, cls, predicate, core=False, sample=None):
    return Query.count(name, cls, "orders", "o_orderkey", predicate, core, sample)


def adv_query(name, predicate, core=False):
    return Query.count(name, "adversarial", "bench_adv", "id", predicate, core)


def literal_queries():
    queries = []
    for length in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64):
        literal = PHRASE[:length]
        queries.append(orders_query(f"lit-{length}", "literal",
                                    f"o_comment LIKE '%{literal}%'",
                                    core=length in (4, 16, 64)))
    for length in (8, 16, 32, 64):
        queries.append(orders_query(f"lit-sampled-{length}", "literal",
                                    "o_comment LIKE '%{sample}%'",
                                    core=length == 32,
                                    sample=("o_comment", length)))
    return queries


def like_shape_queries():
    shapes = [
        ("prefix-furiously", "prefix", "o_comment LIKE 'furiously%'", True),
        ("prefix-s", "prefix", "o_comment LIKE 's%'", False),
        ("suffix-deposits", "suffix", "o_comment LIKE '%deposits'", True),
        ("suffix-dot", "suffix", "o_comment LIKE '%.'", False),
        ("multi-special-requests", "multi-seg", "o_comment LIKE '%special%requests%'", True),
        ("multi-3", "multi-seg", "o_comment LIKE '%bold%ideas%sleep%'", False),
        ("multi-abc", "multi-seg", "o_comment LIKE '%a%b%c%'", False),
        ("multi-6e", "multi-seg", "o_comment LIKE '%e%e%e%e%e%e%'", False),
        ("multi-anchored", "multi-seg", "o_comment LIKE 'ly%final%s'", False),
        ("under-regular", "underscore", "o_comment LIKE '%r_g_l_r%'", True),
        ("under-13", "underscore", "o_comment LIKE '%_____________%'", False),
        ("under-mixed", "underscore", "o_comment LIKE '%s_e_i_l r_q_e_t_%'", False),
        ("under-prefix", "underscore", "o_comment LIKE '____ly %'", False),
        ("ilike-special-requests", "ilike", "o_comment ILIKE '%SPECIAL%REQUESTS%'", True),
        ("ilike-tiresias", "ilike", "o_comment ILIKE '%tiresias%'", False),
        ("ilike-prefix", "ilike", "o_comment ILIKE 'FURIOUSLY%'", False),
        ("not-special-requests", "not-like", "o_comment NOT LIKE '%special%requests%'", True),
        ("not-e", "not-like", "o_comment NOT LIKE '%e%'", False),
        ("not-ilike", "not-like", "o_comment NOT ILIKE '%DEPOSITS%'", False),
        ("sel-100", "selectivity", "o_comment LIKE '%'", True),
        ("sel-requests", "selectivity", "o_comment LIKE '%requests%'", False),
        ("sel-pinto", "selectivity", "o_comment LIKE '%pinto beans%'", False),
        ("sel-tiresias", "selectivity", "o_comment LIKE '%Tiresias%'", True),
        ("sel-rare", "selectivity", "o_comment LIKE '%Tiresias sleep%'", False),
        ("sel-none", "selectivity", "o_comment LIKE '%zebra%'", True),
    ]
    return [orders_query(name, cls, predicate, core) for name, cls, predicate, core in shapes]


def regex_queries():
    shapes = [
        ("re-digit", "regex", "o_comment ~ '[0-9]'", False),
        ("re-upper", "regex", "o_comment ~ '[[:upper:]]'", False),
        ("re-word-ly", "regex", r"o_comment ~ '\mfur[a-z]+ly\M'", True),
        ("re-vowels4", "regex", "o_comment ~ '[aeiou]{3}[a-z]'", False),
        ("re-repeat", "regex", "o_comment ~ '(ss|ll|ee){2}'", False),
        ("re-bounded", "regex", "o_comment ~ 'ironic.{0,20}deposits'", True),
        ("re-anchor-start", "regex", "o_comment ~ '^sly'", False),
        ("re-anchor-end", "regex", "o_comment ~ 'ly$'", False),
        ("re-whole", "regex", "o_comment ~ '^[a-z ]+$'", False),
        ("re-long-rows", "regex", "o_comment ~ '^.{75,}$'", False),
        ("re-icase", "regex", "o_comment ~* 'TIRESIAS'", False),
        ("re-not", "regex", "o_comment !~ 'deposits|requests'", False),
        ("similar", "similar",
         "o_comment SIMILAR TO '%(special|pending) (requests|deposits)%'", True),
    ]
    queries = [orders_query(name, cls, predicate, core) for name, cls, predicate, core in shapes]
    for count in (2, 10, 50, 200):
        words = phrases(count, seed=count)
        queries.append(orders_query(f"re-alt-{count}", "regex-alt",
                                    "o_comment ~ '" + "|".join(words) + "'",
                                    core=count == 10))
        array = ", ".join(f"'%{w}%'" for w in words)
        queries.append(orders_query(f"any-{count}", "like-any",
                                    f"o_comment LIKE ANY (ARRAY[{array}])",
                                    core=count in (10, 50)))
    queries.append(orders_query(
        "or-3", "like-any",
        "(o_comment LIKE '%Tiresias%' OR o_comment LIKE '%sauternes%' "
        "OR o_comment LIKE '%notornis%')", core=True))
    return queries


def other_column_queries():
    return [
        Query.count("part-name-regex", "regex", "part", "p_partkey",
                    "p_name ~ '^(green|forest) '"),
        Query.count("part-type-ilike", "ilike", "part", "p_partkey",
                    "p_type ILIKE '%polished%'"),
        Query.count("char-prefix", "char(n)", "part", "p_partkey",
                    "p_container LIKE 'SM%'"),
        # 'LG BOX' is stored as 'LG BOX    ': the padding is part of the value.
        Query.count("char-suffix", "char(n)", "part", "p_partkey",
                    "p_container LIKE '%BOX'", core=True),
        Query.count("supp-recommends", "multi-seg", "supplier", "s_suppkey",
                    "s_comment LIKE '%Customer%Recommends%'"),
    ]


def adversarial_queries():
    return [
        adv_query("adv-kmp", "t LIKE '%aaaaaaaaaaaaaaaab%'", core=True),
        adv_query("adv-kmp-long", "t LIKE '%" + "a" * 60 + "b%'"),
        adv_query("adv-near-miss", "t LIKE '%Customer%Complaints%'", core=True),
        adv_query("adv-regex-repeat", "t ~ 'a{30,}b'"),
        adv_query("adv-utf8-underscore", "t LIKE '%caf_ %'"),
        adv_query("adv-utf8-cjk", "t LIKE '%日本_%'"),
        adv_query("adv-utf8-ilike", "t ILIKE '%straße%'", core=True),
        adv_query("adv-greek-ilike", "t ILIKE '%σίσυφος%'"),
        adv_query("adv-one-char", "t LIKE '_'"),
        adv_query("adv-empty", "t LIKE ''"),
        adv_query("adv-null-not", "t NOT LIKE '%a%'"),
        adv_query("adv-escape-percent", r"t LIKE '%\%%'"),
        adv_query("adv-escape-underscore", r"t LIKE '%\_%'"),
        adv_query("adv-escape-backslash", r"t LIKE '%\\%'"),
        adv_query("adv-custom-escape", "t LIKE '%#%%' ESCAPE '#'"),
        adv_query("adv-long-values", "t LIKE '%Tiresias%'", core=True),
    ]


def zoo_queries():
    return (literal_queries() + like_shape_queries() + regex_queries()
            + other_column_queries() + adversarial_queries())
