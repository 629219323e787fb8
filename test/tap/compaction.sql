--
-- Caches stay bounded under updates: every row of a cached table updated
-- round after round, the cache is rebuilt from the table once its dead and
-- superseded rows pass gpulike.rebuild_garbage_fraction (0.5), so it never
-- holds more than a few times the live rows -- and answers exactly all along.
--
SET client_min_messages = warning;
SET statement_timeout = '120s';
SELECT plan(11);

CREATE TABLE churn (id int PRIMARY KEY, w text);
INSERT INTO churn SELECT i, md5(i::text) FROM generate_series(1, 20000) i;
SELECT gpulike.cache('churn', 'w');

\ir include/cache_wait.sql

CREATE TEMP TABLE seen (round int, state text, rows bigint);
DO $$
BEGIN
	FOR r IN 1 .. 6 LOOP
		UPDATE churn SET w = md5((id * r)::text) || ' r' || r;
		COMMIT;					-- a rebuild waits for the writers' locks
		INSERT INTO seen SELECT r, pg_temp.wait_state('churn', 'w', 'ready', 60),
							 pg_temp.versions('churn', 'w');
		COMMIT;
	END LOOP;
END $$;

SELECT is(state, 'ready', 'ready again after update round ' || round) FROM seen ORDER BY round;
SELECT cmp_ok(max(rows), '<=', 60000::bigint,
              'the cache never held more than 3 times the live rows (max ' || max(rows) || ')')
FROM seen;
SELECT cmp_ok(loads::int, '>=', 3, 'it was rebuilt as garbage grew (' || loads || ' loads)')
FROM gpulike.stat_caches WHERE relation = 'churn'::regclass;

SET enable_seqscan = off;
SELECT is((SELECT count(*) FROM churn WHERE w LIKE '% r6'), 20000::bigint,
          'every row''s latest value is found');
SELECT is((SELECT count(*) FROM churn WHERE w LIKE '% r5'), 0::bigint,
          'no older value is');
SELECT ok((SELECT count(*) FROM churn WHERE w LIKE '%a%') =
          (SELECT count(*) FROM churn WHERE w || '' LIKE '%a%'),
          'a LIKE over the churned cache: PostgreSQL''s count');

SELECT gpulike.uncache('churn', 'w');
DROP TABLE churn;
SELECT * FROM finish();
