-- Shared by the tests that wait for a cache (\ir include/cache_wait.sql):
-- its state, its rows once the server has applied every change, any
-- condition the background reloader should bring about, and whether a
-- query's plan uses the GpuLike scan.

-- Wait (bounded) until the cache of rel.col is in state want; returns the
-- last state seen.
CREATE FUNCTION pg_temp.wait_state(rel regclass, col name, want text,
								   seconds float8 DEFAULT 30)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	deadline timestamptz := clock_timestamp() + seconds * interval '1 second';
	seen text;
BEGIN
	LOOP
		SELECT state INTO seen FROM gpulike.caches
		WHERE relation = rel AND attname = col;
		IF seen IS NOT DISTINCT FROM want OR clock_timestamp() > deadline THEN
			RETURN seen;
		END IF;
		PERFORM pg_sleep(0.05);
	END LOOP;
END $$;

-- rows in the cache once the server has applied every pending change
-- (it does so about once a second): every tuple version
CREATE FUNCTION pg_temp.versions(rel regclass, col name, seconds float8 DEFAULT 30)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	deadline timestamptz := clock_timestamp() + seconds * interval '1 second';
	result bigint;
	pending bigint;
BEGIN
	LOOP
		SELECT rows, pending_deltas INTO result, pending FROM gpulike.caches
		WHERE relation = rel AND attname = col;
		IF pending = 0 OR clock_timestamp() > deadline THEN
			RETURN result;
		END IF;
		PERFORM pg_sleep(0.05);
	END LOOP;
END $$;

-- Wait (bounded) until the boolean query q is true; returns its last value.
CREATE FUNCTION pg_temp.wait_until(q text, seconds float8 DEFAULT 30)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	deadline timestamptz := clock_timestamp() + seconds * interval '1 second';
	result boolean;
BEGIN
	LOOP
		EXECUTE q INTO result;
		IF result OR clock_timestamp() > deadline THEN
			RETURN result;
		END IF;
		PERFORM pg_sleep(0.05);
	END LOOP;
END $$;

-- Does the plan of q (under the caller's settings) use the GpuLike scan?
CREATE FUNCTION pg_temp.plan_uses_gpulike(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line LIKE '%GpuLike%' THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $$;
