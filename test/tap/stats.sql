--
-- gpulike.stat_caches: the counters move as the column is loaded, asked,
-- read, and read from the heap instead (a pattern refused at execution);
-- gpulike.stat_reset() zeroes them and is not for PUBLIC.
--
SET client_min_messages = warning;
SET statement_timeout = '60s';
SELECT plan(16);

CREATE TABLE stat_words (id int, w text);
INSERT INTO stat_words
SELECT i, md5(i::text) || CASE WHEN i % 9 = 0 THEN ' needle' ELSE '' END
FROM generate_series(1, 20000) i;
ANALYZE stat_words;
SELECT gpulike.cache('stat_words', 'w');
SET enable_seqscan = off;
SET max_parallel_workers_per_gather = 0;

CREATE FUNCTION pg_temp.stat(field text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	v text;
BEGIN
	EXECUTE format('SELECT %I::text FROM gpulike.stat_caches WHERE relation = %L::regclass',
				   field, 'stat_words') INTO v;
	RETURN v;
END $$;

SELECT is(pg_temp.stat('loads'), '1', 'cache() counts a load');
SELECT ok(pg_temp.stat('last_load_seconds')::float8 >= 0 AND pg_temp.stat('last_load_at') IS NOT NULL,
          'the load''s time and duration are kept');
SELECT is(pg_temp.stat('requests'), '0', 'no request yet');

SELECT is(count(*), 2222::bigint, 'a count over the cache') FROM stat_words WHERE w LIKE '%needle%';
SELECT is(pg_temp.stat('requests'), '1', 'the request is counted');
SELECT is(pg_temp.stat('candidates'), '2222', 'its candidates are counted');
SELECT is(pg_temp.stat('rows_returned'), '2222', 'a count(*) scan counts the rows it counted');

SELECT is(count(*), 2222::bigint, 'rows read through the cache')
FROM (SELECT id FROM stat_words WHERE w LIKE '%needle%' OFFSET 0) s;
SELECT is(pg_temp.stat('rows_returned'), '4444', 'a scan returning rows counts them');

-- A pattern the compiler refuses at execution (a Param, in a generic
-- plan): the heap is read instead.
SET plan_cache_mode = force_generic_plan;
CREATE FUNCTION pg_temp.count_matching(p text) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	RETURN (SELECT count(*) FROM stat_words WHERE w ~ p);
END $$;
SELECT is(pg_temp.count_matching(repeat('(a|b)', 5000)), 0::bigint,
          'a refused pattern still gets PostgreSQL''s answer');
SELECT is(pg_temp.stat('heap_fallbacks'), '1', 'the heap fallback is counted');
SELECT is(pg_temp.stat('last_fallback'), 'heap: a pattern was left to PostgreSQL',
          'with its reason');

-- EXPLAIN: no engine times under TIMING OFF; a fallback's count and reason apart
CREATE FUNCTION pg_temp.gpulike_keys(options text, q text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	SET LOCAL gpulike.regression_mode = off;
	EXECUTE format('EXPLAIN (ANALYZE, %s, FORMAT JSON) %s', options, q) INTO plan;
	RETURN ARRAY(SELECT k FROM jsonb_object_keys(jsonb_path_query_first(plan,
					'strict $.**?(@."Custom Plan Provider" == "GpuLike")')) k
				 WHERE k LIKE 'GpuLike%' ORDER BY k);
END $$;
SELECT ok(pg_temp.gpulike_keys('TIMING OFF', $$SELECT id FROM stat_words WHERE w LIKE '%needle%'$$)
          @> ARRAY['GpuLike Engine', 'GpuLike Matchers'] AND
          NOT pg_temp.gpulike_keys('TIMING OFF', $$SELECT id FROM stat_words WHERE w LIKE '%needle%'$$)
          && ARRAY['GpuLike Engine Time', 'GpuLike Request Time'],
          'TIMING OFF: the engine is named, its times are not shown');
SELECT ok(pg_temp.gpulike_keys('TIMING ON', $$SELECT id FROM stat_words WHERE w LIKE '%needle%'$$)
          @> ARRAY['GpuLike Engine Time', 'GpuLike Answer Time', 'GpuLike Request Time'],
          'TIMING ON: the engine times are shown');

SELECT gpulike.stat_reset();
SELECT is(pg_temp.stat('requests') || ' ' || pg_temp.stat('heap_fallbacks'), '0 0',
          'stat_reset() zeroes the counters');
SELECT ok(NOT has_function_privilege('public', 'gpulike.stat_reset()', 'execute'),
          'stat_reset() is not for PUBLIC');

SELECT gpulike.uncache('stat_words', 'w');
DROP TABLE stat_words;
SELECT * FROM finish();
