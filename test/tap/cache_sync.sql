--
-- Column caches follow writes: the delta log, and every event that makes a
-- cache stale (TRUNCATE, table rewrites, a disabled sync trigger) followed
-- by its background rebuild; DROP COLUMN / DROP TABLE forget the cache.
--
SET client_min_messages = warning;
SELECT plan(37);

\ir include/cache_wait.sql

CREATE TABLE sync_t (id int PRIMARY KEY, c text, other int, b char(4));
INSERT INTO sync_t SELECT g, 'value ' || g, g, 'x' FROM generate_series(1, 1000) g;

SELECT lives_ok($$SELECT gpulike.cache('sync_t', 'c')$$, 'cache() loads a column');
SELECT is(state, 'ready', 'the cache is ready') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
SELECT is(pg_temp.versions('sync_t', 'c'), 1000::bigint, 'the cache holds every row');

-- writes are logged: one row per new tuple version (deletes and the old
-- versions of updates are logged too, but add no rows)
INSERT INTO sync_t VALUES (1001, 'inserted', 0, 'x');
SELECT is(pg_temp.versions('sync_t', 'c'), 1001::bigint, 'an INSERT adds a version');
UPDATE sync_t SET c = 'updated' WHERE id <= 10;
SELECT is(pg_temp.versions('sync_t', 'c'), 1011::bigint, 'an UPDATE of the cached column adds versions');
UPDATE sync_t SET other = other + 1 WHERE id <= 5;
SELECT is(pg_temp.versions('sync_t', 'c'), 1016::bigint, 'an UPDATE of another column adds versions');
DELETE FROM sync_t WHERE id > 990;
SELECT is(pg_temp.versions('sync_t', 'c'), 1016::bigint, 'a DELETE adds nothing');
COPY sync_t FROM stdin;
2001	copied	1	y
\.
SELECT is(pg_temp.versions('sync_t', 'c'), 1017::bigint, 'COPY is logged too');
SELECT is(state, 'ready', 'writes keep the cache ready') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
-- a rolled back write is logged as well (an extra candidate, never a wrong row)
BEGIN;
INSERT INTO sync_t VALUES (3001, 'rolled back', 0, 'x');
ROLLBACK;
SELECT is(pg_temp.versions('sync_t', 'c'), 1018::bigint, 'a rolled back INSERT is an extra version');

-- TRUNCATE: stale at once, rebuilt in the background after commit
BEGIN;
TRUNCATE sync_t;
SELECT is(state || ': ' || stale_reason, 'stale: TRUNCATE', 'TRUNCATE makes the cache stale, and caches says why') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
COMMIT;
SELECT is(pg_temp.wait_state('sync_t', 'c', 'ready'), 'ready', 'the cache is rebuilt after TRUNCATE');
SELECT is(pg_temp.versions('sync_t', 'c'), 0::bigint, 'the rebuilt cache is empty');

INSERT INTO sync_t SELECT g, 'again ' || g, g, 'x' FROM generate_series(1, 200) g;
UPDATE sync_t SET c = c || '!' WHERE id <= 100;

-- VACUUM FULL: new relfilenode, new TIDs
VACUUM FULL sync_t;
SELECT is(state, 'stale', 'VACUUM FULL makes the cache stale') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
SELECT is(pg_temp.wait_state('sync_t', 'c', 'ready'), 'ready', 'the cache is rebuilt after VACUUM FULL');
SELECT is(pg_temp.versions('sync_t', 'c'), 200::bigint, 'the rebuilt cache has only the live rows');

-- CLUSTER and a rewriting ALTER TABLE
CREATE INDEX sync_t_other ON sync_t (other);
CLUSTER sync_t USING sync_t_other;
SELECT is(state, 'stale', 'CLUSTER makes the cache stale') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
SELECT is(pg_temp.wait_state('sync_t', 'c', 'ready'), 'ready', 'the cache is rebuilt after CLUSTER');
ALTER TABLE sync_t ALTER COLUMN other TYPE bigint;
SELECT is(state, 'stale', 'a rewriting ALTER TABLE makes the cache stale') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
SELECT is(pg_temp.wait_state('sync_t', 'c', 'ready'), 'ready', 'the cache is rebuilt after ALTER TABLE');

-- a disabled sync trigger: stale, and not rebuilt until it fires again
BEGIN;
ALTER TABLE sync_t DISABLE TRIGGER gpulike_sync;
SET LOCAL enable_seqscan = off;
SELECT ok(NOT pg_temp.plan_uses_gpulike($$SELECT count(*) FROM sync_t WHERE c LIKE '%a%'$$),
		  'the transaction that disabled the sync trigger does not use the cache');
COMMIT;
SELECT is(state || ': ' || stale_reason, 'stale: sync trigger altered', 'DISABLE TRIGGER makes the cache stale as it commits, and caches says why') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
INSERT INTO sync_t VALUES (5000, 'not logged', 0, 'x');
SELECT pg_sleep(1.5);
SELECT is(state, 'stale', 'no rebuild while the trigger is disabled') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
ALTER TABLE sync_t ENABLE TRIGGER gpulike_sync;	-- plain: fires in origin mode only
SELECT is(pg_temp.wait_state('sync_t', 'c', 'ready'), 'ready', 'the cache is rebuilt once the trigger is enabled');
SELECT is(tgenabled, 'A', 'the rebuild makes the re-enabled trigger fire ALWAYS')
FROM pg_trigger WHERE tgrelid = 'sync_t'::regclass AND tgname = 'gpulike_sync';
SELECT is(pg_temp.versions('sync_t', 'c'), 201::bigint, 'the rebuilt cache has the row written meanwhile');
-- reload() re-enables a disabled trigger itself
ALTER TABLE sync_t DISABLE TRIGGER ALL;
SELECT ok(gpulike.reload() >= 1, 'reload() rebuilds the cache');
SELECT is(tgenabled, 'A', 'reload() re-enabled the sync trigger')
FROM pg_trigger WHERE tgrelid = 'sync_t'::regclass AND tgname = 'gpulike_sync';
SELECT is(state, 'ready', 'the cache is ready after reload()') FROM gpulike.caches WHERE relation = 'sync_t'::regclass;

-- A query inside a writing statement sees the rows written so far, whose
-- sync trigger has not fired yet: it must not use the cache.
CREATE FUNCTION pg_temp.count_like(pattern text) RETURNS bigint
LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $$
DECLARE n bigint;
BEGIN
	SELECT count(*) INTO n FROM sync_t WHERE c LIKE pattern;
	RETURN n;
END $$;
SELECT results_eq(
	$$WITH ins AS (INSERT INTO sync_t SELECT 9000 + g, 'zzz' || g, 0, 'x'
				   FROM generate_series(1, 5) g
				   RETURNING id, pg_temp.count_like('zzz%') AS seen)
	  SELECT seen FROM ins ORDER BY id$$,
	ARRAY[1, 2, 3, 4, 5]::bigint[],
	'rows written earlier in the same statement are found');

-- queries through the cache are counted (when the planner chose it)
CREATE TEMP TABLE served_before AS
SELECT queries_served FROM gpulike.caches WHERE relation = 'sync_t'::regclass;
SET gpulike.enabled = on;
SET enable_seqscan = off;
SELECT is((SELECT count(*) FROM sync_t WHERE c LIKE '%again 1%'),
		  (SELECT count(*) FROM sync_t WHERE (c || '') LIKE '%again 1%'),
		  'a LIKE over the cached column gives PostgreSQL''s answer');
RESET enable_seqscan;
SELECT ok(c.queries_served >= b.queries_served, 'queries_served never goes back')
FROM gpulike.caches c, served_before b WHERE c.relation = 'sync_t'::regclass;

-- DROP COLUMN and DROP TABLE forget cache and registration
SELECT lives_ok($$SELECT gpulike.cache('sync_t', 'b')$$, 'a second column is cached');
ALTER TABLE sync_t DROP COLUMN b;
SELECT is((SELECT count(*) FROM gpulike.cached_columns WHERE relid = 'sync_t'::regclass),
		  1::bigint, 'DROP COLUMN drops its registration');
SELECT is((SELECT count(*) FROM gpulike.caches WHERE relation = 'sync_t'::regclass),
		  1::bigint, 'the other column stays cached');
CREATE TEMP TABLE dropped AS SELECT 'sync_t'::regclass::oid AS relid;
DROP TABLE sync_t;
SELECT is((SELECT count(*) FROM gpulike.cached_columns c, dropped d WHERE c.relid = d.relid),
		  0::bigint, 'DROP TABLE drops the registrations');
SELECT is((SELECT count(*) FROM gpulike.cache_slots() s, dropped d WHERE s.relid = d.relid),
		  0::bigint, 'DROP TABLE forgets the caches');

SELECT * FROM finish();
