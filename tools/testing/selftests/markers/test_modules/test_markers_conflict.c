// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_conflict.c - a marker whose format clashes with its name's
 *
 * samples/markers/marker-example.c defines example_int as
 * "count %d value %llu"; this module defines a site of the same name with
 * another format. Loaded after marker-example, its site must be listed as
 * "conflict", named in a warning, and stay a NOP whatever probes are
 * attached: a probe of example_int would misread its arguments.
 *
 * Module init fires the site once: no probe of example_int may see it.
 */

#include <linux/marker.h>
#include <linux/module.h>

/* Not __init: the site stays in the listing for the whole module life. */
static noinline void test_markers_conflict_fire(void)
{
	trace_mark(example_int, "count %u value %llx", 1U, 2ULL);
}

static int __init test_markers_conflict_init(void)
{
	test_markers_conflict_fire();
	return 0;
}

static void __exit test_markers_conflict_exit(void)
{
}

module_init(test_markers_conflict_init);
module_exit(test_markers_conflict_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: a marker that conflicts with marker-example's example_int");
