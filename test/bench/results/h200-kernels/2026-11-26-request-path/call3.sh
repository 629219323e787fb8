#!/bin/bash
# call 3: kernel_test of HEAD; the latency benchmark (SF10 orders, o_comment cached) with
# gpulike.so of d43dcdc (A) and of HEAD (B), installed in turn, B A B A, one cluster
set -uo pipefail
. .carry/pg-env .carry/pg15.txz || exit 1
export GL_NO_APT=1 GL_DEVICE=gpu
. test/lib.sh; . test/cluster.sh
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/rb/kernel_test.new > $OUT/kernel_test-new.txt 2>&1; tail -1 $OUT/kernel_test-new.txt
grep "^not ok" $OUT/kernel_test-new.txt | head
.carry/rb/request_bench.new 15000000 200 | tee $OUT/request_bench.txt
inst() { tar -C "$PGROOT" -xzf .carry/stage-$1.tgz && echo "installed $1"; }
pages=$(((16384 + 1024) / 2)); echo $pages >/proc/sys/vm/nr_hugepages 2>/dev/null
[ "$(cat /proc/sys/vm/nr_hugepages)" -ge $pages ] && hp=on || hp=try
cluster=$(mktemp -d /tmp/gpulike-gpu.XXXXXX); chmod 755 $cluster
start() {
	gl_cluster_start "$cluster" 54400 "gpulike.device = 'gpu'" "shared_buffers = 16GB" "huge_pages = $hp" \
		"max_worker_processes = 64" "max_parallel_workers = 32" "work_mem = 256MB" \
		"maintenance_work_mem = 4GB" "max_wal_size = 32GB" "gpulike.host_memory = 64GB" || exit 1
	chmod -R a+rX "$cluster/socket"
}
wait_ready() {
	local i s
	for i in $(seq 240); do
		s=$(gl_psql -Atc "SELECT string_agg(DISTINCT state, ',') FROM gpulike.caches")
		[ "$s" = ready ] && break; sleep 0.5
	done; echo "caches $s after $i polls"
}
inst B; start
gl_psql -q -c "CREATE EXTENSION IF NOT EXISTS gpulike"
test/bench/sweep --scale 10 --out $OUT/sweep --repeats 1 --pg1-repeats 1 --pg1-timeout 6 \
	--no-pg1-whole --deadline 200 --classes= --configs gpulike --no-whole > $OUT/sweep.log 2>&1
tail -3 $OUT/sweep.log
for v in B A B A; do
	gl_cluster_stop "$cluster"; inst $v; start; wait_ready
	echo "== $v"; test/bench/latency 2>&1
done | tee $OUT/latency.txt
gl_cluster_stop "$cluster"
cp $cluster/server.log $OUT/ 2>/dev/null
