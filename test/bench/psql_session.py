"""Talking to PostgreSQL through psql (the benchmark uses no driver).

Every script runs in one psql process (one backend), with ON_ERROR_STOP,
unaligned tuples-only output, and marker lines (\\echo @@name) that split
the output into sections.  Timings come from psql's \\timing, i.e. the wall
time of each statement as the client sees it: parse, plan, execute and
transfer, what a user waits for.
"""

import re
import subprocess

TIME_LINE = re.compile(r"^Time: ([0-9.]+) ms")


class PsqlError(Exception):
    pass


def run_script(script, timeout=None):
    """Run a psql script; return its stdout split into marked sections.

    Returns {marker: [lines]}; lines before the first marker are dropped.
    Raises PsqlError with psql's message when a statement fails.
    """
    try:
        done = subprocess.run(
            ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", "-"],
            input=script, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise PsqlError(f"psql timed out after {timeout} s")
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()
        raise PsqlError(message[-1] if message else f"psql exited {done.returncode}")
    sections = {}
    current = None
    for line in done.stdout.splitlines():
        if line.startswith("@@"):
            current = line[2:].strip()
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    return sections


def query_value(sql):
    """First column of the first row of one statement, as text ('' if none)."""
    lines = run_script("\\echo @@value\n" + sql + ";\n")["value"]
    return lines[0] if lines else ""


def query_rows(sql):
    """All rows of one statement, each a list of '|'-separated fields."""
    return [line.split("|") for line in run_script("\\echo @@rows\n" + sql + ";\n")["rows"]]


def timed_statement(sql, setup=""):
    """Run `setup` (untimed), then one statement; return the statement's
    wall time in seconds (psql's \\timing)."""
    lines = run_script(setup + "\\timing on\n\\echo @@timed\n" + sql + ";\n")["timed"]
    return split_timings(lines)[1][0] / 1000.0


def split_timings(lines):
    """Separate result lines from \\timing lines: (result_lines, [ms, ...])."""
    results, times = [], []
    for line in lines:
        match = TIME_LINE.match(line)
        if match:
            times.append(float(match.group(1)))
        else:
            results.append(line)
    return results, times
