"""The configurations every query runs under, and what plan each one got.

A configuration is only a list of SET statements; the tables, caches and
indexes it needs are set up by its phase (see the runner):

  pg1      PostgreSQL, one process: gpulike off, no parallel workers.
  pgpar    PostgreSQL, all cores: gpulike off, one worker per core, and for
           isolated counts the parallel cost knobs at zero so the planner
           really goes parallel.  Whole queries keep the default costs:
           with zero costs the planner puts Gathers inside correlated
           subplans (TPC-H Q2 ran 20x slower than with one process), which
           measures a planner artefact, not parallel PostgreSQL.
  gpulike  gpulike on with its caches loaded; PostgreSQL's default costs and
           one worker per core allowed, so the planner may still prefer a
           (parallel) sequential scan where that is cheaper -- the plan
           column shows what it picked.
  trgm     gpulike off, a pg_trgm GIN index on every searched column,
           default costs, one worker per core allowed; enable_seqscan stays
           on: the planner chooses, the plan column shows its choice.

The plan of each configuration is read from EXPLAIN (FORMAT JSON) and
summarised as the scans it uses, e.g. "Gather4: Parallel Seq Scan orders",
"Custom Scan (GpuLike) orders", "Bitmap Heap Scan orders [trgm]".
"""


class Config:
    def __init__(self, name, phase, settings, count_only_settings=()):
        self.name = name
        self.phase = phase        # "plain", "cached" or "trgm"
        self.settings = settings  # [(guc, value)]
        self.count_only_settings = list(count_only_settings)

    def set_statements(self, available_gucs, query_kind):
        """SETs for this configuration and a query kind ("count" or
        "whole"); GUCs the server lacks are skipped (so the runner works
        before gpulike defines all of its own)."""
        lines = []
        settings = self.settings + (self.count_only_settings if query_kind == "count" else [])
        for guc, value in settings:
            if guc.startswith("gpulike.") and guc not in available_gucs:
                continue
            lines.append(f"SET {guc} = {value};")
        return "\n".join(lines) + "\n"


def make_configs(cores):
    workers = [("max_parallel_workers", cores)]
    return [
        Config("pg1", "plain", [("gpulike.enabled", "off"),
                                ("max_parallel_workers_per_gather", 0)]),
        Config("pgpar", "plain", [("gpulike.enabled", "off"),
                                  ("max_parallel_workers_per_gather", cores)] + workers,
               count_only_settings=[("parallel_setup_cost", 0), ("parallel_tuple_cost", 0),
                                    ("min_parallel_table_scan_size", 0),
                                    ("min_parallel_index_scan_size", 0)]),
        Config("gpulike", "cached", [("gpulike.enabled", "on"),
                                     ("max_parallel_workers_per_gather", cores)] + workers),
        Config("trgm", "trgm", [("gpulike.enabled", "off"),
                                ("max_parallel_workers_per_gather", cores)] + workers),
    ]


def _describe_node(node):
    node_type = node.get("Node Type", "")
    if node_type == "Custom Scan":
        text = f"Custom Scan ({node.get('Custom Plan Provider', '?')})"
    elif "Index Name" in node:
        index = node["Index Name"]
        text = f"{node_type} [{'trgm' if 'trgm' in index else index}]"
    else:
        text = node_type
    if node.get("Parallel Aware") and not text.startswith("Parallel"):
        text = "Parallel " + text
    relation = node.get("Relation Name")
    return f"{text} {relation}" if relation else text


def summarize_plan(plan_json):
    """(summary text, used_gpulike, used_trgm) for an EXPLAIN JSON plan."""
    scans, gathers = [], []
    used_gpulike = used_trgm = False

    def walk(node):
        nonlocal used_gpulike, used_trgm
        node_type = node.get("Node Type", "")
        if node_type in ("Gather", "Gather Merge"):
            gathers.append(node.get("Workers Planned", 0))
        if "Scan" in node_type and node_type != "Subquery Scan":
            described = _describe_node(node)
            if described not in scans:
                scans.append(described)
        if "gpulike" in str(node.get("Custom Plan Provider", "")).lower():
            used_gpulike = True
        if "trgm" in str(node.get("Index Name", "")):
            used_trgm = True
        for child in node.get("Plans", []):
            walk(child)

    walk(plan_json[0]["Plan"])
    prefix = f"Gather{max(gathers)}: " if gathers else ""
    # Bitmap Index Scans are summarised by their heap scan's [trgm] tag.
    shown = [s for s in scans if not s.startswith("Bitmap Index Scan")]
    if used_trgm:
        shown = [s + " [trgm]" if s.startswith(("Bitmap Heap", "Parallel Bitmap Heap")) else s
                 for s in shown]
    return prefix + ", ".join(shown), used_gpulike, used_trgm
