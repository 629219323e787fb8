--
-- The gpulike server: status fields; requests over the shared-memory
-- protocol (large TID streams, AND / OR across columns, deltas); the host
-- memory budget; values in a file (gpulike.values_directory); restart
-- after pg_terminate_backend, with clear answers (never a hang, never a
-- wrong row) while it is down; the memory of uncached and dropped columns
-- given back.
--
SET client_min_messages = warning;
SET statement_timeout = '60s';
SELECT plan(35);

-- ------------------------------------------------------------- status
SELECT is(server, 'running', 'the server is running') FROM gpulike.status();
SELECT ok(engine IN ('cpu', 'cuda'), 'the engine is cpu or cuda') FROM gpulike.status();
SELECT ok(cpu_threads >= 1, 'the CPU engine has threads') FROM gpulike.status();
SELECT ok(server_uptime >= interval '0', 'uptime is known') FROM gpulike.status();
SELECT is((SELECT backend_type FROM pg_stat_activity WHERE pid = s.server_pid),
          'gpulike server', 'server_pid is the gpulike server process')
FROM gpulike.status() s;

-- ----------------------------------------------------------- requests
CREATE TABLE server_words (id int, a text, b text);
INSERT INTO server_words
SELECT i,
       CASE WHEN i % 13 = 0 THEN NULL ELSE 'w' || i || md5(i::text) END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE md5((i * 7)::text) END
FROM generate_series(1, 300000) i;
ANALYZE server_words;
SELECT gpulike.cache('server_words', 'a');
SELECT gpulike.cache('server_words', 'b');

SELECT is(count(*), 2::bigint, 'both columns are cached and ready')
FROM gpulike.caches WHERE relation = 'server_words'::regclass AND state = 'ready';
SELECT ok(host_bytes > 0 AND caches >= 2, 'status counts the cached columns')
FROM gpulike.status();

-- Same answer with and without gpulike; the plan must really use it.
CREATE FUNCTION pg_temp.both_ways(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	plan text;
	with_gl bigint;
	without_gl bigint;
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL max_parallel_workers_per_gather = 0;
	EXECUTE 'EXPLAIN (COSTS OFF) ' || q INTO plan;
	IF plan IS NULL THEN
		RETURN false;
	END IF;
	EXECUTE q INTO with_gl;
	SET LOCAL gpulike.enabled = off;
	EXECUTE q INTO without_gl;
	RETURN with_gl = without_gl;
END $$;

\ir include/cache_wait.sql
CREATE FUNCTION pg_temp.uses_gpulike(q text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL max_parallel_workers_per_gather = 0;
	RETURN pg_temp.plan_uses_gpulike(q);
END $$;

SELECT ok(pg_temp.uses_gpulike($$SELECT count(*) FROM server_words WHERE a LIKE 'w%'$$),
          'the custom scan answers a cached column');
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE 'w%'$$),
          'every row matches: hundreds of thousands of TIDs streamed back');
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a NOT LIKE '%7%'$$),
          'NOT LIKE: NULL rows excluded');
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE '%12%' AND b LIKE '%ab%'$$),
          'AND across two columns');
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE '%123%' OR b NOT LIKE '%a%'$$),
          'OR across two columns, one negated');
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE (a LIKE '%1%' AND a NOT LIKE '%2%') OR a LIKE '%99%'$$),
          'AND / OR on one column');

-- Rows written after the load reach the server through the delta log.
UPDATE server_words SET a = 'updated ' || id WHERE id % 1000 = 1;
INSERT INTO server_words SELECT i, 'inserted ' || i, NULL FROM generate_series(300001, 300500) i;
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE 'updated%' OR a LIKE 'inserted%'$$),
          'updated and inserted rows are found');
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE 'w%'$$),
          'old versions are not returned after the update');
SELECT ok(queries_served > 0, 'the registry counts queries served')
FROM gpulike.caches WHERE relation = 'server_words'::regclass AND attname = 'a';

-- ------------------------------------------------------ memory budget
-- The server rereads its configuration on SIGHUP; give it a moment.
CREATE FUNCTION pg_temp.reload_config() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_reload_conf();
	PERFORM pg_sleep(1.5);
END $$;

ALTER SYSTEM SET gpulike.host_memory = '16MB';
SELECT pg_temp.reload_config();
SELECT throws_like($$SELECT gpulike.cache('server_words', 'b')$$,
                   '%host memory budget of 16 MB exceeded%',
                   'a load over gpulike.host_memory fails clearly');
ALTER SYSTEM RESET gpulike.host_memory;
SELECT pg_temp.reload_config();
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE b LIKE '%ab%'$$),
          'queries stay correct after the failed load');

-- ----------------------------------------------------- values in a file
-- With gpulike.values_directory set (relative: to the data directory), a
-- column loaded afterwards keeps its values in a file there that has no
-- name: memory drops by their bytes, which file_bytes shows; the answers
-- and the changes applied afterwards are the same.  A directory that
-- cannot hold the file fails the load clearly, the old copy serving.
CREATE TEMP TABLE in_memory AS
	SELECT host_bytes, file_bytes FROM gpulike.caches
	WHERE relation = 'server_words'::regclass AND attname = 'a';
ALTER SYSTEM SET gpulike.values_directory = '.';
SELECT pg_temp.reload_config();
SELECT gpulike.cache('server_words', 'a');
SELECT ok(c.file_bytes > 0 AND m.file_bytes = 0 AND
          c.host_bytes <= m.host_bytes - c.file_bytes + 65536,
          'a column loaded with gpulike.values_directory set holds its values in a file')
FROM gpulike.caches c, in_memory m
WHERE c.relation = 'server_words'::regclass AND c.attname = 'a';
SELECT ok(s.file_bytes >= c.file_bytes, 'status counts the values'' files')
FROM gpulike.status() s, gpulike.caches c
WHERE c.relation = 'server_words'::regclass AND c.attname = 'a';
SELECT ok(pg_temp.uses_gpulike($$SELECT count(*) FROM server_words WHERE a LIKE '%12%'$$) AND
          pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE '%12%'$$),
          'the column answers from the file as from memory');
UPDATE server_words SET a = 'filed ' || id WHERE id % 997 = 3;
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE 'filed%' OR a LIKE '%12%'$$),
          'changes after the load go to the file too');
ALTER SYSTEM SET gpulike.values_directory = 'no/such/directory';
SELECT pg_temp.reload_config();
SELECT throws_like($$SELECT gpulike.cache('server_words', 'b')$$,
                   '%could not create a file for a column''s values in "no/such/directory"%No such file%',
                   'a values directory that does not exist fails the load clearly');
ALTER SYSTEM RESET gpulike.values_directory;
SELECT pg_temp.reload_config();
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE b LIKE '%ab%'$$),
          'the old copy answers after the failed load');

-- ------------------------------------------------------------ restart
-- Wait (bounded) until a server other than old_pid answers status().
CREATE FUNCTION pg_temp.wait_for_new_server(old_pid int, seconds float8)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	deadline timestamptz := clock_timestamp() + seconds * interval '1 second';
	s record;
BEGIN
	LOOP
		SELECT * INTO s FROM gpulike.status();
		IF s.server = 'running' AND s.server_pid <> old_pid THEN
			RETURN s.server_pid;
		END IF;
		IF clock_timestamp() > deadline THEN
			RETURN NULL;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
END $$;

-- A load attempted while the server is down fails with a clear message
-- (or succeeds, if the server is already back): never hangs.
CREATE FUNCTION pg_temp.try_cache(rel regclass, col name) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM gpulike.cache(rel, col);
	RETURN 'loaded';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLERRM;
END $$;

CREATE TEMP TABLE old_server AS SELECT server_pid AS pid FROM gpulike.status();
SELECT ok(pg_terminate_backend(pid), 'the server can be terminated') FROM old_server;

SELECT ok(server IN ('running', 'not running'),
          'status() answers while the server restarts: ' || server)
FROM gpulike.status();
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE '%77%'$$),
          'a query while the server restarts gets the right answer');
SELECT ok(r = 'loaded' OR r LIKE '%server%not running%' OR r LIKE '%server stopped%',
          'cache() while the server restarts: ' || r)
FROM pg_temp.try_cache('server_words', 'b') r;

CREATE TEMP TABLE new_server AS
SELECT pg_temp.wait_for_new_server(pid, 15) AS pid FROM old_server;
SELECT ok(pid IS NOT NULL, 'the postmaster restarted the server within 15 s') FROM new_server;
SELECT isnt(n.pid, o.pid, 'it is a new process') FROM new_server n, old_server o;
SELECT ok(server_uptime < interval '30 seconds', 'the new server''s uptime started over')
FROM gpulike.status();

-- The caches come back (the reloader rebuilds what the old server held).
CREATE FUNCTION pg_temp.wait_for_ready(rel regclass, seconds float8)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	deadline timestamptz := clock_timestamp() + seconds * interval '1 second';
BEGIN
	LOOP
		IF NOT EXISTS (SELECT FROM gpulike.caches
					   WHERE relation = rel AND state <> 'ready') THEN
			RETURN true;
		END IF;
		IF clock_timestamp() > deadline THEN
			RETURN false;
		END IF;
		PERFORM pg_sleep(0.2);
	END LOOP;
END $$;
SELECT ok(pg_temp.wait_for_ready('server_words', 30), 'the caches are rebuilt after the restart');
SELECT ok(pg_temp.both_ways($$SELECT count(*) FROM server_words WHERE a LIKE '%12%' AND b LIKE '%ab%'$$),
          'the new server answers correctly');

-- Memory goes back with the cache: a forgotten slot's column is freed
-- at the server's next sync with the registry, before it answers a
-- status, so at once here.  uncache() forgets a column; so does DROP
-- TABLE, through the DDL watch.
CREATE TEMP TABLE held AS
SELECT s.caches, s.host_bytes,
	   (SELECT host_bytes FROM gpulike.caches
		WHERE relation = 'server_words'::regclass AND attname = 'a') AS a_bytes,
	   (SELECT host_bytes FROM gpulike.caches
		WHERE relation = 'server_words'::regclass AND attname = 'b') AS b_bytes
FROM gpulike.status() s;
SELECT gpulike.uncache('server_words', 'a');
SELECT ok(s.caches = h.caches - 1 AND s.host_bytes <= h.host_bytes - h.a_bytes,
		  'the server frees an uncached column')
FROM gpulike.status() s, held h;
DROP TABLE server_words;
SELECT ok(s.caches = h.caches - 2 AND s.host_bytes <= h.host_bytes - h.a_bytes - h.b_bytes,
		  'and the column of a dropped table')
FROM gpulike.status() s, held h;

SELECT * FROM finish();
