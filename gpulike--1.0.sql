/* gpulike--1.0.sql */

\echo Use "CREATE EXTENSION gpulike" to load this file. \quit

-- ==== server: status() and the preload notice ====

CREATE FUNCTION gpulike.preloaded() RETURNS boolean
	AS 'MODULE_PATHNAME', 'gl_preloaded_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION gpulike.preloaded() IS
	'Was gpulike loaded through shared_preload_libraries (required for acceleration)?';

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
	OUT device_bytes bigint)
	AS 'MODULE_PATHNAME', 'gl_status'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION gpulike.status() IS
	'The gpulike server: running or not, engine, device, threads, pid, uptime, memory held';

-- CREATE EXTENSION runs this script with client_min_messages raised to
-- warning; lower it for the rest of the script only (the extension
-- machinery restores it) so the NOTICE reaches the user.
DO $gpulike_preload_check$
BEGIN
	IF NOT gpulike.preloaded() THEN
		IF current_setting('client_min_messages') = 'warning' THEN
			PERFORM set_config('client_min_messages', 'notice', true);
		END IF;
		RAISE NOTICE 'gpulike is not in shared_preload_libraries: acceleration is off until the server is restarted with it';
	END IF;
END
$gpulike_preload_check$;

-- ==== pattern compiler and CPU engine (LIKE / ILIKE / LIKE ANY) ====
-- Test and inspection entry points: the compiled program run by the CPU
-- engine, next to PostgreSQL's own operators.  op is the operator's
-- spelling: ~~ !~~ ~~* !~~* ~ !~ ~* !~*.

CREATE FUNCTION gpulike.match(subject text, pattern text, op text)
RETURNS bool
AS 'MODULE_PATHNAME', 'gl_match'
LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION gpulike.match(text, text, text) IS
'subject <op> pattern, compiled by gpulike and run on its CPU engine (ERROR if the compiler refuses the pattern)';

CREATE FUNCTION gpulike.match_any(subject text, patterns text[], op text)
RETURNS bool
AS 'MODULE_PATHNAME', 'gl_match_any'
LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION gpulike.match_any(text, text[], text) IS
'subject LIKE/ILIKE ANY (patterns) as one Aho-Corasick program on the CPU engine';

CREATE FUNCTION gpulike.explain_pattern(pattern text, op text)
RETURNS text
AS 'MODULE_PATHNAME', 'gl_explain_pattern'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE FUNCTION gpulike.explain_any(patterns text[], op text)
RETURNS text
AS 'MODULE_PATHNAME', 'gl_explain_any'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE FUNCTION gpulike.program_bytes(pattern text, op text)
RETURNS bytea
AS 'MODULE_PATHNAME', 'gl_program_bytes'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE FUNCTION gpulike.program_bytes_any(patterns text[], op text)
RETURNS bytea
AS 'MODULE_PATHNAME', 'gl_program_bytes_any'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE FUNCTION gpulike.pattern_operator(opno oid)
RETURNS text
AS 'MODULE_PATHNAME', 'gl_pattern_operator_sql'
LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION gpulike.pattern_operator(oid) IS
'the pattern operator gpulike takes this operator for (~~, !~~*, ...), NULL if none';

CREATE FUNCTION gpulike.cpu_engine_benchmark(tbl regclass, col name,
	pattern text, op text,
	OUT gpulike_mb_per_s float8, OUT postgres_mb_per_s float8, OUT ratio float8)
AS 'MODULE_PATHNAME', 'gl_cpu_engine_benchmark'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpulike.cpu_engine_benchmark(regclass, name, text, text) IS
'one-core throughput of the CPU engine vs PostgreSQL''s operator function over the same values';

-- ==== column caching: registrations, cache()/uncache()/reload(), caches view, sync triggers ====
-- Registered columns.  An extension configuration table: registrations
-- survive pg_dump/restore; the in-memory caches are rebuilt from it after a
-- restart.  Written only by gpulike's functions (as the table's owner).

-- Table owners who are not the extension's owner cache their own tables.
GRANT USAGE ON SCHEMA gpulike TO PUBLIC;

CREATE TABLE gpulike.cached_columns (
	relid regclass NOT NULL,
	attname name NOT NULL,
	PRIMARY KEY (relid, attname)
);
SELECT pg_catalog.pg_extension_config_dump('gpulike.cached_columns', '');
GRANT SELECT ON gpulike.cached_columns TO PUBLIC;

-- Registrations restored by pg_restore are loaded in the background.
CREATE FUNCTION gpulike.registration_added() RETURNS trigger
	AS 'MODULE_PATHNAME', 'gl_registration_added'
	LANGUAGE C;
CREATE TRIGGER registration_added AFTER INSERT ON gpulike.cached_columns
	FOR EACH ROW EXECUTE FUNCTION gpulike.registration_added();

-- The sync triggers gpulike.cache() puts on a cached table.
CREATE FUNCTION gpulike.sync_row() RETURNS trigger
	AS 'MODULE_PATHNAME', 'gl_sync_row'
	LANGUAGE C;
CREATE FUNCTION gpulike.sync_truncate() RETURNS trigger
	AS 'MODULE_PATHNAME', 'gl_sync_truncate'
	LANGUAGE C;

CREATE FUNCTION gpulike.cache(rel regclass, col name) RETURNS void
	AS 'MODULE_PATHNAME', 'gl_cache_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION gpulike.cache(regclass, name) IS
	'Cache a text column (of every leaf partition of a partitioned table) and keep it in sync; requires table ownership';

CREATE FUNCTION gpulike.uncache(rel regclass, col name) RETURNS void
	AS 'MODULE_PATHNAME', 'gl_uncache_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION gpulike.uncache(regclass, name) IS
	'Drop a column cache, its registration and, with the last column of a table, its sync triggers';

CREATE FUNCTION gpulike.reload() RETURNS integer
	AS 'MODULE_PATHNAME', 'gl_reload_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION gpulike.reload() IS
	'Rebuild every registered column cache of this database whose table you own; returns how many were loaded';

CREATE FUNCTION gpulike.cache_slots(
	OUT relid oid,
	OUT attnum smallint,
	OUT state text,
	OUT rows bigint,
	OUT host_bytes bigint,
	OUT device_bytes bigint,
	OUT device text,
	OUT pending_deltas bigint,
	OUT queries_served bigint)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gl_cache_slots_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

-- One row per registered column.  A registered column with no data in
-- memory (just after a restart, or evicted) shows as 'evicted'.
CREATE VIEW gpulike.caches AS
	SELECT r.relid AS relation,
		   r.attname AS "column",
		   coalesce(s.state, 'evicted') AS state,
		   coalesce(s.rows, 0) AS rows,
		   coalesce(s.host_bytes, 0) AS host_bytes,
		   coalesce(s.device_bytes, 0) AS device_bytes,
		   s.device,
		   coalesce(s.pending_deltas, 0) AS pending_deltas,
		   coalesce(s.queries_served, 0) AS queries_served
	FROM gpulike.cached_columns r
	LEFT JOIN pg_catalog.pg_attribute a
		ON a.attrelid = r.relid AND a.attname = r.attname AND NOT a.attisdropped
	LEFT JOIN gpulike.cache_slots() s
		ON s.relid = r.relid AND s.attnum = a.attnum;
GRANT SELECT ON gpulike.caches TO PUBLIC;
