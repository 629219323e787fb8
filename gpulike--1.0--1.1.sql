/* gpulike--1.0--1.1.sql */

\echo Use "ALTER EXTENSION gpulike UPDATE TO '1.1'" to load this file. \quit

-- ==== several GPUs: status() counts them, devices() lists them, and caches
-- ==== shows which GPUs hold the parts of each column

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
	OUT gpu_bytes bigint[])
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gl_cache_slots_sql'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

-- One row per registered column.  A registered column with no data in
-- memory (just after a restart, or evicted) shows as 'evicted'.  gpus and
-- gpu_bytes list the parts of the GPU copy: the GPU and bytes of each.
CREATE VIEW gpulike.caches AS
	SELECT r.relid AS relation,
		   r.attname AS "column",
		   coalesce(s.state, 'evicted') AS state,
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
