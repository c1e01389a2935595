# SPDX-License-Identifier: GPL-2.0
# Helpers for the markers shell selftests (sourced, not run): TAP output,
# module loading, tracefs state.
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

tap_count=0
tap_failed=0

tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

# run_test NAME FUNCTION: one TAP line, "ok" when FUNCTION returns 0 and
# called "fail MESSAGE" nowhere (it says what it expected with it).
run_test() {
	tap_count=$((tap_count + 1))
	test_failed=0
	if "$2" && [ "$test_failed" = 0 ]; then
		echo "ok $tap_count $1"
	else
		tap_failed=$((tap_failed + 1))
		echo "not ok $tap_count $1"
	fi
	reset_tracing
}

skip_test() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count $1 # SKIP $2"
}

tap_exit() {
	unload_all
	[ "$tap_failed" = 0 ] || exit 1
	exit 0
}

test_failed=0
fail() {
	echo "# FAIL: $*"
	test_failed=1
	return 1
}

# ksft skip (4) when the kernel cannot run these tests at all.
require() {
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root"
		exit 4
	fi
	[ -d "$TRACEFS/events" ] || mount -t tracefs nodev "$TRACEFS" 2>/dev/null
	[ -d "$DEBUGFS/tracing" ] || mount -t debugfs nodev "$DEBUGFS" 2>/dev/null
	if [ ! -f "$TRACEFS/markers" ]; then
		echo "1..0 # SKIP no $TRACEFS/markers (CONFIG_MARKERS_TRACE)"
		exit 4
	fi
}

load() {
	insmod "$MODULE_DIR/$1.ko" || fail "insmod $1"
}

unload() {
	rmmod "$1" 2>/dev/null || true
}

unload_all() {
	unload test_markers_hold
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
}
