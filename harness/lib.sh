# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by the other harness scripts; not run on its own.
#
# Variables (environment; the top-level Makefile exports them):
#   CACHE   where sources, builds, logs and the guest image live
#           (default: $HOME/.cache/linux-markers)
#   JOBS    parallel make jobs (default: number of CPUs)

: "${CACHE:=$HOME/.cache/linux-markers}"
: "${JOBS:=$(nproc)}"

# The repository root: the harness lives in $ROOT/harness.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$CACHE/src
LOGS=$CACHE/logs

mkdir -p "$CACHE" "$LOGS"

# Runs sharing a cache take turns: the first script of a run takes the lock
# and the scripts it starts inherit it (fd 9 and MARKERS_CACHE_LOCK).
if [ "${MARKERS_CACHE_LOCK:-}" != "$CACHE" ]; then
	exec 9>>"$CACHE/lock"
	if ! flock -n 9; then
		printf '>>> waiting for another harness run using %s\n' "$CACHE"
		flock 9
	fi
	export MARKERS_CACHE_LOCK=$CACHE
fi

say() { printf '>>> %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# run_logged LOG CMD...: run CMD with its output in LOG; on failure show
# the end of LOG and where to find all of it.
run_logged() {
	local log=$1
	shift
	if ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "'$*' failed; full log: $log"
	fi
}

# make_kernel BUILD_DIR ARGS...: make in the kernel tree with output to BUILD_DIR.
make_kernel() {
	local out=$1
	shift
	make -C "$SRC" O="$out" ARCH=x86_64 -j"$JOBS" "$@"
}

# our_files: the repository's kernel files (paths relative to $ROOT), i.e.
# every file under a top-level directory that the kernel tree also has
# (arch/, include/, kernel/, ...). Untracked files count too, so a new file
# is built before it is committed; ignored ones do not.
our_files() {
	local list
	if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		list=$(git -C "$ROOT" ls-files -co --exclude-standard)
	else
		list=$(cd "$ROOT" && find . -type f ! -path './.*' | sed 's|^\./||')
	fi
	printf '%s\n' "$list" | while IFS= read -r f; do
		case $f in */*) ;; *) continue ;; esac
		[ -f "$ROOT/$f" ] && [ -d "$SRC/${f%%/*}" ] && echo "$f"
	done | sort
}

# series: the patches of patches/series in order, one path per line
# (blank lines, comments and quilt options after the name are ignored).
series() {
	local s=$ROOT/patches/series
	[ -f "$s" ] || return 0
	sed -e 's/#.*//' "$s" | awk 'NF { print $1 }' | while IFS= read -r p; do
		[ -f "$ROOT/patches/$p" ] || die "patches/series names $p, which is missing"
		echo "$ROOT/patches/$p"
	done
}

# The harness calls make itself with its own -j; a make above us (the
# top-level Makefile) must not leak its flags or jobserver into the kernel's.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
