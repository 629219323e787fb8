-- CPU engine throughput on one core against PostgreSQL's own operator
-- functions on the same strings, in the same process (not a test: nothing is
-- asserted but that both count the same matches, which the benchmark
-- function itself checks, raising an ERROR otherwise).
--
--   make -C test/bench/cpu_engine install         (once: its test-only module)
--   psql -X -f test/bench/cpu_engine.sql          (as a superuser, in a database with gpulike)
--   psql -X -v rows=1000000 -f test/bench/cpu_engine.sql
--
-- MB/s is column bytes over the best of three matching passes; ratio is
-- PostgreSQL's time over gpulike's (> 1: gpulike is faster).
\if :{?rows}
\else
\set rows 200000
\endif
\set QUIET on
SET client_min_messages = warning;
SELECT setseed(0.5) \gset

-- The benchmark function, from the test-only module gpulike_bench, for
-- this session.  It calls gpulike's compiler and CPU engine: load those
-- first.
LOAD 'gpulike';
CREATE FUNCTION pg_temp.cpu_engine_benchmark(tbl regclass, col name,
	pattern text, op text,
	OUT gpulike_mb_per_s float8, OUT postgres_mb_per_s float8, OUT ratio float8)
AS '$libdir/gpulike_bench', 'gl_bench_cpu_engine'
LANGUAGE C STRICT VOLATILE;

-- Comment-like text in the style of TPC-H's o_comment: 4-12 words from a
-- small vocabulary, a few rows with "Customer ... Complaints" planted.
DROP TABLE IF EXISTS cpu_bench;
CREATE TABLE cpu_bench (id int, comment text);
INSERT INTO cpu_bench
SELECT g,
	   (SELECT string_agg(word, ' ')
		FROM (SELECT w[1 + floor(random() * array_length(w, 1))::int] AS word
			  FROM generate_series(1, 4 + (g + floor(random() * 9)::int) % 9)) picked)
	   || CASE WHEN g % 997 = 0 THEN ' Customer slyly Complaints' ELSE '' END
FROM generate_series(1, :rows) g,
	 (SELECT ARRAY['furiously', 'special', 'requests', 'carefully', 'final', 'deposits',
				   'pending', 'ironic', 'packages', 'blithely', 'regular', 'accounts',
				   'quickly', 'express', 'theodolites', 'slyly', 'bold', 'foxes',
				   'pinto', 'beans', 'unusual', 'asymptotes', 'dependencies', 'even',
				   'instructions', 'sleep', 'wake', 'haggle', 'nag', 'cajole', 'the',
				   'above', 'along', 'among', 'Tiresias', 'dugouts', 'platelets',
				   'courts', 'ideas', 'warhorses', 'éclairs', 'naïve'] AS w) words;
ANALYZE cpu_bench;

SELECT count(*) AS rows, pg_size_pretty(sum(octet_length(comment))) AS text_bytes,
	   round(avg(octet_length(comment)), 1) AS avg_bytes
FROM cpu_bench;

CREATE FUNCTION pg_temp.bench(label text, pat text, operator text)
RETURNS TABLE (class text, pattern text, op text, gpulike_mb_s numeric,
			   postgres_mb_s numeric, ratio numeric)
LANGUAGE plpgsql AS $$
DECLARE
	b record;
BEGIN
	SELECT * INTO b FROM pg_temp.cpu_engine_benchmark('cpu_bench', 'comment', pat, operator);
	RETURN QUERY SELECT label, pat, operator, round(b.gpulike_mb_per_s::numeric, 0),
		round(b.postgres_mb_per_s::numeric, 0), round(b.ratio::numeric, 2);
EXCEPTION WHEN OTHERS THEN
	RETURN QUERY SELECT label, pat, operator, NULL::numeric, NULL::numeric, NULL::numeric;
	RAISE WARNING '%: %', label, SQLERRM;
END
$$;

SELECT r.* FROM (VALUES
	('literal, 2 segments', '%special%requests%', '~~'),
	('literal, rare', '%Customer%Complaints%', '~~'),
	('literal, frequent', '%the%', '~~'),
	('prefix', 'furiously%', '~~'),
	('suffix', '%foxes', '~~'),
	('multi-literal (LIKE ANY, 4)', '{%pinto beans%,%unusual%,%Tiresias%,%warhorses%}', '~~ any'),
	('multi-literal (LIKE ANY, 8)', '{%pinto beans%,%unusual%,%Tiresias%,%warhorses%,%dugouts%,%bold foxes%,%nag%,%éclairs%}', '~~ any'),
	('underscore', '%sp_cial%req_ests%', '~~'),
	('underscore, UTF-8', '%na_ve%', '~~'),
	('ILIKE', '%special%requests%', '~~*'),
	('ILIKE, rare', '%customer%complaints%', '~~*'),
	('ILIKE, phrase', '%SLEEP QUICKLY%', '~~*'),
	('ILIKE, rare phrase', '%DUGOUTS WAKE SLYLY%', '~~*'),
	('regex, literal', 'special.*requests', '~'),
	('regex, alternation', 'pinto|unusual|Tiresias', '~'),
	('regex, class', '[A-Z][a-z]+ [a-z]+ Complaints', '~'),
	('regex, case-insensitive', 'customer.*complaints', '~*')
) AS t(label, pattern, op), LATERAL pg_temp.bench(label, pattern, op) r;

DROP TABLE cpu_bench;
