# Sourced by test/run, test/demo and test/gpu/run: installing what gpulike
# needs, and building + installing it for one PostgreSQL installation.

GL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GL_BUILD=${GL_BUILD:-$GL_ROOT/build}

# Debian packages a fresh Debian 12 machine needs.  Skipped with GL_NO_APT=1
# (a GPU host with its own PostgreSQL bundle has no package registry).
gl_install_deps() {
	local pkgs="make gcc g++ libc6-dev postgresql-15 postgresql-server-dev-15 postgresql-contrib
		postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl libicu-dev python3"
	local missing=() p sudo=
	[ "${GL_NO_APT:-0}" = 1 ] && return 0
	for p in $pkgs; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { echo "gpulike: need root or sudo to install: ${missing[*]}" >&2; return 1; }
		sudo=sudo
	fi
	echo "gpulike: installing ${missing[*]}"
	$sudo apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Build in $GL_BUILD/ext (a VPATH build: the source tree stays clean) and
# install into the PostgreSQL that $PG_CONFIG names.
gl_build_install() {
	local sudo=
	: "${PG_CONFIG:=$(command -v pg_config || echo /usr/lib/postgresql/15/bin/pg_config)}"
	export PG_CONFIG
	mkdir -p "$GL_BUILD/ext"
	make -s -C "$GL_BUILD/ext" -f "$GL_ROOT/Makefile" VPATH="$GL_ROOT" PG_CONFIG="$PG_CONFIG" ${NO_CUDA:+NO_CUDA=$NO_CUDA} -j"$(nproc)" >"$GL_BUILD/build.log" 2>&1 ||
		{ tail -40 "$GL_BUILD/build.log"; echo "gpulike: build failed (log: $GL_BUILD/build.log)"; return 1; }
	grep "^gpulike:" "$GL_BUILD/build.log"
	[ -w "$("$PG_CONFIG" --pkglibdir)" ] || sudo=sudo
	$sudo make -s -C "$GL_BUILD/ext" -f "$GL_ROOT/Makefile" VPATH="$GL_ROOT" PG_CONFIG="$PG_CONFIG" ${NO_CUDA:+NO_CUDA=$NO_CUDA} install >>"$GL_BUILD/build.log" 2>&1 ||
		{ tail -20 "$GL_BUILD/build.log"; echo "gpulike: install failed"; return 1; }
}
