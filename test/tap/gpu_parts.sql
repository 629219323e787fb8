--
-- A column split over GPUs (gpulike.gpu_split_parts, gpulike.gpu_split_min_size):
-- where its parts are (gpulike.caches gpus / gpu_bytes, gpulike.devices()),
-- answers equal to PostgreSQL's, and a part that fails on its GPU
-- (gpulike.debug_gpu_fail_part) answered by the CPU engine instead, then
-- the GPU again.  The suite's GPU runs set the split settings so that this
-- table really splits (test/gpu/run); on a host without a GPU the answers
-- are still compared and the GPU checks are skipped.
--
SET client_min_messages = warning;
SET statement_timeout = '60s';
SELECT plan(14);

CREATE TABLE split_words (id int, w text);
INSERT INTO split_words
SELECT i, CASE WHEN i % 11 = 0 THEN NULL
               ELSE md5(i::text) || CASE WHEN i % 7 = 0 THEN ' needle' ELSE '' END END
FROM generate_series(1, 200000) i;
ANALYZE split_words;
SELECT gpulike.cache('split_words', 'w');

-- A GpuLike plan forced; its engine, engine and kernel times (EXPLAIN
-- ANALYZE), and the count.
CREATE FUNCTION pg_temp.gpulike_count(predicate text, OUT engine text, OUT n bigint,
                                      OUT engine_ms float8, OUT kernel_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
	q text := 'SELECT count(*) FROM split_words WHERE ' || predicate;
	plan jsonb;
BEGIN
	SET LOCAL gpulike.regression_mode = off;
	SET LOCAL enable_seqscan = off;
	SET LOCAL max_parallel_workers_per_gather = 0;
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || q INTO plan;
	engine := jsonb_path_query_first(plan, '$.**."GpuLike Engine"') #>> '{}';
	engine_ms := jsonb_path_query_first(plan, '$.**."GpuLike Engine Time"');
	kernel_ms := jsonb_path_query_first(plan, '$.**."GpuLike Kernel Time"');
	EXECUTE q INTO n;
END $$;

CREATE FUNCTION pg_temp.postgres_count(predicate text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	SET LOCAL gpulike.enabled = off;
	EXECUTE 'SELECT count(*) FROM split_words WHERE ' || predicate INTO n;
	RETURN n;
END $$;

-- How many parts the server makes of this column under the settings.
CREATE FUNCTION pg_temp.expected_parts() RETURNS integer LANGUAGE sql AS $$
	SELECT CASE
		WHEN (SELECT sum(octet_length(w)) FROM split_words) <
			 (SELECT setting::bigint * 1024 FROM pg_settings
			  WHERE name = 'gpulike.gpu_split_min_size') THEN 1
		WHEN current_setting('gpulike.gpu_split_parts')::int > 0
			THEN current_setting('gpulike.gpu_split_parts')::int
		ELSE (SELECT device_count FROM gpulike.status()) END $$;

CREATE TEMP TABLE gpu_host AS SELECT engine = 'cuda' AS yes FROM gpulike.status();

SELECT is((SELECT count(*)::int FROM gpulike.devices()),
          (SELECT coalesce(device_count, 0) FROM gpulike.status()),
          'devices() lists every GPU status() counts');

-- First use: the copy goes to the GPU(s).
SELECT is((pg_temp.gpulike_count($$w LIKE '%needle%'$$)).n,
          pg_temp.postgres_count($$w LIKE '%needle%'$$),
          'LIKE over the split column: PostgreSQL''s count');
SELECT is((pg_temp.gpulike_count($$w ~ '^[0-9]+a.*needle$'$$)).n,
          pg_temp.postgres_count($$w ~ '^[0-9]+a.*needle$'$$),
          'a regex over the split column: PostgreSQL''s count');

SELECT CASE WHEN (SELECT yes FROM gpu_host)
	THEN is((SELECT cardinality(gpus) FROM gpulike.caches
	         WHERE relation = 'split_words'::regclass),
	        pg_temp.expected_parts(), 'the column is in as many parts as the settings say')
	ELSE skip('no GPU') END;
SELECT CASE WHEN (SELECT yes FROM gpu_host)
	THEN is((SELECT (SELECT sum(b) FROM unnest(gpu_bytes) b)::bigint FROM gpulike.caches
	         WHERE relation = 'split_words'::regclass),
	        (SELECT device_bytes FROM gpulike.caches WHERE relation = 'split_words'::regclass),
	        'the parts'' bytes add up to the column''s device bytes')
	ELSE skip('no GPU') END;
SELECT CASE WHEN (SELECT yes FROM gpu_host)
	THEN is((SELECT sum(cache_bytes)::bigint FROM gpulike.devices()),
	        (SELECT device_bytes FROM gpulike.status()),
	        'devices() shares out status()''s device bytes')
	ELSE skip('no GPU') END;
SELECT CASE WHEN (SELECT yes FROM gpu_host)
	THEN is((SELECT count(DISTINCT g)::int FROM gpulike.caches, unnest(gpus) g
	         WHERE relation = 'split_words'::regclass),
	        least(pg_temp.expected_parts(), (SELECT device_count FROM gpulike.status())),
	        'the parts are on as many GPUs as there are parts, or GPUs')
	ELSE skip('no GPU') END;

-- The last part fails on its GPU: the CPU engine answers, exactly.
DO $$ BEGIN
	PERFORM set_config('gpulike.debug_gpu_fail_part', (pg_temp.expected_parts() - 1)::text, false);
END $$;
CREATE TEMP TABLE failed AS SELECT * FROM pg_temp.gpulike_count($$w LIKE '%needle%'$$);
SELECT is((SELECT n FROM failed), pg_temp.postgres_count($$w LIKE '%needle%'$$),
          'a part failing on its GPU: PostgreSQL''s count still');
SELECT is((SELECT kernel_ms FROM failed), NULL,
          'no kernel time where the CPU engine answered');
SELECT CASE WHEN (SELECT yes FROM gpu_host)
	THEN ok((SELECT engine FROM failed) LIKE 'cpu%after a GPU failure',
	        'the CPU engine answered after the GPU failure: ' || (SELECT engine FROM failed))
	ELSE skip('no GPU') END;
SELECT is((pg_temp.gpulike_count($$w NOT LIKE '%needle%'$$)).n,
          pg_temp.postgres_count($$w NOT LIKE '%needle%'$$),
          'NOT LIKE with a failing part: PostgreSQL''s count');

-- The fault gone, the GPU answers again (the copy is uploaded anew).
RESET gpulike.debug_gpu_fail_part;
CREATE TEMP TABLE recovered AS SELECT * FROM pg_temp.gpulike_count($$w LIKE '%needle%'$$);
SELECT is((SELECT n FROM recovered), pg_temp.postgres_count($$w LIKE '%needle%'$$),
          'after the fault: PostgreSQL''s count');
SELECT CASE WHEN (SELECT yes FROM gpu_host)
	THEN ok((SELECT engine FROM recovered) LIKE 'cuda%',
	        'after the fault the GPU answers again: ' || (SELECT engine FROM recovered))
	ELSE skip('no GPU') END;
SELECT CASE WHEN (SELECT yes FROM gpu_host)
	THEN ok((SELECT kernel_ms > 0 AND kernel_ms <= engine_ms FROM recovered),
	        'the GPU''s kernel time is within the engine time: ' ||
	        (SELECT kernel_ms || ' of ' || engine_ms || ' ms' FROM recovered))
	ELSE skip('no GPU') END;

SELECT gpulike.uncache('split_words', 'w');
DROP TABLE split_words;
SELECT * FROM finish();
