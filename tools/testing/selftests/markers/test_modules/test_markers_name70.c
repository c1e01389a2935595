// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_name70.c - a marker whose name is too long
 *
 * trace_mark() refuses names of MARKER_NAME_MAX (64) characters or more
 * at build time, so this module makes its struct marker by hand, as
 * __trace_mark() lays it out: name and format in __markers_strings, the
 * struct in __markers. Its name has 70 characters, the first 63 of them
 * those of test_markers_name63.c's marker. It has no patchable site (a
 * marker with zero sites). The marker core must refuse to load it
 * (-ENAMETOOLONG); no name may be cut to MARKER_NAME_MAX - 1 characters.
 */

#include <linux/marker.h>
#include <linux/module.h>

#define TEST_NAME	"test_markers_name_sixty_three_characters_long_abcdefghijklmnopq_seven7"

static const char test_marker_strings[] __section("__markers_strings")
	__aligned(1) = TEST_NAME "\0value %u";

static struct marker test_marker __section("__markers") __used __aligned(8) = {
	.name = test_marker_strings,
	.format = test_marker_strings + sizeof(TEST_NAME),	/* "value %u" */
};

static int __init test_markers_name70_init(void)
{
	return 0;
}

static void __exit test_markers_name70_exit(void)
{
}

module_init(test_markers_name70_init);
module_exit(test_markers_name70_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: a hand-made marker with a 70-character name");
