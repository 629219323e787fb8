--
-- Regular expressions: pg_regcomp's NFA determinized into a DFA program
-- (src/pattern/compile_regex.c) and run by the CPU engine (cpu_dfa.c).
-- The broad differential test is test/tap/regex_differential.sql; this
-- file pins down program shapes, errors and refusals.
--
SET gpulike.regression_mode = on;

-- gpulike's answer next to PostgreSQL's on a few telling pairs
CREATE TEMP TABLE pairs (s text, re text);
INSERT INTO pairs VALUES
	('abc', 'b'), ('abc', '^b'), ('abc', 'c$'), ('', '^$'), ('', ''),
	(E'a\nb', '^b'), (E'a\nb', '(?n)^b'), ('x1y', '\d'), ('straße', 'ß$'),
	('STRASSE', '(?i)straße'), ('É', '(?i)é'), ('K', '(?i)k'), ('İ', '(?i)i'),
	('word boundary', '\yboun'), ('word boundary', 'd\y'), ('😀', '^.$'),
	('aaaaaaaaaaaaaaaaaaab', '(a+)+b'), ('abab', '(ab)\1'), ('abac', '(ab)\1'),
	('ab', 'a(?=b)'), ('ac', 'a(?=b)'), (NULL, 'a');
SELECT s, re, s ~ re AS postgres, gpulike.match(s, re, '~') AS gpulike,
	   s !~* re AS postgres_not_i, gpulike.match(s, re, '!~*') AS gpulike_not_i
FROM pairs ORDER BY re, s;

-- program shapes: exact DFAs, and supersets for back-references/lookaround;
-- a literal under ~ (perhaps anchored) is its LIKE program (% and _ escaped),
-- an alternation of literals an Aho-Corasick program
SELECT re, gpulike.explain_pattern(re, '~') FROM (VALUES
	('abc'), ('^abc$'), ('[[:alpha:]]+'), ('a|b|c'), ('a^b'),
	('(a)\1'), ('a(?!b)'), ('(?<=x)y'), ('50% off_'), ('')) v(re);
SELECT gpulike.explain_pattern('[a-z]', '~*') AS case_insensitive,
	gpulike.explain_pattern('abc', '~*') AS literal_case_insensitive;
SELECT s, s ~ '50% off_' AS postgres, gpulike.match(s, '50% off_', '~') AS gpulike
FROM (VALUES ('50% off_ today'), ('50% off!'), ('50x off_'), ('')) v(s);

-- a regex whose DFA would exceed the state cap is refused (PostgreSQL
-- evaluates it), and gpulike.match says so
SELECT gpulike.explain_pattern('(a|b)*a(a|b){12}$', '~');
SELECT gpulike.match('ab', '(a|b)*a(a|b){12}$', '~');
-- thousands of groups: refused in well under a second (compiled with
-- REG_NOSUB, as PostgreSQL's ~ does), not after a long subset construction
SELECT gpulike.explain_pattern(repeat('(a|b)', 6000), '~') AS six_thousand_groups;

-- invalid regexes: exactly PostgreSQL's error
SELECT 'x' ~ '(';
SELECT gpulike.match('x', '(', '~');
SELECT 'x' ~ 'a{2,1}';
SELECT gpulike.match('x', 'a{2,1}', '~');
SELECT 'x' ~* '[z-a]';
SELECT gpulike.match('x', '[z-a]', '~*');
SELECT 'x' ~ '\';
SELECT gpulike.match('x', '\', '~');
SELECT 'x' ~ '(?z)a';
SELECT gpulike.match('x', '(?z)a', '~');

-- nondeterministic collations: PostgreSQL's own error as well
CREATE COLLATION regex_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT 'x' ~ ('x' COLLATE regex_ci);
SELECT gpulike.match('x', 'x' COLLATE regex_ci, '~');
DROP COLLATION regex_ci;

-- SIMILAR TO reaches the compiler as ~ similar_to_escape(pattern)
SELECT s, s SIMILAR TO '%(b|d)_' AS postgres,
	   gpulike.match(s, similar_to_escape('%(b|d)_'), '~') AS gpulike
FROM (VALUES ('abc'), ('adc'), ('ab'), ('xbé')) v(s);

-- SQL_ASCII databases: one byte is one character, high bytes included
\set home_db :DBNAME
CREATE DATABASE gpulike_regex_sql_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'
	TEMPLATE template0;
\c gpulike_regex_sql_ascii
CREATE EXTENSION gpulike;
SELECT encode(convert_to(s, 'SQL_ASCII'), 'hex') AS s,
	   encode(convert_to(re, 'SQL_ASCII'), 'hex') AS re, s ~ re AS postgres,
	   gpulike.match(s, re, '~') AS gpulike,
	   s ~* re AS postgres_i, gpulike.match(s, re, '~*') AS gpulike_i
FROM (VALUES (E'caf\xe9'), (E'caf\xc3\xa9'), (E'\xc9T\xc9'), ('cafe')) v(s),
	 (VALUES (E'\xe9$'), (E'^caf.$'), (E'[\xe0-\xef]'), ('^.{4}$'), ('[[:alpha:]]{4}'), ('E')) w(re)
ORDER BY 1, 2;
\c :home_db
DROP DATABASE gpulike_regex_sql_ascii;
