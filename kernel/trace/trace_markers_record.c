// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers in tracefs: the face's side of the recorders.
 *
 * Each DECLARE_MARKER() makes a recorder, __marker_record_<name>()
 * (include/linux/marker_record.h), a typed probe that trace_markers.c
 * attaches for the event markers:<name> where recorders are built
 * (CONFIG_MARKERS_TRACE_RECORDERS: 64-bit kernels) when the signature of
 * its layout is the event's, made here when the event is built; it
 * reserves and fills its record itself, and calls here to count a hit it
 * does not record and to commit, so that its records are counted and
 * committed as the varargs probe's are (trace_markers.h). A record too
 * large for the ring buffer goes to marker_record_values(), in
 * trace_markers.c with the fields' ops it stores them by.
 *
 * For perf, the declaration's other recorder, __marker_record_perf_<name>(),
 * is attached with the event's call as its data (tagged
 * MARKER_RECORD_PERF) and builds its record in perf's per-CPU buffer
 * itself, as perf_trace_<call>() builds a TRACE_EVENT()'s; it calls here
 * only to count a record perf cannot take.
 *
 * Called from __marker_record_<name>(), the typed probe of one event
 * file, and __marker_record_perf_<name>(), perf's. Context: the site's
 * (any, NMI included), preemption disabled; no locks, no allocation.
 */
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/marker_typed.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/trace_events.h>

#include "trace_markers.h"

static_assert(sizeof(struct trace_entry) == MARKER_RECORD_HEADER);
static_assert(PAGE_SIZE / 2 >= MARKER_RECORD_FITS);
static_assert(MARKER_RECORD_STRING_MAX == MARKER_EVENT_STRING_MAX);

/* The signature of a layout: the recorder's code of each field. */
u64 marker_event_layout(const struct marker_event_field *fields,
			unsigned int nr_fields)
{
	static const u8 code[] = {
		[MARKER_EVENT_U8] = 1, [MARKER_EVENT_U16] = 2,
		[MARKER_EVENT_U32] = 3, [MARKER_EVENT_U64] = 4,
		[MARKER_EVENT_PTR] = 4, [MARKER_EVENT_STRING] = 8,
		/* A %c: stored as a string, from an int: never the recorder's */
		[MARKER_EVENT_CHAR] = 15,
	};
	u64 layout = 0;
	unsigned int i;

	for (i = 0; i < nr_fields; i++) {
		if (i == 16)
			return U64_MAX;
		layout |= (u64)code[fields[i].op] << (4 * i);
	}
	return layout;
}

/**
 * marker_record_filtered - count a hit a recorder does not record
 * @file: the event file whose recorder was called
 *
 * For trace_trigger_soft_disabled(): a soft-disabled event's hits are
 * not counted, those of a task set_event_pid leaves out are filtered.
 *
 * Context: the site's, preemption disabled.
 */
void marker_record_filtered(struct trace_event_file *file)
{
	if (!(file->flags & EVENT_FILE_FL_SOFT_DISABLED))
		this_cpu_inc(marker_trace_filtered);
}
EXPORT_SYMBOL_GPL(marker_record_filtered);

/**
 * marker_record_refused - count a record the ring buffer did not reserve
 * @file: the event file whose recorder was called
 *
 * Context: the site's, preemption disabled.
 */
void marker_record_refused(struct trace_event_file *file)
{
	marker_event_refused(file);
}
EXPORT_SYMBOL_GPL(marker_record_refused);

/**
 * marker_record_commit - commit a recorder's record
 * @fbuffer: as trace_event_buffer_reserve() set it
 *
 * As marker_event_commit(): a record of an event with a filter is counted
 * if it is not written (marker_event_commit_filtered()). Not a tail call:
 * its frame stands where a TRACE_EVENT()'s tracepoint iterator's does, so
 * that the stacktrace trigger, which skips a TRACE_EVENT()'s frames by
 * count, shows the site's caller for a recorder too.
 *
 * Context: the site's, preemption disabled.
 */
void marker_record_commit(struct trace_event_buffer *fbuffer)
{
	marker_event_commit(fbuffer);
	barrier();
}
EXPORT_SYMBOL_GPL(marker_record_commit);

#ifdef CONFIG_PERF_EVENTS
static_assert(__alignof__(struct trace_event_call) > MARKER_RECORD_PERF);
static_assert(MARKER_RECORD_FITS <= PERF_MAX_TRACE_SIZE);

/**
 * marker_record_perf_lost - count a record perf could not take
 *
 * For __marker_record_perf_<name>(), when perf_trace_buf_alloc() refuses
 * a record (recursion): counted in marker_perf_lost, as the varargs
 * probe's are. Out of line: the recorder's path that runs stays short.
 *
 * Context: the site's (any, NMI included), preemption disabled.
 */
void marker_record_perf_lost(void)
{
	this_cpu_inc(marker_perf_lost);
}
EXPORT_SYMBOL_GPL(marker_record_perf_lost);
#endif
