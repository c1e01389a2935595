#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What ftrace does with a trace event it does with a marker event: a
# histogram trigger keyed on a marker field, an event probe on a marker
# event, a synthetic wakeup-latency event built from the sched_wakeup and
# sched_switch markers, set_event_pid (sched_switch and sched_wakeup
# under the stock rule of their tracepoints' events), string filters with
# globs, and the snapshot and stacktrace triggers. The workload is
# markers_work, whose hits are known (futex waits with given values,
# sleeps).

set -u
. "$(dirname "$0")/markers_lib.sh"

WORK=$(cd "$(dirname "$0")" && pwd)/markers_work
OUT=/tmp/markers-ftrace

# The lines of FILE, blanks squeezed.
squeeze() {
	tr -s ' \t' '  ' <"$1"
}

# Remove the triggers of EVENT (a marker event name), last added first.
# A hist trigger is removed only by its whole text, filter included.
remove_triggers() {
	local t
	grep -v '^#' "$EVENTS/$1/trigger" | sed '1!G;h;$!d' | while read -r t; do
		echo "!${t% \[*\]}" >>"$EVENTS/$1/trigger"
	done
}

# Keys val and op of futex_wait, two workloads: exact hit counts.
test_hist_futex() {
	local hist=$OUT/hist
	echo 'hist:keys=val,op:vals=hitcount' >"$EVENTS/futex_wait/trigger" ||
		fail "cannot add a hist trigger to markers:futex_wait" || return 1
	"$WORK" futex-wait 4242 3 && "$WORK" futex-wait 4343 5 0 ||
		fail "markers_work failed"
	squeeze "$EVENTS/futex_wait/hist" >$hist
	expect_line '{ val: 4242, op: 128 } hitcount: 3' $hist
	expect_line '{ val: 4343, op: 0 } hitcount: 5' $hist
	remove_triggers futex_wait
	[ "$test_failed" = 0 ] || cat $hist
}

# hist:keys=prev_pid on sched_switch, for a task that sleeps 5 times: at
# least 6 switches out (5 sleeps and its exit), its prio summed.
test_hist_sched_switch() {
	local hist=$OUT/hist pid line hits prio
	echo 'hist:keys=prev_pid:vals=hitcount,prev_prio if prev_comm == "markers_work"' \
		>"$EVENTS/sched_switch/trigger" ||
		fail "cannot add a hist trigger to markers:sched_switch" || return 1
	"$WORK" sleep 5 10 &
	pid=$!
	wait $pid || fail "markers_work failed"
	squeeze "$EVENTS/sched_switch/hist" >$hist
	remove_triggers sched_switch
	line=$(grep "^{ prev_pid: $pid }" $hist)
	hits=$(echo "$line" | sed -n 's/.* hitcount: \([0-9]*\).*/\1/p')
	prio=$(echo "$line" | sed -n 's/.* prev_prio: \([0-9]*\).*/\1/p')
	[ -n "$hits" ] && [ "$hits" -ge 6 ] ||
		fail "expected at least 6 switches of pid $pid: $(cat $hist)" || return 1
	[ "$prio" = $((120 * hits)) ] ||
		fail "expected prev_prio sum $((120 * hits)), got $prio"
	grep -q '^ *Entries: 1$' $hist ||
		fail "expected one entry: $(cat $hist)"
}

# An eprobe on markers:futex_wait fetches its fields.
test_eprobe() {
	local n
	echo 'e:markers_ep/futex_val markers/futex_wait val=$val:u32 op=$op:s32 ret=$ret:s32' \
		>>"$TRACEFS/dynamic_events" ||
		fail "cannot add an eprobe on markers/futex_wait" || return 1
	echo 1 >"$TRACEFS/events/markers_ep/futex_val/enable"
	"$WORK" futex-wait 4747 2 || fail "markers_work failed"
	echo 0 >"$TRACEFS/events/markers_ep/futex_val/enable"
	n=$(grep -c 'futex_val: (markers.futex_wait) val=4747 op=128 ret=-11$' \
		"$TRACEFS/trace")
	[ "$n" = 2 ] || fail "expected 2 eprobe hits: $(grep futex_val "$TRACEFS/trace")"
	echo '-:markers_ep/futex_val' >>"$TRACEFS/dynamic_events" ||
		fail "cannot remove the eprobe"
}

# wakeup_lat(pid, lat): from markers:sched_wakeup to markers:sched_switch
# of the same pid, for a task that sleeps 5 times.
test_synth_wakeup_latency() {
	local pid lines bad on_switch
	on_switch='hist:keys=next_pid:lat=common_timestamp.usecs-$ts0'
	on_switch="$on_switch:onmatch(markers.sched_wakeup)"
	on_switch="$on_switch.trace(wakeup_lat,next_pid,\$lat)"
	on_switch="$on_switch if next_comm == \"markers_work\""
	# int as the marker's pid fields: a field passed to trace() must
	# have the synthetic field's type
	echo 'wakeup_lat int pid; u64 lat' >>"$TRACEFS/synthetic_events" ||
		fail "cannot add a synthetic event" || return 1
	echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm == "markers_work"' \
		>>"$EVENTS/sched_wakeup/trigger" &&
	echo "$on_switch" >>"$EVENTS/sched_switch/trigger" ||
		fail "cannot add the hist triggers of wakeup_lat: $(cat "$TRACEFS/error_log")"
	echo 1 >"$TRACEFS/events/synthetic/wakeup_lat/enable"
	"$WORK" sleep 5 20 &
	pid=$!
	wait $pid || fail "markers_work failed"
	echo 0 >"$TRACEFS/events/synthetic/wakeup_lat/enable"
	# Read first: removing an event that was enabled clears the buffer
	sed -n 's/^.*wakeup_lat: //p' "$TRACEFS/trace" >$OUT/lat
	remove_triggers sched_switch
	remove_triggers sched_wakeup
	echo '!wakeup_lat' >>"$TRACEFS/synthetic_events" ||
		fail "cannot remove wakeup_lat"
	lines=$(grep -c "^pid=$pid lat=[0-9][0-9]*\$" $OUT/lat)
	[ "$lines" -ge 5 ] ||
		fail "expected 5 or more latencies of pid $pid: $(cat $OUT/lat)"
	bad=$(grep -v "^pid=$pid lat=[0-9]\{1,7\}\$" $OUT/lat)
	[ -z "$bad" ] || fail "latencies of other tasks or over 10 s: $bad"
}

# release FIFO: write a line to FIFO, which a workload waiting to start
# reads. The open blocks until that workload opens the FIFO, and the
# SIGCHLD of a workload that ended meanwhile interrupts it (the shell
# then says "Interrupted system call"): try again.
release() {
	local tries=0
	until echo 2>/dev/null >"$1"; do
		tries=$((tries + 1))
		[ $tries -lt 100 ] || return 1
	done
	[ $tries = 0 ] || echo "# $1: open interrupted $tries times, tried again"
}

# set_event_pid: of two workloads, only the chosen task's events.
test_set_event_pid() {
	local p1 p2
	rm -f $OUT/go1 $OUT/go2
	mkfifo $OUT/go1 $OUT/go2
	sh -c "read x <$OUT/go1; exec $WORK futex-wait 1111 3" &
	p1=$!
	sh -c "read x <$OUT/go2; exec $WORK futex-wait 2222 4" &
	p2=$!
	echo $p1 >"$TRACEFS/set_event_pid"
	echo 1 >"$EVENTS/futex_wait/enable"
	if ! release $OUT/go1 || ! release $OUT/go2; then
		kill $p1 $p2
		fail "cannot start the workloads"
		return 1
	fi
	wait $p1 && wait $p2 || fail "markers_work failed"
	echo 0 >"$EVENTS/futex_wait/enable"
	[ "$(grep -c -- "-$p1 .*futex_wait: .* val=1111 " "$TRACEFS/trace")" = 3 ] ||
		fail "expected the 3 events of pid $p1"
	[ "$(grep -c 'futex_wait:' "$TRACEFS/trace")" = 3 ] ||
		fail "expected no other events: $(grep futex_wait: "$TRACEFS/trace")"
}

# sched_counts P: "out in woken out in woken": the switches out of and
# into pid P and its wakeups that sched:sched_switch and
# sched:sched_wakeup, then markers:sched_switch and markers:sched_wakeup
# recorded.
sched_counts() {
	local t=$TRACEFS/trace
	echo "$(grep -c "sched_switch: prev_comm=.* prev_pid=$1 prev_prio=" $t)" \
		"$(grep -c "sched_switch: prev_comm=.* next_pid=$1 next_prio=" $t)" \
		"$(grep -c "sched_wakeup: comm=.* pid=$1 prio=" $t)" \
		"$(grep -c "sched_switch: prev_pid=$1 prev_tgid=" $t)" \
		"$(grep -c "sched_switch: prev_pid=.* next_pid=$1 next_tgid=" $t)" \
		"$(grep -c "sched_wakeup: pid=$1 tgid=" $t)"
}

# set_event_pid and set_event_notrace_pid treat markers:sched_switch and
# markers:sched_wakeup as ftrace treats sched:sched_switch and
# sched:sched_wakeup: a switch is recorded when prev or next is a task the
# file lets through, a wakeup when the waker or the woken task is. The
# four events on, for a task that sleeps 15 times: the same switches out
# of and into it and the same wakeups of it, in the same run.
test_sched_switch_pid_rule() {
	local file p e
	[ -d "$TRACEFS/events/sched/sched_switch" ] ||
		fail "no sched:sched_switch" || return 1
	for file in set_event_pid set_event_notrace_pid; do
		rm -f $OUT/go
		mkfifo $OUT/go
		sh -c "read x <$OUT/go; exec $WORK sleep 15 10" &
		p=$!
		# Blocked on the FIFO before the events go on together
		sleep 0.2
		echo 0 >"$TRACEFS/tracing_on"
		: >"$TRACEFS/trace"
		echo "$p" >"$TRACEFS/$file" || fail "$file refused $p"
		for e in sched/sched_switch sched/sched_wakeup \
			 markers/sched_switch markers/sched_wakeup; do
			echo 1 >"$TRACEFS/events/$e/enable"
		done
		echo 1 >"$TRACEFS/tracing_on"
		release $OUT/go || fail "cannot start the workload"
		wait $p || fail "markers_work failed"
		# Its last switch, out of the dead task, may come after wait
		sleep 0.2
		echo 0 >"$TRACEFS/tracing_on"
		for e in sched/sched_switch sched/sched_wakeup \
			 markers/sched_switch markers/sched_wakeup; do
			echo 0 >"$TRACEFS/events/$e/enable"
		done
		: >"$TRACEFS/$file"
		set -- $(sched_counts $p)
		echo "# $file $p: out, in, woken: sched $1 $2 $3, markers $4 $5 $6"
		[ "$1" -ge 16 ] && [ "$2" -ge 16 ] && [ "$3" -ge 15 ] ||
			fail "$file: sched:sched_switch recorded $1 switches out of" \
				"and $2 into the task, expected 16 or more," \
				"sched:sched_wakeup $3 wakeups, expected 15 or more"
		[ "$4" = "$1" ] && [ "$5" = "$2" ] ||
			fail "$file: markers:sched_switch recorded $4 switches out of" \
				"and $5 into the task, sched:sched_switch $1 and $2"
		[ "$6" = "$3" ] ||
			fail "$file: markers:sched_wakeup recorded $6 wakeups of the" \
				"task, sched:sched_wakeup $3"
		echo 1 >"$TRACEFS/tracing_on"
	done
}

# filter EXPR: the sched_process_exit events of two markers_work and one
# true process that EXPR selects, as "comm pid" lines.
exits_with_filter() {
	: >"$TRACEFS/trace"
	echo "$1" >"$EVENTS/sched_process_exit/filter" ||
		fail "filter '$1' refused" || return 1
	echo 1 >"$EVENTS/sched_process_exit/enable"
	"$WORK" futex-wait 1 1
	"$WORK" futex-wait 1 1
	/bin/true
	echo 0 >"$EVENTS/sched_process_exit/enable"
	events_of sched_process_exit |
		sed -n 's/^sched_process_exit: pid=[0-9]* .*comm=\([^ ]*\) .*exit_code=0$/\1/p'
}

# expect_exits EXPR COMMS: EXPR selects exactly the exits of COMMS.
expect_exits() {
	local got
	got=$(exits_with_filter "$1" | tr '\n' ' ')
	[ "$got" = "$2" ] || fail "filter '$1': expected '$2', got '$got'"
}

test_string_filters() {
	expect_exits 'comm == "markers_work"' 'markers_work markers_work '
	expect_exits 'comm ~ "markers_*"' 'markers_work markers_work '
	expect_exits 'comm ~ "*_work"' 'markers_work markers_work '
	expect_exits 'comm ~ "markers_[vw]ork"' 'markers_work markers_work '
	expect_exits 'comm != "markers_work" && comm ~ "tru*"' 'true '
	expect_exits 'comm == "markers_wor"' ''
}

# snapshot:1 on the first val == 4444: the snapshot holds the events up
# to it, the live buffer those after.
test_snapshot_trigger() {
	echo 1 >"$EVENTS/futex_wait/enable"
	echo 'snapshot:1 if val == 4444' >"$EVENTS/futex_wait/trigger" ||
		fail "cannot add a snapshot trigger" || return 1
	"$WORK" futex-wait 4443 1 && "$WORK" futex-wait 4444 2 &&
		"$WORK" futex-wait 4445 1 || fail "markers_work failed"
	echo 0 >"$EVENTS/futex_wait/enable"
	grep -q '^snapshot:count=0' "$EVENTS/futex_wait/trigger" ||
		fail "trigger not used up: $(cat "$EVENTS/futex_wait/trigger")"
	grep -q 'futex_wait: .* val=4443 ' "$TRACEFS/snapshot" &&
	grep -q 'futex_wait: .* val=4444 ' "$TRACEFS/snapshot" ||
		fail "snapshot: $(grep futex_wait "$TRACEFS/snapshot")"
	! grep -q 'val=4445 ' "$TRACEFS/snapshot" ||
		fail "the snapshot holds an event after the trigger"
	grep -q 'futex_wait: .* val=4445 ' "$TRACEFS/trace" ||
		fail "the live buffer lost the event after the snapshot"
	echo 0 >"$TRACEFS/snapshot"
}

# stacktrace:1: one kernel stack, from the futex system call.
test_stacktrace_trigger() {
	echo 'stacktrace:1 if val == 4646' >"$EVENTS/futex_wait/trigger" ||
		fail "cannot add a stacktrace trigger" || return 1
	"$WORK" futex-wait 4646 2 || fail "markers_work failed"
	[ "$(grep -c '<stack trace>' "$TRACEFS/trace")" = 1 ] ||
		fail "expected one stack trace: $(cat "$TRACEFS/trace")" || return 1
	# The system call's entry: x86's do_syscall_64, arm64's do_el0_svc.
	grep -q '^ => .*futex' "$TRACEFS/trace" &&
	grep -Eq '^ => (do_syscall_64|do_el0_svc)$' "$TRACEFS/trace" ||
		fail "not the futex system call's stack: $(cat "$TRACEFS/trace")"
}

require "$WORK"
rm -rf $OUT
mkdir -p $OUT

ktap_print_header
ktap_set_plan 9
if [ -f "$EVENTS/futex_wait/hist" ]; then
	run_test "hist:keys=val,op on markers:futex_wait counts each" test_hist_futex
	run_test "hist:keys=prev_pid on markers:sched_switch" test_hist_sched_switch
else
	skip_test "hist:keys=val,op on markers:futex_wait counts each" "no CONFIG_HIST_TRIGGERS"
	skip_test "hist:keys=prev_pid on markers:sched_switch" "no CONFIG_HIST_TRIGGERS"
fi
if grep -q '<attached-group>' "$TRACEFS/README"; then
	run_test "eprobe on markers:futex_wait fetches its fields" test_eprobe
else
	skip_test "eprobe on markers:futex_wait fetches its fields" "no eprobes"
fi
if [ -f "$TRACEFS/synthetic_events" ] && [ -f "$EVENTS/futex_wait/hist" ]; then
	run_test "synthetic wakeup latency from markers sched_wakeup and sched_switch" \
		test_synth_wakeup_latency
else
	skip_test "synthetic wakeup latency from markers sched_wakeup and sched_switch" \
		"no CONFIG_SYNTH_EVENTS"
fi
run_test "set_event_pid selects one task's marker events" test_set_event_pid
run_test "set_event_pid and set_event_notrace_pid: sched_switch, sched_wakeup as stock" \
	test_sched_switch_pid_rule
run_test "string filters and globs on a marker's %s field" test_string_filters
if [ -f "$TRACEFS/snapshot" ]; then
	run_test "snapshot trigger on a marker event" test_snapshot_trigger
else
	skip_test "snapshot trigger on a marker event" "no CONFIG_TRACER_SNAPSHOT"
fi
run_test "stacktrace trigger on a marker event" test_stacktrace_trigger
rm -rf $OUT
markers_finished
