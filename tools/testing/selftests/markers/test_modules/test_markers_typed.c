// SPDX-License-Identifier: GPL-2.0
/*
 * Typed markers for markers_typed.sh: their events are recorded by the
 * recorders DECLARE_MARKER() makes (__marker_record_<name>). Writing to
 * /sys/kernel/debug/test_markers_typed/fire fires each once, with known
 * values:
 *   test_typed_fixed   one field of each integer size, the recorder's
 *                      layout is the event's: stored at compile-time
 *                      offsets
 *   test_typed_string  an int and three strings: one short, NULL, one of
 *                      300 characters (cut to 255)
 *   test_typed_promoted a short for a %d, a char for a %c: the recorder's
 *                      layout is not the event's, so the event takes the
 *                      face's varargs probes instead
 *   test_typed_wide    eight strings of 255 characters, 'a' to 'h': a
 *                      record larger than the recorders build themselves,
 *                      which they hand to the face's slow path (ring
 *                      buffer and perf)
 */

#include <linux/marker_typed.h>
#include <linux/module.h>
#include <linux/string.h>

#include "test_markers.h"

#define TEST_LONG_LEN	300

#define CREATE_MARKERS
DECLARE_MARKER(test_typed_fixed,
	       MARKER_PROTO(signed char b, unsigned short h, int i, unsigned int x,
			    unsigned long l, long long ll),
	       MARKER_ARGS(b, h, i, x, l, ll),
	       "b %hhd h %hu i %d x %x l %lx ll %lld",
	       MARKER_VALUES(b, h, i, x, l, ll))
DECLARE_MARKER(test_typed_string,
	       MARKER_PROTO(int n, const char *s, const char *none,
			    const char *l),
	       MARKER_ARGS(n, s, none, l),
	       "n %d s %s none %s l %s",
	       MARKER_VALUES(n, s, none, l))
DECLARE_MARKER(test_typed_promoted,
	       MARKER_PROTO(short h, char c),
	       MARKER_ARGS(h, c),
	       "h %d c %c",
	       MARKER_VALUES(h, c))
DECLARE_MARKER(test_typed_wide,
	       MARKER_PROTO(const char *a, const char *b, const char *c,
			    const char *d, const char *e, const char *f,
			    const char *g, const char *h),
	       MARKER_ARGS(a, b, c, d, e, f, g, h),
	       "a %s b %s c %s d %s e %s f %s g %s h %s",
	       MARKER_VALUES(a, b, c, d, e, f, g, h))
#undef CREATE_MARKERS

#define TEST_WIDE_FIELDS	8
#define TEST_WIDE_LEN		255

static char test_long[TEST_LONG_LEN + 1];
static char test_wide[TEST_WIDE_FIELDS][TEST_WIDE_LEN + 1];
static struct dentry *test_dir;

static ssize_t test_fire_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	mark_test_typed_fixed(-3, 65535, -100000, 0xdeadbeefU, 0x123456789aUL,
			      -5LL);
	mark_test_typed_string(42, "typed", NULL, test_long);
	mark_test_typed_promoted(-2, 'z');
	mark_test_typed_wide(test_wide[0], test_wide[1], test_wide[2],
			     test_wide[3], test_wide[4], test_wide[5],
			     test_wide[6], test_wide[7]);
	return count;
}

DEFINE_TEST_KNOB(test_fire, NULL, test_fire_write);

static int __init test_markers_typed_init(void)
{
	int i;

	memset(test_long, 'x', TEST_LONG_LEN);
	for (i = 0; i < TEST_WIDE_FIELDS; i++)
		memset(test_wide[i], 'a' + i, TEST_WIDE_LEN);
	test_dir = test_knob_dir();
	debugfs_create_file("fire", 0200, test_dir, NULL, &test_fire_fops);
	return 0;
}

static void __exit test_markers_typed_exit(void)
{
	debugfs_remove_recursive(test_dir);
}

module_init(test_markers_typed_init);
module_exit(test_markers_typed_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Typed markers for the markers recorder selftests");
