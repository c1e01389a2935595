#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Show a marker site turn from a NOP into a jump and back: load
# marker-example, attach probe-example, fire the markers, detach, reading
# the site's bytes from tracefs's marker_sites. Then enable the event
# markers:example_int from the shell and read it from the trace file and,
# when installed, trace-cmd.
# Then show the scheduler and futex markers: load sched-probes and
# futex-probes, record the events of a small workload and print them and
# the modules' counters.
#
# Argument:
#   MODULE_DIR  directory holding marker-example.ko, probe-example.ko,
#               sched-probes.ko and futex-probes.ko, and optionally
#               test_markers_record.ko (the selftests' event recorder)
#               (default: the current directory)
#
# Environment:
#   SELFTEST    the sched_futex_test binary, run as the futex workload
#               (default: MODULE_DIR/../selftests/sched_futex_test; the
#               futex part is skipped without it)
#
# Needs root, CONFIG_MARKERS_TRACE for the listing of sites, and debugfs
# and tracefs (mounted on /sys/kernel/debug and /sys/kernel/tracing if
# they are not).
# Exits non-zero if a step fails or a site does not hold what it should.

set -eu

dir=${1:-.}
debugfs=/sys/kernel/debug
tracefs=/sys/kernel/tracing
sites=$tracefs/marker_sites
marker=example_int

fail() {
	echo "marker-demo: FAIL: $*" >&2
	exit 1
}

step() {
	echo
	echo "== $*"
}

# Unload what the demo loaded, whatever happened.
cleanup() {
	rmmod probe_example 2>/dev/null || true
	rmmod marker_example 2>/dev/null || true
	rmmod test_markers_record 2>/dev/null || true
	rmmod futex_probes 2>/dev/null || true
	rmmod sched_probes 2>/dev/null || true
}

# Print the bytes of the site of $marker in marker_example and check they
# are what $1 says: "nop" (the NOP of the site's length, 2 or 5 bytes) or
# "jmp" (JMP rel8 or rel32 to the listed target).
# A marker_sites line: name symbol+0xoff module state bytes code target size.
show_site() {
	line=$(grep "^$marker [^ ]* marker_example " "$sites") ||
		fail "no site of $marker in $sites"
	set -f
	# shellcheck disable=SC2086 # splitting is the point
	set -- "$1" $line
	set +f
	want=$1 state=$5 bytes=$6 code=$7 target=$8 size=$9
	pretty=$(echo "$bytes" | sed 's/../& /g; s/ $//')
	case $want/$size in
	nop/2 | nop/5)
		nop=0f1f440000
		[ "$size" = 5 ] || nop=6690
		if [ "$bytes" != $nop ] || [ "$state" != disabled ]; then
			fail "site $marker: $pretty ($state), expected NOP$size, disabled"
		fi
		echo "site $marker: $pretty (NOP$size)"
		;;
	jmp/2 | jmp/5)
		b1=${bytes%"${bytes#??}"}
		rest=${bytes#??}
		if [ "$state" != enabled ] || { [ "$size" = 2 ] && [ "$b1" != eb ]; } ||
			{ [ "$size" = 5 ] && [ "$b1" != e9 ]; }; then
			fail "site $marker: $pretty ($state), expected JMP, enabled"
		fi
		# target = code + size + displacement (little-endian, signed),
		# checked on the low 32 bits so that any shell's arithmetic
		# will do.
		rel=0
		while [ -n "$rest" ]; do
			rel=$((rel * 256 + 0x${rest#"${rest%??}"}))
			rest=${rest%??}
		done
		[ "$size" = 5 ] || rel=$(((rel ^ 0x80) - 0x80))
		code_lo=$((0x${code#0x????????}))
		target_lo=$((0x${target#0x????????}))
		[ $(((code_lo + size + rel - target_lo) & 0xffffffff)) -eq 0 ] ||
			fail "site $marker: $pretty does not jump to $target"
		echo "site $marker: $pretty (JMP to $target)"
		;;
	*) fail "site $marker: $pretty, a $size-byte site ($state)" ;;
	esac
}

[ "$(id -u)" -eq 0 ] || fail "run as root"
[ -d "$debugfs/tracing" ] || mount -t debugfs none "$debugfs" 2>/dev/null || true
[ -e "$sites" ] || mount -t tracefs nodev "$tracefs" 2>/dev/null || true
[ -e "$sites" ] || fail "$sites is missing: no CONFIG_MARKERS_TRACE?"
for m in marker-example probe-example sched-probes futex-probes; do
	[ -f "$dir/$m.ko" ] || fail "$dir/$m.ko is missing"
done

trap cleanup EXIT
cleanup

step "insmod marker-example: no probe, the site is a 5-byte NOP"
insmod "$dir/marker-example.ko" || fail "insmod marker-example"
show_site nop

step "insmod probe-example: probes attached, the site jumps to them"
insmod "$dir/probe-example.ko" || fail "insmod probe-example"
show_site jmp

step "fire every marker 3 times"
echo 3 >"$debugfs/marker-example/fire" || fail "fire"

step "probe-example/events"
cat "$debugfs/probe-example/events" || fail "read events"

step "probe-example/counts"
cat "$debugfs/probe-example/counts" || fail "read counts"

step "rmmod probe-example: no probe left, the NOP is back"
rmmod probe_example || fail "rmmod probe-example"
show_site nop

event=$tracefs/events/markers/$marker
if [ -d "$event" ]; then
	step "echo 1 > $event/enable; fire 3 times; grep $marker: trace"
	echo 1 >"$event/enable" || fail "enable $marker"
	show_site jmp
	echo 3 >"$debugfs/marker-example/fire" || fail "fire"
	grep "$marker:" "$tracefs/trace" || fail "no $marker event in the trace"
	echo 0 >"$event/enable"
	: >"$tracefs/trace"
	show_site nop

	if command -v trace-cmd >/dev/null; then
		step "trace-cmd record -e markers:$marker; trace-cmd report"
		(cd /tmp && trace-cmd record -o /tmp/marker-demo.dat \
			-e "markers:$marker" \
			sh -c "echo 3 >$debugfs/marker-example/fire") >/dev/null ||
			fail "trace-cmd record"
		trace-cmd report -i /tmp/marker-demo.dat | grep "$marker:" ||
			fail "trace-cmd report shows no $marker event"
		rm -f /tmp/marker-demo.dat
	fi
fi

step "rmmod marker-example"
rmmod marker_example || fail "rmmod marker-example"

step "insmod sched-probes and futex-probes: the sched and futex markers jump"
insmod "$dir/sched-probes.ko" || fail "insmod sched-probes"
insmod "$dir/futex-probes.ko" || fail "insmod futex-probes"
grep -E '^(sched|futex)_[a-z_]+ [^ ]+ vmlinux ' "$sites" ||
	fail "no sched or futex sites in $sites"

record=$debugfs/test_markers_record
if [ -f "$dir/test_markers_record.ko" ]; then
	insmod "$dir/test_markers_record.ko" || fail "insmod test_markers_record"
fi

step "workload: this shell runs sleep 0.1 three times"
[ ! -d "$record" ] || echo $$ >"$record/tgid"
for _ in 1 2 3; do
	sleep 0.1
done
if [ -d "$record" ]; then
	echo 0 >"$record/tgid"
	step "this shell's scheduler events (test_markers_record/events)"
	grep -E '^sched_' "$record/events" | head -n 20
fi

step "sched-probes/switches"
cat "$debugfs/sched-probes/switches" || fail "read switches"

step "sched-probes/latency (lo hi count, ns)"
cat "$debugfs/sched-probes/latency" || fail "read latency"

selftest=${SELFTEST:-$dir/../selftests/sched_futex_test}
if [ -x "$selftest" ]; then
	step "workload: $selftest -t futex_pi -t futex_requeue"
	"$selftest" -t futex_pi -t futex_requeue >/tmp/marker-demo.out 2>&1 ||
		{ cat /tmp/marker-demo.out; fail "$selftest failed"; }
	grep -E '^(ok|not ok)' /tmp/marker-demo.out
	if [ -d "$record" ]; then
		step "futex events of its last test (test_markers_record/events)"
		grep -E '^futex_' "$record/events" | head -n 20
	fi
else
	echo "marker-demo: no $selftest: no futex workload"
fi

step "futex-probes/stats"
cat "$debugfs/futex-probes/stats" || fail "read stats"

step "rmmod sched-probes and futex-probes: the NOPs are back"
rmmod test_markers_record 2>/dev/null || true
rmmod futex_probes || fail "rmmod futex-probes"
rmmod sched_probes || fail "rmmod sched-probes"
grep -E '^(sched|futex)_[a-z_]+ [^ ]+ vmlinux ' "$sites" | grep -v ' disabled ' &&
	fail "sched or futex sites still enabled"

echo
echo "marker-demo: ok"
