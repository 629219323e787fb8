--
-- gpulike.status(): the server is up and answers a STATUS request.
-- In regression mode everything that differs between hosts (device, memory,
-- thread count, pid, uptime) is hidden; the engine is 'cpu' or 'cuda'
-- depending on the host, so only its validity is shown.
--
-- The postmaster starts the server with the cluster; give it a moment
-- in case this test runs right after a start (bounded: 30 s).
DO $$
BEGIN
	FOR i IN 1 .. 300 LOOP
		EXIT WHEN (SELECT server FROM gpulike.status()) = 'running';
		PERFORM pg_sleep(0.1);
	END LOOP;
END $$;

SET gpulike.regression_mode = on;

SELECT server,
       engine IN ('cpu', 'cuda') AS engine_known,
       device_name, device_memory_total_mb, device_memory_free_mb,
       cpu_threads, server_pid, server_uptime,
       caches >= 0 AS caches_counted,
       host_bytes >= 0 AS host_bytes_counted,
       device_bytes >= 0 AS device_bytes_counted
FROM gpulike.status();

-- Without regression mode the real values appear; check they are sane.
SET gpulike.regression_mode = off;

SELECT server,
       cpu_threads >= 1 AS has_threads,
       server_pid > 0 AS has_pid,
       server_uptime >= interval '0' AS has_uptime,
       (engine = 'cuda') = (device_name IS NOT NULL) AS device_matches_engine,
       (device_memory_free_mb <= device_memory_total_mb) IS NOT FALSE AS memory_consistent,
       (engine = 'cpu') <= (device_bytes = 0) AS no_device_bytes_on_cpu
FROM gpulike.status();

-- The server is a process of this cluster, visible like any backend.
SELECT backend_type, datname IS NULL AS no_database
FROM pg_stat_activity
WHERE pid = (SELECT server_pid FROM gpulike.status());

SELECT gpulike.preloaded();

-- status() is usable from a query that calls it more than once.
SELECT count(DISTINCT server_pid) AS servers
FROM generate_series(1, 3), LATERAL gpulike.status();

RESET gpulike.regression_mode;
