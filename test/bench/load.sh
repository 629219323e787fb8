#!/bin/bash
# load.sh: generate and load the benchmark tables into the database that
# PGHOST/PGPORT/PGUSER/PGDATABASE point at.
#
#   test/bench/load.sh --scale SF [--jobs N] [--no-lineitem] [--tables "T ..."] [--gen PATH]
#
# Creates the tables (schema.sql, dropping old ones), streams tpch_gen's
# COPY text into them -- big tables in N chunks loaded in parallel, each
# chunk one `tpch_gen | psql \copy` pipeline -- then adds keys and runs
# VACUUM ANALYZE (keys.sql), and records what it loaded in bench_meta (the
# runner's --reuse trusts it).  --no-lineitem leaves lineitem empty (it is
# 70% of the data and only the whole Q9/Q14/Q20 queries read it); --tables
# fills only the tables named (the others are created empty).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scale=
jobs=$(nproc)
lineitem=yes
gen=
only=

while [ $# -gt 0 ]; do
	case $1 in
		--scale) scale=$2; shift 2 ;;
		--jobs) jobs=$2; shift 2 ;;
		--no-lineitem) lineitem=no; shift ;;
		--tables) only=$2; lineitem=no; shift 2 ;;
		--gen) gen=$2; shift 2 ;;
		*) echo "usage: $0 --scale SF [--jobs N] [--no-lineitem] [--tables \"T ...\"] [--gen PATH]" >&2; exit 2 ;;
	esac
done
[ -n "$scale" ] || { echo "load.sh: --scale is required" >&2; exit 2; }
if [ -z "$gen" ]; then
	make -s -f "$here/Makefile" O="$here/build" >&2
	gen=$here/build/tpch_gen
fi

psql_quiet() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

# A failed load must not leave an old bench_meta behind for --reuse.
psql_quiet -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS bench_meta"
psql_quiet -f "$here/schema.sql"

# One pipeline per chunk; at most $jobs at once; any failure fails the load.
running=0
failed=0
load_chunk() {
	local table=$1 chunks=$2 chunk=$3
	"$gen" -s "$scale" -t "$table" -n "$chunks" -i "$chunk" |
		psql_quiet -c "\\copy $table from pstdin"
}
wait_one() {
	if ! wait -n; then failed=1; fi
	running=$((running - 1))
}

tables="region nation supplier part partsupp customer orders bench_adv"
[ "$lineitem" = yes ] && tables="$tables lineitem"
[ -n "$only" ] && tables=$only
for table in $tables; do
	case $table in
		region|nation|supplier) chunks=1 ;;
		*) chunks=$jobs ;;
	esac
	for ((chunk = 0; chunk < chunks; chunk++)); do
		[ $running -ge "$jobs" ] && wait_one
		load_chunk "$table" "$chunks" "$chunk" &
		running=$((running + 1))
	done
done
while [ $running -gt 0 ]; do wait_one; done
[ $failed = 0 ] || { echo "load.sh: a load pipeline failed" >&2; exit 1; }

psql_quiet -f "$here/keys.sql"
psql_quiet -c "CREATE TABLE bench_meta AS SELECT $scale::float8 AS scale, $([ $lineitem = yes ] && echo true || echo false) AS lineitem"
psql -X -At -c "SELECT 'loaded scale $scale (estimated rows): ' || string_agg(relname || ' ' || n_live_tup, ', ' ORDER BY relname)
	FROM pg_stat_user_tables WHERE relname IN ('region','nation','supplier','part','partsupp','customer','orders','lineitem','bench_adv')"
