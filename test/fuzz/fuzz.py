#!/usr/bin/env python3
"""The differential query-shape fuzzer (make test's suite "fuzz").

Seeded random queries (grammar.py) in random statements (cases.py) run
with gpulike on -- sequential scans discouraged so that the GpuLike scan
is chosen wherever it can be -- and off, inside one REPEATABLE READ
transaction so that both sides see the same rows even while writers run.
Each side runs in a savepoint that is rolled back, so DML and temporary
tables leave nothing behind.  Every statement's SQLSTATE and its rows (a
bag, or a list when the query's order is total) must be the same on both
sides.  A case that differs is reduced -- its parts removed while it
still differs -- and printed with the command that reproduces it.

The data goes through phases, so that the same shapes meet every state a
cache and its heap can be in:
  frozen    right after VACUUM (FREEZE): every page all-visible
  updated   updates of cached and other columns, deletes, inserts and
            aborted inserts: pages not all-visible, dead tuple versions
  writers   the same while pgbench writes concurrently
  vacuumed  VACUUM, inserts into the freed slots, VACUUM again: slots
            reused, pages all-visible again

Usage: fuzz.py [--queries N] [--seed S] [--jobs J] [--rows R]
               [--phases a,b] [--only PHASE:CASE] [--deadline SECONDS] [--keep]
Needs PGHOST / PGPORT (/ PGUSER) of a running cluster with gpulike
preloaded.  The last line is "N passed, M failed" (make test counts it).
"""

import argparse
import hashlib
import os
import queue
import re
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cases import PLAN_DEPENDENT_ERRORS, SKIP_STATES, make_case  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIELD, RECORD, NULL = "\x1f", "\x1e", "\u2205"
PHASES = ["frozen", "updated", "writers", "vacuumed"]

PHASE_SQL = {
    "frozen": "",
    "updated": """
        UPDATE docs SET body = fz_text(200) WHERE id % 11 = 0;
        UPDATE docs SET n = n + 1 WHERE id % 13 = 0;
        UPDATE docs SET title = upper(title), tag = 'red' WHERE id % 17 = 0;
        DELETE FROM docs WHERE id % 19 = 0;
        INSERT INTO docs (id, title, body, n, tag, code)
            SELECT id + 1000000, fz_text(30), fz_text(200), id % 100, 'green', 'new'
            FROM docs WHERE id % 23 = 0;
        BEGIN;
        INSERT INTO docs (id, title, body) SELECT id + 2000000, 'aborted', 'quick brown fox'
            FROM docs WHERE id % 7 = 0;
        ROLLBACK;
        UPDATE notes SET body = fz_text(60) WHERE id % 5 = 0;
        DELETE FROM notes WHERE id % 9 = 0;
        UPDATE parts SET body = fz_text(200) WHERE id % 11 = 0;
        UPDATE parts SET n = n + 1, id = id + 5000000 WHERE id % 29 = 0 AND id < 500;
        DELETE FROM parts WHERE id % 19 = 0;
        ANALYZE;
    """,
    "writers": "CREATE SEQUENCE IF NOT EXISTS fz_ids START 3000000;",
    "vacuumed": """
        VACUUM docs, notes, parts;
        INSERT INTO docs (id, title, body, n, tag)
            SELECT g + 4000000, fz_text(30), fz_text(200), g % 100, 'reused'
            FROM generate_series(1, 200) g;
        INSERT INTO parts (id, title, body, n, tag)
            SELECT g + 4000000, fz_text(30), fz_text(200), g % 100, 'reused'
            FROM generate_series(1, 100) g;
        VACUUM (ANALYZE) docs, notes, parts;
    """,
}


def psql(args, script=None, timeout=None):
    return subprocess.run(["psql", "-X", "-q"] + args, input=script, capture_output=True,
                          text=True, timeout=timeout)


def psql_ok(db, script, **variables):
    args = ["-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-f", "-"]
    for name, value in variables.items():
        args += ["-v", "%s=%s" % (name, value)]
    done = psql(args, script)
    if done.returncode != 0:
        sys.exit("fuzz: setup failed: " + done.stderr.strip())
    return done.stdout


def case_seed(seed, phase, index):
    digest = hashlib.sha256(("%s/%s/%d" % (seed, phase, index)).encode()).digest()
    return int.from_bytes(digest[:8], "little")


# ------------------------------------------------------------ running cases

def case_script(case, tag):
    """psql lines running both sides of one case, with markers."""
    lines = ["\\echo @@C " + tag, "BEGIN ISOLATION LEVEL REPEATABLE READ;"]
    for side in ("on", "off"):
        lines.append("SAVEPOINT fz_side;")
        lines += ["SET LOCAL %s;" % s for s in case.settings(side)]
        for i, (sql, explain) in enumerate(case.statements(side, "%s_%s" % (tag, side))):
            if explain and side == "on":
                lines += ["SAVEPOINT fz_explain;", "\\echo @@P",
                          "EXPLAIN (COSTS OFF) %s;" % explain,
                          "ROLLBACK TO SAVEPOINT fz_explain;"]
            lines += ["\\echo @@S %s %d" % (side, i), sql + ";", "\\echo @@E :SQLSTATE"]
        lines.append("ROLLBACK TO SAVEPOINT fz_side;")
    lines += ["ROLLBACK;", "DEALLOCATE ALL;", "\\echo @@Z"]
    return "\n".join(lines) + "\n"


def parse_output(text):
    """{tag: {'plan': [lines], ('on'|'off', i): (sqlstate, [rows]), 'done': bool}}"""
    results = {}
    current = None
    key = None
    body = []
    for chunk in ("\n" + text).split("\n@@")[1:]:
        head, newline, rest = chunk.partition("\n")
        word = head.split(" ")
        if word[0] == "C":
            current = results.setdefault(word[1], {"plan": [], "done": False})
        elif current is None:
            continue
        elif word[0] == "P":
            current["plan"] += rest.splitlines()
        elif word[0] == "S":
            # "@@S ..." then nothing before the next marker: no rows; then a
            # line: the rows, RECORD-separated (the split took its newline)
            key = (word[1], int(word[2]))
            body = rest.split(RECORD) if newline else []
        elif word[0] == "E" and key is not None:
            current[key] = (word[1] if len(word) > 1 else "?", body)
            key = None
        elif word[0] == "Z":
            current["done"] = True
    return results


def run_cases(db, cases, timeout):
    """Run [(tag, case)] in one psql session; returns parse_output's dict."""
    script = "SET client_min_messages = error;\n" + "".join(case_script(c, t) for t, c in cases)
    args = ["-A", "-t", "-F", FIELD, "-R", RECORD, "-P", "null=" + NULL,
            "-v", "ON_ERROR_STOP=0", "-d", db, "-f", "-"]
    try:
        done = psql(args, script, timeout=timeout)
        out, err = done.stdout, done.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = "psql timed out after %d s" % timeout
    results = parse_output(out)
    for tag, _ in cases:
        results.setdefault(tag, {"plan": [], "done": False})["stderr"] = err
    return results


def show_rows(rows):
    return [(r if len(r) < 160 else r[:150] + "...").replace(FIELD, "|") for r in rows]


def compare(case, result):
    """'ok', 'skip', or a description of the difference."""
    if not result.get("done"):
        tail = result.get("stderr", "").strip().splitlines()[-3:]
        return "no answer (the session died?): " + " / ".join(tail)
    n = 1 if case.kind == "partition" else len(case.statements("on", "x"))
    answers = []
    for i in range(n):
        on, off = result.get(("on", i)), result.get(("off", i))
        if on is None or off is None:
            return "statement %d has no result" % i
        if on[0] in SKIP_STATES or off[0] in SKIP_STATES:
            return "skip"
        if on[0] != off[0] and (on[0] in PLAN_DEPENDENT_ERRORS or off[0] in PLAN_DEPENDENT_ERRORS):
            return "skip"
        if on[0] != off[0]:
            return "statement %d: SQLSTATE %s with gpulike, %s without" % (i, on[0], off[0])
        answers.append((i, on[1], off[1]))
    if case.kind == "cursor" and not case.ordered():
        # which rows each FETCH gets depends on the order: compare them all
        answers = [(0, sum((a[1] for a in answers), []), sum((a[2] for a in answers), []))]
    for i, rows_on, rows_off in answers:
        if not case.ordered():
            rows_on, rows_off = sorted(rows_on), sorted(rows_off)
        if rows_on != rows_off:
            only_on = sorted(set(rows_on) - set(rows_off))[:3]
            only_off = sorted(set(rows_off) - set(rows_on))[:3]
            return ("statement %d: %d rows with gpulike, %d without; only with: %s; only without: %s"
                    % (i, len(rows_on), len(rows_off), show_rows(only_on), show_rows(only_off)))
    return "ok"


def uses_gpulike(result):
    return any("GpuLike" in line for line in result.get("plan", []))


PATTERN_ARRAY = re.compile(r"ANY \(\$\d+\)")


def gpulike_ways(result):
    """The GpuLike plan's less common ways, for the summary: an OR read row
    by row ("Other Arms"), a table's patterns matched as an InitPlan's
    array (a rewritten EXISTS / ANY (subquery))."""
    plan = result.get("plan", [])
    if not uses_gpulike(result):
        return set()
    ways = set()
    if any("Other Arms:" in line for line in plan):
        ways.add("or_arms")
    if any("InitPlan" in line for line in plan) and \
            any(PATTERN_ARRAY.search(line) for line in plan):
        ways.add("pattern_array")
    return ways


def reduce_case(db, case, timeout, budget=250):
    """Remove parts of a differing case while it still differs."""
    steps = 0
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for smaller in case.shrinks():
            tries += 1
            if tries > budget:
                break
            verdict = compare(smaller, run_cases(db, [("r", smaller)], timeout).get("r", {}))
            if verdict not in ("ok", "skip") and not verdict.startswith("no answer"):
                case = smaller
                steps += 1
                improved = True
                break
    return case, steps


# ------------------------------------------------------------ phases

class Writers:
    """pgbench writing into docs and notes while a phase runs."""

    def __init__(self, db, rows):
        self.proc = subprocess.Popen(
            ["pgbench", "-n", "-c", "2", "-j", "2", "-R", "40", "-T", "100000",
             "-D", "rows=%d" % rows, "-f", os.path.join(HERE, "writer.sql"), db],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def stop(self):
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return err


def wait_ready(db):
    for _ in range(600):
        ready, total = psql_ok(db, "SELECT count(*) FILTER (WHERE state IN ('ready', 'partitioned')),"
                                   " count(*) FROM gpulike.caches;").strip().split("|")
        if ready == total != "0":
            return
        time.sleep(0.1)
    sys.exit("fuzz: the caches did not become ready: %s of %s" % (ready, total))


def setup(db, seed, rows):
    psql_ok("postgres", "SET client_min_messages = warning;\nDROP DATABASE IF EXISTS %s;\n"
                        "CREATE DATABASE %s;\n" % (db, db))
    psql_ok(db, "SET client_min_messages = warning;\nCREATE EXTENSION gpulike;\n")
    with open(os.path.join(HERE, "schema.sql")) as f:
        # setseed() takes [-1, 1]
        data_seed = case_seed(seed, "data", 0) % 2000001 / 1000000.0 - 1
        psql_ok(db, f.read(), seed="%.6f" % data_seed, rows=str(rows))
    wait_ready(db)


def run_phase(args, phase, indices, report, deadline=None):
    """Run the cases of indices in batches over args.jobs sessions; with a
    deadline (time.time()), no batch starts after it."""
    tasks = queue.Queue()
    indices = list(indices)
    for start in range(0, len(indices), args.batch):
        tasks.put(indices[start:start + args.batch])

    def work():
        while deadline is None or time.time() < deadline:
            try:
                batch = tasks.get_nowait()
            except queue.Empty:
                return
            cases = [("%s_%d" % (phase, index), make_case(case_seed(args.seed, phase, index)))
                     for index in batch]
            results = run_cases(args.db, cases, args.timeout)
            for tag, case in cases:
                report(phase, tag, case, results[tag])

    threads = [threading.Thread(target=work) for _ in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=25)
    parser.add_argument("--timeout", type=int, default=600, help="seconds per psql session")
    parser.add_argument("--deadline", type=float,
                        help="seconds for all phases: each stops starting batches after its share")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--only", help="PHASE:CASE, one case (and the phases before it)")
    parser.add_argument("--db", default="gpulike_fuzz")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--max-reports", type=int, default=10)
    args = parser.parse_args()

    phases = args.phases.split(",")
    only = None
    if args.only:
        phase, index = args.only.split(":")
        phases = phases[:phases.index(phase) + 1]
        only = (phase, int(index))
    per_phase = max(1, args.queries // len(phases))

    started = time.time()
    setup(args.db, args.seed, args.rows)
    stats = {"ok": 0, "skip": 0, "bad": 0, "gpulike": 0, "or_arms": 0, "pattern_array": 0}
    failures = []
    lock = threading.Lock()

    def report(phase, tag, case, result):
        verdict = compare(case, result)
        with lock:
            stats["gpulike"] += uses_gpulike(result)
            for way in gpulike_ways(result):
                stats[way] += 1
            if verdict == "ok":
                stats["ok"] += 1
            elif verdict == "skip":
                stats["skip"] += 1
            else:
                stats["bad"] += 1
                failures.append((phase, tag, case, verdict))
                if stats["bad"] == 1:
                    stats["first"] = stats["ok"] + stats["skip"] + stats["bad"]

    for phase in phases:
        psql_ok(args.db, PHASE_SQL[phase])
        wait_ready(args.db)
        if only and phase != only[0]:
            continue
        writers = Writers(args.db, args.rows) if phase == "writers" else None
        t0 = time.time()
        indices = [only[1]] if only else range(per_phase)
        deadline = t0 + args.deadline / len(phases) if args.deadline else None
        done_before = stats["ok"] + stats["skip"] + stats["bad"]
        run_phase(args, phase, indices, report, deadline)
        if writers:
            err = writers.stop()
            if "ERROR" in err:
                print("writers: " + err.strip().splitlines()[-1])
        print("phase %-9s %5d cases in %5.1f s"
              % (phase, stats["ok"] + stats["skip"] + stats["bad"] - done_before, time.time() - t0),
              flush=True)

    for phase, tag, case, verdict in failures[:args.max_reports]:
        print("\nMISMATCH %s (reproduce: test/fuzz/run --seed %s --rows %d --only %s)"
              % (tag, args.seed, args.rows, tag.replace("_", ":")))
        print(verdict)
        print(case.describe())
        reduced, steps = reduce_case(args.db, case, args.timeout)
        if steps:
            print("reduced in %d steps:" % steps)
            print(reduced.describe())
            print(compare(reduced, run_cases(args.db, [("r", reduced)], args.timeout)["r"]))
    total = stats["ok"] + stats["skip"] + stats["bad"]
    if stats["bad"]:
        print("\nthe first mismatch came after %d queries" % stats["first"])
    print("\nfuzz: %d queries in %.0f s, GpuLike in %d plans (%.0f%%), %d mismatches, "
          "%d skipped (serialization failures, timeouts, plan-dependent pattern errors)"
          % (total, time.time() - started, stats["gpulike"],
             100.0 * stats["gpulike"] / max(total, 1), stats["bad"], stats["skip"]))
    print("fuzz: of the GpuLike plans, %d read every row for an OR (Other Arms), "
          "%d matched patterns from a subquery as an array (InitPlan, ANY ($n))"
          % (stats["or_arms"], stats["pattern_array"]))
    if not args.keep:
        psql(["-d", "postgres", "-c", "DROP DATABASE IF EXISTS %s" % args.db])
    print("%d passed, %d failed" % (stats["ok"], stats["bad"]))
    sys.exit(1 if stats["bad"] else 0)


if __name__ == "__main__":
    main()
