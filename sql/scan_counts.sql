--
-- Rows the GpuLike scan does not read: when nothing of a row is needed
-- (count(*), EXISTS) and the answer is exact, a candidate on a page the
-- visibility map calls all-visible is counted without reading the page --
-- if the cache knows its tuple is still there.  Deletes, VACUUM, reused
-- slots, aborted inserts and updates must never make such a count wrong:
-- every count here is compared with PostgreSQL's own, "Heap Fetches"
-- shows which candidates had to be read, and "GpuLike Unread Candidates"
-- those counted without reading (by the server, for a count: the scan
-- sends it the visibility map's all-visible bits).
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

CREATE TABLE vis (id int, c text) WITH (autovacuum_enabled = off, fillfactor = 100);
INSERT INTO vis
SELECT i, CASE WHEN i % 3 = 0 THEN 'needle ' || i ELSE 'hay ' || i END
FROM generate_series(1, 6000) i;
VACUUM (FREEZE, ANALYZE) vis;
SELECT scan_cache('vis', 'c');

-- count(*) over the GpuLike scan, with gpulike on and off: same count?
-- And how many candidates were read from the heap.
CREATE FUNCTION count_check(predicate text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	fetches text := '?';
	unread text := '?';
	recheck text := '?';
	used_gpulike bool := false;
	count_on bigint;
	count_off bigint;
	query text := 'SELECT count(*) FROM vis WHERE ' || predicate;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
		used_gpulike := used_gpulike OR line LIKE '%Custom Scan (GpuLike)%';
		IF line ~ 'Heap Fetches: ' THEN
			fetches := substring(line from 'Heap Fetches: (\d+)');
		END IF;
		IF line ~ 'Unread Candidates: ' THEN
			unread := substring(line from 'Unread Candidates: (\d+)');
		END IF;
		IF line ~ 'GpuLike Recheck: ' THEN
			recheck := substring(line from 'GpuLike Recheck: (.*)$');
		END IF;
	END LOOP;
	EXECUTE query INTO count_on;
	PERFORM set_config('gpulike.enabled', 'off', true);
	EXECUTE query INTO count_off;
	PERFORM set_config('gpulike.enabled', 'on', true);
	RETURN format('%s, count %s, %s, heap fetches %s, unread %s, recheck %s',
				  CASE WHEN used_gpulike THEN 'GpuLike' ELSE 'PostgreSQL plan' END,
				  count_on,
				  CASE WHEN count_on = count_off THEN 'same as PostgreSQL'
				  ELSE 'PostgreSQL counts ' || count_off END,
				  fetches, unread, recheck);
END $$;

CREATE FUNCTION all_visible(rel regclass) RETURNS bool
LANGUAGE sql AS $$
	SELECT relallvisible = relpages FROM pg_class WHERE oid = rel
$$;

-- A frozen, all-visible table: nothing is read.
SELECT all_visible('vis');
SELECT count_check($$c LIKE '%needle%'$$);
SELECT count_check($$c NOT LIKE '%needle%'$$);
EXPLAIN (COSTS OFF) SELECT count(*) FROM vis WHERE c LIKE '%needle%';

-- The same without the count in the scan: the scan returns a row per
-- candidate, still without reading them (nothing of the row is needed).
SET gpulike.enable_count = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*) FROM vis WHERE c LIKE '%needle%';
SELECT count(*) FROM vis v WHERE EXISTS (SELECT 1 FROM vis w WHERE w.id = v.id AND w.c LIKE '%needle%');
RESET gpulike.enable_count;

-- A column of the row is needed: every candidate is read.
SELECT count(id) AS needles, count(*) FROM vis WHERE c LIKE '%needle%';

-- gpulike.recheck = always: every candidate is read and rechecked.
SET gpulike.recheck = always;
SELECT count_check($$c LIKE '%needle%'$$);
RESET gpulike.recheck;

-- Deleted rows, not vacuumed: their pages are no longer all-visible, so
-- their candidates are read (and the deleted ones found invisible).
CREATE TABLE deleted_tids AS SELECT ctid AS tid FROM vis WHERE id % 6 = 0;
DELETE FROM vis WHERE id % 6 = 0;
SELECT count_check($$c LIKE '%needle%'$$);

-- VACUUM removes them and marks the pages all-visible again.  The cache
-- still holds the deleted rows, but it knows they were deleted: exactly
-- those 1000 candidates are read, and found gone.
VACUUM vis;
SELECT all_visible('vis');
SELECT count_check($$c LIKE '%needle%'$$);
SELECT count_check($$c NOT LIKE '%needle%'$$);

-- New rows reuse the freed slots (same TIDs as deleted rows): a needle
-- where a needle was, hay where a needle was.  The new versions supersede
-- the old ones in the cache; they are not known live (their writers could
-- have aborted), so they are read.
INSERT INTO vis
SELECT 10000 + i, CASE WHEN i % 2 = 0 THEN 'needle new ' || i ELSE 'hay new ' || i END
FROM generate_series(1, 1000) i;
SELECT count(*) > 0 AS slots_reused
FROM vis WHERE id > 10000 AND ctid IN (SELECT tid FROM deleted_tids);
VACUUM (FREEZE) vis;
SELECT all_visible('vis');
SELECT count_check($$c LIKE '%needle%'$$);
SELECT count_check($$c LIKE '%needle new%'$$);

-- Aborted inserts: logged by the trigger, never committed.  Their rows
-- are candidates, read and found invisible; once VACUUM removed them, read
-- and found gone -- or not read at all where VACUUM truncated the pages
-- they had added to the table.
BEGIN;
INSERT INTO vis SELECT 20000 + i, 'needle aborted ' || i FROM generate_series(1, 500) i;
ROLLBACK;
SELECT count_check($$c LIKE '%needle aborted%'$$);
VACUUM vis;
SELECT all_visible('vis');
SELECT count_check($$c LIKE '%needle aborted%'$$);
SELECT count_check($$c LIKE '%needle%'$$);

-- Updates, HOT and not: the old versions are ended, the new ones read.
UPDATE vis SET c = 'hay updated ' || id WHERE id % 9 = 0 AND id < 6000;
UPDATE vis SET id = -id WHERE id % 15 = 0 AND id < 6000;
SELECT count_check($$c LIKE '%needle%'$$);
SELECT count_check($$c LIKE '%hay updated%'$$);
VACUUM (FREEZE) vis;
SELECT all_visible('vis');
SELECT count_check($$c LIKE '%needle%'$$);
SELECT count_check($$c NOT LIKE '%needle%'$$);

-- A rebuilt cache knows every row it loaded from an all-visible page is
-- live: nothing is read again.
SELECT gpulike.reload();
SELECT scan_cache('vis', 'c');
SELECT count_check($$c LIKE '%needle%'$$);

DROP TABLE deleted_tids;
DROP TABLE vis;
DROP FUNCTION count_check(text);
DROP FUNCTION all_visible(regclass);
DROP FUNCTION scan_cache(regclass, name);
