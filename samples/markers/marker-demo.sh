#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Show a marker site turn from a NOP into a jump and back: load
# marker-example, attach probe-example, fire the markers, detach. With
# CONFIG_MARKERS_TRACE, then enable the event markers:example_int from the
# shell and read it from the trace file and, when installed, trace-cmd.
#
# Argument:
#   MODULE_DIR  directory holding marker-example.ko and probe-example.ko
#               (default: the current directory)
#
# Needs root and debugfs (mounted on /sys/kernel/debug if it is not).
# Exits non-zero if a step fails or a site does not hold what it should.

set -eu

dir=${1:-.}
debugfs=/sys/kernel/debug
sites=$debugfs/markers/sites
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
}

# Print the bytes of the site of $marker in marker_example and check they
# are what $1 says: "nop" (NOP5) or "jmp" (JMP rel32 to the listed target).
# A sites line: name module state code target bytes symbol.
show_site() {
	line=$(grep "^$marker marker_example " "$sites") ||
		fail "no site of $marker in $sites"
	# Split the line into words; the symbol column has [module] in it,
	# which must not be taken for a glob.
	set -f
	# shellcheck disable=SC2086 # splitting is the point
	set -- "$1" $line
	set +f
	want=$1 state=$4 code=$5 target=$6 bytes=$7
	b1=${bytes%????????}
	rest=${bytes#??}
	b2=${rest%??????}
	rest=${rest#??}
	b3=${rest%????}
	rest=${rest#??}
	b4=${rest%??}
	b5=${rest#??}
	pretty="$b1 $b2 $b3 $b4 $b5"

	case $want in
	nop)
		if [ "$bytes" != 0f1f440000 ] || [ "$state" != disabled ]; then
			fail "site $marker: $pretty ($state), expected NOP5, disabled"
		fi
		echo "site $marker: $pretty (NOP5)"
		;;
	jmp)
		if [ "$b1" != e9 ] || [ "$state" != enabled ]; then
			fail "site $marker: $pretty ($state), expected JMP, enabled"
		fi
		# target = code + 5 + rel32, checked on the low 32 bits so
		# that any shell's arithmetic will do.
		rel=$((0x$b5$b4$b3$b2))
		code_lo=$((0x${code#0x????????}))
		target_lo=$((0x${target#0x????????}))
		[ $(((code_lo + 5 + rel - target_lo) & 0xffffffff)) -eq 0 ] ||
			fail "site $marker: $pretty does not jump to $target"
		echo "site $marker: $pretty (JMP rel32 to $target)"
		;;
	esac
}

[ "$(id -u)" -eq 0 ] || fail "run as root"
[ -e "$sites" ] || mount -t debugfs none "$debugfs" 2>/dev/null || true
[ -e "$sites" ] || fail "$sites is missing: no CONFIG_MARKERS or DEBUG_FS?"
for m in marker-example probe-example; do
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

tracefs=/sys/kernel/tracing
event=$tracefs/events/markers/$marker
[ -d "$tracefs/events" ] || mount -t tracefs nodev "$tracefs" 2>/dev/null || true
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

echo
echo "marker-demo: ok"
