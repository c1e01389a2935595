#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot-time enabling of marker events other than trace_event=markers:<name>
# in the top-level instance (markers_test checks that one). harness/boot
# boots the check guest with INSTANCE_ARG and EVENT_ARG below. Marker
# events are made after the kernel applied both to the events it had: they
# must have been applied to the marker events too, each entry in the
# instance it was given for, a marker's name alone as well as
# markers:<name>, without a "Failed to enable" warning for an entry that
# enabled a marker event, and with one, once, for the entry that matched
# no event. Runs before the other shell tests reset tracing; ends with the
# instance removed and every marker event disabled.

set -u
. "$(dirname "$0")/markers_lib.sh"

INSTANCE=markers_boot
INSTANCE_ARG=trace_instance=$INSTANCE,markers:sched_process_exit,futex_requeue
EVENT_ARG=trace_event=futex_unlock_pi,markers:no_such_marker
INST=$TRACEFS/instances/$INSTANCE

# booted_with ARG: ARG is a word of the kernel command line.
booted_with() {
	tr ' ' '\n' </proc/cmdline | grep -qxF -- "$1"
}

# The kernel log, each line without its level and time stamp.
kernel_log() {
	dmesg | sed -e 's/^<[0-9]*>//' -e 's/^\[[^]]*\] *//'
}

# expect_enable DIR NAME WANT: the enable file of markers:NAME in the
# instance at DIR reads WANT.
expect_enable() {
	local got
	got=$(cat "$1/events/markers/$2/enable" 2>&1)
	[ "$got" = "$3" ] ||
		fail "$1/events/markers/$2/enable reads '$got', expected '$3'"
}

# expect_warnings COUNT ENTRY: the kernel log says COUNT times that the
# boot-time entry ENTRY enabled nothing; not checked when the log no
# longer holds the boot (its ring buffer wrapped).
expect_warnings() {
	local n
	if [ "$boot_log" = 0 ]; then
		ktap_print_msg "the kernel log no longer holds the boot:" \
			"warnings about $2 not checked"
		return 0
	fi
	n=$(kernel_log | grep -cxF -- "Failed to enable trace event: $2")
	[ "$n" = "$1" ] ||
		fail "the kernel log warns $n times that $2 enabled nothing, expected $1"
}

# A marker's name alone, at the top level: its event enabled there, and
# no warning, although no event of that name existed early.
test_name_alone() {
	expect_enable "$TRACEFS" futex_unlock_pi 1
	expect_warnings 0 futex_unlock_pi
}

# The entries of trace_instance=: enabled in the instance alone, where
# they record.
test_instance() {
	local pid

	[ -d "$INST" ] || fail "no instance $INSTANCE" || return 1
	expect_enable "$INST" sched_process_exit 1
	expect_enable "$INST" futex_requeue 1
	[ "$top_enable" = "0 0" ] ||
		fail "the top level's sched_process_exit and futex_requeue read" \
			"'$top_enable' at boot, expected '0 0'"
	expect_warnings 0 markers:sched_process_exit
	expect_warnings 0 futex_requeue
	: >"$INST/trace"
	sleep 0 &
	pid=$!
	wait $pid
	# The parent may be woken before its child's last marker fires
	wait_for 10 grep -q "sched_process_exit: pid=$pid tgid=$pid " "$INST/trace" ||
		fail "instance $INSTANCE recorded no exit of pid $pid:" \
			"$(grep sched_process_exit "$INST/trace" | tail -n 3)"
}

# markers:no_such_marker: told of once, after the marker events were made.
test_no_match() {
	expect_warnings 1 markers:no_such_marker
}

if [ "$(id -u)" != 0 ]; then
	ktap_skip_all "needs root"
	exit "$KSFT_SKIP"
fi
[ -d "$TRACEFS/events" ] || mount -t tracefs nodev "$TRACEFS" 2>/dev/null
if [ ! -f "$TRACEFS/markers" ]; then
	ktap_skip_all "no $TRACEFS/markers (CONFIG_MARKERS_TRACE)"
	exit "$KSFT_SKIP"
fi
if ! booted_with "$INSTANCE_ARG" || ! booted_with "$EVENT_ARG"; then
	ktap_skip_all "booted without $INSTANCE_ARG $EVENT_ARG"
	exit "$KSFT_SKIP"
fi

boot_log=1
kernel_log | grep -q 'Kernel command line:' || boot_log=0
# As the boot left them: run_test() resets the top level after each test
top_enable=$(cat "$EVENTS/sched_process_exit/enable" \
	"$EVENTS/futex_requeue/enable" 2>&1 | tr '\n' ' ')
top_enable=${top_enable% }

# Not require(): it resets tracing, which would undo what is checked here.
ktap_print_header
ktap_set_plan 3
# The first test checks the top level as the boot left it.
run_test "trace_event=<marker name> enables markers:<name>, no warning" \
	test_name_alone
run_test "trace_instance= enables marker events in its instance alone" \
	test_instance
if [ "$boot_log" = 1 ]; then
	run_test "a boot-time entry that matches no event is warned of once" \
		test_no_match
else
	skip_test "a boot-time entry that matches no event is warned of once" \
		"the kernel log no longer holds the boot"
fi
echo 0 >"$INST/events/markers/enable" 2>/dev/null
rmdir "$INST" 2>/dev/null || ktap_print_msg "cannot remove instance $INSTANCE"
markers_finished
