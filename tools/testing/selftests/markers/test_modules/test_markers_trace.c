// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_trace.c - markers for the tracefs selftests
 *
 * Writing anything to /sys/kernel/debug/test_markers_trace/fire fires, once:
 *
 *	example_int		"count %d value %llu"	count = -7, value = 7
 *		the name and format of a marker of marker-example: while both
 *		modules are loaded the name has a site in each
 *	test_trace_long		"text %s"
 *		text = 300 'x' characters, longer than an event stores
 *	test_trace_bad_format	"width %*d"		a format the parser
 *		rejects ('*' takes an extra argument): listed, but no event
 *	__test_trace_debug	MARK_NOARGS		a debug marker
 *	test_trace_fixed	"b %hhd h %hu i %d x %x l %lx ll %lld"
 *		b = -3, h = 65535, i = -100000, x = 0xdeadbeef,
 *		l = 0x123456789a, ll = -5: an event without strings, one field
 *		of each size, recorded straight into its reserved entry
 *	test_trace_common_field	"common_pid %d count %d"	5, 6
 *		a field named as a common field: listed, but no event
 */

#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/string.h>
#include "test_markers.h"

#define TEST_LONG_LEN	300

static char test_long[TEST_LONG_LEN + 1];
static struct dentry *test_dir;

static ssize_t test_fire_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	trace_mark(example_int, "count %d value %llu", -7, 7ULL);
	trace_mark(test_trace_long, "text %s", test_long);
	trace_mark(test_trace_bad_format, "width %*d", 4, 2);
	trace_mark(__test_trace_debug, MARK_NOARGS);
	trace_mark(test_trace_fixed, "b %hhd h %hu i %d x %x l %lx ll %lld",
		   (signed char)-3, (unsigned short)65535, -100000, 0xdeadbeefU,
		   0x123456789aUL, -5LL);
	trace_mark(test_trace_common_field, "common_pid %d count %d", 5, 6);
	return count;
}

DEFINE_TEST_KNOB(test_fire, NULL, test_fire_write);

static int __init test_markers_trace_init(void)
{
	memset(test_long, 'x', TEST_LONG_LEN);
	test_dir = test_knob_dir();
	debugfs_create_file("fire", 0200, test_dir, NULL, &test_fire_fops);
	return 0;
}

static void __exit test_markers_trace_exit(void)
{
	debugfs_remove_recursive(test_dir);
}

module_init(test_markers_trace_init);
module_exit(test_markers_trace_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers for the static markers tracefs selftests");
