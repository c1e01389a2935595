// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers in tracefs: the events.
 *
 * Each marker name whose format parses is a trace event markers:<name>,
 * built at run time from the parsed format as synthetic events are: the
 * entry holds the fields in format order, each at its natural alignment,
 * strings as __data_loc char[] after them. Enabling the event in an
 * instance attaches one format-checked probe per event file
 * (marker_probe_register() with the marker's format, the file as private
 * data), perf attaches one probe per event, so events coexist with any
 * probe a module registers.
 *
 * Events follow the sites: a module notifier that runs after the marker
 * core's rescans the names when a module with markers comes or goes (and a
 * work item does when the core says a format conflict healed), adds events
 * for new names and removes those of names left without sites or whose
 * format changed, disabling them first. The events are dynamic events
 * (TRACE_EVENT_FL_DYNAMIC): perf, triggers and trace_get_event_file() users
 * hold a reference, triggers put it in soft mode, and an event that is held
 * either way is not removed but left as it is, an orphan, until released.
 *
 * This file owns the events and the counts of their records not written,
 * which "marker_stats" shows; the tracefs files "markers", "marker_sites"
 * and "marker_stats" are trace_markers_list.c's.
 *
 * Locking: event_mutex protects marker_events and every event's state; the
 * marker core's mutex nests inside it (marker_iterate_sites(), probe
 * registration from the reg callback). The probes take no lock.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/list.h>
#include <linux/marker.h>
#include <linux/marker_typed.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>
#include <linux/wordpart.h>
#include <linux/workqueue.h>
#include <asm/word-at-a-time.h>

#include "trace.h"
#include "trace_markers.h"
#include "trace_output.h"

/* How often a held orphan is looked at again, until it can be removed. */
#define MARKER_ORPHAN_RETRY	HZ

/* Most fields of an event that name tasks for the pid filter. */
#define MARKER_EVENT_PID_FIELDS	2

/*
 * The trace event of one marker name; on marker_events under event_mutex.
 * Its record is a struct trace_entry followed by the fields at @offset,
 * then the strings the __data_loc fields point to.
 */
struct marker_event {
	struct list_head list;
	struct trace_event_call call;
	struct trace_event_class class;
	/* These and call.print_fmt: after @fields, in the event's object */
	char *name;
	char *format;
	bool orphan;			/* no sites or stale format; held */
	bool has_strings;		/* a %s or %c field: size varies */
	unsigned char regs_store;	/* MARKER_EVENT_REGS_* (no strings) */
	/* Its largest record may be too large for a ring buffer's event */
	bool may_not_fit;
	u16 strings;			/* the %s and %c fields, a bit each */
	u16 scalars;			/* the others */
	/*
	 * The declaration whose recorders record the event in the
	 * instances that enable it (__marker_record_<name>) and for perf
	 * (__marker_record_perf_<name>), or NULL:
	 * the varargs probes marker_event_probe() and
	 * marker_event_perf_probe() do. Set when the event is made, if the
	 * recorder's layout is the event's; cleared when the declaration's
	 * module goes; @typed_files files and perf use it, each holding a
	 * reference on @typed_owner (NULL: vmlinux).
	 */
	struct marker_typed *typed;
	struct module *typed_owner;
	unsigned int typed_files;
	unsigned int fixed_size;	/* entry size before the strings */
	/* Fields whose tasks set_event_pid lets through, as for current */
	unsigned int nr_pid_fields;
	unsigned int pid_field[MARKER_EVENT_PID_FIELDS];
	unsigned int nr_fields;
	struct marker_event_field fields[] __counted_by(nr_fields);
};

/*
 * ftrace's pid filter brackets the scheduler's tracepoints that name a
 * second task (event_filter_pid_sched_*_probe_pre() and _post() in
 * trace_events.c): sched:sched_switch is recorded when prev or next is a
 * task set_event_pid and set_event_notrace_pid let through,
 * sched:sched_wakeup and sched:sched_wakeup_new when the waker or the
 * woken task is. The markers of the same names fire after those
 * tracepoints, outside the bracket, so their events apply the same rule
 * themselves, from these fields of their records.
 */
static const struct marker_event_pid_rule {
	const char *name;
	const char *fields[MARKER_EVENT_PID_FIELDS];
} marker_event_pid_rules[] = {
	{ "sched_switch", { "prev_pid", "next_pid" } },
	{ "sched_wakeup", { "pid" } },
	{ "sched_wakeup_new", { "pid" } },
};

/*
 * %s and %c fields are stored as __data_loc char[] strings: stock tools
 * (perf's and trace-cmd's libtraceevent) print strings, but not all of
 * them know %c.
 */
static bool marker_field_is_string(const struct marker_field *f)
{
	return f->type == MARKER_FIELD_STRING || f->type == MARKER_FIELD_CHAR;
}

/*
 * The arguments of a hit of an event with strings, read before the record
 * is reserved (its size depends on them): @vals points to them, in the
 * register save area (marker_event_regs()), the recorder's array
 * (marker_record_values()) or @value, where marker_event_fetch() read
 * them with va_arg(). A %s field's address is copied to @value, where
 * marker_event_strlen() may change it.
 */
struct marker_event_values {
	const u64 *vals;		/* each field's value, as u64 */
	u64 value[MARKER_FIELDS_MAX];	/* %s: the address copied from */
	u16 len[MARKER_FIELDS_MAX];	/* strings: bytes stored, NUL included */
};

static LIST_HEAD(marker_events);

/* Records not written, lost or filtered (trace_markers.h) */
DEFINE_PER_CPU(unsigned long, marker_trace_lost);
DEFINE_PER_CPU(unsigned long, marker_trace_filtered);
DEFINE_PER_CPU(unsigned long, marker_perf_lost);

/* ---- Recording: probe context ---- */

/*
 * Whether the register save area of the va_list of a hit holds every
 * argument, then set *@regs to it. On x86-64 every argument the ops read (an int, a
 * long long or a pointer: the psABI's INTEGER class) takes one 8-byte
 * slot, the first ones in the save area that va_start() filled from the
 * six argument registers (from gp_offset: 8 in __marker_probe_call(),
 * whose %rdi holds the marker, so up to MARKER_EVENT_REGS_MAX fields),
 * the rest on the stack; va_arg() reads them in that order (the psABI's
 * va_list, 3.5.7). Read from the save area as an array, an argument
 * costs one load, where va_arg() tests and updates gp_offset in memory.
 * A slot holds what the register held: the bits above an int's are
 * undefined, so an int is the low 32 bits of its slot (the ops store at
 * most that). Elsewhere false: the fields are read with va_arg().
 * Context: any (probe context).
 */
#ifdef CONFIG_X86_64
#define MARKER_EVENT_REGS_MAX	5

/* va_list's one element, as the psABI defines it (sparse does not know it) */
struct marker_event_va_list {
	unsigned int gp_offset;
	unsigned int fp_offset;
	void *overflow_arg_area;
	void *reg_save_area;
};

static __always_inline bool marker_event_regs(va_list *args,
					      unsigned int nr_fields,
					      const unsigned long **regs)
{
	const struct marker_event_va_list *ap = (const void *)*args;
	unsigned int gp_offset = ap->gp_offset;

#ifndef __CHECKER__
	BUILD_BUG_ON(sizeof(va_list) != sizeof(*ap));
#endif
	/* Six argument registers, 8 bytes each */
	if (unlikely(gp_offset + nr_fields * sizeof(long) > 6 * sizeof(long)))
		return false;
	*regs = ap->reg_save_area + gp_offset;
	return true;
}
#else
#define MARKER_EVENT_REGS_MAX	0

static __always_inline bool marker_event_regs(va_list *args,
					      unsigned int nr_fields,
					      const unsigned long **regs)
{
	return false;
}
#endif

/*
 * Read the argument of field @f from @args, which it advances. Context:
 * any (probe context).
 */
static __always_inline u64 marker_event_arg(const struct marker_event_field *f,
					    va_list *args)
{
	switch (f->op) {
	case MARKER_EVENT_U64:
		return va_arg(*args, unsigned long long);
	case MARKER_EVENT_PTR:
	case MARKER_EVENT_STRING:
		return (unsigned long)va_arg(*args, void *);
	default:
		return va_arg(*args, unsigned int);
	}
}

/*
 * Store @value, read by marker_event_arg() or from a slot of
 * marker_event_regs(), as the integer or pointer field @f of @entry.
 * Context: any (probe context).
 */
static __always_inline void marker_event_put(const struct marker_event_field *f,
					     void *entry, u64 value)
{
	void *p = entry + f->offset;

	switch (f->op) {
	case MARKER_EVENT_U8:
		*(u8 *)p = value;
		break;
	case MARKER_EVENT_U16:
		*(u16 *)p = value;
		break;
	case MARKER_EVENT_U32:
		*(u32 *)p = value;
		break;
	case MARKER_EVENT_PTR:
		*(unsigned long *)p = value;
		break;
	default:
		*(u64 *)p = value;
		break;
	}
}

/*
 * The fields of an event without strings from @args, read with va_arg():
 * one switch per field both reads and stores, where
 * marker_event_put(f, entry, marker_event_arg(f, args)) would switch
 * twice. Context: any (probe context).
 */
static noinline void marker_event_store_va(const struct marker_event *event,
					   void *entry, va_list *args)
{
	const struct marker_event_field *f = event->fields;
	const struct marker_event_field *end = f + event->nr_fields;

	for (; f < end; f++) {
		void *p = entry + f->offset;

		switch (f->op) {
		case MARKER_EVENT_U8:
			*(u8 *)p = va_arg(*args, unsigned int);
			break;
		case MARKER_EVENT_U16:
			*(u16 *)p = va_arg(*args, unsigned int);
			break;
		case MARKER_EVENT_U32:
			*(u32 *)p = va_arg(*args, unsigned int);
			break;
		case MARKER_EVENT_PTR:
			*(unsigned long *)p = (unsigned long)va_arg(*args, void *);
			break;
		default:
			*(u64 *)p = va_arg(*args, unsigned long long);
			break;
		}
	}
}

/*
 * How marker_event_store_args() stores the fields of an event without
 * strings from the register save area (@event->regs_store): for N fields
 * of 4 bytes (ints), or of 8 (long longs, pointers), up to
 * MARKER_EVENT_REGS_MAX, MARKER_EVENT_REGS_U32(N) or _U64(N): the fields
 * are then an array after the common header (each is at its natural
 * alignment), stored in straight-line code. Else MARKER_EVENT_REGS_PUT:
 * the fields one by one, by their ops.
 */
#define MARKER_EVENT_REGS_PUT		0
#define MARKER_EVENT_REGS_U32(n)	(n)
#define MARKER_EVENT_REGS_U64(n)	(8 + (n))

/*
 * The record of an event without strings: its size is fixed, so it is
 * reserved first and each argument goes straight from @args to its
 * field. From the register save area when it holds them
 * (marker_event_regs()), as @event->regs_store says: a load and a store
 * per field, or a switch per field for fields of several sizes; else
 * with va_arg() (marker_event_store_va()). Context: any (probe context).
 */
static __always_inline void marker_event_store_args(const struct marker_event *event,
						    void *entry, va_list *args)
{
	u32 *p32 = entry + sizeof(struct trace_entry);
	u64 *p64 = entry + sizeof(struct trace_entry);
	const unsigned long *regs;
	unsigned int i;

	if (!marker_event_regs(args, event->nr_fields, &regs)) {
		marker_event_store_va(event, entry, args);
		return;
	}
	switch (event->regs_store) {
	case MARKER_EVENT_REGS_U32(5):
		p32[4] = regs[4];
		fallthrough;
	case MARKER_EVENT_REGS_U32(4):
		p32[3] = regs[3];
		fallthrough;
	case MARKER_EVENT_REGS_U32(3):
		p32[2] = regs[2];
		fallthrough;
	case MARKER_EVENT_REGS_U32(2):
		p32[1] = regs[1];
		fallthrough;
	case MARKER_EVENT_REGS_U32(1):
		p32[0] = regs[0];
		break;
	case MARKER_EVENT_REGS_U64(5):
		p64[4] = regs[4];
		fallthrough;
	case MARKER_EVENT_REGS_U64(4):
		p64[3] = regs[3];
		fallthrough;
	case MARKER_EVENT_REGS_U64(3):
		p64[2] = regs[2];
		fallthrough;
	case MARKER_EVENT_REGS_U64(2):
		p64[1] = regs[1];
		fallthrough;
	case MARKER_EVENT_REGS_U64(1):
		p64[0] = regs[0];
		break;
	default:
		for (i = 0; i < event->nr_fields; i++)
			marker_event_put(&event->fields[i], entry, regs[i]);
		break;
	}
}

static const char marker_event_null[] = "(null)";
static const char marker_event_fault[] = "(fault)";

/*
 * Bytes to store for the %s argument at *@addr, NUL included, at most
 * MARKER_EVENT_STRING_MAX, read with page faults disabled as
 * strncpy_from_kernel_nofault() reads, a word at a time as
 * strnlen_user() does: aligned words only, the bytes before the string
 * in the first set so that they are not taken for its end. An aligned
 * word never crosses a page, so every word read holds a byte of the
 * string, and no read reaches a page the string does not (a string that
 * ends at the end of a page before an unmapped one is read whole). NULL,
 * a fault, or an address outside the kernel's
 * (copy_from_kernel_nofault_allowed()) store "(null)" or "(fault)":
 * *@addr is changed to point there, so that the store copies that.
 * Context: any (probe context); no locks.
 */
static __always_inline u16 marker_event_strlen(u64 *addr)
{
	const struct word_at_a_time constants = WORD_AT_A_TIME_CONSTANTS;
	unsigned long align = *addr & (sizeof(long) - 1);
	const void *src = (const void *)(unsigned long)*addr;
	const unsigned long *word = src - align;
	/* Bytes of the aligned words up to the longest string stored */
	unsigned long max = MARKER_EVENT_STRING_MAX - 1 + align;
	unsigned long c, data, len = 0;

	if (unlikely(!src)) {
		*addr = (unsigned long)marker_event_null;
		return sizeof(marker_event_null);
	}
	if (unlikely(!copy_from_kernel_nofault_allowed(src, MARKER_EVENT_STRING_MAX)))
		goto out;
	pagefault_disable();
	__get_kernel_nofault(&c, word, unsigned long, fault);
	c |= aligned_byte_mask(align);
	while (!has_zero(c, &data, &constants)) {
		len += sizeof(long);
		if (unlikely(len >= max)) {
			pagefault_enable();
			return MARKER_EVENT_STRING_MAX;
		}
		__get_kernel_nofault(&c, ++word, unsigned long, fault);
	}
	pagefault_enable();
	data = prep_zero_mask(c, data, &constants);
	len += find_zero(create_zero_mask(data));
	return min(len - align, MARKER_EVENT_STRING_MAX - 1UL) + 1;
fault:
	pagefault_enable();
out:
	*addr = (unsigned long)marker_event_fault;
	return sizeof(marker_event_fault);
}

/*
 * Measure the strings of a hit whose values are in @v: the fields of
 * @event->strings only. Return: the size of the record. Context: any
 * (probe context); no locks, no allocation.
 */
static __always_inline unsigned int marker_event_measure(const struct marker_event *event,
							 struct marker_event_values *v)
{
	unsigned int i, size = event->fixed_size;
	unsigned long strings = event->strings;

	for (; strings; strings &= strings - 1) {
		i = __ffs(strings);
		if (event->fields[i].op == MARKER_EVENT_STRING) {
			v->value[i] = v->vals[i];
			v->len[i] = marker_event_strlen(&v->value[i]);
		} else {
			v->len[i] = 2;
		}
		size += v->len[i];
	}
	return size;
}

/*
 * Read every argument of a hit of an event with strings into @v: from
 * the register save area when it holds them (marker_event_regs()), else
 * with va_arg(). Return: the size of the record. Context: any (probe
 * context); no locks, no allocation.
 */
static __always_inline unsigned int marker_event_fetch(const struct marker_event *event,
						       va_list *args,
						       struct marker_event_values *v)
{
	unsigned int i, n = event->nr_fields;
	const unsigned long *regs;

	if (marker_event_regs(args, n, &regs)) {
		v->vals = (const u64 *)regs;
	} else {
		for (i = 0; i < n; i++)
			v->value[i] = marker_event_arg(&event->fields[i], args);
		v->vals = v->value;
	}
	return marker_event_measure(event, v);
}

/*
 * Cut the strings of a record of @size bytes, last field first, so that
 * the record is at most @max bytes, the largest event the ring buffer
 * takes (one sub-buffer). Return: the new size. Context: any (probe
 * context).
 */
static unsigned int marker_event_fit(const struct marker_event *event,
				     struct marker_event_values *v,
				     unsigned int size, unsigned int max)
{
	unsigned int i = event->nr_fields, cut;

	while (size > max && i--) {
		if (event->fields[i].op != MARKER_EVENT_STRING)
			continue;
		cut = min_t(unsigned int, size - max, v->len[i] - 1);
		v->len[i] -= cut;
		size -= cut;
	}
	return size;
}

/*
 * Copy the @n bytes at @src to @dst with page faults disabled, in 8-byte
 * words where the CPU reads unaligned words well, else bytes. Every byte
 * read is one of the @n, which marker_event_strlen() read (no read goes
 * past them, so none reaches a page they do not): the last word overlaps
 * the one before, a copy shorter than a word takes two overlapping
 * halves. Return: false if a read faulted (the string's memory went
 * since it was measured). Context: any (probe context).
 */
static __always_inline bool marker_event_copy_nofault(char *dst, const char *src,
						      unsigned int n)
{
	unsigned int i;

	pagefault_disable();
	if (!IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS)) {
		for (i = 0; i < n; i++)
			__get_kernel_nofault(dst + i, src + i, u8, fault);
	} else if (n >= sizeof(u64)) {
		for (i = 0; i < n - sizeof(u64); i += sizeof(u64))
			__get_kernel_nofault(dst + i, src + i, u64, fault);
		i = n - sizeof(u64);
		__get_kernel_nofault(dst + i, src + i, u64, fault);
	} else if (n >= sizeof(u32)) {
		__get_kernel_nofault(dst, src, u32, fault);
		i = n - sizeof(u32);
		__get_kernel_nofault(dst + i, src + i, u32, fault);
	} else if (n >= sizeof(u16)) {
		__get_kernel_nofault(dst, src, u16, fault);
		i = n - sizeof(u16);
		__get_kernel_nofault(dst + i, src + i, u16, fault);
	} else if (n) {
		__get_kernel_nofault(dst, src, u8, fault);
	}
	pagefault_enable();
	return true;
fault:
	pagefault_enable();
	return false;
}

/*
 * Copy a %s argument of @len bytes, NUL included, to @dst: the @len - 1
 * bytes marker_event_strlen() measured at @addr (or "(null)" or
 * "(fault)", which it put there), then a NUL. A string changed since it
 * was measured is cut or ends early (the bytes after its new end are
 * still those it held); memory gone since stores "(fault)". Context:
 * any (probe context).
 */
static __always_inline void
marker_event_store_string(char *dst, unsigned long addr, u16 len)
{
	if (unlikely(!marker_event_copy_nofault(dst, (const char *)addr,
						len - 1))) {
		memcpy(dst, marker_event_fault,
		       min_t(u16, len, sizeof(marker_event_fault)));
		if (len > sizeof(marker_event_fault))
			memset(dst + sizeof(marker_event_fault), 0,
			       len - sizeof(marker_event_fault));
	}
	dst[len - 1] = '\0';
}

/*
 * Write the values of an event with strings into a reserved record of
 * the size marker_event_fetch() returned. Context: any (probe context).
 */
static __always_inline void marker_event_store(const struct marker_event *event,
					       void *entry,
					       const struct marker_event_values *v)
{
	unsigned int i, data_offset = event->fixed_size;
	unsigned long scalars = event->scalars, strings = event->strings;

	for (; scalars; scalars &= scalars - 1) {
		i = __ffs(scalars);
		marker_event_put(&event->fields[i], entry, v->vals[i]);
	}
	/* The strings' data in field order, after the fixed part */
	for (; strings; strings &= strings - 1) {
		char *data = entry + data_offset;

		i = __ffs(strings);
		if (event->fields[i].op == MARKER_EVENT_STRING) {
			marker_event_store_string(data, v->value[i], v->len[i]);
		} else {
			data[0] = v->vals[i];
			data[1] = '\0';
		}
		*(u32 *)(entry + event->fields[i].offset) =
			(u32)v->len[i] << 16 | data_offset;
		data_offset += v->len[i];
	}
}

/*
 * Count a record trace_event_buffer_reserve() refused, unless the event is
 * soft disabled (its records are not counted). It refuses records
 * of tasks set_event_pid leaves out; the ring buffer refuses writes while
 * it is not recording (tracing_on is 0, or a reset, resize or snapshot
 * holds it) and on a CPU left out of tracing_cpumask. Those records were
 * filtered. Any other was lost: a full buffer without overwrite (which
 * the ring buffer counts as "dropped events" too) or ring-buffer
 * recursion. Context: any (probe context); no locks.
 */
void marker_event_refused(struct trace_event_file *file)
{
	struct trace_array *tr = file->tr;

	/* Built only for a trigger's condition: not a record of the event */
	if (file->flags & EVENT_FILE_FL_SOFT_DISABLED)
		return;
	if (((file->flags & EVENT_FILE_FL_PID_FILTER) &&
	     trace_event_ignore_this_pid(file)) ||
	    !ring_buffer_record_is_on(tr->array_buffer.buffer) ||
	    !cpumask_test_cpu(raw_smp_processor_id(), tr->tracing_cpumask))
		this_cpu_inc(marker_trace_filtered);
	else
		this_cpu_inc(marker_trace_lost);
}

/*
 * Commit the record of an event with a filter, counting it if it is not
 * written. ftrace builds such a record in a per-CPU buffer
 * (trace_buffered_event) when it can, and trace_event_buffer_commit()
 * copies it into the ring buffer only if the filter takes it; neither
 * says whether the record was written. The filter is run here first (so
 * twice for an event with a filter): a record it refuses was filtered.
 * A record it takes that is already in the ring buffer is written. The
 * copy of one in the per-CPU buffer is refused, as a reservation would
 * be, while the buffer is not recording or the CPU is outside
 * tracing_cpumask (filtered), and when the buffer is full without
 * overwrite, which the ring buffer counts in the CPU's dropped events
 * (lost). Context: any (probe context); no locks.
 */
noinline void marker_event_commit_filtered(struct trace_event_buffer *fbuffer)
{
	struct trace_event_file *file = fbuffer->trace_file;
	struct trace_buffer *buffer = fbuffer->buffer;
	int cpu = smp_processor_id();
	unsigned long dropped;

	if (file->flags & EVENT_FILE_FL_SOFT_DISABLED) {
		trace_event_buffer_commit(fbuffer);
		return;
	}
	if (!filter_match_preds(rcu_dereference_sched(file->filter),
				fbuffer->entry)) {
		this_cpu_inc(marker_trace_filtered);
		trace_event_buffer_commit(fbuffer);
		return;
	}
	if (this_cpu_read(trace_buffered_event) != fbuffer->event) {
		trace_event_buffer_commit(fbuffer);
		return;
	}
	if (!ring_buffer_record_is_on(buffer) ||
	    !cpumask_test_cpu(cpu, file->tr->tracing_cpumask)) {
		this_cpu_inc(marker_trace_filtered);
		trace_event_buffer_commit(fbuffer);
		return;
	}
	dropped = ring_buffer_dropped_events_cpu(buffer, cpu);
	trace_event_buffer_commit(fbuffer);
	if (ring_buffer_dropped_events_cpu(buffer, cpu) != dropped)
		this_cpu_inc(marker_trace_lost);
}

/*
 * Write a hit whose values and string lengths are in @v, @size bytes:
 * cut its strings to fit the ring buffer, reserve, store, commit.
 * Context: any (probe context), preemption disabled.
 */
static __always_inline void marker_event_write(struct trace_event_file *file,
					       const struct marker_event *event,
					       struct marker_event_values *v,
					       unsigned int size)
{
	/* Every member is set by trace_event_buffer_reserve() */
	struct trace_event_buffer fbuffer __uninitialized;
	void *entry;

	if (unlikely(event->may_not_fit))
		size = marker_event_fit(event, v, size,
					ring_buffer_max_event_size(file->tr->array_buffer.buffer));
	entry = trace_event_buffer_reserve(&fbuffer, file, size);
	if (!entry) {
		marker_event_refused(file);
		return;
	}
	marker_event_store(event, entry, v);
	marker_event_commit(&fbuffer);
}

/*
 * The record of an event with strings: its arguments are read and the
 * strings measured first, then cut to fit the ring buffer, then the
 * record is reserved and written. Context: as marker_event_probe().
 */
static __always_inline void __marker_event_record_strings(struct trace_event_file *file,
							  const struct marker_event *event,
							  va_list *args)
{
	struct marker_event_values v __uninitialized;	/* filled by fetch */

	marker_event_write(file, event, &v, marker_event_fetch(event, args, &v));
}

static noinline void marker_event_record_strings(struct trace_event_file *file,
						 const struct marker_event *event,
						 va_list *args)
{
	__marker_event_record_strings(file, event, args);
}

/*
 * Whether the hit is not recorded in the instance of @file: soft
 * disabled (not counted), or a task set_event_pid leaves out (counted as
 * filtered). Context: as marker_event_probe().
 */
static __always_inline bool marker_event_skip(struct trace_event_file *file)
{
	if (!trace_trigger_soft_disabled(file))
		return false;
	if (!(file->flags & EVENT_FILE_FL_SOFT_DISABLED))
		this_cpu_inc(marker_trace_filtered);
	return true;
}

/*
 * Write the record of a hit of @event, which has no strings, into the
 * instance of @file, or count why it is not written. Context: as
 * marker_event_probe().
 */
static __always_inline void marker_event_record_fixed(struct trace_event_file *file,
						      struct marker_event *event,
						      va_list *args)
{
	/* Every member is set by trace_event_buffer_reserve() */
	struct trace_event_buffer fbuffer __uninitialized;
	void *entry;

	entry = trace_event_buffer_reserve(&fbuffer, file, event->fixed_size);
	if (!entry) {
		marker_event_refused(file);
		return;
	}
	marker_event_store_args(event, entry, args);
	marker_event_commit(&fbuffer);
}

/*
 * Write the record of one hit of @event into the instance of @file, or
 * count why it is not written. Context: as marker_event_probe().
 */
static __always_inline void marker_event_record(struct trace_event_file *file,
						struct marker_event *event,
						va_list *args)
{
	if (marker_event_skip(file))
		return;
	if (unlikely(event->has_strings)) {
		marker_event_record_strings(file, event, args);
		return;
	}
	marker_event_record_fixed(file, event, args);
}

/*
 * Whether the pid files of @tr leave @pid out, as trace_ignore_this_task()
 * says of a task. Context: any (probe context), preemption disabled.
 */
static bool marker_event_pid_ignored(struct trace_array *tr, pid_t pid)
{
	struct trace_pid_list *pids = rcu_dereference_sched(tr->filtered_pids);
	struct trace_pid_list *no_pids;

	no_pids = rcu_dereference_sched(tr->filtered_no_pids);
	return (pids && !trace_find_filtered_pid(pids, pid)) ||
	       (no_pids && trace_find_filtered_pid(no_pids, pid));
}

/*
 * Whether every task the pid fields of @event name is left out. The
 * fields are read from a copy of @args. Context: any (probe context).
 */
static bool marker_event_pids_ignored(struct trace_array *tr,
				      const struct marker_event *event,
				      va_list *args)
{
	unsigned int i, last = event->pid_field[event->nr_pid_fields - 1];
	u64 value[MARKER_FIELDS_MAX];
	va_list copy;

	va_copy(copy, *args);
	for (i = 0; i <= last; i++)
		value[i] = marker_event_arg(&event->fields[i], &copy);
	va_end(copy);
	for (i = 0; i < event->nr_pid_fields; i++)
		if (!marker_event_pid_ignored(tr, (pid_t)value[event->pid_field[i]]))
			return false;
	return true;
}

/*
 * The record of an event with pid fields while a pid file is set: as
 * ftrace's pid probes on the tracepoint do, the CPU's ignore_pid (which
 * says whether current is left out) is cleared around the record when a
 * task of the pid fields is let through, then set back. Context: as
 * marker_event_probe(): the scheduler's markers run with interrupts off.
 */
static noinline void marker_event_record_pids(struct trace_event_file *file,
					      struct marker_event *event,
					      va_list *args)
{
	struct trace_array_cpu *data = this_cpu_ptr(file->tr->array_buffer.data);

	if (!READ_ONCE(data->ignore_pid) ||
	    marker_event_pids_ignored(file->tr, event, args)) {
		marker_event_record(file, event, args);
		return;
	}
	WRITE_ONCE(data->ignore_pid, false);
	marker_event_record(file, event, args);
	WRITE_ONCE(data->ignore_pid, true);
}

#ifdef CONFIG_MARKERS_TRACE_RECORDERS
/*
 * ---- For a declaration's recorder (__MARKER_RECORDER()) ----
 *
 * The slow path of its values, stored by the fields' ops; the rest of the
 * recorders' side of the face is trace_markers_record.c's.
 */
#ifdef CONFIG_PERF_EVENTS
static void marker_event_perf_values(struct trace_event_call *call,
				     struct marker_event_values *v);
#endif

/**
 * marker_record_values - record a hit from its values, field by field
 * @data: the recorder's data: the event file whose recorder was called,
 *	or the event's call | MARKER_RECORD_PERF for perf
 * @values: each field's value, as u64 (a string's address)
 *
 * The slow path of a recorder whose record is larger than
 * MARKER_RECORD_FITS: the values are stored by the fields' ops, as
 * marker_event_record_strings() stores them, in the ring buffer of the
 * file, the strings cut to fit, or in perf's buffer
 * (marker_event_perf_values()).
 *
 * Context: the site's, preemption disabled.
 */
void marker_record_values(void *data, const u64 *values)
{
	struct trace_event_file *f = data;
	const struct marker_event *event;
	/* The strings' addresses and lengths are set by the measure */
	struct marker_event_values v __uninitialized;

	v.vals = values;
#ifdef CONFIG_PERF_EVENTS
	if ((unsigned long)data & MARKER_RECORD_PERF) {
		marker_event_perf_values(data - MARKER_RECORD_PERF, &v);
		return;
	}
#endif
	event = f->event_call->data;
	marker_event_write(f, event, &v, marker_event_measure(event, &v));
}
EXPORT_SYMBOL_GPL(marker_record_values);

#endif /* CONFIG_MARKERS_TRACE_RECORDERS */

/*
 * marker_event_probe - the probe of one enabled event file
 * @marker: the site that fired
 * @probe_private: the struct trace_event_file the probe was registered for
 * @args: the site's arguments
 *
 * Context: the site's: task, softirq, hard IRQ or NMI, possibly with the
 * runqueue lock held, preemption disabled. Allocates nothing and takes no
 * lock beyond what trace_event_buffer_reserve() and
 * trace_event_buffer_commit() take (none: the ring buffer is lockless for
 * writers). Records not written are counted as filtered or lost, each
 * once (marker_event_refused(), marker_event_commit_filtered()); strings
 * are cut so that no record is too large for the ring buffer. A record
 * without strings has the event's fixed size: it is reserved at once and
 * filled from @args, as a TRACE_EVENT() fills its entry. Under a pid
 * file, the events of the scheduler's markers that name a second task
 * follow the rule of their tracepoints' events (marker_event_pid_rules).
 */
static void notrace marker_event_probe(const struct marker *marker,
				       void *probe_private, va_list *args)
{
	struct trace_event_file *file = probe_private;
	struct marker_event *event = file->event_call->data;

	if (unlikely(event->nr_pid_fields &&
		     (file->flags & EVENT_FILE_FL_PID_FILTER))) {
		marker_event_record_pids(file, event, args);
		return;
	}
	marker_event_record(file, event, args);
}

/*
 * marker_event_probe_fixed - the probe of an event file whose event has
 * neither strings nor pid fields
 * @marker: the site that fired
 * @probe_private: the struct trace_event_file the probe was registered for
 * @args: the site's arguments
 *
 * As marker_event_probe(), without its tests of what the event cannot
 * have (marker_event_probe_of() chooses). Context: as
 * marker_event_probe(): any, preemption disabled; no locks, no
 * allocation, no sleeping.
 */
static void notrace marker_event_probe_fixed(const struct marker *marker,
					     void *probe_private, va_list *args)
{
	struct trace_event_file *file = probe_private;

	if (marker_event_skip(file))
		return;
	marker_event_record_fixed(file, file->event_call->data, args);
}

/*
 * marker_event_probe_strings - the probe of an event file whose event has
 * strings and no pid fields
 * @marker: the site that fired
 * @probe_private: the struct trace_event_file the probe was registered for
 * @args: the site's arguments
 *
 * As marker_event_probe_fixed(), for an event with strings. Context: as
 * marker_event_probe(): any, preemption disabled; no locks, no
 * allocation, no sleeping.
 */
static void notrace marker_event_probe_strings(const struct marker *marker,
					       void *probe_private, va_list *args)
{
	struct trace_event_file *file = probe_private;

	if (marker_event_skip(file))
		return;
	__marker_event_record_strings(file, file->event_call->data, args);
}

/* The probe that records @event into an event file. Context: process. */
static marker_probe_func marker_event_probe_of(const struct marker_event *event)
{
	if (event->nr_pid_fields)
		return marker_event_probe;
	if (event->has_strings)
		return marker_event_probe_strings;
	return marker_event_probe_fixed;
}

#ifdef CONFIG_PERF_EVENTS
/*
 * Whether a perf event of this CPU (*@head) listens to @call or a BPF
 * program is attached: if not, no record is built. A bool and the list
 * apart, not the list or NULL, which cost a test of the per-CPU address
 * (never NULL) per hit. Context: any (probe context), preemption disabled.
 */
static __always_inline bool marker_event_perf_listens(struct trace_event_call *call,
						      struct hlist_head **head)
{
	*head = this_cpu_ptr(call->perf_events);
	return bpf_prog_array_valid(call) || !hlist_empty(*head);
}

/*
 * Build a record of @size bytes (before perf's alignment) of @event in
 * perf's per-CPU buffer, from @args (an event without strings) or from
 * the values @v measured, then run the BPF programs and hand it to the
 * perf events @head. Context: any (probe context), preemption disabled;
 * no locks, no allocation.
 */
static __always_inline void marker_event_perf_write(struct marker_event *event,
						    struct hlist_head *head,
						    int size, va_list *args,
						    const struct marker_event_values *v)
{
	struct pt_regs *regs;
	void *entry;
	int rctx;

	/* perf adds a u32 size before the record and aligns to u64 */
	size = ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
	/* Without strings, at most 16 fields of 8 bytes: always fits */
	if (v && size > PERF_MAX_TRACE_SIZE) {
		this_cpu_inc(marker_perf_lost);
		return;
	}
	entry = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!entry) {
		this_cpu_inc(marker_perf_lost);
		return;
	}
	perf_fetch_caller_regs(regs);
	if (v)
		marker_event_store(event, entry, v);
	else
		marker_event_store_args(event, entry, args);
	/* Runs the event's BPF programs first, as perf_trace_<call>() does */
	perf_trace_run_bpf_submit(entry, size, rctx, &event->call, 1, regs,
				  head, NULL);
}

/*
 * marker_event_perf_probe - the varargs probe of an event perf uses
 * @marker: the site that fired
 * @probe_private: the struct marker_event
 * @args: the site's arguments
 *
 * As perf_trace_<call>() for a TRACE_EVENT: builds the record in perf's
 * per-CPU buffer, runs the BPF tracepoint programs attached to the event
 * on it (the fields at the offsets of the format file), then hands it to
 * the perf events of this CPU unless a program returned 0. It runs when
 * only a program listens too. The events of typed markers whose layout
 * is their recorder's use the declaration's recorder instead
 * (marker_event_register_typed()); the others take this probe too.
 * Context: the site's, as for marker_event_probe(); no locks, no
 * allocation, no sleeping (BPF tracepoint programs are not sleepable). A
 * record perf cannot take (recursion) is counted in marker_perf_lost.
 */
static void notrace marker_event_perf_probe(const struct marker *marker,
					    void *probe_private, va_list *args)
{
	struct marker_event *event = probe_private;
	struct marker_event_values v __uninitialized;	/* filled by fetch */
	struct hlist_head *head;

	if (!marker_event_perf_listens(&event->call, &head))
		return;
	if (event->has_strings)
		marker_event_perf_write(event, head,
					marker_event_fetch(event, args, &v),
					NULL, &v);
	else
		marker_event_perf_write(event, head, event->fixed_size, args,
					NULL);
}

#ifdef CONFIG_MARKERS_TRACE_RECORDERS
/*
 * The slow path of a recorder attached for perf (marker_record_values()):
 * a record larger than MARKER_RECORD_FITS, its values (@v->vals) stored
 * by the fields' ops, as the ring buffer's slow path stores them (one
 * larger than PERF_MAX_TRACE_SIZE is lost). Context: the site's (any, NMI
 * included), preemption disabled; no locks, no allocation.
 */
static noinline void marker_event_perf_values(struct trace_event_call *call,
					      struct marker_event_values *v)
{
	struct marker_event *event = call->data;
	struct hlist_head *head;

	if (!marker_event_perf_listens(call, &head))
		return;
	marker_event_perf_write(event, head, marker_event_measure(event, v),
				NULL, v);
}
#endif
#endif

/*
 * ---- Output ----
 *
 * Context: process, reading trace or trace_pipe, under
 * trace_event_read_lock(), which keeps the event from being freed.
 */

static u64 marker_event_read(const void *p, unsigned int size)
{
	switch (size) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return *(const u16 *)p;
	case 4:
		return *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

static void marker_event_print_field(struct trace_iterator *iter,
				     const struct marker_event_field *f,
				     const void *entry)
{
	const struct marker_field *field = &f->field;
	struct trace_seq *s = &iter->seq;
	const void *p = entry + f->offset;
	u32 loc;
	u64 v;

	if (marker_field_is_string(field)) {
		loc = *(const u32 *)p;
		trace_seq_printf(s, " %s=%.*s", field->name, (int)(loc >> 16),
				 (const char *)entry + (loc & 0xffff));
		return;
	}

	v = marker_event_read(p, field->size);
	switch (field->type) {
	case MARKER_FIELD_SIGNED:
		trace_seq_printf(s, " %s=%lld", field->name,
				 sign_extend64(v, field->size * 8 - 1));
		break;
	case MARKER_FIELD_POINTER:
		/* Hashed unless the hash-ptr option is off, as for %p events */
		trace_event_printf(iter, " %s=%p", field->name,
				   (void *)(unsigned long)v);
		break;
	default:
		if (field->conversion == 'x')
			trace_seq_printf(s, " %s=%llx", field->name, v);
		else if (field->conversion == 'X')
			trace_seq_printf(s, " %s=%llX", field->name, v);
		else if (field->conversion == 'o')
			trace_seq_printf(s, " %s=%llo", field->name, v);
		else
			trace_seq_printf(s, " %s=%llu", field->name, v);
		break;
	}
}

/* Prints "name: field=value ..." in trace and trace_pipe. */
static enum print_line_t marker_event_print(struct trace_iterator *iter,
					    int flags,
					    struct trace_event *trace_event)
{
	struct marker_event *event;
	unsigned int i;

	event = container_of(trace_event, struct marker_event, call.event);
	trace_seq_printf(&iter->seq, "%s:", event->name);
	for (i = 0; i < event->nr_fields; i++)
		marker_event_print_field(iter, &event->fields[i], iter->ent);
	trace_seq_putc(&iter->seq, '\n');
	return trace_handle_return(&iter->seq);
}

static struct trace_event_functions marker_event_funcs = {
	.trace = marker_event_print,
};

/* ---- Event definition: fields, format, registration ---- */

/* A field's type in the format file: strings (and %c) are stored as such. */
static const char *marker_event_field_type(const struct marker_field *f)
{
	return marker_field_is_string(f) ? "__data_loc char[]" :
					   marker_field_c_type(f);
}

static int marker_event_define_fields(struct trace_event_call *call)
{
	struct marker_event *event = call->data;
	unsigned int i;
	int ret;

	for (i = 0; i < event->nr_fields; i++) {
		const struct marker_field *f = &event->fields[i].field;
		bool is_string = marker_field_is_string(f);

		ret = trace_define_field(call, marker_event_field_type(f), f->name,
					 event->fields[i].offset,
					 is_string ? sizeof(u32) : f->size,
					 f->type == MARKER_FIELD_SIGNED,
					 FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

static struct trace_event_fields marker_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = marker_event_define_fields },
	{}
};

/* The printf conversion user space prints a field with. */
static void marker_field_print_conversion(const struct marker_field *f,
					  char *buf)
{
	char conversion = f->conversion == 'i' ? 'd' : f->conversion;

	if (marker_field_is_string(f)) {
		sprintf(buf, "%%s");
		return;
	}
	switch (f->length) {
	case 'H':
		sprintf(buf, "%%hh%c", conversion);
		break;
	case 'h':
		sprintf(buf, "%%h%c", conversion);
		break;
	case 'L':
		sprintf(buf, "%%ll%c", conversion);
		break;
	case 'l':
	case 'z':
	case 't':
		/* size_t and ptrdiff_t are long-sized in the kernel */
		sprintf(buf, "%%l%c", conversion);
		break;
	default:
		sprintf(buf, "%%%c", conversion);
		break;
	}
}

/* Append to @buf of @size bytes at *@len, as snprintf() does; count all. */
static __printf(4, 5) void marker_event_fmt_put(char *buf, size_t size,
						size_t *len, const char *fmt, ...)
{
	bool room = *len < size;
	va_list args;

	va_start(args, fmt);
	*len += vsnprintf(room ? buf + *len : NULL, room ? size - *len : 0,
			  fmt, args);
	va_end(args);
}

/*
 * "\"a=%d s=%s\", REC->a, __get_str(s)", for the format file, written to
 * @buf of @size bytes (NULL, 0 to measure it) as snprintf() does.
 * Return: its length, without the NUL.
 */
static size_t marker_event_print_fmt(const struct marker_field *fields,
				     unsigned int nr, char *buf, size_t size)
{
	char conversion[8];
	size_t len = 0;
	unsigned int i;

	marker_event_fmt_put(buf, size, &len, "\"");
	for (i = 0; i < nr; i++) {
		marker_field_print_conversion(&fields[i], conversion);
		marker_event_fmt_put(buf, size, &len, "%s%s=%s", i ? " " : "",
				     fields[i].name, conversion);
	}
	marker_event_fmt_put(buf, size, &len, "\"");
	for (i = 0; i < nr; i++) {
		const struct marker_field *f = &fields[i];

		if (marker_field_is_string(f))
			marker_event_fmt_put(buf, size, &len, ", __get_str(%s)",
					     f->name);
		else
			marker_event_fmt_put(buf, size, &len, ", REC->%s",
					     f->name);
	}
	return len;
}

static int marker_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data);
static void marker_events_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(marker_events_work, marker_events_work_fn);

/* How the recorder reads and stores field @f. */
static enum marker_event_op marker_event_op(const struct marker_field *f)
{
	switch (f->type) {
	case MARKER_FIELD_STRING:
		return MARKER_EVENT_STRING;
	case MARKER_FIELD_CHAR:
		return MARKER_EVENT_CHAR;
	case MARKER_FIELD_POINTER:
		return MARKER_EVENT_PTR;
	default:
		break;
	}
	/* An integer: va_arg() reads an int, or a long long */
	if (f->va_size == sizeof(long long))
		return MARKER_EVENT_U64;
	switch (f->size) {
	case 1:
		return MARKER_EVENT_U8;
	case 2:
		return MARKER_EVENT_U16;
	default:
		return MARKER_EVENT_U32;
	}
}

/*
 * A field of @n named as the common fields are (common_pid, ...), which
 * it would shadow in filters and triggers, or NULL.
 */
static const char *marker_name_reserved_field(const struct marker_name *n)
{
	int i;

	for (i = 0; i < n->nr_fields; i++)
		if (str_has_prefix(n->fields[i].name, "common_"))
			return n->fields[i].name;
	return NULL;
}

/* The pid fields of @event, if its name has a rule and the fields are ints. */
static void marker_event_set_pid_fields(struct marker_event *event)
{
	const struct marker_event_pid_rule *rule;
	unsigned int r, f, i;

	for (r = 0; r < ARRAY_SIZE(marker_event_pid_rules); r++)
		if (!strcmp(marker_event_pid_rules[r].name, event->name))
			break;
	if (r == ARRAY_SIZE(marker_event_pid_rules))
		return;
	rule = &marker_event_pid_rules[r];
	for (i = 0; i < MARKER_EVENT_PID_FIELDS && rule->fields[i]; i++) {
		for (f = 0; f < event->nr_fields; f++)
			if (!strcmp(event->fields[f].field.name, rule->fields[i]))
				break;
		if (f == event->nr_fields ||
		    event->fields[f].op != MARKER_EVENT_U32) {
			event->nr_pid_fields = 0;
			return;
		}
		/* In format order: marker_event_pids_ignored() reads up to the last */
		if (i && f < event->pid_field[i - 1]) {
			event->nr_pid_fields = 0;
			return;
		}
		event->pid_field[event->nr_pid_fields++] = f;
	}
}

/*
 * The recorder @event uses: the declaration's (@typed), where
 * declarations have recorders (64-bit kernels) and the recorder's layout
 * is the event's (a %hd given an int, a %c, a bool for a %d: not), else
 * the varargs probes. For perf always; for ftrace unless the event
 * follows a pid rule (marker_event_probe() reads the pid fields from its
 * arguments: marker_event_ftrace_typed()).
 */
static void marker_event_set_typed(struct marker_event *event,
				   struct marker_typed *typed)
{
#ifdef CONFIG_MARKERS_TRACE_RECORDERS
	marker_recorder_func recorder = typed ? typed->recorder : NULL;
	u64 layout;

	if (!recorder)
		return;
	recorder(&layout, false);
	if (layout != marker_event_layout(event->fields, event->nr_fields))
		return;
	event->typed = typed;
	preempt_disable();
	event->typed_owner = __module_address((unsigned long)typed);
	preempt_enable();
#endif
}

/*
 * How marker_event_store_args() stores the fields of @event, which has no
 * strings, from the register save area: MARKER_EVENT_REGS_U32(n) or
 * _U64(n) when its n fields, at most MARKER_EVENT_REGS_MAX, all have 4
 * bytes (ints) or all 8 (long longs; pointers on 64-bit), else
 * MARKER_EVENT_REGS_PUT. Context: process, building the event.
 */
static unsigned char marker_event_regs_store(const struct marker_event *event)
{
	unsigned int i, n4 = 0, n8 = 0, n = event->nr_fields;

	for (i = 0; i < n; i++) {
		switch (event->fields[i].op) {
		case MARKER_EVENT_U32:
			n4++;
			break;
		case MARKER_EVENT_U64:
			n8++;
			break;
		case MARKER_EVENT_PTR:
			if (sizeof(long) == sizeof(u64))
				n8++;
			break;
		default:
			break;
		}
	}
	if (!n || n > MARKER_EVENT_REGS_MAX)
		return MARKER_EVENT_REGS_PUT;
	if (n4 == n)
		return MARKER_EVENT_REGS_U32(n);
	if (n8 == n)
		return MARKER_EVENT_REGS_U64(n);
	return MARKER_EVENT_REGS_PUT;
}

/*
 * Every ring buffer takes an event of MARKER_EVENT_FITS bytes: its largest
 * (ring_buffer_max_event_size()) is a sub-buffer's data, at least a page,
 * less a few headers.
 */
#define MARKER_EVENT_FITS	(PAGE_SIZE / 2)

/*
 * Whether a record of @event with every string at its longest may be too
 * large for a ring buffer, so that marker_event_write() must fit it.
 * Context: process, building the event.
 */
static bool marker_event_may_not_fit(const struct marker_event *event)
{
	unsigned int i, size = event->fixed_size;

	for (i = 0; i < event->nr_fields; i++)
		if (event->fields[i].op == MARKER_EVENT_STRING)
			size += MARKER_EVENT_STRING_MAX;
		else if (event->fields[i].op == MARKER_EVENT_CHAR)
			size += 2;
	return size > MARKER_EVENT_FITS;
}

/* The event and its strings, one object (marker_event_alloc()). */
static void marker_event_free(struct marker_event *event)
{
	kfree(event);
}

/*
 * Build the event of the name @n, from the fields the listing parsed.
 * Return: the event, or NULL with *@err set: -EINVAL or -E2BIG when the
 * format does not parse, -EEXIST when a field is named as a common field
 * is, -ENOMEM.
 */
static struct marker_event *marker_event_alloc(const struct marker_name *n,
					       int *err)
{
	size_t size, name_len, format_len, print_fmt_len;
	const struct marker_field *fields = n->fields;
	struct marker_event *event;
	unsigned int offset, align, i;
	int nr = n->nr_fields;
	char *strings;

	if (nr < 0) {
		*err = nr;
		return NULL;
	}
	if (marker_name_reserved_field(n)) {
		*err = -EEXIST;
		return NULL;
	}

	/*
	 * One object: the event, its fields, then its name, format and print
	 * format, which live as long as it does.
	 */
	size = struct_size(event, fields, nr);
	name_len = strlen(n->name) + 1;
	format_len = strlen(n->format) + 1;
	print_fmt_len = marker_event_print_fmt(fields, nr, NULL, 0) + 1;
	*err = -ENOMEM;
	event = kzalloc(size_add(size, name_len + format_len + print_fmt_len),
			GFP_KERNEL);
	if (!event)
		return NULL;
	strings = (char *)event + size;
	event->name = memcpy(strings, n->name, name_len);
	event->format = memcpy(strings + name_len, n->format, format_len);
	event->call.print_fmt = strings + name_len + format_len;
	marker_event_print_fmt(fields, nr, event->call.print_fmt,
			       print_fmt_len);
	event->nr_fields = nr;
	/* The fields as bits of @strings and @scalars */
	BUILD_BUG_ON(BITS_PER_TYPE(event->strings) < MARKER_FIELDS_MAX);
	offset = sizeof(struct trace_entry);
	for (i = 0; i < nr; i++) {
		event->fields[i].field = fields[i];
		align = marker_field_is_string(&fields[i]) ? sizeof(u32) :
			fields[i].size;
		offset = ALIGN(offset, align);
		event->fields[i].offset = offset;
		event->fields[i].op = marker_event_op(&fields[i]);
		if (marker_field_is_string(&fields[i]))
			event->strings |= BIT(i);
		else
			event->scalars |= BIT(i);
		offset += align;
	}
	event->fixed_size = offset;
	event->has_strings = event->strings;
	event->regs_store = marker_event_regs_store(event);
	event->may_not_fit = marker_event_may_not_fit(event);
	marker_event_set_pid_fields(event);
	marker_event_set_typed(event, n->typed);

	event->class.system = TRACE_MARKER_SYSTEM;
	event->class.reg = marker_event_reg;
	event->class.fields_array = marker_event_fields_array;
	INIT_LIST_HEAD(&event->class.fields);
	event->call.class = &event->class;
	/*
	 * Reference-counted as dynamic events: see marker_event_remove().
	 * BPF tracepoint programs attach to the perf event, and
	 * marker_event_perf_probe() runs them.
	 */
	event->call.flags = TRACE_EVENT_FL_DYNAMIC | TRACE_EVENT_FL_MARKER;
	event->call.name = event->name;
	event->call.event.funcs = &marker_event_funcs;
	event->call.data = event;
	*err = 0;
	return event;
}

/* Add the event of the name @n to tracefs. Caller holds event_mutex. */
static int marker_event_add(const struct marker_name *n)
{
	struct marker_event *event;
	int ret;

	lockdep_assert_held(&event_mutex);
	event = marker_event_alloc(n, &ret);
	if (!event)
		return ret;
	if (!register_trace_event(&event->call.event)) {
		marker_event_free(event);
		return -ENODEV;
	}
	ret = trace_add_event_call(&event->call);
	if (ret) {
		unregister_trace_event(&event->call.event);
		marker_event_free(event);
		return ret;
	}
	list_add_tail(&event->list, &marker_events);
	return 0;
}

/*
 * Whether something holds @event: a reference (perf, an enable_event
 * trigger or an eprobe, a kernel user of trace_get_event_file()) or the
 * soft mode of a file (a trigger of the event in an instance, or one that
 * enables it), which makes trace_remove_event_call() refuse. Caller holds
 * event_mutex.
 */
static bool marker_event_held(struct marker_event *event)
{
	struct trace_event_file *file;
	struct trace_array *tr;

	lockdep_assert_held(&event_mutex);
	if (trace_event_dyn_busy(&event->call))
		return true;
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		list_for_each_entry(file, &tr->events, list) {
			if (file->event_call != &event->call)
				continue;
			if (file->flags & EVENT_FILE_FL_SOFT_MODE)
				return true;
			break;
		}
	}
	return false;
}

/*
 * Remove @event: disable it in every instance (the reg callback detaches
 * its probes and waits for them), then take it out of tracefs. An event
 * something holds (marker_event_held()) is left as it is, enabled where
 * it was, an orphan: it is removed once released, when a release tells
 * the face (perf closing it, the last trigger on it going) or else at a
 * later look at the orphans (marker_events_work_fn()). Caller holds
 * event_mutex, which reference takers hold too.
 *
 * Return: 0, or -EBUSY when the event is left as an orphan.
 */
static int marker_event_remove(struct marker_event *event)
{
	struct trace_event_file *file;
	struct trace_array *tr;
	bool used = false, disabled = false;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (marker_event_held(event)) {
		event->orphan = true;
		return -EBUSY;
	}
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		list_for_each_entry(file, &tr->events, list) {
			if (file->event_call != &event->call)
				continue;
			if (file->flags & EVENT_FILE_FL_WAS_ENABLED)
				used = true;
			if (file->flags & EVENT_FILE_FL_ENABLED) {
				trace_event_enable_disable(file, 0, 0);
				disabled = true;
			}
			break;
		}
	}
	/* The files go next: wait for the probes just detached. */
	if (disabled)
		marker_synchronize_unregister();

	ret = trace_remove_event_call(&event->call);
	if (ret) {
		event->orphan = true;
		return ret;
	}
	list_del(&event->list);
	marker_event_free(event);
	/* As for module events: old records would print as unknown types. */
	if (used)
		tracing_reset_all_online_cpus();
	return 0;
}

/**
 * marker_event_batch_begin - open ftrace's batch over several events
 * @batch: the caller's, for marker_event_batch_end()
 *
 * As marker_patch_batch_begin(): until marker_event_batch_end(), the
 * events enabled and disabled leave their sites and the static calls of
 * their typed markers (their recorders) to the batch's end, which patches
 * all sites with one set of sync rounds and retargets all static calls
 * with one more.
 *
 * Context: process, event_mutex held.
 */
void marker_event_batch_begin(struct marker_patch_batch *batch)
{
	lockdep_assert_held(&event_mutex);
	marker_patch_batch_begin(batch);
}

/**
 * marker_event_batch_end - close the batch marker_event_batch_begin() opened
 * @batch: as given to marker_event_batch_begin()
 *
 * Context: process, event_mutex held.
 * Return: as marker_patch_batch_end().
 */
int marker_event_batch_end(struct marker_patch_batch *batch)
{
	lockdep_assert_held(&event_mutex);
	return marker_patch_batch_end(batch);
}

/*
 * The recorder of @event's declaration for @data: for an event file
 * __marker_record_<name>(), for perf's tagged call (marker_event_perf_data())
 * __marker_record_perf_<name>().
 */
static void *marker_event_recorder(const struct marker_event *event,
				   void *data)
{
#ifdef CONFIG_MARKERS_TRACE_RECORDERS
	marker_recorder_func recorder = event->typed->recorder;
	u64 layout;

	return recorder(&layout, (unsigned long)data & MARKER_RECORD_PERF);
#else
	return NULL;	/* no recorders: event->typed stays NULL */
#endif
}

/* Whether ftrace's files of @event use the declaration's recorder. */
static bool marker_event_ftrace_typed(const struct marker_event *event)
{
	return event->typed && !event->nr_pid_fields;
}

/*
 * Whether the declaration's module is still in its init, or already
 * going. If the init fails, the loader frees the module without waiting
 * for the references taken on it (do_init_module()), as it refuses a
 * coming module to the symbol references of others; a going one takes
 * none. Until the init has returned, and once the module goes, a file or
 * perf that enables @event takes the face's varargs probe, which records
 * the same fields with no code or reference of the module, and keeps it
 * until disabled. Called with event_mutex held: the module stays while
 * @event->typed is set (marker_events_module_notify()).
 */
static bool marker_event_owner_not_live(const struct marker_event *event)
{
#ifdef CONFIG_MODULES
	return event->typed_owner &&
	       READ_ONCE(event->typed_owner->state) != MODULE_STATE_LIVE;
#else
	return false;	/* The declaration is the kernel's */
#endif
}

/*
 * Attach the declaration's recorder for @data with @data: an event file,
 * or for perf the event's call tagged MARKER_RECORD_PERF
 * (marker_event_perf_data()). The declaration's module (if any) is held
 * while the recorder is attached: it cannot go while its events record
 * with its code, as a module's trace event used by perf cannot. Called
 * with event_mutex held.
 */
static int marker_event_register_typed(struct marker_event *event,
				       void *data)
{
	int ret;

	if (!try_module_get(event->typed_owner))
		return -ENODEV;
	ret = marker_probe_register_typed(event->typed,
					  marker_event_recorder(event, data),
					  data);
	if (ret) {
		module_put(event->typed_owner);
		return ret;
	}
	event->typed_files++;
	return 0;
}

/*
 * Detach the recorder marker_event_register_typed() attached with @data
 * and let its module go. Called with event_mutex held.
 *
 * Return: 0, or -ENOENT if @event has no recorder attached with @data.
 */
static int marker_event_unregister_typed(struct marker_event *event,
					 void *data)
{
	int ret;

	if (!event->typed)
		return -ENOENT;
	ret = marker_probe_unregister_typed(event->typed,
					    marker_event_recorder(event, data),
					    data);
	if (ret)
		return ret;
	event->typed_files--;
	module_put(event->typed_owner);
	return 0;
}

#ifdef CONFIG_PERF_EVENTS
/* The perf recorder's data while perf uses @event: its call, tagged. */
static void *marker_event_perf_data(struct marker_event *event)
{
#ifdef CONFIG_MARKERS_TRACE_RECORDERS
	return (void *)((unsigned long)&event->call | MARKER_RECORD_PERF);
#else
	return NULL;	/* no recorders: event->typed stays NULL */
#endif
}
#endif

/*
 * The reg callback of every marker event. Called with event_mutex held,
 * in process context.
 */
static int marker_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data)
{
	struct marker_event *event = call->data;
	int ret;

	switch (type) {
	case TRACE_REG_REGISTER:
		if (marker_event_ftrace_typed(event) &&
		    !marker_event_owner_not_live(event))
			return marker_event_register_typed(event, data);
		return marker_probe_register(event->name, event->format,
					     marker_event_probe_of(event), data);
	case TRACE_REG_UNREGISTER:
		/*
		 * No grace period here, as for tracepoint events: disabling
		 * N events costs none. The file is freed only when its event
		 * goes (marker_event_remove() waits) or its instance does
		 * (event_trace_del_tracer() waits, synchronize_rcu()). The
		 * recorder is the declaration's, which the module reference
		 * keeps until the module goes, after a grace period.
		 */
		ret = -ENOENT;
		if (marker_event_ftrace_typed(event))
			ret = marker_event_unregister_typed(event, data);
		/* Not recorded by a recorder, or enabled while its module came */
		if (ret)
			ret = marker_probe_unregister(event->name,
						      marker_event_probe_of(event),
						      data);
		/* Perhaps the last trigger holding an orphan in soft mode */
		if (event->orphan)
			mod_delayed_work(system_wq, &marker_events_work, 0);
		return ret;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		/* The declaration's recorder, as for ftrace, pid rule or not */
		if (event->typed && !marker_event_owner_not_live(event))
			return marker_event_register_typed(event,
							   marker_event_perf_data(event));
		return marker_probe_register(event->name, event->format,
					     marker_event_perf_probe, event);
	case TRACE_REG_PERF_UNREGISTER:
		ret = marker_event_unregister_typed(event,
						    marker_event_perf_data(event));
		if (ret)
			ret = marker_probe_unregister(event->name,
						      marker_event_perf_probe,
						      event);
		/* Runs once perf has dropped its reference and event_mutex */
		if (event->orphan)
			mod_delayed_work(system_wq, &marker_events_work, 0);
		return ret;
	case TRACE_REG_PERF_OPEN:
	case TRACE_REG_PERF_CLOSE:
	case TRACE_REG_PERF_ADD:
	case TRACE_REG_PERF_DEL:
		return 0;
#endif
	}
	return 0;
}

/* ---- Names: what the sites say, gathered by marker_iterate_sites() ---- */

/* One marker name, as the sites of the kernel and modules show it. */
/* Called by marker_iterate_names() with the marker mutex held. */
static int marker_names_add(const struct marker_name_info *info, void *data)
{
	struct marker_names *names = data;
	struct marker_name *n;

	if (names->nr == names->max) {
		unsigned int max = names->max ? 2 * names->max : 32;

		n = krealloc_array(names->names, max, sizeof(*n), GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		names->names = n;
		names->max = max;
	}
	n = &names->names[names->nr];
	*n = (struct marker_name) {
		.nr_fields = info->nr_fields,
		.nr_sites = info->nr_sites,
		.nr_conflicts = info->nr_conflicts,
		.debug = info->debug,
	};
	strscpy(n->modules, info->modules, sizeof(n->modules));
	n->name = kstrdup(info->name, GFP_KERNEL);
	if (info->format)
		n->format = kstrdup(info->format, GFP_KERNEL);
	if (info->fields)
		n->fields = kmemdup_array(info->fields, info->nr_fields,
					  sizeof(*info->fields), GFP_KERNEL);
	names->nr++;
	if (!n->name || (info->format && !n->format) ||
	    (info->fields && !n->fields))
		return -ENOMEM;
	return 0;
}

void marker_names_free(struct marker_names *names)
{
	unsigned int i;

	for (i = 0; i < names->nr; i++) {
		kfree(names->names[i].name);
		kfree(names->names[i].format);
		kfree(names->names[i].fields);
	}
	kfree(names->names);
}

static int marker_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct marker_name *)a)->name,
		      ((const struct marker_name *)b)->name);
}

/*
 * Every marker name with sites, from the registry, sorted by name.
 * Process context.
 */
static int marker_names_add_typed(const struct marker_site_info *info,
				  void *data);

int marker_names_gather(struct marker_names *names)
{
	int ret;

	memset(names, 0, sizeof(*names));
	ret = marker_iterate_names(marker_names_add, names);
	if (ret) {
		marker_names_free(names);
		return ret;
	}
	sort(names->names, names->nr, sizeof(*names->names), marker_name_cmp,
	     NULL);
	return marker_iterate_sites(marker_names_add_typed, names);
}

static struct marker_name *marker_names_find(struct marker_names *names,
					     const char *name)
{
	struct marker_name key = { .name = name };

	return bsearch(&key, names->names, names->nr, sizeof(*names->names),
		       marker_name_cmp);
}

/*
 * Note the declaration of a typed site's name. Called by
 * marker_iterate_sites() with the marker mutex held: the declaration
 * stays while its sites do, and those of a module while the face's
 * module notifier waits for event_mutex, which the caller holds.
 */
static int marker_names_add_typed(const struct marker_site_info *info,
				  void *data)
{
	const struct marker *marker = info->marker;
	struct marker_name *n;

	if (!marker->typed || (marker->flags & MARKER_FLAG_CONFLICT))
		return 0;
	n = marker_names_find(data, marker->name);
	if (n)
		n->typed = marker->typed;
	return 0;
}

static struct marker_event *marker_event_find(const char *name)
{
	struct marker_event *event;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(event, &marker_events, list)
		if (!strcmp(event->name, name))
			return event;
	return NULL;
}

/* ---- Keeping the events in step with the sites ---- */

/* Whether an event is an orphan. Caller holds event_mutex. */
static bool marker_events_have_orphans(void)
{
	struct marker_event *event;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(event, &marker_events, list)
		if (event->orphan)
			return true;
	return false;
}

/*
 * Add an event for each name with sites and a format that parses, remove
 * the events of names without sites or whose format changed. An event
 * that cannot be removed because it is held stays an orphan, and keeps
 * its name from a new event, until it is found released
 * (marker_events_work_fn()). Called at boot, when a module with markers
 * comes or goes and from marker_events_work, with event_mutex held.
 */
static void marker_events_update(void)
{
	struct marker_event *event, *tmp;
	struct marker_names names;
	struct marker_name *n;
	unsigned int i;
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = marker_names_gather(&names);
	if (ret) {
		pr_warn("cannot list the markers for their events: %d\n", ret);
		return;
	}

	list_for_each_entry_safe(event, tmp, &marker_events, list) {
		n = marker_names_find(&names, event->name);
		if (n && n->nr_sites && !strcmp(n->format, event->format)) {
			event->orphan = false;
			continue;
		}
		marker_event_remove(event);
	}

	for (i = 0; i < names.nr; i++) {
		n = &names.names[i];
		if (!n->nr_sites || marker_event_find(n->name))
			continue;
		ret = marker_event_add(n);
		if (ret && ret != -EINVAL && ret != -E2BIG && ret != -EEXIST)
			pr_warn("cannot add the event of marker %s: %d\n",
				n->name, ret);
	}
	marker_names_free(&names);

	if (marker_events_have_orphans())
		schedule_delayed_work(&marker_events_work, MARKER_ORPHAN_RETRY);
}

/*
 * Remove the orphans nothing holds any more, without looking at the
 * names. Caller holds event_mutex.
 *
 * Return: whether one was removed (its name may now get an event of its
 * new format).
 */
static bool marker_events_reap(void)
{
	struct marker_event *event, *tmp;
	bool removed = false;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry_safe(event, tmp, &marker_events, list)
		if (event->orphan && !marker_event_remove(event))
			removed = true;
	return removed;
}

/* Set once marker_trace_init() has made the first events. */
static bool marker_events_ready;

/* Set by marker_events_names_notify(): the work rescans the names. */
static atomic_t marker_events_names_changed = ATOMIC_INIT(0);

/*
 * Rescans the names after a format conflict healed, and after an orphan
 * was removed. Otherwise it only looks at the orphans: when a release
 * may have let one go (perf or the last trigger let go of it), and every
 * MARKER_ORPHAN_RETRY while one is held, as the other holders'
 * trace_event_put_ref() tells nobody. Process context.
 */
static void marker_events_work_fn(struct work_struct *work)
{
	mutex_lock(&event_mutex);
	if (!marker_events_ready)
		goto out;
	if (atomic_xchg(&marker_events_names_changed, 0) ||
	    marker_events_reap())
		marker_events_update();
	else if (marker_events_have_orphans())
		schedule_delayed_work(&marker_events_work, MARKER_ORPHAN_RETRY);
out:
	mutex_unlock(&event_mutex);
}

/*
 * The registry's notifier: sites of a name changed other than by a module
 * coming or going (a format conflict healed, and sites that were left out
 * now have their name's new format). Schedules the rescan of the events,
 * which replaces the event of the old format. Context: process, with the
 * marker mutex held and possibly event_mutex (the reg callback
 * unregistering a probe): takes no lock and does not sleep.
 */
static int marker_events_names_notify(struct notifier_block *nb,
				      unsigned long val, void *data)
{
	if (val != MARKER_NAMES_CHANGED)
		return NOTIFY_DONE;
	atomic_set(&marker_events_names_changed, 1);
	mod_delayed_work(system_wq, &marker_events_work, 0);
	return NOTIFY_OK;
}

static struct notifier_block marker_events_names_nb = {
	.notifier_call = marker_events_names_notify,
};

#ifdef CONFIG_MODULES
/*
 * Runs after the marker core's notifier (priority 1), so on COMING the
 * module's sites are attached and on GOING they are gone. Process context.
 */
static int marker_events_module_notify(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	struct module *mod = data;

	struct marker_event *event;

	if (!mod->num_markers ||
	    (val != MODULE_STATE_COMING && val != MODULE_STATE_GOING))
		return NOTIFY_DONE;
	mutex_lock(&event_mutex);
	/* A held orphan keeps its name; not the declaration of a module gone */
	if (val == MODULE_STATE_GOING)
		list_for_each_entry(event, &marker_events, list)
			if (event->typed && event->typed_owner == mod &&
			    !WARN_ON_ONCE(event->typed_files))
				event->typed = NULL;
	marker_events_update();
	mutex_unlock(&event_mutex);
	return NOTIFY_OK;
}

static struct notifier_block marker_events_module_nb = {
	.notifier_call = marker_events_module_notify,
	.priority = 0,
};
#endif

/* ---- What the listings say of a name's event ---- */

/*
 * What the listing "markers" says of @n's event: "event", or "no-event"
 * and why. Caller holds event_mutex.
 */
const char *marker_name_event(const struct marker_name *n)
{
	struct marker_event *event = marker_event_find(n->name);

	if (event && !event->orphan)
		return "event";
	if (event)
		return "no-event:held";
	if (!n->nr_sites)
		return "no-event:conflict";
	if (n->nr_fields == -E2BIG)
		return "no-event:too-many-fields";
	if (n->nr_fields < 0)
		return "no-event:bad-format";
	if (marker_name_reserved_field(n))
		return "no-event:reserved-field";
	return "no-event";
}

static __init int marker_trace_init(void)
{
	int __maybe_unused ret;

	/* Before the first scan, so that no healed conflict goes unseen. */
	marker_notifier_register(&marker_events_names_nb);
	mutex_lock(&event_mutex);
	marker_events_update();
	marker_events_ready = true;
	mutex_unlock(&event_mutex);
	/*
	 * trace_event=, trace_instance=, trace_trigger= and the boot config
	 * were applied before there were events
	 */
	trace_boot_enable_late_events(TRACE_MARKER_SYSTEM);

#ifdef CONFIG_MODULES
	ret = register_module_notifier(&marker_events_module_nb);
	if (ret)
		pr_warn("no marker events for modules: %d\n", ret);
#endif
	return 0;
}
fs_initcall(marker_trace_init);
