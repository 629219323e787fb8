"""The TPC-H queries that contain LIKE predicates, whole and isolated.

Six of the 22 TPC-H queries filter text with LIKE: Q2 (p_type LIKE
'%BRASS'), Q9 (p_name LIKE '%green%'), Q13 (o_comment NOT LIKE
'%special%requests%' inside a LEFT JOIN), Q14 (p_type LIKE 'PROMO%', inside
a CASE, so no scan can filter on it), Q16 (p_type NOT LIKE 'MEDIUM
POLISHED%' and s_comment LIKE '%Customer%Complaints%') and Q20 (p_name LIKE
'forest%').  They are given here with the specification's validation
parameters, once as whole queries (what a user runs) and once as the
isolated predicate (count of matching rows: what the matcher itself costs).
"""

from bench_query import Query

# Whole queries: (name, tables they read, SQL).  Every one ends in ORDER BY
# on a key that makes the output deterministic, so outputs can be compared
# byte for byte across configurations.
WHOLE_QUERIES = [
    ("Q2", ["part", "supplier", "partsupp", "nation", "region"], """
SELECT s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
FROM part, supplier, partsupp, nation, region
WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = 15
  AND p_type LIKE '%BRASS' AND s_nationkey = n_nationkey
  AND n_regionkey = r_regionkey AND r_name = 'EUROPE'
  AND ps_supplycost = (
    SELECT min(ps_supplycost) FROM partsupp, supplier, nation, region
    WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey
      AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey
      AND r_name = 'EUROPE')
ORDER BY s_acctbal DESC, n_name, s_name, p_partkey
LIMIT 100"""),
    ("Q9", ["part", "supplier", "lineitem", "partsupp", "orders", "nation"], """
SELECT nation, o_year, sum(amount) AS sum_profit
FROM (SELECT n_name AS nation, extract(year FROM o_orderdate) AS o_year,
             l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity AS amount
      FROM part, supplier, lineitem, partsupp, orders, nation
      WHERE s_suppkey = l_suppkey AND ps_suppkey = l_suppkey
        AND ps_partkey = l_partkey AND p_partkey = l_partkey
        AND o_orderkey = l_orderkey AND s_nationkey = n_nationkey
        AND p_name LIKE '%green%') AS profit
GROUP BY nation, o_year
ORDER BY nation, o_year DESC"""),
    ("Q13", ["customer", "orders"], """
SELECT c_count, count(*) AS custdist
FROM (SELECT c_custkey, count(o_orderkey)
      FROM customer LEFT OUTER JOIN orders
        ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%requests%'
      GROUP BY c_custkey) AS c_orders (c_custkey, c_count)
GROUP BY c_count
ORDER BY custdist DESC, c_count DESC"""),
    ("Q14", ["lineitem", "part"], """
SELECT 100.00 * sum(CASE WHEN p_type LIKE 'PROMO%'
                         THEN l_extendedprice * (1 - l_discount) ELSE 0 END)
       / sum(l_extendedprice * (1 - l_discount)) AS promo_revenue
FROM lineitem, part
WHERE l_partkey = p_partkey AND l_shipdate >= date '1995-09-01'
  AND l_shipdate < date '1995-09-01' + interval '1' month"""),
    ("Q16", ["partsupp", "part", "supplier"], """
SELECT p_brand, p_type, p_size, count(DISTINCT ps_suppkey) AS supplier_cnt
FROM partsupp, part
WHERE p_partkey = ps_partkey AND p_brand <> 'Brand#45'
  AND p_type NOT LIKE 'MEDIUM POLISHED%'
  AND p_size IN (49, 14, 23, 45, 19, 3, 36, 9)
  AND ps_suppkey NOT IN (SELECT s_suppkey FROM supplier
                         WHERE s_comment LIKE '%Customer%Complaints%')
GROUP BY p_brand, p_type, p_size
ORDER BY supplier_cnt DESC, p_brand, p_type, p_size"""),
    ("Q20", ["supplier", "nation", "partsupp", "part", "lineitem"], """
SELECT s_name, s_address
FROM supplier, nation
WHERE s_suppkey IN (
    SELECT ps_suppkey FROM partsupp
    WHERE ps_partkey IN (SELECT p_partkey FROM part WHERE p_name LIKE 'forest%')
      AND ps_availqty > (SELECT 0.5 * sum(l_quantity) FROM lineitem
                         WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey
                           AND l_shipdate >= date '1994-01-01'
                           AND l_shipdate < date '1994-01-01' + interval '1' year))
  AND s_nationkey = n_nationkey AND n_name = 'CANADA'
ORDER BY s_name"""),
]

# Isolated predicates: (name, table, key, predicate).
ISOLATED = [
    ("Q2-count", "part", "p_partkey", "p_type LIKE '%BRASS'"),
    ("Q9-count", "part", "p_partkey", "p_name LIKE '%green%'"),
    ("Q13-count", "orders", "o_orderkey", "o_comment NOT LIKE '%special%requests%'"),
    ("Q14-count", "part", "p_partkey", "p_type LIKE 'PROMO%'"),
    ("Q16-count-type", "part", "p_partkey", "p_type NOT LIKE 'MEDIUM POLISHED%'"),
    ("Q16-count-supp", "supplier", "s_suppkey", "s_comment LIKE '%Customer%Complaints%'"),
    ("Q20-count", "part", "p_partkey", "p_name LIKE 'forest%'"),
]


def tpch_queries():
    """The TPC-H LIKE queries: isolated counts first, then whole queries."""
    queries = [Query.count(name, "tpch", table, key, predicate, core=True)
               for name, table, key, predicate in ISOLATED]
    queries += [Query.whole(name, "tpch-whole", tables, sql.strip(), core=True)
                for name, tables, sql in WHOLE_QUERIES]
    return queries
