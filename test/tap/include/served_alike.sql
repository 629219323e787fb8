-- Differential helpers for TAP files that compare a query's rows with
-- gpulike on and off (include after cache_wait.sql, which defines
-- pg_temp.plan_uses_gpulike).

-- Rows of query with gpulike on and with it off, as a sorted text array.
CREATE FUNCTION pg_temp.rows_of(query text, enabled bool) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE result text[];
BEGIN
	PERFORM set_config('gpulike.enabled', enabled::text, true);
	EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', query) INTO result;
	PERFORM set_config('gpulike.enabled', 'on', true);
	RETURN coalesce(result, '{}');
END $$;

-- The same rows on and off, and a plan that uses the GpuLike scan.
CREATE FUNCTION pg_temp.served_alike(query text, what text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
BEGIN
	RETURN NEXT ok(pg_temp.plan_uses_gpulike(query), what || ': uses the GpuLike scan');
	RETURN NEXT is(pg_temp.rows_of(query, true), pg_temp.rows_of(query, false),
				   what || ': the rows PostgreSQL returns');
END $$;

-- The same rows on and off, whatever the plan.
CREATE FUNCTION pg_temp.alike(query text, what text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	RETURN is(pg_temp.rows_of(query, true), pg_temp.rows_of(query, false),
			  what || ': the rows PostgreSQL returns');
END $$;

-- The rows of a statement that cannot be a subquery (EXECUTE), sorted.
CREATE FUNCTION pg_temp.executed(statement text) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE r record; result text[] := '{}';
BEGIN
	FOR r IN EXECUTE statement LOOP
		result := result || r::text;
	END LOOP;
	RETURN (SELECT coalesce(array_agg(x ORDER BY x), '{}') FROM unnest(result) x);
END $$;

-- The lines of EXPLAIN (COSTS OFF) of query.
CREATE FUNCTION pg_temp.explain_lines(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || query;
END $$;
