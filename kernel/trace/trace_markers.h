/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the tracefs face of static markers share:
 * trace_markers.c (the events markers:<name>), trace_markers_list.c
 * (the files markers, marker_sites and marker_stats) and
 * trace_markers_record.c (the face's side of typed markers' recorders).
 */
#ifndef _KERNEL_TRACE_TRACE_MARKERS_H
#define _KERNEL_TRACE_TRACE_MARKERS_H

#include <linux/marker.h>
#include <linux/marker_format.h>
#include <linux/percpu.h>
#include <linux/trace_events.h>
#include <linux/types.h>

/* Longest string stored for a %s field, terminating NUL included. */
#define MARKER_EVENT_STRING_MAX	256

/*
 * How the recorder reads a field's argument and stores it, chosen when the
 * event is built: the integer ops read an int (U8 to U32) or a long long
 * (U64), as the conversion's va_arg() type is, and store the field's size.
 */
enum marker_event_op {
	MARKER_EVENT_U8,
	MARKER_EVENT_U16,
	MARKER_EVENT_U32,
	MARKER_EVENT_U64,
	MARKER_EVENT_PTR,	/* a pointer, stored as unsigned long */
	MARKER_EVENT_CHAR,	/* an int, stored as a 2-byte string */
	MARKER_EVENT_STRING,	/* a pointer to a string, copied */
};

/* One field of an event: the parsed conversion and where it is stored. */
struct marker_event_field {
	struct marker_field field;
	unsigned int offset;		/* from the start of the entry */
	enum marker_event_op op;
};

/* A snapshot of one name of the registry (marker_iterate_names()). */
struct marker_name {
	const char *name;
	char *format;		/* of the sites without conflict, or NULL */
	struct marker_field *fields;	/* @format parsed by the listing */
	int nr_fields;		/* or -EINVAL, -E2BIG */
	unsigned int nr_sites;	/* sites without conflict */
	unsigned int nr_conflicts;
	bool debug;
	char modules[MARKER_MODULES_LEN];	/* "vmlinux,mod1,..." */
	struct marker_typed *typed;	/* its declaration, if typed */
};

struct marker_names {
	struct marker_name *names;
	unsigned int nr;
	unsigned int max;
};

/*
 * Every marker name with sites, from the registry, sorted by name; freed
 * with marker_names_free(). Process context.
 */
int marker_names_gather(struct marker_names *names);
void marker_names_free(struct marker_names *names);
const char *marker_name_event(const struct marker_name *n);

/*
 * Shown in marker_stats: records the ring buffer or perf could not take
 * (lost), and records not written because tracing was off for them or
 * the event's filter refused them (filtered).
 */
DECLARE_PER_CPU(unsigned long, marker_trace_lost);
DECLARE_PER_CPU(unsigned long, marker_trace_filtered);
DECLARE_PER_CPU(unsigned long, marker_perf_lost);

/* Recording, for the varargs probe and the recorders alike. */
void marker_event_refused(struct trace_event_file *file);
void marker_event_commit_filtered(struct trace_event_buffer *fbuffer);

/*
 * Commit a reserved record: written unless the event has a filter, whose
 * records marker_event_commit_filtered() commits and counts. Context: any
 * (probe context).
 */
static __always_inline void marker_event_commit(struct trace_event_buffer *fbuffer)
{
	if (unlikely(fbuffer->trace_file->flags & EVENT_FILE_FL_FILTERED))
		marker_event_commit_filtered(fbuffer);
	else
		trace_event_buffer_commit(fbuffer);
}

#ifdef CONFIG_MARKERS_TRACE_RECORDERS
/* The signature of an event's layout: its recorder's must be the same */
u64 marker_event_layout(const struct marker_event_field *fields,
			unsigned int nr_fields);
#endif

#endif /* _KERNEL_TRACE_TRACE_MARKERS_H */
