-- The LIKE / ILIKE compiler and the CPU engine, through the SQL test entry
-- points: what the compiler makes of a pattern, where it refuses, and the
-- CPU engine's answers next to PostgreSQL's own operators.
SET gpulike.regression_mode = on;

-- What EXPLAIN will say about each pattern.
SELECT p, gpulike.explain_pattern(p, '~~') AS like_program
FROM (VALUES ('%special%requests%'), ('abc'), ('abc%'), ('%abc'), ('%a_c%'),
             ('a_c%x%'), ('_'), ('%'), ('%%%'), (''), ('%\%%'), ('%é_€%')) AS t(p);

-- ILIKE: ASCII-only classes under "C"; per code point classes otherwise.
SELECT gpulike.explain_pattern('%abc%' COLLATE "C", '~~*') AS c_letters,
       gpulike.explain_pattern('%123%' COLLATE "C", '~~*') AS c_digits,
       gpulike.explain_pattern('%abc%' COLLATE "POSIX", '!~~*') AS posix_negated;

-- Several '%literal%' patterns become one Aho-Corasick automaton.
SELECT gpulike.explain_any(ARRAY['%he%', '%she%', '%his%', '%hers%'], '~~') AS ac,
       gpulike.explain_any(ARRAY['%Special%', '%requests%'] COLLATE "C", '~~*') AS ac_c_ilike,
       gpulike.explain_any(ARRAY['%a\%b%', '%%'], '~~') AS escaped_and_empty;

-- Refusals: PostgreSQL then evaluates the predicate itself.
SELECT gpulike.explain_pattern('abc\', '~~') AS ends_in_escape,
       gpulike.explain_pattern(repeat('x', 65) || '%', '~~') AS long_segment,
       gpulike.explain_any(ARRAY['%a_c%', '%b%'], '~~') AS not_literal,
       gpulike.explain_any(ARRAY['%a%', 'b%'], '~~') AS anchored,
       gpulike.explain_any(ARRAY['%a%'], '~~') AS single;

-- A nondeterministic collation: PostgreSQL raises the error, not us.
CREATE COLLATION match_like_nd (provider = icu, locale = 'und', deterministic = false);
SELECT gpulike.explain_pattern('abc' COLLATE match_like_nd, '~~') AS nondeterministic;
SELECT 'abc' COLLATE match_like_nd LIKE 'abc';
SELECT gpulike.match('abc', 'abc' COLLATE match_like_nd, '~~');
DROP COLLATION match_like_nd;

-- ICU lowers whole strings: ILIKE under ICU is left to PostgreSQL.
CREATE COLLATION match_like_icu (provider = icu, locale = 'und');
SELECT gpulike.explain_pattern('abc' COLLATE match_like_icu, '~~*') AS icu_ilike,
       gpulike.explain_pattern('abc' COLLATE match_like_icu, '~~') AS icu_like;
DROP COLLATION match_like_icu;

-- Errors of the test entry points themselves.
SELECT gpulike.match('abc', 'abc\', '~~');
SELECT gpulike.match('abc', 'abc', '=');
SELECT gpulike.match(NULL, 'abc', '~~') IS NULL AS null_subject;

-- The raw program: magic "GLP1", kind, size.
SELECT substring(b from 1 for 4) AS magic, get_byte(b, 8) AS kind,
       length(b) = get_byte(b, 4) + 256 * get_byte(b, 5) AS size_matches
FROM (VALUES (gpulike.program_bytes('%abc%', '~~')),
             (gpulike.program_bytes_any(ARRAY['%a%', '%b%'], '~~'))) AS t(b);

-- The CPU engine against PostgreSQL: every combination of these subjects
-- and patterns, under "C" (platform independent) for LIKE and ILIKE.
CREATE TEMP TABLE subjects(s text COLLATE "C");
INSERT INTO subjects VALUES (''), ('a'), ('abc'), ('ABC'), ('aBc'), ('a%c'), ('a_c'),
  ('a\c'), ('abcabc'), ('xxabcxx'), ('é'), ('éé'), ('aé€😀'), ('ÉCOLE'), ('école'),
  ('aaaaaaaab'), ('special requests'), ('Special Requests!'), (NULL);
CREATE TEMP TABLE patterns(p text COLLATE "C");
INSERT INTO patterns VALUES (''), ('%'), ('_'), ('__'), ('a'), ('abc'), ('ABC'), ('a%'),
  ('%c'), ('%b%'), ('a_c'), ('a\%c'), ('a\_c'), ('a\\c'), ('%abc%abc'), ('abc%abc'),
  ('%a%a%b'), ('_é'), ('%😀'), ('a___'), ('%é%'), ('%ÉCOLE%'), ('%a_a_b'),
  ('%special%requests%'), ('%aaab'), ('%%%b%%');
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE s LIKE p) AS like_true,
       count(*) FILTER (WHERE s ILIKE p) AS ilike_true,
       count(*) FILTER (WHERE gpulike.match(s, p, '~~') IS DISTINCT FROM (s LIKE p)) AS like_mismatches,
       count(*) FILTER (WHERE gpulike.match(s, p, '!~~') IS DISTINCT FROM (s NOT LIKE p)) AS not_like_mismatches,
       count(*) FILTER (WHERE gpulike.match(s, p, '~~*') IS DISTINCT FROM (s ILIKE p)) AS ilike_mismatches,
       count(*) FILTER (WHERE gpulike.match(s, p, '!~~*') IS DISTINCT FROM (s NOT ILIKE p)) AS not_ilike_mismatches
FROM subjects, patterns;

-- A few answers spelled out.
SELECT s, p, gpulike.match(s, p, '~~') AS "like", gpulike.match(s, p, '~~*') AS "ilike"
FROM (VALUES ('aé€😀', 'a___'), ('aé€😀', 'a__'), ('a%c', 'a\%c'), ('abc', 'a\%c'),
             ('Special Requests!', '%special%requests%'), ('ÉCOLE', 'école'),
             ('abcabc', 'abc%abc'), ('abc', 'abc%abc')) AS t(s, p);

-- LIKE ANY through one automaton, against PostgreSQL's = ANY.
SELECT count(*) FILTER (WHERE gpulike.match_any(s, ARRAY['%abc%', '%é%', '%requests%'], '~~')
                         IS DISTINCT FROM (s LIKE ANY (ARRAY['%abc%', '%é%', '%requests%']))) AS like_any_mismatches,
       count(*) FILTER (WHERE gpulike.match_any(s, ARRAY['%ABC%', '%Requests%'], '~~*')
                         IS DISTINCT FROM (s ILIKE ANY (ARRAY['%ABC%', '%Requests%']))) AS ilike_any_mismatches
FROM subjects;
-- An empty array matches nothing, as = ANY ('{}') does.
SELECT gpulike.match_any('abc', '{}', '~~') AS any_of_none,
       'abc' LIKE ANY ('{}') AS postgres_any_of_none;


-- Which operators the planner will take for pattern operators: text,
-- varchar (text's operators), char(n) and name; not bytea, not ~ on bit.
SELECT oprname, oprleft::regtype, oprright::regtype, gpulike.pattern_operator(oid)
FROM pg_operator
WHERE oprname IN ('~~', '!~~', '~~*', '!~~*', '~', '!~', '~*', '!~*')
ORDER BY oprleft::regtype::text COLLATE "C", oprname COLLATE "C", oprright::regtype::text COLLATE "C";
