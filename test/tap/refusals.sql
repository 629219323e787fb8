--
-- What gpulike cannot or need not match costs little: a regex whose
-- automaton is too large is refused within twice the time PostgreSQL
-- itself takes for the query (issue 12: it once took 5 times as long),
-- when planning, so the plan is PostgreSQL's own; an empty LIKE ANY /
-- NOT LIKE ALL array answers as PostgreSQL does.
--
SET client_min_messages = warning;
SET statement_timeout = '120s';
SELECT plan(7);

\ir include/cache_wait.sql

CREATE TABLE refusals AS SELECT i, md5(i::text) AS s FROM generate_series(1, 100000) i;
SELECT gpulike.cache('refusals', 's');

CREATE FUNCTION pg_temp.run_ms(q text, with_gpulike boolean) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	PERFORM set_config('gpulike.enabled', with_gpulike::text, true);
	t0 := clock_timestamp();
	EXECUTE q;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;

-- gpulike first: it compiles the regex; PostgreSQL then finds it compiled
CREATE TEMP TABLE timing AS
SELECT pg_temp.run_ms($$SELECT count(*) FROM refusals WHERE s ~ repeat('(a|b)', 6000)$$, true) AS gpulike_ms;
ALTER TABLE timing ADD postgres_ms float8;
UPDATE timing SET postgres_ms =
	pg_temp.run_ms($$SELECT count(*) FROM refusals WHERE s ~ repeat('(a|b)', 6000)$$, false);
SELECT cmp_ok(gpulike_ms, '<=', 2 * postgres_ms,
              format('a regex beyond the automaton: %s ms with gpulike, %s ms without',
                     round(gpulike_ms), round(postgres_ms)))
FROM timing;
SELECT is((SELECT count(*) FROM refusals WHERE s ~ repeat('(a|b)', 6000) OR s LIKE '%ab%'),
          (SELECT count(*) FROM refusals WHERE s || '' ~ repeat('(a|b)', 6000) OR s || '' LIKE '%ab%'),
          'and its answer is PostgreSQL''s');

SET enable_seqscan = off;
SELECT ok(NOT pg_temp.plan_uses_gpulike($$SELECT count(*) FROM refusals WHERE s ~ repeat('(a|b)', 6000)$$),
          'the refused regex is planned as PostgreSQL would');
SELECT ok(pg_temp.plan_uses_gpulike($$SELECT count(*) FROM refusals WHERE s ~ 'ab(c|d)'$$),
          'a regex the automaton holds is offloaded');
SELECT ok(pg_temp.plan_uses_gpulike($$SELECT count(*) FROM refusals WHERE s LIKE ANY ('{}')$$),
          'LIKE ANY of an empty array is offloaded');
SELECT is((SELECT count(*) FROM refusals WHERE s LIKE ANY ('{}')), 0::bigint,
          'and matches nothing, as PostgreSQL''s does');
SELECT is((SELECT count(*) FROM refusals WHERE s NOT LIKE ALL ('{}')),
          (SELECT count(*) FROM refusals WHERE s || '' NOT LIKE ALL ('{}')),
          'NOT LIKE ALL of an empty array matches every row');
RESET enable_seqscan;

SELECT gpulike.uncache('refusals', 's');
DROP TABLE refusals;
SELECT * FROM finish();
