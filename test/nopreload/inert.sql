-- Run by test/run on a cluster WITHOUT shared_preload_libraries = 'gpulike',
-- after CREATE EXTENSION gpulike (whose NOTICE test/run checks): the
-- extension stays inert, and queries keep their ordinary plans and results.
\set QUIET 1
SELECT plan(5);

CREATE TABLE words AS SELECT 'w' || g AS v FROM generate_series(1, 1000) g;
ANALYZE words;

CREATE FUNCTION pg_temp.plan_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;

SELECT is((SELECT server FROM gpulike.status()), 'not preloaded',
          'status() says the server is not preloaded');
SELECT throws_like($$SELECT gpulike.cache('words', 'v')$$,
                   '%not loaded through shared_preload_libraries%',
                   'cache() refuses with a clear error');
SELECT is((SELECT count(*) FROM words WHERE v LIKE '%7%'), 271::bigint,
          'LIKE still answers');
SELECT unalike(pg_temp.plan_of($$SELECT * FROM words WHERE v LIKE '%7%'$$),
              '%GpuLike%', 'no GpuLike plan without the server');
SELECT is(gpulike.match('abc', '%b%', '~~'), true,
          'the pattern compiler and CPU engine work in the backend');
SELECT * FROM finish();
