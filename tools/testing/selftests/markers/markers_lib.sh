# SPDX-License-Identifier: GPL-2.0
# Helpers for the markers shell selftests (sourced, not run): running a
# test with kselftest's KTAP helpers, module loading, tracefs state.
#
# Environment:
#   MARKERS_MODULE_DIR  directory holding the .ko files; MARKERS_MODULES is
#                       read when it is unset; default /markers/modules

TRACEFS=/sys/kernel/tracing
DEBUGFS=/sys/kernel/debug
MODULE_DIR=${MARKERS_MODULE_DIR:-${MARKERS_MODULES:-/markers/modules}}
FIRE=$DEBUGFS/marker-example/fire
TEST_FIRE=$DEBUGFS/test_markers_trace/fire
HOLD=$DEBUGFS/test_markers_hold/control
EVENTS=$TRACEFS/events/markers
# trace-cmd record forks a recorder process per CPU and runs the command
# without waiting for them; when the command ends it sends each SIGUSR1,
# and one that takes it before it has opened its CPU's trace_pipe_raw and
# entered its read loop records nothing ("0 bytes in size", seen once
# under TCG). The commands given to trace-cmd first wait (10 s at most)
# until a trace_pipe_raw is open per CPU, and a second more.
RECORDERS="i=0; while [ \$(ls -l /proc/[0-9]*/fd | grep -c trace_pipe_raw) -lt $(nproc) ]"
RECORDERS="$RECORDERS && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done; sleep 1"

# KTAP output is the kernel's (kselftest/ktap_helpers.sh, installed beside
# this directory); these wrap it for the markers tests.
. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

# run_test NAME FUNCTION: one KTAP result, "ok" when FUNCTION returns 0 and
# called "fail MESSAGE" nowhere (it says what it expected with it); then
# the tracing state is reset for the next test.
test_failed=0
run_test() {
	test_failed=0
	if "$2" && [ "$test_failed" = 0 ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1"
	fi
	reset_tracing
}

# skip_test NAME REASON: NAME skipped, REASON printed before it.
skip_test() {
	ktap_print_msg "$2"
	ktap_test_skip "$1"
}

# markers_finished: unload the test modules, print the totals and exit
# with kselftest's status (failure unless every planned test passed or
# skipped).
markers_finished() {
	unload_all
	ktap_finished
}

fail() {
	ktap_print_msg "FAIL: $*"
	test_failed=1
	return 1
}

# require [PROGRAM...]: skip every test (kselftest's skip status) when the
# kernel cannot run them or a PROGRAM is not there; then start from no test
# module loaded and tracing reset.
require() {
	local p

	if [ "$(id -u)" != 0 ]; then
		ktap_skip_all "needs root"
		exit "$KSFT_SKIP"
	fi
	[ -d "$TRACEFS/events" ] || mount -t tracefs nodev "$TRACEFS" 2>/dev/null
	[ -d "$DEBUGFS/tracing" ] || mount -t debugfs nodev "$DEBUGFS" 2>/dev/null
	if [ ! -f "$TRACEFS/markers" ]; then
		ktap_skip_all "no $TRACEFS/markers (CONFIG_MARKERS_TRACE)"
		exit "$KSFT_SKIP"
	fi
	for p in "$@"; do
		if [ ! -x "$p" ]; then
			ktap_skip_all "no $p"
			exit "$KSFT_SKIP"
		fi
	done
	unload_all
	reset_tracing
}

load() {
	insmod "$MODULE_DIR/$1.ko" || fail "insmod $1"
}

unload() {
	rmmod "$1" 2>/dev/null || true
}

unload_all() {
	unload test_markers_hold
	unload test_markers_split
	unload test_markers_stub
	unload probe_example
	unload test_markers_trace
	unload test_markers_conflict
	unload test_markers_wide
	unload test_markers_name63
	unload test_markers_name70
	unload marker_example
}

# Every marker event off, filters and triggers gone, no pid filter, buffer
# empty.
reset_tracing() {
	local e
	echo 0 >"$TRACEFS/tracing_on"
	for e in "$EVENTS"/*/; do
		[ -d "$e" ] || continue
		echo 0 >"$e/enable"
		echo 0 >"$e/filter"
		grep -v '^#' "$e/trigger" | while read -r t; do
			# A hist trigger is removed only by its whole text
			case $t in
			hist:*) echo "!${t% \[*\]}" ;;
			*) t=${t%% *}; echo "!${t%%:*}" ;;
			esac >>"$e/trigger"
		done
	done
	: >"$TRACEFS/set_event"
	: >"$TRACEFS/set_event_pid"
	: >"$TRACEFS/trace"
	echo 1 >"$TRACEFS/tracing_on"
}

# The trace's lines of one event, without the task/cpu/time prefix.
events_of() {
	sed -n "s/^.*: \($1:.*\)\$/\1/p" "$TRACEFS/trace"
}

# expect_line TEXT FILE...: TEXT is a whole line of the files.
expect_line() {
	local want=$1
	shift
	grep -qxF -- "$want" "$@" || fail "no line '$want' in $*"
}

# expect_marker NAME FORMAT REST: the line of NAME in the markers listing.
expect_marker() {
	expect_line "$1 \"$2\" $3" "$TRACEFS/markers"
}

# wait_for SECONDS CMD...: CMD succeeds within SECONDS (rescans of the
# marker events run from a work item).
wait_for() {
	local tries=$(($1 * 5))
	shift
	while ! "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.2
	done
}

# marker_stat NAME: one counter of marker_stats.
marker_stat() {
	sed -n "s/^$1 //p" "$TRACEFS/marker_stats"
}

# rb_stat_sum LINE [DIR]: one line of per_cpu/cpuN/stats summed over the
# CPUs, of the instance DIR (default: the top level).
rb_stat_sum() {
	local f v sum=0
	for f in "${2:-$TRACEFS}"/per_cpu/cpu*/stats; do
		v=$(sed -n "s/^$1: //p" "$f")
		sum=$((sum + ${v:-0}))
	done
	echo $sum
}

# After a conflict of test_markers_conflict's example_int healed: the event
# has the module's format ("count %u value %llx"), the site is no longer a
# conflict, and the event records the site's values once enabled (held and
# enabled through test_markers_hold while the module loads again, whose
# init fires the site: count=1 value=2).
expect_new_format_event() {
	local fmt=$EVENTS/example_int/format
	wait_for 5 grep -q 'field:unsigned int count;' "$fmt" 2>/dev/null ||
		fail "no event with the new format: $(cat "$fmt" 2>&1)" || return 1
	expect_line '	field:unsigned long long value;	offset:16;	size:8;	signed:0;' "$fmt" &&
	expect_line 'print fmt: "count=%u value=%llx", REC->count, REC->value' "$fmt" &&
	expect_marker example_int 'count %u value %llx' \
		'stable sites=1 conflicts=0 modules=test_markers_conflict event' || return 1
	grep -q '^example_int .* test_markers_conflict disabled ' "$TRACEFS/marker_sites" ||
		fail "site: $(grep '^example_int ' "$TRACEFS/marker_sites")" || return 1
	load test_markers_hold || return 1
	echo 'hold example_int' >"$HOLD" && echo enable >"$HOLD" ||
		fail "cannot hold and enable example_int" || return 1
	grep -q '^example_int .* test_markers_conflict enabled ' "$TRACEFS/marker_sites" ||
		fail "enabling the event did not enable the site"
	: >"$TRACEFS/trace"
	rmmod test_markers_conflict || fail "rmmod test_markers_conflict"
	load test_markers_conflict
	[ "$(events_of example_int)" = 'example_int: count=1 value=2' ] ||
		fail "expected 'example_int: count=1 value=2', got '$(events_of example_int)'"
	echo release >"$HOLD"
	unload test_markers_hold
	unload test_markers_split
}
