--
-- GpuLike custom scan: every pattern operator, NOT variants, AND/OR/NOT
-- trees, LIKE ANY/ALL, NULL patterns, varchar and bpchar columns.
-- Every query is also run with gpulike.enabled = off: same rows.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

-- Run a query with gpulike on and off: which plan, how many rows, same rows?
CREATE FUNCTION scan_check(query text) RETURNS text
LANGUAGE sql AS $$
	SELECT pg_temp.scan_versus_postgres(query, 'Custom Scan (GpuLike)', 'GpuLike', 'PostgreSQL plan')
$$;

CREATE TABLE words (
	id int PRIMARY KEY,
	t text,
	v varchar(40),
	b char(12),
	other text				-- never cached
);
-- Deterministic rows: hex words, mixed case, multibyte letters, NULLs, ''.
INSERT INTO words
SELECT i,
	   CASE WHEN i % 17 = 0 THEN NULL
			WHEN i % 23 = 0 THEN ''
			WHEN i % 5 = 0 THEN upper(md5(i::text))
			WHEN i % 11 = 0 THEN 'Straße ' || md5(i::text) || ' ÉTÉ'
			ELSE md5(i::text) END,
	   CASE WHEN i % 13 = 0 THEN NULL ELSE substr(md5((i * 7)::text), 1, 10) END,
	   CASE WHEN i % 19 = 0 THEN NULL ELSE substr(md5((i * 3)::text), 1, 5) END,
	   md5((i * 11)::text)
FROM generate_series(1, 1000) i;
ANALYZE words;

SELECT scan_cache('words', 't');
SELECT scan_cache('words', 'v');
SELECT scan_cache('words', 'b');

-- Plans: the scan, its Recheck Cond (evaluated only when the answer is
-- lossy), the cache and matcher.
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t LIKE '%abc%';
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t NOT ILIKE '%A%';
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE v ~ '^[0-9]+a';
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE b LIKE 'ab%';
-- Only the offloadable conjunct goes to the server; the other is a Filter.
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t LIKE '%ab%' AND other LIKE '%cd%';
-- Patterns ORed on one column (or NOT LIKEs ANDed) become one program.
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t LIKE '%ab%' OR t LIKE '%cd%' OR v LIKE '%ef%';
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t NOT LIKE '%ab%' AND t NOT LIKE '%cd%';
-- An OR with an arm the server cannot evaluate: every row is read, the
-- answer deciding the pattern arm, PostgreSQL the other.
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t LIKE '%ab%' OR other LIKE '%cd%';
-- ... nor is anything without a pattern operator on a cached column.
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE other LIKE '%ab%';
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t = 'abc';
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t LIKE other;

-- The rows themselves, for a few queries.
SELECT id, t FROM words WHERE t LIKE '%abc%' ORDER BY id;
SELECT id, t FROM words WHERE t ILIKE 'STRAßE %ab%' ORDER BY id;
SELECT id, v FROM words WHERE v ~ '^[0-9]{4}a' ORDER BY id;
SELECT id, b FROM words WHERE b LIKE '%aa   %' ORDER BY id;

-- Each operator, and its negator.
SELECT q, scan_check(q) FROM (VALUES
	($$SELECT id FROM words WHERE t ~~ '%ab%'$$),
	($$SELECT id FROM words WHERE t !~~ '%ab%'$$),
	($$SELECT id FROM words WHERE t ~~* '%AB%'$$),
	($$SELECT id FROM words WHERE t !~~* '%AB%'$$),
	($$SELECT id FROM words WHERE t ~ 'a[0-9]b'$$),
	($$SELECT id FROM words WHERE t !~ 'a[0-9]b'$$),
	($$SELECT id FROM words WHERE t ~* 'A[0-9]B'$$),
	($$SELECT id FROM words WHERE t !~* 'A[0-9]B'$$),
	($$SELECT id FROM words WHERE t LIKE ''$$),
	($$SELECT id FROM words WHERE t NOT LIKE ''$$),
	($$SELECT id FROM words WHERE t LIKE '%'$$),
	($$SELECT id FROM words WHERE t NOT LIKE '%'$$),
	($$SELECT id FROM words WHERE t LIKE '_a%'$$),
	($$SELECT id FROM words WHERE t LIKE 'Stra_e %'$$),
	($$SELECT id FROM words WHERE t LIKE '%ÉT_'$$),
	($$SELECT id FROM words WHERE t ILIKE '%été'$$),
	($$SELECT id FROM words WHERE t LIKE 'a#%b%' ESCAPE '#'$$),
	($$SELECT id FROM words WHERE t SIMILAR TO '[0-9]+a%'$$),
	($$SELECT id FROM words WHERE t NOT SIMILAR TO '%(ab|cd)%'$$),
	($$SELECT id FROM words WHERE v LIKE '%0%'$$),
	($$SELECT id FROM words WHERE v NOT ILIKE '%F%'$$),
	($$SELECT id FROM words WHERE v ~ '(ab|cd)$'$$),
	($$SELECT id FROM words WHERE b LIKE '%a'$$),
	($$SELECT id FROM words WHERE b LIKE '%a%  '$$),
	($$SELECT id FROM words WHERE b NOT LIKE '%1%'$$),
	($$SELECT id FROM words WHERE b ~ 'a $'$$),
	($$SELECT id FROM words WHERE t LIKE '%ab%' COLLATE "C"$$)
) AS queries(q);

-- NOT, AND, OR trees, over one and several columns.
SELECT q, scan_check(q) FROM (VALUES
	($$SELECT id FROM words WHERE NOT (t LIKE '%a%')$$),
	($$SELECT id FROM words WHERE t LIKE '%a%' AND t LIKE '%b%'$$),
	($$SELECT id FROM words WHERE t LIKE '%ab%' OR t LIKE '%cd%'$$),
	($$SELECT id FROM words WHERE t LIKE '%ab%' OR v LIKE '%cd%'$$),
	($$SELECT id FROM words WHERE NOT (t LIKE '%a%' OR v LIKE '%b%')$$),
	($$SELECT id FROM words WHERE NOT (t LIKE '%a%' AND v LIKE '%b%')$$),
	($$SELECT id FROM words WHERE NOT (NOT (t ~ 'ab') OR b LIKE '%0%')$$),
	($$SELECT id FROM words WHERE (t ~~* '%a%' OR v ~ 'b') AND NOT (b ~~ '%c%' OR t ~ '9$')$$),
	($$SELECT id FROM words WHERE t LIKE '%a%' AND other LIKE '%b%'$$),
	($$SELECT id FROM words WHERE (t LIKE '%a%' AND other LIKE '%b%') OR v LIKE '%c%'$$),
	($$SELECT id FROM words WHERE NOT (t LIKE '%a%' OR other LIKE '%b%')$$),
	($$SELECT id FROM words WHERE NOT (t LIKE '%a%' AND other LIKE '%b%')$$),
	($$SELECT id FROM words WHERE t LIKE '%a%' AND id % 3 = 0$$),
	($$SELECT id FROM words WHERE (t LIKE '%a%') IS NOT TRUE$$),
	($$SELECT id FROM words WHERE t LIKE NULL$$),
	($$SELECT id FROM words WHERE NOT (t LIKE NULL)$$),
	($$SELECT id FROM words WHERE t LIKE NULL OR v LIKE '%a%'$$),
	($$SELECT id FROM words WHERE t LIKE '%ab%' OR t LIKE '%cd%' OR t LIKE NULL$$),
	($$SELECT id FROM words WHERE t NOT LIKE '%a%' AND t NOT LIKE '%b%' AND v LIKE '%c%'$$),
	($$SELECT id FROM words WHERE t ILIKE '%ab%' OR t ILIKE '%É%' OR t ~ 'c$'$$),
	($$SELECT id FROM words WHERE NOT (t LIKE '%a%' OR t LIKE '%b%')$$)
) AS queries(q);

-- LIKE ANY / ALL, with NULL elements and empty arrays.
SELECT q, scan_check(q) FROM (VALUES
	($$SELECT id FROM words WHERE t LIKE ANY (ARRAY['%ab%', '%cd%', '%ef%'])$$),
	($$SELECT id FROM words WHERE t NOT LIKE ANY (ARRAY['%a%', '%b%'])$$),
	($$SELECT id FROM words WHERE t LIKE ALL (ARRAY['%a%', '%b%'])$$),
	($$SELECT id FROM words WHERE t NOT LIKE ALL (ARRAY['%a%', '%b%'])$$),
	($$SELECT id FROM words WHERE NOT (t LIKE ANY (ARRAY['%a%', '%b%']))$$),
	($$SELECT id FROM words WHERE NOT (t LIKE ALL (ARRAY['%a%', '%b%']))$$),
	($$SELECT id FROM words WHERE t ILIKE ANY (ARRAY['%AB%', 'stra%'])$$),
	($$SELECT id FROM words WHERE t ~ ANY (ARRAY['^a', 'b$'])$$),
	($$SELECT id FROM words WHERE t LIKE ANY (ARRAY['%ab%', NULL])$$),
	($$SELECT id FROM words WHERE t LIKE ALL (ARRAY['%ab%', NULL])$$),
	($$SELECT id FROM words WHERE NOT (t LIKE ANY (ARRAY['%ab%', NULL]))$$),
	($$SELECT id FROM words WHERE NOT (t LIKE ALL (ARRAY['%ab%', NULL]))$$),
	($$SELECT id FROM words WHERE t LIKE ANY (ARRAY[]::text[])$$),
	($$SELECT id FROM words WHERE t LIKE ALL (ARRAY[]::text[])$$),
	($$SELECT id FROM words WHERE NOT (t LIKE ANY (ARRAY[]::text[]))$$),
	($$SELECT id FROM words WHERE t LIKE ANY (NULL::text[])$$),
	($$SELECT id FROM words WHERE v LIKE ANY (ARRAY['%ab%', '%cd%'])$$),
	($$SELECT id FROM words WHERE b LIKE ANY (ARRAY['%a', 'b%'])$$)
) AS queries(q);

-- A pattern the compiler leaves to PostgreSQL (it ends in the escape
-- character): the scan reads the heap itself, the rows stay exact.
SELECT scan_check($$SELECT id FROM words WHERE t LIKE 'zz\'$$);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT id FROM words WHERE t LIKE 'zz\';

-- EXPLAIN ANALYZE: candidates, heap fetches, rows removed by the Filter;
-- an exact answer is not rechecked.
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT id FROM words WHERE t LIKE '%ab%' AND other LIKE '%1%';

-- Updated and deleted rows: old versions may be candidates, never results.
UPDATE words SET t = 'updated ' || t WHERE id % 10 = 1;
DELETE FROM words WHERE id % 10 = 2;
SELECT q, scan_check(q) FROM (VALUES
	($$SELECT id, t FROM words WHERE t LIKE '%ab%'$$),
	($$SELECT id, t FROM words WHERE t LIKE 'updated%'$$),
	($$SELECT id, t FROM words WHERE t NOT LIKE 'updated%'$$)
) AS queries(q);

-- The planner still prefers a sequential scan when it is cheaper.
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT id FROM words WHERE t NOT LIKE '%zzz%';

DROP TABLE words;
DROP FUNCTION scan_check(text);
DROP FUNCTION scan_cache(regclass, name);
