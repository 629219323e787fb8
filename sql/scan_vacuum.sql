--
-- GpuLike custom scan after VACUUM truncated the end of the heap: the cache
-- still holds the dead rows that were there, and their TIDs point past the
-- end of the relation.  They must be skipped, not read.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

CREATE TABLE shrinking (id int, c text) WITH (autovacuum_enabled = off);
INSERT INTO shrinking
SELECT i, 'row ' || i || CASE WHEN i > 2000 THEN ' needle' ELSE '' END
FROM generate_series(1, 8000) i;
SELECT scan_cache('shrinking', 'c');
SELECT pg_relation_size('shrinking') AS size_before \gset
DELETE FROM shrinking WHERE id > 2000;
VACUUM (TRUNCATE true) shrinking;
-- the test means something only if the heap really got shorter
SELECT pg_relation_size('shrinking') < :size_before AS truncated;

EXPLAIN (COSTS OFF) SELECT count(*) FROM shrinking WHERE c LIKE '%needle%';
SELECT count(*) FROM shrinking WHERE c LIKE '%needle%';
INSERT INTO shrinking VALUES (9001, 'a new needle');
SELECT id, c FROM shrinking WHERE c LIKE '%needle%';

DROP TABLE shrinking;
DROP FUNCTION scan_cache(regclass, name);
