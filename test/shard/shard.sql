--
-- Sharding on postgres_fdw (run on the coordinator test/shard/setup makes):
-- sharded.comments is partitioned over the shards, demo.comments is the
-- same rows in one local table, not cached: PostgreSQL's own answers.  For
-- each query: the predicate goes to the
-- shards in the Remote SQL and nothing is left to the coordinator, the
-- shards are scanned asynchronously, the count and the rows equal the
-- local table's, and every shard answered through its GpuLike scan (its
-- gpulike.stat_caches.requests moved by one per query, without a heap
-- fallback).  Those queries run with sequential scans disabled on the
-- shards, so that what is tested is the path to the GpuLike scan, not the
-- shards' cost model on small tables; the setup's own settings are then
-- checked with a selective query, and the controls show the counters do
-- not move when no GpuLike scan answers.
--
SET client_min_messages = warning;

-- The demo's queries, and forms they do not cover.
\ir ../demo.d/predicates.sql
INSERT INTO demo_queries VALUES
  (8, 'SIMILAR TO',  $p$body SIMILAR TO '%(bold|even) fox%'$p$),
  (9, '~*',          $p$body ~* 'zürich|NAÏVE'$p$),
  (10, '!~',         $p$body !~ '[aeiou]{2}'$p$),
  (11, 'NOT ILIKE',  $p$body NOT ILIKE '%E%'$p$),
  (12, 'AND/OR/NOT', $p$(body LIKE '%special%' OR body ~ 'bold fox') AND NOT body ILIKE '%PINTO%'$p$);

SELECT plan(4 * (SELECT count(*) FROM demo_queries)::int + 7);

-- Each shard's statistics, through postgres_fdw.
CREATE SCHEMA shard_stats;
DO $$
DECLARE
	server name;
BEGIN
	FOR server IN SELECT srvname FROM pg_foreign_server ORDER BY 1 LOOP
		EXECUTE format('CREATE FOREIGN TABLE shard_stats.%I (requests bigint, heap_fallbacks bigint)
						SERVER %I OPTIONS (schema_name %L, table_name %L)',
					   server, server, 'gpulike', 'stat_caches');
	END LOOP;
END $$;

-- Settings of the shards' sessions: the servers' libpq options (their
-- connections are made again on next use).
CREATE PROCEDURE pg_temp.shard_settings(options text) LANGUAGE plpgsql AS $$
DECLARE
	server name;
BEGIN
	FOR server IN SELECT srvname FROM pg_foreign_server LOOP
		EXECUTE format('ALTER SERVER %I OPTIONS (SET options %L)', server, options);
	END LOOP;
END $$;

CREATE FUNCTION pg_temp.shard_counters(OUT server name, OUT requests bigint,
									   OUT heap_fallbacks bigint)
RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
	FOR server IN SELECT srvname FROM pg_foreign_server ORDER BY 1 LOOP
		EXECUTE format('SELECT sum(requests), sum(heap_fallbacks) FROM shard_stats.%I', server)
			INTO requests, heap_fallbacks;
		RETURN NEXT;
	END LOOP;
END $$;

-- Requests and heap fallbacks each shard made since snapshot `before`.
CREATE FUNCTION pg_temp.shard_moves(before jsonb, OUT server name,
									OUT requests bigint, OUT heap_fallbacks bigint)
RETURNS SETOF record LANGUAGE sql AS $$
	SELECT c.server, c.requests - (before -> c.server ->> 0)::bigint,
		   c.heap_fallbacks - (before -> c.server ->> 1)::bigint
	FROM pg_temp.shard_counters() c $$;
CREATE FUNCTION pg_temp.shard_snapshot() RETURNS jsonb LANGUAGE sql AS $$
	SELECT jsonb_object_agg(server, jsonb_build_array(requests, heap_fallbacks))
	FROM pg_temp.shard_counters() $$;

CREATE FUNCTION pg_temp.plan_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q;
END $$;

-- Order-independent fingerprint of a row-returning query's rows.
CREATE FUNCTION pg_temp.rows_of(q text, OUT n bigint, OUT digest text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT count(*), md5(string_agg(id || %L || body, %L ORDER BY id)) FROM (%s) r',
				   ':', E'\n', q) INTO n, digest;
END $$;

SELECT ok(count(DISTINCT f.ftserver) = (SELECT count(*) FROM pg_foreign_server)
		  AND count(*) = count(DISTINCT f.ftserver) AND count(*) >= 2,
		  format('sharded.comments has a foreign partition on each of the %s shards', count(*)))
FROM pg_inherits i JOIN pg_foreign_table f ON f.ftrelid = i.inhrelid
WHERE i.inhparent = 'sharded.comments'::regclass;

CREATE FUNCTION pg_temp.check_query(label text, predicate text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	sharded text := 'SELECT id, body FROM sharded.comments WHERE ' || predicate;
	plan text[] := ARRAY(SELECT pg_temp.plan_lines(sharded));
	remote text[] := ARRAY(SELECT l FROM unnest(plan) l WHERE l LIKE '%Remote SQL:%');
	shards int := (SELECT count(*) FROM pg_foreign_server);
	before jsonb := pg_temp.shard_snapshot();
	got bigint;
	expected bigint;
	got_rows record;
	expected_rows record;
	moved text;
BEGIN
	RETURN NEXT ok(cardinality(remote) = shards
				   AND (SELECT bool_and(l ~ ' WHERE ') FROM unnest(remote) l)
				   AND NOT EXISTS (SELECT FROM unnest(plan) l WHERE l ~ '^\s*Filter:'),
				   format('%s: pushed down to every shard, nothing left to the coordinator (%s)',
						  label, substring(remote[1] FROM 'WHERE .*')));
	RETURN NEXT is((SELECT count(*) FROM unnest(plan) l WHERE l ~ 'Async Foreign Scan'),
				   shards::bigint, label || ': the shards are scanned asynchronously');

	EXECUTE 'SELECT count(*) FROM sharded.comments WHERE ' || predicate INTO got;
	EXECUTE 'SELECT count(*) FROM demo.comments WHERE ' || predicate INTO expected;
	got_rows := pg_temp.rows_of(sharded);
	expected_rows := pg_temp.rows_of('SELECT id, body FROM demo.comments WHERE ' || predicate);
	RETURN NEXT ok(got = expected AND got_rows.n = expected AND
				   got_rows.digest IS NOT DISTINCT FROM expected_rows.digest,
				   format('%s: count(*) and the rows equal the local table''s (%s rows; %s sharded)',
						  label, expected, got));

	SELECT string_agg(format('%s %s/%s', m.server, m.requests, m.heap_fallbacks), ', ' ORDER BY m.server)
	INTO moved FROM pg_temp.shard_moves(before) m;
	RETURN NEXT ok((SELECT bool_and(m.requests = 2 AND m.heap_fallbacks = 0)
					FROM pg_temp.shard_moves(before) m),
				   format('%s: each shard answered both through GpuLike (requests/heap fallbacks: %s)',
						  label, moved));
END $$;

CALL pg_temp.shard_settings('-c cursor_tuple_fraction=1 -c enable_seqscan=off');
SELECT pg_temp.check_query(label, predicate) FROM demo_queries ORDER BY ord;

-- A parameter is sent to the shards as one (a generic plan), and answered
-- there through GpuLike as well.
SET plan_cache_mode = force_generic_plan;
PREPARE by_pattern(text) AS SELECT count(*) FROM sharded.comments WHERE body LIKE $1;
SELECT ok(bool_and(l !~ 'Remote SQL:' OR l ~ 'WHERE \(\(body ~~ \$1::text\)\)'),
		  'a generic plan sends the pattern to the shards as a parameter')
FROM pg_temp.plan_lines('EXECUTE by_pattern(''%bold%fox%'')') l;
SELECT pg_temp.shard_snapshot() AS before \gset
EXECUTE by_pattern('%bold%fox%') \gset generic_
SELECT ok(:generic_count = (SELECT count(*) FROM demo.comments WHERE body LIKE '%bold%fox%')
		  AND bool_and(m.requests = 1 AND m.heap_fallbacks = 0),
		  format('the parameter''s answer is the local table''s (%s rows), from each shard''s GpuLike scan',
				 :generic_count))
FROM pg_temp.shard_moves(:'before') m;
RESET plan_cache_mode;

-- The setup's settings: a selective query is answered by every shard's
-- GpuLike scan.
CALL pg_temp.shard_settings('-c cursor_tuple_fraction=1');
SELECT pg_temp.shard_snapshot() AS before \gset
SELECT count(*) AS rare FROM sharded.comments WHERE body LIKE '%Customer%Complaints%' \gset
SELECT ok(:rare = (SELECT count(*) FROM demo.comments WHERE body LIKE '%Customer%Complaints%')
		  AND bool_and(m.requests = 1 AND m.heap_fallbacks = 0),
		  format('with the setup''s settings a selective LIKE (%s rows) is answered by GpuLike on every shard', :rare))
FROM pg_temp.shard_moves(:'before') m;

-- Why the setup sets cursor_tuple_fraction: postgres_fdw reads through a
-- cursor, which PostgreSQL plans for its first 10% of rows by default, and
-- a scan that starts returning rows at once then beats GpuLike's request.
CALL pg_temp.shard_settings('');
SELECT pg_temp.shard_snapshot() AS before \gset
SELECT count(*) AS rare FROM sharded.comments WHERE body LIKE '%Customer%Complaints%' \gset
SELECT ok(:rare = (SELECT count(*) FROM demo.comments WHERE body LIKE '%Customer%Complaints%')
		  AND sum(m.requests) = 0,
		  'with the default cursor_tuple_fraction the shards do not use GpuLike for the same query')
FROM pg_temp.shard_moves(:'before') m;

-- Controls: the counters move only when a shard's GpuLike scan answers.
CALL pg_temp.shard_settings('-c cursor_tuple_fraction=1');
SELECT pg_temp.shard_snapshot() AS before \gset
SELECT count(*) > 0 AS explained
FROM pg_temp.plan_lines('SELECT id FROM sharded.comments WHERE body LIKE ''%bold%fox%''') \gset
SELECT is(sum(m.requests), 0::numeric, 'EXPLAIN without ANALYZE makes no request on a shard')
FROM pg_temp.shard_moves(:'before') m;

CALL pg_temp.shard_settings('-c cursor_tuple_fraction=1 -c gpulike.enabled=off');
SELECT pg_temp.shard_snapshot() AS before \gset
SELECT ok((SELECT count(*) FROM sharded.comments WHERE body LIKE '%Customer%Complaints%') =
		  (SELECT count(*) FROM demo.comments WHERE body LIKE '%Customer%Complaints%')
		  AND (SELECT sum(m.requests) FROM pg_temp.shard_moves(:'before') m) = 0,
		  'with gpulike.enabled off on the shards: the same count, and no request');
CALL pg_temp.shard_settings('-c cursor_tuple_fraction=1');

SELECT * FROM finish();
DROP SCHEMA shard_stats CASCADE;
