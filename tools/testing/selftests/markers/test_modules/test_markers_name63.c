// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_name63.c - a marker whose name is as long as names may be
 *
 * The marker's name has 63 characters (MARKER_NAME_MAX - 1). Writing N to
 * /sys/kernel/debug/test_markers_name63/fire fires it N times with
 * value = 0 .. N-1. test_markers_name70.c has a marker whose name starts
 * with the same 63 characters: loading it must neither change this
 * marker nor its event.
 */

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include "test_markers.h"

static struct dentry *test_dir;

static ssize_t test_fire_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int n, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && i < 1000; i++)
		trace_mark(test_markers_name_sixty_three_characters_long_abcdefghijklmnopq,
			   "value %u", i);
	return count;
}

DEFINE_TEST_KNOB(test_fire, NULL, test_fire_write);

static int __init test_markers_name63_init(void)
{
	test_dir = test_knob_dir();
	debugfs_create_file("fire", 0200, test_dir, NULL, &test_fire_fops);
	return 0;
}

static void __exit test_markers_name63_exit(void)
{
	debugfs_remove_recursive(test_dir);
}

module_init(test_markers_name63_init);
module_exit(test_markers_name63_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: a marker with a 63-character name");
