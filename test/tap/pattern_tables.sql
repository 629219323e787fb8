--
-- Rows matching any pattern of a table: "col LIKE ANY (SELECT p FROM t)"
-- and "EXISTS (SELECT 1 FROM t WHERE col LIKE t.p)".  With the column
-- cached, both are planned as a LIKE ANY over the array of the patterns
-- (scan/pattern_sublinks.c) and served by the GpuLike scan; every form,
-- rewritten or not, must return what PostgreSQL returns with gpulike off:
-- NULL and empty patterns, an empty pattern table, other quals in the
-- subquery, NOT, correlation beyond the pattern, a generic plan, regexes
-- and ILIKE, and patterns changed in the same transaction.
--
SET client_min_messages = warning;
SET statement_timeout = '120s';
SET max_parallel_workers_per_gather = 0;
SELECT plan(43);

CREATE TABLE pt_docs (id int PRIMARY KEY, title varchar(60), body text, n int);
INSERT INTO pt_docs
SELECT i, (ARRAY['The lazy dog', 'the quick fox', 'A brown cat', 'THE END'])[1 + i % 4],
	   CASE WHEN i % 97 = 0 THEN NULL
			ELSE (ARRAY['Quick', 'brown', 'FOX', 'jumps', 'over', 'the', 'lazy', 'dog',
						'50%', 'off_peak', 'naïve', 'ÉCOLE'])[1 + i % 12] || ' ' ||
				 (ARRAY['red', 'green', 'Blue', 'quick', 'Dog', 'cat'])[1 + (i / 12) % 6] ||
				 ' ' || i::text END,
	   i % 10
FROM generate_series(1, 20000) i;
ANALYZE pt_docs;
CREATE TABLE pt_block (id int PRIMARY KEY, pattern text, active bool);
INSERT INTO pt_block VALUES (1, '%quick%', true), (2, 'FOX%', true), (3, '%50!%%', false),
	(4, NULL, true), (5, '', true), (6, '%naï%', false), (7, '%9', true);
CREATE TABLE pt_keywords (id int PRIMARY KEY, re text);
INSERT INTO pt_keywords VALUES (1, 'o[gx] '), (2, '^É'), (3, 'r.d 1[0-9]$');
ANALYZE pt_block;
ANALYZE pt_keywords;
SELECT gpulike.cache('pt_docs', 'body');
SELECT gpulike.cache('pt_docs', 'title');

\ir include/cache_wait.sql
\ir include/served_alike.sql
SELECT is(pg_temp.wait_state('pt_docs', 'body', 'ready'), 'ready', 'body is cached');
SELECT is(pg_temp.wait_state('pt_docs', 'title', 'ready'), 'ready', 'title is cached');

SET enable_seqscan = off;

SELECT pg_temp.served_alike($$SELECT id FROM pt_docs WHERE body LIKE ANY (SELECT pattern FROM pt_block)$$,
							'LIKE ANY (subquery)');
SELECT pg_temp.served_alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$,
							'EXISTS');
SELECT pg_temp.served_alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE b.active AND d.body ILIKE b.pattern)$$,
							'EXISTS, ILIKE, another qual in the subquery');
SELECT pg_temp.served_alike($$SELECT d.id FROM pt_docs d WHERE d.n > 3 AND EXISTS (SELECT b.id, b.pattern FROM pt_block b WHERE d.body LIKE b.pattern ORDER BY 1)$$,
							'EXISTS beside another conjunct, with ORDER BY');
SELECT pg_temp.served_alike($$SELECT id FROM pt_docs WHERE body ~ ANY (SELECT re FROM pt_keywords)$$,
							'regex ANY (subquery)');
SELECT pg_temp.served_alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_keywords k WHERE d.body ~* k.re)$$,
							'EXISTS, case-insensitive regex');
SELECT pg_temp.served_alike($$SELECT id FROM pt_docs WHERE title LIKE ANY (SELECT pattern FROM pt_block)$$,
							'a varchar column');
SELECT pg_temp.served_alike($$SELECT id FROM pt_docs WHERE body LIKE ANY (SELECT pattern FROM pt_block WHERE false)$$,
							'no patterns');
SELECT pg_temp.served_alike($$SELECT id FROM pt_docs WHERE body LIKE ANY (SELECT pattern FROM pt_block WHERE pattern IS NULL)$$,
							'a NULL pattern alone');
SELECT pg_temp.served_alike($$SELECT count(*) FROM pt_docs WHERE body NOT LIKE ANY (SELECT pattern FROM pt_block)$$,
							'NOT LIKE ANY (subquery)');

-- forms left as PostgreSQL plans them, answered alike
SELECT pg_temp.alike($$SELECT d.id FROM pt_docs d WHERE NOT EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$,
					 'NOT EXISTS');
SELECT pg_temp.alike($$SELECT id FROM pt_docs WHERE NOT (body LIKE ANY (SELECT pattern FROM pt_block))$$,
					 'NOT (LIKE ANY (subquery))');
SELECT pg_temp.alike($$SELECT id, body LIKE ANY (SELECT pattern FROM pt_block) FROM pt_docs WHERE id % 50 = 0$$,
					 'LIKE ANY (subquery) in the target list');
SELECT pg_temp.alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern AND b.id = d.n)$$,
					 'EXISTS correlated beyond the pattern');
SELECT pg_temp.alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern LIMIT 0)$$,
					 'EXISTS with LIMIT 0');
SELECT pg_temp.alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT generate_series(1, 0) FROM pt_block b WHERE d.body LIKE b.pattern)$$,
					 'EXISTS of a set-returning function that returns nothing');
SELECT pg_temp.alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.id::text LIKE b.pattern)$$,
					 'EXISTS over an expression that is not cached');
SELECT pg_temp.alike($$SELECT d.id FROM pt_docs d WHERE d.body LIKE '%o%' OR EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$,
					 'EXISTS under an OR');
SELECT pg_temp.alike($$SELECT b.id, (SELECT count(*) FROM pt_docs d WHERE d.body LIKE ANY (SELECT pattern FROM pt_block c WHERE c.id <= b.id)) FROM pt_block b$$,
					 'patterns from a subquery correlated with an outer query');

-- the plan: an InitPlan's array, no semi-join
SELECT ok(NOT EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$) l
	WHERE l LIKE '%Semi Join%'), 'EXISTS: no semi-join left');
SELECT ok(EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$) l
	WHERE l LIKE '%InitPlan%'), 'EXISTS: the patterns are an InitPlan');

-- gpulike off: the query is planned as written
SET gpulike.enabled = off;
SELECT ok(EXISTS (SELECT 1 FROM pg_temp.explain_lines(
	$$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$) l
	WHERE l LIKE '%Semi Join%'), 'gpulike off: the semi-join is PostgreSQL''s');
RESET gpulike.enabled;

-- a generic plan with the patterns chosen by a parameter
SET plan_cache_mode = force_generic_plan;
PREPARE pt_generic(bool) AS
	SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE b.active = $1 AND d.body LIKE b.pattern);
SELECT ok(pg_temp.plan_uses_gpulike($$EXECUTE pt_generic(true)$$), 'generic plan: uses the GpuLike scan');
SELECT is(pg_temp.executed($$EXECUTE pt_generic(true)$$),
		  pg_temp.rows_of($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE b.active AND d.body LIKE b.pattern)$$, false),
		  'generic plan, active patterns: the rows PostgreSQL returns');
SELECT is(pg_temp.executed($$EXECUTE pt_generic(false)$$),
		  pg_temp.rows_of($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE NOT b.active AND d.body LIKE b.pattern)$$, false),
		  'generic plan, inactive patterns: the rows PostgreSQL returns');
RESET plan_cache_mode;

-- patterns and rows changed in the transaction: the array is the snapshot's
BEGIN;
INSERT INTO pt_block VALUES (8, '%ÉCOLE Dog%', true);
DELETE FROM pt_block WHERE id = 1;
UPDATE pt_docs SET body = 'now FOX ' || id WHERE id % 101 = 0;
SELECT pg_temp.served_alike($$SELECT d.id FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$,
							'after writes in the transaction');
ROLLBACK;

-- count(*), and parallel workers
SELECT pg_temp.served_alike($$SELECT count(*) FROM pt_docs d WHERE EXISTS (SELECT 1 FROM pt_block b WHERE d.body LIKE b.pattern)$$,
							'count(*)');
ALTER TABLE pt_docs SET (parallel_workers = 2);
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT pg_temp.served_alike($$SELECT id FROM pt_docs WHERE body LIKE ANY (SELECT pattern FROM pt_block)$$,
							'parallel');

SELECT * FROM finish();
DROP TABLE pt_docs, pt_block, pt_keywords;
