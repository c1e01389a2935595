// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_record.c - record the sched and futex events of one process
 *
 * Attaches format-checked probes to every marker of
 * include/trace/markers/sched.h and include/trace/markers/futex.h and
 * records, into a ring allocated when the module loads, the events of one
 * thread group:
 *
 *  - sched events whose tgid fields (prev_tgid, next_tgid, tgid,
 *    parent_tgid, child_tgid) name it;
 *  - futex events issued by one of its threads.
 *
 * debugfs, under /sys/kernel/debug/test_markers_record/:
 *
 *	tgid	write a tgid to clear the recording and start recording that
 *		thread group; write 0 to stop (the events stay readable).
 *		Reads back the tgid being recorded, 0 if none.
 *	events	the recorded events in the order they were recorded: a
 *		first line "# dropped N" (events that did not fit), then one
 *		line per event, "name field=value ...". Signed fields are in
 *		decimal, %x/%lx fields in hex with 0x, other unsigned fields
 *		in decimal, strings as they are.
 *
 * Probe context rules: the probes fill preallocated slots reserved with
 * one atomic increment; they take no locks and allocate nothing.
 */

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <trace/markers/futex.h>
#include <trace/markers/sched.h>
#include "test_markers.h"

#define RECORD_EVENTS		16384
#define RECORD_STRINGS		2	/* string fields of one event, at most */

/**
 * struct record_marker - a marker the module records
 * @name: marker name
 * @format: its format, from the typed header
 * @fields: @format parsed
 * @nr_fields: number of @fields
 * @tgid_fields: bit N set if field N is a tgid; 0 for futex events, which
 *	are matched by the caller's tgid
 */
struct record_marker {
	const char *name;
	const char *format;
	struct marker_field fields[MARKER_FIELDS_MAX];
	int nr_fields;
	unsigned int tgid_fields;
};

static struct record_marker record_markers[] = {
	{ "sched_switch", SCHED_SWITCH_FORMAT },
	{ "sched_wakeup", SCHED_WAKEUP_FORMAT },
	{ "sched_wakeup_new", SCHED_WAKEUP_NEW_FORMAT },
	{ "sched_migrate_task", SCHED_MIGRATE_TASK_FORMAT },
	{ "sched_process_fork", SCHED_PROCESS_FORK_FORMAT },
	{ "sched_process_exit", SCHED_PROCESS_EXIT_FORMAT },
	{ "futex_wait", FUTEX_WAIT_FORMAT },
	{ "futex_wake", FUTEX_WAKE_FORMAT },
	{ "futex_requeue", FUTEX_REQUEUE_FORMAT },
	{ "futex_lock_pi", FUTEX_LOCK_PI_FORMAT },
	{ "futex_unlock_pi", FUTEX_UNLOCK_PI_FORMAT },
};

/**
 * struct record_event - one recorded event
 * @ready: set, with release, once the slot is filled
 * @marker: its struct record_marker
 * @values: the field values, as marker_field_fetch() returns them
 * @strings: copies of the string fields, in field order
 */
struct record_event {
	int ready;
	const struct record_marker *marker;
	u64 values[MARKER_FIELDS_MAX];
	char strings[RECORD_STRINGS][TASK_COMM_LEN];
};

static struct record_event *record_events;
static atomic_t record_head;		/* slots reserved so far */
static atomic_t record_dropped;
static pid_t record_tgid;		/* 0: not recording */
static DEFINE_MUTEX(record_mutex);	/* serialises writers of tgid */
static struct dentry *record_dir;

static bool record_is_tgid(const char *name)
{
	size_t len = strlen(name);

	return len >= 4 && !strcmp(name + len - 4, "tgid");
}

/*
 * Does the event belong to the thread group being recorded? Context: probe
 * context (see record_probe()); no locks, no allocation.
 */
static bool record_match(const struct record_marker *rm, const u64 *values,
			 pid_t tgid)
{
	int i;

	if (!rm->tgid_fields)
		return task_tgid_nr(current) == tgid;
	for (i = 0; i < rm->nr_fields; i++)
		if ((rm->tgid_fields & BIT(i)) && (pid_t)values[i] == tgid)
			return true;
	return false;
}

/**
 * record_probe() - record one event of the thread group being recorded
 * @marker: the site that fired
 * @probe_private: the struct record_marker of its name
 * @args: the site's arguments, in the order of the format
 *
 * Context: any context the sched and futex markers fire in: task,
 * softirq, hard IRQ, and the scheduler with a runqueue lock held and
 * interrupts off. Takes no locks and allocates nothing: it reserves a
 * preallocated slot with one atomic increment and fills it.
 */
static void record_probe(const struct marker *marker, void *probe_private,
			 va_list *args)
{
	const struct record_marker *rm = probe_private;
	pid_t tgid = READ_ONCE(record_tgid);
	u64 values[MARKER_FIELDS_MAX];
	struct record_event *ev;
	int i, idx, s = 0;

	if (!tgid)
		return;
	for (i = 0; i < rm->nr_fields; i++)
		values[i] = marker_field_fetch(&rm->fields[i], args);
	if (!record_match(rm, values, tgid))
		return;

	idx = atomic_inc_return(&record_head) - 1;
	if (idx >= RECORD_EVENTS) {
		atomic_inc(&record_dropped);
		return;
	}
	ev = &record_events[idx];
	ev->marker = rm;
	for (i = 0; i < rm->nr_fields; i++) {
		ev->values[i] = values[i];
		if (rm->fields[i].type == MARKER_FIELD_STRING &&
		    s < RECORD_STRINGS)
			strscpy(ev->strings[s++],
				(const char *)(unsigned long)values[i],
				TASK_COMM_LEN);
	}
	/* Pairs with the reader's acquire: the slot is complete. */
	smp_store_release(&ev->ready, 1);
}

/* ---- debugfs, process context ---- */

static void record_show_event(struct seq_file *m, const struct record_event *ev)
{
	const struct record_marker *rm = ev->marker;
	const struct marker_field *f;
	int i, s = 0;

	seq_puts(m, rm->name);
	for (i = 0; i < rm->nr_fields; i++) {
		f = &rm->fields[i];
		switch (f->type) {
		case MARKER_FIELD_SIGNED:
			seq_printf(m, " %s=%lld", f->name, (s64)ev->values[i]);
			break;
		case MARKER_FIELD_UNSIGNED:
			if (f->conversion == 'x' || f->conversion == 'X')
				seq_printf(m, " %s=0x%llx", f->name,
					   ev->values[i]);
			else
				seq_printf(m, " %s=%llu", f->name,
					   ev->values[i]);
			break;
		case MARKER_FIELD_CHAR:
			seq_printf(m, " %s=%c", f->name, (char)ev->values[i]);
			break;
		case MARKER_FIELD_POINTER:
			seq_printf(m, " %s=0x%llx", f->name, ev->values[i]);
			break;
		case MARKER_FIELD_STRING:
			seq_printf(m, " %s=%s", f->name,
				   s < RECORD_STRINGS ? ev->strings[s] : "?");
			s++;
			break;
		}
	}
	seq_putc(m, '\n');
}

static unsigned int record_count(void)
{
	return min_t(unsigned int, atomic_read(&record_head), RECORD_EVENTS);
}

static void *record_seq_start(struct seq_file *m, loff_t *pos)
{
	if (*pos == 0)
		return SEQ_START_TOKEN;
	return *pos <= record_count() ? &record_events[*pos - 1] : NULL;
}

static void *record_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return record_seq_start(m, pos);
}

static void record_seq_stop(struct seq_file *m, void *v)
{
}

static int record_seq_show(struct seq_file *m, void *v)
{
	const struct record_event *ev = v;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "# dropped %d\n", atomic_read(&record_dropped));
		return 0;
	}
	/* Pairs with record_probe()'s release. */
	if (!smp_load_acquire(&ev->ready)) {
		seq_puts(m, "# unfinished\n");
		return 0;
	}
	record_show_event(m, ev);
	return 0;
}

static const struct seq_operations record_log_sops = {
	.start	= record_seq_start,
	.next	= record_seq_next,
	.stop	= record_seq_stop,
	.show	= record_seq_show,
};
DEFINE_SEQ_ATTRIBUTE(record_log);

static ssize_t record_tgid_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	unsigned int i;
	int tgid, ret;

	ret = kstrtoint_from_user(ubuf, count, 0, &tgid);
	if (ret)
		return ret;
	if (tgid < 0)
		return -EINVAL;

	mutex_lock(&record_mutex);
	WRITE_ONCE(record_tgid, 0);
	/* Wait for probes that saw the old tgid to finish their slot. */
	marker_synchronize_unregister();
	if (tgid) {
		for (i = 0; i < RECORD_EVENTS; i++)
			record_events[i].ready = 0;
		atomic_set(&record_head, 0);
		atomic_set(&record_dropped, 0);
		/* Slots are cleared before a probe can see the new tgid. */
		smp_store_release(&record_tgid, tgid);
	}
	mutex_unlock(&record_mutex);
	return count;
}

static ssize_t record_tgid_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(record_tgid));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

DEFINE_TEST_KNOB(record_tgid, record_tgid_read, record_tgid_write);

static int __init test_markers_record_init(void)
{
	struct marker_probe_request reqs[ARRAY_SIZE(record_markers)];
	struct record_marker *rm;
	unsigned int i;
	int j, ret;

	for (i = 0; i < ARRAY_SIZE(record_markers); i++) {
		rm = &record_markers[i];
		rm->nr_fields = marker_format_parse(rm->format, rm->fields,
						    MARKER_FIELDS_MAX);
		if (WARN_ON_ONCE(rm->nr_fields <= 0))
			return -EINVAL;
		rm->tgid_fields = 0;
		for (j = 0; j < rm->nr_fields; j++)
			if (record_is_tgid(rm->fields[j].name))
				rm->tgid_fields |= BIT(j);
		reqs[i] = (struct marker_probe_request) {
			.name		= rm->name,
			.format		= rm->format,
			.probe		= record_probe,
			.probe_private	= rm,
		};
	}

	record_events = vzalloc(array_size(RECORD_EVENTS,
					   sizeof(*record_events)));
	if (!record_events)
		return -ENOMEM;
	ret = marker_probe_register_batch(reqs, ARRAY_SIZE(reqs));
	if (ret) {
		vfree(record_events);
		return ret;
	}

	record_dir = test_knob_dir();
	debugfs_create_file("tgid", 0600, record_dir, NULL, &record_tgid_fops);
	debugfs_create_file("events", 0400, record_dir, NULL,
			    &record_log_fops);
	return 0;
}

static void __exit test_markers_record_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(record_dir);
	WRITE_ONCE(record_tgid, 0);
	for (i = 0; i < ARRAY_SIZE(record_markers); i++)
		marker_probe_unregister_private_data(record_probe,
						     &record_markers[i]);
	marker_synchronize_unregister();
	vfree(record_events);
}

module_init(test_markers_record_init);
module_exit(test_markers_record_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: record the sched and futex events of one process");
