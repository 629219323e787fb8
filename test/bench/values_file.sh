#!/bin/bash
# The host copy's values in memory and in a file (gpulike.values_directory),
# on the 2-core CPU machine: the load of a 10 M-row column (about 500 MB of
# values), its memory and file figures, and two scans by the CPU engine,
# each way twice.  Run from the repository root after `make install`:
#   test/bench/values_file.sh
# (test/bench/results/cpu-values-file/ has what it printed there.)
set -euo pipefail
. test/cluster.sh
dir=/tmp/gl-values-bench
rm -rf $dir
gl_cluster_start $dir 54329 "gpulike.host_memory = '8GB'"
mkdir -p $dir/values && chown "$GL_PG_USER" $dir/values
gl_psql -q <<'SQL'
CREATE EXTENSION gpulike;
CREATE TABLE t AS SELECT i AS id, md5(i::text) || ' ' || (i % 977) || ' final words' AS s
	FROM generate_series(1, 10000000) i;
VACUUM ANALYZE t;
SQL
for round in 1 2; do
	for where in memory file; do
		if [ $where = file ]; then
			gl_psql -qc "ALTER SYSTEM SET gpulike.values_directory = '$dir/values'"
		else
			gl_psql -qc "ALTER SYSTEM RESET gpulike.values_directory"
		fi
		gl_psql -qc "SELECT pg_reload_conf()" >/dev/null
		sleep 1.5
		gl_psql -qAt <<SQL
\timing on
\o /dev/null
SELECT gpulike.cache('t', 's');
\o
SELECT '$where round $round: host_bytes ' || pg_size_pretty(host_bytes) || ', file_bytes ' || pg_size_pretty(file_bytes)
	FROM gpulike.caches WHERE relation = 't'::regclass;
SET max_parallel_workers_per_gather = 0;
SELECT count(*) FROM t WHERE s LIKE '%final%';
SELECT count(*) FROM t WHERE s ~ '[0-9]a[0-9]b';
SQL
	done
done
gl_cluster_stop $dir
