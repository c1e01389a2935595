#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the tracefs files of marker events is refused and changes
# nothing; a full ring buffer loses events only where the per-CPU stats
# count them, and marker_stats counts every record not written once, with
# a filter on the event or without. Registrations and detaches made
# without memory (fail-nth, markers_fail_nth) fail with ENOMEM and change
# nothing, or succeed; a conflict that cannot heal for want of memory
# heals at the name's next update.

set -u
. "$(dirname "$0")/markers_lib.sh"

FAIL_NTH=$(cd "$(dirname "$0")" && pwd)/markers_fail_nth
FAILSLAB=$DEBUGFS/failslab
PROBE=$DEBUGFS/test_markers_probe

# A string of $1 'a' characters.
long_string() {
	head -c "$1" /dev/zero | tr '\0' a
}

# state: what a bad write must leave as it was. Stock ftrace shows a
# refused filter's parse error in the filter file (the filter stays off),
# so the filter test leaves that file out (skip_filter=1).
skip_filter=0
state() {
	cat "$TRACEFS/set_event"
	cat "$EVENTS/example_int/enable" "$EVENTS/example_string/enable"
	[ "$skip_filter" = 1 ] || cat "$EVENTS/example_int/filter"
	cat "$EVENTS/example_int/trigger"
	cat "$TRACEFS/marker_sites"
}

# refused FILE WHAT DATA...: appending each DATA to FILE fails, state same.
refused() {
	local file=$1 what=$2 before after data
	shift 2
	before=$(state)
	for data in "$@"; do
		if printf '%s\n' "$data" >>"$file" 2>/dev/null; then
			fail "$file accepted $what"
			return 1
		fi
		after=$(state)
		[ "$before" = "$after" ] || fail "$file changed after $what"
		[ "$before" = "$after" ] || return 1
	done
}

# The state the bad writes start from: one event enabled by set_event.
enable_one() {
	echo markers:example_string >>"$TRACEFS/set_event"
}

test_set_event_unknown() {
	enable_one
	refused "$TRACEFS/set_event" "an unknown name" markers:no_such_marker \
		no_such_system:example_int markers:example_int_
}

test_set_event_glob_no_match() {
	enable_one
	refused "$TRACEFS/set_event" "a glob matching nothing" 'markers:zz*' \
		'markers:*_nothing' 'nomarkers*:example_int'
}

# set_event has no globs inside a name, for marker events as for any
# event (only "*" for a whole system or name): refused, as sched_w* is.
test_set_event_glob_in_name() {
	enable_one
	refused "$TRACEFS/set_event" "a glob inside a name" 'markers:example_*' \
		'markers:example_s*' 'sched:sched_w*'
}

test_set_event_overlong() {
	enable_one
	refused "$TRACEFS/set_event" "an overlong name" \
		"markers:$(long_string 200)" "markers:$(long_string 5000)"
}

test_set_event_junk() {
	enable_one
	refused "$TRACEFS/set_event" "binary junk" \
		"$(printf 'markers:\001\002\377')" "$(printf '\377\376\375\374')"
}

test_enable_bad() {
	enable_one
	refused "$EVENTS/example_int/enable" "bad values" 2 -1 x "$(long_string 5000)" \
		"$(printf '\001\377')"
}

test_filter_bad() {
	enable_one
	skip_filter=1
	refused "$EVENTS/example_int/filter" "bad filters" 'no_such_field == 1' \
		'count ==' 'name == "x"' "count == $(long_string 5000)" \
		"$(printf 'count \001\377 1')" || { skip_filter=0; return 1; }
	skip_filter=0
	# Still unfiltered: every event recorded.
	: >"$TRACEFS/trace"
	echo 1 >"$EVENTS/example_int/enable"
	echo 3 >"$FIRE"
	[ "$(events_of example_int | wc -l)" = 3 ] ||
		fail "a refused filter filtered events"
}

test_trigger_bad() {
	enable_one
	refused "$EVENTS/example_int/trigger" "bad triggers" no_such_trigger \
		'traceoff if no_such_field == 1' "traceoff if count == $(long_string 5000)" \
		"$(printf '\001\377\376')"
}

# lost: marker_stats' count of records the ring buffer refused.
lost() {
	marker_stat trace_lost
}

test_overrun_counted() {
	local n=5000 entries overrun commit dropped lost0
	lost0=$(lost)
	echo 4 >"$TRACEFS/buffer_size_kb" || fail "cannot shrink the buffer"
	echo 1 >"$TRACEFS/options/overwrite"
	: >"$TRACEFS/trace"
	echo 1 >"$EVENTS/example_int/enable"
	echo "$n" >"$FIRE"
	echo 0 >"$EVENTS/example_int/enable"
	entries=$(rb_stat_sum entries)
	overrun=$(rb_stat_sum overrun)
	commit=$(rb_stat_sum 'commit overrun')
	dropped=$(rb_stat_sum 'dropped events')
	echo "# entries $entries overrun $overrun commit overrun $commit dropped $dropped"
	[ "$overrun" -gt 0 ] || fail "no overrun counted for $n events in a 4 KiB buffer"
	[ $((entries + overrun + commit + dropped)) = "$n" ] ||
		fail "entries + overruns + dropped =" \
			"$((entries + overrun + commit + dropped)), expected $n"
	[ "$(lost)" = "$lost0" ] || fail "marker_stats counted lost records in overwrite mode"
}

test_dropped_counted() {
	local n=5000 entries dropped lost0
	lost0=$(lost)
	echo 4 >"$TRACEFS/buffer_size_kb"
	echo 0 >"$TRACEFS/options/overwrite"
	: >"$TRACEFS/trace"
	echo 1 >"$EVENTS/example_int/enable"
	echo "$n" >"$FIRE"
	echo 0 >"$EVENTS/example_int/enable"
	entries=$(rb_stat_sum entries)
	dropped=$(rb_stat_sum 'dropped events')
	echo 1 >"$TRACEFS/options/overwrite"
	echo "# entries $entries dropped $dropped trace_lost $lost0 -> $(lost)"
	[ "$dropped" -gt 0 ] || fail "no dropped events counted without overwrite"
	[ $((entries + dropped)) = "$n" ] ||
		fail "entries + dropped = $((entries + dropped)), expected $n"
	[ $(($(lost) - lost0)) = "$dropped" ] ||
		fail "marker_stats trace_lost grew by $(($(lost) - lost0)), expected $dropped"
}

# filtered: marker_stats' count of records left out on purpose.
filtered() {
	marker_stat trace_filtered
}

# With a filter on the event, as without one, every record the event does
# not write counts once: as filtered when the filter refuses it or tracing
# is off, as lost when a full buffer without overwrite drops it. A filter
# makes ftrace build the record in a per-CPU buffer and copy it into the
# ring buffer once the filter took it: that copy can fail too.
test_filter_counted() {
	local n=5000 lost0 filtered0 entries dropped
	echo "$size" >"$TRACEFS/buffer_size_kb"
	# example_int's count is 0 to N-1: "count >= 10" refuses 10 records
	echo 'count >= 10' >"$EVENTS/example_int/filter" ||
		fail "filter refused" || return 1
	echo 1 >"$EVENTS/example_int/enable"
	lost0=$(lost)
	filtered0=$(filtered)
	echo 30 >"$FIRE"
	[ "$(events_of example_int | wc -l)" = 20 ] ||
		fail "expected 20 records, got $(events_of example_int | wc -l)"
	[ $(($(filtered) - filtered0)) = 10 ] ||
		fail "the filter refused 10: trace_filtered grew by" \
			"$(($(filtered) - filtered0)), expected 10"
	filtered0=$(filtered)
	echo 0 >"$TRACEFS/tracing_on"
	echo 30 >"$FIRE"
	echo 1 >"$TRACEFS/tracing_on"
	[ $(($(filtered) - filtered0)) = 30 ] ||
		fail "tracing_on 0 with a filter: trace_filtered grew by" \
			"$(($(filtered) - filtered0)), expected 30"
	[ "$(lost)" = "$lost0" ] || fail "records counted lost with tracing on or off"

	echo 4 >"$TRACEFS/buffer_size_kb"
	echo 0 >"$TRACEFS/options/overwrite"
	: >"$TRACEFS/trace"
	filtered0=$(filtered)
	echo "$n" >"$FIRE"
	echo 0 >"$EVENTS/example_int/enable"
	entries=$(rb_stat_sum entries)
	dropped=$(rb_stat_sum 'dropped events')
	echo 1 >"$TRACEFS/options/overwrite"
	echo "# entries $entries dropped $dropped trace_lost $lost0 -> $(lost)" \
		"trace_filtered $filtered0 -> $(filtered)"
	[ "$dropped" -gt 0 ] || fail "no dropped events counted without overwrite"
	[ $((entries + dropped)) = $((n - 10)) ] ||
		fail "entries + dropped = $((entries + dropped)), expected $((n - 10))"
	[ $(($(lost) - lost0)) = "$dropped" ] ||
		fail "marker_stats trace_lost grew by $(($(lost) - lost0)), expected $dropped"
	[ $(($(filtered) - filtered0)) = 10 ] ||
		fail "full buffer: trace_filtered grew by $(($(filtered) - filtered0))," \
			"expected 10"
	echo "$size" >"$TRACEFS/buffer_size_kb"
}

# failslab_on: fail-nth fails the GFP_KERNEL allocations too
# (ignore-gfp-wait off), without a message for each; failslab_off: as it
# was before.
failslab_on() {
	gfp_wait=$(cat $FAILSLAB/ignore-gfp-wait)
	verbose=$(cat $FAILSLAB/verbose)
	echo N >$FAILSLAB/ignore-gfp-wait
	echo 0 >$FAILSLAB/verbose
}

failslab_off() {
	echo "$gfp_wait" >$FAILSLAB/ignore-gfp-wait
	echo "$verbose" >$FAILSLAB/verbose
}

# site_state NAME MODULE: the state marker_sites lists for NAME's site.
site_state() {
	awk -v n="$1" -v m="$2" '$1 == n && $3 == m { print $4 }' \
		"$TRACEFS/marker_sites"
}

# A registration that gives a name without a site its format, with each
# of its allocations failing in turn (test_markers_probe's copy of the
# request, then the registry's: the name's entry, the fields the format
# is checked with, its copy, the probe array, the fields of the name's
# format): the write fails with ENOMEM and leaves nothing, neither the
# probe (detaching it fails) nor the format (another one is taken), or
# it succeeds; once no allocation fails, the probe is attached.
test_register_fail_nth() {
	local n out nomem=0 name=markers_errors_nomem
	unload test_markers_probe
	load test_markers_probe || return 1
	failslab_on
	for n in $(seq 1 40); do
		out=$("$FAIL_NTH" "$n" write "$PROBE/register" "$name n %d") ||
			{ fail "markers_fail_nth: $out"; break; }
		case $out in
		"ret -12 injected 1")
			nomem=$((nomem + 1))
			! echo "$name" 2>/dev/null >"$PROBE/unregister" ||
				{ fail "allocation $n failing: the probe was attached"; break; }
			echo "$name n %u" >"$PROBE/register" ||
				{ fail "allocation $n failing: the name kept its format"; break; }
			echo "$name" >"$PROBE/unregister" ;;
		"ret 0 injected 1")
			echo "$name" >"$PROBE/unregister" ||
				{ fail "allocation $n failing: registered, yet not attached"; break; } ;;
		"ret 0 injected 0")
			echo "$name" >"$PROBE/unregister" ||
				fail "registered with every allocation, yet not attached"
			break ;;
		*) fail "registration with allocation $n failing: $out"; break ;;
		esac
	done
	failslab_off
	unload test_markers_probe
	echo "# $nomem allocations made the registration fail with ENOMEM"
	[ "$nomem" -ge 4 ] || fail "only $nomem allocations failed the registration"
}

# example_int's site, loaded after a probe with another format, is left
# out; when that probe is detached, the site takes the name (a heal).
# With each allocation of the detach failing in turn, the detach
# succeeds (or fails with ENOMEM before it reaches the registry, and
# detaches nothing); a heal without memory leaves the site out, and the
# name's next update (a probe with the site's format) heals it, the site
# then calling the probe.
test_heal_fail_nth() {
	local n out hits stayed=0
	unload test_markers_probe
	load test_markers_probe || return 1
	failslab_on
	for n in $(seq 1 40); do
		unload marker_example
		echo "example_int wrong %d" >"$PROBE/register" ||
			{ fail "a probe with another format refused"; break; }
		load marker-example || break
		[ "$(site_state example_int marker_example)" = conflict ] ||
			{ fail "example_int's site is $(site_state example_int marker_example)"; break; }
		out=$("$FAIL_NTH" "$n" write "$PROBE/unregister" example_int) ||
			{ fail "markers_fail_nth: $out"; break; }
		case $out in
		"ret -12 injected 1")
			[ "$(site_state example_int marker_example)" = conflict ] ||
				{ fail "allocation $n failing: nothing detached, yet the site healed"; break; }
			echo example_int >"$PROBE/unregister" ||
				{ fail "allocation $n failing: the probe went"; break; } ;;
		"ret 0 injected 1")
			[ "$(site_state example_int marker_example)" = conflict ] || continue
			stayed=$((stayed + 1))
			echo "example_int count %d value %llu" >"$PROBE/register" ||
				{ fail "allocation $n failing: the site's format refused"; break; }
			[ "$(site_state example_int marker_example)" = enabled ] ||
				{ fail "allocation $n failing: the next update left the site $(site_state example_int marker_example)"; break; }
			hits=$(cat "$PROBE/hits")
			echo 2 >"$FIRE"
			[ "$(cat "$PROBE/hits")" = $((hits + 2)) ] ||
				fail "the healed site called the probe $(($(cat "$PROBE/hits") - hits)) times, expected 2"
			echo example_int >"$PROBE/unregister" ;;
		"ret 0 injected 0")
			[ "$(site_state example_int marker_example)" = disabled ] ||
				fail "the heal with every allocation left the site $(site_state example_int marker_example)"
			break ;;
		*) fail "detach with allocation $n failing: $out"; break ;;
		esac
	done
	failslab_off
	unload test_markers_probe
	[ -d "$DEBUGFS/marker-example" ] || load marker-example
	echo "# $stayed heals ran out of memory"
	[ "$stayed" -ge 1 ] || fail "no heal ran out of memory"
}

require
load marker-example || exit 1
# "7 (expanded: 1408)" before the first use: 1408 is the size to restore.
size=$(sed 's/.*expanded: \([0-9]*\).*/\1/' "$TRACEFS/buffer_size_kb")

ktap_print_header
ktap_set_plan 13
run_test "set_event: unknown names refused" test_set_event_unknown
run_test "set_event: globs matching nothing refused" test_set_event_glob_no_match
run_test "set_event: globs inside a name refused, as for any event" \
	test_set_event_glob_in_name
run_test "set_event: overlong names refused" test_set_event_overlong
run_test "set_event: binary junk refused" test_set_event_junk
run_test "enable: bad values refused" test_enable_bad
run_test "filter: bad filters refused" test_filter_bad
run_test "trigger: bad triggers refused" test_trigger_bad
run_test "overwrite mode: every lost event counted as overrun" test_overrun_counted
run_test "no overwrite: every lost event counted as dropped" test_dropped_counted
run_test "with a filter: every record not written counted once" test_filter_counted
if [ -w /proc/self/fail-nth ] && [ -d $FAILSLAB ] && [ -x "$FAIL_NTH" ]; then
	run_test "a registration without memory: ENOMEM, nothing left" \
		test_register_fail_nth
	run_test "a heal without memory: the site stays out, the next update heals it" \
		test_heal_fail_nth
else
	skip_test "a registration without memory: ENOMEM, nothing left" \
		"no fail-nth or failslab (CONFIG_FAULT_INJECTION_DEBUG_FS, CONFIG_FAILSLAB)"
	skip_test "a heal without memory: the site stays out, the next update heals it" \
		"no fail-nth or failslab (CONFIG_FAULT_INJECTION_DEBUG_FS, CONFIG_FAILSLAB)"
fi
echo "$size" >"$TRACEFS/buffer_size_kb"
markers_finished
