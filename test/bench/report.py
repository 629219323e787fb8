"""The benchmark's outputs: the text table, results.csv, setup.csv.

Speedup "x pg1" is (time of pg1) / (time of gpulike): above 1 gpulike is
faster, below 1 it is slower -- every configuration is always shown,
whichever way the ratio goes.  The "gpulike plan" column says whether the
GpuLike custom scan was actually used; when it was not, the gpulike time
is PostgreSQL's own plan with the extension loaded.
"""

import csv
import math

CONFIG_ORDER = ["pg1", "pgpar", "trgm", "gpulike"]


def ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator <= 0:
        return None
    return numerator / denominator


def fmt(value, digits=2):
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _plan_or_problem(m):
    if m is None:
        return "NOT RUN"
    if m.timed_out:
        return "TIMEOUT"
    if m.skipped:
        return "SKIPPED"
    return "ERROR: " + m.error if m.error else m.plan


def _time_cell(row, name):
    plan = row[f"{name}_plan"]
    return plan.lower() if plan in ("TIMEOUT", "SKIPPED", "NOT RUN") else fmt(row[f"{name}_ms"])


def query_rows(queries, measurements, table_rows):
    """One dict per query: times, plans, speedups, selectivity, verdict."""
    rows = []
    for query in queries:
        by_config = measurements.get(query.name, {})
        row = {"query": query.name, "class": query.cls, "kind": query.kind,
               "predicate": query.text()}
        finished = [m for n, m in sorted(by_config.items(), key=lambda i: CONFIG_ORDER.index(i[0]))
                    if not m.error]
        matched = finished[0].rows if finished else None
        total = table_rows.get(query.table) if query.kind == "count" else None
        row["rows"] = matched
        row["selectivity_pct"] = (100.0 * matched / total
                                  if matched is not None and total else None)
        for name in CONFIG_ORDER:
            m = by_config.get(name)
            row[f"{name}_ms"] = m.median_ms if m else None
            row[f"{name}_first_ms"] = m.first_ms if m else None
            row[f"{name}_runs"] = len(m.times_ms) if m else 0
            row[f"{name}_plan"] = _plan_or_problem(m)
        for name in ("pg1", "pgpar", "trgm"):
            row[f"speedup_vs_{name}"] = ratio(row[f"{name}_ms"], row["gpulike_ms"])
        gl = by_config.get("gpulike")
        tg = by_config.get("trgm")
        row["gpulike_used"] = bool(gl and gl.used_gpulike)
        row["trgm_used"] = bool(tg and tg.used_trgm)
        row["verdict"] = query.verdict
        rows.append(row)
    return rows


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: fmt(v, 4) if isinstance(v, float) else v for k, v in row.items()})


def _short_plan(row, name, flag):
    plan = row[f"{name}_plan"]
    if plan.startswith(("ERROR", "TIMEOUT", "SKIPPED", "NOT RUN")):
        return plan[:34]
    if row[flag]:
        return "GpuLike" if name == "gpulike" else "trgm index"
    return ("no: " + plan)[:34]


def format_table(rows):
    header = (f"{'query':<24} {'class':<12} {'sel%':>8} {'rows':>9} "
              f"{'pg1 ms':>9} {'pgpar ms':>9} {'trgm ms':>9} {'gpulike ms':>10} "
              f"{'x pg1':>7} {'x pgpar':>7} {'x trgm':>7}  {'gpulike plan':<34} "
              f"{'trgm plan':<34} result")
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row['query'][:24]:<24} {row['class'][:12]:<12} "
            f"{fmt(row['selectivity_pct'], 3):>8} {fmt(row['rows']):>9} "
            f"{_time_cell(row, 'pg1'):>9} {_time_cell(row, 'pgpar'):>9} "
            f"{_time_cell(row, 'trgm'):>9} {_time_cell(row, 'gpulike'):>10} "
            f"{fmt(row['speedup_vs_pg1']):>7} "
            f"{fmt(row['speedup_vs_pgpar']):>7} {fmt(row['speedup_vs_trgm']):>7}  "
            f"{_short_plan(row, 'gpulike', 'gpulike_used'):<34} "
            f"{_short_plan(row, 'trgm', 'trgm_used'):<34} {row['verdict']}")
    return "\n".join(lines)


def geometric_mean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def format_class_summary(rows):
    """Geometric-mean speedup of gpulike per pattern class."""
    classes = []
    for row in rows:
        if row["class"] not in classes:
            classes.append(row["class"])
    lines = [f"{'class':<14} {'queries':>7} {'GpuLike used':>12} "
             f"{'x pg1':>7} {'x pgpar':>7} {'x trgm':>7}   (geometric means)"]
    for cls in classes:
        members = [r for r in rows if r["class"] == cls]
        lines.append(
            f"{cls:<14} {len(members):>7} {sum(r['gpulike_used'] for r in members):>12} "
            + " ".join(f"{fmt(geometric_mean([r[f'speedup_vs_{n}'] for r in members])):>7}"
                       for n in ("pg1", "pgpar", "trgm")))
    return "\n".join(lines)


def _by_column(entries):
    return {(e["table"], e["column"]): e for e in entries}


def format_setup(columns, caches, indexes):
    """gpulike cache load time and memory against trgm index build time and size."""
    def mb(value):
        return f"{value / 1048576:.1f}" if value is not None else "-"

    lines = [f"{'column':<22} {'raw MB':>8} {'cache load s':>12} {'host MB':>8} {'device MB':>9} "
             f"{'state':<10} {'trgm build s':>12} {'trgm MB':>8}  notes"]
    cache_of, index_of = _by_column(caches), _by_column(indexes)
    for column in columns:
        cache, index = cache_of.get(column, {}), index_of.get(column, {})
        notes = "; ".join(n for n in (cache.get("error"), index.get("error")) if n)
        lines.append(
            f"{column[0] + '.' + column[1]:<22} {mb(cache.get('raw_bytes')):>8} "
            f"{fmt(cache.get('seconds'), 3):>12} {mb(cache.get('host_bytes')):>8} "
            f"{mb(cache.get('device_bytes')):>9} {cache.get('state', '')[:10]:<10} "
            f"{fmt(index.get('seconds'), 3):>12} {mb(index.get('bytes')):>8}  {notes}")
    return "\n".join(lines)


def write_setup_csv(path, columns, caches, indexes):
    cache_of, index_of = _by_column(caches), _by_column(indexes)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["table", "column", "raw_bytes", "cache_load_s", "cache_host_bytes",
                         "cache_device_bytes", "cache_state", "cache_error",
                         "trgm_build_s", "trgm_bytes", "trgm_error"])
        for column in columns:
            cache, index = cache_of.get(column, {}), index_of.get(column, {})
            writer.writerow([column[0], column[1], cache.get("raw_bytes"),
                             fmt(cache.get("seconds"), 4), cache.get("host_bytes"),
                             cache.get("device_bytes"), cache.get("state"), cache.get("error"),
                             fmt(index.get("seconds"), 4), index.get("bytes"),
                             index.get("error")])
