"""Random SQL over the fuzzer's tables (schema.sql), as reducible trees.

A query is a Select: target list, FROM items, WHERE as a tree of
predicates, GROUP BY / HAVING, DISTINCT [ON], ORDER BY / LIMIT / OFFSET,
row locks, CTEs and set operations.  Each part knows how to render itself
and how to shrink: shrinks() yields copies with one part removed or
replaced by a smaller one, which the driver uses to reduce a failing
query (fuzz.py).

Every query is deterministic, whatever plan runs it, so that gpulike on
and off must give the same bag of rows:
  - LIMIT, OFFSET and DISTINCT ON only under an ORDER BY that ends with a
    unique key (shrinking drops them together);
  - ordered aggregates and windows order by a unique key; no float
    arithmetic (numeric and integers are exact in any order);
  - no expression that can fail on some rows and not others (an error's
    presence would depend on which rows a plan evaluates it on).

Aliases: d is docs (cached: body, title, tag, code), nt is notes (cached:
body), w is words (patterns, not cached), k is nums.
"""

import copy

# ------------------------------------------------------------ vocabulary

FRAGMENTS = [
    "fox", "quick", "QUICK", "lazy", "dog", "dig", "special", "requests",
    "Customer", "complaints", "café", "naïve", "Straße", "ΣΊΣ", "σίσ",
    "漢字", "😀", "50%", "off_sale", "back\\slash", "a.b", "final",
    "pending", "İst", "x", "ab", "cd", "needle", "zebra", "e", "a", "0",
    "the", " ", "red", "Blue", "c+d",
]

REGEXES = [
    "quick (brown|red)", "^the", "dog$", "[0-9]{3}", "caf[eé]", "o.",
    "(fox|dog)", "^$", "σ", "\\d+", "[[:upper:]]{3}", "(o)\\1", "a|e|i",
    "ΣΊ", "x*", "^(ab|cd)", "lazy d.g", "f.x", "[^a-z ]", "^.{3}$",
    "needle", "zebra", "(the|a) ", "😀", "\\s", "^[a-f0-9]{8}",
]

SIMILAR = ["%(fox|dog)%", "(the|a)%", "%[0-9]%", "%q_ick%", "x", "%"]


def quote(text):
    return "'" + text.replace("'", "''") + "'"


# columns of each alias: (cached text columns, other expressions)
CACHED = {"d": ["d.body", "d.title", "d.tag", "d.code"], "nt": ["nt.body"]}

SCALARS = {
    "d": ["d.id", "d.n", "d.title", "d.body", "d.price", "d.tag", "d.code",
          "d.created", "d.data", "d.n % 5", "d.id % 3", "d.price * 2",
          "length(d.title)", "upper(d.title)", "d.data->>'tag'",
          "coalesce(d.tag, '-')", "left(d.body, 12)", "d.ctid",
          "d.xmin::text", "d.tableoid::regclass::text", "d", "d::text",
          "row(d.id, d.n)", "(d.n IS NULL)", "md5(d.body)", "d.created + 1",
          "char_length(d.code)", "d.code || '|'",
          "CASE WHEN d.body LIKE '%fox%' THEN 'fox' ELSE 'other' END",
          "d.body ILIKE '%QUICK%'", "d.title ~ 'o.'", "1", "'const'",
          "(SELECT count(*) FROM notes nt2 WHERE nt2.doc_id = d.id)",
          "(SELECT k.label FROM nums k WHERE k.k = d.n % 21)"],
    "nt": ["nt.id", "nt.doc_id", "nt.body", "nt.kind", "length(nt.body)",
           "nt", "nt.ctid", "upper(nt.kind)"],
}

# low-cardinality expressions to group by
GROUP_KEYS = {
    "d": ["d.n % 5", "d.id % 3", "d.tag", "d.code IS NULL", "d.created",
          "length(d.title) % 4", "d.data->>'k'", "d.tableoid",
          "d.body LIKE '%o%'", "d.n", "upper(d.tag)", "left(d.title, 1)"],
    "nt": ["nt.kind", "nt.doc_id % 4", "nt.body IS NULL"],
}

AGGREGATES = {
    "d": ["count(*)", "count(d.title)", "sum(d.n)", "sum(d.price)",
          "min(d.title)", "max(d.body)", "avg(d.n)", "avg(d.price)",
          "string_agg(d.tag, ',' ORDER BY d.id)", "array_agg(d.id ORDER BY d.id)",
          "bool_or(d.body ILIKE '%fox%')",
          "count(*) FILTER (WHERE d.title LIKE '%a%')",
          "max(length(d.body))", "sum(d.n) FILTER (WHERE d.body ~ 'o.')",
          "count(DISTINCT d.tag)", "jsonb_agg(d.id ORDER BY d.id)",
          "min(d.created)", "bit_or(d.n)", "every(d.n > 3)", "min(d.ctid)",
          "count(d.*)", "max(d.code)"],
    "nt": ["count(*)", "count(nt.body)", "max(nt.id)", "min(nt.kind)",
           "sum(nt.doc_id)"],
}

WINDOWS = [
    "row_number() OVER (PARTITION BY d.n % 3 ORDER BY d.id)",
    "sum(d.n) OVER (PARTITION BY d.tag)", "count(*) OVER ()",
    "lag(d.id) OVER (ORDER BY d.n, d.id)", "rank() OVER (ORDER BY d.tag)",
    "first_value(d.title) OVER (PARTITION BY d.tag ORDER BY d.id)",
    "dense_rank() OVER (PARTITION BY d.code IS NULL ORDER BY d.n)",
    "max(d.price) OVER (ORDER BY d.id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)",
]

SET_RETURNING = ["generate_series(1, d.n % 3)", "unnest(ARRAY[d.id, d.n])",
                 "regexp_matches(d.body, 'o(.)', 'g')",
                 "jsonb_object_keys(coalesce(d.data, '{}'))"]

OTHER_PREDICATES = {
    "d": ["d.n % 7 = 3", "d.n > 50", "d.price > 500", "d.tag = 'red'",
          "d.tag IS NULL", "d.title IS NOT NULL", "d.created < date '2024-06-01'",
          "d.data->>'k' = '3'", "d.id % 4 = 0", "length(d.body) > 50",
          "d.body = ''", "d.code IS NULL", "d.id < 500", "d.n IS NULL"],
    "nt": ["nt.kind = 'memo'", "nt.id % 3 = 0", "nt.kind IS NULL"],
}

# how ORMs and applications spell a search (served or not, always exact)
IDIOMS = [
    "upper({c}::text) LIKE upper({p})", "lower({c}) LIKE lower({p})",
    "strpos({c}, {f}) > 0", "position({f} in {c}) > 0", "starts_with({c}, {f})",
    "{c} ^@ {f}", "coalesce({c}, '') LIKE {p}", "({c} || ' ' || {c}) ILIKE {p}",
    "{c} COLLATE \"C\" LIKE {p}", "{c} LIKE {p} ESCAPE '!'",
    "lower({c}) LIKE '%' || lower({f}) || '%'", "lower({c}) NOT LIKE lower({p})",
    "strpos({c}, {f}) = 0", "regexp_like({c}, {f}, 'i')", "coalesce({c}, '') ILIKE {p} || '_'",
]


# ------------------------------------------------------------ predicates

class Pred:
    """A boolean expression: a leaf, or NOT / AND / OR of others."""

    def __init__(self, op, parts):
        self.op = op        # 'leaf', 'not', 'and', 'or'
        self.parts = parts  # leaf: [sql]; others: [Pred, ...]

    def render(self):
        if self.op == "leaf":
            return self.parts[0]
        if self.op == "not":
            return "NOT (" + self.parts[0].render() + ")"
        return "(" + (" %s " % self.op.upper()).join(p.render() for p in self.parts) + ")"

    def shrinks(self):
        if self.op == "leaf":
            return
        for i, part in enumerate(self.parts):
            yield part
            for smaller in part.shrinks():
                clone = Pred(self.op, list(self.parts))
                clone.parts[i] = smaller
                yield clone
        if self.op in ("and", "or") and len(self.parts) > 2:
            for i in range(len(self.parts)):
                yield Pred(self.op, self.parts[:i] + self.parts[i + 1:])


def leaf(sql):
    return Pred("leaf", [sql])


# ------------------------------------------------------------ queries

class Select:
    """One SELECT (possibly with CTEs and a set operation after it)."""

    def __init__(self):
        self.ctes = []          # [(name, Select, 'MATERIALIZED' | '')]
        self.distinct = None    # None, [] (DISTINCT) or [exprs] (DISTINCT ON)
        self.items = []         # target list expressions
        self.froms = []         # [str or (template with {sub}, Select)]
        self.where = []         # [Pred], ANDed
        self.group = []         # GROUP BY expressions
        self.group_mode = ""    # '', 'ROLLUP', 'CUBE', 'GROUPING SETS'
        self.having = []        # [str]
        self.order = []         # ORDER BY expressions; total when limited
        self.limit = None
        self.offset = None
        self.lock = ""          # 'FOR UPDATE', 'FOR SHARE OF d', ...
        self.setop = None       # (op, Select)
        self.ordered = False    # the rows' order is part of the answer

    def render(self, aliases=True):
        sql = ""
        if self.ctes:
            sql = "WITH " + ", ".join("%s AS %s(%s)" % (name, mat + " " if mat else "", sub.render())
                                      for name, sub, mat in self.ctes) + " "
        sql += "SELECT "
        if self.distinct is not None:
            sql += "DISTINCT " if not self.distinct else "DISTINCT ON (%s) " % ", ".join(self.distinct)
        sql += ", ".join("%s AS c%d" % (e, i + 1) if aliases else e
                         for i, e in enumerate(self.items))
        if self.froms:
            sql += " FROM " + ", ".join(f if isinstance(f, str) else f[0].format(sub=f[1].render())
                                        for f in self.froms)
        if self.where:
            sql += " WHERE " + " AND ".join(p.render() for p in self.where)
        if self.group:
            keys = ", ".join(self.group)
            if self.group_mode == "GROUPING SETS":
                keys = "GROUPING SETS ((%s), ())" % keys
            elif self.group_mode:
                keys = "%s (%s)" % (self.group_mode, keys)
            sql += " GROUP BY " + keys
        if self.having:
            sql += " HAVING " + " AND ".join(self.having)
        if self.setop:
            sql += " %s %s" % (self.setop[0], self.setop[1].render())
        if self.order:
            sql += " ORDER BY " + ", ".join(self.order)
        if self.limit is not None:
            sql += " LIMIT %d" % self.limit
        if self.offset is not None:
            sql += " OFFSET %d" % self.offset
        if self.lock:
            sql += " " + self.lock
        return sql

    def _with(self, **changes):
        clone = copy.copy(self)
        for name, value in changes.items():
            setattr(clone, name, value)
        return clone

    def shrinks(self):
        """Smaller variants, biggest cuts first."""
        if self.setop:
            yield self._with(setop=None)
        for i, (name, sub, mat) in enumerate(self.ctes):
            if mat:
                yield self._with(ctes=self.ctes[:i] + [(name, sub, "")] + self.ctes[i + 1:])
        if self.order and self.distinct is None or self.order and self.distinct == []:
            # ORDER BY, LIMIT and OFFSET go together: a limit needs its order
            yield self._with(order=[], limit=None, offset=None, ordered=False)
        if self.limit is not None:
            yield self._with(limit=None)
        if self.offset is not None:
            yield self._with(offset=None)
        if self.lock:
            yield self._with(lock="")
        if self.having:
            yield self._with(having=[])
        if self.group_mode:
            yield self._with(group_mode="")
        if self.distinct:
            yield self._with(distinct=None, order=[], limit=None, offset=None, ordered=False)
        elif self.distinct is not None:
            yield self._with(distinct=None)
        for i in range(len(self.where)):
            yield self._with(where=self.where[:i] + self.where[i + 1:])
        for i, pred in enumerate(self.where):
            for smaller in pred.shrinks():
                yield self._with(where=self.where[:i] + [smaller] + self.where[i + 1:])
        if len(self.items) > 1:
            for i in range(len(self.items)):
                yield self._with(items=self.items[:i] + self.items[i + 1:])
        for i in range(len(self.group)):
            if len(self.group) > 1:
                yield self._with(group=self.group[:i] + self.group[i + 1:])
        for i, f in enumerate(self.froms):
            if not isinstance(f, str):
                for smaller in f[1].shrinks():
                    yield self._with(froms=self.froms[:i] + [(f[0], smaller)] + self.froms[i + 1:])
        for i, (name, sub, mat) in enumerate(self.ctes):
            for smaller in sub.shrinks():
                yield self._with(ctes=self.ctes[:i] + [(name, smaller, mat)] + self.ctes[i + 1:])
        if self.setop:
            for smaller in self.setop[1].shrinks():
                yield self._with(setop=(self.setop[0], smaller))


# ------------------------------------------------------------ the generator

class Generator:
    """Random parts of queries; rng is a random.Random."""

    def __init__(self, rng):
        self.rng = rng

    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p):
        return self.rng.random() < p

    def some(self, seq, low, high):
        return self.rng.sample(seq, self.rng.randint(low, min(high, len(seq))))

    # -- patterns

    def fragment(self):
        frag = self.pick(FRAGMENTS)
        if self.chance(0.2) and len(frag) > 2:
            start = self.rng.randrange(len(frag) - 1)
            frag = frag[start:start + self.rng.randint(1, len(frag) - start)]
        return frag

    def like_pattern(self):
        frag = self.fragment().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        shape = self.rng.randrange(12)
        if shape == 0:
            return frag + "%"
        if shape == 1:
            return "%" + frag
        if shape == 2:
            return "%" + frag + "%" + self.fragment().replace("\\", "\\\\").replace("%", "") + "%"
        if shape == 3 and len(frag) > 1:
            i = self.rng.randrange(len(frag))
            return "%" + frag[:i] + "_" + frag[i + 1:] + "%"
        if shape == 4:
            return self.pick(["%", "_%", "", "%_%_%", "__", "%\\%%", "%\\_%"])
        if shape == 5:
            return frag
        return "%" + frag + "%"

    def literal_regex(self):
        """A fragment as a regex that matches it literally."""
        return self.fragment().replace("\\", "\\\\").replace(".", "\\.").replace("+", "\\+") \
            .replace("*", "\\*").replace("?", "\\?").replace("(", "\\(").replace("|", "\\|") \
            .replace("[", "\\[").replace("$", "\\$").replace("^", "\\^")

    def regex(self):
        if self.chance(0.3):
            return self.literal_regex()
        if self.chance(0.15):
            # an alternation of literals (an Aho-Corasick program under ~)
            return "|".join(self.literal_regex() for _ in range(self.rng.randint(2, 3)))
        return self.pick(REGEXES)

    def pattern_leaf(self, alias, param=None):
        """column OP pattern over a cached column of alias."""
        col = self.pick(CACHED[alias])
        kind = self.rng.randrange(22)
        if param is not None:
            op = self.pick(["LIKE", "ILIKE", "NOT LIKE", "~", "~*", "!~"])
            if op in ("LIKE", "ILIKE", "NOT LIKE") and self.chance(0.5):
                return leaf("%s %s '%%' || %s || '%%'" % (col, op, param)), op
            return leaf("%s %s %s" % (col, op, param)), op
        # now and then under the C collation, where case folding and the
        # programs chosen differ (ILIKE ANY and ~* alternations combine)
        collate = ' COLLATE "C"' if self.chance(0.15) else ""
        if kind < 8:
            op = self.pick(["LIKE", "ILIKE", "NOT LIKE", "NOT ILIKE", "LIKE", "ILIKE"])
            return leaf("%s %s %s%s" % (col, op, quote(self.like_pattern()), collate)), op
        if kind < 13:
            op = self.pick(["~", "~*", "!~", "!~*", "~", "~*"])
            return leaf("%s %s %s%s" % (col, op, quote(self.regex()), collate)), op
        if kind == 13:
            return leaf("%s %sSIMILAR TO %s" % (col, self.pick(["", "NOT "]),
                                                  quote(self.pick(SIMILAR)))), "SIMILAR"
        if kind == 14:
            op = self.pick(["LIKE ANY", "ILIKE ANY", "NOT LIKE ALL", "~ ANY", "LIKE ALL"])
            n = self.rng.randint(1, 5)
            pats = [self.regex() if op.startswith("~") else self.like_pattern() for _ in range(n)]
            return leaf("%s %s (ARRAY[%s]%s)" % (col, op, ", ".join(quote(p) for p in pats),
                                                collate)), op
        if kind == 15:
            return leaf("%s LIKE (SELECT w.pat FROM words w WHERE w.id = %d)"
                        % (col, self.rng.randint(1, 15))), "LIKE"
        if kind == 16:
            pattern = self.like_pattern().replace("\\", "!")
            return leaf("%s LIKE %s ESCAPE '!'" % (col, quote(pattern))), "LIKE"
        if kind >= 20:
            return leaf(self.pattern_table(col, exists=(kind == 21))), "LIKE"
        idiom = self.pick(IDIOMS)
        frag = self.fragment()
        pattern = "%" + frag.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        if "ESCAPE" in idiom:
            pattern = pattern.replace("\\", "!")
        return leaf(idiom.format(c=col, p=quote(pattern), f=quote(frag))), "idiom"

    def pattern_table(self, col, exists):
        """col against the patterns of a table: OP ANY (subquery), or EXISTS
        over it (planned as OP ANY (ARRAY(subquery)) where they are
        equivalent, scan/pattern_sublinks.c)."""
        where = self.pick(["", "", " WHERE wp.id %% 3 = %d" % self.rng.randrange(3),
                           " WHERE wp.pat IS NOT NULL", " WHERE wp.id > 100"])
        if not exists:
            op, column = self.pick([("LIKE", "wp.pat"), ("ILIKE", "wp.pat"),
                                    ("NOT LIKE", "wp.pat"), ("~", "wp.w"),
                                    ("ILIKE", "'%' || wp.w || '%'")])
            return "%s %s ANY (SELECT %s FROM words wp%s)" % (col, op, column, where)
        cond = self.pick(["%s LIKE wp.pat", "%s ILIKE '%%' || wp.w || '%%'", "%s ~* wp.w"]) % col
        extra = self.pick(["", "", " AND wp.id %% 2 = %d" % self.rng.randrange(2),
                           " AND wp.id < %d" % self.rng.randint(1, 20)])
        return "%sEXISTS (SELECT 1 FROM words wp WHERE %s%s)" % (
            self.pick(["", "", "NOT "]), cond, extra)

    def predicate(self, alias, depth=0, param=None):
        """A tree of pattern leaves and other predicates over alias."""
        r = self.rng.random()
        if depth < 2 and r < 0.25:
            op = self.pick(["and", "or"])
            return Pred(op, [self.predicate(alias, depth + 1, param)
                             for _ in range(self.rng.randint(2, 3))])
        if depth < 2 and r < 0.33:
            return Pred("not", [self.predicate(alias, depth + 1, param)])
        if r < 0.78:
            return self.pattern_leaf(alias, param)[0]
        return leaf(self.pick(OTHER_PREDICATES[alias]))

    def where(self, alias, param=None):
        """WHERE conjuncts: at least one pattern leaf, sometimes more."""
        conjuncts = [self.pattern_leaf(alias, param)[0]]
        for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
            conjuncts.append(self.predicate(alias, 1, param))
        self.rng.shuffle(conjuncts)
        return conjuncts

    # -- queries over docs

    def rows_select(self, param=None, srf_ok=True):
        """Rows of docs: scalars, maybe DISTINCT [ON], ORDER BY, LIMIT."""
        q = Select()
        q.items = self.some(SCALARS["d"], 1, 4)
        if srf_ok and self.chance(0.08):
            q.items.append(self.pick(SET_RETURNING))
        q.froms = ["docs d"]
        q.where = self.where("d", param)
        r = self.rng.random()
        if r < 0.12:
            q.distinct = []
        elif r < 0.2:
            key = self.pick(GROUP_KEYS["d"])
            q.distinct = [key]
            q.order = [key, "d.id"]
            q.ordered = True
        if q.distinct is None and self.chance(0.3):
            q.order = [self.pick(["d.n", "d.title", "d.created", "d.tag"]), "d.id"]
            q.ordered = True
            if self.chance(0.6):
                q.limit = self.rng.choice([0, 1, 3, 10, 50])
            if self.chance(0.3):
                q.offset = self.rng.choice([0, 2, 20])
        return q

    def grouped_select(self, param=None):
        q = Select()
        q.group = self.some(GROUP_KEYS["d"], 1, 2)
        q.items = list(q.group) if self.chance(0.8) else self.some(q.group, 1, 1)
        q.items += self.some(AGGREGATES["d"], 1, 3)
        q.froms = ["docs d"]
        q.where = self.where("d", param)
        if self.chance(0.15):
            q.group_mode = self.pick(["ROLLUP", "CUBE", "GROUPING SETS"])
        if self.chance(0.25):
            q.having = [self.pick(["count(*) > 1", "sum(d.n) > 100",
                                   "bool_or(d.title LIKE '%e%')", "max(d.id) % 2 = 0"])]
        return q

    def window_select(self, param=None):
        q = Select()
        q.items = self.some(SCALARS["d"][:20], 1, 2) + self.some(WINDOWS, 1, 2)
        q.froms = ["docs d"]
        q.where = self.where("d", param)
        return q

    def aggregate_select(self, param=None):
        q = Select()
        q.items = self.some(AGGREGATES["d"], 1, 3) if self.chance(0.6) else ["count(*)"]
        if self.chance(0.2):
            q.items.append(self.pick(["count(*) > 0", "1", "count(*) * 2"]))
        q.froms = ["docs d"]
        q.where = self.where("d", param)
        return q

    def join_select(self):
        q = Select()
        join = self.pick(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
        q.froms = ["docs d %s notes nt ON nt.doc_id = d.id" % join]
        q.items = self.some(SCALARS["d"][:24], 1, 2) + self.some(SCALARS["nt"], 1, 2)
        q.where = [self.pattern_leaf(self.pick(["d", "nt"]))[0]]
        if self.chance(0.5):
            q.where.append(self.predicate(self.pick(["d", "nt"]), 1))
        if self.chance(0.2):
            q.order = ["d.id", "nt.id"]
            q.limit = self.rng.choice([1, 5, 20])
            q.ordered = True
        elif self.chance(0.2):
            q.group = ["nt.kind"]
            q.items = ["nt.kind"] + self.some(AGGREGATES["d"], 1, 2)
        return q

    def pattern_join_select(self):
        """The pattern comes from another relation, row by row."""
        q = Select()
        col = self.pick(CACHED["d"][:2])
        cond = self.pick(["%s LIKE w.pat" % col, "%s ILIKE '%%' || w.w || '%%'" % col,
                          "%s LIKE '%%' || w.w || '%%'" % col, "%s ~ w.w" % col,
                          "%s NOT LIKE w.pat" % col, "strpos(%s, w.w) > 0" % col])
        q.froms = ["words w " + self.pick(["JOIN", "LEFT JOIN"]) + " docs d ON " + cond]
        if self.chance(0.5):
            q.group = ["w.id"]
            q.items = ["w.id", self.pick(["count(d.id)", "max(d.id)", "count(*)", "min(d.title)"])]
        else:
            q.items = ["w.id"] + self.some(SCALARS["d"][:24], 1, 2)
        if self.chance(0.4):
            q.where = [self.predicate("d", 1)]
        return q

    def semi_select(self):
        q = Select()
        col = self.pick(CACHED["d"][:2])
        inner = self.pick(["%s ILIKE '%%' || w.w || '%%'" % col, "%s LIKE w.pat" % col,
                           "%s ~* w.w" % col])
        extra = " AND " + self.predicate("d", 1).render() if self.chance(0.5) else ""
        shape = self.rng.randrange(4)
        if shape == 0:
            q.items, q.froms = ["w.id", "w.w"], ["words w"]
            q.where = [leaf("%sEXISTS (SELECT 1 FROM docs d WHERE %s%s)"
                            % (self.pick(["", "NOT "]), inner, extra))]
        elif shape == 1:
            q.items, q.froms = ["k.k", "k.label"], ["nums k"]
            q.where = [leaf("k.k %sIN (SELECT d.n %% 21 FROM docs d WHERE %s)"
                            % (self.pick(["", "NOT "]), self.pattern_leaf("d")[0].render()))]
        elif shape == 2:
            q.items = ["k.k", "(SELECT count(*) FROM docs d WHERE d.n = k.k AND %s)"
                       % self.pattern_leaf("d")[0].render()]
            q.froms = ["nums k"]
        else:
            q.items = ["nt.id", "nt.doc_id"]
            q.froms = ["notes nt"]
            q.where = [leaf("nt.doc_id IN (SELECT d.id FROM docs d WHERE %s)"
                            % self.pattern_leaf("d")[0].render())]
            if self.chance(0.5):
                q.where.append(self.pattern_leaf("nt")[0])
        return q

    def lateral_select(self):
        q = Select()
        inner = Select()
        inner.items = ["d.id"] + self.some(SCALARS["d"][:24], 0, 2)
        inner.froms = ["docs d"]
        inner.where = [leaf(self.pick(["d.body LIKE '%' || w.w || '%'",
                                       "d.title ILIKE w.pat", "d.body ~* w.w"]))]
        if self.chance(0.5):
            inner.where.append(self.predicate("d", 1))
        inner.order = ["d.id"]
        inner.limit = self.rng.choice([1, 3])
        q.items = ["w.id", "l.*"]
        q.froms = ["words w", ("LATERAL (%s) l" % "{sub}", inner)]
        return q

    def nested_select(self):
        """A subquery or CTE over docs, used by an outer query."""
        inner = self.pick([self.rows_select, self.grouped_select, self.window_select])()
        q = Select()
        outer = self.rng.randrange(3)
        if outer == 0:
            q.items = ["s.*"]
        elif outer == 1:
            q.items, q.group = ["s.c1", "count(*)"], ["s.c1"]
        else:
            q.items = ["count(*)", "count(s.c1)"]
            if self.chance(0.5):
                q.where = [leaf("s.c1 IS NOT NULL")]
        if self.chance(0.5):
            q.froms = [("({sub}) s", inner)]
        else:
            q.ctes = [("s", inner, self.pick(["", "MATERIALIZED", "NOT MATERIALIZED"]))]
            q.froms = ["s"]
        return q

    def setop_select(self):
        left = self.rows_select(srf_ok=False)
        left.distinct, left.order, left.limit, left.offset, left.ordered = None, [], None, None, False
        right = Select()
        right.items, right.froms = list(left.items), ["docs d"]
        right.where = self.where("d")
        left.setop = (self.pick(["UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL",
                                 "EXCEPT", "EXCEPT ALL"]), right)
        return left

    def select(self, param=None):
        """Any of the shapes; param ($1) only where the pattern may be a Param."""
        if param is not None:
            return self.pick([self.rows_select, self.grouped_select,
                              self.aggregate_select, self.window_select])(param)
        return self.pick([self.rows_select, self.rows_select, self.grouped_select,
                          self.grouped_select, self.window_select, self.aggregate_select,
                          self.join_select, self.pattern_join_select, self.semi_select,
                          self.lateral_select, self.nested_select, self.setop_select])()

    def locking_select(self):
        """SELECT ... FOR UPDATE / SHARE: rows of docs, maybe joined."""
        q = Select()
        q.items = self.some(["d.id", "d.n", "d.title", "d.body", "d.ctid", "d"], 1, 3)
        q.where = self.where("d")
        if self.chance(0.3):
            q.froms = ["docs d JOIN notes nt ON nt.doc_id = d.id"]
            q.items.append("nt.id")
            q.lock = self.pick(["FOR UPDATE OF d", "FOR SHARE OF d", "FOR UPDATE"])
        else:
            q.froms = ["docs d"]
            q.lock = self.pick(["FOR UPDATE", "FOR SHARE", "FOR NO KEY UPDATE", "FOR KEY SHARE"])
        if self.chance(0.3):
            q.order, q.limit, q.ordered = ["d.id"] + (["nt.id"] if "nt" in q.froms[0] else []), \
                self.rng.choice([1, 5]), True
        return q

    def partition_select(self):
        """A query and a predicate for the ternary partition check."""
        q = Select()
        q.items = self.some(SCALARS["d"][:28], 1, 3)
        q.froms = ["docs d"]
        if self.chance(0.3):
            q.where = [self.predicate("d", 1)]
        return q, self.predicate("d")
