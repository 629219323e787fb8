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
