--
-- Cached plans follow the cache: after a rewrite (VACUUM FULL) a prepared
-- statement gets PostgreSQL's answer, and the cache again once it is
-- rebuilt; a generic plan with a GpuLike scan whose cache is gone (here:
-- changes took the caches past gpulike.host_memory, which also keeps the
-- rebuild from succeeding, and is counted) reads the heap once, with
-- PostgreSQL's answer, and is then made again without GpuLike; once the
-- cache is back, it is made again with it.
--
SET client_min_messages = warning;
SET statement_timeout = '60s';
SELECT plan(12);

CREATE TABLE plan_words AS
SELECT i, md5(i::text) || md5(i::text) AS w FROM generate_series(1, 500000) i;
SELECT gpulike.cache('plan_words', 'w');
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
SET max_parallel_workers_per_gather = 0;
PREPARE counted(text) AS SELECT count(*) FROM plan_words WHERE w LIKE $1;

\ir include/cache_wait.sql

SELECT ok(pg_temp.plan_uses_gpulike($$EXECUTE counted('%ab%')$$), 'the generic plan scans the cache');

CREATE FUNCTION pg_temp.counted(pattern text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
	EXECUTE format('EXECUTE counted(%L)', pattern) INTO n;
	RETURN n;
END $$;
CREATE FUNCTION pg_temp.heap_fallbacks() RETURNS bigint LANGUAGE sql AS $$
	SELECT heap_fallbacks FROM gpulike.stat_caches WHERE relation = 'plan_words'::regclass $$;

DELETE FROM plan_words WHERE i % 3 = 0;
VACUUM FULL plan_words;
SELECT is(pg_temp.counted('%ab%'), (SELECT count(*) FROM plan_words WHERE w || '' LIKE '%ab%'),
          'after VACUUM FULL the prepared statement gets PostgreSQL''s answer');
SELECT is(pg_temp.wait_state('plan_words', 'w', 'ready'), 'ready', 'the rewritten table''s cache is rebuilt');
CREATE TEMP TABLE fallbacks_before AS SELECT pg_temp.heap_fallbacks() AS n;
-- The cache turns ready when the server swaps the new copy in; the
-- rebuild's transaction commits just after, and its invalidation makes the
-- plan again.  A transaction sees it only from its start, so look in new
-- transactions, one statement each (\gexec), until the plan uses the cache.
CREATE TEMP TABLE rebuilt_plan (uses_gpulike boolean);
CREATE FUNCTION pg_temp.look_at_plan() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF NOT EXISTS (SELECT FROM rebuilt_plan WHERE uses_gpulike) THEN
		INSERT INTO rebuilt_plan
		SELECT pg_temp.plan_uses_gpulike($q$EXECUTE counted('%ab%')$q$);
		PERFORM pg_sleep(0.05);
	END IF;
END $$;
SELECT 'SELECT pg_temp.look_at_plan()' FROM generate_series(1, 200) \gexec
SELECT ok((SELECT bool_or(uses_gpulike) FROM rebuilt_plan), 'the generic plan scans the rebuilt cache');
SELECT is(pg_temp.counted('%ab%'), (SELECT count(*) FROM plan_words WHERE w || '' LIKE '%ab%'),
          'and gets PostgreSQL''s answer from it');
SELECT is(pg_temp.heap_fallbacks(), n, 'without reading the heap') FROM fallbacks_before;

ALTER SYSTEM SET gpulike.host_memory = '16MB';
SELECT pg_reload_conf();
SELECT pg_sleep(1);
INSERT INTO plan_words SELECT i, md5(i::text) FROM generate_series(1, 1000) i;
SELECT is(pg_temp.wait_state('plan_words', 'w', 'stale', 10), 'stale', 'changes past gpulike.host_memory make the cache stale');
SELECT is(memory_drops, 1::bigint, 'and are counted') FROM gpulike.stat_caches WHERE relation = 'plan_words'::regclass;

SELECT is((SELECT count(*) FROM plan_words WHERE w LIKE '%ab%' AND i > 0),
          (SELECT count(*) FROM plan_words WHERE w || '' LIKE '%ab%'),
          'a query meanwhile gets PostgreSQL''s answer');
EXECUTE counted('%ab%');
SELECT ok(NOT pg_temp.plan_uses_gpulike($$EXECUTE counted('%ab%')$$),
          'after reading the heap once, the generic plan is made again without GpuLike');

ALTER SYSTEM RESET gpulike.host_memory;
SELECT pg_reload_conf();
SELECT pg_sleep(1);
SELECT ok(gpulike.reload() >= 1, 'the cache loads again');
SELECT ok(pg_temp.plan_uses_gpulike($$EXECUTE counted('%ab%')$$), 'and the generic plan uses it again');

DEALLOCATE counted;
SELECT gpulike.uncache('plan_words', 'w');
DROP TABLE plan_words;
SELECT * FROM finish();
