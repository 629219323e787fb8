/* gpulike--1.1--1.2.sql */

\echo Use "ALTER EXTENSION gpulike UPDATE TO '1.2'" to load this file. \quit

-- ==== who may cache: caches take memory and registry slots shared by
-- ==== every database and role, so cache() needs a superuser or a member
-- ==== of gpulike_cache.  A role belongs to the cluster, not to one
-- ==== database: the first database to install gpulike 1.2 makes it, and
-- ==== DROP EXTENSION leaves it.

DO $$
BEGIN
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'gpulike_cache') THEN
		CREATE ROLE gpulike_cache NOLOGIN;
		COMMENT ON ROLE gpulike_cache IS
			'Members may cache columns of tables they own with gpulike.cache()';
	END IF;
END $$;

COMMENT ON FUNCTION gpulike.cache(regclass, name) IS
	'Cache a text column (of every leaf partition of a partitioned table, present and future) and keep it in sync; requires table ownership, and a superuser or a member of gpulike_cache';

-- ==== a cached partitioned table is registered too, so that the
-- ==== partitions it gets later are cached: caches lists it as
-- ==== 'partitioned' (its partitions have rows of their own); and a
-- ==== column's values may be kept in a file (gpulike.values_directory):
-- ==== file_bytes, beside host_bytes, which no longer counts them

DROP VIEW gpulike.caches;
DROP FUNCTION gpulike.cache_slots();
CREATE FUNCTION gpulike.cache_slots(
	OUT relid oid,
	OUT attnum smallint,
	OUT state text,
	OUT rows bigint,
	OUT host_bytes bigint,
	OUT device_bytes bigint,
	OUT device text,
	OUT pending_deltas bigint,
	OUT queries_served bigint,
	OUT gpus integer[],
	OUT gpu_bytes bigint[],
	OUT progress integer,
	OUT stale_reason text,
	OUT file_bytes bigint)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gl_cache_slots_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpulike.cache_slots() IS
	'The shared registry of caches in this database, one row per slot (see the view gpulike.caches)';

-- One row per registered column.  A registered column with no data in
-- memory (just after a restart, or evicted) shows as 'evicted'; a
-- partitioned table's as 'partitioned'.  progress: percent of a load done
-- (100 when ready).  host_bytes: memory; file_bytes: the file holding its
-- values where gpulike.values_directory is set (0: they are in memory).
-- gpus and gpu_bytes list the parts of the GPU copy: the GPU and bytes of
-- each.
CREATE VIEW gpulike.caches AS
	SELECT r.relid AS relation,
		   r.attname,
		   CASE WHEN c.relkind = 'p' THEN 'partitioned'
				ELSE coalesce(s.state, 'evicted') END AS state,
		   s.progress,
		   s.stale_reason,
		   coalesce(s.rows, 0) AS rows,
		   coalesce(s.host_bytes, 0) AS host_bytes,
		   coalesce(s.file_bytes, 0) AS file_bytes,
		   coalesce(s.device_bytes, 0) AS device_bytes,
		   s.device,
		   coalesce(s.pending_deltas, 0) AS pending_deltas,
		   coalesce(s.queries_served, 0) AS queries_served,
		   s.gpus,
		   s.gpu_bytes
	FROM gpulike.cached_columns r
	LEFT JOIN pg_catalog.pg_class c ON c.oid = r.relid
	LEFT JOIN pg_catalog.pg_attribute a
		ON a.attrelid = r.relid AND a.attname = r.attname AND NOT a.attisdropped
	LEFT JOIN gpulike.cache_slots() s
		ON s.relid = r.relid AND s.attnum = a.attnum;
GRANT SELECT ON gpulike.caches TO PUBLIC;
COMMENT ON VIEW gpulike.caches IS
	'One row per registered column: state, rows, memory on host and GPUs, values'' file, pending changes, queries served';

-- ==== statistics: copies the server dropped because the caches passed
-- ==== gpulike.host_memory (or it ran out of memory applying changes)

DROP VIEW gpulike.stat_caches;
DROP FUNCTION gpulike.cache_stats();
CREATE FUNCTION gpulike.cache_stats(
	OUT relid oid,
	OUT attnum smallint,
	OUT requests bigint,
	OUT candidates bigint,
	OUT rows_returned bigint,
	OUT engine_ms float8,
	OUT gpu_fallbacks bigint,
	OUT heap_fallbacks bigint,
	OUT last_fallback text,
	OUT last_fallback_at timestamptz,
	OUT loads bigint,
	OUT last_load_at timestamptz,
	OUT last_load_seconds float8,
	OUT gpu_evictions bigint,
	OUT delta_overflows bigint,
	OUT stats_reset timestamptz,
	OUT memory_drops bigint)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gl_cache_stats_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpulike.cache_stats() IS
	'Cumulative statistics of this database''s cached columns, one row per slot (see the view gpulike.stat_caches)';

-- One row per registered column, as pg_stat_user_tables has one per table:
-- requests the server answered and their candidates and engine time, rows
-- the scans returned, fallbacks (to the CPU engine after a GPU failure, to
-- the heap when the server could not answer) with the last one's reason,
-- loads and rebuilds, GPU evictions, delta-log overflows, copies dropped
-- for host memory.
CREATE VIEW gpulike.stat_caches AS
	SELECT r.relid AS relation,
		   r.attname,
		   s.requests, s.candidates, s.rows_returned, s.engine_ms,
		   s.gpu_fallbacks, s.heap_fallbacks, s.last_fallback, s.last_fallback_at,
		   s.loads, s.last_load_at, s.last_load_seconds,
		   s.gpu_evictions, s.delta_overflows, s.memory_drops, s.stats_reset
	FROM gpulike.cached_columns r
	LEFT JOIN pg_catalog.pg_attribute a
		ON a.attrelid = r.relid AND a.attname = r.attname AND NOT a.attisdropped
	LEFT JOIN gpulike.cache_stats() s
		ON s.relid = r.relid AND s.attnum = a.attnum;
GRANT SELECT ON gpulike.stat_caches TO PUBLIC;
COMMENT ON VIEW gpulike.stat_caches IS
	'Cumulative statistics per cached column: requests, candidates, rows, engine time, fallbacks, loads, evictions, overflows, memory drops';

-- ==== status() says why the server uses the CPU engine: no usable GPU (and
-- ==== why: none present, no driver, compute capability below 8.0), or
-- ==== gpulike.device = cpu; and the bytes of the columns' values' files

DROP FUNCTION gpulike.status();
CREATE FUNCTION gpulike.status(
	OUT server text,
	OUT engine text,
	OUT device_name text,
	OUT device_memory_total_mb bigint,
	OUT device_memory_free_mb bigint,
	OUT cpu_threads integer,
	OUT server_pid integer,
	OUT server_uptime interval,
	OUT caches integer,
	OUT host_bytes bigint,
	OUT device_bytes bigint,
	OUT device_count integer,
	OUT cpu_reason text,
	OUT file_bytes bigint)
	AS 'MODULE_PATHNAME', 'gl_status'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpulike.status() IS
	'The gpulike server: running or not, engine, GPUs (the first one''s name, memory of all), threads, pid, uptime, memory held, why the CPU engine, bytes of values'' files';

-- ==== cpu_engine_benchmark() was a benchmark, not part of the product:
-- ==== test/bench/cpu_engine.sql brings its own module now.

DROP FUNCTION gpulike.cpu_engine_benchmark(regclass, name, text, text);
