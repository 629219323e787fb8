-- Shared set-up of the scan_* tests, included with \i.
--
-- Make the GpuLike path win whenever it is offered, so plans are stable,
-- and cache columns through scan_cache(), which waits until the planner can
-- use the cache (a background rebuild may still be running from an earlier
-- test that made it stale).
SET gpulike.regression_mode = on;
SET enable_seqscan = off;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET max_parallel_workers_per_gather = 0;

CREATE FUNCTION scan_cache(rel regclass, col name) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	plan text;
BEGIN
	PERFORM gpulike.cache(rel, col);
	PERFORM set_config('enable_seqscan', 'off', true);
	FOR i IN 1..600 LOOP
		plan := '';
		FOR plan IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT * FROM %s WHERE %I LIKE %L',
								   rel, col, 'x%') LOOP
			EXIT WHEN plan LIKE '%GpuLike%';
		END LOOP;
		IF plan LIKE '%GpuLike%' THEN
			RETURN;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RAISE EXCEPTION 'cache of %.% not usable after 60 s', rel, col;
END $$;

-- Run a query with gpulike on and off (a temporary function: each test
-- session has its own): does its plan show marker, how many
-- rows, and the same rows both ways?  The plan is named with_marker or
-- without_marker.
CREATE FUNCTION pg_temp.scan_versus_postgres(query text, marker text, with_marker text,
									 without_marker text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	has_marker bool := false;
	rows_on text[];
	rows_off text[];
BEGIN
	PERFORM set_config('gpulike.enabled', 'on', true);
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		has_marker := has_marker OR line LIKE '%' || marker || '%';
	END LOOP;
	EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', query)
		INTO rows_on;
	PERFORM set_config('gpulike.enabled', 'off', true);
	EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', query)
		INTO rows_off;
	PERFORM set_config('gpulike.enabled', 'on', true);
	RETURN format('%s, %s rows, %s',
				  CASE WHEN has_marker THEN with_marker ELSE without_marker END,
				  coalesce(cardinality(rows_on), 0),
				  CASE WHEN rows_on IS NOT DISTINCT FROM rows_off
					   THEN 'same as PostgreSQL' ELSE 'DIFFERENT from PostgreSQL' END);
END $$;
