-- keys.sql: after the bulk load, the primary keys the TPC-H queries join
-- on, then VACUUM so hint bits and the visibility map are set before any
-- timing (otherwise the first timed scan pays for writing them).
-- Index builds at scale: more memory, parallel workers where the host has them.
SET maintenance_work_mem = '1GB';
SET max_parallel_maintenance_workers = 8;
ALTER TABLE region ADD PRIMARY KEY (r_regionkey);
ALTER TABLE nation ADD PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
ALTER TABLE part ADD PRIMARY KEY (p_partkey);
ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey);
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
ALTER TABLE orders ADD PRIMARY KEY (o_orderkey);
ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber);
ALTER TABLE bench_adv ADD PRIMARY KEY (id);
CREATE INDEX orders_custkey_idx ON orders (o_custkey);
-- Q20's correlated subquery probes lineitem by (part, supplier) per row.
CREATE INDEX lineitem_part_supp_idx ON lineitem (l_partkey, l_suppkey);
VACUUM (FREEZE, ANALYZE) region, nation, supplier, part, partsupp, customer,
	orders, lineitem, bench_adv;
