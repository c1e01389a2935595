// SPDX-License-Identifier: GPL-2.0
/*
 * A module of two objects with one typed marker, for markers_typed.sh:
 * this one defines test_split_event (CREATE_MARKERS) and has a site of
 * it, test_markers_split_fire.c has another. Writing to
 * /sys/kernel/debug/test_markers_split/fire fires the site here with
 * n=1, then the other one with n=2.
 */

#include <linux/module.h>

#include "test_markers.h"

#define CREATE_MARKERS
#include "test_markers_split.h"
#undef CREATE_MARKERS

static struct dentry *test_dir;

static ssize_t test_fire_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	mark_test_split_event(1, 10UL);
	test_split_fire(2);
	return count;
}

DEFINE_TEST_KNOB(test_fire, NULL, test_fire_write);

static int __init test_markers_split_init(void)
{
	test_dir = test_knob_dir();
	debugfs_create_file("fire", 0200, test_dir, NULL, &test_fire_fops);
	return 0;
}

static void __exit test_markers_split_exit(void)
{
	debugfs_remove_recursive(test_dir);
}

module_init(test_markers_split_init);
module_exit(test_markers_split_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A typed marker fired from two objects of one module");
