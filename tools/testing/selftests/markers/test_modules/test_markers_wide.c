// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_wide.c - a marker whose record is larger than a ring-buffer
 * event may be
 *
 * test_trace_wide has 16 %s fields (MARKER_FIELDS_MAX), named arg0 to
 * arg15 as the format names none. Writing anything
 * to /sys/kernel/debug/test_markers_wide/fire fires it once with a
 * 300-character string of 'w' in every field: each field keeps 255
 * characters, 16 * 256 bytes in all, more than one ring-buffer event holds
 * (a 4 KiB sub-buffer), so the event must cut the strings to fit.
 */

#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/string.h>
#include "test_markers.h"

#define TEST_WIDE_LEN	300

static char test_wide[TEST_WIDE_LEN + 1];
static struct dentry *test_dir;

static ssize_t test_fire_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	const char *w = test_wide;

	/* Fields without names: arg0 .. arg15 */
	trace_mark(test_trace_wide,
		   "%s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s",
		   w, w, w, w, w, w, w, w, w, w, w, w, w, w, w, w);
	return count;
}

DEFINE_TEST_KNOB(test_fire, NULL, test_fire_write);

static int __init test_markers_wide_init(void)
{
	memset(test_wide, 'w', TEST_WIDE_LEN);
	test_dir = test_knob_dir();
	debugfs_create_file("fire", 0200, test_dir, NULL, &test_fire_fops);
	return 0;
}

static void __exit test_markers_wide_exit(void)
{
	debugfs_remove_recursive(test_dir);
}

module_init(test_markers_wide_init);
module_exit(test_markers_wide_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: a marker whose record exceeds a ring-buffer event");
