"""Each phase's results on disk, so that phases can run in separate calls.

A GPU host may limit one command to a few minutes, less than a large run
takes.  The runner therefore saves every phase it finishes to
OUT/phase-NAME.json (its measurements, and the setup it measured: cache
loads or index builds) and builds its report from all phase files in OUT
that were made at the same scale factor, whichever invocation made them:

    run --scale 10 --load-only
    run --scale 10 --reuse --phases plain
    run --scale 10 --reuse --phases cached
    run --scale 10 --reuse --phases trgm       (the report now has all four)

Running a phase again (say, with --only for the queries a deadline cut
off) replaces the saved measurements of the queries it runs and keeps the
others; the setup is that of the latest run.
"""

import datetime
import json
import os

from measure import Measurement

PHASES = ["plain", "cached", "trgm"]


def _path(out, phase):
    return os.path.join(out, f"phase-{phase}.json")


def _read(out, phase):
    try:
        with open(_path(out, phase)) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def save_phase(out, phase, scale, measurements, setup, context):
    """measurements: [Measurement]; setup: list of per-column dicts;
    context: what a report needs besides them ("header", "table_rows", "cores",
    "samples": the sampled queries' literals),
    so that --report-only can rebuild the outputs without a database."""
    earlier = _read(out, phase)
    run_now = {m.query for m in measurements}
    kept = []
    if earlier and earlier["scale"] == scale:
        kept = [e for e in earlier["measurements"] if e["query"] not in run_now]
    saved = {"phase": phase, "scale": scale,
             "finished": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             "measurements": kept + [m.to_dict() for m in measurements],
             "setup": setup, "context": context}
    with open(_path(out, phase), "w") as f:
        json.dump(saved, f, indent=1)


def load_phases(out, scale):
    """All saved phases at this scale: ({query: {config: Measurement}},
    {phase: setup list}, ["phase finished at ..."], context of the latest)."""
    measurements, setups, notes = {}, {}, []
    context, latest = None, ""
    for phase in PHASES:
        saved = _read(out, phase)
        if saved is None:
            continue
        if saved["scale"] != scale:
            notes.append(f"{phase}: ignored, made at scale {saved['scale']:g}")
            continue
        for entry in saved["measurements"]:
            m = Measurement.from_dict(entry)
            measurements.setdefault(m.query, {})[m.config] = m
        setups[phase] = saved["setup"]
        notes.append(f"{phase} finished {saved['finished']}")
        if saved["finished"] >= latest:
            context, latest = saved["context"], saved["finished"]
    return measurements, setups, notes, context
