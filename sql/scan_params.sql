--
-- GpuLike custom scan with patterns known only at execution: prepared
-- statements (generic and custom plans), correlated subqueries and cursors
-- that rescan the node with new Param values, outer joins, partitions.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

CREATE TABLE docs (id int PRIMARY KEY, body text, tag varchar(8));
INSERT INTO docs
SELECT i,
	   CASE WHEN i % 9 = 0 THEN NULL ELSE md5(i::text) END,
	   substr(md5((i * 5)::text), 1, 4)
FROM generate_series(1, 500) i;
ANALYZE docs;
SELECT scan_cache('docs', 'body');
SELECT scan_cache('docs', 'tag');

CREATE TABLE patterns (pid int, pat text);
INSERT INTO patterns VALUES (1, '%ab%'), (2, '%7_7%'), (3, NULL), (4, 'f%'), (5, '%zz%');

-- Prepared statements: a generic plan compiles the pattern at execution.
PREPARE by_pattern(text) AS SELECT count(*) FROM docs WHERE body LIKE $1;
PREPARE by_patterns(text[]) AS SELECT count(*) FROM docs WHERE body LIKE ANY ($1);
PREPARE by_tag(varchar) AS SELECT count(*) FROM docs WHERE tag ~ $1 OR body ILIKE $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE by_pattern('%ab%');
EXECUTE by_pattern('%ab%');
EXECUTE by_pattern('%7_7%');
EXECUTE by_pattern(NULL);
EXPLAIN (COSTS OFF) EXECUTE by_patterns(ARRAY['%ab%', '%cd%']);
EXECUTE by_patterns(ARRAY['%ab%', '%cd%']);
EXECUTE by_patterns(ARRAY['%ab%', NULL]);
EXECUTE by_patterns(NULL);
EXPLAIN (COSTS OFF) EXECUTE by_tag('^a');
EXECUTE by_tag('^a');
SET plan_cache_mode = force_custom_plan;
EXPLAIN (COSTS OFF) EXECUTE by_pattern('%ab%');
EXECUTE by_pattern('%ab%');
EXECUTE by_patterns(ARRAY['%ab%', '%cd%']);
EXECUTE by_tag('^a');
-- the same counts from PostgreSQL alone (custom plans are made afresh)
SET gpulike.enabled = off;
EXECUTE by_pattern('%ab%');
EXECUTE by_pattern('%7_7%');
EXECUTE by_patterns(ARRAY['%ab%', '%cd%']);
EXECUTE by_patterns(ARRAY['%ab%', NULL]);
EXECUTE by_tag('^a');
SET gpulike.enabled = on;
RESET plan_cache_mode;

-- A correlated subquery: one request per outer row, each with its pattern.
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT pid, (SELECT count(*) FROM docs WHERE body LIKE pat) FROM patterns;
SELECT pid, pat, (SELECT count(*) FROM docs WHERE body LIKE pat) FROM patterns ORDER BY pid;
SELECT pid, pat, (SELECT count(*) || ' rows, ids sum to ' || sum(id) FROM docs
				  WHERE body LIKE pat AND NOT (tag LIKE '%a%'))
FROM patterns ORDER BY pid;
SET gpulike.enabled = off;
SELECT pid, pat, (SELECT count(*) FROM docs WHERE body LIKE pat) FROM patterns ORDER BY pid;
SELECT pid, pat, (SELECT count(*) || ' rows, ids sum to ' || sum(id) FROM docs
				  WHERE body LIKE pat AND NOT (tag LIKE '%a%'))
FROM patterns ORDER BY pid;
SET gpulike.enabled = on;

-- When only Params of the Filter change, rescans reuse the candidates.
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT pid, (SELECT count(*) FROM docs WHERE body LIKE '%a%' AND id % 10 = pid) FROM patterns;
SELECT pid, (SELECT count(*) FROM docs WHERE body LIKE '%a%' AND id % 10 = pid) FROM patterns ORDER BY pid;
SET gpulike.enabled = off;
SELECT pid, (SELECT count(*) FROM docs WHERE body LIKE '%a%' AND id % 10 = pid) FROM patterns ORDER BY pid;
SET gpulike.enabled = on;

-- A join on "column LIKE other_table.column": a nested loop rescans a
-- parameterized GpuLike scan, one request per outer row.
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_memoize = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT p.pid, count(d.id) FROM patterns p JOIN docs d ON d.body LIKE p.pat
GROUP BY p.pid;
SELECT p.pid, count(d.id), sum(d.id) FROM patterns p
JOIN docs d ON d.body LIKE p.pat AND NOT (d.tag ~ p.pat) GROUP BY p.pid ORDER BY 1;
EXPLAIN (COSTS OFF)
SELECT p.pid, count(d.id), sum(d.id) FROM patterns p
LEFT JOIN docs d ON d.body LIKE p.pat AND d.id > p.pid * 50 GROUP BY p.pid ORDER BY 1;
SELECT p.pid, count(d.id), sum(d.id) FROM patterns p
LEFT JOIN docs d ON d.body LIKE p.pat AND d.id > p.pid * 50 GROUP BY p.pid ORDER BY 1;
SET gpulike.enabled = off;
SELECT p.pid, count(d.id), sum(d.id) FROM patterns p
JOIN docs d ON d.body LIKE p.pat AND NOT (d.tag ~ p.pat) GROUP BY p.pid ORDER BY 1;
SELECT p.pid, count(d.id), sum(d.id) FROM patterns p
LEFT JOIN docs d ON d.body LIKE p.pat AND d.id > p.pid * 50 GROUP BY p.pid ORDER BY 1;
SET gpulike.enabled = on;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_memoize;

-- Rescans without new Params read the same candidates again.
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT p.pid, d.id FROM patterns p JOIN docs d ON d.id % 100 = p.pid
WHERE d.body LIKE '%a%b%';
SELECT p.pid, d.id FROM patterns p JOIN docs d ON d.id % 100 = p.pid
WHERE d.body LIKE '%a%b%' ORDER BY 1, 2;
SET gpulike.enabled = off;
SELECT p.pid, d.id FROM patterns p JOIN docs d ON d.id % 100 = p.pid
WHERE d.body LIKE '%a%b%' ORDER BY 1, 2;
SET gpulike.enabled = on;
RESET enable_material;

-- The LIKE on the nullable side of a LEFT JOIN.
EXPLAIN (COSTS OFF)
SELECT p.pid, d.id FROM patterns p
LEFT JOIN docs d ON d.id = p.pid * 10 AND d.body LIKE '%a%';
SELECT p.pid, d.id, d.body FROM patterns p
LEFT JOIN docs d ON d.id = p.pid * 10 AND d.body LIKE '%a%' ORDER BY 1;
SELECT p.pid, d.id FROM patterns p
LEFT JOIN (SELECT * FROM docs WHERE body NOT LIKE '%c%') d ON d.id = p.pid * 10
ORDER BY 1;
SET gpulike.enabled = off;
SELECT p.pid, d.id, d.body FROM patterns p
LEFT JOIN docs d ON d.id = p.pid * 10 AND d.body LIKE '%a%' ORDER BY 1;
SELECT p.pid, d.id FROM patterns p
LEFT JOIN (SELECT * FROM docs WHERE body NOT LIKE '%c%') d ON d.id = p.pid * 10
ORDER BY 1;
SET gpulike.enabled = on;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- Cursors: forward fetches, a rewind, and a SCROLL cursor (PostgreSQL puts
-- a Material node above the scan, which cannot run backward).
BEGIN;
DECLARE c1 CURSOR FOR SELECT id FROM docs WHERE body LIKE '%ab%' ORDER BY id;
FETCH 3 FROM c1;
FETCH 2 FROM c1;
CLOSE c1;
EXPLAIN (COSTS OFF) DECLARE c2 SCROLL CURSOR FOR SELECT id FROM docs WHERE body LIKE '%ab%';
DECLARE c2 SCROLL CURSOR FOR SELECT id FROM docs WHERE body LIKE '%ab%';
FETCH 4 FROM c2;
FETCH BACKWARD 2 FROM c2;
FETCH ABSOLUTE 1 FROM c2;
MOVE LAST IN c2;
FETCH BACKWARD 1 FROM c2;
CLOSE c2;
COMMIT;

-- Partitions: each partition is scanned with its own cache.
CREATE TABLE events (id int, kind text, msg text) PARTITION BY LIST (kind);
CREATE TABLE events_a PARTITION OF events FOR VALUES IN ('a');
CREATE TABLE events_b PARTITION OF events FOR VALUES IN ('b');
CREATE TABLE events_c PARTITION OF events FOR VALUES IN ('c');
INSERT INTO events
SELECT i, (ARRAY['a', 'b', 'c'])[i % 3 + 1], md5(i::text) FROM generate_series(1, 600) i;
ANALYZE events;
SELECT scan_cache('events_a', 'msg');
SELECT scan_cache('events_b', 'msg');
-- events_c is not cached: PostgreSQL's plan for that partition
EXPLAIN (COSTS OFF) SELECT id FROM events WHERE msg LIKE '%ab%';
EXPLAIN (COSTS OFF) SELECT id FROM events WHERE msg LIKE '%ab%' AND kind = 'b';
SELECT kind, count(*), sum(id) FROM events WHERE msg LIKE '%ab%' GROUP BY kind ORDER BY kind;
SELECT count(*) FROM events WHERE msg NOT LIKE '%ab%' AND msg ~ '^[0-9]';
SET gpulike.enabled = off;
SELECT kind, count(*), sum(id) FROM events WHERE msg LIKE '%ab%' GROUP BY kind ORDER BY kind;
SELECT count(*) FROM events WHERE msg NOT LIKE '%ab%' AND msg ~ '^[0-9]';
SET gpulike.enabled = on;

DEALLOCATE ALL;
DROP TABLE events;
DROP TABLE patterns;
DROP TABLE docs;
DROP FUNCTION scan_cache(regclass, name);
