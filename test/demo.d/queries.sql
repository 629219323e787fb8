-- Each demo query runs with gpulike on and off; the table shows both times
-- and whether the rows agree.
CREATE OR REPLACE FUNCTION pg_temp.time_query(q text, enabled bool,
                                              OUT ms float8, OUT n bigint, OUT plan text)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN
    PERFORM set_config('gpulike.enabled', enabled::text, true);
    EXECUTE 'EXPLAIN (COSTS OFF) ' || q INTO plan;
    t0 := clock_timestamp();
    EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO n;
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;

CREATE TEMP TABLE demo_queries (label text, q text);
INSERT INTO demo_queries VALUES
  ('literal',        $q$SELECT id FROM demo.comments WHERE body LIKE '%special%requests%'$q$),
  ('rare phrase',    $q$SELECT id FROM demo.comments WHERE body LIKE '%Customer%Complaints%'$q$),
  ('underscore',     $q$SELECT id FROM demo.comments WHERE body LIKE '%p_nto b%'$q$),
  ('ILIKE',          $q$SELECT id FROM demo.comments WHERE body ILIKE '%ZÜRICH CAFÉ%'$q$),
  ('regex',          $q$SELECT id FROM demo.comments WHERE body ~ 'quick(ly)? (bold|even) fox'$q$),
  ('LIKE ANY',       $q$SELECT id FROM demo.comments WHERE body LIKE ANY (ARRAY['%theodolites%sleep%', '%naïve café%'])$q$);

\echo 'EXPLAIN ANALYZE of the first query with gpulike on:'
SET gpulike.enabled = on;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
SELECT id FROM demo.comments WHERE body LIKE '%special%requests%';

SELECT label,
       round(off.ms::numeric, 1) AS postgres_ms,
       round(on_.ms::numeric, 1) AS gpulike_ms,
       round((off.ms / greatest(on_.ms, 0.001))::numeric, 1) AS speedup,
       on_.n AS rows,
       CASE WHEN on_.n = off.n THEN 'same' ELSE 'DIFFERENT' END AS result,
       CASE WHEN on_.plan LIKE '%GpuLike%' THEN 'GpuLike' ELSE split_part(on_.plan, E'\n', 1) END AS gpulike_plan
  FROM demo_queries,
       LATERAL pg_temp.time_query(q, false) AS off,
       LATERAL pg_temp.time_query(q, true) AS on_;
