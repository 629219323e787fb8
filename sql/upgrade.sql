--
-- Extension versions: an installation of 1.0 brought up to date with
-- ALTER EXTENSION gpulike UPDATE has the same objects as a fresh one --
-- the same definitions, comments and privileges.  Runs last: it drops the
-- extension (and the sync triggers other tests left behind).
--
SET client_min_messages = warning;

CREATE FUNCTION pg_temp.extension_objects()
RETURNS TABLE (object text, definition text, comment text) LANGUAGE sql AS $$
	SELECT pg_describe_object(d.classid, d.objid, d.objsubid),
		   CASE d.classid
			   WHEN 'pg_proc'::regclass THEN
				   (SELECT pg_get_functiondef(p.oid) || ' acl ' || coalesce(p.proacl::text, '-')
					FROM pg_proc p WHERE p.oid = d.objid)
			   WHEN 'pg_class'::regclass THEN
				   (SELECT c.relkind::text || ' ' || coalesce(pg_get_viewdef(c.oid), '') ||
						   ' acl ' || coalesce(c.relacl::text, '-') || ' columns ' ||
						   (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod),
											  ', ' ORDER BY a.attnum)
							FROM pg_attribute a
							WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped)
					FROM pg_class c WHERE c.oid = d.objid)
		   END,
		   obj_description(d.objid, d.classid::regclass::name)
	FROM pg_depend d
	WHERE d.refclassid = 'pg_extension'::regclass
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'gpulike')
	  AND d.deptype = 'e' $$;

CREATE TEMP TABLE fresh AS SELECT * FROM pg_temp.extension_objects();
SELECT extversion AS fresh_version FROM pg_extension WHERE extname = 'gpulike';

DROP EXTENSION gpulike CASCADE;
CREATE EXTENSION gpulike VERSION '1.0';
SELECT extversion AS installed_version FROM pg_extension WHERE extname = 'gpulike';
ALTER EXTENSION gpulike UPDATE;
SELECT extversion AS updated_version FROM pg_extension WHERE extname = 'gpulike';
CREATE TEMP TABLE updated AS SELECT * FROM pg_temp.extension_objects();

-- Nothing only on one side.
SELECT 'fresh only' AS side, object FROM (SELECT * FROM fresh EXCEPT SELECT * FROM updated) f
UNION ALL
SELECT 'updated only', object FROM (SELECT * FROM updated EXCEPT SELECT * FROM fresh) u
ORDER BY 1, 2;
SELECT count(*) AS objects_compared,
	   count(*) FILTER (WHERE object LIKE 'function %') AS functions_compared,
	   bool_and(comment IS NOT NULL) FILTER (WHERE object ~ '^(function|view) ')
		   AS every_function_and_view_has_a_comment
FROM fresh;
SELECT object AS without_comment FROM fresh
WHERE object ~ '^(function|view) ' AND comment IS NULL ORDER BY 1;

-- What a user of the new version sees.
SELECT gpulike.explain_pattern('%special%requests%');
SELECT gpulike.cache(NULL, 'c');
SELECT has_function_privilege('public', 'gpulike.program_bytes(text, text)', 'execute')
	AS public_may_dump_programs;
