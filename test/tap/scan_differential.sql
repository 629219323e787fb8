--
-- Differential test of the GpuLike custom scan: over generated data
-- (random ASCII with LIKE metacharacters, UTF-8 multibyte and case pairs,
-- NULLs, empty strings, long TOASTed values, adversarial repetitions) and
-- generated patterns (%, _, escapes, anchors, ILIKE, regex classes,
-- alternations, bounded repeats, LIKE ANY, AND/OR/NOT), every query must
-- return the same bag of rows with gpulike.enabled on and off, and the 'on'
-- run must really use the GpuLike scan.  Every query runs in four ways
-- against PostgreSQL's own answer: the serial scan (offloaded quals
-- rechecked only when the answer is lossy), the same with
-- gpulike.recheck = always, the parallel scan (workers forced), and its
-- count(*) (counted inside the scan, rows on all-visible pages unread).
--
-- The generator is seedable: SET scan_differential.seed = '0.123' before
-- running this file to explore other data and patterns.
--
\set QUIET on
SET client_min_messages = warning;
SELECT no_plan();

-- Let GpuLike win whenever it is offered.  (The costs that makes are no
-- reason to compile the queries: no JIT.)
SET jit = off;
SET enable_seqscan = off;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET max_parallel_workers_per_gather = 0;
\set test_name scan_differential
\set default_seed 0.4242
\ir include/random_setup.sql

-- parallel_workers: the parallel way's plans on a machine of any size (planner.c)
CREATE TABLE scan_diff (id int PRIMARY KEY, val text) WITH (parallel_workers = 2);
INSERT INTO scan_diff
SELECT i,
	   CASE
		   WHEN i <= 1500 THEN			-- ASCII, with LIKE's own metacharacters
			   pg_temp.random_string('abcdeABCDE xy%_\.*', floor(random() * 40)::int)
		   WHEN i <= 1900 THEN			-- UTF-8: 2-4 byte characters, case pairs
			   pg_temp.random_string('aAéÉßẞΣσςЖжİıiIKkK漢字😀b', floor(random() * 30)::int)
		   WHEN i <= 2000 THEN NULL
		   WHEN i <= 2050 THEN ''
		   WHEN i <= 2060 THEN			-- long, incompressible: TOASTed out of line
			   pg_temp.random_string('abcdefghijklmnopqrstuvwxyz0123456789', 3000 + floor(random() * 60000)::int)
			   || 'needle' || pg_temp.random_string('abcdef', 100)
		   ELSE							-- adversarial for KMP and Aho-Corasick
			   repeat('a', 500 + i - 2060) || (CASE WHEN i % 2 = 0 THEN 'b' ELSE '' END)
	   END
FROM generate_series(1, 2080) i;
ANALYZE scan_diff;

-- Cache the column and wait until the planner may use it.
DO $$
DECLARE
	plan text;
	ready bool := false;
BEGIN
	PERFORM gpulike.cache('scan_diff', 'val');
	FOR i IN 1..600 LOOP
		FOR plan IN EXECUTE $q$EXPLAIN (COSTS OFF) SELECT id FROM scan_diff WHERE val LIKE 'x%'$q$ LOOP
			ready := ready OR plan LIKE '%GpuLike%';
		END LOOP;
		EXIT WHEN ready;
		PERFORM pg_sleep(0.1);
	END LOOP;
	IF NOT ready THEN
		RAISE EXCEPTION 'the cache of scan_diff.val did not become usable';
	END IF;
END $$;

-- A substring of a random non-empty short row: patterns that do match.
CREATE FUNCTION pg_temp.random_piece(maxlen int) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v text;
	start int;
BEGIN
	LOOP
		SELECT val INTO v FROM scan_diff
		WHERE id = 1 + floor(random() * 1900)::int AND val <> '';
		EXIT WHEN v IS NOT NULL;
	END LOOP;
	start := 1 + floor(random() * length(v))::int;
	RETURN substr(v, start, 1 + floor(random() * maxlen)::int);
END $$;

-- A LIKE pattern built around a piece: anchors, %, _ and escaped literals.
CREATE FUNCTION pg_temp.random_like_pattern() RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	-- escape the data's own metacharacters so they are literal, sometimes
	p text := CASE WHEN random() < 0.5
				   THEN regexp_replace(pg_temp.random_piece(5), '([%_\\])', '\\\1', 'g')
				   ELSE pg_temp.random_piece(5) END;
	q text := pg_temp.random_piece(3);
BEGIN
	-- a trailing lone backslash would be an invalid pattern: keep it literal
	IF p ~ '(^|[^\\])(\\\\)*\\$' THEN p := p || '\'; END IF;
	IF q ~ '\\$' THEN q := q || '\'; END IF;
	RETURN CASE floor(random() * 9)::int
		WHEN 0 THEN '%' || p || '%'
		WHEN 1 THEN p || '%'
		WHEN 2 THEN '%' || p
		WHEN 3 THEN '%' || p || '%' || q || '%'
		WHEN 4 THEN '%' || overlay(p placing '_' from 1 + floor(random() * length(p))::int for 1) || '%'
		WHEN 5 THEN '_' || p || '%'
		WHEN 6 THEN '%' || p || '_'
		WHEN 7 THEN p
		ELSE '%%' || p || '%_%' END;
END $$;

-- A regular expression built around a piece: anchors, classes, alternation,
-- bounded repeats.
CREATE FUNCTION pg_temp.random_regex() RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	p text := regexp_replace(pg_temp.random_piece(4), '([.^$*+?()\[\]{}|\\])', '\\\1', 'g');
	q text := regexp_replace(pg_temp.random_piece(3), '([.^$*+?()\[\]{}|\\])', '\\\1', 'g');
BEGIN
	RETURN CASE floor(random() * 10)::int
		WHEN 0 THEN p
		WHEN 1 THEN '^' || p
		WHEN 2 THEN p || '$'
		WHEN 3 THEN p || '|' || q
		WHEN 4 THEN '[abc]' || p
		WHEN 5 THEN p || '.{1,3}' || q
		WHEN 6 THEN '^[^a]*' || p
		WHEN 7 THEN '(' || p || '){2}'
		WHEN 8 THEN '[[:upper:]]' || q
		ELSE '\m' || q END;
END $$;

-- A regular expression with runs of literal characters, most of which its
-- program's prefilter is taken from (regex_prefilter.c): the column is
-- then searched for the literal first, the automaton run on the rows
-- that have it.  Some runs are optional, alternated or case-folded: no
-- prefilter, or a shorter one.
CREATE FUNCTION pg_temp.random_prefiltered_regex() RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	p text := regexp_replace(pg_temp.random_piece(6), '([.^$*+?()\[\]{}|\\])', '\\\1', 'g');
	q text := regexp_replace(pg_temp.random_piece(4), '([.^$*+?()\[\]{}|\\])', '\\\1', 'g');
BEGIN
	RETURN CASE floor(random() * 8)::int
		WHEN 0 THEN p || '.*' || q
		WHEN 1 THEN p || '[abc]?' || q
		WHEN 2 THEN '(' || p || ')?' || q || '.'
		WHEN 3 THEN p || '|' || q || 'x'
		WHEN 4 THEN p || '+' || q
		WHEN 5 THEN '^[^a]*' || p || '.'
		WHEN 6 THEN p || '{0,1}' || q || '$'
		ELSE '(?i)' || p || '.' END;
END $$;

CREATE TABLE scan_diff_queries (n serial, predicate text,
	query text GENERATED ALWAYS AS ('SELECT id FROM scan_diff WHERE ' || predicate) STORED);

-- single operators and their negators
INSERT INTO scan_diff_queries (predicate)
SELECT format('val %s %L', op, pg_temp.random_like_pattern())
FROM generate_series(1, 40), unnest(ARRAY['LIKE', 'NOT LIKE', 'ILIKE', 'NOT ILIKE']) op;
INSERT INTO scan_diff_queries (predicate)
SELECT format('val %s %L', op, pg_temp.random_regex())
FROM generate_series(1, 20), unnest(ARRAY['~', '!~', '~*', '!~*']) op;
CREATE TABLE scan_diff_prefiltered AS
SELECT pg_temp.random_prefiltered_regex() AS re FROM generate_series(1, 40);
INSERT INTO scan_diff_queries (predicate)
SELECT format('val %s %L', CASE WHEN n % 4 = 3 THEN '!~' ELSE '~' END, re)
FROM (SELECT re, row_number() OVER () AS n FROM scan_diff_prefiltered) r;
-- SIMILAR TO and LIKE ... ESCAPE arrive rewritten by the parser
INSERT INTO scan_diff_queries (predicate)
SELECT format('val SIMILAR TO %L', '%(' || translate(pg_temp.random_piece(3), '\*', '') || '|xy)%')
FROM generate_series(1, 10);
INSERT INTO scan_diff_queries (predicate)
SELECT format('val LIKE %L ESCAPE %L', '%#%' || replace(pg_temp.random_piece(3), '#', '') || '%', '#')
FROM generate_series(1, 5);
-- LIKE ANY / ALL
INSERT INTO scan_diff_queries (predicate)
SELECT format('val %s (ARRAY[%L, %L, %L])', op,
			  pg_temp.random_like_pattern(), pg_temp.random_like_pattern(),
			  '%' || pg_temp.random_piece(2) || '%')
FROM generate_series(1, 8), unnest(ARRAY['LIKE ANY', 'NOT LIKE ANY', 'ILIKE ANY', 'LIKE ALL']) op;
-- boolean trees
INSERT INTO scan_diff_queries (predicate)
SELECT format(shape, pg_temp.random_like_pattern(), pg_temp.random_regex(),
			  pg_temp.random_like_pattern())
FROM generate_series(1, 8),
	 unnest(ARRAY['val LIKE %L AND val ~ %L AND val NOT ILIKE %L',
				  'val LIKE %L OR val ~ %L OR val ILIKE %L',
				  'NOT (val LIKE %L OR val ~ %L) AND val NOT LIKE %L',
				  '(val LIKE %L AND id %% 2 = 0) OR NOT (val ~ %L AND val LIKE %L)',
				  -- same-column LIKEs that may merge into one program
				  'val LIKE %1$L OR val ~ %2$L OR val LIKE %3$L',
				  'val NOT LIKE %1$L AND val NOT LIKE %3$L AND val !~ %2$L',
				  'val ILIKE %1$L OR val ILIKE %3$L']) shape;
-- '%literal%' patterns ORed on one column: one Aho-Corasick program
CREATE FUNCTION pg_temp.random_literal_pattern() RETURNS text
LANGUAGE sql VOLATILE AS $$
	SELECT '%' || regexp_replace(pg_temp.random_piece(4), '([%_\\])', '\\\1', 'g') || '%'
$$;
INSERT INTO scan_diff_queries (predicate)
SELECT format(shape, pg_temp.random_literal_pattern(), pg_temp.random_literal_pattern(),
			  pg_temp.random_literal_pattern())
FROM generate_series(1, 8),
	 unnest(ARRAY['val LIKE %L OR val LIKE %L OR val LIKE %L',
				  'val NOT LIKE %L AND val NOT LIKE %L AND id %% 5 <> 0',
				  'val ILIKE %L OR val ILIKE %L OR val ~ %L',
				  'NOT (val LIKE %L OR val LIKE %L OR val LIKE %L)']) shape;
-- the long and adversarial rows
INSERT INTO scan_diff_queries (predicate) VALUES
	($$val LIKE '%needle%'$$), ($$val ~ 'needle[a-f]{5}'$$), ($$val NOT LIKE '%needle%'$$),
	($$val LIKE '%aaaaaaab'$$), ($$val LIKE '%aaab%'$$), ($$val ~ 'a{30}b$'$$),
	($$val LIKE ANY (ARRAY['%aaaab%', '%aab%', '%needle%'])$$);

-- The ways a query runs: settings ('name=value', ...) applied around it.
CREATE TABLE scan_diff_ways (way text PRIMARY KEY, settings text[], plan_shows text);
INSERT INTO scan_diff_ways VALUES
	('off', '{gpulike.enabled=off}', NULL),
	('on', '{gpulike.enabled=on}', 'Custom Scan (GpuLike)'),
	('recheck always', '{gpulike.enabled=on,gpulike.recheck=always}', 'Custom Scan (GpuLike)'),
	-- free workers, and heap pages made dear, so that the partial path wins
	('parallel', '{gpulike.enabled=on,max_parallel_workers_per_gather=2,parallel_setup_cost=0,'
	 'parallel_tuple_cost=0,min_parallel_table_scan_size=0,gpulike.page_cost=1000000}',
	 'Parallel Custom Scan (GpuLike)');

-- Apply settings ('name=value', ...) for the transaction; returns the
-- previous values, in the same form, to apply back.
CREATE FUNCTION pg_temp.apply_settings(settings text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
	previous text[];
	setting text;
BEGIN
	FOREACH setting IN ARRAY settings LOOP
		previous := previous || (split_part(setting, '=', 1) || '=' ||
								 current_setting(split_part(setting, '=', 1)));
		PERFORM set_config(split_part(setting, '=', 1), split_part(setting, '=', 2), true);
	END LOOP;
	RETURN previous;
END $$;

CREATE FUNCTION pg_temp.way_settings(way text) RETURNS text[]
LANGUAGE sql AS $$ SELECT settings FROM scan_diff_ways w WHERE w.way = way_settings.way $$;

-- Rows of a query, as text, run one way.
CREATE FUNCTION pg_temp.query_rows(way text, query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	previous text[] := pg_temp.apply_settings(pg_temp.way_settings(way));
	result text[];
BEGIN
	EXECUTE format('SELECT array_agg(q::text) FROM (%s) q', query) INTO result;
	PERFORM pg_temp.apply_settings(previous);
	RETURN QUERY SELECT unnest(result);
END $$;

-- Does the plan of a query run one way show that way's scan?
CREATE FUNCTION pg_temp.query_uses(way text, query text) RETURNS bool
LANGUAGE plpgsql AS $$
DECLARE
	previous text[] := pg_temp.apply_settings(pg_temp.way_settings(way));
	shows text := (SELECT plan_shows FROM scan_diff_ways w WHERE w.way = query_uses.way);
	line text;
	found bool := false;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		found := found OR line LIKE '%' || shows || '%';
	END LOOP;
	PERFORM pg_temp.apply_settings(previous);
	RETURN found;
END $$;

-- PostgreSQL's own rows, once per query.
CREATE TABLE scan_diff_expected AS
SELECT n, array(SELECT pg_temp.query_rows('off', query)) AS rows FROM scan_diff_queries;

SELECT ok(pg_temp.query_uses(way, query), way || ' plan: ' || left(predicate, 110))
FROM scan_diff_queries, scan_diff_ways WHERE way <> 'off' ORDER BY n, way;

SELECT bag_eq(format('SELECT * FROM pg_temp.query_rows(%L, %L)', way, query),
			  format('SELECT unnest(rows) FROM scan_diff_expected WHERE n = %s', n),
			  'same rows, ' || way || ': ' || left(predicate, 110))
FROM scan_diff_queries, scan_diff_ways WHERE way <> 'off' ORDER BY n, way;

-- count(*) alone: counted by the scan, rows of all-visible pages unread.
VACUUM scan_diff;
SELECT ok(pg_temp.query_uses('on', 'SELECT count(*) FROM scan_diff WHERE ' || predicate),
		  'count plan: ' || left(predicate, 110))
FROM scan_diff_queries ORDER BY n;
SELECT is((SELECT * FROM pg_temp.query_rows('on', 'SELECT count(*) FROM scan_diff WHERE ' || predicate)),
		  (SELECT '(' || cardinality(rows) || ')' FROM scan_diff_expected e WHERE e.n = q.n),
		  'same count: ' || left(predicate, 110))
FROM scan_diff_queries q ORDER BY n;

-- Joins whose patterns come from another table: a nested loop rescans a
-- parameterized GpuLike scan with each outer row's pattern.
CREATE TABLE scan_diff_patterns (pid int, pat text);
INSERT INTO scan_diff_patterns
SELECT i, CASE WHEN i = 1 THEN NULL ELSE pg_temp.random_like_pattern() END
FROM generate_series(1, 30) i;
ANALYZE scan_diff_patterns;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_memoize = off;
CREATE TABLE scan_diff_joins (n serial, query text);
INSERT INTO scan_diff_joins (query) VALUES
	($$SELECT p.pid, d.id FROM scan_diff_patterns p JOIN scan_diff d ON d.val LIKE p.pat$$),
	($$SELECT p.pid, d.id FROM scan_diff_patterns p JOIN scan_diff d ON d.val ILIKE p.pat AND d.id % 3 = p.pid % 3$$),
	($$SELECT p.pid, d.id FROM scan_diff_patterns p LEFT JOIN scan_diff d ON d.val LIKE p.pat AND d.val NOT LIKE '%a%'$$),
	($$SELECT p.pid, (SELECT count(*) FROM scan_diff d WHERE d.val LIKE p.pat OR d.val ~ '^a') FROM scan_diff_patterns p$$);

SELECT ok(pg_temp.query_uses('on', query), 'GpuLike plan: ' || query)
FROM scan_diff_joins ORDER BY n;
SELECT bag_eq(format('SELECT * FROM pg_temp.query_rows(%L, %L)', way, query),
			  format('SELECT * FROM pg_temp.query_rows(%L, %L)', 'off', query),
			  'same rows, ' || way || ': ' || query)
FROM scan_diff_joins, scan_diff_ways WHERE way IN ('on', 'recheck always') ORDER BY n, way;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_memoize;

-- The data must exercise what it claims to.
SELECT ok((SELECT count(*) FROM scan_diff WHERE pg_column_size(val) > 2000) >= 10,
		  'long values are stored TOASTed');
SELECT ok((SELECT count(*) FROM scan_diff_queries q
		   WHERE EXISTS (SELECT 1 FROM scan_diff_expected e WHERE e.n = q.n AND cardinality(e.rows) > 0)) >
		  (SELECT count(*) / 2 FROM scan_diff_queries),
		  'most generated queries match some rows');
SELECT ok(count(*) FILTER (WHERE gpulike.explain_pattern(re, '~') LIKE '%prefilter%') >= 10,
		  format('regexes with a prefilter: %s of %s', count(*) FILTER (
				 WHERE gpulike.explain_pattern(re, '~') LIKE '%prefilter%'), count(*)))
FROM scan_diff_prefiltered;

DROP TABLE scan_diff_joins;
DROP TABLE scan_diff_patterns;
DROP TABLE scan_diff_expected;
DROP TABLE scan_diff_queries;
DROP TABLE scan_diff_prefiltered;
DROP TABLE scan_diff_ways;
DROP TABLE scan_diff;
SELECT * FROM finish();
