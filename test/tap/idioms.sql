--
-- Substring and case-insensitive searches spelled other ways than LIKE
-- (src/scan/idioms.c): strpos() and position() compared with 0 or 1,
-- starts_with() and ^@, regexp_like() with its 'i' and 'c' flags,
-- lower(column) LIKE a lower-cased pattern and upper(column) LIKE an
-- upper-cased one, as Django, Hibernate and SQLAlchemy send them.  Each
-- shape, for words with LIKE's metacharacters, letters whose case
-- mappings differ between lower() and upper(), the empty string and NULL,
-- must use the GpuLike scan (the count inside it, the rows through it) and
-- return what PostgreSQL returns with gpulike off; the shapes that are not
-- equivalent to a pattern match must not use it.
--
SET client_min_messages = warning;
SET statement_timeout = '120s';
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = off;
SELECT plan(8);

CREATE TABLE idiom_docs (id int PRIMARY KEY, body varchar);
INSERT INTO idiom_docs
SELECT i, CASE WHEN i % 101 = 0 THEN NULL
			   ELSE (ARRAY['Final', 'deposits', '50%', 'off_peak', 'C:\temp', 'İstanbul', 'STRASSE',
						   'straße', 'ΣΊΣΥΦΟΣ', 'σίσυφος', 'ſpecial', 'Special', ''])[1 + i % 13] ||
					(ARRAY[' regular', ' Quick', '', ' a_b', ' 100%'])[1 + (i / 13) % 5]
		  END
FROM generate_series(1, 6000) i;
ANALYZE idiom_docs;
CREATE TABLE idiom_words (w text);
INSERT INTO idiom_words VALUES
	('Final'), ('final'), ('FINAL'), ('%'), ('_'), ('\'), ('0%'), ('f_'), ('a_b'), ('C:\t'),
	('i̇stanbul'), ('İ'), ('ß'), ('ss'), ('SS'), ('σ'), ('ς'), ('Σ'), ('s'), ('ſ'), (''), (NULL);
SELECT gpulike.cache('idiom_docs', 'body');

\ir include/cache_wait.sql
SELECT is(pg_temp.wait_state('idiom_docs', 'body', 'ready'), 'ready', 'the column is cached');

-- The shapes; %1$s is the word as a literal.  served: whether the GpuLike
-- scan must be used (NULL: it depends on the word; only the rows are compared).
CREATE TABLE idiom_shapes (n serial, shape text, served bool);
INSERT INTO idiom_shapes (shape, served) VALUES
	('strpos(body, %1$s) > 0', true),
	('strpos(body, %1$s) >= 1', true),
	('0 <> strpos(body, %1$s)', true),
	('strpos(body, %1$s) = 0', true),
	('position(%1$s in body) > 0', true),
	('NOT (position(%1$s in body) > 0)', true),
	('starts_with(body, %1$s)', true),
	('body ^@ %1$s', true),
	('regexp_like(body, %1$s)', true),
	('regexp_like(body, %1$s, ''i'')', true),
	('regexp_like(body, %1$s, ''ic'')', true),
	('lower(body) LIKE lower(%1$s)', true),
	('lower(body) LIKE ''%%'' || lower(%1$s) || ''%%''', true),
	('lower(body) NOT LIKE ''%%'' || lower(%1$s) || ''%%''', true),
	('lower(body) LIKE lower(''%%'' || %1$s || ''%%'') ESCAPE ''!''', true),
	('lower(body) ILIKE %1$s || ''%%''', true),
	('lower(body::text) LIKE ''%%'' || lower(%1$s)', true),
	('coalesce(body, '''') ILIKE ''%%'' || %1$s || ''_%%''', true),
	('coalesce(body, '''') LIKE %1$s', NULL),	-- served unless '' is like the word
	('upper(body::text) LIKE upper(''%%'' || %1$s || ''%%'')', true),
	('UPPER(body) LIKE UPPER(%1$s) || ''%%''', true),
	('upper(body) NOT LIKE ''%%'' || upper(%1$s)', true),
	('upper(body) LIKE %1$s', true),	-- lower-case words: no row, rechecked
	-- not a pattern match in other words: left to PostgreSQL
	('upper(body) ILIKE %1$s', false),
	('strpos(body, %1$s) > 1', false),
	('regexp_like(body, %1$s, ''x'')', false),
	('NOT (coalesce(body, '''') ILIKE ''%%'' || %1$s || ''_%%'')', false);

-- The ids and the count of the rows where cond holds, or the error's
-- SQLSTATE, with gpulike on or off.
CREATE FUNCTION pg_temp.idiom_answer(cond text, enabled bool) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE answer text;
BEGIN
	PERFORM set_config('gpulike.enabled', enabled::text, true);
	EXECUTE format('SELECT count(*) || '': '' || coalesce(string_agg(id::text, '','' ORDER BY id), '''') '
				   'FROM idiom_docs WHERE %s', cond) INTO answer;
	PERFORM set_config('gpulike.enabled', 'on', true);
	RETURN answer;
EXCEPTION WHEN OTHERS THEN
	RETURN 'error ' || SQLSTATE;
END $$;

-- For every shape and word: how the plan looks, the rows and the count,
-- on and off.  regexp_like() gets only words that are valid regexes.
CREATE FUNCTION pg_temp.idiom_mismatches(want_served bool)
RETURNS TABLE (shape text, word text, problem text) LANGUAGE plpgsql AS $$
DECLARE
	s record;
	wd record;
	cond text;
	q text;
	plan text;
	uses bool;
	on_answer text;
	off_answer text;
BEGIN
	FOR s IN SELECT * FROM idiom_shapes WHERE served IS NOT DISTINCT FROM want_served ORDER BY n LOOP
		FOR wd IN SELECT w FROM idiom_words LOOP
			CONTINUE WHEN s.shape LIKE 'regexp%' AND wd.w IN ('\', 'C:\t');
			cond := format(s.shape, quote_nullable(wd.w));
			FOR q IN SELECT unnest(ARRAY['SELECT id FROM idiom_docs WHERE ' || cond,
										 'SELECT count(*) FROM idiom_docs WHERE ' || cond]) LOOP
				uses := false;
				BEGIN
					FOR plan IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
						uses := uses OR plan LIKE '%GpuLike%';
					END LOOP;
				EXCEPTION WHEN OTHERS THEN
					uses := want_served;	-- an invalid pattern: compared below
				END;
				-- a NULL word folds the clause to NULL: no scan at all
				IF uses <> want_served AND wd.w IS NOT NULL AND want_served IS NOT NULL THEN
					shape := s.shape; word := wd.w;
					problem := CASE WHEN uses THEN 'uses' ELSE 'does not use' END ||
						' the GpuLike scan: ' || q;
					RETURN NEXT;
				END IF;
			END LOOP;
			on_answer := pg_temp.idiom_answer(cond, true);
			off_answer := pg_temp.idiom_answer(cond, false);
			IF on_answer IS DISTINCT FROM off_answer THEN
				shape := s.shape; word := wd.w;
				problem := format('on: %s; off: %s', left(on_answer, 80), left(off_answer, 80));
				RETURN NEXT;
			END IF;
		END LOOP;
	END LOOP;
END $$;

SELECT is_empty('SELECT * FROM pg_temp.idiom_mismatches(true)',
				'every idiom uses the GpuLike scan and answers as PostgreSQL does');
SELECT is_empty('SELECT * FROM pg_temp.idiom_mismatches(false)',
				'the look-alikes that are no pattern match are left to PostgreSQL');
SELECT is_empty('SELECT * FROM pg_temp.idiom_mismatches(NULL)',
				'the shapes served for some words answer as PostgreSQL does for all');
SELECT cmp_ok((SELECT count(*) FROM idiom_docs WHERE strpos(body, '0%') > 0), '>', 0::bigint,
			  'the words do match rows (the comparison is not of empty answers)');
SELECT cmp_ok((SELECT count(*) FROM idiom_docs WHERE lower(body) LIKE '%' || lower('ß') || '%'),
			  '>', 0::bigint, 'lower-cased non-ASCII words match rows too');

-- a generic plan: the pattern is lower-cased and escaped at each execution
SET plan_cache_mode = force_generic_plan;
PREPARE icontains(text) AS
	SELECT count(*) FROM idiom_docs WHERE lower(body) LIKE '%' || lower($1) || '%';
PREPARE located(text) AS SELECT count(*) FROM idiom_docs WHERE strpos(body, $1) > 0;
SELECT ok(pg_temp.plan_uses_gpulike($$EXECUTE icontains('x')$$) AND
		  pg_temp.plan_uses_gpulike($$EXECUTE located('x')$$),
		  'generic plans of lower() LIKE and strpos() use the GpuLike scan');
CREATE FUNCTION pg_temp.generic_counts() RETURNS TABLE (w text, icontains bigint, located bigint)
LANGUAGE plpgsql AS $$
DECLARE wd record;
BEGIN
	FOR wd IN SELECT * FROM idiom_words ORDER BY 1 LOOP
		w := wd.w;
		EXECUTE format('EXECUTE icontains(%L)', wd.w) INTO icontains;
		EXECUTE format('EXECUTE located(%L)', wd.w) INTO located;
		RETURN NEXT;
	END LOOP;
END $$;
SELECT results_eq(
	'SELECT * FROM pg_temp.generic_counts()',
	$$SELECT w, (SELECT count(*) FROM idiom_docs WHERE lower(body) || '' LIKE '%' || lower(w) || '%'),
			 (SELECT count(*) FROM idiom_docs WHERE strpos(body || '', w) > 0)
	  FROM idiom_words ORDER BY 1$$,
	'generic plans count every bound word as PostgreSQL does');
RESET plan_cache_mode;

SELECT * FROM finish();
DROP TABLE idiom_docs, idiom_words, idiom_shapes;
