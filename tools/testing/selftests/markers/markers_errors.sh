#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the tracefs files of marker events is refused and changes
# nothing; a full ring buffer loses events only where the per-CPU stats
# count them, and marker_stats counts every record not written once, with
# a filter on the event or without, on a CPU tracing_cpumask leaves out,
# and not at all for an event in soft mode. Then the allocator's errors
# (fault injection: fail-nth through markers_fail_nth, failslab):
# registrations and detaches made without memory fail with ENOMEM and
# change nothing, or succeed; a conflict that cannot heal for want of
# memory heals at the name's next update; a read of the listing, enabling
# and disabling an event, perf_event_open(), and a module's unload and
# load, with each allocation failing in turn, fail
# with an errno or succeed, and leave every event whole: it records, and
# its sites and module references are as the events' state says.

set -u
. "$(dirname "$0")/markers_lib.sh"

FAIL_NTH=$(cd "$(dirname "$0")" && pwd)/markers_fail_nth
FAILSLAB=$DEBUGFS/failslab
TYPED_FIRE=$DEBUGFS/test_markers_typed/fire
EXAMPLES="example_init example_int example_noargs example_ptr example_small
	example_string"
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

# example_int in soft mode and disabled (the target of an enable_event
# trigger that never fires) writes no record of its own, so none of its
# hits counts, as filtered or lost: not when its probe stops at once, not
# when it builds a record for a trigger with a condition (which sees it,
# then drops it, through a filter on the event too), not when
# set_event_pid turns the task away; example_ptr, enabled beside it,
# counts what set_event_pid leaves out.
test_soft_disabled_not_counted() {
	local lost0 filtered0 pid
	echo 'enable_event:markers:example_int if name == "never"' \
		>"$EVENTS/example_string/trigger" ||
		fail "enable_event trigger refused" || return 1
	lost0=$(lost)
	filtered0=$(filtered)
	echo 10 >"$FIRE"
	[ "$(filtered)" = "$filtered0" ] && [ "$(lost)" = "$lost0" ] ||
		fail "soft disabled: trace_filtered $filtered0 -> $(filtered)," \
			"trace_lost $lost0 -> $(lost)"
	echo 'count >= 5' >"$EVENTS/example_int/filter" &&
	echo 'traceoff if count == 7' >"$EVENTS/example_int/trigger" ||
		fail "filter or trigger refused"
	echo 10 >"$FIRE"
	[ "$(cat "$TRACEFS/tracing_on")" = 0 ] ||
		fail "the trigger did not see the record of count 7"
	echo 1 >"$TRACEFS/tracing_on"
	[ "$(filtered)" = "$filtered0" ] && [ "$(lost)" = "$lost0" ] ||
		fail "soft disabled, records for a trigger: trace_filtered" \
			"$filtered0 -> $(filtered), trace_lost $lost0 -> $(lost)"
	echo 1 >"$EVENTS/example_ptr/enable"
	sleep 100 &
	pid=$!
	echo "$pid" >"$TRACEFS/set_event_pid" || fail "set_event_pid refused $pid"
	filtered0=$(filtered)
	echo 10 >"$FIRE"
	kill "$pid"
	wait "$pid" 2>/dev/null
	: >"$TRACEFS/set_event_pid"
	[ $(($(filtered) - filtered0)) = 10 ] ||
		fail "set_event_pid: trace_filtered grew by $(($(filtered) - filtered0))," \
			"expected 10 (example_ptr's)"
	[ "$(lost)" = "$lost0" ] || fail "trace_lost $lost0 -> $(lost)"
	[ -z "$(events_of example_int)" ] || fail "the soft-disabled event wrote records"
	echo '!traceoff' >>"$EVENTS/example_int/trigger"
	echo '!enable_event:markers:example_int' >>"$EVENTS/example_string/trigger"
	! grep -q '^enable_event' "$EVENTS/example_string/trigger" ||
		fail "cannot remove the enable_event trigger"
}

# With no CPU in tracing_cpumask, every record of an enabled event counts
# as filtered, none as lost, with a filter on the event (the record is
# built in ftrace's per-CPU buffer, then not copied) or without (the ring
# buffer refuses it).
test_cpumask_filtered() {
	local mask lost0 filtered0
	mask=$(cat "$TRACEFS/tracing_cpumask")
	echo 1 >"$EVENTS/example_int/enable"
	lost0=$(lost)
	filtered0=$(filtered)
	echo 0 >"$TRACEFS/tracing_cpumask" || fail "cannot clear tracing_cpumask" ||
		return 1
	echo 10 >"$FIRE"
	echo 'count >= 0' >"$EVENTS/example_int/filter" || fail "filter refused"
	echo 10 >"$FIRE"
	echo "$mask" >"$TRACEFS/tracing_cpumask"
	[ $(($(filtered) - filtered0)) = 20 ] ||
		fail "trace_filtered grew by $(($(filtered) - filtered0)), expected 20"
	[ "$(lost)" = "$lost0" ] || fail "trace_lost $lost0 -> $(lost)"
	[ -z "$(events_of example_int)" ] || fail "records written on a CPU left out"
}

# ---- Fault injection ----

# fail_nth N ARGS...: markers_fail_nth N ARGS..., its result in $ret (0
# or -errno of the call) and $injected (1 if the Nth allocation came
# during the call, and failed), or with N "count" in $calls (the
# allocations the call made).
fail_nth() {
	local out
	out=$("$FAIL_NTH" "$@") || { fail "markers_fail_nth $*: $out"; return 1; }
	set -- $out
	ret=$2
	case $3 in
	injected) injected=$4 ;;
	calls) calls=$4 ;;
	*) fail "markers_fail_nth: '$out'"; return 1 ;;
	esac
}

# fail_nth_begin, fail_nth_end: failslab fails GFP_KERNEL allocations too
# (ignore-gfp-wait off), quietly (verbose 0), and ftrace records no
# command names. Enabling the first event would otherwise register
# ftrace's own probes for them (tracing_start_cmdline_record()), whose
# failure ftrace ignores, then unregisters at the last disable what it
# never registered: a WARNING of ftrace's (tracepoint_remove_func()),
# not of markers. The buffer keeps its size: no enable resizes it.
fail_nth_begin() {
	gfp_wait=$(cat $FAILSLAB/ignore-gfp-wait)
	verbose=$(cat $FAILSLAB/verbose)
	record_cmd=$(cat "$TRACEFS/options/record-cmd")
	echo N >$FAILSLAB/ignore-gfp-wait
	echo 0 >$FAILSLAB/verbose
	echo 0 >"$TRACEFS/options/record-cmd"
	echo "$size" >"$TRACEFS/buffer_size_kb"
}

fail_nth_end() {
	echo "$gfp_wait" >$FAILSLAB/ignore-gfp-wait
	echo "$verbose" >$FAILSLAB/verbose
	echo "$record_cmd" >"$TRACEFS/options/record-cmd"
}

# sites_off NAME: no site of NAME is enabled.
sites_off() {
	! grep -q "^$1 .* enabled " "$TRACEFS/marker_sites"
}

# held: the references test_markers_typed's recorders hold on it.
held() {
	cat /sys/module/test_markers_typed/refcnt
}

# A read of the listing "markers" with each allocation failing in turn
# (every 13th after the first 16: the read copies every name, twice when
# the listing outgrows its first buffer): it fails with ENOMEM or gives
# the whole listing, and the next read gives it again.
test_listing_fail_nth() {
	local n=0 hits=0
	cat "$TRACEFS/markers" >/tmp/markers.want
	[ -s /tmp/markers.want ] || fail "the listing is empty" || return 1
	while :; do
		if [ $n -lt 16 ]; then n=$((n + 1)); else n=$((n + 13)); fi
		fail_nth $n read "$TRACEFS/markers" /tmp/markers.out || return 1
		case $ret in
		0) cmp -s /tmp/markers.out /tmp/markers.want ||
			fail "allocation $n failing: the listing read differs" ;;
		-12) hits=$((hits + 1)) ;;
		*) fail "read with allocation $n failing returned $ret" ;;
		esac
		[ "$test_failed" = 0 ] || return 1
		[ "$injected" = 1 ] || break
		[ $n -lt 5000 ] || { fail "5000 allocations in a read"; return 1; }
	done
	[ "$hits" -gt 0 ] || fail "no read failed with ENOMEM"
	cat "$TRACEFS/markers" >/tmp/markers.out
	cmp -s /tmp/markers.out /tmp/markers.want || fail "the listing changed"
}

# enable_fail_nth EVENT FIRE LINE: EVENT's enable written 1 with each
# allocation of the write failing in turn: it fails with ENOMEM and
# leaves the event off, or succeeds and the event records LINE, all
# EVENT records, when 1 is written to FIRE; disabled again, no site of
# EVENT is enabled and test_markers_typed's references are as before.
enable_fail_nth() {
	local e=$1 fire=$2 line=$3 n=0 hits=0 before
	before=$(held)
	while [ $n -lt 50 ]; do
		n=$((n + 1))
		: >"$TRACEFS/trace"
		fail_nth $n write "$EVENTS/$e/enable" 1 || return 1
		case $ret in
		-12)
			hits=$((hits + 1))
			[ "$(cat "$EVENTS/$e/enable")" = 0 ] ||
				fail "$e: enabling failed with ENOMEM, enable reads" \
					"$(cat "$EVENTS/$e/enable")"
			;;
		0)
			[ "$(cat "$EVENTS/$e/enable")" = 1 ] ||
				fail "$e: enabled, but enable reads $(cat "$EVENTS/$e/enable")"
			echo 1 >"$fire"
			[ "$(events_of "$e")" = "$line" ] ||
				fail "$e enabled with allocation $n failing recorded" \
					"'$(events_of "$e")', expected '$line'"
			;;
		*) fail "$e: enabling with allocation $n failing returned $ret" ;;
		esac
		echo 0 >"$EVENTS/$e/enable"
		sites_off "$e" || fail "$e: a site enabled after allocation $n failed"
		[ "$(held)" = "$before" ] ||
			fail "$e: allocation $n failing: test_markers_typed's refcnt" \
				"$before -> $(held)"
		[ "$test_failed" = 0 ] || return 1
		[ "$injected" = 1 ] || break
	done
	[ "$injected" = 0 ] || fail "$e: enabling made more than 50 allocations"
	[ "$hits" -gt 0 ] || fail "$e: no enable failed with ENOMEM"
}

# An event of a trace_mark() marker (a format-checked probe) and one of a
# typed marker of a module (its declaration's recorder, which holds the
# module).
test_enable_fail_nth() {
	enable_fail_nth example_int "$FIRE" 'example_int: count=0 value=0' &&
	enable_fail_nth test_typed_fixed "$TYPED_FIRE" \
		'test_typed_fixed: b=-3 h=65535 i=-100000 x=deadbeef l=123456789a ll=-5'
}

# disable_fail_nth EVENT FIRE: EVENT enabled in an instance and at the
# top level (two probes on its marker), then disabled at the top level
# with each allocation failing in turn: detaching needs no memory to
# succeed, so the write succeeds (ftrace warns if it does not), the top
# level records nothing more and the instance records on.
disable_fail_nth() {
	local e=$1 fire=$2 inst=$TRACEFS/instances/markers_fail n=0
	mkdir "$inst" || fail "cannot make an instance" || return 1
	echo 1 >"$inst/events/markers/$e/enable" || fail "the instance refused $e"
	while [ $n -lt 30 ] && [ "$test_failed" = 0 ]; do
		n=$((n + 1))
		echo 1 >"$EVENTS/$e/enable"
		fail_nth $n write "$EVENTS/$e/enable" 0 || break
		[ "$ret" = 0 ] || fail "$e: disabling with allocation $n failing returned $ret"
		[ "$(cat "$EVENTS/$e/enable")" = 0 ] ||
			fail "$e: disabled, but enable reads $(cat "$EVENTS/$e/enable")"
		: >"$TRACEFS/trace"
		: >"$inst/trace"
		echo 1 >"$fire"
		[ -z "$(events_of "$e")" ] || fail "$e: recorded at the top level once disabled"
		[ "$(grep -c " $e: " "$inst/trace")" = 1 ] ||
			fail "$e: the instance recorded" \
				"$(grep -c " $e: " "$inst/trace") events, expected 1"
		[ "$injected" = 1 ] || break
	done
	echo 0 >"$inst/events/markers/$e/enable"
	rmdir "$inst" || fail "cannot remove the instance"
	sites_off "$e" || fail "$e: a site left enabled"
	[ "$injected" = 0 ] || fail "$e: disabling made more than 30 allocations"
}

test_disable_fail_nth() {
	local before
	before=$(held)
	disable_fail_nth example_int "$FIRE" &&
	disable_fail_nth test_typed_fixed "$TYPED_FIRE"
	[ "$(held)" = "$before" ] ||
		fail "test_markers_typed's refcnt $before -> $(held)"
}

# perf_open_fail_nth EVENT: perf_event_open() of EVENT with each
# allocation failing in turn: it fails with ENOMEM or opens; closed, no
# site of EVENT is enabled and test_markers_typed's references are as
# before.
perf_open_fail_nth() {
	local e=$1 n=0 hits=0 id before
	id=$(cat "$EVENTS/$e/id")
	before=$(held)
	while [ $n -lt 200 ]; do
		n=$((n + 1))
		fail_nth $n perf "$id" || return 1
		case $ret in
		0) ;;
		-12) hits=$((hits + 1)) ;;
		*) fail "$e: perf_event_open() with allocation $n failing returned $ret" ;;
		esac
		sites_off "$e" || fail "$e: a site enabled after perf closed (allocation $n)"
		[ "$(held)" = "$before" ] ||
			fail "$e: allocation $n failing: test_markers_typed's refcnt" \
				"$before -> $(held)"
		[ "$test_failed" = 0 ] || return 1
		[ "$injected" = 1 ] || break
	done
	[ "$injected" = 0 ] || fail "$e: perf_event_open() made more than 200 allocations"
	[ "$hits" -gt 0 ] || fail "$e: no perf_event_open() failed with ENOMEM"
}

test_perf_open_fail_nth() {
	perf_open_fail_nth example_int && perf_open_fail_nth test_typed_fixed &&
	example_records
}

# No mkdir of an instance with its allocations failing: ftrace's ring
# buffer warns (WARN()) when it cannot allocate a CPU's buffer, by design,
# which the kernel log scan takes for a failure.

# example_records: example_int enabled records the first hit exactly.
example_records() {
	: >"$TRACEFS/trace"
	echo 1 >"$EVENTS/example_int/enable" || fail "cannot enable example_int"
	echo 1 >"$FIRE"
	echo 0 >"$EVENTS/example_int/enable"
	[ "$(events_of example_int)" = 'example_int: count=0 value=0' ] ||
		fail "example_int recorded '$(events_of example_int)'"
}

# example_events: the events of marker_example's markers that exist.
example_events() {
	local e
	for e in $EXAMPLES; do
		[ -e "$EVENTS/$e" ] && echo "$e"
	done
}

# marker_example unloaded with each allocation failing in turn (every
# 10th after the first 12): the unload succeeds. Its GOING notifier
# rescans the names for the events; where that had no memory, the
# module's events stay until the next rescan (they copied what they use:
# nothing of theirs is in the module), which the next load makes: then
# they are the module's events again and record, and a plain unload
# removes them.
test_unload_fail_nth() {
	local n=0 stale=0
	while :; do
		if [ $n -lt 12 ]; then n=$((n + 1)); else n=$((n + 10)); fi
		unload marker_example
		load marker-example || return 1
		fail_nth $n rmmod marker_example || return 1
		[ "$ret" = 0 ] || fail "rmmod with allocation $n failing returned $ret"
		[ ! -d /sys/module/marker_example ] ||
			fail "marker_example still loaded after rmmod" || return 1
		[ -z "$(example_events)" ] || stale=$((stale + 1))
		load marker-example || return 1
		example_records
		rmmod marker_example || fail "rmmod marker_example"
		[ -z "$(example_events)" ] ||
			fail "events left after a plain unload: $(example_events)"
		[ "$test_failed" = 0 ] || return 1
		[ "$injected" = 1 ] || break
		[ $n -lt 2000 ] || { fail "2000 allocations in an unload"; return 1; }
	done
	echo "# $stale of the unloads with an allocation failing left the events to the next load"
	[ "$stale" -gt 0 ] || fail "no allocation of the events' rescan was made to fail"
	load marker-example
}

# example_formats: the format files of marker_example's events.
example_formats() {
	local e
	for e in $(example_events); do
		cat "$EVENTS/$e/format"
	done
}

# marker_example loaded with each of the last allocations of its load
# failing in turn, from the last back to those of the events' rescan (the
# load's own allocations come first, the events' last): the load fails,
# leaving no event of its markers, or succeeds with an event for each
# marker ftrace could make one for (ftrace keeps an event whose fields it
# could not all define, as it keeps a kprobe event); unloaded, none is
# left; loaded again, every event is whole and records.
test_load_fail_nth() {
	local ko=$MODULE_DIR/marker-example.ko n hits=0 present last
	unload marker_example
	load marker-example || return 1
	example_formats >/tmp/markers.formats
	[ "$(example_events | wc -l)" = 6 ] || fail "not 6 events: $(example_events)" ||
		return 1
	rmmod marker_example || fail "rmmod marker_example" || return 1
	fail_nth count insmod "$ko" || return 1
	[ "$ret" = 0 ] || fail "insmod returned $ret" || return 1
	rmmod marker_example || fail "rmmod marker_example" || return 1
	n=$((calls + 1))
	last=$((calls - 100))
	while [ $n -gt 1 ] && [ $n -gt $last ]; do
		n=$((n - 1))
		fail_nth $n insmod "$ko" || return 1
		present=$(example_events | wc -l)
		if [ "$ret" = 0 ]; then
			example_formats | cmp -s - /tmp/markers.formats ||
				hits=$((hits + 1))
			# Each listed with its event or none, never a reason
			[ "$(grep -cE '^example_[a-z]+ .* (event|no-event)$' \
				"$TRACEFS/markers")" = 6 ] ||
				fail "allocation $n failing: listing:" \
					"$(grep '^example_' "$TRACEFS/markers")"
			[ "$present" = 6 ] || [ "$present" = 0 ] ||
				echo "# allocation $n failing: events" \
					"$(example_events | tr '\n' ' ')"
			rmmod marker_example || fail "rmmod marker_example"
		else
			[ ! -d /sys/module/marker_example ] ||
				fail "the load failed ($ret) but the module is there"
		fi
		[ -z "$(example_events)" ] ||
			fail "allocation $n failing: events left without the module:" \
				"$(example_events)"
		[ "$test_failed" = 0 ] || return 1
		# Below the events' making: the rescan's copy of the names
		[ "$ret" = 0 ] && [ "$present" = 0 ] && break
	done
	[ "$hits" -gt 0 ] || fail "no allocation of the events' making was made to fail"
	load marker-example || return 1
	example_formats | cmp -s - /tmp/markers.formats ||
		fail "the events' formats changed"
	example_records
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
			echo "$name" >"$PROBE/unregister" || {
				fail "allocation $n failing: registered, yet not attached"
				break
			} ;;
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
	local n out hits st stayed=0
	unload test_markers_probe
	load test_markers_probe || return 1
	failslab_on
	for n in $(seq 1 40); do
		unload marker_example
		echo "example_int wrong %d" >"$PROBE/register" ||
			{ fail "a probe with another format refused"; break; }
		load marker-example || break
		st=$(site_state example_int marker_example)
		[ "$st" = conflict ] || { fail "example_int's site is $st"; break; }
		out=$("$FAIL_NTH" "$n" write "$PROBE/unregister" example_int) ||
			{ fail "markers_fail_nth: $out"; break; }
		case $out in
		"ret -12 injected 1")
			[ "$(site_state example_int marker_example)" = conflict ] || {
				fail "allocation $n failing: nothing detached, yet the site healed"
				break
			}
			echo example_int >"$PROBE/unregister" ||
				{ fail "allocation $n failing: the probe went"; break; } ;;
		"ret 0 injected 1")
			[ "$(site_state example_int marker_example)" = conflict ] || continue
			stayed=$((stayed + 1))
			echo "example_int count %d value %llu" >"$PROBE/register" ||
				{ fail "allocation $n failing: the site's format refused"; break; }
			st=$(site_state example_int marker_example)
			[ "$st" = enabled ] || {
				fail "allocation $n failing: the next update left the site $st"
				break
			}
			hits=$(cat "$PROBE/hits")
			echo 2 >"$FIRE"
			hits=$(($(cat "$PROBE/hits") - hits))
			[ "$hits" = 2 ] ||
				fail "the healed site called the probe $hits times, expected 2"
			echo example_int >"$PROBE/unregister" ;;
		"ret 0 injected 0")
			st=$(site_state example_int marker_example)
			[ "$st" = disabled ] ||
				fail "the heal with every allocation left the site $st"
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
ktap_set_plan 21
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
run_test "soft mode: records an event builds only for triggers are not counted" \
	test_soft_disabled_not_counted
run_test "tracing_cpumask: records on a CPU left out counted as filtered" \
	test_cpumask_filtered
if [ -w /proc/self/fail-nth ] && [ -d $FAILSLAB ] && [ -x "$FAIL_NTH" ] &&
   unload test_markers_typed && load test_markers_typed; then
	fail_nth_begin
	run_test "the listing read without memory fails or is whole" \
		test_listing_fail_nth
	run_test "an event enabled without memory fails or records" \
		test_enable_fail_nth
	run_test "an event disabled without memory is disabled" \
		test_disable_fail_nth
	if [ -f "$EVENTS/example_int/id" ]; then
		run_test "perf_event_open() without memory leaves nothing attached" \
			test_perf_open_fail_nth
	else
		skip_test "perf_event_open() without memory leaves nothing attached" \
			"no CONFIG_PERF_EVENTS"
	fi
	run_test "a module unloaded without memory leaves no stale event behind" \
		test_unload_fail_nth
	run_test "a module loaded without memory leaves no event behind" \
		test_load_fail_nth
	fail_nth_end
	unload test_markers_typed
else
	for t in "the listing read without memory fails or is whole" \
		 "an event enabled without memory fails or records" \
		 "an event disabled without memory is disabled" \
		 "perf_event_open() without memory leaves nothing attached" \
		 "a module unloaded without memory leaves no stale event behind" \
		 "a module loaded without memory leaves no event behind"; do
		skip_test "$t" "no fail-nth, failslab, markers_fail_nth or test_markers_typed"
	done
fi
markers_finished
