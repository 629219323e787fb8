--
-- Attacks of an unprivileged role on other roles' data and on the shared
-- server (issue 53), each written as the attack, run as that role:
--
--   row-level security, a security barrier view and a leaky function or
--   operator: the function sees only rows the policy lets through, with
--   count(*) answered in the scan too; EXPLAIN ANALYZE's counts and plain
--   EXPLAIN's costs are the same whatever the hidden rows hold;
--   the registry: gpulike.registration_added() on a table of one's own
--   takes no slot;
--   memory: inserts into one's own cached table count against one's quota
--   and cost one's own caches only, also past gpulike.host_memory;
--   locks: reload() beside CREATE INDEX CONCURRENTLY fails neither;
--   messages: a partitioned table past the column quota; rolled back DDL
--   leaves the cache loaded.
-- (pg_restore of a database with caches: test/restore/run.)
--
SET client_min_messages = warning;
SELECT plan(33);

\ir include/cache_wait.sql

CREATE ROLE regress_sec_eve;
CREATE ROLE regress_sec_bob;
CREATE SCHEMA regress_sec_eve AUTHORIZATION regress_sec_eve;

-- every pin a leaky function or operator is shown
CREATE TABLE sec_seen (v text);
GRANT INSERT ON sec_seen TO regress_sec_eve;

-- 150 000 rows: enough for the planner to count candidates on a sample
CREATE TABLE sec_notes (owner name, body text);
INSERT INTO sec_notes
SELECT CASE WHEN g = 777 THEN 'regress_sec_bob' ELSE 'regress_sec_eve' END,
	   CASE WHEN g = 777 THEN 'pin=4711' WHEN g = 1234 THEN 'pin=1234'
			WHEN g % 50 = 0 THEN 'pin=4800 (decoy ' || g || ')' ELSE 'note ' || g END
FROM generate_series(1, 150000) g;
UPDATE sec_notes SET owner = 'regress_sec_bob' WHERE body LIKE 'pin=48%';
ALTER TABLE sec_notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON sec_notes USING (owner = current_user);
GRANT SELECT ON sec_notes TO regress_sec_eve;
VACUUM ANALYZE sec_notes;
SELECT gpulike.cache('sec_notes', 'body');

-- the same data behind a security barrier view instead of a policy
CREATE TABLE sec_plain AS SELECT * FROM sec_notes;
CREATE VIEW sec_view WITH (security_barrier) AS
	SELECT * FROM sec_plain WHERE owner = 'regress_sec_eve';
GRANT SELECT ON sec_view TO regress_sec_eve;
VACUUM ANALYZE sec_plain;
SELECT gpulike.cache('sec_plain', 'body');
SELECT is(pg_temp.wait_state('sec_notes', 'body', 'ready') || pg_temp.wait_state('sec_plain', 'body', 'ready'),
		  'readyready', 'the attacked tables are cached');

SET ROLE regress_sec_eve;
CREATE FUNCTION regress_sec_eve.peek(text) RETURNS bool
LANGUAGE plpgsql COST 0.0000001 AS $$
BEGIN
	IF $1 LIKE 'pin%' THEN
		INSERT INTO public.sec_seen VALUES ($1);
	END IF;
	RETURN true;
END $$;
CREATE FUNCTION regress_sec_eve.peek2(text, text) RETURNS bool
LANGUAGE plpgsql COST 0.0000001 AS $$
BEGIN
	IF $1 LIKE 'pin%' THEN
		INSERT INTO public.sec_seen VALUES ($1);
	END IF;
	RETURN true;
END $$;
CREATE OPERATOR regress_sec_eve.<<~>> (FUNCTION = regress_sec_eve.peek2,
									   LEFTARG = text, RIGHTARG = text);

-- EXPLAIN [ANALYZE] of q, with what varies from run to run taken out
CREATE FUNCTION regress_sec_eve.explained(q text, with_analyze boolean) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	result text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN ' || CASE WHEN with_analyze THEN '(ANALYZE, TIMING OFF, SUMMARY OFF, COSTS OFF) '
										   ELSE '' END || q LOOP
		result := result || regexp_replace(line, 'GpuLike (Engine|Request|Answer|Kernel) Time: .*', '') || E'\n';
	END LOOP;
	RETURN result;
END $$;

SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET jit = off;
SELECT count(*) FROM sec_notes WHERE body LIKE 'pin%' AND regress_sec_eve.peek(body);
SELECT body FROM sec_notes WHERE body LIKE 'pin%' AND regress_sec_eve.peek(body);
SELECT count(*) FROM sec_notes WHERE body LIKE 'pin%' AND body OPERATOR(regress_sec_eve.<<~>>) 'x';
SELECT body FROM sec_notes WHERE body ~ '^pin' AND body OPERATOR(regress_sec_eve.<<~>>) 'x';
SELECT count(*) FROM sec_view WHERE body LIKE 'pin%' AND regress_sec_eve.peek(body);
SELECT body FROM sec_view WHERE body LIKE 'pin%' AND regress_sec_eve.peek(body);
RESET ROLE;
SELECT is((SELECT count(*) FROM sec_seen WHERE v <> 'pin=1234'), 0::bigint,
		  'a leaky function or operator of the user never sees a row the policy or the barrier hides');
SELECT is((SELECT count(*) FROM sec_seen WHERE v = 'pin=1234'), 6::bigint,
		  'it sees the user''s own pin, once per query');

-- Hidden rows: one of bob's matches 'pin=47%', 3 000 'pin=48%'.
SET ROLE regress_sec_eve;
SELECT is(replace(regress_sec_eve.explained($$SELECT count(*) FROM sec_notes WHERE body LIKE 'pin=47%'$$, true), '47', '48'),
		  regress_sec_eve.explained($$SELECT count(*) FROM sec_notes WHERE body LIKE 'pin=48%'$$, true),
		  'EXPLAIN ANALYZE of count(*) counts the same whatever the hidden rows hold');
SELECT is(replace(regress_sec_eve.explained($$SELECT body FROM sec_notes WHERE body LIKE 'pin=47%'$$, true), '47', '48'),
		  regress_sec_eve.explained($$SELECT body FROM sec_notes WHERE body LIKE 'pin=48%'$$, true),
		  'EXPLAIN ANALYZE of the rows too');
SET gpulike.enabled = off;
SELECT regress_sec_eve.explained($$SELECT count(*) FROM sec_notes WHERE body LIKE 'pin=47%'$$, true) AS analyzed,
	   regress_sec_eve.explained($$SELECT body FROM sec_notes WHERE body LIKE 'pin=48%'$$, false) AS costs,
	   regress_sec_eve.explained($$SELECT body FROM sec_view WHERE body LIKE 'pin=48%'$$, false) AS view_costs \gset
SET gpulike.enabled = on;
SELECT is(regress_sec_eve.explained($$SELECT count(*) FROM sec_notes WHERE body LIKE 'pin=47%'$$, true),
		  :'analyzed', 'eve''s EXPLAIN ANALYZE is PostgreSQL''s own');
-- (PostgreSQL's own estimate may use the statistics of hidden rows, through
-- the leakproof comparisons of a LIKE prefix; gpulike adds nothing to it)
SELECT is(regress_sec_eve.explained($$SELECT body FROM sec_notes WHERE body LIKE 'pin=48%'$$, false),
		  :'costs', 'so are the costs of plain EXPLAIN');
SELECT is(regress_sec_eve.explained($$SELECT body FROM sec_view WHERE body LIKE 'pin=48%'$$, false),
		  :'view_costs', 'and those of a query through a security barrier view');
SELECT is((SELECT count(*) FROM sec_notes WHERE body LIKE 'pin=4%'), 0::bigint,
		  'eve counts none of bob''s pins');
SELECT is((SELECT count(*) FROM sec_notes WHERE body LIKE 'note%'),
		  (SELECT count(*) FROM sec_notes WHERE body || '' LIKE 'note%'),
		  'and all of her own notes');
RESET ROLE;

-- The policy's own pattern may still be answered by the server: what it
-- lets through, eve may see.
CREATE TABLE sec_public (body text);
INSERT INTO sec_public SELECT CASE WHEN g % 3 = 0 THEN 'secret ' ELSE 'public ' END || g
FROM generate_series(1, 3000) g;
ALTER TABLE sec_public ENABLE ROW LEVEL SECURITY;
CREATE POLICY published ON sec_public USING (body LIKE 'public%');
GRANT SELECT ON sec_public TO regress_sec_eve;
VACUUM ANALYZE sec_public;
SELECT gpulike.cache('sec_public', 'body');
SELECT is(pg_temp.wait_state('sec_public', 'body', 'ready'), 'ready', 'a table whose policy is a pattern');
SET ROLE regress_sec_eve;
SELECT matches(regress_sec_eve.explained($$SELECT count(*) FROM sec_public WHERE body LIKE '%7%' AND regress_sec_eve.peek(body)$$, false),
			   'GpuLike', 'its policy is offloaded');
SELECT is((SELECT count(*) FROM sec_public WHERE body LIKE '%7%' AND regress_sec_eve.peek(body)),
		  (SELECT count(*) FROM sec_public WHERE body || '' LIKE '%7%' AND body LIKE 'public%'),
		  'and answers what PostgreSQL answers');
RESET ROLE;
SELECT is((SELECT count(*) FROM sec_seen WHERE v LIKE 'secret%'), 0::bigint,
		  'with the user''s leaky function shown only rows the policy lets through');

-- The registry: slots are shared by all databases and roles; a trigger
-- of gpulike's on a table of eve's takes none.
SELECT count(*) AS slots_before FROM gpulike.cache_slots() \gset
SET ROLE regress_sec_eve;
CREATE TABLE regress_sec_eve.fake (relid oid, attname name);
CREATE TRIGGER fake_registration AFTER INSERT ON regress_sec_eve.fake
	FOR EACH ROW EXECUTE FUNCTION gpulike.registration_added();
SELECT throws_ok($$INSERT INTO regress_sec_eve.fake
				   SELECT 'sec_notes'::regclass, 'owner' FROM generate_series(1, 3)$$,
				 '39P01', NULL, 'gpulike.registration_added() on a table of one''s own fails');
RESET ROLE;
SELECT is((SELECT count(*) FROM gpulike.cache_slots()), :slots_before::bigint,
		  'and takes no registry slot');

-- Memory: a role's inserts into its own cached table count against its
-- quota and cost its own caches, never another role's.
CREATE ROLE regress_sec_mallory IN ROLE gpulike_cache;
CREATE TABLE sec_grow (c text);
INSERT INTO sec_grow VALUES ('one row');
ALTER TABLE sec_grow OWNER TO regress_sec_mallory;
CREATE TABLE sec_other_1 AS SELECT md5(g::text) AS c FROM generate_series(1, 20000) g;
CREATE TABLE sec_other_2 AS SELECT md5(g::text) AS c FROM generate_series(1, 20000) g;
SELECT gpulike.cache('sec_other_1', 'c');
SELECT gpulike.cache('sec_other_2', 'c');
ALTER SYSTEM SET gpulike.host_memory_per_owner = '8MB';
SELECT pg_reload_conf();
SELECT pg_sleep(1);
SET ROLE regress_sec_mallory;
SELECT lives_ok($$SELECT gpulike.cache('sec_grow', 'c')$$, 'a one-row table is cached within the quota');
INSERT INTO sec_grow SELECT repeat(md5(g::text), 100) FROM generate_series(1, 6000) g;
RESET ROLE;
SELECT is(pg_temp.wait_state('sec_grow', 'c', 'stale', 20), 'stale',
		  'inserts that take it past gpulike.host_memory_per_owner make it stale');
-- (the reloader's rebuild may be starting: the reason is read once it is over)
SELECT ok(pg_temp.wait_until($$SELECT stale_reason ~ '^gpulike.host_memory_per_owner (exceeded by changes|reached loading)$'
							   FROM gpulike.caches WHERE relation = 'sec_grow'::regclass$$, 20),
		  'and say why (as does the reloader''s rebuild that follows)');
SELECT is(pg_temp.wait_state('sec_other_1', 'c', 'ready', 1) || pg_temp.wait_state('sec_other_2', 'c', 'ready', 1),
		  'readyready', 'the caches of other roles stay ready');
SET ROLE regress_sec_mallory;
SET client_min_messages = error;
SELECT is(gpulike.reload(), 0, 'reload() by its owner does not bring it back past the quota');
SET client_min_messages = warning;
RESET ROLE;
SELECT pg_sleep(2);
SELECT isnt(state, 'ready', 'nor does the background reloader')
FROM gpulike.caches WHERE relation = 'sec_grow'::regclass;
ALTER SYSTEM RESET gpulike.host_memory_per_owner;

-- The same past gpulike.host_memory: the column that grew goes
CREATE TABLE sec_big (c text);
INSERT INTO sec_big VALUES ('one row');
SELECT gpulike.cache('sec_big', 'c');
SELECT format('ALTER SYSTEM SET gpulike.host_memory = %s', host_bytes / (1024 * 1024) + 10)
FROM gpulike.status() \gexec
SELECT pg_reload_conf();
SELECT pg_sleep(1);
INSERT INTO sec_big SELECT repeat(md5(g::text), 100) FROM generate_series(1, 6000) g;
SELECT is(pg_temp.wait_state('sec_big', 'c', 'stale', 20), 'stale',
		  'inserts that take all caches past gpulike.host_memory make the grown one stale');
SELECT is(pg_temp.wait_state('sec_other_1', 'c', 'ready', 1) || pg_temp.wait_state('sec_other_2', 'c', 'ready', 1),
		  'readyready', 'and no other');
ALTER SYSTEM RESET gpulike.host_memory;
SELECT pg_reload_conf();
SELECT gpulike.uncache('sec_grow', 'c');
SELECT gpulike.uncache('sec_big', 'c');
SELECT gpulike.uncache('sec_other_1', 'c');
SELECT gpulike.uncache('sec_other_2', 'c');
DROP TABLE sec_grow, sec_big, sec_other_1, sec_other_2;
DROP ROLE regress_sec_mallory;

-- A rebuild beside CREATE INDEX CONCURRENTLY: the index build waits for
-- this transaction's snapshot while it holds its ShareUpdateExclusiveLock,
-- which reload() needs.  reload() gives up on the column instead of
-- queueing for the lock (a deadlock, which PostgreSQL once resolved by
-- failing one side: the index build, or reload()).
CREATE EXTENSION IF NOT EXISTS dblink;
CREATE TABLE sec_cic AS SELECT g AS id, md5(g::text) AS c FROM generate_series(1, 20000) g;
SELECT gpulike.cache('sec_cic', 'c');
SELECT dblink_connect('regress_sec_cic',
					  format('dbname=%s host=%s port=%s', current_database(),
							 split_part(current_setting('unix_socket_directories'), ',', 1),
							 current_setting('port')));
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM sec_cic;
SELECT dblink_send_query('regress_sec_cic', 'CREATE INDEX CONCURRENTLY sec_cic_id ON sec_cic (id)');
SELECT pg_sleep(0.5);
SET LOCAL client_min_messages = error;
SELECT lives_ok($$SELECT gpulike.reload()$$,
				'reload() while CREATE INDEX CONCURRENTLY waits for its snapshot');
COMMIT;
SELECT is((SELECT r FROM dblink_get_result('regress_sec_cic') AS t(r text)), 'CREATE INDEX',
		  'and the index build succeeds');
SELECT ok((SELECT indisvalid FROM pg_index WHERE indexrelid = 'sec_cic_id'::regclass),
		  'with a valid index');
SELECT dblink_disconnect('regress_sec_cic');
SELECT gpulike.uncache('sec_cic', 'c');
DROP TABLE sec_cic;

-- Messages: a partitioned table past the column quota says what caching
-- it needs, and caches none of its partitions.
CREATE ROLE regress_sec_carol IN ROLE gpulike_cache;
CREATE TABLE sec_parts (id int, c text) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE sec_parts_%s PARTITION OF sec_parts FOR VALUES FROM (%s) TO (%s)',
			  g, g * 100, g * 100 + 100) FROM generate_series(1, 5) g \gexec
INSERT INTO sec_parts SELECT g, md5(g::text) FROM generate_series(100, 599) g;
SELECT format('ALTER TABLE %s OWNER TO regress_sec_carol', c)
FROM unnest(ARRAY['sec_parts', 'sec_parts_1', 'sec_parts_2', 'sec_parts_3', 'sec_parts_4', 'sec_parts_5']) c \gexec
ALTER SYSTEM SET gpulike.max_columns_per_owner = 3;
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
SET ROLE regress_sec_carol;
SELECT throws_matching($$SELECT gpulike.cache('sec_parts', 'c')$$,
					   'caching column "c" of "sec_parts" needs 5 more cached columns of tables of role "regress_sec_carol"',
					   'a partitioned table past the column quota says what caching it needs');
RESET ROLE;
SELECT is((SELECT count(*) FROM gpulike.cached_columns WHERE relid::text LIKE 'sec_parts%'), 0::bigint,
		  'and caches none of its partitions');
ALTER SYSTEM RESET gpulike.max_columns_per_owner;
SELECT pg_reload_conf();
DROP TABLE sec_parts;
DROP ROLE regress_sec_carol;

-- A rolled back DROP TABLE, DROP COLUMN, uncache() or DROP EXTENSION
-- leaves the loaded cache as it was: ready at once, not loaded again.
CREATE TABLE sec_keep (id int, c text, other text);
INSERT INTO sec_keep SELECT g, md5(g::text), 'x' FROM generate_series(1, 20000) g;
SELECT gpulike.cache('sec_keep', 'c');
SELECT loads AS keep_loads, relation::oid AS keep_relid FROM gpulike.stat_caches
WHERE relation = 'sec_keep'::regclass \gset
BEGIN;
DROP TABLE sec_keep;
ROLLBACK;
BEGIN;
ALTER TABLE sec_keep DROP COLUMN c;
ROLLBACK;
BEGIN;
SELECT gpulike.uncache('sec_keep', 'c');
ROLLBACK;
BEGIN;
SET LOCAL client_min_messages = error;
DROP EXTENSION gpulike CASCADE;
ROLLBACK;
SELECT pg_sleep(1.5);
SELECT is(state || ' ' || loads, 'ready ' || :keep_loads,
		  'a rolled back DROP TABLE, DROP COLUMN, uncache() or DROP EXTENSION leaves the cache loaded')
FROM gpulike.caches JOIN gpulike.stat_caches USING (relation, attname)
WHERE relation = 'sec_keep'::regclass;
SELECT ok(regress_sec_eve.explained($$SELECT count(*) FROM sec_keep WHERE c LIKE '%ab%'$$, false) LIKE '%GpuLike%',
		  'and queries use it');
BEGIN;
SELECT gpulike.uncache('sec_keep', 'c');
SELECT gpulike.cache('sec_keep', 'c');
COMMIT;
SELECT is(pg_temp.wait_state('sec_keep', 'c', 'ready', 10), 'ready', 'uncached and cached again in one transaction, it stays');
BEGIN;
DROP TABLE sec_keep;
COMMIT;
SELECT is((SELECT count(*) FROM gpulike.cache_slots() WHERE relid = :'keep_relid'::oid), 0::bigint,
		  'a committed DROP TABLE forgets it');

RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT gpulike.uncache('sec_notes', 'body');
SELECT gpulike.uncache('sec_plain', 'body');
SELECT gpulike.uncache('sec_public', 'body');
DROP SCHEMA regress_sec_eve CASCADE;
DROP VIEW sec_view;
DROP TABLE sec_notes, sec_plain, sec_public, sec_seen;
DROP ROLE regress_sec_eve;
DROP ROLE regress_sec_bob;
SELECT * FROM finish();
