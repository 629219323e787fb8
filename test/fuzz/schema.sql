-- The query-shape fuzzer's tables (test/fuzz/fuzz.py loads this with
-- psql -v seed=...; the same seed gives the same rows).
--
--	docs	the searched table: four cached columns (text, text, varchar,
--			char(n)) and columns of other types beside them; NULLs, empty
--			strings, multibyte and mixed-case text, LIKE's metacharacters,
--			newlines, and values long enough to be TOASTed out of line
--	parts	docs again, partitioned (its body and title cached); views
--			and an SQL function of docs's columns

--	notes	a second cached table, joined to docs by doc_id
--	words	search terms and patterns, for joins whose pattern comes from
--			another relation (not cached)
--	nums	a small plain table for joins and subqueries
SET client_min_messages = warning;
SELECT setseed(:seed);

CREATE FUNCTION fz_phrase() RETURNS text LANGUAGE sql VOLATILE AS $$
	SELECT (ARRAY['the quick brown fox', 'jumps over the lazy dog',
				  'special requests', 'Customer Complaints', 'QUICK RED fox',
				  'naïve café', 'Straße', 'ΣΊΣΥΦΟΣ σίσυφος', '漢字テキスト',
				  'emoji 😀 here', '50% off_sale', 'back\slash', 'a.b*c+d?',
				  'final deposits', 'pending accounts', 'lazy dig', 'İstanbul',
				  'x', 'ab' || chr(10) || 'cd', 'tab' || chr(9) || 'bed']
			)[1 + floor(random() * 20)::int]
$$;

CREATE FUNCTION fz_text(maxlen int) RETURNS text LANGUAGE sql VOLATILE AS $$
	SELECT CASE
		WHEN r < 0.06 THEN NULL
		WHEN r < 0.09 THEN ''
		WHEN r < 0.095 THEN						-- long, incompressible: TOASTed
			(SELECT string_agg(md5(random()::text), ' ') FROM generate_series(1, 100 + floor(random() * 500)::int))
			|| ' needle ' || fz_phrase()
		WHEN r < 0.60 THEN
			left(fz_phrase() || ' ' || md5(random()::text) || ' ' || fz_phrase(), maxlen)
		ELSE left(md5(random()::text) || ' ' || fz_phrase(), maxlen)
	END
	FROM (SELECT random() AS r) s
$$;

CREATE TABLE docs (
	id int PRIMARY KEY,
	title text,
	body text,
	data jsonb,
	created date,
	n int,
	price numeric(10, 2),
	tag varchar(12),
	code char(8)
) WITH (fillfactor = 80, parallel_workers = 2);	-- parallel plans on any machine (planner.c)

-- Every other run of 4 096 ids (a chunk of the cache's rows, whose byte
-- pairs it summarizes: chunk_pairs.h) has bodies with 'Zebra needle',
-- which no other row holds, so that with --rows past 8 192 whole chunks
-- lack a searched term's pairs and are passed over.
INSERT INTO docs
SELECT g,
	   fz_text(30),
	   fz_text(200) || CASE WHEN (g / 4096) % 2 = 1 AND random() < 0.2 THEN ' Zebra needle'
						   ELSE '' END,
	   CASE WHEN random() < 0.1 THEN NULL
			ELSE jsonb_build_object('tag', fz_text(12), 'k', g % 7) END,
	   date '2024-01-01' + (g % 400),
	   CASE WHEN random() < 0.05 THEN NULL ELSE g % 100 END,
	   CASE WHEN random() < 0.05 THEN NULL ELSE round((random() * 1000)::numeric, 2) END,
	   (ARRAY['red', 'green', 'Blue', 'café', '%_x', NULL, ''])[1 + floor(random() * 7)::int],
	   CASE WHEN random() < 0.1 THEN NULL ELSE left(md5(g::text), 1 + g % 7) END
FROM generate_series(1, :rows) g;

-- docs again, partitioned by ranges of id (one partition sub-partitioned)
CREATE TABLE parts (LIKE docs, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE parts_1 PARTITION OF parts FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE parts_2 PARTITION OF parts FOR VALUES FROM (1000) TO (2000)
	PARTITION BY HASH (id);
CREATE TABLE parts_2a PARTITION OF parts_2 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parts_2b PARTITION OF parts_2 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE parts_3 PARTITION OF parts DEFAULT;
INSERT INTO parts SELECT * FROM docs;

-- views and an inlinable function of docs's columns
CREATE VIEW docs_sb WITH (security_barrier) AS
	SELECT * FROM docs WHERE n IS DISTINCT FROM 13;
CREATE VIEW docs_fox AS SELECT * FROM docs WHERE body ILIKE '%fox%' OR title IS NULL;
CREATE FUNCTION docs_like(p text) RETURNS SETOF docs LANGUAGE sql STABLE AS
	'SELECT * FROM docs WHERE body LIKE p';

CREATE TABLE notes (id int PRIMARY KEY, doc_id int, body text, kind text) WITH (parallel_workers = 2);
INSERT INTO notes
SELECT g, 1 + floor(random() * :rows)::int, fz_text(60),
	   (ARRAY['memo', 'todo', NULL])[1 + floor(random() * 3)::int]
FROM generate_series(1, :rows / 3) g;

CREATE TABLE words (id int PRIMARY KEY, w text, pat text);
INSERT INTO words VALUES
	(1, 'fox', '%fox%'), (2, 'lazy', 'lazy%'), (3, 'QUICK', '%quick%'),
	(4, 'café', '%caf_%'), (5, 'requests', '%requests'), (6, 'zebra', '%zebra%'),
	(7, 'Σ', '%σ%'), (8, 'd', '%d_g%'), (9, '50%', '50\%%'), (10, NULL, NULL),
	(11, '', '%'), (12, 'a', '_'), (13, 'needle', '%needle%'), (14, 'e', '%e%e%'),
	(15, 'ab', 'ab%cd');

CREATE TABLE nums (k int PRIMARY KEY, label text);
INSERT INTO nums SELECT g, 'k' || g FROM generate_series(0, 20) g;

VACUUM (FREEZE, ANALYZE);
SELECT gpulike.cache('docs', 'body');
SELECT gpulike.cache('docs', 'title');
SELECT gpulike.cache('docs', 'tag');
SELECT gpulike.cache('docs', 'code');
SELECT gpulike.cache('notes', 'body');
SELECT gpulike.cache('parts', 'body');
SELECT gpulike.cache('parts', 'title');
