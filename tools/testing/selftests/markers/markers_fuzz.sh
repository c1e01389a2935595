#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# markers_fuzz (markers_fuzz.c) with the modules whose files and knobs it
# writes to loaded: marker_example, test_markers_probe, test_markers_trace,
# test_markers_hold and, where it is built (x86), test_markers_stress. Its
# TAP is this test's.
#
# Environment:
#   FUZZ_WRITES  writes (default 200: seconds, for make check)
#   FUZZ_SEED    the seed (default: from the clock); printed, so a run is
#                replayed with FUZZ_SEED=<printed seed> and the same
#                FUZZ_WRITES on the same kernel and modules

set -u
. "$(dirname "$0")/markers_lib.sh"

require "$(dirname "$0")/markers_fuzz"
mods="marker-example test_markers_probe test_markers_trace test_markers_hold"
[ ! -f "$MODULE_DIR/test_markers_stress.ko" ] && [ "$(uname -m)" != x86_64 ] ||
	mods="$mods test_markers_stress"
for m in $mods; do
	[ -f "$MODULE_DIR/$m.ko" ] || { ktap_skip_all "no $m.ko"; exit "$KSFT_SKIP"; }
	insmod "$MODULE_DIR/$m.ko" || ktap_exit_fail_msg "cannot load $m"
done
reset_tracing
FUZZ_WRITES=${FUZZ_WRITES:-200} "$(dirname "$0")/markers_fuzz"
rc=$?
reset_tracing
for m in $mods; do
	m=$(echo "$m" | tr - _)
	rmmod "$m" || { echo "# rmmod $m failed"; rc=1; }
done
exit $rc
