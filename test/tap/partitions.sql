--
-- A cached partitioned table caches the partitions it gets later: created
-- (CREATE TABLE ... PARTITION OF, under a sub-partitioned partition too,
-- from a function as pg_partman does) or attached (a table with rows, a
-- partitioned table with its partitions), in the background once the DDL
-- has committed, or at once by reload().  A rolled back partition leaves
-- nothing behind; a detached one stays cached as a table of its own; a
-- dropped one is forgotten; an attached one cannot be uncached alone;
-- uncache() of the partitioned table stops it all; a partition whose
-- owner is past the quotas is not cached.
--
SET client_min_messages = warning;
SELECT plan(44);

\ir include/cache_wait.sql

CREATE TABLE part_t (id int, kind text, msg text) PARTITION BY RANGE (id);
-- rows for partition [lo, lo + 1000) of part_t
CREATE FUNCTION pg_temp.fill(lo int, kind text DEFAULT 'a') RETURNS void LANGUAGE sql AS $$
	INSERT INTO part_t SELECT g, kind, md5(g::text) FROM generate_series(lo, lo + 999) g $$;
CREATE FUNCTION pg_temp.registered(rel text) RETURNS boolean LANGUAGE sql AS $$
	SELECT EXISTS (SELECT FROM gpulike.cached_columns WHERE relid::text = rel) $$;
CREATE FUNCTION pg_temp.has_slot(rel text) RETURNS boolean LANGUAGE sql AS $$
	SELECT EXISTS (SELECT FROM gpulike.cache_slots() s JOIN pg_class c ON c.oid = s.relid
				   WHERE c.relname = rel) $$;
-- GpuLike scans in q's plan, with sequential scans disabled
CREATE FUNCTION pg_temp.gpulike_scans(q text) RETURNS bigint LANGUAGE plpgsql
SET enable_seqscan = off AS $$
DECLARE
	n bigint := 0;
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		n := n + (line LIKE '%Custom Scan (GpuLike)%')::int;
	END LOOP;
	RETURN n;
END $$;
-- q's result with gpulike and without it
CREATE FUNCTION pg_temp.same_as_postgres(q text) RETURNS boolean LANGUAGE plpgsql
SET enable_seqscan = off AS $$
DECLARE
	with_gpulike text;
	without text;
BEGIN
	EXECUTE q INTO with_gpulike;
	SET LOCAL gpulike.enabled = off;
	EXECUTE q INTO without;
	RETURN with_gpulike IS NOT DISTINCT FROM without;
END $$;

CREATE TABLE part_t1 PARTITION OF part_t FOR VALUES FROM (0) TO (1000);
SELECT pg_temp.fill(0);
SELECT lives_ok($$SELECT gpulike.cache('part_t', 'msg')$$, 'cache() of a partitioned table');
SELECT is(state, 'partitioned', 'caches lists the partitioned table as partitioned')
FROM gpulike.caches WHERE relation = 'part_t'::regclass;
SELECT is(state, 'ready', 'and its partition as ready') FROM gpulike.caches WHERE relation = 'part_t1'::regclass;

-- CREATE TABLE ... PARTITION OF: a stale slot at once, loaded after commit
BEGIN;
CREATE TABLE part_t2 PARTITION OF part_t FOR VALUES FROM (1000) TO (2000);
SELECT ok(pg_temp.has_slot('part_t2') AND NOT pg_temp.registered('part_t2'),
		  'CREATE TABLE ... PARTITION OF gives the new partition a slot, not yet a registration');
SELECT pg_temp.fill(1000);
SELECT pg_sleep(1.5);	-- the reloader runs meanwhile, and cannot see the partition yet
COMMIT;
SELECT is(pg_temp.wait_state('part_t2', 'msg', 'ready'), 'ready', 'the new partition is cached after commit');
SELECT is(pg_temp.versions('part_t2', 'msg'), 1000::bigint, 'with the rows written in the same transaction');
INSERT INTO part_t VALUES (1999, 'a', 'written later');
SELECT is(pg_temp.versions('part_t2', 'msg'), 1001::bigint, 'and it follows writes');

-- a sub-partitioned partition: its partitions are cached
CREATE TABLE part_t3 PARTITION OF part_t FOR VALUES FROM (2000) TO (3000) PARTITION BY LIST (kind);
CREATE TABLE part_t3a PARTITION OF part_t3 FOR VALUES IN ('a');
SELECT pg_temp.fill(2000);
SELECT is(pg_temp.wait_state('part_t3a', 'msg', 'ready'), 'ready', 'a partition of a new sub-partitioned partition is cached');
SELECT ok(NOT pg_temp.registered('part_t3'), 'the sub-partitioned partition itself is not registered');

-- ATTACH PARTITION of a table with rows
CREATE TABLE part_t4 (LIKE part_t);
INSERT INTO part_t4 SELECT g, 'a', md5(g::text) FROM generate_series(3000, 3999) g;
ALTER TABLE part_t ATTACH PARTITION part_t4 FOR VALUES FROM (3000) TO (4000);
SELECT is(pg_temp.wait_state('part_t4', 'msg', 'ready'), 'ready', 'an attached table is cached');
SELECT is(pg_temp.versions('part_t4', 'msg'), 1000::bigint, 'with its rows');

-- ATTACH PARTITION of a partitioned table with partitions
CREATE TABLE part_t5 (LIKE part_t) PARTITION BY LIST (kind);
CREATE TABLE part_t5a PARTITION OF part_t5 FOR VALUES IN ('a');
CREATE TABLE part_t5b PARTITION OF part_t5 FOR VALUES IN ('b');
INSERT INTO part_t5 SELECT g, CASE WHEN g % 2 = 0 THEN 'a' ELSE 'b' END, md5(g::text)
FROM generate_series(4000, 4999) g;
ALTER TABLE part_t ATTACH PARTITION part_t5 FOR VALUES FROM (4000) TO (5000);
SELECT ok(pg_temp.wait_state('part_t5a', 'msg', 'ready') = 'ready' AND
		  pg_temp.wait_state('part_t5b', 'msg', 'ready') = 'ready',
		  'the partitions of an attached partitioned table are cached');

-- as pg_partman makes them: CREATE TABLE and ATTACH in a function
CREATE FUNCTION pg_temp.make_partition(name text, lo int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('CREATE TABLE %I (LIKE part_t INCLUDING ALL)', name);
	EXECUTE format('ALTER TABLE part_t ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', name, lo, lo + 1000);
END $$;
SELECT pg_temp.make_partition('part_t6', 5000);
SELECT pg_temp.fill(5000);
SELECT is(pg_temp.wait_state('part_t6', 'msg', 'ready'), 'ready', 'a partition made and attached by a function is cached');

-- reload() registers and loads new partitions itself
CREATE TABLE part_t7 PARTITION OF part_t FOR VALUES FROM (6000) TO (7000);
SELECT pg_temp.fill(6000);
SELECT ok(gpulike.reload() >= 1, 'reload() loads');
SELECT is(state, 'ready', 'a new partition at once') FROM gpulike.caches WHERE relation = 'part_t7'::regclass;

-- every partition answers from its cache, with PostgreSQL's answers
SELECT is(pg_temp.gpulike_scans($$SELECT id FROM part_t WHERE msg LIKE '%ab%'$$), 8::bigint,
		  'a query over the partitioned table uses GpuLike on each of its 8 partitions');
SELECT ok(pg_temp.same_as_postgres($$SELECT count(*) || ' ' || sum(id) FROM part_t WHERE msg LIKE '%ab%'$$),
		  'a LIKE over the partitioned table gives PostgreSQL''s answer');
SELECT ok(pg_temp.same_as_postgres($$SELECT count(*) || ' ' || sum(id) FROM part_t WHERE msg ~ '^[0-9]+a' OR msg NOT LIKE '%e%'$$),
		  'a regex and NOT LIKE over the partitioned table give PostgreSQL''s answer');

-- a rolled back partition leaves neither registration nor slot
CREATE TEMP TABLE rolled_back (relid oid);
BEGIN;
CREATE TABLE part_t8 PARTITION OF part_t FOR VALUES FROM (7000) TO (8000);
INSERT INTO rolled_back SELECT 'part_t8'::regclass;
SELECT ok(pg_temp.has_slot('part_t8'), 'a partition created in a transaction gets a slot');
ROLLBACK;
SELECT ok(pg_temp.wait_until($$SELECT NOT EXISTS (SELECT FROM gpulike.cache_slots() s, rolled_back r
												  WHERE s.relid = r.relid)$$),
		  'after ROLLBACK the reloader forgets that slot');
SELECT ok(NOT pg_temp.registered('part_t8'), 'and nothing was registered');

-- a partition cannot be uncached on its own while attached
SELECT throws_ok($$SELECT gpulike.uncache('part_t1', 'msg')$$, '55000',
				 'column "msg" of relation "part_t1" is cached as part of partitioned table "part_t"',
				 'uncache() of an attached partition is refused');
SELECT throws_ok($$SELECT gpulike.uncache('part_t3', 'msg')$$, '55000',
				 'column "msg" of relation "part_t3" is cached as part of partitioned table "part_t"',
				 'so is uncache() of a sub-partitioned partition');

-- DETACH: the table stays cached, and may then be uncached
ALTER TABLE part_t DETACH PARTITION part_t4;
SELECT is(state, 'ready', 'a detached partition stays cached') FROM gpulike.caches WHERE relation = 'part_t4'::regclass;
SELECT ok(pg_temp.same_as_postgres($$SELECT count(*) || ' ' || sum(id) FROM part_t4 WHERE msg LIKE '%ab%'$$)
		  AND pg_temp.same_as_postgres($$SELECT count(*) || ' ' || sum(id) FROM part_t WHERE msg LIKE '%ab%'$$),
		  'queries on it and on the partitioned table give PostgreSQL''s answers');
SELECT lives_ok($$SELECT gpulike.uncache('part_t4', 'msg')$$, 'a detached partition can be uncached');
ALTER TABLE part_t ATTACH PARTITION part_t4 FOR VALUES FROM (3000) TO (4000);
SELECT is(pg_temp.wait_state('part_t4', 'msg', 'ready'), 'ready', 'attached again, it is cached again');

-- DROP of a partition forgets it
CREATE TEMP TABLE dropped AS SELECT 'part_t2'::regclass::oid AS relid;
DROP TABLE part_t2;
SELECT ok(NOT EXISTS (SELECT FROM gpulike.cached_columns c, dropped d WHERE c.relid = d.relid)
		  AND NOT EXISTS (SELECT FROM gpulike.cache_slots() s, dropped d WHERE s.relid = d.relid),
		  'a dropped partition loses its registration and slot');

-- the partitioned table's registration follows a renamed column
ALTER TABLE part_t RENAME COLUMN msg TO body;
SELECT is(array_agg(DISTINCT attname::text), ARRAY['body'],
		  'the registrations of the partitioned table and of its partitions follow a renamed column')
FROM gpulike.cached_columns WHERE relid::text LIKE 'part_t%';
ALTER TABLE part_t RENAME COLUMN body TO msg;

-- uncache() of the partitioned table: partitions made later stay uncached
SELECT lives_ok($$SELECT gpulike.uncache('part_t', 'msg')$$, 'uncache() of the partitioned table');
SELECT is((SELECT count(*) FROM gpulike.cached_columns WHERE relid::text LIKE 'part_t%'), 0::bigint,
		  'removes its registration and its partitions''');
CREATE TABLE part_t9 PARTITION OF part_t FOR VALUES FROM (8000) TO (9000);
SELECT ok(NOT pg_temp.has_slot('part_t9'), 'a partition made afterwards gets no slot');
SELECT gpulike.reload() AS reloaded \gset
SELECT ok(NOT pg_temp.registered('part_t9'), 'nor a registration from reload()');

-- cache() of an empty partitioned table, then DROP TABLE
CREATE TABLE part_e (id int, msg text) PARTITION BY LIST (id);
SELECT lives_ok($$SELECT gpulike.cache('part_e', 'msg')$$, 'cache() of a partitioned table without partitions');
CREATE TABLE part_e1 PARTITION OF part_e FOR VALUES IN (1);
SELECT is(pg_temp.wait_state('part_e1', 'msg', 'ready'), 'ready', 'its first partition is cached');
CREATE TEMP TABLE dropped_e AS SELECT 'part_e'::regclass::oid AS relid;
DROP TABLE part_e;
SELECT ok(NOT EXISTS (SELECT FROM gpulike.cached_columns c, dropped_e d WHERE c.relid = d.relid),
		  'DROP TABLE of a cached partitioned table drops its registration');
SELECT throws_ok($$SELECT gpulike.cache('part_t', 'id')$$, '42804', NULL,
				 'cache() of a partitioned table checks the column type');

-- the quotas of the partitions' owner hold for partitions added later
CREATE ROLE regress_part_owner;
GRANT gpulike_cache TO regress_part_owner;
CREATE SCHEMA part_q AUTHORIZATION regress_part_owner;
SET ROLE regress_part_owner;
CREATE TABLE part_q.part_q (id int, msg text) PARTITION BY LIST (id);
CREATE TABLE part_q.part_q1 PARTITION OF part_q.part_q FOR VALUES IN (1);
SELECT gpulike.cache('part_q.part_q', 'msg') AS cached \gset
RESET ROLE;
ALTER SYSTEM SET gpulike.max_columns_per_owner = 1;
SELECT pg_reload_conf() AS reloaded \gset
SELECT pg_sleep(0.5);	-- the postmaster has read it by the time this backend has
SELECT is(current_setting('gpulike.max_columns_per_owner'), '1',
		  'a role''s tables may have one cached column');
BEGIN;
SET LOCAL ROLE regress_part_owner;
CREATE TABLE part_q.part_q2 PARTITION OF part_q.part_q FOR VALUES IN (2);
RESET ROLE;
SELECT ok(pg_temp.has_slot('part_q2'), 'a new partition of its table gets a slot');
COMMIT;
SELECT ok(pg_temp.wait_until($$SELECT NOT pg_temp.has_slot('part_q2')$$)
		  AND NOT pg_temp.registered('part_q.part_q2'),
		  'a new partition past its owner''s quota is not cached');
ALTER SYSTEM RESET gpulike.max_columns_per_owner;
SELECT pg_reload_conf() AS reloaded \gset
SELECT pg_sleep(0.5);
SELECT ok(gpulike.reload() >= 1, 'reload() once the quota allows it');
SELECT is(state, 'ready', 'caches the partition') FROM gpulike.caches
WHERE relation = 'part_q.part_q2'::regclass;
SELECT gpulike.uncache('part_q.part_q', 'msg') AS uncached \gset
DROP SCHEMA part_q CASCADE;
DROP ROLE regress_part_owner;

-- plain inheritance is not partitioning
CREATE TABLE inh_parent (id int, msg text);
SELECT gpulike.cache('inh_parent', 'msg') AS cached \gset
CREATE TABLE inh_child () INHERITS (inh_parent);
SELECT ok(NOT pg_temp.has_slot('inh_child'), 'a table inheriting from a cached table gets no slot');
SELECT lives_ok($$SELECT gpulike.cache('inh_child', 'msg'), gpulike.uncache('inh_child', 'msg')$$,
				'and may be cached and uncached on its own');

DROP TABLE inh_parent CASCADE;
DROP TABLE part_t;
SELECT * FROM finish();
