-- Shared by the differential tests (\ir include/random_setup.sql): seed the
-- random generator and define pg_temp.random_string().  The including file
-- first sets the psql variables test_name and default_seed; a run can pick
-- another seed with SET <test_name>.seed = '0.77' (or PGOPTIONS).
SELECT setseed(coalesce(nullif(current_setting(:'test_name' || '.seed', true), ''),
						:'default_seed')::float8);

-- A random string of n characters drawn from an alphabet.
CREATE FUNCTION pg_temp.random_string(alphabet text, n int) RETURNS text
LANGUAGE sql VOLATILE AS $$
	SELECT coalesce(string_agg(substr(alphabet, 1 + floor(random() * length(alphabet))::int, 1), ''), '')
	FROM generate_series(1, n)
$$;
