// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_leak.c - a module that goes with its probes still attached
 *
 * Declares the typed marker test_leak_typed (CREATE_MARKERS here) with one
 * mark_test_leak_typed() site, and attaches at load, never to detach them,
 * a typed probe to its own declaration and a probe with a format to the
 * same name. When the module goes, the registry must name both in a
 * warning and drop them, and forget the declaration: a probe registered
 * by name afterwards must not reach into the freed module, and the module
 * loaded again must find its site usable, not in conflict with its
 * previous self.
 *
 * debugfs, under /sys/kernel/debug/test_markers_leak/:
 *
 *	fire	write N to fire the site N times
 *	hits	read the calls both probes have seen
 *	sites_ro	read 1 if the module's __marker_sites table (the code
 *		addresses marker updates patch through) lies in its
 *		read-only-after-init memory, 0 if not, -1 without
 *		patchable sites
 */

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kstrtox.h>
#include <linux/marker_typed.h>
#include <linux/module.h>

#define CREATE_MARKERS
DECLARE_MARKER(test_leak_typed,
	       MARKER_PROTO(int n),
	       MARKER_ARGS(n),
	       "n %d",
	       MARKER_VALUES(n));
#undef CREATE_MARKERS

static atomic_t test_leak_hits;
static struct dentry *test_leak_dir;

/* Context: any; one atomic increment. */
static void test_leak_typed_probe(void *data, int n)
{
	atomic_inc(data);
}

/* Context: any; one atomic increment. */
static void test_leak_probe(const struct marker *marker, void *probe_private,
			    va_list *args)
{
	atomic_inc(probe_private);
}

static noinline void test_leak_fire(int n)
{
	mark_test_leak_typed(n);
}

static ssize_t test_leak_fire_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	while (n--)
		test_leak_fire(n);
	return count;
}

static const struct file_operations test_leak_fire_fops = {
	.write = test_leak_fire_write,
	.llseek = noop_llseek,
};

static int test_leak_hits_get(void *data, u64 *val)
{
	*val = atomic_read(&test_leak_hits);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(test_leak_hits_fops, test_leak_hits_get, NULL,
			 "%llu\n");

static int test_leak_sites_ro_get(void *data, u64 *val)
{
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	const struct module_memory *ro = &THIS_MODULE->mem[MOD_RO_AFTER_INIT];
	unsigned long start = (unsigned long)THIS_MODULE->marker_sites;
	unsigned long end = start + THIS_MODULE->num_marker_sites *
				    sizeof(*THIS_MODULE->marker_sites);

	*val = THIS_MODULE->num_marker_sites &&
	       start >= (unsigned long)ro->base &&
	       end <= (unsigned long)ro->base + ro->size;
#else
	*val = -1;
#endif
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(test_leak_sites_ro_fops, test_leak_sites_ro_get, NULL,
			 "%lld\n");

static int __init test_leak_init(void)
{
	int ret;

	ret = register_mark_test_leak_typed(test_leak_typed_probe,
					    &test_leak_hits);
	if (ret)
		return ret;
	ret = marker_probe_register("test_leak_typed", "n %d", test_leak_probe,
				    &test_leak_hits);
	if (ret) {
		unregister_mark_test_leak_typed(test_leak_typed_probe,
						&test_leak_hits);
		marker_synchronize_unregister();
		return ret;
	}
	test_leak_dir = debugfs_create_dir("test_markers_leak", NULL);
	debugfs_create_file("fire", 0200, test_leak_dir, NULL,
			    &test_leak_fire_fops);
	debugfs_create_file_unsafe("hits", 0400, test_leak_dir, NULL,
				   &test_leak_hits_fops);
	debugfs_create_file_unsafe("sites_ro", 0400, test_leak_dir, NULL,
				   &test_leak_sites_ro_fops);
	return 0;
}
module_init(test_leak_init);

/* Detaches nothing: the leak is the point. */
static void __exit test_leak_exit(void)
{
	debugfs_remove_recursive(test_leak_dir);
}
module_exit(test_leak_exit);

MODULE_DESCRIPTION("Markers selftest: a module that leaks its probes");
MODULE_LICENSE("GPL");
