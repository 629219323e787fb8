"""Run one query under one configuration: its result, its plan, its times.

Two psql sessions per (query, configuration):

  1. the configuration's SETs, then the check statement once (count and key
     checksum, or the whole query's output).  Its time is reported as
     "first": it reads the data right after the previous query did, so it is
     warm for PostgreSQL's buffers and the OS page cache, but this backend's
     catalog caches are cold.
  2. the SETs, EXPLAIN of the timed statement (which also loads this
     backend's catalog caches), then the timed statement R times.  The
     median of those R runs is the reported time: warm caches throughout.

R shrinks for slow statements so one (query, configuration) stays within
a time budget (at least one timed run always happens).  A statement that
runs past the statement timeout is recorded as a timeout: no time, no
result, and it is left out of the result comparison (it is not a wrong
answer) -- the table shows "timeout" for it.
"""

import hashlib
import json
import statistics

from configs import summarize_plan
from psql_session import PsqlError, run_script, split_timings


class Measurement:
    # Fields saved with a phase's results (see phase_store.py).
    SAVED = ["query", "config", "result", "rows", "first_ms", "times_ms", "plan",
             "used_gpulike", "used_trgm", "error", "timed_out", "skipped"]

    def __init__(self, query_name, config_name):
        self.query = query_name
        self.config = config_name
        self.result = None        # comparable result (tuple of strings)
        self.rows = None          # matching rows (count) or output rows (whole)
        self.first_ms = None
        self.times_ms = []
        self.plan = ""
        self.used_gpulike = False
        self.used_trgm = False
        self.error = ""
        self.timed_out = False
        self.skipped = False      # not run: the phase's time share was spent

    @property
    def median_ms(self):
        return statistics.median(self.times_ms) if self.times_ms else None

    def to_dict(self):
        return {field: getattr(self, field) for field in self.SAVED}

    @classmethod
    def from_dict(cls, saved):
        m = cls(saved["query"], saved["config"])
        for field in cls.SAVED:
            setattr(m, field, saved[field])
        m.result = tuple(m.result) if m.result is not None else None
        return m


def _check(query, settings, timeout):
    script = (settings + "\\timing on\n\\echo @@check\n" + query.check_sql() + ";\n")
    lines, times = split_timings(run_script(script, timeout)["check"])
    if query.kind == "count":
        count, checksum = lines[0].split("|")
        return (count, checksum), int(count), times[0]
    digest = hashlib.md5("\n".join(lines).encode()).hexdigest()
    return (str(len(lines)), digest), len(lines), times[0]


def skipped(query, config):
    m = Measurement(query.name, config.name)
    m.skipped = True
    m.error = "skipped: out of time"
    return m


def measure(query, config, settings, repeats, budget_s, statement_timeout_s):
    """Measure `query` under `config` (settings: its SET statements)."""
    m = Measurement(query.name, config.name)
    settings = f"SET statement_timeout = '{statement_timeout_s}s';\n" + settings
    timeout = statement_timeout_s * (repeats + 2) + 60   # psql itself must not hang
    try:
        m.result, m.rows, m.first_ms = _check(query, settings, timeout)
        runs = repeats
        if m.first_ms > 0:
            runs = max(1, min(repeats, int(budget_s * 1000 / m.first_ms)))
        script = (settings
                  + "\\echo @@plan\nEXPLAIN (COSTS OFF, FORMAT JSON) " + query.timed_sql() + ";\n"
                  + "\\timing on\n\\echo @@timed\n"
                  + (query.timed_sql() + ";\n") * runs)
        sections = run_script(script, timeout)
        m.plan, m.used_gpulike, m.used_trgm = summarize_plan(json.loads("\n".join(sections["plan"])))
        results, m.times_ms = split_timings(sections["timed"])
        if query.kind == "count" and any(line != str(m.rows) for line in results):
            m.error = f"timed runs returned {sorted(set(results))}, check returned {m.rows}"
    except PsqlError as error:
        m.error = str(error)
        m.timed_out = "statement timeout" in m.error
        m.times_ms = []
    return m
