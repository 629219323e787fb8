-- The demo's comparison.  Each query runs under three configurations:
--   pg 1 proc  PostgreSQL in one process (gpulike off, no workers)
--   pg N cores PostgreSQL with a worker per core, parallel costs zeroed so
--              that it really uses them: what a user gets without gpulike
--   gpulike    gpulike on, the plan the planner chooses
-- one untimed run first (its count is the result compared), then the
-- median of :runs timed runs.  Called with -v cores=N -v runs=N.
SET client_min_messages = warning;

CREATE FUNCTION pg_temp.measure(q text, config text, cores int, runs int,
                                OUT ms float8, OUT n bigint, OUT plan text)
LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz;
    times float8[] := '{}';
    line text;
BEGIN
    -- every setting each time: a statement's calls share one transaction
    PERFORM set_config('gpulike.enabled', (config = 'gpulike')::text, true);
    PERFORM set_config('max_parallel_workers_per_gather',
                       CASE WHEN config = 'pg1' THEN '0' ELSE cores::text END, true);
    PERFORM set_config('max_parallel_workers', cores::text, true);
    PERFORM set_config('parallel_setup_cost', CASE WHEN config = 'pgpar' THEN '0' ELSE '1000' END, true);
    PERFORM set_config('parallel_tuple_cost', CASE WHEN config = 'pgpar' THEN '0' ELSE '0.1' END, true);
    PERFORM set_config('min_parallel_table_scan_size', CASE WHEN config = 'pgpar' THEN '0' ELSE '8MB' END, true);
    plan := '';
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ '(Custom Scan|Seq Scan|Index|Gather)' AND plan NOT LIKE '%Scan%' THEN
            plan := plan || CASE WHEN plan = '' THEN '' ELSE ', ' END ||
                    regexp_replace(trim(line), '^->\s*', '');
        END IF;
    END LOOP;
    EXECUTE q INTO n;
    FOR i IN 1 .. runs LOOP
        t0 := clock_timestamp();
        EXECUTE q;
        times := times || extract(epoch FROM clock_timestamp() - t0) * 1000;
    END LOOP;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) INTO ms FROM unnest(times) t;
END $$;

\ir predicates.sql

SELECT format('engine: %s%s; %s cores; median of %s runs after an untimed one',
              engine, coalesce(' (' || device_name || ')', ''), :cores, :runs) AS "this machine"
  FROM gpulike.status();

CREATE TEMP TABLE results AS
SELECT d.ord, d.label, d.predicate,
       one.n AS rows,
       one.ms AS pg_one_ms, par.ms AS pg_par_ms, gl.ms AS gpulike_ms,
       gl.plan AS gpulike_plan,
       one.n = par.n AND par.n = gl.n AS same
  FROM demo_queries d,
       LATERAL pg_temp.measure('SELECT count(*) FROM demo.comments WHERE ' || d.predicate,
                               'pg1', :cores, :runs) AS one,
       LATERAL pg_temp.measure('SELECT count(*) FROM demo.comments WHERE ' || d.predicate,
                               'pgpar', :cores, :runs) AS par,
       LATERAL pg_temp.measure('SELECT count(*) FROM demo.comments WHERE ' || d.predicate,
                               'gpulike', :cores, :runs) AS gl;

SELECT label AS "query", predicate AS "WHERE", rows,
       round(pg_one_ms::numeric, 1) AS "pg 1 proc ms",
       round(pg_par_ms::numeric, 1) AS "pg all cores ms",
       round(gpulike_ms::numeric, 1) AS "gpulike ms",
       round((pg_par_ms / greatest(gpulike_ms, 0.001))::numeric, 1) AS "x all cores",
       round((pg_one_ms / greatest(gpulike_ms, 0.001))::numeric, 1) AS "x 1 proc",
       CASE WHEN same THEN 'same' ELSE 'DIFFERENT' END AS "rows agree",
       gpulike_plan AS "gpulike plan"
  FROM results ORDER BY ord;

\echo
\echo 'x all cores / x 1 proc: PostgreSQL''s time over gpulike''s (above 1: gpulike is faster).'
\echo 'The plan of the first query with gpulike on (EXPLAIN ANALYZE; README "Reading EXPLAIN" explains each line):'
SET gpulike.enabled = on;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*) FROM demo.comments WHERE body LIKE '%special%requests%';
