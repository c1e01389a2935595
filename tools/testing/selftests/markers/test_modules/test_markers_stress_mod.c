// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_stress_mod.c - a module whose markers come and go
 *
 * Fires test_stress_mod once when it loads (phase 1) and once when it
 * unloads (phase 2), so the stress test can load and unload it many times
 * with probes attached to the name and its event enabled, and count two
 * probe calls per cycle and one event per cycle enabled before the unload.
 */

#include <linux/marker.h>
#include <linux/module.h>

static int __init test_markers_stress_mod_init(void)
{
	trace_mark(test_stress_mod, "phase %d", 1);
	return 0;
}

static void __exit test_markers_stress_mod_exit(void)
{
	trace_mark(test_stress_mod, "phase %d", 2);
}

module_init(test_markers_stress_mod_init);
module_exit(test_markers_stress_mod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers stress test: a module loaded and unloaded in a loop");
