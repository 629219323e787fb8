--
-- An OR whose pattern arms the server answers beside arms it cannot
-- ("body LIKE '%x%' OR n = 7"): the GpuLike scan reads every row and
-- evaluates only the other arms, on the rows the answer does not hold.
-- Each shape must use the GpuLike scan and return what PostgreSQL returns
-- with gpulike off: NULLs in either arm, NOT over an AND, arms on two
-- cached columns, an arm only partly offloadable, a lossy answer
-- (gpulike.recheck = always), parallel workers, rescans with correlated
-- patterns, a generic plan, DML, and the rows after writes.
--
SET client_min_messages = warning;
SET statement_timeout = '120s';
SET max_parallel_workers_per_gather = 0;
SELECT plan(44);

CREATE TABLE oa_docs (id int PRIMARY KEY, title text, body text, n int, flag bool);
INSERT INTO oa_docs
SELECT i,
	   CASE WHEN i % 89 = 0 THEN NULL
			ELSE (ARRAY['The lazy dog', 'the quick fox', 'A brown cat', 'THE END'])[1 + i % 4] END,
	   CASE WHEN i % 97 = 0 THEN NULL
			ELSE (ARRAY['Quick', 'brown', 'FOX', 'jumps', 'over', 'the', 'lazy', 'dog',
						'50%', 'off_peak', 'naïve', 'ÉCOLE'])[1 + i % 12] || ' ' ||
				 (ARRAY['red', 'green', 'Blue', 'quick', 'Dog', 'cat'])[1 + (i / 12) % 6] ||
				 ' ' || i::text END,
	   CASE WHEN i % 31 = 0 THEN NULL ELSE i % 50 END,
	   CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END
FROM generate_series(1, 20000) i;
ANALYZE oa_docs;
CREATE TABLE oa_words (id int PRIMARY KEY, w text);
INSERT INTO oa_words VALUES (1, 'quick'), (2, 'Dog'), (3, 'zebra'), (4, NULL), (7, '50%');
ANALYZE oa_words;
SELECT gpulike.cache('oa_docs', 'body');
SELECT gpulike.cache('oa_docs', 'title');

\ir include/cache_wait.sql
\ir include/served_alike.sql
SELECT is(pg_temp.wait_state('oa_docs', 'body', 'ready'), 'ready', 'body is cached');
SELECT is(pg_temp.wait_state('oa_docs', 'title', 'ready'), 'ready', 'title is cached');

SET enable_seqscan = off;

SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body LIKE '%quick%' OR n = 7$$,
							'LIKE or an integer');
SELECT pg_temp.served_alike($$SELECT id, n FROM oa_docs WHERE NOT (body ILIKE '%QUICK%' AND n = 7)$$,
							'NOT over an AND');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body ~ 'o[gx]' OR title LIKE 'the%' OR flag$$,
							'arms on two cached columns beside a NULL-able boolean');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body NOT LIKE '%a%' OR flag IS NULL$$,
							'NOT LIKE, whose NULL rows no arm holds');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body LIKE '%quick%' OR (body LIKE '%dog%' AND n > 3)$$,
							'an arm only partly offloadable is left to PostgreSQL');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE (body LIKE '%Blue%' OR n < 2) AND id % 3 = 0$$,
							'with another clause, the Filter');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body LIKE '%zebra%' OR n = 7$$,
							'a pattern matching nothing');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body LIKE '%' OR n = 7$$,
							'a pattern matching every non-NULL row');
SELECT pg_temp.served_alike($$SELECT count(*) FROM oa_docs WHERE body ILIKE '%dog%' OR n IS NULL$$,
							'count(*)');

-- the explain says what the scan does
SELECT ok(EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT id FROM oa_docs WHERE body LIKE '%quick%' OR n = 7$$) l
	WHERE l LIKE '%Other Arms: (n = 7)%'), 'EXPLAIN shows the other arms');

-- a lossy answer: the rows the answer holds are rechecked
SET gpulike.recheck = always;
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body LIKE '%quick%' OR n = 7$$,
							'gpulike.recheck = always');
RESET gpulike.recheck;

-- rescans: the pattern and the other arm from each outer row
SELECT pg_temp.served_alike(
	$$SELECT w.id, (SELECT count(*) FROM oa_docs d WHERE d.body LIKE '%' || w.w || '%' OR d.n = w.id)
	  FROM oa_words w$$, 'correlated pattern and other arm');

-- a generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE oa_generic(text, int) AS SELECT id FROM oa_docs WHERE body ILIKE '%' || $1 || '%' OR n = $2;
SELECT ok(pg_temp.plan_uses_gpulike($$EXECUTE oa_generic('dog', 7)$$), 'generic plan: uses the GpuLike scan');
SELECT is(pg_temp.executed($$EXECUTE oa_generic('dog', 7)$$),
		  pg_temp.rows_of($$SELECT id FROM oa_docs WHERE body ILIKE '%dog%' OR n = 7$$, false),
		  'generic plan: the rows PostgreSQL returns');
SELECT is(pg_temp.executed($$EXECUTE oa_generic(NULL, 7)$$),
		  pg_temp.rows_of($$SELECT id FROM oa_docs WHERE body ILIKE NULL OR n = 7$$, false),
		  'generic plan, NULL pattern: the rows PostgreSQL returns');
RESET plan_cache_mode;

-- parallel workers, each reading its share of the heap against the one answer
-- (the table's parallel_workers: on a machine of any size, planner.c)
ALTER TABLE oa_docs SET (parallel_workers = 2);
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT ok(EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT id FROM oa_docs WHERE body LIKE '%quick%' OR n = 7$$) l
	WHERE l LIKE '%Parallel Custom Scan (GpuLike)%'), 'a parallel plan is offered');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body LIKE '%quick%' OR n = 7$$,
							'parallel');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE NOT (body ILIKE '%o%' AND flag)$$,
							'parallel, NOT over an AND');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
ALTER TABLE oa_docs RESET (parallel_workers);
SET max_parallel_workers_per_gather = 0;

-- writes: updated, deleted and inserted rows after the load
UPDATE oa_docs SET body = 'now quick ' || id WHERE id % 101 = 0;
UPDATE oa_docs SET n = 7 WHERE id % 103 = 0;
DELETE FROM oa_docs WHERE id % 107 = 0;
INSERT INTO oa_docs SELECT i, 'new', 'quick new ' || i, i % 9, NULL FROM generate_series(20001, 20500) i;
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE body LIKE '%quick%' OR n = 7$$,
							'after writes');
SELECT pg_temp.served_alike($$SELECT id, body FROM oa_docs WHERE body LIKE '%new%' OR n IS NULL$$,
							'after writes, inserted rows');

-- DML with RETURNING, in a transaction rolled back
BEGIN;
WITH updated AS (UPDATE oa_docs SET n = -1 WHERE body LIKE '%lazy%' OR n = 9 RETURNING id)
SELECT is(array_agg(id ORDER BY id),
		  (SELECT array_agg(id ORDER BY id) FROM oa_docs WHERE body || '' LIKE '%lazy%' OR n = 9),
		  'UPDATE ... RETURNING updates the rows PostgreSQL would')
FROM updated;
ROLLBACK;
SELECT ok(pg_temp.plan_uses_gpulike($$UPDATE oa_docs SET n = -1 WHERE body LIKE '%lazy%' OR n = 9$$),
		  'UPDATE uses the GpuLike scan');

-- not offered: no pattern arm, or every arm a pattern (the ordinary scan)
SELECT ok(NOT EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT id FROM oa_docs WHERE n = 7 OR flag$$) l WHERE l LIKE '%GpuLike%'),
	'an OR without a pattern arm is not offered');
SELECT ok(NOT EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT id FROM oa_docs WHERE body LIKE '%a%' OR title LIKE '%b%'$$) l WHERE l LIKE '%Other Arms%'),
	'an OR of pattern arms alone is answered whole');
-- an ordinary offloadable clause beside the OR: its candidates, the OR a Filter
SELECT ok(NOT EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT id FROM oa_docs WHERE title LIKE 'the%' AND (body LIKE '%quick%' OR n = 7)$$) l
	WHERE l LIKE '%Other Arms%'), 'a clause answered whole comes first');
SELECT pg_temp.served_alike($$SELECT id FROM oa_docs WHERE title LIKE 'the%' AND (body LIKE '%quick%' OR n = 7)$$,
							'a clause answered whole beside the OR');

SELECT * FROM finish();
DROP TABLE oa_docs, oa_words;
