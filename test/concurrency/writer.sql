-- One writer transaction for pgbench: INSERT, UPDATE of the cached column,
-- UPDATE of another column (HOT: "other" has no index), DELETE, or an
-- INSERT that is rolled back.
\set id random(1, :max_id)
\set op random(1, 20)
\if :op <= 6
INSERT INTO conc (c, other) VALUES (gpulike_conc_value(), 0);
\elif :op <= 10
UPDATE conc SET c = gpulike_conc_value() WHERE id = :id;
\elif :op <= 16
UPDATE conc SET other = other + 1 WHERE id BETWEEN :id AND :id + 2;
\elif :op <= 19
DELETE FROM conc WHERE id = :id;
\else
BEGIN;
INSERT INTO conc (c, other) VALUES (gpulike_conc_value(), -1);
ROLLBACK;
\endif
