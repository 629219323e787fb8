-- The sessions test/lifecycle/run starts beside its loads and rebuilds.
SET client_min_messages = warning;
CREATE EXTENSION gpulike;

CREATE TABLE run_control (stop boolean NOT NULL);
INSERT INTO run_control VALUES (false);
CREATE TABLE writer_results (run text, writer int, transactions int,
							 timeouts int, longest_ms float8);
CREATE TABLE reader_results (run text, rounds int, mismatches int);

-- A writer: one INSERT and one UPDATE of the cached column per
-- transaction, each under lock_timeout = 1s, until told to stop; a lock
-- timeout is counted, not raised.  run names the table: wide (i, w), whose
-- rows it updates at random, or soak (id, c), where it updates the row it
-- inserted before (the rounds of full updates leave those alone, so that
-- no row lock is waited for).
CREATE PROCEDURE writer(run text) LANGUAGE plpgsql AS $$
DECLARE
	me int := current_setting('lifecycle.writer')::int;
	deadline timestamptz := clock_timestamp() + interval '10 minutes';
	rows_now int := CASE run WHEN 'wide' THEN 1500000 ELSE 50000 END;
	key text := CASE run WHEN 'wide' THEN 'i' ELSE 'id' END;
	col text := CASE run WHEN 'wide' THEN 'w' ELSE 'c' END;
	transactions int := 0;
	timeouts int := 0;
	longest float8 := 0;
	t0 timestamptz;
BEGIN
	PERFORM set_config('lock_timeout', '1s', false);
	LOOP
		t0 := clock_timestamp();
		BEGIN
			EXECUTE format('INSERT INTO %I (%I, %I) VALUES ($1, $2)', run, key, col)
			USING -(me * 10000000 + transactions), 'new ' || me || ' ' || transactions;
			EXECUTE format('UPDATE %I SET %I = %I || $2 WHERE %I = $1', run, col, col, key)
			USING CASE run WHEN 'wide' THEN 1 + (random() * (rows_now - 1))::int
					  ELSE -(me * 10000000 + transactions - 1) END, ' u';
		EXCEPTION WHEN lock_not_available THEN
			timeouts := timeouts + 1;
		END;
		COMMIT;
		longest := greatest(longest, extract(epoch FROM clock_timestamp() - t0) * 1000);
		transactions := transactions + 1;
		EXIT WHEN (SELECT stop FROM run_control) OR clock_timestamp() > deadline;
	END LOOP;
	INSERT INTO writer_results VALUES (run, me, transactions, timeouts, longest);
	RAISE NOTICE 'writer % on %: % transactions, % lock timeouts, longest % ms',
		me, run, transactions, timeouts, round(longest::numeric, 1);
END $$;

-- The count of rows of rel whose col is LIKE pattern, through gpulike
-- (its plan forced, when the cache is usable) and by PostgreSQL alone, in
-- one statement: one snapshot.
CREATE FUNCTION both_counts(rel regclass, col name, pattern text,
							OUT through_gpulike bigint, OUT postgres bigint)
LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
	EXECUTE format('SELECT (SELECT count(*) FROM %s WHERE %I LIKE $1),
						   (SELECT count(*) FROM %s WHERE (%I || '''') LIKE $1)',
				   rel, col, rel, col)
	INTO through_gpulike, postgres USING pattern;
END $$;

-- A reader: compares both_counts round after round until told to stop.
CREATE PROCEDURE reader(run text) LANGUAGE plpgsql AS $$
DECLARE
	patterns text[] := CASE run WHEN 'wide' THEN ARRAY['new%', '%u', '%abc%', '%1234%']
							ELSE ARRAY['% r1_', '%a%b%', '% u', 'new%'] END;
	col name := CASE run WHEN 'wide' THEN 'w' ELSE 'c' END;
	deadline timestamptz := clock_timestamp() + interval '10 minutes';
	rounds int := 0;
	mismatches int := 0;
	answer record;
BEGIN
	LOOP
		SELECT * INTO answer
		FROM both_counts(run::regclass, col, patterns[1 + rounds % array_length(patterns, 1)]);
		IF answer.through_gpulike IS DISTINCT FROM answer.postgres THEN
			mismatches := mismatches + 1;
			RAISE WARNING 'reader on %: % rows through gpulike, % by PostgreSQL',
				run, answer.through_gpulike, answer.postgres;
		END IF;
		rounds := rounds + 1;
		COMMIT;
		EXIT WHEN (SELECT stop FROM run_control) OR clock_timestamp() > deadline;
	END LOOP;
	INSERT INTO reader_results VALUES (run, rounds, mismatches);
END $$;

-- Does every pattern give PostgreSQL's count through the cache, with the
-- GpuLike scan in the plan?
CREATE FUNCTION same_answers(rel regclass, col name, patterns text[])
RETURNS boolean LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
	pattern text;
	line text;
	plan text;
	answer record;
BEGIN
	FOREACH pattern IN ARRAY patterns LOOP
		plan := '';
		FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT count(*) FROM %s WHERE %I LIKE %L',
								   rel, col, pattern) LOOP
			plan := plan || line || ' ';
		END LOOP;
		SELECT * INTO answer FROM both_counts(rel, col, pattern);
		IF plan NOT LIKE '%GpuLike%' OR answer.through_gpulike <> answer.postgres THEN
			RAISE WARNING '%: plan %, % rows through gpulike, % by PostgreSQL',
				pattern, plan, answer.through_gpulike, answer.postgres;
			RETURN false;
		END IF;
	END LOOP;
	RETURN true;
END $$;
