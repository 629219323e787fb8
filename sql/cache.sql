-- gpulike.cache() / uncache() / reload() and the gpulike.caches view.
-- State changes caused by writes (stale, rebuilt) are in test/tap/cache_sync.sql.
SET gpulike.regression_mode = on;
SET client_min_messages = notice;

CREATE TABLE cache_t (id int PRIMARY KEY, c text, v varchar(20), b char(6),
                      n int, j jsonb);
INSERT INTO cache_t
SELECT g, 'text ' || g, 'var ' || g, 'ch' || (g % 7), g, '{}'
FROM generate_series(1, 500) g;
INSERT INTO cache_t VALUES (501, NULL, NULL, NULL, NULL, NULL);

-- text, varchar and char columns can be cached
SELECT gpulike.cache('cache_t', 'c');
SELECT gpulike.cache('cache_t', 'v');
SELECT gpulike.cache('cache_t', 'b');
SELECT relation, attname, state, rows, device, queries_served
FROM gpulike.caches WHERE relation = 'cache_t'::regclass ORDER BY 2;
SELECT * FROM gpulike.cached_columns WHERE relid = 'cache_t'::regclass ORDER BY 2;

-- the sync triggers, firing ALWAYS, created once per table
SELECT tgname, tgenabled, tgfoid::regproc, tgtype
FROM pg_trigger WHERE tgrelid = 'cache_t'::regclass ORDER BY 1;

-- caching a cached column again reloads it
SELECT gpulike.cache('cache_t', 'c');
SELECT count(*) FROM gpulike.caches WHERE relation = 'cache_t'::regclass;

-- errors: wrong type, missing column, system column, not a table
SELECT gpulike.cache('cache_t', 'n');
SELECT gpulike.cache('cache_t', 'j');
SELECT gpulike.cache('cache_t', 'nope');
SELECT gpulike.cache('cache_t', 'xmin');
SELECT gpulike.cache('cache_t_pkey', 'id');
CREATE VIEW cache_v AS SELECT * FROM cache_t;
SELECT gpulike.cache('cache_v', 'c');
CREATE TEMP TABLE cache_temp (c text);
SELECT gpulike.cache('cache_temp', 'c');
SELECT gpulike.cache('no_such_table', 'c');
SELECT gpulike.cache(NULL, 'c');
SELECT gpulike.uncache('cache_t', NULL);
SELECT gpulike.uncache('cache_t', 'n');

-- only the table's owner may cache or uncache
CREATE ROLE regress_gpulike_other;
CREATE ROLE regress_gpulike_owner;
CREATE SCHEMA cache_s AUTHORIZATION regress_gpulike_owner;
CREATE TABLE cache_s.owned (c text);
ALTER TABLE cache_s.owned OWNER TO regress_gpulike_owner;
INSERT INTO cache_s.owned VALUES ('a'), ('b');
SET ROLE regress_gpulike_other;
SELECT gpulike.cache('cache_t', 'c');
SELECT gpulike.uncache('cache_t', 'c');
SELECT gpulike.cache('cache_s.owned', 'c');
RESET ROLE;
-- ... and caching takes shared memory: only superusers and members of
-- gpulike_cache may, within the owner's quotas
SET ROLE regress_gpulike_owner;
SELECT gpulike.cache('cache_s.owned', 'c');
RESET ROLE;
SELECT rolcanlogin FROM pg_roles WHERE rolname = 'gpulike_cache';
GRANT gpulike_cache TO regress_gpulike_owner;
SET ROLE regress_gpulike_owner;
SELECT gpulike.cache('cache_s.owned', 'c');
SELECT relation, attname, state, rows FROM gpulike.caches
WHERE relation = 'cache_s.owned'::regclass;
-- reload() rebuilds only what the caller owns
SELECT gpulike.reload();
RESET ROLE;
-- quotas: columns and host memory of one owner's tables (superuser-set)
CREATE TABLE cache_s.wide (c text, d text);
ALTER TABLE cache_s.wide OWNER TO regress_gpulike_owner;
INSERT INTO cache_s.wide SELECT repeat(md5(g::text), 20), 'd' FROM generate_series(1, 3000) g;
SET gpulike.max_columns_per_owner = 1;
SET ROLE regress_gpulike_owner;
SET gpulike.max_columns_per_owner = 100;
SELECT gpulike.cache('cache_s.wide', 'd');
SELECT gpulike.cache('cache_s.owned', 'c');  -- cached again: still one column
RESET ROLE;
SELECT gpulike.cache('cache_s.wide', 'd');   -- a superuser is not held to it
SELECT gpulike.uncache('cache_s.wide', 'd');
RESET gpulike.max_columns_per_owner;
SET gpulike.host_memory_per_owner = 0;
SET ROLE regress_gpulike_owner;
SELECT gpulike.cache('cache_s.wide', 'c');
RESET ROLE;
SET gpulike.host_memory_per_owner = '1MB';
SET ROLE regress_gpulike_owner;
SELECT gpulike.cache('cache_s.wide', 'c');  -- 1.9 MB of values
SELECT relation, attname FROM gpulike.caches WHERE relation = 'cache_s.wide'::regclass;
RESET ROLE;
-- the sync triggers a worker made for the failed cache() are dropped again
DO $$
DECLARE
	deadline timestamptz := clock_timestamp() + interval '30 seconds';
BEGIN
	WHILE EXISTS (SELECT FROM pg_trigger WHERE tgrelid = 'cache_s.wide'::regclass)
		  AND clock_timestamp() < deadline LOOP
		PERFORM pg_sleep(0.05);
	END LOOP;
END $$;
SELECT count(*) AS triggers FROM pg_trigger WHERE tgrelid = 'cache_s.wide'::regclass;
SET ROLE regress_gpulike_owner;
SELECT gpulike.uncache('cache_s.owned', 'c');
RESET ROLE;
RESET gpulike.host_memory_per_owner;
REVOKE gpulike_cache FROM regress_gpulike_owner;

-- a partitioned table: every leaf partition is cached on its own
CREATE TABLE cache_p (id int, s text) PARTITION BY RANGE (id);
CREATE TABLE cache_p1 PARTITION OF cache_p FOR VALUES FROM (0) TO (100);
CREATE TABLE cache_p2 PARTITION OF cache_p FOR VALUES FROM (100) TO (300)
	PARTITION BY RANGE (id);
CREATE TABLE cache_p21 PARTITION OF cache_p2 FOR VALUES FROM (100) TO (300);
INSERT INTO cache_p SELECT g, 's' || g FROM generate_series(0, 299) g;
SELECT gpulike.cache('cache_p', 's');
SELECT relation, attname, state, rows FROM gpulike.caches
WHERE relation::text LIKE 'cache_p%' ORDER BY 1::text;
SELECT gpulike.uncache('cache_p', 's');
SELECT count(*) FROM gpulike.caches WHERE relation::text LIKE 'cache_p%';
SELECT count(*) FROM pg_trigger WHERE tgrelid IN ('cache_p1'::regclass, 'cache_p21'::regclass);
SELECT gpulike.uncache('cache_p', 's');

-- uncache: the registration goes; the triggers go with the last column
SELECT gpulike.uncache('cache_t', 'v');
SELECT gpulike.uncache('cache_t', 'b');
SELECT relation, attname, state FROM gpulike.caches
WHERE relation = 'cache_t'::regclass;
SELECT count(*) AS triggers FROM pg_trigger WHERE tgrelid = 'cache_t'::regclass;
SELECT gpulike.uncache('cache_t', 'c');
SELECT count(*) AS triggers FROM pg_trigger WHERE tgrelid = 'cache_t'::regclass;
SELECT count(*) FROM gpulike.caches WHERE relation = 'cache_t'::regclass;

-- an uncache that is rolled back leaves the column registered
SELECT gpulike.cache('cache_t', 'c');
BEGIN;
SELECT gpulike.uncache('cache_t', 'c');
SELECT count(*) FROM gpulike.caches WHERE relation = 'cache_t'::regclass;
ROLLBACK;
SELECT relation, attname FROM gpulike.caches WHERE relation = 'cache_t'::regclass;
SELECT gpulike.reload() >= 1 AS reloaded;
SELECT relation, attname, state, rows FROM gpulike.caches
WHERE relation = 'cache_t'::regclass;

-- a cache() that is rolled back leaves nothing behind
BEGIN;
SELECT gpulike.cache('cache_t', 'v');
ROLLBACK;
SELECT relation, attname FROM gpulike.caches WHERE relation = 'cache_t'::regclass;
SELECT count(*) AS triggers FROM pg_trigger WHERE tgrelid = 'cache_t'::regclass;

-- a table made and cached in one transaction: its triggers are that
-- transaction's own, and go with it when it rolls back
BEGIN;
CREATE TABLE cache_new (c text);
INSERT INTO cache_new VALUES ('made'), ('cached');
SELECT gpulike.cache('cache_new', 'c');
SELECT relation, attname, state, rows FROM gpulike.caches WHERE relation = 'cache_new'::regclass;
ROLLBACK;
SELECT count(*) FROM gpulike.cached_columns WHERE relid::text = 'cache_new';

-- the registration follows a renamed column
ALTER TABLE cache_t RENAME COLUMN c TO c_renamed;
ALTER TABLE cache_t RENAME COLUMN b TO c;
SELECT relation, attname, state FROM gpulike.caches WHERE relation = 'cache_t'::regclass;
ALTER TABLE cache_t RENAME COLUMN c TO b;
ALTER TABLE cache_t RENAME COLUMN c_renamed TO c;

-- dropping a cached column or table drops its registration
SELECT gpulike.cache('cache_t', 'v');
DROP VIEW cache_v;
ALTER TABLE cache_t DROP COLUMN v;
SELECT relation, attname FROM gpulike.caches WHERE relation = 'cache_t'::regclass;
DROP TABLE cache_t;
SELECT count(*) FROM gpulike.cached_columns WHERE relid::text LIKE 'cache_t%';
-- no slot is left behind for a table that no longer exists
SELECT count(*) FROM gpulike.cache_slots() s
WHERE NOT EXISTS (SELECT FROM pg_class WHERE oid = s.relid);

DROP TABLE cache_p;
DROP TABLE cache_s.owned;
DROP TABLE cache_s.wide;
DROP SCHEMA cache_s;
DROP ROLE regress_gpulike_other;
DROP ROLE regress_gpulike_owner;

-- a database in another encoding: refused at once, not cached for nothing
SET client_min_messages = warning;
DROP DATABASE IF EXISTS regress_gpulike_latin1;
CREATE DATABASE regress_gpulike_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
RESET client_min_messages;
\set home_db :DBNAME
\c regress_gpulike_latin1
SET client_min_messages = warning;
CREATE EXTENSION gpulike;
RESET client_min_messages;
CREATE TABLE latin1_t (c text);
SELECT gpulike.cache('latin1_t', 'c');
\c :home_db
DROP DATABASE regress_gpulike_latin1;
