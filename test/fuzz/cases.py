"""A fuzzer case: a query, the statements that run it, and the settings of
each side (gpulike on, gpulike off), as generated from one seed.

The statements a case runs, per kind:
  select     the query
  ctas       CREATE TEMP TABLE ... AS the query; TABLE it
  insert     an empty table of the query's shape; INSERT ... SELECT; TABLE it
  cursor     DECLARE; FETCH in a few steps; FETCH ALL (SCROLL: and BACKWARD)
  prepared   PREPARE with the pattern as $1; EXECUTE it for several values,
             under plan_cache_mode custom, generic or auto
  locking    SELECT ... FOR UPDATE / SHARE
  update     UPDATE docs ... WHERE <pattern> RETURNING ...
  delete     DELETE FROM docs ... WHERE <pattern> RETURNING ...
  dml_cte    WITH u AS (UPDATE ... RETURNING ...) SELECT ... FROM u
  partition  gpulike on: the query with p, with NOT p and with p IS NULL,
             UNION ALL; gpulike off: the query without p.  The three
             parts of a ternary partition must give back the whole.
In some cases another relation of docs's columns stands in for docs
(TABLES).
"""

import random

from grammar import Generator, Select, leaf

KINDS = [("select", 36), ("ctas", 6), ("insert", 5), ("cursor", 8),
         ("prepared", 12), ("locking", 6), ("update", 5), ("delete", 3),
         ("dml_cte", 3), ("partition", 16)]

# what stands in for docs (alias d): itself, its partitioned copy, views
# over it (one a security barrier), an inlined SQL function over it
TABLES = [("docs", 60), ("parts", 12), ("docs_sb", 10), ("docs_fox", 8),
          ("docs_like('%o%')", 10)]

# statuses that say nothing about gpulike: the case is skipped
SKIP_STATES = {"40001", "40P01", "57014", "55P03"}

# errors PostgreSQL raises only for the rows it evaluates the operator on
# (an invalid regex, a LIKE pattern ending in its escape): whether they
# come depends on the plan -- the order of the quals, an index -- with
# gpulike or without.  One side raising them, the other not, is skipped.
PLAN_DEPENDENT_ERRORS = {"2201B", "22025"}


class Case:
    def __init__(self, kind, query, settings_both, settings_on, extra=None):
        self.kind = kind
        self.query = query              # a Select
        self.settings_both = settings_both
        self.settings_on = settings_on
        self.extra = extra or {}        # params, partition predicate, fetch steps

    def ordered(self):
        return self.kind in ("select", "cursor", "ctas", "locking") and self.query.ordered

    def statements(self, side, name):
        """[(sql, explain_sql or None)] for one side; name makes objects unique.
        With table 'parts', the partitioned copy of docs stands in for it."""
        out = self._statements(side, name)
        table = self.extra.get("table", "docs")
        if table != "docs":
            out = [(sql.replace("docs d", table + " d"), explain and explain.replace("docs d", table + " d"))
                   for sql, explain in out]
        return out

    def _statements(self, side, name):
        q = self.query
        kind = self.kind
        if kind == "partition":
            pred = self.extra["pred"]
            if side == "off":
                return [(q.render(), None)]
            parts = []
            for test in ("(%s)", "NOT (%s)", "(%s) IS NULL"):
                part = Select()
                part.__dict__.update(q.__dict__)
                part.where = q.where + [leaf(test % pred.render())]
                parts.append(part.render())
            sql = " UNION ALL ".join(parts)
            return [(sql, sql)]
        if kind == "select" or kind == "locking":
            return [(q.render(), q.render())]
        if kind == "ctas":
            sql = "CREATE TEMP TABLE fz_%s AS %s" % (name, q.render())
            return [(sql, sql), ("TABLE fz_%s" % name, None)]
        if kind == "insert":
            return [("CREATE TEMP TABLE fz_%s AS %s WITH NO DATA" % (name, q.render()), None),
                    ("INSERT INTO fz_%s %s" % (name, q.render()),
                     "INSERT INTO fz_%s %s" % (name, q.render())),
                    ("TABLE fz_%s" % name, None)]
        if kind == "cursor":
            scroll = self.extra["scroll"]
            out = [("DECLARE fz_%s %sCURSOR FOR %s" % (name, "SCROLL " if scroll else "", q.render()),
                    q.render())]
            for step in self.extra["fetch"]:
                out.append(("FETCH %d FROM fz_%s" % (step, name), None))
            out.append(("FETCH ALL FROM fz_%s" % name, None))
            if scroll:
                out.append(("FETCH BACKWARD ALL FROM fz_%s" % name, None))
            out.append(("CLOSE fz_%s" % name, None))
            return out
        if kind == "prepared":
            out = [("PREPARE fz_%s(text) AS %s" % (name, q.render()), None)]
            for i, value in enumerate(self.extra["params"]):
                sql = "EXECUTE fz_%s(%s)" % (name, value)
                out.append((sql, sql if i == 0 else None))
            return out
        where = " AND ".join(p.render() for p in q.where) or "true"
        items = ", ".join(q.items)
        if kind == "update":
            sql = "UPDATE docs d SET n = d.n + 1, title = d.title || '' WHERE %s RETURNING %s" % (where, items)
        elif kind == "delete":
            sql = "DELETE FROM docs d WHERE %s RETURNING %s" % (where, items)
        else:
            sql = ("WITH u AS (UPDATE docs d SET price = d.price + 1 WHERE %s RETURNING d.id, d.n) "
                   "SELECT count(*), sum(u.n), max(u.id) FROM u" % where)
        return [(sql, sql)]

    def settings(self, side):
        return self.settings_both + (self.settings_on if side == "on" else ["gpulike.enabled = off"])

    def describe(self):
        lines = ["kind: %s" % self.kind,
                 "settings (both sides): %s" % "; ".join(self.settings_both),
                 "settings (gpulike on): %s" % "; ".join(self.settings_on)]
        for sql, _ in self.statements("on", "x"):
            lines.append("  on:  " + sql + ";")
        if self.kind == "partition":
            lines.append("  off: " + self.statements("off", "x")[0][0] + ";")
        return "\n".join(lines)

    def _with(self, **changes):
        clone = Case(self.kind, self.query, self.settings_both, self.settings_on, self.extra)
        clone.__dict__.update(changes)
        return clone

    def shrinks(self):
        """Smaller cases: a plain SELECT, fewer settings, a smaller query."""
        if self.extra.get("table", "docs") != "docs":
            yield self._with(extra=dict(self.extra, table="docs"))
        if self.kind in ("ctas", "insert", "cursor"):
            yield self._with(kind="select")
        if self.kind == "prepared" and len(self.extra["params"]) > 1:
            for value in self.extra["params"]:
                yield self._with(extra=dict(self.extra, params=[value]))
        if self.kind == "cursor" and self.extra["fetch"]:
            yield self._with(extra=dict(self.extra, fetch=[]))
        for i in range(len(self.settings_both)):
            yield self._with(settings_both=self.settings_both[:i] + self.settings_both[i + 1:])
        for i in range(1, len(self.settings_on)):
            yield self._with(settings_on=self.settings_on[:i] + self.settings_on[i + 1:])
        if self.kind == "partition":
            for smaller in self.extra["pred"].shrinks():
                yield self._with(extra=dict(self.extra, pred=smaller))
        for smaller in self.query.shrinks():
            yield self._with(query=smaller)


def weighted(rng, choices):
    total = sum(w for _, w in choices)
    r = rng.uniform(0, total)
    for value, w in choices:
        r -= w
        if r <= 0:
            return value
    return choices[-1][0]


def random_settings(rng):
    both = ["statement_timeout = '30s'", "jit = off"]
    if rng.random() < 0.35:
        both += ["parallel_setup_cost = 0", "parallel_tuple_cost = 0",
                 "min_parallel_table_scan_size = 0", "min_parallel_index_scan_size = 0",
                 "max_parallel_workers_per_gather = %d" % rng.choice([1, 2, 4])]
    on = ["gpulike.enabled = on"]
    if rng.random() < 0.7:
        on.append("enable_seqscan = off")
    if rng.random() < 0.4:
        on += ["enable_indexscan = off", "enable_bitmapscan = off"]
    if rng.random() < 0.15:
        on += ["enable_hashjoin = off", "enable_mergejoin = off"]
    if rng.random() < 0.15:
        on.append("gpulike.recheck = always")
    if rng.random() < 0.1:
        on.append("gpulike.enable_count = off")
    if rng.random() < 0.1:
        on.append("gpulike.enable_parallel = off")
    return both, on


def make_case(seed):
    """The case of one seed."""
    rng = random.Random(seed)
    gen = Generator(rng)
    kind = weighted(rng, KINDS)
    both, on = random_settings(rng)
    extra = {}
    if kind == "prepared":
        query = gen.select(param="$1")
        mode = rng.choice(["force_custom_plan", "force_generic_plan", "auto"])
        both.append("plan_cache_mode = %s" % mode)
        values = [gen.fragment(), gen.like_pattern(), gen.regex(), "%", "", "NULL"]
        count = 7 if mode == "auto" else rng.randint(1, 3)
        extra["params"] = [v if v == "NULL" else "'" + v.replace("'", "''") + "'"
                           for v in (rng.choice(values) for _ in range(count))]
    elif kind == "locking":
        query = gen.locking_select()
    elif kind in ("update", "delete", "dml_cte"):
        query = Select()
        # not ctid: each side's new row versions go to slots of their own
        query.items = gen.some(["d.id", "d.n", "d.title", "d.body", "d", "length(d.body)"], 1, 3)
        query.where = gen.where("d")
    elif kind == "partition":
        query, extra["pred"] = gen.partition_select()
    else:
        query = gen.select()
        if kind in ("ctas", "insert") and query.lock:
            query.lock = ""
    extra["table"] = weighted(rng, TABLES)
    if extra["table"] == "parts" and rng.random() < 0.5:
        both += ["enable_partitionwise_aggregate = on", "enable_partitionwise_join = on"]
    if kind == "cursor":
        extra["scroll"] = rng.random() < 0.3
        extra["fetch"] = [rng.choice([1, 2, 10]) for _ in range(rng.randint(0, 3))]
    return Case(kind, query, both, on, extra)
