-- Run by test/run on a cluster whose server assumes its GPUs have compute
-- capability 7.5 (gpulike.debug_compute_capability = 75), older than the
-- kernels are built for: the server refuses them, says why in status(),
-- and answers every query with the CPU engine.  On a host without a GPU
-- the reason is another one (none present, no driver); test.gpu_present
-- says which host this is.
\set QUIET 1
SELECT plan(5);

CREATE TABLE words AS SELECT 'w' || g AS v FROM generate_series(1, 20000) g;
ANALYZE words;
SELECT gpulike.cache('words', 'v');

CREATE FUNCTION pg_temp.explain_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;

SELECT is((SELECT engine FROM gpulike.status()), 'cpu',
          'the server uses the CPU engine');
SELECT isnt((SELECT cpu_reason FROM gpulike.status()), NULL,
            'status() says why');
SELECT ok(CASE WHEN current_setting('test.gpu_present') = 'on'
          THEN (SELECT cpu_reason FROM gpulike.status()) LIKE
               '%compute capability 7.5; gpulike''s kernels need 8.0 (Ampere) or newer%'
          ELSE true END,
          'on a GPU host, the reason is the compute capability');
SET enable_seqscan = off;
SELECT alike(pg_temp.explain_of($$SELECT count(*) FROM words WHERE v LIKE '%77%'$$),
            '%GpuLike Engine: cpu%', 'queries run on the CPU engine');
SELECT is((SELECT count(*) FROM words WHERE v LIKE '%77%'),
          (SELECT count(*) FROM generate_series(1, 20000) g WHERE 'w' || g LIKE '%77%'),
          'and answer as PostgreSQL does');
SELECT * FROM finish();
