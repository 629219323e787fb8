"""What each phase of the benchmark sets up, and what that costs.

- gpulike caches: gpulike.cache(table, column) for every searched column,
  then wait until gpulike.caches says ready; the load time is from the call
  to ready, the memory is what the view reports (host and device bytes).
- pg_trgm: a GIN gin_trgm_ops index per searched text column; build time
  (CREATE INDEX wall time) and size (pg_relation_size).

Both report one row per column so the runner can print them side by side.
"""

import json
import time

from psql_session import PsqlError, query_rows, query_value, run_script, timed_statement

TRGM_PREFIX = "bench_trgm_"
TRGM_BUILD_MEMORY = "1GB"


def gpulike_gucs():
    return {row[0] for row in query_rows(
        "SELECT name FROM pg_settings WHERE name LIKE 'gpulike.%'")}


def gpulike_has(object_sql):
    """Does a catalog query about gpulike's SQL objects return a row?"""
    try:
        return query_value(object_sql) == "t"
    except PsqlError:
        return False


def _cache_entry(table, column):
    """The gpulike.caches row of (table, column) as a dict, or None."""
    rows = run_script("\\echo @@rows\nSELECT row_to_json(c) FROM gpulike.caches c;\n")["rows"]
    for line in rows:
        entry = json.loads(line)
        values = [str(v) for v in entry.values()]
        if any(v == table or v.endswith("." + table) for v in values) and column in values:
            return entry
    return None


def _bytes_field(entry, word):
    """The first numeric field whose name mentions `word` and bytes."""
    for key, value in entry.items():
        if word in key and "byte" in key and isinstance(value, (int, float)):
            return int(value)
    return None


def load_caches(columns, timeout_s, log):
    """Cache every column; [{table, column, raw_bytes, seconds, host_bytes,
    device_bytes, state, error}] (raw_bytes: the column's text bytes, to
    compare the cache's footprint with)."""
    has_cache = gpulike_has("SELECT EXISTS (SELECT FROM pg_proc p JOIN pg_namespace n "
                            "ON n.oid = p.pronamespace WHERE nspname = 'gpulike' "
                            "AND proname = 'cache')")
    has_view = gpulike_has("SELECT to_regclass('gpulike.caches') IS NOT NULL")
    results = []
    for table, column in columns:
        row = {"table": table, "column": column, "seconds": None, "host_bytes": None,
               "device_bytes": None, "state": "", "error": "",
               "raw_bytes": int(query_value(f"SELECT coalesce(sum(octet_length({column})), 0) "
                                            f"FROM {table}"))}
        results.append(row)
        if not has_cache:
            row["error"] = "gpulike.cache() does not exist"
            continue
        start = time.monotonic()
        try:
            run_script(f"SELECT gpulike.cache('{table}'::regclass, '{column}');\n")
            entry = None
            while has_view:
                entry = _cache_entry(table, column)
                state = str((entry or {}).get("state", ""))
                if state.startswith(("ready", "stale", "evicted")) or \
                        time.monotonic() - start > timeout_s:
                    break
                time.sleep(0.05)
            row["seconds"] = time.monotonic() - start
            if entry:
                row["state"] = str(entry.get("state", ""))
                row["host_bytes"] = _bytes_field(entry, "host")
                row["device_bytes"] = _bytes_field(entry, "device")
            log(f"cache {table}.{column}: {row['seconds']:.2f} s, {entry}")
        except PsqlError as error:
            row["error"] = str(error)
            log(f"cache {table}.{column} failed: {error}")
    return results


def uncache(columns, log):
    for table, column in columns:
        try:
            run_script(f"SELECT gpulike.uncache('{table}'::regclass, '{column}');\n")
        except PsqlError as error:
            log(f"uncache {table}.{column}: {error}")


def drop_trgm_indexes():
    for (name,) in query_rows(f"SELECT indexrelid::regclass FROM pg_index i "
                              f"JOIN pg_class c ON c.oid = i.indexrelid "
                              f"WHERE c.relname LIKE '{TRGM_PREFIX}%'"):
        run_script(f"DROP INDEX {name};\n")


def create_trgm_indexes(columns, log):
    """One GIN trigram index per text/varchar column; build time and size."""
    run_script("CREATE EXTENSION IF NOT EXISTS pg_trgm;\n")
    results = []
    for table, column in columns:
        row = {"table": table, "column": column, "seconds": None, "bytes": None, "error": ""}
        results.append(row)
        column_type = query_value(
            f"SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            f"WHERE attrelid = '{table}'::regclass AND attname = '{column}'")
        if column_type.startswith("character(") or column_type == "bpchar":
            row["error"] = f"no trigram index: {column_type} (gin_trgm_ops is for text)"
            continue
        index = f"{TRGM_PREFIX}{table}_{column}"
        try:
            # GIN builds collect entries in maintenance_work_mem: the 64 MB
            # default makes the orders index take minutes at scale 10.
            row["seconds"] = timed_statement(
                f"CREATE INDEX {index} ON {table} USING gin ({column} gin_trgm_ops)",
                setup=f"SET maintenance_work_mem = '{TRGM_BUILD_MEMORY}';\n")
            run_script(f"ANALYZE {table};\n")
            row["bytes"] = int(query_value(f"SELECT pg_relation_size('{index}')"))
            log(f"trgm index {index}: {row['seconds']:.2f} s, {row['bytes']} bytes")
        except PsqlError as error:
            row["error"] = str(error)
            log(f"trgm index {index} failed: {error}")
    return results
