--
-- GpuLike custom scan under row-level security and column privileges:
-- exactly what PostgreSQL allows, nothing leaks.
--
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/scan_setup.sql

CREATE ROLE regress_gpulike_reader;
CREATE TABLE secrets (id int, owner text, note text, hidden text);
INSERT INTO secrets
SELECT i, CASE WHEN i % 2 = 0 THEN 'regress_gpulike_reader' ELSE 'someone_else' END,
	   'note ' || md5(i::text), 'hidden ' || md5(i::text)
FROM generate_series(1, 40) i;
ANALYZE secrets;
SELECT scan_cache('secrets', 'note');
SELECT scan_cache('secrets', 'hidden');

ALTER TABLE secrets ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON secrets USING (owner = current_user);
GRANT SELECT (id, owner, note) ON secrets TO regress_gpulike_reader;

-- A leaky function writes down every value it sees.
CREATE TABLE leaked (note text);
GRANT INSERT ON leaked TO regress_gpulike_reader;
CREATE FUNCTION leak(text) RETURNS bool
LANGUAGE plpgsql COST 0.0000001 AS $$
BEGIN
	INSERT INTO leaked VALUES ($1);
	RETURN true;
END $$;
GRANT EXECUTE ON FUNCTION leak(text) TO regress_gpulike_reader;

SET ROLE regress_gpulike_reader;
-- The policy's qual comes first in the Filter, and the user's quals stay
-- there after it: the leaky function sees only the rows the policy lets
-- through.  Nor does the server match the user's pattern over rows the
-- policy hides: only a qual an index scan could use ahead of the policy
-- is offloaded (test/tap/security.sql has the attacks).
EXPLAIN (COSTS OFF) SELECT id FROM secrets WHERE note LIKE '%a%' AND leak(note);
SELECT id FROM secrets WHERE note LIKE '%a%' AND leak(note) ORDER BY id;
SET gpulike.enabled = off;
SELECT id FROM secrets WHERE note LIKE '%a%' AND leak(note) ORDER BY id;
SET gpulike.enabled = on;
RESET ROLE;
SELECT count(*) > 0 AS leaked_own_rows,
	   count(*) FILTER (WHERE note IN (SELECT note FROM secrets
									  WHERE owner <> 'regress_gpulike_reader')) AS leaked_others
FROM leaked;
SET ROLE regress_gpulike_reader;
-- Rows of others stay invisible, even when the pattern matches them.
SELECT count(*) FROM secrets WHERE note LIKE 'note%';
SELECT count(*) FROM secrets WHERE note NOT LIKE '%a%';
-- Column privileges: no access to 'hidden', with or without gpulike.
SELECT id FROM secrets WHERE hidden LIKE '%a%';
SET gpulike.enabled = off;
SELECT id FROM secrets WHERE hidden LIKE '%a%';
SET gpulike.enabled = on;
RESET ROLE;

-- The owner bypasses the policy (as PostgreSQL does): every row.
SELECT count(*) FROM secrets WHERE note LIKE 'note%';

DROP TABLE secrets;
DROP FUNCTION leak(text);
DROP TABLE leaked;
DROP ROLE regress_gpulike_reader;
DROP FUNCTION scan_cache(regclass, name);
