/* gpulike--1.1--1.2.sql */

\echo Use "ALTER EXTENSION gpulike UPDATE TO '1.2'" to load this file. \quit

-- ==== who may cache: caches take memory and registry slots shared by
-- ==== every database and role, so cache() needs a superuser or a member
-- ==== of gpulike_cache.  A role belongs to the cluster, not to one
-- ==== database: the first database to install gpulike 1.2 makes it, and
-- ==== DROP EXTENSION leaves it.

DO $$
BEGIN
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'gpulike_cache') THEN
		CREATE ROLE gpulike_cache NOLOGIN;
		COMMENT ON ROLE gpulike_cache IS
			'Members may cache columns of tables they own with gpulike.cache()';
	END IF;
END $$;

COMMENT ON FUNCTION gpulike.cache(regclass, name) IS
	'Cache a text column (of every leaf partition of a partitioned table) and keep it in sync; requires table ownership, and a superuser or a member of gpulike_cache';
