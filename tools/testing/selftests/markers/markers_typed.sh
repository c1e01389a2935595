#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The events of typed markers (DECLARE_MARKER()) are recorded by the
# recorder each declaration makes at compile time: the values of
# test_modules/test_markers_typed.c come out as their fields say, strings
# and NULL included, also where the recorder's layout is not the event's
# (the event then takes the face's varargs probe, which stores the
# format's values field by field); a soft-disabled event's recorder counts
# nothing; and the declaration's module is held
# while its recorder is attached. perf (and the BPF programs attached
# through perf) uses the same recorders where the layouts match: the
# module is held while perf records those events, and perf script shows
# the same values. A record larger than a recorder builds (eight long
# strings) goes to the face's slow path, whole in ftrace, trace-cmd and
# perf. A declaration whose module detaches its own typed probe without
# memory as it goes (fail-nth, markers_fail_nth) leaves nothing of it
# that the module loaded again calls.

set -u
. "$(dirname "$0")/markers_lib.sh"

TYPED_FIRE=$DEBUGFS/test_markers_typed/fire
OUT=/tmp/markers-typed
FAIL_NTH=$(cd "$(dirname "$0")" && pwd)/markers_fail_nth
FAILSLAB=$DEBUGFS/failslab
PROBE=$DEBUGFS/test_markers_probe
STUB=$DEBUGFS/test_markers_stub

# The module's reference count, which the attached recorders hold.
refcnt() {
	cat /sys/module/test_markers_typed/refcnt
}

# fire_one NAME: enable NAME's event, fire every marker once, disable it.
fire_one() {
	echo 1 >"$EVENTS/$1/enable" || fail "cannot enable $1"
	echo 1 >"$TYPED_FIRE"
	echo 0 >"$EVENTS/$1/enable"
}

# expect_events NAME LINE: the trace holds LINE, once, of NAME's events.
expect_events() {
	events_of "$1" >/tmp/markers.out
	echo "$2" >/tmp/markers.want
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected $(cat /tmp/markers.want), got: $(cat /tmp/markers.out)"
}

test_fixed() {
	fire_one test_typed_fixed
	expect_events test_typed_fixed \
		'test_typed_fixed: b=-3 h=65535 i=-100000 x=deadbeef l=123456789a ll=-5'
}

test_strings() {
	local l
	l=$(head -c 255 /dev/zero | tr '\0' x)
	fire_one test_typed_string
	expect_events test_typed_string \
		"test_typed_string: n=42 s=typed none=(null) l=$l"
}

test_promoted() {
	fire_one test_typed_promoted
	expect_events test_typed_promoted 'test_typed_promoted: h=-2 c=z'
}

# test_typed_fixed in soft mode and disabled (the target of an
# enable_event trigger of test_typed_promoted that never fires): its
# recorder writes and counts nothing, whether set_event_pid turns the
# task away or not, while test_typed_string's recorder, enabled, counts
# each hit set_event_pid turns away as filtered.
test_soft_disabled_recorder() {
	local filtered pid
	echo 'enable_event:markers:test_typed_fixed if h == 1' \
		>"$EVENTS/test_typed_promoted/trigger" ||
		fail "enable_event trigger refused" || return 1
	echo 1 >"$EVENTS/test_typed_string/enable"
	filtered=$(marker_stat trace_filtered)
	echo 1 >"$TYPED_FIRE"
	[ "$(marker_stat trace_filtered)" = "$filtered" ] ||
		fail "trace_filtered $filtered -> $(marker_stat trace_filtered)"
	sleep 100 &
	pid=$!
	echo "$pid" >"$TRACEFS/set_event_pid" || fail "set_event_pid refused $pid"
	echo 1 >"$TYPED_FIRE"
	echo 1 >"$TYPED_FIRE"
	echo 1 >"$TYPED_FIRE"
	kill "$pid"
	wait "$pid" 2>/dev/null
	: >"$TRACEFS/set_event_pid"
	[ $(($(marker_stat trace_filtered) - filtered)) = 3 ] ||
		fail "set_event_pid: trace_filtered grew by" \
			"$(($(marker_stat trace_filtered) - filtered)), expected 3"
	[ -z "$(events_of test_typed_fixed)" ] || fail "the soft-disabled event recorded"
	[ "$(events_of test_typed_string | wc -l)" = 1 ] ||
		fail "test_typed_string recorded $(events_of test_typed_string | wc -l)," \
			"expected 1"
	echo 0 >"$EVENTS/test_typed_string/enable"
	echo '!enable_event:markers:test_typed_fixed' \
		>>"$EVENTS/test_typed_promoted/trigger"
	! grep -q '^enable_event' "$EVENTS/test_typed_promoted/trigger" ||
		fail "cannot remove the enable_event trigger"
}

test_module_held() {
	local before
	before=$(refcnt)
	echo 1 >"$EVENTS/test_typed_fixed/enable"
	[ "$(refcnt)" = $((before + 1)) ] ||
		fail "refcnt $(refcnt) with the event enabled, expected $((before + 1))"
	! rmmod test_markers_typed 2>/dev/null ||
		fail "rmmod test_markers_typed with its recorder attached"
	echo 0 >"$EVENTS/test_typed_fixed/enable"
	[ "$(refcnt)" = "$before" ] ||
		fail "refcnt $(refcnt) with the event disabled, expected $before"
}

# perf records the three events: test_typed_fixed and test_typed_string
# with their recorders, each holding the module (the varargs probe perf
# used before held nothing), test_typed_promoted, whose recorder's layout
# is not its event's, with the varargs probe, holding nothing: the module
# gains two references, not three. The values come out as in ftrace, the
# strings cut and NULL as "(null)".
test_perf_recorder() {
	local before during l
	l=$(head -c 255 /dev/zero | tr '\0' x)
	before=$(refcnt)
	(cd $OUT && perf record -q -B -o $OUT/perf.data \
		-e markers:test_typed_fixed -e markers:test_typed_string \
		-e markers:test_typed_promoted -- sh -c \
		"cat /sys/module/test_markers_typed/refcnt >$OUT/refcnt; echo 1 >$TYPED_FIRE") \
		>$OUT/perf.log 2>&1 ||
		fail "perf record failed: $(cat $OUT/perf.log)" || return 1
	during=$(cat $OUT/refcnt)
	[ "$during" = $((before + 2)) ] ||
		fail "refcnt $during while perf records, expected $((before + 2))"
	[ "$(refcnt)" = "$before" ] ||
		fail "refcnt $(refcnt) after perf, expected $before"
	perf script -i $OUT/perf.data >$OUT/script.txt 2>$OUT/script.err ||
		fail "perf script failed: $(cat $OUT/script.err)" || return 1
	grep -q 'test_typed_fixed: *b=-3 h=65535 i=-100000 x=deadbeef l=123456789a ll=-5$' \
		$OUT/script.txt &&
	grep -q "test_typed_string: *n=42 s=typed none=(null) l=$l\$" $OUT/script.txt &&
	grep -q 'test_typed_promoted: *h=-2 c=z$' $OUT/script.txt ||
		fail "perf script: $(cat $OUT/script.txt)"
	[ "$(grep -c 'markers:test_typed_' $OUT/script.txt)" = 3 ] ||
		fail "expected 3 samples: $(cat $OUT/script.txt)"
}

# The fields test_typed_wide prints: eight strings of 255 characters,
# field a of 'a' to field h of 'h'.
wide_fields() {
	local f fields=
	for f in a b c d e f g h; do
		fields="$fields $f=$(head -c 255 /dev/zero | tr '\0' $f)"
	done
	echo "${fields# }"
}

# A record larger than the recorders build themselves goes to the face's
# slow path, which stores the values it is given: in ftrace, under
# trace-cmd and under perf, every field comes out whole.
test_wide_ftrace() {
	fire_one test_typed_wide
	expect_events test_typed_wide "test_typed_wide: $(wide_fields)"
}

test_wide_trace_cmd() {
	(cd $OUT && trace-cmd record -o $OUT/trace.dat -e markers:test_typed_wide \
		sh -c "$RECORDERS; echo 1 >$TYPED_FIRE") >$OUT/trace-cmd.log 2>&1 ||
		fail "trace-cmd record failed: $(cat $OUT/trace-cmd.log)" || return 1
	trace-cmd report -i $OUT/trace.dat >$OUT/report.txt 2>&1 ||
		fail "trace-cmd report failed: $(cat $OUT/report.txt)" || return 1
	[ "$(grep -c 'test_typed_wide:' $OUT/report.txt)" = 1 ] &&
	grep -qF -- "$(wide_fields)" $OUT/report.txt ||
		fail "trace-cmd report: $(cat $OUT/report.txt)"
}

test_wide_perf() {
	(cd $OUT && perf record -q -B -o $OUT/perf.data \
		-e markers:test_typed_wide -- sh -c "echo 1 >$TYPED_FIRE") \
		>$OUT/perf.log 2>&1 ||
		fail "perf record failed: $(cat $OUT/perf.log)" || return 1
	perf script -i $OUT/perf.data >$OUT/script.txt 2>$OUT/script.err ||
		fail "perf script failed: $(cat $OUT/script.err)" || return 1
	[ "$(grep -c 'markers:test_typed_wide' $OUT/script.txt)" = 1 ] &&
	grep -qF -- "$(wide_fields)" $OUT/script.txt ||
		fail "perf script: $(cat $OUT/script.txt)"
}

# stub_fire N HITS: fire test_stub_event with N once; its module's typed
# probe has seen HITS hits since the module loaded, test_markers_probe's
# probe with a format one more than before.
stub_fire() {
	local before
	before=$(cat $PROBE/hits)
	echo "$1" >$STUB/fire
	[ "$(cat $STUB/hits)" = "$2" ] ||
		fail "the module's typed probe saw $(cat $STUB/hits) hits, expected $2" ||
		return 1
	[ "$(cat $PROBE/hits)" = $((before + 1)) ] ||
		fail "the probe with a format saw $(($(cat $PROBE/hits) - before)) hits, expected 1"
}

# One unload of test_markers_stub with allocation N failing, then another
# module in the memory it had, and test_markers_stub again, elsewhere, its
# typed probe not attached yet: its site calls the name's array as the
# unload left it. Sets STUB_INJECTED to 1 if allocation N came, else 0.
stub_cycle() {
	local n=$1 out
	load test_markers_stub || return 1
	stub_fire "$n" 1 || return 1
	out=$("$FAIL_NTH" "$n" rmmod test_markers_stub) ||
		fail "markers_fail_nth: $out" || return 1
	case $out in
	"ret 0 injected 1") STUB_INJECTED=1 ;;
	"ret 0 injected 0") STUB_INJECTED=0 ;;
	*) fail "unload with allocation $n failing: $out"; return 1 ;;
	esac
	load test_markers_name63 || return 1
	insmod "$MODULE_DIR/test_markers_stub.ko" attach=0 ||
		fail "insmod test_markers_stub attach=0" || return 1
	stub_fire $((n + 100)) 0 || return 1
	echo 1 >$STUB/attach || fail "cannot attach the module's typed probe" ||
		return 1
	stub_fire $((n + 200)) 1
}

# test_markers_stub detaches its own typed probe as it unloads. With each
# allocation of the unload made to fail in turn (fail-nth), the unload
# succeeds; where the detach had no memory for a smaller array, its slot
# keeps the declaration's stub, in the array test_markers_probe's probe
# keeps after the module went (unless the module's leaving the name
# could copy the array without it). Another module then takes the memory
# the module had, and the module comes back elsewhere: its sites must
# call its probes, never the stub of the module before.
test_stub_unload_fail_nth() {
	local n injected=0 gfp_wait verbose rc=0
	gfp_wait=$(cat $FAILSLAB/ignore-gfp-wait)
	verbose=$(cat $FAILSLAB/verbose)
	echo N >$FAILSLAB/ignore-gfp-wait
	echo 0 >$FAILSLAB/verbose
	unload test_markers_stub
	unload test_markers_probe
	if load test_markers_probe &&
	   { echo "test_stub_event n %d" >$PROBE/register ||
	     fail "cannot attach a probe with a format to test_stub_event"; }; then
		for n in $(seq 1 20); do
			STUB_INJECTED=0
			stub_cycle "$n" || { rc=1; break; }
			unload test_markers_stub
			unload test_markers_name63
			[ "$STUB_INJECTED" = 1 ] || break
			injected=$((injected + 1))
		done
		echo test_stub_event >$PROBE/unregister
	else
		rc=1
	fi
	unload test_markers_stub
	unload test_markers_name63
	unload test_markers_probe
	echo "$gfp_wait" >$FAILSLAB/ignore-gfp-wait
	echo "$verbose" >$FAILSLAB/verbose
	[ "$rc" = 0 ] || return 1
	[ "$injected" -gt 0 ] ||
		fail "no allocation of the module's unload was made to fail"
}

# A typed marker defined in one object of a module and fired from another:
# the module loads (its second object calls the static call through the
# trampoline, whose key the kernel finds in the module) and both sites
# record.
test_split_module() {
	unload test_markers_split
	load test_markers_split || return 1
	echo 1 >"$EVENTS/test_split_event/enable" ||
		fail "cannot enable test_split_event"
	echo 1 >"$DEBUGFS/test_markers_split/fire"
	echo 0 >"$EVENTS/test_split_event/enable"
	printf '%s\n' 'test_split_event: n=1 v=10' 'test_split_event: n=2 v=20' \
		>/tmp/markers.want
	events_of test_split_event >/tmp/markers.out
	unload test_markers_split
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected $(cat /tmp/markers.want), got: $(cat /tmp/markers.out)"
}

require
unload test_markers_typed
load test_markers_typed || exit 1
rm -rf $OUT
mkdir -p $OUT

ktap_print_header
ktap_set_plan 11
run_test "a typed event: one field of each integer size" test_fixed
run_test "a typed event: strings, NULL, a string cut to 255" test_strings
run_test "a typed event whose values are promoted: through the face" \
	test_promoted
run_test "a soft-disabled typed event's recorder counts nothing" \
	test_soft_disabled_recorder
run_test "a typed event holds its declaration's module while enabled" \
	test_module_held
if command -v perf >/dev/null 2>&1; then
	run_test "perf records typed events with their recorders" \
		test_perf_recorder
else
	skip_test "perf records typed events with their recorders" "no perf"
fi
run_test "a typed event larger than its recorder's record: ftrace" \
	test_wide_ftrace
if command -v trace-cmd >/dev/null 2>&1; then
	run_test "a typed event larger than its recorder's record: trace-cmd" \
		test_wide_trace_cmd
else
	skip_test "a typed event larger than its recorder's record: trace-cmd" \
		"no trace-cmd"
fi
if command -v perf >/dev/null 2>&1; then
	run_test "a typed event larger than its recorder's record: perf" \
		test_wide_perf
else
	skip_test "a typed event larger than its recorder's record: perf" "no perf"
fi
if [ -w /proc/self/fail-nth ] && [ -d $FAILSLAB ]; then
	run_test "a declaration unloaded without memory calls no stub of its past" \
		test_stub_unload_fail_nth
else
	skip_test "a declaration unloaded without memory calls no stub of its past" \
		"no fail-nth or failslab (CONFIG_FAULT_INJECTION_DEBUG_FS, CONFIG_FAILSLAB)"
fi
run_test "a typed marker of a module fired from another of its objects" \
	test_split_module
unload test_markers_typed
markers_finished
