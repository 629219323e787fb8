"""One benchmark query and the SQL the runner sends for it.

A query is either

- an isolated *count*: ``SELECT count(*) FROM table WHERE predicate``.  Its
  result check is the count plus an order-independent checksum of the keys
  of the matching rows (sum of hashint8(key)), so two configurations agree
  only if they return the same set of rows, not merely as many;
- a *whole* query (TPC-H Q2, Q9, ...): its complete, deterministically
  ordered output is compared (row count and MD5 of the text).

The timed statement of a count is the plain count(*), the statement a user
would write; the checksum query runs once, untimed, before it (and so also
warms the caches).
"""

# The columns the benchmark searches: gpulike caches them and the pg_trgm
# configuration indexes them (char(n) ones excepted: gin_trgm_ops is for
# text, and LIKE on char(n) is a different operator that no text index
# serves).
SEARCHED_COLUMNS = [
    ("orders", "o_comment"),
    ("part", "p_name"),
    ("part", "p_type"),
    ("part", "p_container"),
    ("supplier", "s_comment"),
    ("bench_adv", "t"),
]


def like_escape(text):
    """A literal as a LIKE pattern body: escape %, _ and the backslash."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def sql_string(text):
    """A SQL string literal (standard_conforming_strings is on)."""
    return "'" + text.replace("'", "''") + "'"


class Query:
    def __init__(self, name, cls, kind, tables, core, table=None, key=None,
                 predicate=None, sql=None, sample=None):
        self.name = name
        self.cls = cls            # pattern class, for the chart
        self.kind = kind          # "count" or "whole"
        self.tables = tables      # tables it reads (all must be loaded)
        self.core = core          # part of the reduced zoo of large runs
        self.table = table
        self.key = key
        self.predicate = predicate
        self.sql = sql
        # (column, length): the predicate holds {sample}, replaced by a
        # literal of that length read from the data (see resolve_sample).
        self.sample = sample
        self.verdict = ""         # set by the runner's result comparison

    @classmethod
    def count(cls, name, pattern_class, table, key, predicate, core=False, sample=None):
        return cls(name, pattern_class, "count", [table], core, table=table,
                   key=key, predicate=predicate, sample=sample)

    @classmethod
    def whole(cls, name, pattern_class, tables, sql, core=False):
        return cls(name, pattern_class, "whole", tables, core, sql=sql)

    def sample_sql(self):
        """SQL returning the sampled literal (a fixed row, so deterministic)."""
        column, length = self.sample
        return (f"SELECT substr({column}, 3, {length}) FROM {self.table} "
                f"WHERE length({column}) >= {length + 2} "
                f"ORDER BY {self.key} LIMIT 1 OFFSET 100")

    def resolve_sample(self, literal):
        self.predicate = self.predicate.replace(
            "{sample}", sql_string(like_escape(literal))[1:-1])
        self.sample = None

    def check_sql(self):
        if self.kind == "whole":
            return self.sql
        return (f"SELECT count(*), coalesce(sum(hashint8({self.key}::bigint)), 0) "
                f"FROM {self.table} WHERE {self.predicate}")

    def timed_sql(self):
        if self.kind == "whole":
            return self.sql
        return f"SELECT count(*) FROM {self.table} WHERE {self.predicate}"

    def text(self):
        """Short description for tables: the predicate, or the query name."""
        return self.predicate if self.kind == "count" else f"TPC-H {self.name} (whole)"
