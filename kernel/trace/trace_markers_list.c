// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers in tracefs: the listings and statistics.
 *
 * Two files at the tracefs root show every marker: "markers" has one line
 * per name (format, stability, sites, modules, and whether it has an event
 * and why not), "marker_sites" one line per site (its state and bytes).
 * They read the registry's names and sites (marker_iterate_names(),
 * marker_iterate_sites()) and the events of trace_markers.c; nothing here
 * changes either. "marker_stats" sums the counts of records the events
 * did not write, and the registry's recursion drops.
 *
 * Locking: "markers" holds event_mutex, inside which the marker core's
 * mutex nests, as in trace_markers.c.
 */
#include <linux/kallsyms.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/trace_events.h>

#include "trace.h"
#include "trace_markers.h"

/*
 * One line per name:
 *   name "format" stable|debug sites=N conflicts=N modules=a,b event|no-event:why
 */
static int marker_list_show(struct seq_file *m, void *v)
{
	struct marker_names names;
	struct marker_name *n;
	unsigned int i;
	int ret;

	mutex_lock(&event_mutex);
	ret = marker_names_gather(&names);
	if (ret)
		goto out;
	for (i = 0; i < names.nr; i++) {
		n = &names.names[i];
		seq_printf(m, "%s \"%s\" %s sites=%u conflicts=%u modules=%s %s\n",
			   n->name, n->format ?: "", n->debug ? "debug" : "stable",
			   n->nr_sites, n->nr_conflicts,
			   n->modules[0] ? n->modules : "-",
			   marker_name_event(n));
	}
	marker_names_free(&names);
out:
	mutex_unlock(&event_mutex);
	return ret;
}

static int marker_list_open(struct inode *inode, struct file *file)
{
	int ret = tracing_check_open_get_tr(NULL);

	return ret ?: single_open(file, marker_list_show, NULL);
}

static const struct file_operations marker_list_fops = {
	.open = marker_list_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * "name symbol+0xoff module state bytes code target size": the bytes at
 * the site in hex ("-" when there are none), the addresses of the site and
 * of its out-of-line block, 0 for readers /proc/kallsyms would not show
 * addresses to, and the site's length ("-" without patchable sites). Called
 * with the marker mutex held.
 */
static int marker_site_show(const struct marker_site_info *info, void *data)
{
	unsigned long size, offset, code = 0, target = 0;
	struct seq_file *m = data;
	char sym[KSYM_NAME_LEN];
	char *modname;

	if (kallsyms_show_value(m->file->f_cred)) {
		code = info->code;
		target = info->target;
	}
	seq_printf(m, "%s ", info->marker->name);
	if (info->code && !info->init_freed &&
	    kallsyms_lookup(info->code, &size, &offset, &modname, sym))
		seq_printf(m, "%s+0x%lx", sym, offset);
	else
		seq_printf(m, "0x%lx", code);
	seq_printf(m, " %s %s ", info->mod ? module_name(info->mod) : "vmlinux",
		   info->state);
	if (info->nr_bytes)
		seq_printf(m, "%*phN", (int)info->nr_bytes, info->bytes);
	else
		seq_putc(m, '-');
	seq_printf(m, " 0x%lx 0x%lx ", code, target);
	if (info->size)
		seq_printf(m, "%u\n", info->size);
	else
		seq_puts(m, "-\n");
	return 0;
}

static int marker_sites_show(struct seq_file *m, void *v)
{
	return marker_iterate_sites(marker_site_show, m);
}

static int marker_sites_open(struct inode *inode, struct file *file)
{
	int ret = tracing_check_open_get_tr(NULL);

	return ret ?: single_open(file, marker_sites_show, NULL);
}

static const struct file_operations marker_sites_fops = {
	.open = marker_sites_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static unsigned long marker_stat_sum(unsigned long __percpu *counter)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(*counter, cpu);
	return sum;
}

static int marker_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "trace_lost %lu\n", marker_stat_sum(&marker_trace_lost));
	seq_printf(m, "trace_filtered %lu\n",
		   marker_stat_sum(&marker_trace_filtered));
	seq_printf(m, "perf_lost %lu\n", marker_stat_sum(&marker_perf_lost));
	seq_printf(m, "recursion_drops %lu\n", marker_recursion_drops_read());
	return 0;
}

static int marker_stats_open(struct inode *inode, struct file *file)
{
	int ret = tracing_check_open_get_tr(NULL);

	return ret ?: single_open(file, marker_stats_show, NULL);
}

static const struct file_operations marker_stats_fops = {
	.open = marker_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static __init int marker_trace_list_init(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_create_file("markers", TRACE_MODE_READ, NULL, NULL,
			  &marker_list_fops);
	trace_create_file("marker_sites", TRACE_MODE_READ, NULL, NULL,
			  &marker_sites_fops);
	trace_create_file("marker_stats", TRACE_MODE_READ, NULL, NULL,
			  &marker_stats_fops);
	return 0;
}
fs_initcall(marker_trace_list_init);
