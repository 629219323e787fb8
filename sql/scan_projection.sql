--
-- What the plan above a GpuLike scan reads from it.  When PostgreSQL puts
-- a projection in the scan (GROUP BY n % 5, price * 2, CREATE TABLE AS),
-- the scan once took the empty target list it was first given for "no
-- column needed" and returned empty rows for candidates on all-visible
-- pages: NULL groups, NULLs written into tables, UPDATE unable to find
-- its rows.  Every query here runs on all-visible pages (VACUUM), where
-- the scan may skip the heap when nothing of the row is needed.
--
-- Also what the query-shape fuzzer found: count(*) answered inside the
-- scan must honour quals the planner evaluates once (a gating Result),
-- such as a parameter's NULL; an invalid regex is PostgreSQL's to report.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

CREATE TABLE docs (id int PRIMARY KEY, title text, body text, data jsonb,
				   created date, n int);
INSERT INTO docs
SELECT g, 'title ' || g,
	   (ARRAY['the quick brown fox jumps over the lazy dog',
			  'a lazy dig', 'special requests', 'nothing here'])[1 + g % 4]
	   || ' ' || md5(g::text),
	   jsonb_build_object('tag', 't' || g % 3), date '2024-01-01' + g % 30, g % 100
FROM generate_series(1, 3000) g;
VACUUM (FREEZE, ANALYZE) docs;
SELECT scan_cache('docs', 'body');

-- The issue's report queries: a projection of columns the scan must read
EXPLAIN (COSTS OFF)
SELECT n % 5, count(*) FROM docs WHERE body ILIKE '%lazy dog%' GROUP BY 1 ORDER BY 1;
SELECT n % 5, count(*) FROM docs WHERE body ILIKE '%lazy dog%' GROUP BY 1 ORDER BY 1;
SELECT id % 3, count(*) FROM docs WHERE body ~ 'lazy d.g' GROUP BY 1 ORDER BY 1;
SELECT n % 5, count(*) FROM docs WHERE body ILIKE '%lazy dog%'
GROUP BY ROLLUP (1) HAVING count(*) > 10 ORDER BY 1;
SELECT DISTINCT n % 4 FROM docs WHERE body LIKE '%special%' ORDER BY 1;
SELECT DISTINCT ON (n % 3) n % 3, id FROM docs WHERE body LIKE '%special%' ORDER BY n % 3, id;
SELECT id, row_number() OVER (ORDER BY id) FROM docs WHERE body LIKE '%fox%' ORDER BY id LIMIT 3;
SELECT tableoid::regclass, count(*) FROM docs WHERE body LIKE '%fox%' GROUP BY 1;
SELECT data->>'tag', count(*) FROM docs WHERE body LIKE '%fox%' GROUP BY 1 ORDER BY 1;
SELECT length(title), count(*) FROM docs WHERE body LIKE '%dig%' GROUP BY 1 ORDER BY 1;
SELECT upper(title) FROM docs WHERE body LIKE '%dig%' ORDER BY 1 LIMIT 2;
SELECT count(*) FROM (SELECT n % 5 AS k FROM docs WHERE body LIKE '%dig%') s WHERE k = 1;
WITH c AS MATERIALIZED (SELECT n % 2 AS k FROM docs WHERE body LIKE '%dig%')
SELECT k, count(*) FROM c GROUP BY k ORDER BY k;
PREPARE grouped(int) AS
	SELECT n % $1, count(*) FROM docs WHERE body LIKE '%fox%' GROUP BY 1 ORDER BY 1;
EXECUTE grouped(3);
SET plan_cache_mode = force_generic_plan;
EXECUTE grouped(2);
RESET plan_cache_mode;
DEALLOCATE grouped;
-- system columns and whole rows
SELECT ctid FROM docs WHERE body LIKE '%special%' ORDER BY id LIMIT 2;
SELECT d::text FROM docs d WHERE body LIKE '%special%' AND id < 8 ORDER BY id;
SELECT pg_temp.scan_versus_postgres(
	$$SELECT n % 5, count(*) FROM docs WHERE body ILIKE '%lazy dog%' GROUP BY 1$$,
	'GpuLike', 'GpuLike', 'no GpuLike');

-- The data written from such projections
CREATE TABLE od (id int, price numeric, comment text);
INSERT INTO od
SELECT g, g * 1.5, md5(g::text) || CASE WHEN g % 1000 = 0 THEN ' special requests' ELSE '' END
FROM generate_series(1, 20000) g;
VACUUM ANALYZE od;
SELECT scan_cache('od', 'comment');
EXPLAIN (COSTS OFF, VERBOSE)
SELECT id, price * 2 FROM od WHERE comment LIKE '%special requests%' ORDER BY id LIMIT 3;
SELECT id, price * 2 FROM od WHERE comment LIKE '%special requests%' ORDER BY id LIMIT 3;
CREATE TABLE od_copy AS SELECT id, price * 2 p FROM od WHERE comment LIKE '%special requests%';
SELECT count(*), count(id), sum(p) FROM od_copy;
INSERT INTO od_copy SELECT id + 1, price * 3 FROM od WHERE comment LIKE '%special requests%';
SELECT count(*), count(id), sum(p) FROM od_copy;
BEGIN;
DECLARE cur CURSOR FOR SELECT id, price * 2 FROM od WHERE comment LIKE '%special requests%';
FETCH 2 FROM cur;
CLOSE cur;
COMMIT;
SELECT v.x, o.id * 2 FROM (VALUES (1), (2)) v(x),
	LATERAL (SELECT id FROM od WHERE comment LIKE '%special requests%' AND id > v.x * 10000
			 ORDER BY id LIMIT 1) o ORDER BY 1;
UPDATE od SET price = price + 1 WHERE comment LIKE '%special requests%';
SELECT count(*), sum(price) FROM od WHERE comment LIKE '%special requests%';
DELETE FROM od WHERE comment LIKE '%special requests%' AND id > 15000 RETURNING id, price;

-- The same in parallel: the workers' scans project too
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
VACUUM od;
CREATE TABLE od_parallel AS SELECT id, price * 2 p FROM od WHERE comment LIKE '%special requests%';
SELECT count(*), count(id), sum(p) FROM od_parallel;
SELECT n % 5, count(*) FROM docs WHERE body ILIKE '%lazy dog%' GROUP BY 1 ORDER BY 1;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- count(*) in the scan and a qual the planner evaluates once (the
-- fuzzer's find: a NULL parameter folded into "c LIKE NULL" or "$1 IS NOT
-- NULL" above the scan)
SET plan_cache_mode = force_generic_plan;
PREPARE gated(text) AS SELECT count(*) FROM docs WHERE body LIKE '%o%' AND $1 IS NOT NULL;
EXPLAIN (COSTS OFF) EXECUTE gated(NULL);
EXECUTE gated(NULL);
EXECUTE gated('x');
DEALLOCATE gated;
RESET plan_cache_mode;
CREATE FUNCTION docs_like(p text) RETURNS SETOF docs LANGUAGE sql STABLE AS
	'SELECT * FROM docs WHERE body LIKE p';
PREPARE folded(text) AS SELECT count(*) FROM docs_like('%o%') d WHERE d.title LIKE '%' || $1 || '%';
EXECUTE folded(NULL);
EXECUTE folded('1');
DEALLOCATE folded;

-- An invalid regex is PostgreSQL's to report, as it evaluates the
-- operator (the fuzzer's find: gpulike raised the error where PostgreSQL's
-- plan never evaluated it, another qual having rejected every row)
SELECT scan_cache('docs', 'title');
SET plan_cache_mode = force_generic_plan;
PREPARE invalid_regex(text) AS SELECT count(*) FROM docs WHERE title LIKE $1 AND body ~ $1;
EXECUTE invalid_regex('+');
DEALLOCATE invalid_regex;
RESET plan_cache_mode;
SELECT count(*) FROM docs WHERE body ~ '+';

DROP FUNCTION docs_like(text);
DROP TABLE docs, od, od_copy, od_parallel;
DROP FUNCTION scan_cache(regclass, name);
