// SPDX-License-Identifier: GPL-2.0
/*
 * marker-example.c - static markers of each kind, fired on demand
 *
 * Load this module, attach probes (see probe-example.c), then fire the
 * markers from user space:
 *
 *	echo 3 > /sys/kernel/debug/marker-example/fire
 *
 * Writing N runs N iterations, i = 0 .. N-1. Each iteration fires every
 * marker below once, in this order, with values that depend on i only, so
 * tests can predict every field:
 *
 *	example_int	"count %d value %llu"
 *		count = i, value = i * 2^32 + i
 *	example_string	"name %s"
 *		name = "zero", "one", "two", "three" for i % 4 = 0, 1, 2, 3
 *	example_ptr	"object %p slot %u"
 *		object = &example_objects[i % 4], slot = i % 4; the objects are
 *		consecutive u64s, so object grows by 8 with slot
 *	example_small	"letter %c flags %hx delta %hhd"
 *		letter = 'a' + i % 26, flags = (u16)(0xf000 | i),
 *		delta = (s8)-i
 *	example_noargs	MARK_NOARGS
 *
 * Module init fires one more marker, from __init text:
 *
 *	example_init	"objects %zu"
 *		objects = 4, the number of example_objects
 *
 * Its site is listed "init-freed" once the module is live: only a probe
 * attached before the module loads sees it.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sched.h>

/* More than enough for a test, few enough to keep a write short. */
#define EXAMPLE_FIRE_MAX	1000000

static const char * const example_names[] = { "zero", "one", "two", "three" };

/* example_ptr points into this array; its contents do not matter. */
static u64 example_objects[ARRAY_SIZE(example_names)];

static struct dentry *example_dir;

/**
 * example_fire_once() - fire every marker of the module once
 * @i: iteration number; every marker argument is computed from it
 */
static void example_fire_once(unsigned int i)
{
	unsigned int slot = i % ARRAY_SIZE(example_objects);

	trace_mark(example_int, "count %d value %llu",
		   (int)i, ((u64)i << 32) + i);
	trace_mark(example_string, "name %s", example_names[slot]);
	trace_mark(example_ptr, "object %p slot %u",
		   &example_objects[slot], slot);
	trace_mark(example_small, "letter %c flags %hx delta %hhd",
		   'a' + (int)(i % 26), (u16)(0xf000 | i), (s8)-i);
	trace_mark(example_noargs, MARK_NOARGS);
}

/* Writing N to debugfs marker-example/fire fires every marker N times. */
static ssize_t example_fire_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	unsigned int n, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (n > EXAMPLE_FIRE_MAX)
		return -EINVAL;

	for (i = 0; i < n; i++) {
		example_fire_once(i);
		cond_resched();
	}
	return count;
}

static const struct file_operations example_fire_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= example_fire_write,
	.llseek	= noop_llseek,
};

static int __init marker_example_init(void)
{
	example_dir = debugfs_create_dir("marker-example", NULL);
	debugfs_create_file("fire", 0200, example_dir, NULL,
			    &example_fire_fops);

	/* Patched to the marker's state before this function runs. */
	trace_mark(example_init, "objects %zu", ARRAY_SIZE(example_objects));
	return 0;
}

static void __exit marker_example_exit(void)
{
	debugfs_remove_recursive(example_dir);
}

module_init(marker_example_init);
module_exit(marker_example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static marker sample: markers of each kind, fired through debugfs");
