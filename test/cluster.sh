# Sourced by test/run, test/demo and test/gpu/run: a throwaway PostgreSQL
# cluster with gpulike preloaded, on a private socket directory and port.
#
#   . test/cluster.sh
#   gl_cluster_start DATADIR PORT [extra postgresql.conf lines...]
#                                  (and the lines of $GL_EXTRA_CONF, if set)
#   gl_psql [psql args...]         (as the cluster's owner, to that cluster)
#   gl_cluster_stop DATADIR
#
# PostgreSQL refuses to run as root; as root the cluster is owned by the
# 'postgres' user (created by Debian's package) or $GL_PG_USER.

: "${PG_CONFIG:=pg_config}"
GL_PGBIN=$("$PG_CONFIG" --bindir)
if [ "$(id -u)" = 0 ]; then
	GL_PG_USER=${GL_PG_USER:-postgres}
	id "$GL_PG_USER" >/dev/null 2>&1 || useradd -m "$GL_PG_USER"
	gl_as() { runuser -u "$GL_PG_USER" -- env PATH="$GL_PGBIN:$PATH" ${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"} ${PERL5LIB:+PERL5LIB="$PERL5LIB"} PGHOST="${PGHOST:-}" PGPORT="${PGPORT:-}" PGDATABASE="${PGDATABASE:-postgres}" PGUSER="${PGUSER:-}" "$@"; }
else
	GL_PG_USER=$(id -un)
	gl_as() { env PATH="$GL_PGBIN:$PATH" "$@"; }
fi

gl_cluster_start() {
	local dir=$1 port=$2
	shift 2
	dir=$(realpath -m "$dir")
	export PGPORT=$port PGHOST=$dir/socket PGDATABASE=postgres
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		mkdir -p "$dir/data" "$dir/socket"
		[ "$(id -u)" = 0 ] && chown -R "$GL_PG_USER" "$dir"
		gl_as initdb -D "$dir/data" -E UTF8 --locale=C.UTF-8 -U "$GL_PG_USER" >"$dir/initdb.log" 2>&1 ||
			{ cat "$dir/initdb.log"; return 1; }
		{
			echo "port = $port"
			echo "listen_addresses = ''"
			echo "unix_socket_directories = '$dir/socket'"
			echo "shared_preload_libraries = 'gpulike'"
			echo "max_worker_processes = 32"
			echo "fsync = off"
			for l in "$@"; do echo "$l"; done
			[ -z "${GL_EXTRA_CONF:-}" ] || printf '%s\n' "$GL_EXTRA_CONF"
		} >>"$dir/data/postgresql.conf"
	fi
	export PGUSER=$GL_PG_USER
	gl_as pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
		{ tail -30 "$dir/server.log"; return 1; }
}

gl_cluster_stop() {
	local dir
	dir=$(realpath -m "$1")
	[ -f "$dir/data/postmaster.pid" ] && gl_as pg_ctl -D "$dir/data" -m fast -w stop >/dev/null
	return 0
}

gl_psql() { gl_as psql -X -v ON_ERROR_STOP=1 "$@"; }
