// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_probe.c - marker probe registration driven from user space
 *
 * debugfs, under /sys/kernel/debug/test_markers_probe/:
 *
 *	register	write "name format" to attach the probe with that
 *			format, or "name" alone for a NULL format; a trailing
 *			newline is dropped. The write fails with the error
 *			marker_probe_register() returned.
 *	unregister	write "name" to detach the probe; the write fails with
 *			the error marker_probe_unregister() returned.
 *	hits		read the number of calls the probe has seen, on all
 *			markers together.
 *
 * One probe and one private pointer serve every name, so attaching a name
 * twice gives -EEXIST.
 */

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "test_markers.h"

/* Longer than any name or format a test writes. */
#define TEST_REQUEST_MAX	256

static atomic_long_t test_hits;
static struct dentry *test_dir;

/**
 * test_probe() - count a call
 * @marker: the site that fired
 * @probe_private: &test_hits
 * @args: not read: the probe works with any format
 *
 * Context: any, NMI, hard IRQ and the scheduler with the runqueue lock held
 * included; takes no locks and allocates nothing: one atomic increment.
 */
static void test_probe(const struct marker *marker, void *probe_private,
		       va_list *args)
{
	atomic_long_inc(probe_private);
}

/* The user's request as a string, without its trailing newline. */
static char *test_request(const char __user *ubuf, size_t count)
{
	char *buf;

	if (count > TEST_REQUEST_MAX)
		return ERR_PTR(-E2BIG);
	buf = memdup_user_nul(ubuf, count);
	if (!IS_ERR(buf) && count && buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	return buf;
}

static ssize_t test_register_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char *name, *format;
	int ret;

	name = test_request(ubuf, count);
	if (IS_ERR(name))
		return PTR_ERR(name);
	format = strchr(name, ' ');
	if (format)
		*format++ = '\0';
	ret = marker_probe_register(name, format, test_probe, &test_hits);
	kfree(name);
	return ret ? ret : count;
}

static ssize_t test_unregister_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char *name;
	int ret;

	name = test_request(ubuf, count);
	if (IS_ERR(name))
		return PTR_ERR(name);
	ret = marker_probe_unregister(name, test_probe, &test_hits);
	kfree(name);
	return ret ? ret : count;
}

static ssize_t test_hits_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[32];
	int len;

	len = scnprintf(buf, sizeof(buf), "%ld\n", atomic_long_read(&test_hits));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

DEFINE_TEST_KNOB(test_register, NULL, test_register_write);
DEFINE_TEST_KNOB(test_unregister, NULL, test_unregister_write);
DEFINE_TEST_KNOB(test_hits, test_hits_read, NULL);

static int __init test_markers_probe_init(void)
{
	test_dir = test_knob_dir();
	debugfs_create_file("register", 0200, test_dir, NULL,
			    &test_register_fops);
	debugfs_create_file("unregister", 0200, test_dir, NULL,
			    &test_unregister_fops);
	debugfs_create_file("hits", 0400, test_dir, NULL, &test_hits_fops);
	return 0;
}

static void __exit test_markers_probe_exit(void)
{
	debugfs_remove_recursive(test_dir);
	/* -ENOENT if nothing is attached: nothing to do then. */
	marker_probe_unregister_private_data(test_probe, &test_hits);
	marker_synchronize_unregister();
}

module_init(test_markers_probe_init);
module_exit(test_markers_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: register and unregister a probe from user space");
