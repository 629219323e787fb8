--
-- reload() is all or nothing per column: a rebuild that fails (here the
-- host memory budget has no room for a second copy of the column) leaves
-- the ready copy serving, exactly as before, and the other columns are
-- rebuilt all the same.
--
SET client_min_messages = warning;
SET statement_timeout = '60s';
SELECT plan(9);

\ir include/cache_wait.sql

CREATE TABLE reload_big AS
SELECT i, repeat(md5(i::text), 4) AS w FROM generate_series(1, 150000) i;
CREATE TABLE reload_small AS
SELECT i, md5(i::text) AS w FROM generate_series(1, 2000) i;
SELECT gpulike.cache('reload_big', 'w');
SELECT gpulike.cache('reload_small', 'w');
INSERT INTO reload_big VALUES (0, 'written after the load');

CREATE FUNCTION pg_temp.loads(rel regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT loads FROM gpulike.stat_caches WHERE relation = rel $$;

-- room for what is cached now and half the big column once more
SELECT format('ALTER SYSTEM SET gpulike.host_memory = %s',
			  (s.host_bytes + c.host_bytes / 2) / (1024 * 1024) + 1)
FROM gpulike.status() s, gpulike.caches c WHERE c.relation = 'reload_big'::regclass \gexec
SELECT pg_reload_conf();
SELECT pg_sleep(1.5);

SET client_min_messages = error;
SELECT ok(gpulike.reload() >= 1, 'reload() reloads what fits');
SET client_min_messages = warning;
SELECT is(pg_temp.loads('reload_small'), 2::bigint, 'the small column was rebuilt');
SELECT is(pg_temp.loads('reload_big'), 1::bigint, 'the big one was not: no room for its second copy');
SELECT is(state, 'ready', 'its first copy is still ready') FROM gpulike.caches
WHERE relation = 'reload_big'::regclass;
SELECT is(rows, 150001::bigint, 'with every row') FROM gpulike.caches
WHERE relation = 'reload_big'::regclass;

SET enable_seqscan = off;
SELECT ok(pg_temp.plan_uses_gpulike($$SELECT count(*) FROM reload_big WHERE w LIKE '%after%'$$),
          'queries still use it');
SELECT is((SELECT count(*) FROM reload_big WHERE w LIKE '%after%' OR w LIKE '%abc%'),
          (SELECT count(*) FROM reload_big WHERE w || '' LIKE '%after%' OR w || '' LIKE '%abc%'),
          'with PostgreSQL''s answer');
RESET enable_seqscan;

ALTER SYSTEM RESET gpulike.host_memory;
SELECT pg_reload_conf();
SELECT pg_sleep(1.5);
SELECT ok(gpulike.reload() >= 2, 'with room again, reload() rebuilds both');
SELECT is(pg_temp.loads('reload_big'), 2::bigint, 'the big column too');

SELECT gpulike.uncache('reload_big', 'w');
SELECT gpulike.uncache('reload_small', 'w');
DROP TABLE reload_big, reload_small;
SELECT * FROM finish();
