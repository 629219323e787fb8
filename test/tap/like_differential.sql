--
-- Differential test of the LIKE / ILIKE compiler and the CPU engine:
-- gpulike.match(s, p, op) must equal PostgreSQL's own operator for every
-- (subject, pattern) pair of a generated corpus -- random ASCII with LIKE's
-- metacharacters, UTF-8 with 2-4 byte characters and case pairs (É/é, ß/SS,
-- the Kelvin sign, dotted and dotless i, final sigma), empty strings, NULLs,
-- adversarial repetitions, values over 1 MB (TOASTed) -- and generated
-- patterns (%, _, escapes, anchors, %%, patterns longer than the values,
-- case changes).  LIKE, NOT LIKE and ILIKE under the database's collation
-- (libc: per code point towlower) and under "C".
--
-- Seedable and scalable: SET like_differential.seed = '0.77' and
-- SET like_differential.scale = '10' (10x the pairs) before running this
-- file (e.g. PGOPTIONS='-c like_differential.scale=10' pg_prove ...).
--
\set QUIET on
SET client_min_messages = warning;
SELECT plan(13);

\set test_name like_differential
\set default_seed 0.3141
\ir include/random_setup.sql
CREATE TEMP TABLE knobs AS
SELECT coalesce(nullif(current_setting('like_differential.scale', true), ''), '1')::int AS scale;

-- A pattern made from a subject so that about half of them match: each
-- character kept (escaped if it is special, sometimes case-flipped),
-- replaced by '_', dropped, or replaced by '%'; '%' added at either end.
CREATE FUNCTION pg_temp.derive_pattern(s text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	out text := '';
	c text;
	r float8;
BEGIN
	FOR i IN 1 .. length(s) LOOP
		c := substr(s, i, 1);
		r := random();
		IF r < 0.12 THEN
			out := out || '_';
		ELSIF r < 0.20 THEN
			out := out || '%';
		ELSIF r < 0.24 THEN
			NULL;				-- dropped: a near miss
		ELSE
			IF c IN ('%', '_', '\') OR r > 0.97 THEN
				out := out || '\';
			END IF;
			IF r > 0.85 THEN
				c := CASE WHEN upper(c) = c THEN lower(c) ELSE upper(c) END;
			END IF;
			out := out || c;
		END IF;
	END LOOP;
	IF random() < 0.5 THEN out := '%' || out; END IF;
	IF random() < 0.5 THEN out := out || '%'; END IF;
	RETURN out;
END
$$;

-- Subjects.
CREATE TEMP TABLE subjects (id serial, s text);
INSERT INTO subjects (s)		-- ASCII, LIKE's metacharacters included
SELECT pg_temp.random_string('abcABC xkKsSiI%_\.', floor(random() * 24)::int)
FROM generate_series(1, 400 * (SELECT scale FROM knobs));
INSERT INTO subjects (s)		-- UTF-8: 2-4 byte characters and case pairs
SELECT pg_temp.random_string('aAbéÉßẞsSKkKİıiIΣσςΩΩω€😀𝔸ǅǆ ', floor(random() * 16)::int)
FROM generate_series(1, 400 * (SELECT scale FROM knobs));
INSERT INTO subjects (s) VALUES ('') , (''), (NULL), (NULL), ('ß'), ('SS'), ('ss'),
	('K'), ('k'), ('K'), ('İ'), ('i̇'), ('ı'), ('I'), ('ÉCOLE'), ('école'), ('ΣΑΣ'), ('σας'),
	('special requests'), ('a%b_c\d');
INSERT INTO subjects (s)		-- adversarial for KMP / skims
SELECT repeat('a', n) || 'b' FROM (VALUES (7), (63), (64), (65), (500), (5000)) v(n)
UNION ALL SELECT repeat('a', 3000)
UNION ALL SELECT repeat('ab', 1500) || 'c'
UNION ALL SELECT repeat('aab', 1000);

-- Patterns: derived from subjects, random, and a fixed list of edge cases.
CREATE TEMP TABLE patterns (pid serial, p text);
INSERT INTO patterns (p)
SELECT pg_temp.derive_pattern(substr(s, 1 + floor(random() * 4)::int, 1 + floor(random() * 14)::int))
FROM (SELECT s FROM subjects WHERE s IS NOT NULL AND length(s) < 100
	  ORDER BY random() LIMIT 200 * (SELECT scale FROM knobs)) t;
INSERT INTO patterns (p)
SELECT pg_temp.random_string('abAB%_%_kKßSsé', floor(random() * 7)::int)
FROM generate_series(1, 40 * (SELECT scale FROM knobs));
INSERT INTO patterns (p) VALUES (''), ('%'), ('%%'), ('_'), ('__'), ('%_%'), ('_%_'),
	('%a%a%b'), ('%aaab'), ('a%'), ('%b'), ('%ab%ab%c'), ('%aab%aab%'), ('%a_a_b%'),
	('%ß%'), ('%SS%'), ('%ss%'), ('%ẞ%'), ('%k%'), ('%K%'), ('%K%'), ('%i%'), ('%I%'),
	('%İ%'), ('%ı%'), ('%é%'), ('%É%'), ('%σ%'), ('%Σ%'), ('%ς%'), ('%Ω%'), ('%ω%'),
	('%ǅ%'), ('\%%'), ('%\_%'), ('%\\%'), ('a\bc%'), ('%😀_'), ('_😀%'), ('%𝔸'),
	(repeat('_', 30)), (repeat('a', 60) || '%'), ('%' || repeat('a', 63) || 'b'),
	('%' || repeat('_', 64) || '%'), ('ÉCOLE'), ('%cole'), ('%special%requests%');

-- Every pair, through both engines.
CREATE TEMP TABLE results AS
SELECT s.id, p.pid, s.s, p.p,
	   s.s LIKE p.p AS pg_like,
	   gpulike.match(s.s, p.p, '~~') AS gl_like,
	   s.s NOT LIKE p.p AS pg_not_like,
	   gpulike.match(s.s, p.p, '!~~') AS gl_not_like,
	   s.s ILIKE p.p AS pg_ilike,
	   gpulike.match(s.s, p.p, '~~*') AS gl_ilike,
	   (s.s COLLATE "C") ILIKE p.p AS pg_ilike_c,
	   gpulike.match(s.s COLLATE "C", p.p, '~~*') AS gl_ilike_c
FROM patterns p CROSS JOIN subjects s;

SELECT cmp_ok((SELECT count(*) * 4 FROM results), '>=', 100000::bigint,
			  'at least 100k (value, pattern, operator) pairs');
SELECT is((SELECT count(*) FROM results WHERE gl_like IS DISTINCT FROM pg_like), 0::bigint,
		  'LIKE: no mismatches');
SELECT is((SELECT count(*) FROM results WHERE gl_not_like IS DISTINCT FROM pg_not_like), 0::bigint,
		  'NOT LIKE: no mismatches');
SELECT is((SELECT count(*) FROM results WHERE gl_ilike IS DISTINCT FROM pg_ilike), 0::bigint,
		  'ILIKE (database collation): no mismatches');
SELECT is((SELECT count(*) FROM results WHERE gl_ilike_c IS DISTINCT FROM pg_ilike_c), 0::bigint,
		  'ILIKE (C collation): no mismatches');
SELECT diag(format('mismatch: %L vs %L: like %s/%s ilike %s/%s ilike_c %s/%s',
				   left(s, 60), p, gl_like, pg_like, gl_ilike, pg_ilike, gl_ilike_c, pg_ilike_c))
FROM results
WHERE gl_like IS DISTINCT FROM pg_like OR gl_ilike IS DISTINCT FROM pg_ilike
   OR gl_ilike_c IS DISTINCT FROM pg_ilike_c
LIMIT 10;
-- A corpus where nothing (or everything) matches would test nothing.
SELECT ok((SELECT count(*) FILTER (WHERE pg_like) BETWEEN count(*) / 50 AND count(*) / 2
		   AND count(*) FILTER (WHERE pg_ilike) > count(*) FILTER (WHERE pg_like)
		   FROM results), 'the corpus has both matches and misses, ILIKE matching more');

-- Values over 1 MB, stored TOASTed: a needle at the end, case changes inside.
CREATE TEMP TABLE long_values (s text);
INSERT INTO long_values
SELECT repeat(pg_temp.random_string('abc éK', 40), 30000) || tail
FROM (VALUES ('needle'), ('NEEDLE'), ('néédle'), ('')) v(tail);
SELECT ok((SELECT bool_and(octet_length(s) > 1000000 AND pg_column_size(s) < octet_length(s))
		   FROM long_values), 'long values are over 1 MB and stored compressed');
CREATE TEMP TABLE long_patterns (p text);
INSERT INTO long_patterns VALUES ('%needle'), ('%needle%'), ('%NEEDLE'), ('%n_edle'),
	('%néédle'), ('%k%needle'), ('%a%b%c%needle'), ('abc%'), ('%é_k%'), ('%zzz%'),
	('%' || repeat('_', 58) || 'needle'), ('%abc éKabc%'), ('%ABC ÉK%');
SELECT is((SELECT count(*) FROM long_values, long_patterns
		   WHERE gpulike.match(s, p, '~~') IS DISTINCT FROM (s LIKE p)
			  OR gpulike.match(s, p, '~~*') IS DISTINCT FROM (s ILIKE p)), 0::bigint,
		  'values over 1 MB: no mismatches (LIKE and ILIKE)');

-- LIKE ANY: random sets of '%literal%' patterns through one automaton.
CREATE TEMP TABLE literal_sets AS
SELECT g AS set_id,
	   array_agg('%' || replace(replace(replace(lit, '\', '\\'), '_', '\_'), '%', '\%') || '%') AS pats
FROM (SELECT g, pg_temp.random_string('abAB%_ké\', 1 + floor(random() * 3)::int) AS lit
	  FROM generate_series(1, 30) g, generate_series(1, 4) k) t
GROUP BY g;
SELECT is((SELECT count(*) FROM literal_sets, subjects
		   WHERE gpulike.match_any(s, pats, '~~') IS DISTINCT FROM (s LIKE ANY (pats))
			  OR gpulike.match_any(s COLLATE "C", pats, '~~*')
				 IS DISTINCT FROM ((s COLLATE "C") ILIKE ANY (pats))), 0::bigint,
		  'LIKE ANY / ILIKE ANY (C) through Aho-Corasick: no mismatches');

-- Errors: refusals are ours, clear, and PostgreSQL keeps its own.
SELECT throws_ok($$SELECT gpulike.match('abc', 'ab\', '~~')$$, '0A000',
				 'gpulike cannot compile this pattern: LIKE pattern ends with the escape character',
				 'a pattern ending in the escape character is refused');
SELECT is(gpulike.explain_pattern('ab\', '~~'),
		  'refused: LIKE pattern ends with the escape character',
		  'explain_pattern says why');
CREATE COLLATION pg_temp.nd (provider = icu, locale = 'und', deterministic = false);
SELECT throws_ok($$SELECT gpulike.match('abc', 'abc' COLLATE pg_temp.nd, '~~')$$, '0A000',
				 'gpulike cannot compile this pattern: nondeterministic collations are not supported for LIKE',
				 'nondeterministic collation refused');
SELECT throws_ok($$SELECT 'abc' LIKE 'abc' COLLATE pg_temp.nd$$, '0A000',
				 'nondeterministic collations are not supported for LIKE',
				 'and PostgreSQL raises its own error for it');

SELECT * FROM finish();
