# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by the other harness scripts; not run on its own.
#
# Variables (environment; the top-level Makefile exports them):
#   CACHE   where sources, builds, logs and the guest image live
#           (default: $HOME/.cache/linux-markers)
#   JOBS    parallel make jobs (default: number of CPUs)
#   CCACHE  1: compile through ccache, its cache in $CACHE/ccache; 0: do
#           not (default: 1)
#   KERNEL_ARCH  the architecture make_kernel builds for: x86_64, or arm64
#           cross-built with aarch64-linux-gnu- (default: x86_64)

: "${CACHE:=$HOME/.cache/linux-markers}"
: "${JOBS:=$(nproc)}"
: "${CCACHE:=1}"
: "${KERNEL_ARCH:=x86_64}"

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

# Debian's ccache puts gcc, cc... in /usr/lib/ccache: first in PATH, every
# compiler call goes through the cache, with the same command lines as
# without it. The builds of different configs share it, so each one after
# the first recompiles only the files whose preprocessed source differs.
if [ "$CCACHE" != 0 ] && [ -d /usr/lib/ccache ]; then
	case :$PATH: in
	*:/usr/lib/ccache:*) ;;
	*) PATH=/usr/lib/ccache:$PATH ;;
	esac
	export PATH CCACHE_DIR="$CACHE/ccache"
	unset CCACHE_DISABLE
else
	export CCACHE_DISABLE=1
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

# kbuild's ARCH and CROSS_COMPILE for KERNEL_ARCH, for make_kernel and
# the builds against a kernel (external modules, selftests).
kbuild_arch() {
	case $KERNEL_ARCH in
	x86_64) echo ARCH=x86_64 ;;
	arm64) echo ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- ;;
	*) die "KERNEL_ARCH=$KERNEL_ARCH: x86_64 or arm64" ;;
	esac
}

# make_kernel BUILD_DIR ARGS...: make in the kernel tree with output to
# BUILD_DIR, for KERNEL_ARCH.
make_kernel() {
	local out=$1
	shift
	# shellcheck disable=SC2046
	make -C "$SRC" O="$out" $(kbuild_arch) -j"$JOBS" "$@"
}

# suffix NAME: what names the files of build $CACHE/NAME beside the main
# build's: nothing for build, -X for build-X (guest-X-check.log,
# initramfs-X.cpio...).
suffix() {
	case $1 in
	build) ;;
	build-*) echo "-${1#build-}" ;;
	*) echo "-$1" ;;
	esac
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

# series: the patch files of patches/series in order, one path per line
# (the lines that start in the first column; the indented lines under
# each name the new files it adds, see harness/series).
series() {
	local s=$ROOT/patches/series
	[ -f "$s" ] || return 0
	sed -e 's/#.*//' "$s" | awk '/^[^ \t]/ { print $1 }' | while IFS= read -r p; do
		[ -f "$ROOT/patches/$p" ] || die "patches/series names $p, which is missing"
		echo "$ROOT/patches/$p"
	done
}

# The harness calls make itself with its own -j; a make above us (the
# top-level Makefile) must not leak its flags or jobserver into the kernel's.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
