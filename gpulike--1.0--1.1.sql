/* gpulike--1.0--1.1.sql */

\echo Use "ALTER EXTENSION gpulike UPDATE TO '1.1'" to load this file. \quit

-- ==== several GPUs: status() counts them, devices() lists them, and caches
-- ==== shows which GPUs hold the parts of each column; caches names its
-- ==== column attname, gives load progress apart from state, and says why a
-- ==== cache is stale

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
	OUT device_count integer)
	AS 'MODULE_PATHNAME', 'gl_status'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpulike.status() IS
	'The gpulike server: running or not, engine, GPUs (the first one''s name, memory of all), threads, pid, uptime, memory held';

CREATE FUNCTION gpulike.devices(
	OUT device integer,
	OUT name text,
	OUT memory_total_mb bigint,
	OUT memory_free_mb bigint,
	OUT cache_bytes bigint)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gl_devices'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpulike.devices() IS
	'One row per GPU the gpulike server uses: name, memory, bytes of cached columns held there';

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
	OUT stale_reason text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gl_cache_slots_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

-- One row per registered column.  A registered column with no data in
-- memory (just after a restart, or evicted) shows as 'evicted'.  progress:
-- percent of a load done (100 when ready).  gpus and gpu_bytes list the
-- parts of the GPU copy: the GPU and bytes of each.
CREATE VIEW gpulike.caches AS
	SELECT r.relid AS relation,
		   r.attname,
		   coalesce(s.state, 'evicted') AS state,
		   s.progress,
		   s.stale_reason,
		   coalesce(s.rows, 0) AS rows,
		   coalesce(s.host_bytes, 0) AS host_bytes,
		   coalesce(s.device_bytes, 0) AS device_bytes,
		   s.device,
		   coalesce(s.pending_deltas, 0) AS pending_deltas,
		   coalesce(s.queries_served, 0) AS queries_served,
		   s.gpus,
		   s.gpu_bytes
	FROM gpulike.cached_columns r
	LEFT JOIN pg_catalog.pg_attribute a
		ON a.attrelid = r.relid AND a.attname = r.attname AND NOT a.attisdropped
	LEFT JOIN gpulike.cache_slots() s
		ON s.relid = r.relid AND s.attnum = a.attnum;
GRANT SELECT ON gpulike.caches TO PUBLIC;

-- ==== a tidier API: NULL arguments are errors, explain_pattern's operator
-- ==== defaults to LIKE, debugging functions are not for PUBLIC, everything
-- ==== has a comment

ALTER FUNCTION gpulike.cache(regclass, name) CALLED ON NULL INPUT;
ALTER FUNCTION gpulike.uncache(regclass, name) CALLED ON NULL INPUT;

CREATE OR REPLACE FUNCTION gpulike.explain_pattern(pattern text, op text DEFAULT '~~')
RETURNS text
AS 'MODULE_PATHNAME', 'gl_explain_pattern'
LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION gpulike.explain_pattern(text, text) IS
	'The matcher a pattern compiles to under an operator (~~ by default): algorithm, segments, DFA states';

CREATE OR REPLACE FUNCTION gpulike.explain_any(patterns text[], op text DEFAULT '~~')
RETURNS text
AS 'MODULE_PATHNAME', 'gl_explain_any'
LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION gpulike.explain_any(text[], text) IS
	'The matcher of op ANY (patterns) (~~ by default): Aho-Corasick, a DFA, or one matcher per pattern';

COMMENT ON FUNCTION gpulike.program_bytes(text, text) IS
	'For debugging: the compiled program of a pattern, as the server receives it';
COMMENT ON FUNCTION gpulike.program_bytes_any(text[], text) IS
	'For debugging: the compiled program of op ANY (patterns), as the server receives it';
REVOKE EXECUTE ON FUNCTION gpulike.program_bytes(text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION gpulike.program_bytes_any(text[], text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION gpulike.cpu_engine_benchmark(regclass, name, text, text) FROM PUBLIC;

COMMENT ON FUNCTION gpulike.registration_added() IS
	'Trigger on gpulike.cached_columns: a registration restored by pg_restore gets its cache loaded';
COMMENT ON FUNCTION gpulike.sync_row() IS
	'Trigger on cached tables: logs each new row version for the caches';
COMMENT ON FUNCTION gpulike.sync_truncate() IS
	'Trigger on cached tables: TRUNCATE makes their caches stale';
COMMENT ON FUNCTION gpulike.cache_slots() IS
	'The shared registry of caches in this database, one row per slot (see the view gpulike.caches)';
COMMENT ON VIEW gpulike.caches IS
	'One row per registered column: state, rows, memory on host and GPUs, pending changes, queries served';

-- ==== cumulative statistics per cached column

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
	OUT stats_reset timestamptz)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gl_cache_stats_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpulike.cache_stats() IS
	'Cumulative statistics of this database''s cached columns, one row per slot (see the view gpulike.stat_caches)';

-- One row per registered column, as pg_stat_user_tables has one per table:
-- requests the server answered and their candidates and engine time, rows
-- the scans returned, fallbacks (to the CPU engine after a GPU failure, to
-- the heap when the server could not answer) with the last one's reason,
-- loads and rebuilds, GPU evictions, delta-log overflows.
CREATE VIEW gpulike.stat_caches AS
	SELECT r.relid AS relation,
		   r.attname,
		   s.requests, s.candidates, s.rows_returned, s.engine_ms,
		   s.gpu_fallbacks, s.heap_fallbacks, s.last_fallback, s.last_fallback_at,
		   s.loads, s.last_load_at, s.last_load_seconds,
		   s.gpu_evictions, s.delta_overflows, s.stats_reset
	FROM gpulike.cached_columns r
	LEFT JOIN pg_catalog.pg_attribute a
		ON a.attrelid = r.relid AND a.attname = r.attname AND NOT a.attisdropped
	LEFT JOIN gpulike.cache_stats() s
		ON s.relid = r.relid AND s.attnum = a.attnum;
GRANT SELECT ON gpulike.stat_caches TO PUBLIC;
COMMENT ON VIEW gpulike.stat_caches IS
	'Cumulative statistics per cached column: requests, candidates, rows, engine time, fallbacks, loads, evictions, overflows';

CREATE FUNCTION gpulike.stat_reset() RETURNS void
	AS 'MODULE_PATHNAME', 'gl_stat_reset_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION gpulike.stat_reset() IS
	'Zero the statistics of this database''s cached columns';
REVOKE EXECUTE ON FUNCTION gpulike.stat_reset() FROM PUBLIC;
