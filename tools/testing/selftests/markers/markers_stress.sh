#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Markers under load, run concurrently (test_modules/test_markers_stress.c
# and test_markers_stress_mod.c):
#   - the hot site: a kthread per CPU fires test_stress_hot in a tight loop
#     while a kthread attaches and detaches a counting probe STRESS_CYCLES
#     times (C API and batch API in turn), this script enables and
#     disables the event markers:test_stress_hot through tracefs, and
#     markers_load runs futex and pipe ping-pongs and sched_yield() on
#     every CPU; no probe call is lost or extra outside the attach/detach
#     window;
#   - meanwhile, test_markers_stress_probe, whose probe on test_stress_hot
#     lives in its own text, is loaded and unloaded in a loop: no oops;
#   - the control case: each hot fire is followed by a call through a
#     static call that a kthread retargets all the while (the kernel's own
#     patching of hot code, no marker involved): every call arrives;
#   - hard IRQ, softirq and NMI: an hrtimer, a tasklet and NMIs sent to the
#     other CPU fire a marker each, with a counting probe and the event
#     enabled in the trace instance "stress": every fire is counted once by
#     the probe (phase A, with the rest) and, in STRESS_SECONDS alone
#     afterwards (phase B), recorded once or reported overrun;
#   - STRESS_LOADS load/unload cycles of test_markers_stress_mod while a
#     probe is attached to its marker's name, its event is enabled in the
#     instance "stressmod" and read through trace_pipe: two probe calls per
#     cycle; no more events than unloads (each unload of a module whose
#     event was enabled resets every ring buffer, so a reader may miss some);
#     and perf stat counts the event all along: as many as probe calls;
#   - accounting: with a counting probe attached and the event enabled in
#     a small instance buffer, a kthread per CPU fires test_stress_hot
#     STRESS_BURST times: fires = probe calls = events recorded + events
#     the ring buffer overwrote or dropped + records it refused;
#   - at the end, every site's bytes match its state (a 5-byte NOP when
#     disabled, a JMP to its target when enabled).
# Prints a table of what it did and found, as TAP comments ("# | ...").
# The kernel log is scanned by the harness that reads the console.
#
# Environment (defaults: a short run for make check):
#   STRESS_CYCLES   attach/detach cycles of the hot-site probe (200)
#   STRESS_LOADS    load/unload cycles of the module (20)
#   STRESS_SECONDS  least seconds the IRQ, softirq and NMI sources run (5)
#   STRESS_BURST    fires per CPU of the accounting burst (20000)

set -u
. "$(dirname "$0")/markers_lib.sh"

CYCLES=${STRESS_CYCLES:-200}
LOADS=${STRESS_LOADS:-20}
SECONDS_MIN=${STRESS_SECONDS:-5}
BURST=${STRESS_BURST:-20000}
STRESS=$DEBUGFS/test_markers_stress
PROBE=$DEBUGFS/test_markers_probe
INST=$TRACEFS/instances/stress
MINST=$TRACEFS/instances/stressmod
TMP=/tmp/markers_stress

# field NAME LINE: the value after NAME in a "name value ..." line.
field() {
	echo "$2" | tr ' ' '\n' | sed -n "/^$1\$/{n;p;q}"
}

row() {
	printf '# | %-38s | %s\n' "$1" "$2"
}

# The tracefs face of the hot site: enable/disable the event until the
# hot-site run ends; the number of toggles goes to $TMP/toggles.
toggle_hot_event() {
	local n=0
	while grep -q '^running 1' "$STRESS/hot"; do
		echo 1 >"$EVENTS/test_stress_hot/enable" || break
		echo 0 >"$EVENTS/test_stress_hot/enable" || break
		n=$((n + 1))
	done
	echo "$n" >"$TMP/toggles"
}

# Load and unload test_markers_stress_probe while the hot-site run lasts;
# "cycles errors" to $TMP/probe_loads.
probe_module_cycles() {
	local n=0 bad=0
	while grep -q '^running 1' "$STRESS/hot"; do
		insmod "$MODULE_DIR/test_markers_stress_probe.ko" || bad=$((bad + 1))
		rmmod test_markers_stress_probe || bad=$((bad + 1))
		n=$((n + 1))
	done
	echo "$n $bad" >"$TMP/probe_loads"
}

# Load and unload the module STRESS_LOADS times; counts to $TMP/loads.
load_cycles() {
	local i=0 enabled=0 bad=0
	while [ "$i" -lt "$LOADS" ]; do
		insmod "$MODULE_DIR/test_markers_stress_mod.ko" || bad=$((bad + 1))
		wait_for 5 test -e "$MINST/events/markers/test_stress_mod/enable"
		if echo 1 >"$MINST/events/markers/test_stress_mod/enable" 2>/dev/null; then
			enabled=$((enabled + 1))
		fi
		rmmod test_markers_stress_mod || bad=$((bad + 1))
		i=$((i + 1))
	done
	echo "$i $enabled $bad" >"$TMP/loads"
}

# recorded EVENT: lines of EVENT in the instance's trace.
recorded() {
	grep -c " $1:" "$INST/trace" || true
}

# Every site of every marker: the NOP of its length when disabled, JMP
# rel8 or rel32 to its target when enabled. Prints "checked mismatches".
check_sites() {
	local name mod state code target size bytes rest rel want n=0 bad=0
	while read -r name sym mod state bytes code target size rest; do
		case $state/$size in
		disabled/2) want=6690 ;;
		disabled/*) want=0f1f440000 ;;
		enabled/2)
			want=$(printf 'eb%02x' $(((target - code - 2) & 255)))
			;;
		enabled/*)
			rel=$(((target - code - 5) & 0xffffffff))
			want=$(printf 'e9%02x%02x%02x%02x' $((rel & 255)) \
				$(((rel >> 8) & 255)) $(((rel >> 16) & 255)) \
				$(((rel >> 24) & 255)))
			;;
		*) continue ;;
		esac
		n=$((n + 1))
		if [ "$bytes" != "$want" ]; then
			bad=$((bad + 1))
			echo "# site $name ($mod, $state) at $code: $bytes, expected $want" >&2
		fi
	done <"$TRACEFS/marker_sites"
	echo "$n $bad"
}

require
[ -f "$MODULE_DIR/test_markers_stress.ko" ] ||
	{ ktap_skip_all "no test_markers_stress.ko"; exit "$KSFT_SKIP"; }
ktap_print_header
ktap_set_plan 8
rm -rf "$TMP"
mkdir -p "$TMP"
unload test_markers_stress_mod
load test_markers_stress
load test_markers_probe
rmdir "$INST" "$MINST" 2>/dev/null
mkdir "$INST" "$MINST"
wait_for 5 test -e "$INST/events/markers/test_stress_nmi/enable" ||
	echo "# no event markers:test_stress_nmi in the instance"
echo 4096 >"$INST/buffer_size_kb"
for e in hardirq softirq nmi; do
	echo 1 >"$INST/events/markers/test_stress_$e/enable"
done
# perf stat counts markers:test_stress_mod across every module cycle: the
# event exists while the module is loaded, and perf's reference keeps it
# while the module comes and goes. perf opens its event on each CPU, which
# enables the site, and only then turns counting on: a fire in between
# reaches the event but is not counted (seen on the sanitizer kernel).
# Its first interval line (-I) is printed once it counts, so the counting
# probe is registered after that line; the count is the intervals' sum.
insmod "$MODULE_DIR/test_markers_stress_mod.ko"
perf stat -a -I 1000 -x, -e markers:test_stress_mod -o "$TMP/perfstat" &
perf=$!
wait_for 60 grep -qs ',markers:test_stress_mod,' "$TMP/perfstat" ||
	echo "# perf stat did not count markers:test_stress_mod"
grep -q '^test_stress_mod .* enabled ' "$TRACEFS/marker_sites" ||
	echo "# perf stat did not enable markers:test_stress_mod's site"
echo "test_stress_mod phase %d" >"$PROBE/register"
rmmod test_markers_stress_mod
start=$(date +%s)

# Phase A: everything at once. Unloading a module whose event was
# enabled resets every ring buffer (as for any module's trace events), so
# the unload events are read live from trace_pipe, and the IRQ sources'
# events are counted in phase B, with no module going.
cat "$MINST/trace_pipe" >"$TMP/modpipe" &
reader=$!
echo 1 >"$STRESS/irq"
echo "$CYCLES" >"$STRESS/hot"
"$(dirname "$0")/markers_load" >"$TMP/load" &
loader=$!
toggle_hot_event &
toggler=$!
probe_module_cycles &
prober=$!
load_cycles &
wait $toggler $prober $!
while grep -q '^running 1' "$STRESS/hot"; do
	sleep 1
done
hot_took=$(($(date +%s) - start))
kill -TERM "$loader"
wait "$loader"
echo 0 >"$STRESS/irq"
irq_a=$(cat "$STRESS/irq")
sleep 1
kill "$reader"
wait "$reader" 2>/dev/null
kill -INT "$perf"
wait "$perf"
perf_count=$(awk -F, '$4 == "markers:test_stress_mod" { n++; s += $2 }
	END { if (n) print s }' "$TMP/perfstat")
# Phase B: the IRQ sources alone, every event accounted for.
: >"$INST/trace"
echo 1 >"$STRESS/irq"
sleep "$SECONDS_MIN"
echo 0 >"$STRESS/irq"
echo 0 >"$EVENTS/test_stress_hot/enable"
for e in hardirq softirq nmi; do
	echo 0 >"$INST/events/markers/test_stress_$e/enable"
done
overrun=$(rb_stat_sum overrun "$INST")
rec_hard=$(recorded test_stress_hardirq)
rec_soft=$(recorded test_stress_softirq)
rec_nmi=$(recorded test_stress_nmi)

# Phase C: every fire of a burst accounted for, in a buffer small enough
# to overflow.
mod_calls=$(cat "$PROBE/hits")
echo "test_stress_mod" >"$PROBE/unregister"
echo 0 >"$INST/tracing_on"
echo 64 >"$INST/buffer_size_kb"
: >"$INST/trace"
echo 1 >"$INST/events/markers/test_stress_hot/enable"
echo "test_stress_hot cpu %d" >"$PROBE/register"
lost0=$(marker_stat trace_lost)
drops0=$(marker_stat recursion_drops)
echo 1 >"$INST/tracing_on"
echo "$BURST" >"$STRESS/burst"
echo 0 >"$INST/tracing_on"
echo "test_stress_hot" >"$PROBE/unregister"
echo 0 >"$INST/events/markers/test_stress_hot/enable"
c_fired=$(sed -n 's/^fired //p' "$STRESS/burst")
c_calls=$(($(cat "$PROBE/hits") - mod_calls))
c_lost=$(($(marker_stat trace_lost) - lost0))
c_drops=$(($(marker_stat recursion_drops) - drops0))
c_overrun=$(($(rb_stat_sum overrun "$INST") + $(rb_stat_sum 'commit overrun' "$INST") + \
	$(rb_stat_sum 'dropped events' "$INST")))
c_entries=$(rb_stat_sum entries "$INST")
c_recorded=$(recorded test_stress_hot)
took=$(($(date +%s) - start))

hot=$(cat "$STRESS/hot")
irq=$(cat "$STRESS/irq")
read -r loads enabled load_errors <"$TMP/loads"
read -r probe_loads probe_load_errors <"$TMP/probe_loads"
toggles=$(cat "$TMP/toggles")
load=$(cat "$TMP/load")
rec_mod=$(grep -c ' test_stress_mod: phase=2' "$TMP/modpipe" || true)
sites_off=$(check_sites)
echo 1 >"$EVENTS/test_stress_hot/enable"
sites_on=$(check_sites)
hot_site_on=$(grep -c '^test_stress_hot .* enabled ' "$TRACEFS/marker_sites")
echo 0 >"$EVENTS/test_stress_hot/enable"
drops=$(marker_stat recursion_drops)

# h NAME, q NAME: a counter of the hot-site and of the IRQ run.
h() { field "$1" "$hot"; }
q() { field "$1" "$irq"; }
a() { field "$1" "$irq_a"; }

cycles=$(h cycles)
row "run" "${took} s, $(grep -c ^processor /proc/cpuinfo) CPUs"
row "hot: probe attach/detach cycles" "$cycles (errors $(h errors))"
row "hot: cycles that waited, detached" "$(h waits)"
row "hot: tracefs enable/disable pairs" "$toggles"
row "hot: fires / probe calls" "$(h fired) / $(h calls)"
row "hot: attached, called once" "$(h on_ok)"
row "hot: detached, not called" "$(h off_ok)"
row "hot: in the window (calls)" "$(h window_fires) ($(h window_calls))"
row "hot: lost / extra calls" "$(h lost) / $(h extra)"
row "hot: run (s)" "$hot_took"
row "user load: futex / pipe rounds, yields" \
	"$(field futex_rounds "$load") / $(field pipe_rounds "$load") / $(field yields "$load")"
row "probe module load/unload (errors)" "$probe_loads ($probe_load_errors)"
row "control: static call retargets" "$(h sc_updates)"
row "control: calls / arrived (a + b)" \
	"$(h sc_calls) / $(($(h sc_a) + $(h sc_b))) ($(h sc_a) + $(h sc_b))"
row "int3 traps taken (text_poke_bp)" "not counted: 6.12 has no counter"
row "A: hardirq/softirq/nmi fired" "$(a hard_fired) / $(a soft_fired) / $(a nmi_fired)"
row "A: hardirq/softirq/nmi probe" "$(a hard_calls) / $(a soft_calls) / $(a nmi_calls)"
row "A: nmi sent / skipped / lost" "$(a nmi_sent) / $(a nmi_skipped) / $(a nmi_lost)"
row "B (${SECONDS_MIN} s): hardirq fired/probe/events" \
	"$(q hard_fired) / $(q hard_calls) / $rec_hard"
row "B: softirq fired / probe / events" "$(q soft_fired) / $(q soft_calls) / $rec_soft"
row "B: nmi sent / fired / probe / events" \
	"$(q nmi_sent) / $(q nmi_fired) / $(q nmi_calls) / $rec_nmi"
row "B: nmi skipped (pending) / lost" "$(q nmi_skipped) / $(q nmi_lost)"
row "instance ring buffer overrun" "$overrun"
row "recursion drops (whole kernel)" "$drops"
row "module load/unload cycles" "$loads (errors $load_errors)"
row "module: probe calls / events read" "$mod_calls / $rec_mod (enabled $enabled)"
row "module: perf stat count" "$perf_count"
row "C: burst fired / probe calls" "$c_fired / $c_calls (recursion drops $c_drops)"
c_sum=$((c_recorded + c_overrun + c_lost))
row "C: recorded + overrun + refused" \
	"$c_recorded + $c_overrun + $c_lost = $c_sum (entries $c_entries)"
row "sites checked / bad (all off)" "$(echo "$sites_off" | tr ' ' /)"
row "sites checked / bad (hot on)" "$(echo "$sites_on" | tr ' ' /)"

test_hot_site() {
	[ "$cycles" = "$CYCLES/$CYCLES" ] || fail "cycles $cycles, expected $CYCLES/$CYCLES"
	[ "$(h errors)" = 0 ] || fail "registration errors: $hot"
	# Every 16th cycle and the last wait for the grace period.
	[ "$(h waits)" = $(((CYCLES + 15) / 16)) ] ||
		fail "cycles that waited: $(h waits), expected $(((CYCLES + 15) / 16))"
	[ "$(h lost)" = 0 ] || fail "lost probe calls: $hot"
	[ "$(h extra)" = 0 ] || fail "extra probe calls: $hot"
	[ "$(h on_ok)" -gt 0 ] || fail "no fire seen while attached: $hot"
	[ "$(h off_ok)" -gt 0 ] || fail "no fire seen while detached: $hot"
	[ "$toggles" -gt 0 ] || fail "the event was never toggled"
	[ "$(field futex_rounds "$load")" -gt 0 ] && [ "$(field pipe_rounds "$load")" -gt 0 ] ||
		fail "no user-space load: $load"
}

test_probe_module_cycles() {
	[ "$probe_loads" -gt 0 ] || fail "test_markers_stress_probe never loaded"
	[ "$probe_load_errors" = 0 ] || fail "$probe_load_errors insmod/rmmod errors"
}

test_static_call_control() {
	[ "$(h sc_updates)" -gt 0 ] || fail "the static call was never retargeted: $hot"
	[ "$(h sc_calls)" -gt 0 ] || fail "no call through the static call: $hot"
	[ "$(h sc_calls)" = $(($(h sc_a) + $(h sc_b))) ] ||
		fail "static call: $(h sc_calls) calls, $(h sc_a) + $(h sc_b) arrived"
	[ "$(h sc_a)" -gt 0 ] && [ "$(h sc_b)" -gt 0 ] ||
		fail "static call: one target never called: $hot"
}

test_accounting() {
	[ "$c_fired" = $((BURST * $(grep -c ^processor /proc/cpuinfo))) ] ||
		fail "burst fired $c_fired, expected $BURST per CPU"
	[ $((c_calls + c_drops)) = "$c_fired" ] ||
		fail "fired $c_fired, probe calls $c_calls, recursion drops $c_drops"
	[ $((c_recorded + c_overrun + c_lost)) = "$c_calls" ] ||
		fail "probe calls $c_calls:" \
			"recorded $c_recorded + overrun $c_overrun + refused $c_lost"
	[ "$c_entries" = "$c_recorded" ] ||
		fail "the buffer holds $c_entries entries, $c_recorded read"
	[ "$c_overrun" -gt 0 ] || fail "the buffer never overflowed: nothing proved"
}

# count_equal WHAT FIRED PROBE RECORDED: probe == fired, and the events
# recorded equal fired, or fall short by no more than the overrun.
count_equal() {
	[ "$2" -gt 0 ] || fail "$1: never fired"
	[ "$3" = "$2" ] || fail "$1: fired $2, probe counted $3"
	if [ "$overrun" = 0 ]; then
		[ "$4" = "$2" ] || fail "$1: fired $2, recorded $4, no overrun"
	else
		if [ "$4" -gt "$2" ] || [ $(($4 + overrun)) -lt "$2" ]; then
			fail "$1: fired $2, recorded $4, overrun $overrun"
		fi
	fi
}

test_irq_contexts() {
	[ "$(a hard_calls)" = "$(a hard_fired)" ] || fail "A: hardirq: $irq_a"
	[ "$(a soft_calls)" = "$(a soft_fired)" ] || fail "A: softirq: $irq_a"
	[ "$(a nmi_calls)" = "$(a nmi_fired)" ] || fail "A: nmi: $irq_a"
	[ "$(a nmi_sent)" = "$(a nmi_fired)" ] && [ "$(a nmi_lost)" = 0 ] ||
		fail "A: NMIs sent and handled differ: $irq_a"
	count_equal hardirq "$(q hard_fired)" "$(q hard_calls)" "$rec_hard"
	count_equal softirq "$(q soft_fired)" "$(q soft_calls)" "$rec_soft"
	count_equal nmi "$(q nmi_fired)" "$(q nmi_calls)" "$rec_nmi"
	[ "$(q nmi_sent)" = "$(q nmi_fired)" ] ||
		fail "NMIs sent and handled differ: $irq"
	[ "$(q nmi_lost)" = 0 ] || fail "NMIs never handled: $irq"
}

test_module_cycles() {
	[ "$loads" = "$LOADS" ] && [ "$load_errors" = 0 ] ||
		fail "$loads of $LOADS cycles, $load_errors insmod/rmmod errors"
	# Each cycle fires at load and unload, plus the unload of the load
	# perf attached to.
	[ "$mod_calls" = $((2 * LOADS + 1)) ] ||
		fail "probe calls $mod_calls, expected $((2 * LOADS + 1)) (load and unload)"
	[ "$perf_count" = "$mod_calls" ] ||
		fail "perf stat counted '$perf_count', the probe $mod_calls"
	[ "$enabled" = "$LOADS" ] || fail "event enabled in $enabled of $LOADS cycles"
	# Each unload resets the buffers: the reader may miss some, never more.
	[ "$rec_mod" -le "$enabled" ] || fail "events $rec_mod, more than the $enabled unloads"
}

test_site_bytes() {
	set -- $sites_off
	[ "$1" -gt 0 ] && [ "$2" = 0 ] || fail "all off: $1 sites, $2 bad"
	set -- $sites_on
	[ "$1" -gt 0 ] && [ "$2" = 0 ] || fail "hot on: $1 sites, $2 bad"
	[ "$hot_site_on" -gt 0 ] || fail "test_stress_hot not listed enabled"
}

run_test "stress: hot site toggled while fired on every CPU" test_hot_site
run_test "stress: probe module unloaded while its marker fires" test_probe_module_cycles
run_test "stress: control, a static call retargeted on hot code" test_static_call_control
run_test "stress: hard IRQ, softirq and NMI fires all counted" test_irq_contexts
run_test "stress: module load/unload with probes and events" test_module_cycles
run_test "stress: site bytes match their state" test_site_bytes
run_test "stress: burst fires = probe calls = recorded + overrun + refused" test_accounting
test_cleanup() {
	rmdir "$INST" "$MINST" || fail "instances stress, stressmod not removed"
	unload test_markers_stress
	unload test_markers_probe
	! grep -q '^test_stress_' "$TRACEFS/marker_sites" ||
		fail "test_stress_* sites left after unloading"
}
run_test "stress: cleanup" test_cleanup
markers_finished
