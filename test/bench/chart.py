"""Draw the benchmark chart from results.csv (needs matplotlib).

    python3 chart.py results.csv speedup.png [title]

Left: speedup of gpulike over each alternative, geometric mean per pattern
class (log scale; the line at 1 is parity, bars below it mean gpulike is
slower).  Right: every query's speedup against its selectivity (share of
rows matched, log scale), so the cost of heap fetches for unselective
patterns shows.  Queries whose selectivity is 0 are drawn at the left edge.
Points are filled where the GpuLike custom scan was used, hollow where the
planner kept a PostgreSQL plan.
"""

import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (backend must be chosen first)

ALTERNATIVES = [("pg1", "PostgreSQL 1 process"), ("pgpar", "PostgreSQL parallel"),
                ("trgm", "pg_trgm GIN")]
COLORS = {"pg1": "C0", "pgpar": "C1", "trgm": "C2"}


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def geometric_mean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def main():
    source, target = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else "gpulike speedup"
    with open(source) as f:
        rows = list(csv.DictReader(f))
    classes = []
    for row in rows:
        if row["class"] not in classes:
            classes.append(row["class"])

    fig, (by_class, by_selectivity) = plt.subplots(1, 2, figsize=(16, 6))
    width = 0.8 / len(ALTERNATIVES)
    for i, (name, label) in enumerate(ALTERNATIVES):
        means = [geometric_mean([number(r[f"speedup_vs_{name}"])
                                 for r in rows if r["class"] == cls]) or 0
                 for cls in classes]
        by_class.bar([x + i * width for x in range(len(classes))], means, width, label=label,
                     color=COLORS[name])
    by_class.set_yscale("log")
    by_class.axhline(1.0, color="black", linewidth=0.8)
    by_class.set_xticks([x + width for x in range(len(classes))])
    by_class.set_xticklabels(classes, rotation=45, ha="right")
    by_class.set_ylabel("speedup of gpulike (x, geometric mean)")
    by_class.set_title("by pattern class")
    by_class.legend()

    selectivities = [number(r["selectivity_pct"]) for r in rows]
    floor = min([s for s in selectivities if s] or [1e-4]) / 10
    for name, label in ALTERNATIVES:
        for used, marker_fill in ((True, "full"), (False, "none")):
            points = [(max(s or 0, floor), number(r[f"speedup_vs_{name}"]))
                      for r, s in zip(rows, selectivities)
                      if s is not None and number(r[f"speedup_vs_{name}"])
                      and (r["gpulike_used"] == "True") == used]
            if points:
                by_selectivity.plot([p[0] for p in points], [p[1] for p in points], "o",
                                    fillstyle=marker_fill, color=COLORS[name],
                                    label=f"vs {label}" + ("" if used else " (no GpuLike plan)"))
    by_selectivity.set_xscale("log")
    by_selectivity.set_yscale("log")
    by_selectivity.axhline(1.0, color="black", linewidth=0.8)
    by_selectivity.set_xlabel("selectivity (% of rows matched)")
    by_selectivity.set_ylabel("speedup of gpulike (x)")
    by_selectivity.set_title("by selectivity (isolated counts)")
    by_selectivity.legend(fontsize="small")

    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(target, dpi=110)


if __name__ == "__main__":
    main()
