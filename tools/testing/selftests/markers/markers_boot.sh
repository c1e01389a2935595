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
# no event. With "bootconfig", the boot config markers_boot.bconf (which
# harness/build-initramfs appends to the initramfs) must have been applied
# to the marker events too: its instance made, its event filtered and
# enabled there. Runs before the other shell tests reset tracing; ends with
# the instances removed and every marker event disabled.

set -u
. "$(dirname "$0")/markers_lib.sh"

INSTANCE=markers_boot
INSTANCE_ARG=trace_instance=$INSTANCE,markers:sched_process_exit,futex_requeue
EVENT_ARG=trace_event=futex_unlock_pi,markers:no_such_marker
INST=$TRACEFS/instances/$INSTANCE
# markers_boot.bconf's instance, and its filter on sched_process_exit:
# exit status 42
BCONF_INSTANCE=markers_bconf
BCONF_INST=$TRACEFS/instances/$BCONF_INSTANCE
BCONF_FILTER="exit_code == 10752"

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

# The boot config's instance: markers:sched_process_exit filtered and
# enabled there as the boot config says, so that it records the exit of a
# child whose status is 42 and not that of one whose status is 0.
test_bootconfig() {
	local pid42 pid0 got

	grep -qF "ftrace.instance.$BCONF_INSTANCE.event.markers.sched_process_exit" \
		/proc/bootconfig ||
		fail "/proc/bootconfig holds no markers_boot.bconf:" \
			"$(head -n 5 /proc/bootconfig)" || return 1
	[ -d "$BCONF_INST" ] || fail "no instance $BCONF_INSTANCE" || return 1
	expect_enable "$BCONF_INST" sched_process_exit 1
	got=$(cat "$BCONF_INST/events/markers/sched_process_exit/filter")
	[ "$got" = "$BCONF_FILTER" ] ||
		fail "$BCONF_INSTANCE's sched_process_exit filter reads '$got'," \
			"expected '$BCONF_FILTER'"
	: >"$BCONF_INST/trace"
	: >"$INST/trace"
	sh -c 'exit 42' &
	pid42=$!
	wait $pid42
	sh -c 'exit 0' &
	pid0=$!
	wait $pid0
	# The instance of trace_instance= records both: wait for the later
	wait_for 10 grep -q "sched_process_exit: pid=$pid0 tgid=$pid0 " "$INST/trace" ||
		fail "instance $INSTANCE recorded no exit of pid $pid0" || return 1
	wait_for 10 grep -q "sched_process_exit: pid=$pid42 tgid=$pid42 .*exit_code=10752" \
		"$BCONF_INST/trace" ||
		fail "instance $BCONF_INSTANCE recorded no exit of pid $pid42:" \
			"$(grep sched_process_exit "$BCONF_INST/trace" | tail -n 3)"
	! grep -q "sched_process_exit: pid=$pid0 " "$BCONF_INST/trace" ||
		fail "instance $BCONF_INSTANCE recorded the exit of pid $pid0," \
			"which its filter leaves out"
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
ktap_set_plan 4
# The first test checks the top level as the boot left it.
run_test "trace_event=<marker name> enables markers:<name>, no warning" \
	test_name_alone
run_test "trace_instance= enables marker events in its instance alone" \
	test_instance
if ! booted_with bootconfig; then
	skip_test "a boot config enables marker events in its instance" \
		"booted without bootconfig"
elif [ ! -e /proc/bootconfig ]; then
	skip_test "a boot config enables marker events in its instance" \
		"no /proc/bootconfig (CONFIG_BOOT_CONFIG)"
else
	run_test "a boot config enables marker events in its instance" \
		test_bootconfig
fi
if [ "$boot_log" = 1 ]; then
	run_test "a boot-time entry that matches no event is warned of once" \
		test_no_match
else
	skip_test "a boot-time entry that matches no event is warned of once" \
		"the kernel log no longer holds the boot"
fi
echo 0 >"$INST/events/markers/enable" 2>/dev/null
rmdir "$INST" 2>/dev/null || ktap_print_msg "cannot remove instance $INSTANCE"
if [ -d "$BCONF_INST" ]; then
	echo 0 >"$BCONF_INST/events/markers/enable" 2>/dev/null
	rmdir "$BCONF_INST" 2>/dev/null ||
		ktap_print_msg "cannot remove instance $BCONF_INSTANCE"
fi
markers_finished
