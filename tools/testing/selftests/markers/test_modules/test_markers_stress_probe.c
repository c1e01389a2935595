// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_stress_probe.c - a probe module that goes while its marker fires
 *
 * Attaches a probe that lives in this module's text to test_stress_hot
 * when it loads, and detaches it when it unloads, waiting with
 * marker_synchronize_unregister() for calls in flight, as every probe
 * module must before its text is freed. The stress test loads and unloads
 * it in a loop while a kthread per CPU fires the marker: a call that
 * reached the probe after the wait would run freed text and oops.
 */

#include <linux/atomic.h>
#include <linux/marker.h>
#include <linux/module.h>

static atomic_long_t test_calls;

/**
 * test_stress_probe() - count a call of test_stress_hot
 * @marker: the site that fired
 * @probe_private: &test_calls
 * @args: not read
 *
 * Context: the firing kthreads, preemption disabled by the marker core;
 * no locks, no allocation: one atomic increment.
 */
static void test_stress_probe(const struct marker *marker, void *probe_private,
			      va_list *args)
{
	atomic_long_inc(probe_private);
}

static int __init test_markers_stress_probe_init(void)
{
	return marker_probe_register("test_stress_hot", "cpu %d",
				     test_stress_probe, &test_calls);
}

static void __exit test_markers_stress_probe_exit(void)
{
	marker_probe_unregister("test_stress_hot", test_stress_probe,
				&test_calls);
	marker_synchronize_unregister();
}

module_init(test_markers_stress_probe_init);
module_exit(test_markers_stress_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers stress test: a probe module unloaded while its marker fires");
