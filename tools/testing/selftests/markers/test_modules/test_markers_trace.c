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
 *	test_trace_ints		"a %d b %u c %x"	-1, 4000000000, 0xabcdef
 *	test_trace_longs	"a %lx b %lld"		0x123456789abcdef0, -2
 *	test_trace_mixed	"b %hhd h %hu i %d l %ld"	-3, 65535, -7, -8
 *	test_trace_ints5	"a %d b %u c %x d %d e %u"
 *		-1, 3000000000, 0xbeef, -4, 5
 *	test_trace_longs5	"a %lld b %llu c %lx d %ld e %lx"
 *		-1, 2 << 40, 0xfedcba9876543210, -2, 0x123456789abcdef
 *		events without strings of at most 5 fields, whose arguments
 *		x86-64 reads from the register save area: all ints, all
 *		8-byte, mixed sizes, 5 ints and 5 8-byte values, the most it
 *		reads there (test_trace_fixed, 6 fields, takes the va_arg()
 *		path there)
 *	test_trace_many		"a %d b %d ... q %d"	1 to 17
 *		more fields than an event takes (16): listed, but no event
 *	test_trace_radix	"a %X b %o c %i d %hhx e %p f %zd"
 *		0xabcdef, 013, -5, 0xfe, (void *)0x1234, -6: the conversions
 *		the other markers do not use, printed as their format says,
 *		and a pointer among 6 fields, read with va_arg()
 *	test_trace_str_len	"off %d len %d s %s"
 *		for off 0 to 7 and len 0 to 24, 254, 255 and 256: a string of
 *		len characters 'a' + i % 26 at an address off bytes past an
 *		8-byte boundary, '#' before and after it
 *	test_trace_str_end	"len %d s %s"
 *		for len 0 to 24: a string whose NUL is the last byte of a
 *		vmalloc'ed page, an unmapped guard page after it
 *	test_trace_str_bad	"a %s b %s c %s d %s e %s"
 *		a: "ok"; b: NULL; c: the guard page itself; d: 16 'z' up to
 *		the end of the page, no NUL (the read runs into the guard
 *		page); e: a non-canonical address: (null), then (fault) thrice
 *	test_trace_str_stack	"i %d a %s b %s c %s d %s e %s"
 *		6 fields: e is on the stack (read with va_arg()); i = 42,
 *		a to e "one" to "five", e the guard page's (fault)
 */

#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "test_markers.h"

#define TEST_LONG_LEN	300

static char test_long[TEST_LONG_LEN + 1];
static struct dentry *test_dir;
/* One page, vmalloc()'ed: the page after it is an unmapped guard page. */
static char *test_page;
static char test_buf[8 + 256 + 8] __aligned(8);

/* At @dst, @len characters 'a' + i % 26, then a NUL. */
static void test_str(char *dst, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		dst[i] = 'a' + i % 26;
	dst[len] = '\0';
}

static void test_fire_strings(void)
{
	static const unsigned int lens[] = { 254, 255, 256 };
	char *end = test_page + PAGE_SIZE;
	unsigned int off, len;

	for (off = 0; off < 8; off++) {
		for (len = 0; len < 25 + ARRAY_SIZE(lens); len++) {
			unsigned int n = len < 25 ? len : lens[len - 25];

			memset(test_buf, '#', sizeof(test_buf));
			test_str(test_buf + off, n);
			trace_mark(test_trace_str_len, "off %d len %d s %s",
				   off, n, test_buf + off);
		}
	}
	for (len = 0; len < 25; len++) {
		memset(test_page, '#', PAGE_SIZE);
		test_str(end - 1 - len, len);
		trace_mark(test_trace_str_end, "len %d s %s", len, end - 1 - len);
	}
	memset(end - 16, 'z', 16);
	trace_mark(test_trace_str_bad, "a %s b %s c %s d %s e %s", "ok",
		   (char *)NULL, end, end - 16, (char *)0xdead000000000000UL);
	trace_mark(test_trace_str_stack, "i %d a %s b %s c %s d %s e %s", 42,
		   "one", "two", "three", "four", end);
}

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
	trace_mark(test_trace_ints, "a %d b %u c %x", -1, 4000000000U, 0xabcdefU);
	trace_mark(test_trace_longs, "a %lx b %lld", 0x123456789abcdef0UL, -2LL);
	trace_mark(test_trace_mixed, "b %hhd h %hu i %d l %ld",
		   (signed char)-3, (unsigned short)65535, -7, -8L);
	trace_mark(test_trace_ints5, "a %d b %u c %x d %d e %u",
		   -1, 3000000000U, 0xbeefU, -4, 5U);
	trace_mark(test_trace_longs5, "a %lld b %llu c %lx d %ld e %lx",
		   -1LL, 2ULL << 40, 0xfedcba9876543210UL, -2L,
		   0x123456789abcdefUL);
	trace_mark(test_trace_many,
		   "a %d b %d c %d d %d e %d f %d g %d h %d i %d j %d k %d l %d m %d n %d o %d p %d q %d",
		   1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17);
	trace_mark(test_trace_radix, "a %X b %o c %i d %hhx e %p f %zd",
		   0xabcdefU, 013U, -5, (unsigned char)0xfe, (void *)0x1234,
		   (ssize_t)-6);
	test_fire_strings();
	return count;
}

DEFINE_TEST_KNOB(test_fire, NULL, test_fire_write);

static int __init test_markers_trace_init(void)
{
	memset(test_long, 'x', TEST_LONG_LEN);
	test_page = vmalloc(PAGE_SIZE);
	if (!test_page)
		return -ENOMEM;
	test_dir = test_knob_dir();
	debugfs_create_file("fire", 0200, test_dir, NULL, &test_fire_fops);
	return 0;
}

static void __exit test_markers_trace_exit(void)
{
	debugfs_remove_recursive(test_dir);
	vfree(test_page);
}

module_init(test_markers_trace_init);
module_exit(test_markers_trace_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers for the static markers tracefs selftests");
