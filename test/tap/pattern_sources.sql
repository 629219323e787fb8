--
-- Patterns that are not constants of the query: bound to a generic plan,
-- computed from a parameter ('%' || $1 || '%'), an InitPlan's result, a
-- correlated value, and the other side of a join (a nested loop rescans
-- the GpuLike scan with each outer row's pattern).  Each shape must use
-- the GpuLike scan and return what PostgreSQL returns with gpulike off,
-- for patterns that match many rows, none, every row, NULL, the empty
-- string and LIKE's own metacharacters.
--
SET client_min_messages = warning;
SET statement_timeout = '120s';
SET max_parallel_workers_per_gather = 0;
SELECT plan(27);

CREATE TABLE ps_docs (id int PRIMARY KEY, body text);
INSERT INTO ps_docs
SELECT i, CASE WHEN i % 97 = 0 THEN NULL
			   ELSE (ARRAY['Quick', 'brown', 'FOX', 'jumps', 'over', 'the', 'lazy', 'dog',
						   '50%', 'off_peak', 'naïve', 'ÉCOLE'])[1 + i % 12] || ' ' ||
					(ARRAY['red', 'green', 'Blue', 'quick', 'Dog', 'cat'])[1 + (i / 12) % 6] ||
					' ' || i::text
		  END
FROM generate_series(1, 20000) i;
ANALYZE ps_docs;
CREATE TABLE ps_words (id int PRIMARY KEY, w text);
INSERT INTO ps_words VALUES
	(1, 'quick'), (2, 'Dog'), (3, 'zebra'), (4, '50%'), (5, 'off_'), (6, ''),
	(7, NULL), (8, 'naï'), (9, 'école'), (10, '7'), (11, 'e r');
ANALYZE ps_words;
SELECT gpulike.cache('ps_docs', 'body');

\ir include/cache_wait.sql
\ir include/served_alike.sql
SELECT is(pg_temp.wait_state('ps_docs', 'body', 'ready'), 'ready', 'the column is cached');

SET enable_seqscan = off;

-- a generic plan: the pattern is built from the bound value at each execution
SET plan_cache_mode = force_generic_plan;
PREPARE counted(text) AS SELECT count(*) FROM ps_docs WHERE body ILIKE '%' || $1 || '%';
PREPARE listed(text) AS SELECT id FROM ps_docs WHERE body LIKE '%' || upper($1) || '%';
SELECT ok(pg_temp.plan_uses_gpulike($$EXECUTE counted('x')$$), 'generic plan, count: uses the GpuLike scan');
SELECT ok(pg_temp.plan_uses_gpulike($$EXECUTE listed('x')$$), 'generic plan, rows: uses the GpuLike scan');
CREATE FUNCTION pg_temp.generic_answers() RETURNS TABLE (id int, counted bigint, listed bigint)
LANGUAGE plpgsql AS $$
DECLARE word record; r record;
BEGIN
	FOR word IN SELECT * FROM ps_words ORDER BY 1 LOOP
		id := word.id;
		EXECUTE format('EXECUTE counted(%L)', word.w) INTO counted;
		listed := 0;
		FOR r IN EXECUTE format('EXECUTE listed(%L)', word.w) LOOP
			listed := listed + 1;
		END LOOP;
		RETURN NEXT;
	END LOOP;
END $$;
SELECT results_eq(
	'SELECT * FROM pg_temp.generic_answers()',
	$$SELECT w.id,
			 (SELECT count(*) FROM ps_docs d WHERE d.body || '' ILIKE '%' || w.w || '%'),
			 (SELECT count(*) FROM ps_docs d WHERE d.body || '' LIKE '%' || upper(w.w) || '%')
	  FROM ps_words w ORDER BY 1$$,
	'generic plans: every bound word counted and listed as PostgreSQL does');
RESET plan_cache_mode;

-- an InitPlan's result, with and without concatenation
SELECT * FROM pg_temp.served_alike(
	$$SELECT id FROM ps_docs WHERE body ILIKE '%' || (SELECT w FROM ps_words WHERE id = 1) || '%'$$,
	'InitPlan, concatenated');
SELECT * FROM pg_temp.served_alike(
	$$SELECT count(*) FROM ps_docs WHERE body LIKE (SELECT '%' || w || '%' FROM ps_words WHERE id = 4)$$,
	'InitPlan, count');
SELECT * FROM pg_temp.served_alike(
	$$SELECT id FROM ps_docs WHERE body LIKE '%' || (SELECT w FROM ps_words WHERE id = 7) || '%'$$,
	'InitPlan, NULL');
SELECT * FROM pg_temp.served_alike(
	$$SELECT id FROM ps_docs WHERE body ~* (SELECT string_agg(w, '|') FROM ps_words WHERE id IN (1, 2, 9))$$,
	'InitPlan, a regex built by an aggregate');

-- correlated: the scan is rescanned with each outer row's pattern
SELECT * FROM pg_temp.served_alike(
	$$SELECT w.id, (SELECT count(*) FROM ps_docs d WHERE d.body ILIKE '%' || w.w || '%') FROM ps_words w$$,
	'correlated scalar subquery');
SELECT * FROM pg_temp.served_alike(
	$$SELECT w.id FROM ps_words w WHERE EXISTS (SELECT 1 FROM ps_docs d WHERE d.body LIKE '%' || w.w || ' %')$$,
	'EXISTS');
SELECT * FROM pg_temp.served_alike(
	$$SELECT w.id, x.n FROM ps_words w,
			 LATERAL (SELECT count(*) AS n FROM ps_docs d WHERE d.body ~* ('^' || w.w)) x
	  WHERE w.id NOT IN (4, 5)$$,
	'LATERAL, a regex anchored by concatenation');

-- the other side of a join
SELECT * FROM pg_temp.served_alike(
	$$SELECT w.id, d.id FROM ps_words w JOIN ps_docs d ON d.body ILIKE '%' || w.w || '%'
	  WHERE w.id IN (2, 3, 4, 8, 9)$$,
	'join on a concatenated pattern');
SELECT * FROM pg_temp.served_alike(
	$$SELECT w.id, count(d.id) FROM ps_words w LEFT JOIN ps_docs d ON d.body LIKE lower(w.w) || '%'
	  GROUP BY w.id$$,
	'left join on lower() of the other side, grouped');
SELECT * FROM pg_temp.served_alike(
	$$SELECT w.id, d.id FROM ps_words w JOIN ps_docs d
		ON d.body LIKE '%' || w.w || '%' AND d.body NOT ILIKE '%' || w.w || ' 1%'
	  WHERE w.id IN (1, 5, 10)$$,
	'join on a pattern and a negated one');

-- not served: a volatile pattern, a pattern reading the scanned row
SELECT ok(NOT pg_temp.plan_uses_gpulike(
	$$SELECT id FROM ps_docs WHERE body LIKE '%' || (random() * 0)::int || '%'$$),
	'a volatile pattern is left to PostgreSQL');
SELECT ok(NOT pg_temp.plan_uses_gpulike(
	$$SELECT id FROM ps_docs WHERE body LIKE '%' || id::text$$),
	'a pattern from the scanned row is left to PostgreSQL');
SELECT is(pg_temp.rows_of($$SELECT id FROM ps_docs WHERE body LIKE '%' || id::text$$, true),
		  pg_temp.rows_of($$SELECT id FROM ps_docs WHERE body LIKE '%' || id::text$$, false),
		  'and answered as PostgreSQL does');

SELECT * FROM finish();
DROP TABLE ps_docs, ps_words;
