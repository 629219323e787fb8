--
-- Differential test of the regex compiler (pg_regcomp -> NFA -> DFA) and
-- the CPU engine's DFA runner: gpulike.match(s, re, op) must equal
-- PostgreSQL's own ~ !~ ~* !~* for every (subject, regex) pair.
--
-- Subjects: random strings over ASCII (with regex metacharacters, newlines,
-- tabs), UTF-8 with 2-4 byte characters and case pairs (É/é, ß/SS/ſ, the
-- Kelvin sign, dotted/dotless i, ǅ, final sigma), empty strings, NULLs,
-- adversarial repetitions (aaaa...ab), and two values over 1 MB (TOASTed).
-- Regexes: a hand-written list covering classes, negated classes,
-- alternation, ^ $, {m,n}, \y \m \M \A \Z, embedded options (?i) (?n) (?x)
-- (?b) ***= ***:, escapes, collating elements, and a generated set built
-- from random atoms, quantifiers and anchors.  Under the database's
-- collation (libc C.UTF-8 in the test cluster), under "C", and under ICU
-- collations (und, tr-TR: Turkish i) where available.
--
-- Back-references and lookaround compile to a superset program (the DFA of
-- PostgreSQL's search NFA with the constraints assumed satisfied);
-- gpulike.match rechecks a superset's "true" with PostgreSQL's operator, so
-- equality here means: the program never misses a match.  The test also
-- checks those programs are marked superset and all others exact.
-- SIMILAR TO arrives as ~ similar_to_escape(pattern), and is tested so.
-- A literal regex (perhaps anchored, punctuation escaped) compiles, under ~,
-- to its LIKE program ('%literal%', 'literal%', ...), and an alternation of
-- literals to an Aho-Corasick program; checked here too.
--
-- Seedable and scalable: SET regex_differential.seed = '0.77' and
-- SET regex_differential.scale = '10' (10x the generated regexes and
-- subjects) before running this file, e.g.
--   PGOPTIONS='-c regex_differential.scale=10' pg_prove ...
--
\set QUIET on
SET client_min_messages = warning;
SELECT plan(16);

\set test_name regex_differential
\set default_seed 0.2718
\ir include/random_setup.sql
CREATE TEMP TABLE knobs AS
SELECT coalesce(nullif(current_setting('regex_differential.scale', true), ''), '1')::int AS scale;

-- A random element of an array.
CREATE FUNCTION pg_temp.pick(choices text[]) RETURNS text
LANGUAGE sql VOLATILE AS $$
	SELECT choices[1 + floor(random() * array_length(choices, 1))::int]
$$;

-- ------------------------------------------------------------- subjects
CREATE TEMP TABLE corpus (id serial, s text);

-- short random strings: mostly letters the regexes name, some of everything
INSERT INTO corpus (s)
SELECT pg_temp.random_string(
		CASE g % 3
			WHEN 0 THEN 'aabbcxyz AB_-.09'
			WHEN 1 THEN E'abcxyzABKkSsiI0 9_.\\()[]$^*+?|{}-\n\t'
			ELSE 'abcéÉßSsſKkKiIİıǅǆΣσςΩω€中ⅷⅫĀž😀🙏𝔸 0-'
		END,
		(random() * 14)::int)
FROM generate_series(1, 500 * (SELECT scale FROM knobs)) g;

-- fixed cases: empties, NULLs, case pairs, newlines, adversarial runs
INSERT INTO corpus (s) VALUES
	(''), (''), (NULL), (NULL),
	('É'), ('é'), ('ß'), ('SS'), ('ss'), ('ſ'), ('K'), ('k'), ('K'),
	('İ'), ('ı'), ('i'), ('I'), ('ǅ'), ('Ǆ'), ('ǆ'), ('Σ'), ('σ'), ('ς'),
	('straße'), ('STRASSE'), ('Ünïcödé'), ('😀😀'), ('𝔸x'), ('中文abc'),
	(E'a\nb'), (E'\n'), (E'x\n'), (E'\nx'), (E'ab\ncd\n'), (E'\t \r'),
	(repeat('a', 40) || 'b'), (repeat('a', 41)), (repeat('ab', 30) || 'x'),
	(repeat('é', 25) || 'ß'), ('abcabcabd'), ('aab'), ('abab'), ('xyzzy'),
	('hello world'), ('foo.bar'), ('a.b'), ('a+b'), ('(a)'), ('$^'), ('\'),
	('10%'), ('a%b'), ('a_b'), ('axb'), ('a\%b'), ('%_'), ('100% sure_');

-- values over 1 MB, stored TOASTed
CREATE TEMP TABLE long_corpus (s text);
INSERT INTO long_corpus VALUES
	(repeat('a', 1100000) || 'b'),
	(repeat('ab cé 😀 ', 120000) || 'K end');

-- --------------------------------------------------------------- regexes
CREATE TEMP TABLE regexes (re text, superset bool DEFAULT false, hand bool DEFAULT true);
INSERT INTO regexes (re) VALUES
	('a'), ('abc'), ('^a'), ('a$'), ('^$'), (''), ('^'), ('$'), ('a|b'),
	('(ab|cd)+'), ('x|y|z|0'), ('[a-z]+'), ('[^a-z]'), ('[a-c]{2,3}'),
	('[[:alpha:]]'), ('[[:alpha:]]{3}'), ('[[:upper:]]'), ('[[:lower:]][[:upper:]]'),
	('[[:punct:]]'), ('[[:space:]]'), ('[[:digit:]]'), ('[[:alnum:]]+$'),
	('[[:word:]]'), ('[^[:alpha:]]$'), ('[^[:space:]a]'),
	('\d'), ('\D{2,3}'), ('\w+\s'), ('\W'), ('\s'), ('\S+'), ('[\d\s]'),
	('^\w'), ('^\s*$'), ('[^\n]+'),
	('a{2,}'), ('x{1,3}y'), ('a{0}b'), ('(a|b){2}c'), ('a*'), ('a+?b'),
	('(a|b)*c'), ('^(a|b)*$'), ('^.$'), ('^..$'), ('^...$'), ('.'),
	('\ya'), ('a\y'), ('\yb\y'), ('\ma'), ('a\M'), ('\mx\M'), ('\Y'),
	('[[:<:]]a'), ('a[[:>:]]'), ('\Aa'), ('a\Z'), ('\A\Z'),
	('(?i)é'), ('(?i)ss'), ('(?i)k'), ('(?i)i'), ('(?i)İ'), ('(?i)ß'),
	('(?i)[a-c]+'), ('(?i)[[:upper:]]'), ('(?i)[^a]'), ('(?i)ǅ'), ('(?i)Ω'),
	('(?i)ſ'), ('(?i)S'), ('(?i)Ⅷ'), ('(?i)σ'), ('(?i)straße'),
	('ß'), ('É'), ('[é-ñ]'), ('[^€]'), ('😀'), ('[😀-😀]'), ('[^😀]'), ('ǅ'),
	('ω'), ('ſ'), ('中'), ('ⅷ'), ('K'), ('İ'), ('ı'), ('\u00e9'), ('\x41'),
	('\U0001F600'), ('[[=a=]]'), ('[[.hyphen.]]'), ('[[.space.]]'),
	('(?n)^b'), ('(?n)a$'), ('(?n).'), ('(?n)a.b'), ('(?n)[^a]'), ('(?n)^$'),
	('(?p)^b'), ('(?w)a$'), ('(?s)a.b'),
	('(?x) a b # comment'), ('***=a.b'), ('***=('), ('***:(?i)AB'),
	('(?b)a\{2\}'), ('(?e)a+'), ('(?q)a|b'), ('(?c)A'),
	('\$'), ('\^'), ('\\'), ('\('), ('\.'), ('[.]'), ('a\.b'),
	('(?:ab|c)+d'), ('(a)(b)?c'), ('a|'), ('(|a)b'),
	('ab|c'), ('xyz|a\.b|10%'), ('é|😀|ß'), ('K|k|S'), ('aa|a'), ('a\|b'),
	('.*'), ('.+$'), ('.{3,}'), ('^.{2,4}$'), ('(?s)^.{3}'), ('(?n)^.{2}$'),
	('[^[:alnum:][:space:]]'), ('(?i)[^[:lower:]]'), ('[[:alpha:]][[:digit:]]|[^[:print:]]'),
	('[Ā-ž]'), ('(?i)[α-ω]'), ('[^α-ω]'), ('[Ⅰ-Ⅻ]'), ('(?i)[ⅰ-ⅻ]'), ('[😀-🙏]+'),
	('(?i)[^ā-ž]$'), ('[a-zé-ž]{2}'),
	('10%'), ('a%b'), ('a_b'), ('%'), ('_'), ('%_'), ('hello world'), ('straße'),
	('b 😀'), ('% sure_'), ('^hello'), ('world$'), ('^a\.b$'), ('a\%b'), ('^10%'),
	('_$'), ('a\_b'), ('\(a\)'), ('^\$\^$'), ('\\$'), ('^\\');

-- back-references and lookaround: superset programs
INSERT INTO regexes (re, superset) VALUES
	('(a)\1', true), ('(.)\1', true), ('(a|b)\1', true), ('(\w+) \1', true),
	('a(?=b)', true), ('a(?!b)', true), ('(?<=a)b', true), ('(?<!a)b', true),
	('\w(?=\d)', true), ('(?i)(é)\1', true);

-- generated: 1-3 quantified items, an item an atom or a group of two
-- generated alternatives (nested up to depth levels)
CREATE FUNCTION pg_temp.random_regex(depth int) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	out text := '';
BEGIN
	FOR i IN 0 .. (random() * 2)::int LOOP
		IF depth > 0 AND random() < 0.25 THEN
			out := out || '(' || pg_temp.random_regex(depth - 1) || '|' ||
				pg_temp.random_regex(depth - 1) || ')';
		ELSE
			out := out || pg_temp.pick(ARRAY['a', 'b', 'c', 'ab', 'é', 'ß', 'K', 'i',
											 '[a-c]', '[^ab]', '[[:alpha:]]', '[[:upper:]]',
											 '\d', '\w', '\s', '\W', '.', '(?:ab|c)', '[é😀ß]',
											 '(?:\ya)', '(?:\mb)', 'x', '(b|)', '[Ā-ž]']);
		END IF;
		out := out || pg_temp.pick(ARRAY['', '', '', '*', '+', '?', '{1,2}', '{2}', '{0,3}']);
	END LOOP;
	RETURN out;
END
$$;

INSERT INTO regexes (re, hand)
SELECT CASE WHEN random() < 0.2 THEN '(?i)' ELSE '' END ||
	   CASE WHEN random() < 0.3 THEN '^' ELSE '' END ||
	   pg_temp.random_regex(2) ||
	   CASE WHEN random() < 0.3 THEN '$' ELSE '' END,
	   false
FROM generate_series(1, 120 * (SELECT scale FROM knobs)) g;

-- ------------------------------------------------------------ the check
-- One row per (regex, collation, op): pairs compared and mismatches, or
-- refused (over the state cap: gpulike.match raises feature_not_supported).
CREATE TEMP TABLE outcome (re text, coll text, pairs int, mismatches int, example text,
						   refused bool DEFAULT false);

CREATE FUNCTION pg_temp.check_regex(re text, coll text, tbl text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c text := CASE WHEN coll IS NULL THEN '' ELSE format(' COLLATE %I', coll) END;
	ops text[] := ARRAY['~', '!~', '~*', '!~*'];
	op text;
	n int;
	bad int;
	example text;
BEGIN
	FOREACH op IN ARRAY ops LOOP
		BEGIN
			EXECUTE format('SELECT count(*), count(*) FILTER (WHERE d), '
						   '       min(left(s, 60)) FILTER (WHERE d) '
						   'FROM (SELECT s, (s%s %s $1) IS DISTINCT FROM '
						   '                gpulike.match(s%s, $1, %L) AS d FROM %I) x',
						   c, op, c, op, tbl)
				INTO n, bad, example USING re;
			INSERT INTO outcome VALUES (re, coalesce(coll, 'default') || ' ' || op, n, bad, example);
		EXCEPTION WHEN feature_not_supported THEN
			INSERT INTO outcome VALUES (re, coalesce(coll, 'default') || ' ' || op, 0, 0, NULL, true);
		END;
	END LOOP;
END
$$;

DO $$
BEGIN
	PERFORM pg_temp.check_regex(re, NULL, 'corpus') FROM regexes;
	PERFORM pg_temp.check_regex(re, 'C', 'corpus') FROM regexes;
	PERFORM pg_temp.check_regex(re, coll, 'corpus')
	FROM regexes, (SELECT collname::text AS coll FROM pg_collation
				   WHERE collname IN ('und-x-icu', 'tr-TR-x-icu')) icu
	WHERE hand;
END
$$;

SELECT ok((SELECT sum(pairs) FROM outcome) >= 50000,
		  format('at least 50000 (subject, regex, operator) pairs compared: %s',
				 (SELECT sum(pairs) FROM outcome)));

SELECT is((SELECT sum(mismatches) FROM outcome WHERE coll LIKE 'default %')::int, 0,
		  'database collation: gpulike.match equals ~ !~ ~* !~* on every pair');

SELECT is((SELECT sum(mismatches) FROM outcome WHERE coll LIKE 'C %')::int, 0,
		  'collation "C": gpulike.match equals ~ !~ ~* !~* on every pair');

SELECT CASE WHEN EXISTS (SELECT FROM outcome WHERE coll LIKE '%icu%')
	THEN is((SELECT sum(mismatches) FROM outcome WHERE coll LIKE '%icu%')::int, 0,
			'ICU collations (und, tr-TR): gpulike.match equals ~ !~ ~* !~*')
	ELSE skip('no ICU collations in this build', 1) END;

-- Mismatches, if any, for whoever reads the log.
SELECT diag(format('mismatch: %s  [%s]  e.g. %L', re, coll, example))
FROM outcome WHERE mismatches > 0 LIMIT 20;

-- values over 1 MB, database collation
CREATE TEMP TABLE main_outcome AS SELECT * FROM outcome;
TRUNCATE outcome;
DO $$
BEGIN
	PERFORM pg_temp.check_regex(re, NULL, 'long_corpus') FROM regexes WHERE hand AND NOT superset;
END
$$;
SELECT is((SELECT sum(mismatches) FROM outcome)::int, 0,
		  'values over 1 MB: gpulike.match equals PostgreSQL on every hand-written regex');

-- SIMILAR TO arrives as ~ similar_to_escape(pattern [, escape])
CREATE TEMP TABLE similar_patterns (pat text, esc text);
INSERT INTO similar_patterns VALUES
	('a%', NULL), ('%b_', NULL), ('(a|b)*', NULL), ('[a-c]+%', NULL), ('%(é|ß)%', NULL),
	('_', NULL), ('%', NULL), ('a{2,3}%', NULL), ('%\%%', NULL), ('%#_%', '#'),
	('%K%', NULL), ('%[[:alpha:]]', NULL), ('%a?b+%', NULL), ('', NULL), ('%a|b', NULL);
SELECT is((SELECT count(*) FROM similar_patterns, corpus
		   WHERE (CASE WHEN esc IS NULL THEN s SIMILAR TO pat ELSE s SIMILAR TO pat ESCAPE esc END)
				 IS DISTINCT FROM
				 gpulike.match(s, CASE WHEN esc IS NULL THEN similar_to_escape(pat)
									   ELSE similar_to_escape(pat, esc) END, '~'))::int,
		  0, 'SIMILAR TO (as ~ similar_to_escape(pattern)) equals PostgreSQL');

-- Program kinds: superset exactly where back-references or lookaround are.
SELECT is((SELECT count(*) FROM regexes
		   WHERE hand AND gpulike.explain_pattern(re, '~*') NOT LIKE 'DFA (%')::int, 0,
		  'under ~* every hand-written regex compiles to a DFA program (none refused)');
-- under ~: literals (perhaps anchored, punctuation escaped) to LIKE programs
CREATE TEMP TABLE literal_routes (re text, want text);
INSERT INTO literal_routes VALUES
	('abc', 'KMP-hybrid (1 segment)'), ('^abc', 'KMP-hybrid (1 segment, anchored start)'),
	('abc$', 'KMP-hybrid (1 segment, anchored end)'),
	('^abc$', 'KMP-hybrid (1 segment, anchored both ends)'),
	('a\.b', 'KMP-hybrid (1 segment)'), ('10%', 'KMP-hybrid (1 segment)'),
	('a\%b', 'KMP-hybrid (1 segment)'), ('\\', 'KMP-hybrid (1 segment)'),
	('😀', 'KMP-hybrid (1 segment)'), ('', 'match-all%'), ('^', 'match-all%'),
	('$', 'match-all%'), ('^$', 'empty-string test'),
	('a.b', 'DFA (%'), ('\d', 'DFA (%'), ('a\$', 'DFA (%'), ('^^a', 'DFA (%'),
	('(?i)a', 'DFA (%'), ('***=a.b', 'DFA (%'), ('ab*', 'DFA (%'),
	('a|b', 'Aho-Corasick (2 literals%'), ('zebra|quux|a\.b', 'Aho-Corasick (3 literals%'),
	('é|😀', 'Aho-Corasick (2 literals%'), ('a\|b', 'KMP-hybrid (1 segment)'),
	('a|', 'DFA (%'), ('|a', 'DFA (%'), ('a||b', 'DFA (%'), ('^a|b', 'DFA (%'),
	('a|b$', 'DFA (%'), ('(a|b)', 'DFA (%'), ('ab|c.d', 'DFA (%');
SELECT is((SELECT string_agg(re || ': ' || gpulike.explain_pattern(re, '~'), '; ')
		   FROM literal_routes WHERE gpulike.explain_pattern(re, '~') NOT LIKE want), NULL,
		  'under ~ a literal regex compiles to its LIKE program, an alternation of '
		  'literals to an Aho-Corasick program, any other to a DFA');
SELECT matches(gpulike.explain_pattern(repeat('x', 70), '~'), '^DFA \(',
			   'a literal too long for a LIKE segment stays a DFA');
-- under ~* an alternation of literals is Aho-Corasick where the collation
-- is C (PostgreSQL folds ASCII letters alone there), a DFA elsewhere
SELECT is(gpulike.explain_pattern('zebra|Quux|é' COLLATE "C", '~*') LIKE 'Aho-Corasick (3 literals%'
		  AND gpulike.explain_pattern('zebra|Quux|é', '~*') LIKE 'DFA (%'
		  AND gpulike.explain_pattern('ze.ra|Quux' COLLATE "C", '~*') LIKE 'DFA (%', true,
		  'under ~* and a C collation an alternation of literals compiles to Aho-Corasick');
-- a DFA's prefilter: the longest literal run of the text that its automaton
-- proves every match contains (regex_prefilter.c), or none; whether the
-- column's answers stay PostgreSQL's is scan_differential's to check
CREATE TEMP TABLE prefilter_routes (re text, op text, want text);
INSERT INTO prefilter_routes VALUES
	('fox.*bar', '~', 'fox'), ('special.*requests', '~', 'requests'),
	('furious(ly)?', '~', 'furious'), ('\mpinto\M', '~', 'pinto'),
	('ab+cde', '~', 'cde'), ('x{0}abc.', '~', 'abc'), ('[[:alpha:]]xyz', '~', 'xyz'),
	('a\.bcd.', '~', 'a.bcd'), ('(abc)+d', '~', 'abc'), ('2024-.*x', '~*', '2024-'),
	('é😀x.', '~', 'é😀x'), ('^abcd*', '~', 'abc'),
	('cat|do+g', '~', NULL), ('(cat|dog)s', '~', NULL), ('(?i)fox.', '~', NULL),
	('fox.*bar', '~*', NULL), ('(?x)f o x.', '~', NULL), ('abcd?', '~', 'abc'),
	('(abc)?d', '~', NULL), ('\x41BCD.', '~', NULL), ('***=abc.d', '~', NULL),
	('ab[c]de', '~', NULL), ('(?:abc){0}d', '~', NULL), ('abc{0,}d', '~', NULL);
SELECT is((SELECT string_agg(format('%s %s: %s', op, re, gpulike.explain_pattern(re, op)), '; ')
		   FROM prefilter_routes
		   WHERE gpulike.explain_pattern(re, op) NOT LIKE
				 'DFA (%' || CASE WHEN want IS NULL THEN 'colors)'
								  ELSE format(', prefilter ''%s'')', want) END), NULL,
		  'a regex''s DFA has the prefilter its automaton proves, and none where none holds');
SELECT ok((SELECT count(*) FILTER (WHERE refused) FROM main_outcome) * 20
		  <= (SELECT count(*) FROM main_outcome),
		  format('at most 5%% of (regex, collation, operator) cases refused: %s of %s',
				 (SELECT count(*) FILTER (WHERE refused) FROM main_outcome),
				 (SELECT count(*) FROM main_outcome)));
SELECT is((SELECT count(*) FROM regexes
		   WHERE hand AND superset <> (gpulike.explain_pattern(re, '~') LIKE '%superset%'))::int, 0,
		  'back-references and lookaround give superset programs, everything else exact');

-- The state cap: a regex whose minimal DFA has more than 4096 states is
-- refused (PostgreSQL evaluates it), and one just under the cap is not.
SELECT matches(gpulike.explain_pattern('(a|b)*a(a|b){12}$', '~'), '^refused',
			   'a regex needing 2^13 DFA states is refused');
SELECT matches(gpulike.explain_pattern('(a|b)*a(a|b){10}$', '~'), '^DFA \(\d+ states',
			   'a regex needing 2^11 DFA states compiles');
SELECT is((SELECT count(*) FROM corpus
		   WHERE (s ~ '(a|b)*a(a|b){10}$') IS DISTINCT FROM
				 gpulike.match(s, '(a|b)*a(a|b){10}$', '~'))::int, 0,
		  'the 2^11-state DFA equals PostgreSQL');

SELECT * FROM finish();
