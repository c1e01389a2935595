// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_stub.c - a declaration whose module detaches a typed probe
 * of its own as it goes
 *
 * test_stub_event is declared here; the module attaches a typed probe to
 * it when it loads (unless loaded with attach=0) and detaches it when it
 * unloads. Unloaded with an allocation made to fail (fail-nth), the
 * detach leaves the probe's slot with the declaration's stub, in an array
 * that a probe with a format of another module keeps after this one is
 * gone; loaded again with attach=0, its sites call that array before any
 * typed probe of its own replaces it, and must not call the stub of the
 * module before.
 *
 * debugfs, under /sys/kernel/debug/test_markers_stub/:
 *
 *	fire	write N to fire test_stub_event with n = N once
 *	hits	read the calls of the module's typed probe
 *	attach	write anything to attach the module's typed probe now
 */

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/marker_typed.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "test_markers.h"

#define CREATE_MARKERS
DECLARE_MARKER(test_stub_event,
	       MARKER_PROTO(int n),
	       MARKER_ARGS(n),
	       "n %d",
	       MARKER_VALUES(n))
#undef CREATE_MARKERS

static bool attach = true;
module_param(attach, bool, 0444);
MODULE_PARM_DESC(attach, "attach the typed probe as the module loads");

static atomic_t test_hits;
static struct dentry *test_dir;
static bool test_attached;
static DEFINE_MUTEX(test_mutex);	/* serialises test_attached's writers */

/* Context: the site's (process, from the fire knob); one atomic add. */
static void test_stub_probe(void *data, int n)
{
	atomic_inc(data);
}

static ssize_t test_fire_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	int n, ret;

	ret = kstrtoint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	mark_test_stub_event(n);
	return count;
}

static ssize_t test_hits_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", atomic_read(&test_hits));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static int test_attach(void)
{
	int ret = 0;

	mutex_lock(&test_mutex);
	if (!test_attached)
		ret = register_mark_test_stub_event(test_stub_probe, &test_hits);
	test_attached = !ret;
	mutex_unlock(&test_mutex);
	return ret;
}

static ssize_t test_attach_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	int ret = test_attach();

	return ret ? ret : count;
}

DEFINE_TEST_KNOB(test_fire, NULL, test_fire_write);
DEFINE_TEST_KNOB(test_hits, test_hits_read, NULL);
DEFINE_TEST_KNOB(test_attach, NULL, test_attach_write);

static int __init test_markers_stub_init(void)
{
	int ret;

	if (attach) {
		ret = test_attach();
		if (ret)
			return ret;
	}
	test_dir = test_knob_dir();
	debugfs_create_file("fire", 0200, test_dir, NULL, &test_fire_fops);
	debugfs_create_file("hits", 0400, test_dir, NULL, &test_hits_fops);
	debugfs_create_file("attach", 0200, test_dir, NULL, &test_attach_fops);
	return 0;
}

/* Detaching cannot fail, with or without memory for a smaller array. */
static void __exit test_markers_stub_exit(void)
{
	debugfs_remove_recursive(test_dir);
	if (test_attached)
		unregister_mark_test_stub_event(test_stub_probe, &test_hits);
	marker_synchronize_unregister();
}

module_init(test_markers_stub_init);
module_exit(test_markers_stub_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: a declaration that detaches its own typed probe as it goes");
