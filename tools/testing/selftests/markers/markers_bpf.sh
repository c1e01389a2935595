#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpftrace on marker events: it lists them with their fields, and its
# one-liners on markers:futex_wait and markers:sched_switch count what
# markers_work did (futex waits with known op and val, sleeps of a known
# pid). Skipped without bpftrace.

set -u
. "$(dirname "$0")/markers_lib.sh"

WORK=$(cd "$(dirname "$0")" && pwd)/markers_work
OUT=/tmp/markers-bpf

# bpftrace ARGS...: output in $OUT/out, fails the test when it fails.
run_bpftrace() {
	bpftrace "$@" >$OUT/out 2>&1 ||
		fail "bpftrace $*: $(cat $OUT/out)"
}

# Every marker event, and only those, as tracepoint:markers:<name>.
test_list() {
	run_bpftrace -l 'tracepoint:markers:*' || return 1
	ls "$EVENTS" | sed -n 's/^/tracepoint:markers:/p' | sort >$OUT/want
	grep -v '^tracepoint:markers:\(enable\|filter\)$' $OUT/want >$OUT/want.1
	sort $OUT/out >$OUT/got
	[ -s $OUT/want.1 ] && cmp -s $OUT/want.1 $OUT/got ||
		fail "expected: $(cat $OUT/want.1), got: $(cat $OUT/got)"
}

# -lv shows the fields of the format with their types.
test_list_fields() {
	local f
	run_bpftrace -lv 'tracepoint:markers:futex_wait' || return 1
	for f in 'unsigned long uaddr' 'int op' 'unsigned int val' \
		 'unsigned int bitset' 'long long timeout_ns' 'int ret'; do
		grep -q "^ *$f;*\$" $OUT/out || fail "no field '$f': $(cat $OUT/out)"
	done
	run_bpftrace -lv 'tracepoint:markers:sched_switch' || return 1
	grep -q '^ *int prev_pid;*$' $OUT/out && grep -q 'prev_comm' $OUT/out ||
		fail "sched_switch fields: $(cat $OUT/out)"
}

# 3 waits with op FUTEX_WAIT_PRIVATE (128) and val 7, 5 with FUTEX_WAIT
# (0) and val 9.
test_futex_wait_ops() {
	printf '%s futex-wait 7 3 && %s futex-wait 9 5 0\n' "$WORK" "$WORK" \
		>$OUT/work.sh
	run_bpftrace -e 'tracepoint:markers:futex_wait /comm == "markers_work"/ {
		@op[args->op] = count(); @val[args->val] = count(); }' \
		-c "/bin/sh $OUT/work.sh" || return 1
	expect_line '@op[0]: 5' $OUT/out
	expect_line '@op[128]: 3' $OUT/out
	expect_line '@val[7]: 3' $OUT/out
	expect_line '@val[9]: 5' $OUT/out
	[ "$(grep -c '^@' $OUT/out)" = 4 ] || fail "other keys: $(cat $OUT/out)"
}

# switched_count MAP: the count of @MAP[pid, tgid, cpid] when all three
# are the same pid, else nothing.
switched_count() {
	sed -n "s/^@$1\[\([0-9]*\), \1, \1\]: \([0-9]*\)\$/\2/p" $OUT/out
}

# The child sleeps 5 times: switched out and in at least 5 times, with
# its own pid and tgid in the fields. No BEGIN probe (bpftrace makes it a
# uprobe): cpid is a key.
test_sched_switch_pids() {
	local n
	run_bpftrace -e 'tracepoint:markers:sched_switch /args->prev_pid == cpid/ {
			@out[args->prev_pid, args->prev_tgid, cpid] = count(); }
		tracepoint:markers:sched_switch /args->next_pid == cpid/ {
			@in[args->next_pid, args->next_tgid, cpid] = count(); }' \
		-c "$WORK sleep 5 10" || return 1
	n=$(switched_count out)
	[ -n "$n" ] && [ "$n" -ge 5 ] ||
		fail "expected 5 or more switches out of the child: $(cat $OUT/out)"
	n=$(switched_count in)
	[ -n "$n" ] && [ "$n" -ge 5 ] ||
		fail "expected 5 or more switches into the child: $(cat $OUT/out)"
	[ "$(grep -c '^@' $OUT/out)" = 2 ] || fail "other keys: $(cat $OUT/out)"
}

require "$WORK"
if ! command -v bpftrace >/dev/null; then
	ktap_skip_all "no bpftrace"
	exit "$KSFT_SKIP"
fi
rm -rf $OUT
mkdir -p $OUT

ktap_print_header
ktap_set_plan 4
run_test "bpftrace -l 'tracepoint:markers:*' lists every marker event" test_list
run_test "bpftrace -lv shows a marker event's fields" test_list_fields
run_test "bpftrace counts markers:futex_wait by args->op and args->val" \
	test_futex_wait_ops
run_test "bpftrace sees the child's pids in markers:sched_switch" \
	test_sched_switch_pids
rm -rf $OUT
markers_finished
