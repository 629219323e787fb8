-- The demo's sample data: :rows comments made of TPC-H-style comment words
-- (a few of them multibyte), with a planted phrase in one row of 5000.
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS demo CASCADE;
RESET client_min_messages;
CREATE SCHEMA demo;
CREATE TABLE demo.comments (id bigint PRIMARY KEY, body text);
CREATE TEMP TABLE words (w text[]);
INSERT INTO words VALUES (ARRAY[
    'furiously', 'special', 'requests', 'carefully', 'final', 'deposits',
    'pending', 'ironic', 'packages', 'slyly', 'express', 'accounts',
    'blithely', 'regular', 'instructions', 'bold', 'foxes', 'quickly',
    'unusual', 'theodolites', 'even', 'pinto', 'beans', 'daringly', 'silent',
    'dependencies', 'sleep', 'haggle', 'nag', 'wake', 'Zürich', 'café', 'naïve']);

SELECT setseed(0.42) AS seeded \gset
INSERT INTO demo.comments
SELECT i,
       CASE WHEN i % 5000 = 0 THEN 'Customer ' ELSE '' END ||
       (SELECT string_agg(words.w[1 + floor(random() * array_length(words.w, 1))::int], ' ')
          FROM words, generate_series(1, 4 + i % 9)) ||
       CASE WHEN i % 5000 = 0 THEN ' Complaints' ELSE '' END
  FROM generate_series(1, :rows) AS i;
VACUUM (ANALYZE) demo.comments;	-- as autovacuum would: the visibility map set
SELECT count(*) AS rows, pg_size_pretty(pg_table_size('demo.comments')) AS heap
  FROM demo.comments;
