"""Draw the selectivity sweep from sweep.csv (needs matplotlib).

    python3 sweep_chart.py sweep.csv sweep.png [title]

One panel per pattern class and form (count / rows): the time of every
configuration against the share of rows matched (log scales; points that
match nothing are drawn at the left edge).  The planner's choice (gpulike)
is the thick line.
"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (backend must be chosen first)

LINES = [("pg1", "PostgreSQL, 1 process", "C0", 1.2),
         ("pgpar", "PostgreSQL, all workers", "C1", 1.2),
         ("gl-serial", "GpuLike forced serial", "C2", 1.0),
         ("gl-parallel", "GpuLike forced parallel", "C4", 1.0),
         ("gpulike", "planner's choice (gpulike on)", "k", 2.5)]


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    title = sys.argv[3] if len(sys.argv) > 3 else "gpulike selectivity sweep"
    classes = sorted({r["class"] for r in rows if r["form"] != "whole"})
    forms = ["count", "rows"]
    fig, axes = plt.subplots(len(classes), 2, figsize=(12, 3.2 * len(classes)), squeeze=False)
    for i, cls in enumerate(classes):
        for j, form in enumerate(forms):
            ax = axes[i][j]
            points = [r for r in rows if r["class"] == cls and r["form"] == form
                      and number(r["selectivity_pct"]) is not None]
            floor = min([number(r["selectivity_pct"]) for r in points
                         if number(r["selectivity_pct"])] or [1e-4]) / 3
            for config, label, color, width in LINES:
                xy = sorted((max(number(r["selectivity_pct"]), floor), number(r[f"{config}_ms"]))
                            for r in points if number(r[f"{config}_ms"]) is not None)
                if xy:
                    ax.plot([x for x, _ in xy], [y for _, y in xy], marker="o", markersize=3,
                            color=color, linewidth=width, label=label)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{cls}: {'count(*)' if form == 'count' else 'sum(o_totalprice)'}",
                         fontsize=9)
            ax.set_xlabel("% of rows matched", fontsize=8)
            ax.set_ylabel("ms", fontsize=8)
            ax.grid(True, which="both", alpha=0.3)
            if i == 0 and j == 0:
                ax.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=90)


if __name__ == "__main__":
    main()
