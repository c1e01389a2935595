#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Markers in tracefs (CONFIG_MARKERS_TRACE): the listings, markers as trace
# events (format, enable, set_event, filters, triggers, output), module
# markers coming and going, coexistence with module probes.
#
# Fires the markers of samples/markers/marker-example.c and
# test_modules/test_markers_trace.c, whose values are known: iteration i
# of marker-example gives example_int count=i value=i*2^32+i, example_string
# name=zero|one|two|three, example_small letter='a'+i flags=0xf000|i
# delta=-i.

set -u
. "$(dirname "$0")/markers_lib.sh"

test_listing_modes() {
	local f want
	# Read-only files of events/ (format, id) are root-only, 0440.
	want=$(stat -c '%a %u %g' "$EVENTS/example_int/format")
	for f in markers marker_sites marker_stats; do
		[ "$(stat -c '%a %u %g' "$TRACEFS/$f")" = "$want" ] ||
			fail "$f: mode, uid, gid $(stat -c '%a %u %g' "$TRACEFS/$f")," \
				"expected $want as events/*/format"
	done
	[ "$want" = "440 0 0" ] || fail "format is $want, expected 440 0 0"
}

test_listing_markers() {
	expect_marker example_int 'count %d value %llu' \
		'stable sites=1 conflicts=0 modules=marker_example event' &&
	expect_marker example_noargs ' ' \
		'stable sites=1 conflicts=0 modules=marker_example event' &&
	expect_marker example_init 'objects %zu' \
		'stable sites=1 conflicts=0 modules=marker_example event'
}

# name symbol+0xoff module state bytes code target size: the bytes of a
# disabled site are the architecture's NOP of the site's length (x86's
# 2-byte or 5-byte NOP, arm64's NOP), root sees the addresses, and a site
# whose init text is gone has no bytes.
test_listing_sites() {
	local nop='(6690|0f1f440000)' size='[25]' addr='0x[0-9a-f]{8,}'
	local sym='[A-Za-z0-9_.]+\+0x[0-9a-f]+'
	local int init kptr
	if [ "$(uname -m)" = aarch64 ]; then
		nop=1f2003d5
		size=4
	fi
	int=$(grep '^example_int ' "$TRACEFS/marker_sites")
	init=$(grep '^example_init ' "$TRACEFS/marker_sites")
	echo "$int" | grep -Eq \
		"^example_int $sym marker_example disabled $nop $addr $addr $size\$" ||
		fail "example_int: not a disabled site with bytes $nop: $int"
	case $int in
	*" 6690 "*" 2" | *" 0f1f440000 "*" 5" | *" 1f2003d5 "*" 4") ;;
	*) fail "example_int: its NOP is not of its length: $int" ;;
	esac
	echo "$init" | grep -Eq \
		"^example_init [^ ]+ marker_example init-freed - 0x[0-9a-f]+ 0x[0-9a-f]+ $size\$" ||
		fail "example_init's site is not init-freed without bytes: $init"
	# kptr_restrict 2: no address for anybody, root included; the
	# symbol and offset of a live site still tell where it is.
	kptr=$(cat /proc/sys/kernel/kptr_restrict)
	echo 2 >/proc/sys/kernel/kptr_restrict || fail "cannot set kptr_restrict" ||
		return 1
	int=$(grep '^example_int ' "$TRACEFS/marker_sites")
	init=$(grep '^example_init ' "$TRACEFS/marker_sites")
	echo "$kptr" >/proc/sys/kernel/kptr_restrict
	echo "$int" | grep -Eq "^example_int $sym marker_example disabled $nop 0x0 0x0 $size\$" ||
		fail "kptr_restrict 2: example_int's site shows addresses: $int"
	echo "$init" | grep -Eq "^example_init 0x0 marker_example init-freed - 0x0 0x0 $size\$" ||
		fail "kptr_restrict 2: example_init's site shows addresses: $init"
}

# test_markers_trace's test_trace_many: 17 fields, one more than an event
# takes.
MANY='a %d b %d c %d d %d e %d f %d g %d h %d i %d j %d k %d l %d m %d n %d o %d p %d q %d'

test_listing_debug_and_bad_format() {
	load test_markers_trace || return 1
	expect_marker __test_trace_debug ' ' \
		'debug sites=1 conflicts=0 modules=test_markers_trace event' &&
	expect_marker test_trace_bad_format 'width %*d' \
		'stable sites=1 conflicts=0 modules=test_markers_trace no-event:bad-format' &&
	expect_marker test_trace_many "$MANY" \
		'stable sites=1 conflicts=0 modules=test_markers_trace no-event:too-many-fields' &&
	expect_marker example_int 'count %d value %llu' \
		'stable sites=2 conflicts=0 modules=marker_example,test_markers_trace event' ||
		return 1
	[ ! -e "$EVENTS/test_trace_bad_format" ] ||
		fail "a marker whose format does not parse has an event"
	[ ! -e "$EVENTS/test_trace_many" ] ||
		fail "a marker with more than 16 fields has an event"
	[ -d "$EVENTS/__test_trace_debug" ] || fail "no event for the debug marker"
}

# A field named common_* would shadow the common fields (common_pid, ...)
# in filters and triggers: such a marker gets no event, and the listing
# says why. test_markers_trace's test_trace_common_field has a field
# named common_pid (after test_listing_debug_and_bad_format loaded it).
test_reserved_field_name() {
	expect_marker test_trace_common_field 'common_pid %d count %d' \
		'stable sites=1 conflicts=0 modules=test_markers_trace no-event:reserved-field'
	[ ! -e "$EVENTS/test_trace_common_field" ] ||
		fail "a marker with a field named common_pid has an event"
}

test_event_files() {
	local f
	for f in enable format filter trigger id; do
		[ -f "$EVENTS/example_int/$f" ] || fail "no $f in $EVENTS/example_int"
	done
}

test_format() {
	local fmt=$EVENTS/example_int/format
	expect_line 'name: example_int' "$fmt" &&
	expect_line '	field:int count;	offset:8;	size:4;	signed:1;' "$fmt" &&
	expect_line '	field:unsigned long long value;	offset:16;	size:8;	signed:0;' "$fmt" &&
	expect_line 'print fmt: "count=%d value=%llu", REC->count, REC->value' "$fmt" &&
	fmt=$EVENTS/example_string/format &&
	expect_line '	field:__data_loc char[] name;	offset:8;	size:4;	signed:0;' "$fmt" &&
	expect_line 'print fmt: "name=%s", __get_str(name)' "$fmt" &&
	fmt=$EVENTS/example_small/format &&
	expect_line '	field:__data_loc char[] letter;	offset:8;	size:4;	signed:0;' "$fmt" &&
	expect_line '	field:unsigned short flags;	offset:12;	size:2;	signed:0;' "$fmt" &&
	expect_line '	field:signed char delta;	offset:14;	size:1;	signed:1;' "$fmt" &&
	expect_line 'print fmt: "letter=%s flags=%hx delta=%hhd",'\
' __get_str(letter), REC->flags, REC->delta' "$fmt" &&
	fmt=$EVENTS/example_ptr/format &&
	expect_line '	field:void * object;	offset:8;	size:8;	signed:0;' "$fmt"
}

test_set_event_and_output() {
	echo markers:example_int >>"$TRACEFS/set_event" ||
		fail "set_event refused markers:example_int"
	expect_line markers:example_int "$TRACEFS/set_event" || return 1
	[ "$(cat "$EVENTS/example_int/enable")" = 1 ] || fail "enable is not 1"
	grep -q '^example_int .* marker_example enabled ' "$TRACEFS/marker_sites" ||
		fail "the site is not enabled"
	echo 3 >"$FIRE"
	events_of example_int >/tmp/markers.out
	expect_line 'example_int: count=0 value=0' /tmp/markers.out &&
	expect_line 'example_int: count=1 value=4294967297' /tmp/markers.out &&
	expect_line 'example_int: count=2 value=8589934594' /tmp/markers.out || return 1
	[ "$(wc -l </tmp/markers.out)" = 3 ] ||
		fail "expected 3 events, got $(wc -l </tmp/markers.out)"
	[ -z "$(events_of example_string)" ] || fail "example_string recorded while off"
	echo '!markers:example_int' >>"$TRACEFS/set_event"
	grep -q '^example_int .* marker_example disabled ' "$TRACEFS/marker_sites" ||
		fail "the site is still enabled after !markers:example_int"
}

test_trace_pipe() {
	echo 1 >"$EVENTS/example_string/enable"
	echo 2 >"$FIRE"
	# trace_pipe blocks once it has handed out what it has.
	timeout 3 cat "$TRACEFS/trace_pipe" >/tmp/markers.pipe
	sed -n 's/^.*: \(example_string:.*\)$/\1/p' /tmp/markers.pipe >/tmp/markers.out
	printf 'example_string: name=%s\n' zero one >/tmp/markers.want
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "trace_pipe gave: $(cat /tmp/markers.pipe)"
	[ -z "$(events_of example_string)" ] || fail "trace_pipe did not consume the events"
}

test_glob_and_field_kinds() {
	local e
	echo '*:example_string' >>"$TRACEFS/set_event" ||
		fail "set_event refused *:example_string"
	[ "$(cat "$EVENTS/example_string/enable")" = 1 ] &&
	[ "$(cat "$EVENTS/example_int/enable")" = 0 ] ||
		fail "*:example_string did not enable exactly example_string"
	echo 'markers:*' >>"$TRACEFS/set_event" || fail "set_event refused markers:*"
	for e in example_int example_string example_ptr example_small \
		 example_noargs example_init; do
		[ "$(cat "$EVENTS/$e/enable")" = 1 ] || fail "markers:* did not enable $e"
	done
	echo 4 >"$FIRE"
	events_of 'example_[a-z]*' >/tmp/markers.out
	expect_line 'example_string: name=zero' /tmp/markers.out &&
	expect_line 'example_string: name=three' /tmp/markers.out &&
	expect_line 'example_small: letter=a flags=f000 delta=0' /tmp/markers.out &&
	expect_line 'example_small: letter=b flags=f001 delta=-1' /tmp/markers.out &&
	expect_line 'example_small: letter=d flags=f003 delta=-3' /tmp/markers.out &&
	expect_line 'example_noargs:' /tmp/markers.out || return 1
	grep -q '^example_ptr: object=[^ ]* slot=3$' /tmp/markers.out ||
		fail "no example_ptr event with slot=3"
	echo '!markers:*' >>"$TRACEFS/set_event"
	[ "$(cat "$EVENTS/example_small/enable")" = 0 ] || fail "!markers:* left example_small on"
}

test_enable_file_and_system() {
	echo 1 >"$EVENTS/example_noargs/enable" || fail "enable refused 1"
	echo 2 >"$FIRE"
	[ "$(events_of example_noargs | wc -l)" = 2 ] ||
		fail "expected 2 example_noargs events"
	echo 0 >"$EVENTS/example_noargs/enable"
	echo 1 >"$EVENTS/enable" || fail "events/markers/enable refused 1"
	[ "$(cat "$EVENTS/example_ptr/enable")" = 1 ] || fail "system enable missed example_ptr"
	: >"$TRACEFS/trace"
	echo 1 >"$FIRE"
	events_of example_ptr | grep -q '^example_ptr: object=[^ ]* slot=0$' ||
		fail "no example_ptr event with slot=0"
}

# Function-call IPIs taken so far by every CPU (x86's "CAL", arm64's
# "IPI1" in /proc/interrupts).
call_ipis() {
	awk '/ Function call interrupts$/ {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++)
			s += $i
	} END { print s + 0 }' /proc/interrupts
}

# The system's enable patches every marker site in one batch (x86: 3 sync
# rounds, each one call IPI per other CPU), not one batch per event, and
# retargets the static calls of all typed markers (to their recorders) in
# one batch more: enabling all marker events costs at most one batch more
# than enabling one (a trace_mark() marker's), which pays for ftrace's own
# work (its sched tracepoints) too.
# Other call IPIs land in the same windows on some kernels (on the
# sanitizer kernel, enabling one event measured 31 of them), so the counts
# are taken up to 3 times and one clean measure passes; one batch per
# event (3 call IPIs per event and other CPU) fails every time. ftrace's
# own IPIs, and the timer's work that lands in the window, vary from one
# command to the next, more so on a loaded host (one event measured 22 to
# 25, all 26 to 31, in runs of one tree: a margin of exactly one batch
# passed or failed by chance), so the margin is 12 IPIs per other CPU
# (an arm64 batch is one IPI round): one batch per event would cost
# several times that (3 per event and other CPU, and there are dozens of
# events).
system_enable_ipis() {
	local before one off all sites others slack events
	others=$(($(grep -c '^processor' /proc/cpuinfo) - 1))
	slack=$((12 * others))
	before=$(call_ipis)
	echo 1 >"$EVENTS/example_int/enable" || fail "enable refused 1"
	one=$(($(call_ipis) - before))
	before=$(call_ipis)
	echo 0 >"$EVENTS/example_int/enable" || fail "enable refused 0"
	off=$(($(call_ipis) - before))

	before=$(call_ipis)
	echo 1 >"$EVENTS/enable" || fail "events/markers/enable refused 1"
	all=$(($(call_ipis) - before))
	sites=$(grep -c ' enabled ' "$TRACEFS/marker_sites")
	events=$(grep -c "^markers:" "$TRACEFS/set_event")
	echo "# one event: $one call IPIs; all: $events events, $sites sites, $all call IPIs"
	[ "$sites" -ge 20 ] || fail "only $sites sites enabled"
	# One batch per event would be over twice the margin.
	[ "$((3 * others * events))" -gt "$((2 * slack))" ] ||
		fail "$events events enabled: too few to tell batches apart"
	enable_ok=$([ "$all" -le $((one + slack)) ] && echo 1 || echo 0)
	enable_msg="enabling $sites sites took $all call IPIs, one event $one"

	before=$(call_ipis)
	echo 0 >"$EVENTS/enable" || fail "events/markers/enable refused 0"
	all=$(($(call_ipis) - before))
	echo "# disabling one event: $off call IPIs; all: $all"
	[ "$(grep -c ' enabled ' "$TRACEFS/marker_sites")" = 0 ] ||
		fail "sites left enabled"
	disable_ok=$([ "$all" -le $((off + slack)) ] && echo 1 || echo 0)
	disable_msg="disabling $sites sites took $all call IPIs, one event $off"
	[ "$enable_ok" = 1 ] && [ "$disable_ok" = 1 ]
}

test_system_enable_one_batch() {
	local try
	[ "$(grep -c '^processor' /proc/cpuinfo)" -gt 1 ] || { fail "needs 2 CPUs"; return; }
	for try in 1 2 3; do
		system_enable_ipis && return 0
		[ "$test_failed" = 0 ] || return 1
	done
	[ "$enable_ok" = 1 ] || fail "$enable_msg"
	[ "$disable_ok" = 1 ] || fail "$disable_msg"
}

test_filter_numeric() {
	echo 'count == 2 || value == 4294967297' >"$EVENTS/example_int/filter" ||
		fail "filter refused"
	echo 1 >"$EVENTS/example_int/enable"
	echo 4 >"$FIRE"
	events_of example_int >/tmp/markers.out
	[ "$(wc -l </tmp/markers.out)" = 2 ] &&
	expect_line 'example_int: count=1 value=4294967297' /tmp/markers.out &&
	expect_line 'example_int: count=2 value=8589934594' /tmp/markers.out ||
		fail "numeric filter let through: $(cat /tmp/markers.out)"
	echo 'delta < -1' >"$EVENTS/example_small/filter" || fail "filter on a signed char refused"
	echo 1 >"$EVENTS/example_small/enable"
	echo 3 >"$FIRE"
	[ "$(events_of example_small)" = 'example_small: letter=c flags=f002 delta=-2' ] ||
		fail "signed filter: $(events_of example_small)"
}

test_filter_char() {
	echo 'letter == "c"' >"$EVENTS/example_small/filter" || fail "filter refused"
	echo 1 >"$EVENTS/example_small/enable"
	echo 5 >"$FIRE"
	[ "$(events_of example_small)" = 'example_small: letter=c flags=f002 delta=-2' ] ||
		fail "letter filter: $(events_of example_small)"
}

test_filter_string() {
	echo 'name == "two" || name ~ "th*"' >"$EVENTS/example_string/filter" ||
		fail "string filter refused"
	echo 1 >"$EVENTS/example_string/enable"
	echo 8 >"$FIRE"
	events_of example_string >/tmp/markers.out
	[ "$(grep -c 'name=two' /tmp/markers.out)" = 2 ] &&
	[ "$(grep -c 'name=three' /tmp/markers.out)" = 2 ] &&
	[ "$(wc -l </tmp/markers.out)" = 4 ] ||
		fail "string filter let through: $(cat /tmp/markers.out)"
}

test_trigger() {
	echo 'traceoff if count == 1' >"$EVENTS/example_int/trigger" ||
		fail "trigger refused"
	grep -q '^traceoff:unlimited if count == 1' "$EVENTS/example_int/trigger" ||
		fail "trigger not listed"
	echo 1 >"$EVENTS/example_int/enable"
	echo 4 >"$FIRE"
	[ "$(cat "$TRACEFS/tracing_on")" = 0 ] || fail "traceoff trigger did not fire"
	[ "$(events_of example_int | wc -l)" -le 2 ] ||
		fail "events recorded after traceoff"
	echo '!traceoff' >>"$EVENTS/example_int/trigger"
	echo 1 >"$TRACEFS/tracing_on"
}

test_long_string() {
	local text
	load test_markers_trace || return 1
	echo 1 >"$EVENTS/test_trace_long/enable"
	echo 1 >"$TEST_FIRE"
	text=$(events_of test_trace_long | sed 's/^test_trace_long: text=//')
	[ ${#text} = 255 ] || fail "expected 255 characters of a 300-character string, got ${#text}"
	[ -z "$(echo "$text" | tr -d x)" ] || fail "unexpected characters in $text"
}

# The string of test_markers_trace's test_str(): LEN characters 'a' + i % 26.
want_str() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "%c", 97 + i % 26
	}'
}

# Strings stored exactly, from any alignment, up to 255 characters, and
# up to the end of a page before an unmapped one; NULL and bad addresses
# as (null) and (fault), and no warning in the kernel log.
test_string_reads() {
	local e off len want n=0 dmesg_before
	unload test_markers_trace
	load test_markers_trace || return 1
	dmesg_before=$(dmesg | grep -cE 'WARNING|BUG|Oops')
	for e in test_trace_str_len test_trace_str_end test_trace_str_bad \
		 test_trace_str_stack; do
		echo 1 >"$EVENTS/$e/enable"
	done
	echo 1 >"$TEST_FIRE"
	for e in test_trace_str_len test_trace_str_end test_trace_str_bad \
		 test_trace_str_stack; do
		echo 0 >"$EVENTS/$e/enable"
	done
	events_of test_trace_str_len >/tmp/markers.len
	events_of test_trace_str_end >/tmp/markers.end
	for off in 0 1 2 3 4 5 6 7; do
		for len in $(seq 0 24) 254 255 256; do
			want=$(want_str $((len < 255 ? len : 255)))
			expect_line "test_trace_str_len: off=$off len=$len s=$want" \
				/tmp/markers.len || return 1
			n=$((n + 1))
		done
	done
	[ "$(wc -l </tmp/markers.len)" = "$n" ] ||
		fail "expected $n test_trace_str_len events"
	for len in $(seq 0 24); do
		want=$(want_str "$len")
		expect_line "test_trace_str_end: len=$len s=$want" \
			/tmp/markers.end || return 1
	done
	events_of test_trace_str_bad >/tmp/markers.out
	echo 'test_trace_str_bad: a=ok b=(null) c=(fault) d=(fault) e=(fault)' \
		>/tmp/markers.want
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected $(cat /tmp/markers.want), got: $(cat /tmp/markers.out)"
	events_of test_trace_str_stack >/tmp/markers.out
	echo 'test_trace_str_stack: i=42 a=one b=two c=three d=four e=(fault)' \
		>/tmp/markers.want
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected $(cat /tmp/markers.want), got: $(cat /tmp/markers.out)"
	[ "$(dmesg | grep -cE 'WARNING|BUG|Oops')" = "$dmesg_before" ] ||
		fail "the bad strings left a warning: $(dmesg | tail -20)"
}

# Events without strings whose arguments x86-64 reads from the register
# save area: all ints, all 8-byte, mixed sizes, and 5 ints and 5 8-byte
# values, the most it reads there; and one of 6 fields, read with
# va_arg(), whose conversions (%X, %o, %i, %hhx, %p, %zd) print as their
# format says (the pointer hashed, as a %p of a trace event).
test_fixed_slots() {
	local e events='test_trace_ints test_trace_longs test_trace_mixed
		test_trace_ints5 test_trace_longs5 test_trace_radix'
	unload test_markers_trace
	load test_markers_trace || return 1
	for e in $events; do
		echo 1 >"$EVENTS/$e/enable"
	done
	echo 1 >"$TEST_FIRE"
	for e in $events; do
		echo 0 >"$EVENTS/$e/enable"
	done
	for e in $events; do
		events_of "$e"
	done | sed -e 's/^\(test_trace_radix: .* e=\)[0-9a-f]\{1,16\} /\1PTR /' \
		-e 's/^\(test_trace_radix: .* e=\)(____ptrval____) /\1PTR /' \
		>/tmp/markers.out
	cat >/tmp/markers.want <<-EOF
	test_trace_ints: a=-1 b=4000000000 c=abcdef
	test_trace_longs: a=123456789abcdef0 b=-2
	test_trace_mixed: b=-3 h=65535 i=-7 l=-8
	test_trace_ints5: a=-1 b=3000000000 c=beef d=-4 e=5
	test_trace_longs5: a=-1 b=2199023255552 c=fedcba9876543210 d=-2 e=123456789abcdef
	test_trace_radix: a=ABCDEF b=13 c=-5 d=fe e=PTR f=-6
	EOF
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected $(cat /tmp/markers.want), got: $(cat /tmp/markers.out)"
}

test_fixed_layout() {
	local fmt=$EVENTS/test_trace_fixed/format
	load test_markers_trace || return 1
	expect_line '	field:signed char b;	offset:8;	size:1;	signed:1;' "$fmt" &&
	expect_line '	field:unsigned short h;	offset:10;	size:2;	signed:0;' "$fmt" &&
	expect_line '	field:int i;	offset:12;	size:4;	signed:1;' "$fmt" &&
	expect_line '	field:unsigned int x;	offset:16;	size:4;	signed:0;' "$fmt" &&
	expect_line '	field:unsigned long l;	offset:24;	size:8;	signed:0;' "$fmt" &&
	expect_line '	field:long long ll;	offset:32;	size:8;	signed:1;' "$fmt" ||
		return 1
	echo 1 >"$EVENTS/test_trace_fixed/enable"
	echo 1 >"$TEST_FIRE"
	echo 0 >"$EVENTS/test_trace_fixed/enable"
	events_of test_trace_fixed >/tmp/markers.out
	echo 'test_trace_fixed: b=-3 h=65535 i=-100000 x=deadbeef l=123456789a ll=-5' \
		>/tmp/markers.want
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected $(cat /tmp/markers.want), got: $(cat /tmp/markers.out)"
}

test_coexist_with_module_probe() {
	local before after
	load probe-example || return 1
	before=$(sed -n 's/^example_int total=\([0-9]*\).*/\1/p' "$DEBUGFS/probe-example/counts")
	echo 1 >"$EVENTS/example_int/enable" || fail "enable refused next to a module probe"
	echo 2 >"$FIRE"
	after=$(sed -n 's/^example_int total=\([0-9]*\).*/\1/p' "$DEBUGFS/probe-example/counts")
	[ "$((after - before))" = 2 ] ||
		fail "probe-example saw $((after - before)) events, expected 2"
	[ "$(events_of example_int | wc -l)" = 2 ] || fail "trace has not 2 example_int events"
	echo 0 >"$EVENTS/example_int/enable"
	grep -q '^example_int .* marker_example enabled ' "$TRACEFS/marker_sites" ||
		fail "disabling the event detached the module's probe"
	unload probe_example
	grep -q '^example_int .* marker_example disabled ' "$TRACEFS/marker_sites" ||
		fail "site still enabled with no probe"
}

test_module_going_while_enabled() {
	echo 1 >"$EVENTS/example_string/enable"
	echo 'count > 0' >"$EVENTS/example_int/filter"
	echo 1 >"$EVENTS/example_int/enable"
	echo 1 >"$FIRE"
	rmmod marker_example || fail "rmmod marker_example with its events enabled"
	[ ! -e "$EVENTS/example_int" ] || fail "events/markers/example_int is still there"
	! grep -q '^example_int ' "$TRACEFS/markers" || fail "example_int still listed"
	! grep -q 'markers:example' "$TRACEFS/set_event" || fail "set_event still lists it"
	load marker-example || return 1
	[ "$(cat "$EVENTS/example_int/enable")" = 0 ] || fail "the event came back enabled"
	[ "$(cat "$EVENTS/example_int/filter")" = none ] || fail "the event came back filtered"
	grep -q '^example_int .* marker_example disabled ' "$TRACEFS/marker_sites" ||
		fail "the site came back enabled"
}

test_shared_name_across_modules() {
	load test_markers_trace || return 1
	echo 1 >"$EVENTS/example_int/enable"
	rmmod marker_example || fail "rmmod marker_example"
	[ "$(cat "$EVENTS/example_int/enable")" = 1 ] ||
		fail "example_int lost its event with a site left in test_markers_trace"
	expect_marker example_int 'count %d value %llu' \
		'stable sites=1 conflicts=0 modules=test_markers_trace event' || return 1
	echo 1 >"$TEST_FIRE"
	[ "$(events_of example_int)" = 'example_int: count=-7 value=7' ] ||
		fail "expected count=-7 value=7 from test_markers_trace," \
			"got $(events_of example_int)"
	unload test_markers_trace
	[ ! -e "$EVENTS/example_int" ] || fail "event left after the last site went"
	load marker-example
}

test_no_events_without_module() {
	local e
	for e in example_int example_string example_ptr example_small \
		 example_noargs example_init; do
		[ ! -e "$EVENTS/$e" ] || fail "$e still has an event"
		! grep -q "^$e " "$TRACEFS/markers" || fail "$e still listed"
		! grep -q "^$e " "$TRACEFS/marker_sites" || fail "$e still has sites"
	done
	! echo markers:example_int >>"$TRACEFS/set_event" 2>/dev/null ||
		fail "set_event accepted a marker that is gone"
}

test_instance() {
	local inst=$TRACEFS/instances/markers_selftest
	rmdir "$inst" 2>/dev/null
	mkdir "$inst" || { fail "cannot create an instance"; return 1; }
	echo 1 >"$inst/events/markers/example_int/enable" ||
		fail "the instance refused to enable example_int"
	echo 'count == 1' >"$inst/events/markers/example_int/filter"
	echo 1 >"$EVENTS/example_int/enable"
	echo 3 >"$FIRE"
	[ "$(events_of example_int | wc -l)" = 3 ] ||
		fail "top level: $(events_of example_int | wc -l) events, expected 3"
	[ "$(sed -n 's/^.*: \(example_int:.*\)$/\1/p' "$inst/trace")" = \
	  'example_int: count=1 value=4294967297' ] ||
		fail "instance: $(cat "$inst/trace")"
	echo 0 >"$EVENTS/example_int/enable"
	grep -q '^example_int .* marker_example enabled ' "$TRACEFS/marker_sites" ||
		fail "disabling the top-level event disabled the instance's"
	# Removing the instance while its event is on detaches its probe.
	rmdir "$inst" || fail "rmdir of the instance"
	grep -q '^example_int .* marker_example disabled ' "$TRACEFS/marker_sites" ||
		fail "the site stayed enabled after the instance went"
}

# A real workload: processes forking, exiting, sleeping and waking each
# other (the scheduler and futex markers), and four of them firing the
# example markers $1 times each at once.
workload() {
	local i
	for i in 1 2 3 4; do
		(echo "$1" >"$FIRE"; sleep 0.1) &
	done
	wait
}

# Every marker event enabled, the scheduler's and futex's included, under
# a real workload, switched the way users switch them: the buffer cleared
# while they are on, tracing_on turned off and on, off again before the
# events are disabled (as reset_tracing does). Records written while
# tracing is off count as filtered; nothing may count as lost, and the
# ring buffer may have overwritten or dropped nothing.
test_stats_nothing_lost() {
	local lost filtered overrun commit dropped n
	for n in trace_lost trace_filtered perf_lost recursion_drops; do
		grep -q "^$n [0-9]*\$" "$TRACEFS/marker_stats" || fail "marker_stats lacks $n"
	done
	[ "$test_failed" = 0 ] || return 1
	lost=$(marker_stat trace_lost)
	filtered=$(marker_stat trace_filtered)
	echo 1 >"$EVENTS/enable" || fail "events/markers/enable refused 1"
	[ "$(cat "$EVENTS/sched_switch/enable")" = 1 ] || fail "sched_switch is not enabled"
	workload 50
	: >"$TRACEFS/trace"
	echo 0 >"$TRACEFS/tracing_on"
	workload 25
	echo 1 >"$TRACEFS/tracing_on"
	workload 50
	echo 0 >"$TRACEFS/tracing_on"
	echo 0 >"$EVENTS/enable"
	echo 1 >"$TRACEFS/tracing_on"
	overrun=$(rb_stat_sum overrun)
	commit=$(rb_stat_sum 'commit overrun')
	dropped=$(rb_stat_sum 'dropped events')
	echo "# trace_lost $lost -> $(marker_stat trace_lost)," \
		"trace_filtered $filtered -> $(marker_stat trace_filtered)," \
		"overrun $overrun, commit overrun $commit, dropped $dropped"
	[ "$(marker_stat trace_lost)" = "$lost" ] ||
		fail "$(($(marker_stat trace_lost) - lost)) records counted lost"
	[ $((overrun + commit + dropped)) = 0 ] ||
		fail "the ring buffer lost records: overrun $overrun," \
			"commit overrun $commit, dropped $dropped"
	# 4 * 25 iterations of 5 example markers fired while tracing was off
	[ $(($(marker_stat trace_filtered) - filtered)) -ge 500 ] ||
		fail "trace_filtered grew by $(($(marker_stat trace_filtered) - filtered))," \
			"expected at least 500"
	n=$(events_of example_int | wc -l)
	[ "$n" = 200 ] || fail "4 * 50 firings while tracing gave $n example_int events"
	[ "$(events_of sched_switch | wc -l)" -gt 0 ] || fail "no sched_switch events"
	[ "$(events_of sched_process_fork | wc -l)" -ge 4 ] ||
		fail "fewer than 4 sched_process_fork events"
}

# Records left out on purpose count as filtered, exactly, never as lost:
# tracing_on 0, set_event_pid naming another task, with and without a
# trigger with a condition (which makes the probe reserve the record
# before the pid test).
test_stats_filtered() {
	local lost filtered pid
	echo 1 >"$EVENTS/example_int/enable"
	lost=$(marker_stat trace_lost)
	filtered=$(marker_stat trace_filtered)
	echo 0 >"$TRACEFS/tracing_on"
	echo 30 >"$FIRE"
	echo 1 >"$TRACEFS/tracing_on"
	[ $(($(marker_stat trace_filtered) - filtered)) = 30 ] ||
		fail "tracing_on 0: trace_filtered grew by" \
			"$(($(marker_stat trace_filtered) - filtered)), expected 30"
	sleep 100 &
	pid=$!
	echo "$pid" >"$TRACEFS/set_event_pid" || fail "set_event_pid refused $pid"
	filtered=$(marker_stat trace_filtered)
	echo 20 >"$FIRE"
	[ $(($(marker_stat trace_filtered) - filtered)) = 20 ] ||
		fail "set_event_pid: trace_filtered grew by" \
			"$(($(marker_stat trace_filtered) - filtered)), expected 20"
	echo 'traceoff if count == 100000' >"$EVENTS/example_int/trigger"
	filtered=$(marker_stat trace_filtered)
	echo 10 >"$FIRE"
	[ $(($(marker_stat trace_filtered) - filtered)) = 10 ] ||
		fail "set_event_pid with a trigger: trace_filtered grew by" \
			"$(($(marker_stat trace_filtered) - filtered)), expected 10"
	kill "$pid"
	wait "$pid" 2>/dev/null
	: >"$TRACEFS/set_event_pid"
	[ -z "$(events_of example_int)" ] || fail "filtered records were written"
	[ "$(marker_stat trace_lost)" = "$lost" ] ||
		fail "$(($(marker_stat trace_lost) - lost)) filtered records counted lost"
}

# A histogram with timestamps keeps the records of filtered events out of
# ftrace's per-CPU buffer (no filter buffering): they are reserved in the
# ring buffer itself, the filter run there. The records the filter takes
# are written once, those it refuses are counted as filtered and not
# written, none as lost.
test_filter_unbuffered() {
	local lost filtered clock t
	clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$TRACEFS/trace_clock")
	echo 'hist:keys=common_pid:ts0=common_timestamp' \
		>"$EVENTS/example_noargs/trigger" ||
		fail "cannot add a histogram with a timestamp" || return 1
	echo 'count >= 2' >"$EVENTS/example_int/filter" || fail "filter refused"
	echo 1 >"$EVENTS/example_int/enable"
	: >"$TRACEFS/trace"
	lost=$(marker_stat trace_lost)
	filtered=$(marker_stat trace_filtered)
	echo 5 >"$FIRE"
	echo 0 >"$EVENTS/example_int/enable"
	events_of example_int | sed 's/ value=.*//' >/tmp/markers.out
	printf 'example_int: count=%s\n' 2 3 4 >/tmp/markers.want
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected counts 2 to 4, got: $(events_of example_int)"
	[ $(($(marker_stat trace_filtered) - filtered)) = 2 ] ||
		fail "trace_filtered grew by $(($(marker_stat trace_filtered) - filtered))," \
			"expected 2"
	[ "$(marker_stat trace_lost)" = "$lost" ] ||
		fail "$(($(marker_stat trace_lost) - lost)) records counted lost"
	t=$(grep '^hist:' "$EVENTS/example_noargs/trigger")
	echo "!${t% \[*\]}" >>"$EVENTS/example_noargs/trigger"
	echo "$clock" >"$TRACEFS/trace_clock"
}

# A record larger than a ring-buffer event (16 strings of 255 characters)
# is written with its strings cut, the last first, not lost: arg0 to arg14
# keep 255 characters, arg15 what fits.
test_record_too_large() {
	local lost line i len
	load test_markers_wide || return 1
	lost=$(marker_stat trace_lost)
	echo 1 >"$EVENTS/test_trace_wide/enable"
	echo 1 >"$DEBUGFS/test_markers_wide/fire"
	line=$(events_of test_trace_wide)
	[ -n "$line" ] || fail "no test_trace_wide event"
	[ "$(marker_stat trace_lost)" = "$lost" ] || fail "the large record counted lost"
	[ "$test_failed" = 0 ] || return 1
	set -- ${line#test_trace_wide:}
	[ $# = 16 ] || fail "$# fields in $line"
	for i in $(seq 0 15); do
		case "$1" in
		"arg$i="*) ;;
		*) fail "field $i is $1"; return 1 ;;
		esac
		len=$((${#1} - ${#i} - 4))
		[ -z "$(echo "${1#*=}" | tr -d w)" ] || fail "arg$i: unexpected characters"
		if [ "$i" -lt 15 ]; then
			[ "$len" = 255 ] || fail "arg$i kept $len characters, expected 255"
		else
			[ "$len" -gt 0 ] && [ "$len" -lt 255 ] ||
				fail "arg15 kept $len characters, expected fewer than 255"
		fi
		shift
	done
}

# A kernel user holds an event (trace_get_event_file()) while the module
# with its sites goes: the event stays, usable, an orphan, takes the sites
# back when they return with the same format, and goes once released.
test_held_event() {
	load test_markers_hold || return 1
	echo 'hold example_int' >"$HOLD" || fail "hold example_int refused"
	[ "$(cat "$HOLD")" = 'held example_int enabled=0' ] || fail "control: $(cat "$HOLD")"
	rmmod marker_example || fail "rmmod marker_example while its event is held"
	[ -d "$EVENTS/example_int" ] || fail "the held event went with the sites"
	[ ! -e "$EVENTS/example_string" ] || fail "example_string, not held, outlived its sites"
	! grep -q '^example_int ' "$TRACEFS/markers" || fail "example_int listed without sites"
	[ "$test_failed" = 0 ] || return 1
	echo enable >"$HOLD" || fail "enabling the held event failed"
	[ "$(cat "$HOLD")" = 'held example_int enabled=1' ] &&
	[ "$(cat "$EVENTS/example_int/enable")" = 1 ] ||
		fail "the held event is not enabled: $(cat "$HOLD")"
	load marker-example || return 1
	expect_marker example_int 'count %d value %llu' \
		'stable sites=1 conflicts=0 modules=marker_example event' || return 1
	grep -q '^example_int .* marker_example enabled ' "$TRACEFS/marker_sites" ||
		fail "the returning site is not enabled for the held event"
	echo 2 >"$FIRE"
	[ "$(events_of example_int | wc -l)" = 2 ] ||
		fail "expected 2 example_int events, got $(events_of example_int | wc -l)"
	echo disable >"$HOLD"
	[ "$(cat "$EVENTS/example_int/enable")" = 0 ] || fail "disable left the event on"
	rmmod marker_example || fail "second rmmod marker_example"
	[ -d "$EVENTS/example_int" ] || fail "the held event went at the second unload"
	echo release >"$HOLD" || fail "release failed"
	wait_for 5 test ! -e "$EVENTS/example_int" ||
		fail "the event stayed after the last reference went"
	unload test_markers_hold
	load marker-example
}

# An event held in soft mode by a trigger of another instance when its
# sites go stays whole: the top level's enabled event is left enabled and
# records again when the sites return, the markers are not rescanned over
# and over while it is held (a kprobe on marker_iterate_names counts the
# rescans), and it goes once the trigger is removed.
test_soft_mode_orphan() {
	local inst=$TRACEFS/instances/markers_soft n
	mkdir "$inst" || fail "cannot make an instance" || return 1
	echo 1 >"$EVENTS/example_int/enable"
	echo traceon >"$inst/events/markers/example_int/trigger" ||
		fail "the instance refused a traceon trigger"
	rmmod marker_example || fail "rmmod marker_example"
	[ -d "$EVENTS/example_int" ] || fail "the event held in soft mode went"
	[ "$(cat "$EVENTS/example_int/enable" 2>&1)" = 1 ] ||
		fail "the top level's event was disabled though the event stays"
	if echo 'p:markers_rescan marker_iterate_names' >>"$TRACEFS/kprobe_events"; then
		echo 1 >"$TRACEFS/events/kprobes/markers_rescan/enable"
		sleep 3
		echo 0 >"$TRACEFS/events/kprobes/markers_rescan/enable"
		n=$(grep -c 'markers_rescan:' "$TRACEFS/trace")
		echo '-:markers_rescan' >>"$TRACEFS/kprobe_events"
		[ "$n" = 0 ] ||
			fail "$n rescans of every marker in 3 s while the orphan is held"
	else
		fail "cannot add a kprobe event on marker_iterate_names"
	fi
	load marker-example
	: >"$TRACEFS/trace"
	echo 2 >"$FIRE"
	[ "$(events_of example_int | wc -l)" = 2 ] ||
		fail "the kept event recorded $(events_of example_int | wc -l) of 2" \
			"firings once its sites returned"
	rmmod marker_example || fail "second rmmod marker_example"
	echo '!traceon' >>"$inst/events/markers/example_int/trigger"
	wait_for 5 test ! -e "$EVENTS/example_int" ||
		fail "the orphan stayed after its trigger went"
	rmdir "$inst" || fail "cannot remove the instance"
	load marker-example
}

N63=test_markers_name_sixty_three_characters_long_abcdefghijklmnopq

# A name of 63 characters, the longest allowed, has its event; a module
# with a name of 70 whose first 63 characters are the same is refused
# (ENAMETOOLONG) and changes nothing: no name is ever cut.
test_long_names() {
	local out
	load test_markers_name63 || return 1
	expect_marker "$N63" 'value %u' \
		'stable sites=1 conflicts=0 modules=test_markers_name63 event' || return 1
	echo 1 >"$EVENTS/$N63/enable" || fail "enable the 63-character event"
	echo 2 >"$DEBUGFS/test_markers_name63/fire"
	if out=$(insmod "$MODULE_DIR/test_markers_name70.ko" 2>&1); then
		unload test_markers_name70
		fail "a module with a 70-character marker name loaded"
	fi
	case "$out" in
	*"File name too long"*) ;;
	*) fail "insmod failed with '$out', expected ENAMETOOLONG" ;;
	esac
	[ "$(cat "$EVENTS/$N63/enable")" = 1 ] || fail "the 63-character event was switched off"
	grep -q "^$N63 .* test_markers_name63 enabled " "$TRACEFS/marker_sites" ||
		fail "the 63-character site is not enabled"
	[ "$(grep -c "^$N63" "$TRACEFS/markers")" = 1 ] ||
		fail "markers lists other names starting with the 63 characters"
	[ "$(ls -d "$EVENTS/$N63"* | wc -l)" = 1 ] ||
		fail "events beside the 63-character one: $(ls -d "$EVENTS/$N63"*)"
	echo 3 >"$DEBUGFS/test_markers_name63/fire"
	events_of "$N63" >/tmp/markers.out
	printf "$N63: value=%s\n" 0 1 0 1 2 >/tmp/markers.want
	cmp -s /tmp/markers.out /tmp/markers.want ||
		fail "expected values 0 1 0 1 2, got: $(cat /tmp/markers.out)"
	unload test_markers_name63
}

# A format conflict heals when the format-checked probe holding the old
# format goes: test_markers_conflict's example_int ("count %u value %llx")
# conflicts while probe-example holds "count %d value %llu" with
# marker-example gone; once probe-example unloads, the event of
# example_int has the new format and records the module's site.
test_conflict_heals() {
	load probe-example || return 1
	rmmod marker_example || fail "rmmod marker_example"
	load test_markers_conflict || return 1
	grep -q '^example_int .* test_markers_conflict conflict ' "$TRACEFS/marker_sites" ||
		fail "the site does not conflict with probe-example's format"
	[ ! -e "$EVENTS/example_int" ] || fail "an event for a name whose sites all conflict"
	expect_marker example_int '' 'stable sites=0 conflicts=1 modules=- no-event:conflict'
	[ "$test_failed" = 0 ] || return 1
	unload probe_example
	expect_new_format_event
	unload test_markers_conflict
	load marker-example
}

require
load marker-example || exit 1

ktap_print_header
ktap_set_plan 34
run_test "listing files are root-only" test_listing_modes
run_test "markers lists each name with format, stability, sites, modules" test_listing_markers
run_test "marker_sites lists each site with symbol, module, state; addresses as kallsyms" \
	test_listing_sites
run_test "debug label, no event for a format that does not parse or has 17 fields" \
	test_listing_debug_and_bad_format
run_test "no event for a field named common_*" test_reserved_field_name
unload test_markers_trace
run_test "events/markers/<name> has enable, format, filter, trigger, id" test_event_files
run_test "format lists the fields with C types, offsets, sizes" test_format
run_test "filter on a %c field" test_filter_char
run_test "set_event markers:<name>: site enabled, values printed" test_set_event_and_output
run_test "events read from trace_pipe" test_trace_pipe
run_test "set_event globs; string, char, short, signed char, pointer fields" \
	test_glob_and_field_kinds
run_test "enable file and the system's enable" test_enable_file_and_system
run_test "the system's enable patches all sites in one batch" \
	test_system_enable_one_batch
run_test "numeric filters" test_filter_numeric
run_test "string filters" test_filter_string
run_test "triggers" test_trigger
run_test "strings longer than 255 bytes are cut" test_long_string
unload test_markers_trace
run_test "an event without strings: one field of each size" test_fixed_layout
run_test "events without strings, arguments in registers; every conversion" \
	test_fixed_slots
run_test "strings exact at any alignment, up to an unmapped page; bad ones (fault)" \
	test_string_reads
unload test_markers_trace
run_test "an event coexists with a module probe" test_coexist_with_module_probe
run_test "module going while its events are enabled" test_module_going_while_enabled
run_test "a name with sites in two modules keeps its event" test_shared_name_across_modules
run_test "an event in an instance and at the top level" test_instance
run_test "marker_stats: every marker under a workload, nothing lost" test_stats_nothing_lost
run_test "marker_stats: filtered records counted as filtered" test_stats_filtered
if [ -f "$EVENTS/example_int/hist" ]; then
	run_test "a filter without ftrace's per-CPU buffer: each record counted once" \
		test_filter_unbuffered
else
	skip_test "a filter without ftrace's per-CPU buffer: each record counted once" \
		"no CONFIG_HIST_TRIGGERS"
fi
run_test "a record too large for the ring buffer has its strings cut" test_record_too_large
unload test_markers_wide
run_test "a held event outlives its sites, goes once released" test_held_event
run_test "an event held in soft mode by another instance keeps its files" \
	test_soft_mode_orphan
run_test "63-character names work; a 70-character one is refused" test_long_names
run_test "an event takes the new format once a conflict heals" test_conflict_heals
unload marker_example
run_test "no marker_example events without the module" test_no_events_without_module
load marker-example
run_test "events back after reload" test_listing_markers
markers_finished
