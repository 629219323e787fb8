--
-- The shapes applications send besides "column LIKE constant": patterns
-- computed at execution ('%' || $1 || '%' in a generic plan, an InitPlan's
-- result, the other side of a join), and predicates that are pattern
-- matches in other words (strpos, starts_with, regexp_like, lower(column)
-- LIKE, coalesce(column, ''), upper(column) LIKE) -- their plans, and at
-- DEBUG1 why a predicate on a cached column is left to PostgreSQL.
-- test/tap/idioms.sql and pattern_sources.sql compare their answers with
-- PostgreSQL's.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

CREATE TABLE notes (id int PRIMARY KEY, body text, n int);
INSERT INTO notes
SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE 'Note ' || md5(i::text) END, i % 10
FROM generate_series(1, 300) i;
ANALYZE notes;
SELECT scan_cache('notes', 'body');
CREATE TABLE terms (tid int, t text);
INSERT INTO terms VALUES (1, 'ab'), (2, 'NOTE 1'), (3, '5_');

-- patterns computed at execution
SET plan_cache_mode = force_generic_plan;
PREPARE contains(text) AS SELECT count(*) FROM notes WHERE body ILIKE '%' || $1 || '%';
EXPLAIN (COSTS OFF) EXECUTE contains('ab');
EXECUTE contains('ab');
RESET plan_cache_mode;
EXPLAIN (COSTS OFF)
SELECT id FROM notes WHERE body LIKE '%' || (SELECT t FROM terms WHERE tid = 1) || '%';
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_memoize = off;
EXPLAIN (COSTS OFF)
SELECT t.tid, count(*) FROM terms t JOIN notes d ON d.body ILIKE '%' || t.t || '%' GROUP BY 1;
SELECT t.tid, count(*) FROM terms t JOIN notes d ON d.body ILIKE '%' || t.t || '%'
GROUP BY 1 ORDER BY 1;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_memoize;

-- pattern matches in other words
EXPLAIN (COSTS OFF) SELECT count(*) FROM notes WHERE strpos(body, 'ab') > 0;
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE position('5_' in body) = 0;
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE body ^@ 'Note 1';
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE regexp_like(body, 'AB[0-9]', 'i');
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE lower(body) LIKE '%' || lower('AB') || '%';
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE coalesce(body, '') LIKE '%ab_%';
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE UPPER(body::text) LIKE UPPER('%Ab%');
-- each one's rows with gpulike on and off
SELECT query, pg_temp.scan_versus_postgres(query, 'GpuLike', 'GpuLike', 'PostgreSQL plan')
FROM (VALUES
	($$SELECT count(*) FROM notes WHERE strpos(body, 'ab') > 0$$),
	($$SELECT id FROM notes WHERE strpos(body, 'ab') > 0$$),
	($$SELECT id FROM notes WHERE position('5_' in body) = 0$$),
	($$SELECT id FROM notes WHERE body ^@ 'Note 1'$$),
	($$SELECT id FROM notes WHERE regexp_like(body, 'AB[0-9]', 'i')$$),
	($$SELECT id FROM notes WHERE lower(body) LIKE '%' || lower('AB') || '%'$$),
	($$SELECT id FROM notes WHERE coalesce(body, '') LIKE '%ab_%'$$),
	($$SELECT id FROM notes WHERE UPPER(body::text) LIKE UPPER('%Ab%')$$)) q(query);

-- why a predicate on the cached column is left to PostgreSQL
SET client_min_messages = debug1;
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE body LIKE '%' || id || '%';
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE body LIKE '%' || (random() * 9)::int || '%';
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE (body LIKE '%ab%' AND n = 7) OR n = 8;
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE (body || ' x') LIKE '%AB%';
EXPLAIN (COSTS OFF) SELECT id FROM notes WHERE coalesce(body, '') LIKE '%';
RESET client_min_messages;

DEALLOCATE ALL;
DROP TABLE notes, terms;
DROP FUNCTION scan_cache(regclass, name);
