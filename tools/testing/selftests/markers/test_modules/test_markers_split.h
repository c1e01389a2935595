/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A typed marker of test_markers_split, declared once here as a driver
 * declares its markers: test_markers_split_main.c defines it and
 * test_markers_split_fire.c fires it too, from another object of the same
 * module. That site reaches the static call through its trampoline (the
 * key is in the other object): the module loads only if the kernel finds
 * the module's own trampoline key.
 */
#ifndef _TEST_MARKERS_SPLIT_H
#define _TEST_MARKERS_SPLIT_H

#include <linux/marker_typed.h>

DECLARE_MARKER(test_split_event,
	       MARKER_PROTO(int n, unsigned long v),
	       MARKER_ARGS(n, v),
	       "n %d v %lu",
	       MARKER_VALUES(n, v))

void test_split_fire(int n);

#endif /* _TEST_MARKERS_SPLIT_H */
