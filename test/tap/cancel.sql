--
-- Requests whose backend gives up: statement_timeout and pg_cancel_backend
-- of requests out on the server, running and queued behind the request
-- threads (the server runs 8 at once), and backends terminated while
-- their request is out.  Each gets PostgreSQL's own error; the server
-- stops working for them (gpulike.debug_request_delay holds a request
-- until its backend leaves: were they not given up, ten of them would
-- keep every request thread busy for a minute and the next query would
-- time out); the server stays up and its answers stay exact.
--
SET client_min_messages = warning;
SET statement_timeout = '120s';
CREATE EXTENSION IF NOT EXISTS dblink;
SELECT plan(11);

CREATE TABLE cancel_docs AS
SELECT i AS id, md5(i::text) || ' ' || md5((i * 3)::text) AS body
FROM generate_series(1, 50000) i;
SELECT gpulike.cache('cancel_docs', 'body');
SELECT server_pid AS server_before FROM gpulike.status() \gset

-- the search every connection sends: served by the GpuLike scan
\set search 'SELECT count(*) FROM cancel_docs WHERE body LIKE ''%abc%'''
SELECT count(*) AS expected FROM cancel_docs WHERE body || '' LIKE '%abc%' \gset

CREATE FUNCTION pg_temp.connect(name text) RETURNS text LANGUAGE sql AS $$
	SELECT dblink_connect(name, format('dbname=%s host=%s port=%s', current_database(),
									   split_part(current_setting('unix_socket_directories'), ',', 1),
									   current_setting('port')))
$$;

-- n connections, each with its request held on the server for a minute
CREATE FUNCTION pg_temp.send_held(n int, prefix text, settings text DEFAULT '')
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..n LOOP
		PERFORM pg_temp.connect(prefix || i);
		PERFORM dblink_exec(prefix || i, 'SET enable_seqscan = off; SET max_parallel_workers_per_gather = 0;'
							|| ' SET gpulike.debug_request_delay = ''60s'';' || settings);
		PERFORM dblink_send_query(prefix || i,
								  'SELECT count(*) FROM cancel_docs WHERE body LIKE ''%abc%''');
	END LOOP;
END $$;

-- the SQLSTATE each of them ended with ('' if it succeeded)
CREATE FUNCTION pg_temp.outcomes(n int, prefix text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
	got text[] := '{}';
	state text;
BEGIN
	FOR i IN 1..n LOOP
		BEGIN
			PERFORM * FROM dblink_get_result(prefix || i) AS t(n bigint);
			state := '';
		EXCEPTION
			WHEN query_canceled THEN	/* OTHERS leaves it out */
				state := SQLSTATE;
			WHEN OTHERS THEN
				state := SQLSTATE;
		END;
		got := got || state;
		PERFORM dblink_disconnect(prefix || i);
	END LOOP;
	RETURN got;
END $$;

-- is the server free to answer now (within 10 s), and right?
CREATE FUNCTION pg_temp.answers_now() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	SET LOCAL statement_timeout = '10s';
	SET LOCAL enable_seqscan = off;
	SELECT count(*) INTO n FROM cancel_docs WHERE body LIKE '%abc%';
	RETURN n;
END $$;

-- statement_timeout: ten at once, eight running and two queued
SELECT pg_temp.send_held(10, 'timeout', 'SET statement_timeout = ''300ms'';');
SELECT pg_sleep(1);
SELECT is(pg_temp.outcomes(10, 'timeout'), array_fill('57014'::text, ARRAY[10]),
		  'statement_timeout ends requests out on the server, running or queued, with its own error');
SELECT is(pg_temp.answers_now(), :'expected'::bigint,
		  'and the server gave them up: the next search is answered at once, exactly');

-- pg_cancel_backend
SELECT pg_temp.send_held(10, 'cancel');
SELECT pg_sleep(0.5);
SELECT ok(bool_and(pg_cancel_backend(pid)), 'ten backends with requests out are cancelled')
FROM pg_stat_activity
WHERE query LIKE 'SELECT count(*) FROM cancel_docs%' AND pid <> pg_backend_pid();
SELECT is(pg_temp.outcomes(10, 'cancel'), array_fill('57014'::text, ARRAY[10]),
		  'each gets the cancel''s error');
SELECT is(pg_temp.answers_now(), :'expected'::bigint,
		  'and the server is free again');

-- backends terminated while their requests are out
SELECT pg_temp.send_held(10, 'killed');
SELECT pg_sleep(0.5);
SELECT ok(bool_and(pg_terminate_backend(pid, 5000)), 'ten backends with requests out are terminated')
FROM pg_stat_activity
WHERE query LIKE 'SELECT count(*) FROM cancel_docs%' AND pid <> pg_backend_pid();
SELECT is(pg_temp.answers_now(), :'expected'::bigint,
		  'their requests leave no work behind');
DO $$
BEGIN
	FOR i IN 1..10 LOOP
		BEGIN
			PERFORM dblink_disconnect('killed' || i);
		EXCEPTION WHEN OTHERS THEN
			NULL;
		END;
	END LOOP;
END $$;

-- the server itself stayed up through all of it, and a plain request
-- on a fresh connection is served as before
SELECT is(server_pid, :server_before, 'the server was not restarted') FROM gpulike.status();
SELECT pg_temp.connect('after');
SELECT is((SELECT n FROM dblink('after', 'SET enable_seqscan = off; ' || :'search') AS t(n bigint)),
		  :'expected'::bigint, 'a new session is answered exactly');
SELECT dblink_disconnect('after');
SET enable_seqscan = off;
SELECT is((SELECT count(*) FROM cancel_docs WHERE body LIKE '%abc%'), :'expected'::bigint,
		  'and so is this one');
SELECT ok((SELECT queries_served FROM gpulike.caches
		   WHERE relation = 'cancel_docs'::regclass) > 0, 'by the cache');

SELECT gpulike.uncache('cancel_docs', 'body');
DROP TABLE cancel_docs;
SELECT * FROM finish();
