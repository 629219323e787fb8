"""The selectivity sweep's points: pattern ladders over orders.o_comment.

Each class is a ladder of predicates from no match (or 0.001 % of the rows)
to nearly every row, measured at TPC-H SF 1 (the share of rows each one
matches is measured again in every run and reported).  Each predicate runs
in two forms:

  count   SELECT count(*) FROM orders WHERE p          nothing of the row needed
  rows    SELECT sum(o_totalprice) FROM orders WHERE p   every matching row read

and the whole TPC-H queries that filter with LIKE on cached columns (Q13
and Q16) run as they are.
"""

from tpch_queries import WHOLE_QUERIES

# (class, predicate); share of rows matched at SF 1 in the comment.
LADDERS = {
    "like": [
        "o_comment LIKE '%zebra%'",                     # 0
        "o_comment LIKE '%Tiresias sleep quickly%'",    # 0.0008 %
        "o_comment LIKE '%Tiresias sleep%'",            # 0.018 %
        "o_comment LIKE '%quickly final packages%'",    # 0.097 %
        "o_comment LIKE '%pinto beans wake%'",          # 0.37 %
        "o_comment LIKE '%special%requests%'",          # 1.07 %
        "o_comment LIKE '%furiously regular%'",         # 2.1 %
        "o_comment LIKE '%pending%'",                   # 9.3 %
        "o_comment LIKE '%ironic%'",                    # 18.7 %
        "o_comment LIKE '%sly%'",                       # 41.9 %
        "o_comment LIKE '%ly%'",                        # 82.6 %
        "o_comment LIKE '%e%'",                         # 98.9 %
    ],
    "ilike": [
        "o_comment ILIKE '%ZEBRA%'",
        "o_comment ILIKE '%TIRESIAS SLEEP QUICKLY%'",
        "o_comment ILIKE '%Tiresias Sleep%'",
        "o_comment ILIKE '%Quickly Final Packages%'",
        "o_comment ILIKE '%PINTO BEANS WAKE%'",
        "o_comment ILIKE '%Special%Requests%'",
        "o_comment ILIKE '%FURIOUSLY REGULAR%'",
        "o_comment ILIKE '%Ironic%'",
        "o_comment ILIKE '%SLY%'",
        "o_comment ILIKE '%E%'",
    ],
    "regex": [
        "o_comment ~ 'zebra'",
        "o_comment ~ 'Tiresias sleep quickly'",
        "o_comment ~ 'Tiresias sleep'",
        "o_comment ~ 'pinto beans (wake|sleep)'",     # 0.73 %
        "o_comment ~ 'special.*requests'",             # 1.07 %
        "o_comment ~ 'fin(al|e) (dep|pack)'",          # 4.2 %
        "o_comment ~ 'iron(ic|y)'",                    # 18.7 %
        "o_comment ~ 'sly'",
        "o_comment ~ 'ly'",
        "o_comment ~ 'e'",
    ],
    "like-any": [
        "o_comment LIKE ANY (ARRAY['%zebra%', '%yak%'])",
        "o_comment LIKE ANY (ARRAY['%Tiresias sleep quickly%', '%zebra%'])",
        "o_comment LIKE ANY (ARRAY['%Tiresias sleep%', '%quickly final packages%'])",
        "o_comment LIKE ANY (ARRAY['%pinto beans wake%', '%Tiresias sleep%'])",
        "o_comment LIKE ANY (ARRAY['%special%requests%', '%blithely ironic dep%'])",
        "o_comment LIKE ANY (ARRAY['%furiously regular%', '%express foxes%', '%pending%'])",
        "o_comment LIKE ANY (ARRAY['%ironic%', '%final%'])",
        "o_comment LIKE ANY (ARRAY['%sly%', '%the%'])",
        "o_comment LIKE ANY (ARRAY['%e%', '%a%'])",
    ],
    "not-like": [
        "o_comment NOT LIKE '%e%'",                     # 1.1 %
        "o_comment NOT LIKE '%s%'",                     # 2.1 %
        "o_comment NOT LIKE '%ly%'",                    # 17.4 %
        "o_comment NOT LIKE '%the%'",                   # 43.5 %
        "o_comment NOT LIKE '%sly%'",                   # 58.1 %
        "o_comment NOT LIKE '%final%'",                 # 81.0 %
        "o_comment NOT LIKE '%special%requests%'",      # 98.9 %
        "o_comment NOT LIKE '%pinto beans wake%'",      # 99.6 %
        "o_comment NOT LIKE '%zebra%'",                 # 100 %
    ],
}

FORMS = {
    "count": "SELECT count(*) FROM orders WHERE {p}",
    "rows": "SELECT sum(o_totalprice) FROM orders WHERE {p}",
}

# The whole TPC-H queries whose LIKE filters cached columns (tpch_queries.py).
WHOLE = {name: sql.strip() for name, _, sql in WHOLE_QUERIES if name in ("Q13", "Q16")}

# The columns the sweep caches: the ladder's, and the whole queries'.
CACHED = [("orders", "o_comment"), ("part", "p_type"), ("supplier", "s_comment")]


class Point:
    def __init__(self, name, cls, form, sql):
        self.name = name
        self.cls = cls          # a ladder's class, or "tpch"
        self.form = form        # "count", "rows" or "whole"
        self.sql = sql


def points(classes, forms, every=1, whole=("Q13", "Q16")):
    """The sweep's points: the whole queries named, then ladder by ladder
    (every n-th rung with every, and the last), in the order of classes."""
    result = [Point(name, "tpch", "whole", sql) for name, sql in WHOLE.items()
              if name in whole]
    for cls in classes:
        for i, predicate in enumerate(LADDERS[cls]):
            if i % every != 0 and i != len(LADDERS[cls]) - 1:
                continue
            for form in forms:
                result.append(Point(f"{cls}-{i:02d}-{form}", cls, form,
                                    FORMS[form].format(p=predicate)))
    return result
