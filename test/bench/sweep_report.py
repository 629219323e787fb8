"""The selectivity sweep's outputs: sweep.txt, sweep.csv and sweep.png.

Per point: the share of orders rows its predicate matches, the median time
of each configuration, the plan the planner chose (gpulike), that plan's
time over the best of pg1, pgpar, gl-serial and gl-parallel (the target:
at most 1.1), and gpulike's speedup over PostgreSQL with all its workers
(pgpar) and with one process (pg1).

The chosen plan is often the very plan a forced configuration ran; its
time is then the faster of the two medians of that one plan, so that the
ratio judges the choice and not the noise between two measurements of the
same plan ("same plan" = the same plan summary: scans, workers).
"""

import csv
import math
import os
import re
import statistics
import subprocess
import sys

CONFIGS = ["pg1", "pgpar", "gpulike", "gl-serial", "gl-parallel"]
BEST_OF = ["pg1", "pgpar", "gl-serial", "gl-parallel"]
CHOSEN_LIMIT = 1.1


def median(m):
    return statistics.median(m["times_ms"]) if m and m["times_ms"] and not m["error"] else None


def short_plan(plan):
    """The plan in a few words: GpuLike or not, serial or parallel, and
    whether the scan counted the rows itself (no relation named)."""
    if "GpuLike" not in plan:
        return plan[:40]
    kind = "parallel" if plan.startswith("Gather") else "serial"
    counted = re.search(r"Custom Scan \(GpuLike\)(?! \w)", plan) is not None
    return f"GpuLike {kind}{' count' if counted else ''}"


def rows_of(saved):
    """One dict per measured point, in sweep order."""
    by_point = {}
    for m in saved["measurements"]:
        by_point.setdefault(m["point"], {})[m["config"]] = m
    total = saved["header"]["rows"]
    counts = {}
    for name, ms in by_point.items():
        if name.endswith("-count"):
            for m in ms.values():
                if not m["error"] and m["result"]:
                    counts[name[:-len("-count")]] = int(m["result"])
                    break
    result = []
    for point in saved["points"]:
        ms = by_point.get(point["name"])
        if not ms:
            continue
        row = {"point": point["name"], "class": point["cls"], "form": point["form"],
               "sql": point["sql"]}
        stem = point["name"].rsplit("-", 1)[0]
        matched = counts.get(stem)
        row["selectivity_pct"] = 100.0 * matched / total if matched is not None else None
        for c in CONFIGS:
            row[f"{c}_ms"] = median(ms.get(c))
            row[f"{c}_plan"] = (ms[c]["error"] or ms[c]["plan"]) if c in ms else ""
        reference = next((ms[c] for c in CONFIGS if c in ms and not ms[c]["error"]), None)
        problems = []
        row["failed"] = []
        for c, m in ms.items():
            problem = None
            if m["error"]:
                problem = f"{c}: {m['error'][-60:]}"
                if "deadline" in m["error"] or "statement timeout" in m["error"]:
                    problems.append(problem)    # not measured, not wrong
                    continue
            elif reference is not None and m["result"] != reference["result"]:
                problem = f"{c} differs"
            if problem:
                problems.append(problem)
                row["failed"].append(problem)
        row["verdict"] = "ok" if not problems else "; ".join(problems)
        best = [row[f"{c}_ms"] for c in BEST_OF if row.get(f"{c}_ms") is not None]
        chosen = row["gpulike_ms"]
        same_plan = [row[f"{c}_ms"] for c in BEST_OF if row.get(f"{c}_ms") is not None
                     and c in ms and ms[c]["plan"] == ms.get("gpulike", {}).get("plan")]
        chosen_plan_ms = min([chosen] + same_plan) if chosen else None
        row["chosen_over_best"] = chosen_plan_ms / min(best) if chosen and best else None
        row["x_pgpar"] = row["pgpar_ms"] / chosen if chosen and row["pgpar_ms"] else None
        row["x_pg1"] = row["pg1_ms"] / chosen if chosen and row["pg1_ms"] else None
        row["chosen_plan"] = short_plan(row["gpulike_plan"])
        result.append(row)
    return result


def fmt(value, digits=1):
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def table(rows):
    head = ["point", "sel%", "pg1", "pgpar", "gpulike", "gl-serial", "gl-par",
            "chosen plan", "chosen/best", "x pgpar", "x pg1", "result"]
    lines = [head]
    for r in rows:
        lines.append([r["point"], fmt(r["selectivity_pct"], 4)] +
                     [fmt(r[f"{c}_ms"], 2) for c in CONFIGS] +
                     [r["chosen_plan"], fmt(r["chosen_over_best"], 2), fmt(r["x_pgpar"], 1),
                      fmt(r["x_pg1"], 1), r["verdict"][:50]])
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip()
                     for line in lines)


def targets(rows):
    """What the issue asks, measured: chosen within 1.1x of the best, and
    speedups over pgpar by form."""
    out = []
    judged = [r for r in rows if r["chosen_over_best"] is not None and r["form"] != "whole"]
    within = [r for r in judged if r["chosen_over_best"] <= CHOSEN_LIMIT]
    out.append(f"planner's choice within {CHOSEN_LIMIT}x of the best plan: "
               f"{len(within)} of {len(judged)} points")
    for r in judged:
        if r["chosen_over_best"] > CHOSEN_LIMIT:
            out.append(f"  {r['point']}: {r['chosen_plan']} {fmt(r['gpulike_ms'], 2)} ms, "
                       f"{fmt(r['chosen_over_best'], 2)}x the best")
    for form in ("count", "rows"):
        for cls in sorted({r["class"] for r in rows if r["form"] == form}):
            xs = [r["x_pgpar"] for r in rows if r["form"] == form and r["class"] == cls
                  and r["x_pgpar"] is not None]
            if xs:
                out.append(f"{form:5} {cls:9} x pgpar: min {min(xs):.1f}, median "
                           f"{statistics.median(xs):.1f}, max {max(xs):.1f} ({len(xs)} points)")
    for r in rows:
        if r["form"] == "whole":
            out.append(f"{r['point']}: gpulike {fmt(r['gpulike_ms'], 1)} ms ({r['chosen_plan']}), "
                       f"pgpar {fmt(r['pgpar_ms'], 1)} ms, pg1 {fmt(r['pg1_ms'], 1)} ms: "
                       f"x pgpar {fmt(r['x_pgpar'], 2)}")
    return "\n".join(out)


def write_csv(path, rows):
    fields = ["point", "class", "form", "selectivity_pct"] + \
        [f"{c}_ms" for c in CONFIGS] + [f"{c}_plan" for c in CONFIGS] + \
        ["chosen_plan", "chosen_over_best", "x_pgpar", "x_pg1", "verdict", "sql"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def draw(out, title, nladder_points):
    if nladder_points == 0:
        return "none: no ladder points"
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and subprocess.run(
                [python, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            done = subprocess.run([python, os.path.join(os.path.dirname(__file__), "sweep_chart.py"),
                                   os.path.join(out, "sweep.csv"), os.path.join(out, "sweep.png"),
                                   title], capture_output=True, text=True)
            return "sweep.png" if done.returncode == 0 else f"chart failed: {done.stderr[-200:]}"
    return "no chart: matplotlib not importable (apt-get install python3-matplotlib)"


def write(out, saved):
    """All outputs; returns the exit status (1 if a comparison failed)."""
    rows = rows_of(saved)
    h = saved["header"]
    write_csv(os.path.join(out, "sweep.csv"), rows)
    chart = draw(out, f"gpulike selectivity sweep, TPC-H SF {h['scale']:g}, {h['cores']} cores",
                 len([r for r in rows if r["form"] != "whole"]))
    failed = sum(len(r["failed"]) for r in rows)
    passed = sum(len([c for c in CONFIGS if r.get(f"{c}_ms") is not None]) - 1
                 for r in rows if not r["failed"])
    text = "\n\n".join([
        f"gpulike selectivity sweep  {h['date']}\nserver: {h['server']}\n"
        f"gpulike.status(): {h['status']}\n"
        f"scale {h['scale']:g} ({h['rows']} orders rows), {h['cores']} cores, shared_buffers "
        f"{h['shared_buffers']}, huge_pages {h['huge_pages']}, caches loaded in "
        f"{h['cache_seconds']} s; times in ms, warm, median of {h['repeats']} runs\n"
        f"parallel_setup_cost {'of the gpulike configuration' if h.get('calibration_used', True) else 'measured (not used: --defaults)'}: "
        f"{h['parallel_setup_cost']} "
        f"(a parallel query's start measured at {h['parallel_overhead_ms']} ms, "
        f"{h['units_per_ms']} cost units per ms of a sequential scan); gpulike.page_cost: "
        f"{h.get('page_cost', 'default')} (a sparse answer's candidate page, measured)",
        "configurations: pg1 = PostgreSQL 1 process; pgpar = PostgreSQL, a worker per core, "
        "parallel costs zeroed; gpulike = the planner's choice with gpulike on (" +
        ("default costs, parallel_setup_cost and gpulike.page_cost calibrated); "
         if h.get('calibration_used', True) else "the server's settings, nothing calibrated); ") +
        "gl-serial / gl-par = the GpuLike scan forced serial / parallel.  chosen/best = gpulike "
        "over the best of pg1, pgpar, gl-serial, gl-par; x pgpar, x pg1 = their time over gpulike's",
        table(rows), targets(rows), f"chart: {chart}", f"{passed} passed, {failed} failed"])
    with open(os.path.join(out, "sweep.txt"), "w") as f:
        f.write(text + "\n")
    print(text)
    return 1 if failed else 0
