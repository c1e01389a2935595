#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stock tools read marker events: trace-cmd record + report and perf
# record + script, stat and trace, each on chosen events and on all marker
# events at once (none that a tool cannot parse), on markers of
# samples/markers/marker-example.c and of markers_work, fired
# with known values (iteration i: example_int count=i value=i*2^32+i,
# example_string name=zero|one|two|three, example_small letter='a'+i
# flags=0xf000|i delta=-i). Each tool is skipped when it is not installed.

set -u
. "$(dirname "$0")/markers_lib.sh"

OUT=/tmp/markers-tools
WORK=$(cd "$(dirname "$0")" && pwd)/markers_work
FIRE3="echo 3 >$FIRE"

# expect_values FILE: the three iterations' values are in FILE.
expect_values() {
	grep -q 'example_int:.*count=0 value=0$' "$1" &&
	grep -q 'example_int:.*count=1 value=4294967297$' "$1" &&
	grep -q 'example_int:.*count=2 value=8589934594$' "$1" &&
	grep -q 'example_string:.*name=two$' "$1" &&
	grep -q 'example_small:.*letter=c flags=f002 delta=-2$' "$1" ||
		fail "missing values in $1: $(cat "$1")"
}

test_trace_cmd() {
	(cd $OUT && trace-cmd record -o $OUT/trace.dat -e markers:example_int \
		-e 'markers:example_s*' sh -c "$RECORDERS; $FIRE3") >$OUT/trace-cmd.log 2>&1 ||
		fail "trace-cmd record failed: $(cat $OUT/trace-cmd.log)"
	trace-cmd report -i $OUT/trace.dat >$OUT/report.txt 2>&1 ||
		fail "trace-cmd report failed: $(cat $OUT/report.txt)"
	expect_values $OUT/report.txt || { cat $OUT/trace-cmd.log; return 1; }
	[ "$(grep -c 'example_int:' $OUT/report.txt)" = 3 ] ||
		fail "expected 3 example_int events in the report"
}

test_trace_cmd_filter() {
	(cd $OUT && trace-cmd record -o $OUT/trace.dat -e markers:example_string \
		-f 'name == "one"' sh -c "$RECORDERS; echo 8 >$FIRE") >$OUT/trace-cmd.log 2>&1 ||
		fail "trace-cmd record -f failed: $(cat $OUT/trace-cmd.log)"
	trace-cmd report -i $OUT/trace.dat >$OUT/report.txt 2>&1
	[ "$(grep -c 'example_string:.*name=one$' $OUT/report.txt)" = 2 ] &&
	[ "$(grep -c 'example_string:' $OUT/report.txt)" = 2 ] ||
		fail "filtered report: $(cat $OUT/report.txt)"
}

test_perf() {
	(cd $OUT && perf record -q -B -o $OUT/perf.data -e markers:example_int \
		-e markers:example_string -e markers:example_small \
		-- sh -c "$FIRE3") >$OUT/perf.log 2>&1 ||
		fail "perf record failed: $(cat $OUT/perf.log)"
	perf script -i $OUT/perf.data >$OUT/script.txt 2>$OUT/script.err ||
		fail "perf script failed: $(cat $OUT/script.err)"
	expect_values $OUT/script.txt || return 1
	[ "$(grep -c 'markers:example_int:' $OUT/script.txt)" = 3 ] ||
		fail "expected 3 markers:example_int samples: $(cat $OUT/script.txt)"
	grep -q '^example_int .* marker_example disabled ' "$TRACEFS/marker_sites" ||
		fail "perf left the site enabled"
}

test_perf_with_ftrace() {
	echo 1 >"$EVENTS/example_int/enable"
	(cd $OUT && perf record -q -B -o $OUT/perf.data -e markers:example_int \
		-- sh -c "$FIRE3") >$OUT/perf.log 2>&1 ||
		fail "perf record failed: $(cat $OUT/perf.log)"
	perf script -i $OUT/perf.data >$OUT/script.txt 2>&1
	[ "$(grep -c 'example_int:' $OUT/script.txt)" = 3 ] ||
		fail "perf saw: $(cat $OUT/script.txt)"
	[ "$(events_of example_int | wc -l)" = 3 ] ||
		fail "ftrace saw $(events_of example_int | wc -l) events, expected 3"
	grep -q '^example_int .* marker_example enabled ' "$TRACEFS/marker_sites" ||
		fail "perf's exit disabled ftrace's probe"
}

test_perf_module_unload() {
	# perf holds the event: unloading the module removes the sites; the
	# event goes once perf lets go of it.
	(cd $OUT && perf record -q -B -o $OUT/perf.data -e markers:example_int \
		-- sh -c "echo 1 >$FIRE; rmmod marker_example; sleep 1") >$OUT/perf.log 2>&1 ||
		fail "perf record failed: $(cat $OUT/perf.log)"
	[ ! -e "$EVENTS/example_int" ] || sleep 2
	[ ! -e "$EVENTS/example_int" ] ||
		fail "the event outlived perf and the module"
	load marker-example
}

# perf holds example_int ("count %d value %llu") while marker-example goes
# and test_markers_conflict comes with "count %u value %llx": its site
# conflicts with the format of perf's probe. Once perf stops, the conflict
# heals and the old event is replaced by one with the new format.
test_perf_conflict_heals() {
	local pid
	rm -f $OUT/stop
	(cd $OUT && perf record -q -B -o $OUT/heal.data -e markers:example_int \
		-- sh -c "while [ ! -e $OUT/stop ]; do sleep 0.1; done") \
		>$OUT/perf.log 2>&1 &
	pid=$!
	wait_for 20 grep -q '^example_int .* marker_example enabled ' \
		"$TRACEFS/marker_sites" ||
		fail "perf did not enable example_int: $(cat $OUT/perf.log)"
	rmmod marker_example || fail "rmmod marker_example"
	load test_markers_conflict
	grep -q '^example_int .* test_markers_conflict conflict ' "$TRACEFS/marker_sites" ||
		fail "the site does not conflict with the format perf holds"
	expect_marker example_int '' 'stable sites=0 conflicts=1 modules=- no-event:held'
	touch $OUT/stop
	wait "$pid" || fail "perf record failed: $(cat $OUT/perf.log)"
	[ "$test_failed" = 0 ] && expect_new_format_event
	unload test_markers_conflict
	load marker-example
}

# Every marker event at once: trace-cmd record -e markers, report with
# no event it cannot parse.
test_trace_cmd_all() {
	(cd $OUT && trace-cmd record -o $OUT/trace.dat -e markers \
		sh -c "$RECORDERS; $FIRE3; $WORK futex-wait 5151 2") >$OUT/trace-cmd.log 2>&1 ||
		fail "trace-cmd record -e markers failed: $(cat $OUT/trace-cmd.log)"
	trace-cmd report -i $OUT/trace.dat >$OUT/report.txt 2>&1 ||
		fail "trace-cmd report failed: $(cat $OUT/report.txt)"
	expect_values $OUT/report.txt || return 1
	[ "$(grep -c 'futex_wait:.* val=5151 ' $OUT/report.txt)" = 2 ] ||
		fail "expected 2 futex_wait events with val=5151"
	! grep -i 'failed to parse' $OUT/report.txt ||
		fail "trace-cmd report could not parse every marker event"
}

# perf stat -e 'markers:*': every marker event counted, the workload's
# own hits exactly (4 futex waits, no wake).
test_perf_stat_all() {
	local nr_events
	perf stat -x, -o $OUT/stat.txt -e 'markers:*' \
		-- "$WORK" futex-wait 5252 4 >$OUT/perf.log 2>&1 ||
		fail "perf stat failed: $(cat $OUT/perf.log $OUT/stat.txt)" || return 1
	nr_events=$(ls -d "$EVENTS"/*/ | wc -l)
	[ "$(grep -c ',markers:' $OUT/stat.txt)" = "$nr_events" ] ||
		fail "expected $nr_events marker events: $(cat $OUT/stat.txt)"
	! grep -q 'not supported\|not counted' $OUT/stat.txt ||
		fail "events not counted: $(cat $OUT/stat.txt)"
	grep -q '^4,,markers:futex_wait,' $OUT/stat.txt &&
	grep -q '^0,,markers:futex_wake,' $OUT/stat.txt ||
		fail "expected 4 futex_wait and no futex_wake: $(cat $OUT/stat.txt)"
}

# perf record -e 'markers:*' and perf script: the values, and no event
# perf cannot parse.
test_perf_record_all() {
	(cd $OUT && perf record -q -B -o $OUT/perf.data -e 'markers:*' \
		-- sh -c "$FIRE3; $WORK futex-wait 5353 2; :") >$OUT/perf.log 2>&1 ||
		fail "perf record failed: $(cat $OUT/perf.log)"
	perf script -i $OUT/perf.data >$OUT/script.txt 2>&1 ||
		fail "perf script failed: $(cat $OUT/script.txt)"
	expect_values $OUT/script.txt || return 1
	[ "$(grep -c 'markers:futex_wait:.* val=5353 ' $OUT/script.txt)" = 2 ] ||
		fail "expected 2 markers:futex_wait samples with val=5353"
	# sh forks markers_work (not its last command, so not exec'd)
	grep -q 'markers:sched_process_fork:.* parent_comm=sh ' $OUT/script.txt ||
		fail "no sched_process_fork sample of sh starting markers_work"
	! grep -i 'failed to parse' $OUT/script.txt ||
		fail "perf script could not parse every marker event"
}

# perf trace -e markers:futex_wait, without system calls.
test_perf_trace() {
	perf trace --no-syscalls -e markers:futex_wait \
		-- "$WORK" futex-wait 5454 3 >$OUT/trace.txt 2>&1 ||
		fail "perf trace failed: $(cat $OUT/trace.txt)" || return 1
	[ "$(grep -c 'markers:futex_wait.*5454' $OUT/trace.txt)" = 3 ] ||
		fail "expected 3 futex_wait lines with 5454: $(cat $OUT/trace.txt)"
}

# markers-abi --json's event records (offset, size, signedness of every
# field, common fields included), as harness/markers-abi-layout wrote
# them from the build's vmlinux, against the running kernel's format
# files: every field of every marker event equal.
ABI_LAYOUT=/markers/markers-abi.layout
test_abi_layout() {
	local checked=0 event field offset size signed line got want
	while read -r event field offset size signed; do
		[ -f "$EVENTS/$event/format" ] || continue
		line=$(grep "field:[^;]*[ ]$field;" "$EVENTS/$event/format") ||
			fail "$event: no field $field in its format file" || return 1
		got=$(echo "$line" | tr -d ' \t' | tr ';' '\n' |
			sed -n 's/^\(offset\|size\|signed\):\([0-9]*\)$/\2/p' | tr '\n' ' ')
		want="$offset $size $signed "
		[ "$got" = "$want" ] ||
			fail "$event $field: offset size signed $got(tracefs), $want(--json)" ||
			return 1
		checked=$((checked + 1))
	done <$ABI_LAYOUT
	for event in sched_switch futex_wait; do
		grep -q "^$event " $ABI_LAYOUT && [ -f "$EVENTS/$event/format" ] ||
			fail "$event: not in both markers-abi --json and tracefs" || return 1
	done
	echo "# $checked fields equal"
	[ "$checked" -gt 100 ] || fail "only $checked fields compared"
}

require
load marker-example || exit 1
rm -rf $OUT
mkdir -p $OUT
# Room for every event whatever earlier tests left (trace-cmd reads pages).
echo 1408 >"$TRACEFS/buffer_size_kb"

ktap_print_header
ktap_set_plan 11
if command -v trace-cmd >/dev/null; then
	run_test "trace-cmd record -e markers:<name> + report" test_trace_cmd
	run_test "trace-cmd record -f on a string field" test_trace_cmd_filter
	run_test "trace-cmd record -e markers: every event parses" test_trace_cmd_all
else
	skip_test "trace-cmd record -e markers:<name> + report" "no trace-cmd"
	skip_test "trace-cmd record -f on a string field" "no trace-cmd"
	skip_test "trace-cmd record -e markers: every event parses" "no trace-cmd"
fi
if command -v perf >/dev/null; then
	run_test "perf record -e markers:<name> + perf script" test_perf
	run_test "perf and ftrace on one event" test_perf_with_ftrace
	run_test "module unloaded while perf records its event" test_perf_module_unload
	run_test "perf's old format goes, the conflict heals, the event takes the new" \
		test_perf_conflict_heals
	run_test "perf stat -e 'markers:*' counts every marker event" test_perf_stat_all
	run_test "perf record -e 'markers:*': every event parses" test_perf_record_all
	if perf trace -h 2>&1 | grep -q -- '--syscalls'; then
		run_test "perf trace -e markers:<name>" test_perf_trace
	else
		skip_test "perf trace -e markers:<name>" "perf trace not built in"
	fi
else
	skip_test "perf record -e markers:<name> + perf script" "no perf"
	skip_test "perf and ftrace on one event" "no perf"
	skip_test "module unloaded while perf records its event" "no perf"
	skip_test "perf's old format goes, the conflict heals, the event takes the new" "no perf"
	skip_test "perf stat -e 'markers:*' counts every marker event" "no perf"
	skip_test "perf record -e 'markers:*': every event parses" "no perf"
	skip_test "perf trace -e markers:<name>" "no perf"
fi
if [ -s $ABI_LAYOUT ]; then
	run_test "markers-abi --json layout equals the format files" test_abi_layout
else
	skip_test "markers-abi --json layout equals the format files" "no $ABI_LAYOUT"
fi
rm -rf $OUT
markers_finished
