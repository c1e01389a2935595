// SPDX-License-Identifier: GPL-2.0
/*
 * One event set in three versions, for markers-abi's tests: built once per
 * MARKERS_ABI_VERSION as the same module (markers_abi_test.ko), never
 * loaded. Version 1 is the original; version 2 changes it in every way
 * that breaks a tool reading the stable markers; version 3 only in ways
 * that do not. Each marker shows one kind of change.
 *
 * Version 2 also makes, each on markers of its own "subsystem" prefix
 * (so that a baseline, markers-abi --baseline PREFIX, holds it alone),
 * the event-set changes that broke tracing tools in 2025:
 *
 *  dyncomm_	Linux 6.16's sched_switch: comm went from a fixed-size
 *		field to a dynamic string (marker formats have no char[16],
 *		so the fixed field is a pointer, 8 bytes in the record);
 *  ioprio_	block request events: a field (ioprio) inserted in the
 *		middle, moving the ones after it;
 *  compat_	an event kept "for compatibility" whose site was removed:
 *		declared with DECLARE_MARKER(), no mark_<name>() call left;
 *  tpsuffix_	a raw-only event renamed with a suffix ("_tp").
 *
 * The fifth, a common field added by a distribution kernel, changes no
 * marker: tools/markers/tests/common-*.abi hold it.
 */
#include <linux/marker_typed.h>
#include <linux/module.h>

#ifndef MARKERS_ABI_VERSION
#error "build with -DMARKERS_ABI_VERSION=1, 2 or 3"
#endif

#define BREAKING	(MARKERS_ABI_VERSION == 2)
#define COMPATIBLE	(MARKERS_ABI_VERSION == 3)

static int value = 1;
static const char *text = "markers-abi";

/* The module's own typed marker, defined here (CREATE_MARKERS). */
#define CREATE_MARKERS
DECLARE_MARKER(compat_sched_kthread_stop,
	       MARKER_PROTO(int pid, const char *comm),
	       MARKER_ARGS(pid, comm),
	       "pid %d comm %s",
	       MARKER_VALUES(pid, comm))
#undef CREATE_MARKERS

static noinline void markers_abi_history(void)
{
#if !BREAKING
	trace_mark(dyncomm_sched_switch,
		   "prev_comm %p prev_pid %d next_comm %p next_pid %d",
		   text, value, text, value);
	trace_mark(ioprio_block_rq_issue,
		   "dev %u sector %llu nr_sector %u bytes %u rwbs %s comm %s",
		   value, (u64)value, value, value, text, text);
	mark_compat_sched_kthread_stop(value, text);
	trace_mark(tpsuffix_sched_entry, "cpu %u", value);
#else
	trace_mark(dyncomm_sched_switch,
		   "prev_comm %s prev_pid %d next_comm %s next_pid %d",
		   text, value, text, value);
	trace_mark(ioprio_block_rq_issue,
		   "dev %u sector %llu nr_sector %u bytes %u ioprio %u rwbs %s comm %s",
		   value, (u64)value, value, value, value, text, text);
	trace_mark(tpsuffix_sched_entry_tp, "cpu %u", value);
#endif
}

static noinline void markers_abi_breaking(void)
{
#if !BREAKING
	trace_mark(abi_marker_removed, "a %d", value);
	trace_mark(abi_marker_renamed, "a %d", value);
	trace_mark(abi_field_removed, "a %d b %d", value, value);
	trace_mark(abi_field_renamed, "a %d b %d", value, value);
	trace_mark(abi_field_retyped, "a %d b %u", value, value);
	trace_mark(abi_field_reordered, "a %d b %s", value, text);
	trace_mark(abi_field_inserted, "a %d b %d", value, value);
#else
	trace_mark(abi_marker_renamed_to, "a %d", value);
	trace_mark(abi_field_removed, "a %d", value);
	trace_mark(abi_field_renamed, "a %d c %d", value, value);
	trace_mark(abi_field_retyped, "a %d b %llu", value, (u64)value);
	trace_mark(abi_field_reordered, "b %s a %d", text, value);
	trace_mark(abi_field_inserted, "a %d x %d b %d", value, value, value);
#endif
}

static noinline void markers_abi_site(void)
{
#if !COMPATIBLE
	trace_mark(abi_site_moved, "a %d", value);
#endif
}

static noinline void markers_abi_compatible(void)
{
#if !COMPATIBLE
	trace_mark(abi_field_appended, "a %d", value);
	trace_mark(abi_format_changed, "a %u", value);
	trace_mark(abi_site_added, "a %d", value);
	trace_mark(__abi_debug_changed, "a %d", value);
	trace_mark(__abi_debug_removed, "a %d", value);
#else
	trace_mark(abi_field_appended, "a %d b %lu", value, (unsigned long)value);
	trace_mark(abi_format_changed, "a %x", value);
	trace_mark(abi_site_added, "a %d", value);
	trace_mark(abi_site_added, "a %d", value + 1);
	trace_mark(__abi_debug_changed, "z %s", text);
	trace_mark(abi_marker_new, "a %d", value);
	trace_mark(abi_site_moved, "a %d", value);
#endif
}

static int __init markers_abi_test_init(void)
{
	markers_abi_breaking();
	markers_abi_history();
	markers_abi_site();
	markers_abi_compatible();
	return 0;
}
module_init(markers_abi_test_init);

MODULE_DESCRIPTION("Versions of an event set for markers-abi's tests");
MODULE_LICENSE("GPL");
