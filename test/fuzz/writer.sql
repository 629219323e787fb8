-- pgbench script of the fuzzer's "writers" phase (fuzz.py): every kind of
-- write a cache must follow, on random rows of docs, notes and parts
-- (whose rows also move between partitions).
\set id random(1, :rows)
\set op random(1, 10)
\if :op = 1
UPDATE docs SET body = fz_text(200) WHERE id = :id;
\elif :op = 2
UPDATE docs SET n = coalesce(n, 0) + 1 WHERE id = :id;
\elif :op = 3
UPDATE docs SET title = fz_text(30), tag = 'Blue' WHERE id = :id;
\elif :op = 4
DELETE FROM docs WHERE id = :id;
\elif :op = 5
INSERT INTO docs (id, title, body, n, tag, code)
	VALUES (nextval('fz_ids'), fz_text(30), fz_text(200), :id % 100, 'red', 'w');
\elif :op = 6
BEGIN;
INSERT INTO docs (id, title, body) VALUES (nextval('fz_ids'), 'aborted', 'the quick brown fox');
ROLLBACK;
\elif :op = 7
UPDATE notes SET body = fz_text(60) WHERE id = :id / 3;
\elif :op = 8
INSERT INTO notes VALUES (nextval('fz_ids'), :id, fz_text(60), 'memo');
\elif :op = 9
UPDATE parts SET body = fz_text(200) WHERE id = :id;
\else
UPDATE parts SET id = id + 6000000 WHERE id = :id AND id < 1000;
\endif
