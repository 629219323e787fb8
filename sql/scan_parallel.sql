--
-- Parallel GpuLike scans: a partial path under a Gather, one request per
-- pass shared by every participant, candidate pages split among them; the
-- parallel count; rescans, with new Params passed to the workers; the
-- recheck and heap-fetch figures summed over the participants, in text
-- and in FORMAT JSON.  Every result is compared with PostgreSQL's own.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

-- Not vacuumed: no page is all-visible, so even a count reads its pages
-- (and is worth doing in parallel).  Its parallel_workers set, so that its
-- workers share the work on a machine of any number of CPUs (planner.c).
CREATE TABLE par (id int, c text, n int) WITH (autovacuum_enabled = off, parallel_workers = 2);
INSERT INTO par SELECT i, md5(i::text), i % 10 FROM generate_series(1, 20000) i;
ANALYZE par;
SELECT scan_cache('par', 'c');
CREATE TABLE pats (pid int, pat text);
INSERT INTO pats VALUES (1, '%ab%'), (2, '%abc%'), (3, NULL), (4, '%f0%');
ANALYZE pats;

-- Make parallel plans win whenever they are offered.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;

-- Run a query with gpulike on and off: same rows?
CREATE FUNCTION par_check(query text) RETURNS text
LANGUAGE sql AS $$
	SELECT pg_temp.scan_versus_postgres(query, 'Parallel Custom Scan (GpuLike)', 'parallel GpuLike',
								'no parallel GpuLike')
$$;

-- EXPLAIN ANALYZE, leaving out what depends on how the work fell to the
-- participants (rows per loop, workers launched).
CREATE FUNCTION par_explain(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
		CONTINUE WHEN line ~ 'Workers Launched';
		RETURN NEXT regexp_replace(line, ' \(actual rows=\d+ loops=\d+\)', '');
	END LOOP;
END $$;

-- Plans: rows, an aggregate over them, count(*) counted in the scan.
EXPLAIN (COSTS OFF) SELECT id FROM par WHERE c LIKE '%ab%';
EXPLAIN (COSTS OFF) SELECT sum(n) FROM par WHERE c LIKE '%ab%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM par WHERE c NOT LIKE '%ab%';

SELECT q, par_check(q) FROM (VALUES
	($$SELECT id, c FROM par WHERE c LIKE '%ab%'$$),
	($$SELECT sum(n), count(*) FROM par WHERE c LIKE '%ab%' AND n > 3$$),
	($$SELECT count(*) FROM par WHERE c NOT LIKE '%ab%'$$),
	($$SELECT count(*) FROM par WHERE c LIKE '%zzz%'$$),
	($$SELECT n, count(*) FROM par WHERE c ~ '^[0-9]+a' GROUP BY n$$),
	($$SELECT count(*) FROM par WHERE c ILIKE ANY (ARRAY['%AB%', '%CD%'])$$)
) v(q);

-- One request for all participants; totals over them.
SELECT * FROM par_explain($$SELECT sum(n) FROM par WHERE c LIKE '%ab%'$$);
SELECT * FROM par_explain($$SELECT count(*) FROM par WHERE c NOT LIKE '%ab%'$$);

-- A lossy answer (a back-reference makes the regex a superset): every
-- candidate is rechecked, in every participant.
SELECT par_check($$SELECT id FROM par WHERE c ~ '([a-f])\1'$$);
SELECT * FROM par_explain($$SELECT sum(n) FROM par WHERE c ~ '([a-f])\1'$$);

-- The figures in FORMAT JSON.
CREATE FUNCTION par_json(query text) RETURNS TABLE (key text, value jsonb)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || query
		INTO plan;
	RETURN QUERY
	SELECT e.key, e.value
	FROM jsonb_each(jsonb_path_query_first(plan,
			'strict $.**?(@."Custom Plan Provider" == "GpuLike")')) e
	WHERE e.key NOT IN ('Actual Rows', 'Actual Loops', 'Startup Cost', 'Total Cost',
						'Plan Rows', 'Plan Width', 'Parent Relationship', 'Async Capable',
						'Workers')
	ORDER BY e.key;
END $$;
SELECT * FROM par_json($$SELECT sum(n) FROM par WHERE c ~ '([a-f])\1'$$);

-- Rescans: the Gather below a nested loop runs again for every outer row,
-- each time with a new request.
SET enable_material = off;
EXPLAIN (COSTS OFF)
SELECT * FROM (SELECT sum(n) FROM par WHERE c LIKE '%ab%') ss
RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true;
SELECT par_check($$SELECT * FROM (SELECT sum(n) FROM par WHERE c LIKE '%ab%') ss
RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true$$);
RESET enable_material;

-- Rescans with new Params: a correlated subquery whose pattern reaches the
-- workers as an evaluated initplan Param, new for every outer row.
EXPLAIN (COSTS OFF)
SELECT pid, (SELECT sum(n) FROM par WHERE c LIKE (SELECT p.pat)) FROM pats p;
SELECT par_check($$SELECT pid, (SELECT sum(n) FROM par WHERE c LIKE (SELECT p.pat)) FROM pats p$$);
SELECT pid, (SELECT sum(n) FROM par WHERE c LIKE (SELECT p.pat)) FROM pats p ORDER BY pid;

-- A parallel plan run without workers (none allowed): the same rows.
SET max_parallel_workers = 0;
SELECT par_check($$SELECT sum(n), count(*) FROM par WHERE c LIKE '%ab%'$$);
RESET max_parallel_workers;

-- Within a transaction that deleted and inserted rows, before and after
-- commit: every participant sees what the snapshot sees.
BEGIN;
DELETE FROM par WHERE id % 7 = 0;
INSERT INTO par SELECT 100000 + i, 'abab' || i, 0 FROM generate_series(1, 100) i;
SELECT par_check($$SELECT count(*), sum(n) FROM par WHERE c LIKE '%ab%'$$);
COMMIT;
SELECT par_check($$SELECT count(*), sum(n) FROM par WHERE c LIKE '%ab%'$$);

DROP TABLE par;
DROP TABLE pats;
DROP FUNCTION par_check(text);
DROP FUNCTION par_explain(text);
DROP FUNCTION par_json(text);
DROP FUNCTION scan_cache(regclass, name);
