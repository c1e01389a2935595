// SPDX-License-Identifier: GPL-2.0
/*
 * probe-example.c - probes on the markers of marker-example.c
 *
 * Two kinds of probe:
 *
 *  - format-checked probes, registered with the format they expect; they
 *    read their arguments with va_arg() and may trust the types, because
 *    registration fails with -EPERM if the marker's format differs;
 *  - example_probe_any(), registered with a NULL format: it parses
 *    @marker->format itself and reads each argument with
 *    marker_field_fetch(), so it works on any marker.
 *
 * Every hit is counted per CPU and per marker, and recorded as one line of
 * text, "name: field=value field=value", in a ring of preallocated events
 * per CPU. Strings are quoted, characters are in single quotes, pointers
 * and %x values are in hex with 0x, %o values in octal with 0.
 *
 * debugfs, under /sys/kernel/debug/probe-example/:
 *
 *	counts	one line per marker: "name total=T cpuN=H ...", listing the
 *		CPUs with hits
 *	events	the recorded events, oldest first per CPU, each line
 *		prefixed "cpuN "; lines starting with '#' report lost events.
 *		Writing anything to it clears it.
 *
 * This module may be loaded before marker-example: probes may be registered
 * for markers that do not exist yet, and are attached when they appear.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <asm/local.h>

#define EXAMPLE_EVENT_LEN	120	/* text of one event, NUL included */
#define EXAMPLE_EVENTS_PER_CPU	128

/**
 * struct example_event - one recorded event
 * @seq: sequence number of the event in its CPU's ring; 0 while a writer
 *	fills @text
 * @text: "name: field=value ..."
 */
struct example_event {
	unsigned long seq;
	char text[EXAMPLE_EVENT_LEN];
};

/**
 * struct example_cpu_events - the events of one CPU
 * @head: sequence number of the newest event; writers reserve the next one
 *	with local_inc_return(), which is safe against nested IRQs and NMIs
 * @cleared: events up to this sequence number were cleared by the reader
 * @events: the ring; event number seq lives at seq % EXAMPLE_EVENTS_PER_CPU
 */
struct example_cpu_events {
	local_t head;
	unsigned long cleared;
	struct example_event events[EXAMPLE_EVENTS_PER_CPU];
};

static struct example_cpu_events __percpu *example_events;

/**
 * struct example_probe - a probe and the marker it is attached to
 * @name: marker name
 * @format: the format @probe expects, or NULL if it reads the marker's
 * @probe: the probe; it gets this struct as its private data
 * @hits: per-CPU count of the probe's calls
 */
struct example_probe {
	const char *name;
	const char *format;
	marker_probe_func probe;
	local_t __percpu *hits;
};

/**
 * struct example_writer - an event being recorded
 * @event: its slot in this CPU's ring
 * @seq: its sequence number
 * @len: length of the text written so far
 */
struct example_writer {
	struct example_event *event;
	unsigned long seq;
	size_t len;
};

/*
 * Recording, in probe context: the helpers below take no locks and allocate
 * nothing. Preemption is disabled, so this CPU's ring stays ours; an IRQ or
 * NMI probe that interrupts a writer reserves the next slot and finishes
 * before the writer resumes.
 */

static __printf(2, 3) void example_event_printf(struct example_writer *w,
						const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	w->len += vscnprintf(w->event->text + w->len,
			     EXAMPLE_EVENT_LEN - w->len, fmt, args);
	va_end(args);
}

/* The string comes from the marker site; copy it, bounded, quoted. */
static void example_event_string(struct example_writer *w, const char *name,
				 const char *str)
{
	ssize_t copied;

	example_event_printf(w, " %s=\"", name);
	copied = strscpy(w->event->text + w->len, str ? str : "(null)",
			 EXAMPLE_EVENT_LEN - w->len);
	w->len = copied < 0 ? EXAMPLE_EVENT_LEN - 1 : w->len + copied;
	example_event_printf(w, "\"");
}

/* Count the hit and start an event "name:" in this CPU's ring. */
static void example_event_begin(struct example_writer *w,
				const struct marker *marker,
				struct example_probe *probe)
{
	struct example_cpu_events *ring = this_cpu_ptr(example_events);

	local_inc(this_cpu_ptr(probe->hits));

	w->seq = local_inc_return(&ring->head);
	w->event = &ring->events[w->seq % EXAMPLE_EVENTS_PER_CPU];
	w->len = 0;
	WRITE_ONCE(w->event->seq, 0);
	/* Readers must see the slot as unfinished before its text changes. */
	smp_wmb();
	example_event_printf(w, "%s:", marker->name);
}

static void example_event_end(struct example_writer *w)
{
	/* Publish the event: a reader that sees its number sees the text. */
	smp_store_release(&w->event->seq, w->seq);
}

/*
 * Append " name=value" for one field of a parsed format. @value comes from
 * marker_field_fetch(): already truncated to the field's size, and
 * sign-extended for signed fields.
 */
static void example_event_field(struct example_writer *w,
				const struct marker_field *field, u64 value)
{
	switch (field->type) {
	case MARKER_FIELD_SIGNED:
		example_event_printf(w, " %s=%lld", field->name, (s64)value);
		break;
	case MARKER_FIELD_UNSIGNED:
		if (field->conversion == 'x' || field->conversion == 'X')
			example_event_printf(w, " %s=0x%llx", field->name, value);
		else if (field->conversion == 'o')
			example_event_printf(w, " %s=0%llo", field->name, value);
		else
			example_event_printf(w, " %s=%llu", field->name, value);
		break;
	case MARKER_FIELD_CHAR:
		example_event_printf(w, " %s='%c'", field->name, (char)value);
		break;
	case MARKER_FIELD_POINTER:
		example_event_printf(w, " %s=0x%llx", field->name, value);
		break;
	case MARKER_FIELD_STRING:
		example_event_string(w, field->name,
				     (const char *)(unsigned long)value);
		break;
	}
}

/*
 * The probes. Each runs in whatever context its marker fires in: task,
 * softirq, hard IRQ, NMI, or the scheduler with the runqueue lock held. Each
 * takes no locks and allocates nothing: it only bumps per-CPU counters and
 * formats into a preallocated per-CPU slot.
 */

/**
 * example_probe_int() - probe for example_int, "count %d value %llu"
 * @marker: the site that fired
 * @probe_private: its struct example_probe
 * @args: the site's arguments
 *
 * Context: any, NMI included; takes no locks, allocates nothing.
 */
static void example_probe_int(const struct marker *marker,
			      void *probe_private, va_list *args)
{
	int count = va_arg(*args, int);
	unsigned long long value = va_arg(*args, unsigned long long);
	struct example_writer w;

	example_event_begin(&w, marker, probe_private);
	example_event_printf(&w, " count=%d value=%llu", count, value);
	example_event_end(&w);
}

/**
 * example_probe_string() - probe for example_string, "name %s"
 * @marker: the site that fired
 * @probe_private: its struct example_probe
 * @args: the site's arguments
 *
 * Context: any, NMI included; takes no locks, allocates nothing.
 */
static void example_probe_string(const struct marker *marker,
				 void *probe_private, va_list *args)
{
	const char *name = va_arg(*args, const char *);
	struct example_writer w;

	example_event_begin(&w, marker, probe_private);
	example_event_string(&w, "name", name);
	example_event_end(&w);
}

/**
 * example_probe_ptr() - probe for example_ptr, "object %p slot %u"
 * @marker: the site that fired
 * @probe_private: its struct example_probe
 * @args: the site's arguments
 *
 * Records the raw address: debugfs is readable by root only.
 *
 * Context: any, NMI included; takes no locks, allocates nothing.
 */
static void example_probe_ptr(const struct marker *marker,
			      void *probe_private, va_list *args)
{
	void *object = va_arg(*args, void *);
	unsigned int slot = va_arg(*args, unsigned int);
	struct example_writer w;

	example_event_begin(&w, marker, probe_private);
	example_event_printf(&w, " object=0x%lx slot=%u",
			     (unsigned long)object, slot);
	example_event_end(&w);
}

/**
 * example_probe_noargs() - probe for example_noargs, MARK_NOARGS
 * @marker: the site that fired
 * @probe_private: its struct example_probe
 * @args: unused: the marker has no arguments
 *
 * Context: any, NMI included; takes no locks, allocates nothing.
 */
static void example_probe_noargs(const struct marker *marker,
				 void *probe_private, va_list *args)
{
	struct example_writer w;

	example_event_begin(&w, marker, probe_private);
	example_event_end(&w);
}

/**
 * example_probe_any() - probe for any marker, reading its format
 * @marker: the site that fired
 * @probe_private: its struct example_probe
 * @args: the site's arguments, described by @marker->format
 *
 * Registered with a NULL format. The format is parsed into an array on the
 * stack (MARKER_FIELDS_MAX fields, well under a kilobyte), so nothing is
 * allocated, and each argument is read with marker_field_fetch().
 *
 * Context: any, NMI included; takes no locks, allocates nothing.
 */
static void example_probe_any(const struct marker *marker,
			      void *probe_private, va_list *args)
{
	struct marker_field fields[MARKER_FIELDS_MAX];
	struct example_writer w;
	int nr, i;

	example_event_begin(&w, marker, probe_private);
	nr = marker_format_parse(marker->format, fields, ARRAY_SIZE(fields));
	if (nr < 0)
		example_event_printf(&w, " unparsable format (%d)", nr);
	for (i = 0; i < nr; i++)
		example_event_field(&w, &fields[i],
				    marker_field_fetch(&fields[i], args));
	example_event_end(&w);
}

static struct example_probe example_probes[] = {
	{ "example_int", "count %d value %llu", example_probe_int },
	{ "example_string", "name %s", example_probe_string },
	{ "example_ptr", "object %p slot %u", example_probe_ptr },
	{ "example_noargs", MARK_NOARGS, example_probe_noargs },
	{ "example_small", NULL, example_probe_any },
	{ "example_init", NULL, example_probe_any },
};

/* debugfs, in process context: the readers of the counters and the rings. */

static struct dentry *example_dir;

static int example_counts_show(struct seq_file *m, void *unused)
{
	struct example_probe *probe;
	unsigned long hits, total;
	int cpu;

	for (probe = example_probes;
	     probe < example_probes + ARRAY_SIZE(example_probes); probe++) {
		total = 0;
		for_each_possible_cpu(cpu)
			total += local_read(per_cpu_ptr(probe->hits, cpu));
		seq_printf(m, "%s total=%lu", probe->name, total);

		for_each_possible_cpu(cpu) {
			hits = local_read(per_cpu_ptr(probe->hits, cpu));
			if (hits)
				seq_printf(m, " cpu%d=%lu", cpu, hits);
		}
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(example_counts);

/*
 * Copy event @seq out of @event into @text. False if a writer holds the
 * slot: the event is unfinished, or was overwritten by a newer one.
 */
static bool example_event_read(const struct example_event *event,
			       unsigned long seq, char *text)
{
	/* Pairs with example_event_end(): the text is complete if seq is. */
	if (smp_load_acquire(&event->seq) != seq)
		return false;
	/* May race with a writer reusing the slot: the recheck tells. */
	data_race(memcpy(text, event->text, EXAMPLE_EVENT_LEN));
	/*
	 * Pairs with example_event_begin(): a writer that took the slot
	 * during the copy cleared seq first, so the recheck catches it.
	 */
	smp_rmb();
	if (READ_ONCE(event->seq) != seq)
		return false;
	text[EXAMPLE_EVENT_LEN - 1] = '\0';
	return true;
}

static void example_events_show_cpu(struct seq_file *m, int cpu)
{
	struct example_cpu_events *ring = per_cpu_ptr(example_events, cpu);
	unsigned long head = local_read(&ring->head);
	unsigned long first = READ_ONCE(ring->cleared) + 1;
	char text[EXAMPLE_EVENT_LEN];
	unsigned long seq;

	if (head >= EXAMPLE_EVENTS_PER_CPU &&
	    head - EXAMPLE_EVENTS_PER_CPU + 1 > first) {
		seq_printf(m, "# cpu%d lost %lu events\n", cpu,
			   head - EXAMPLE_EVENTS_PER_CPU + 1 - first);
		first = head - EXAMPLE_EVENTS_PER_CPU + 1;
	}

	for (seq = first; seq <= head; seq++) {
		if (example_event_read(&ring->events[seq % EXAMPLE_EVENTS_PER_CPU],
				       seq, text))
			seq_printf(m, "cpu%d %s\n", cpu, text);
		else
			seq_printf(m, "# cpu%d lost event %lu, overwritten or unfinished\n",
				   cpu, seq);
	}
}

static int example_events_show(struct seq_file *m, void *unused)
{
	int cpu;

	for_each_possible_cpu(cpu)
		example_events_show_cpu(m, cpu);
	return 0;
}

static int example_events_open(struct inode *inode, struct file *file)
{
	return single_open(file, example_events_show, inode->i_private);
}

/* Writing anything clears the events recorded so far. */
static ssize_t example_events_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct example_cpu_events *ring;
	int cpu;

	for_each_possible_cpu(cpu) {
		ring = per_cpu_ptr(example_events, cpu);
		WRITE_ONCE(ring->cleared, local_read(&ring->head));
	}
	return count;
}

static const struct file_operations example_events_fops = {
	.owner		= THIS_MODULE,
	.open		= example_events_open,
	.read		= seq_read,
	.write		= example_events_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static void example_free(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(example_probes); i++)
		free_percpu(example_probes[i].hits);
	free_percpu(example_events);
}

static int __init probe_example_init(void)
{
	struct marker_probe_request reqs[ARRAY_SIZE(example_probes)];
	unsigned int i;
	int ret;

	example_events = alloc_percpu(struct example_cpu_events);
	if (!example_events)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(example_probes); i++) {
		example_probes[i].hits = alloc_percpu(local_t);
		if (!example_probes[i].hits) {
			example_free();
			return -ENOMEM;
		}
		reqs[i] = (struct marker_probe_request) {
			.name		= example_probes[i].name,
			.format		= example_probes[i].format,
			.probe		= example_probes[i].probe,
			.probe_private	= &example_probes[i],
		};
	}

	/* One batch: all sites of all markers are patched together. */
	ret = marker_probe_register_batch(reqs, ARRAY_SIZE(reqs));
	if (ret) {
		/* Nothing was registered: a batch applies whole or not at all. */
		pr_err("registering the probes failed: %d\n", ret);
		example_free();
		return ret;
	}

	example_dir = debugfs_create_dir("probe-example", NULL);
	debugfs_create_file("counts", 0400, example_dir, NULL,
			    &example_counts_fops);
	debugfs_create_file("events", 0600, example_dir, NULL,
			    &example_events_fops);
	return 0;
}

static void __exit probe_example_exit(void)
{
	unsigned int i;

	/* Each probe was registered with its own entry as private data. */
	for (i = 0; i < ARRAY_SIZE(example_probes); i++)
		marker_probe_unregister_private_data(example_probes[i].probe,
						     &example_probes[i]);
	/* Wait for probe calls still running on other CPUs. */
	marker_synchronize_unregister();

	debugfs_remove_recursive(example_dir);
	example_free();
}

module_init(probe_example_init);
module_exit(probe_example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static marker sample: format-checked and format-parsing probes");
