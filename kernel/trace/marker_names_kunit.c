// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the registry's names (kernel/trace/marker.c): the
 * trace_mark() sites of a name grouped in one entry that holds the format
 * and the number of its fields, which names are valid, and a site that no
 * probe listens to. Attaching probes has marker_kunit.c.
 *
 * The markers below are sites of the core kernel, attached at boot.
 */
#include <kunit/test.h>
#include <linux/marker.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker_internal.h"

/* Two sites of one name, as two copies of an inlined function are. */
static noinline void marker_names_kunit_fire(int *counter)
{
	trace_mark(marker_names_kunit_pair, "count %d tag %s", (*counter)++,
		   "first");
}

static noinline void marker_names_kunit_fire_again(int *counter)
{
	trace_mark(marker_names_kunit_pair, "count %d tag %s", (*counter)++,
		   "second");
}

static void marker_names_group_sites(struct kunit *test)
{
	struct marker_entry *e;

	mutex_lock(&marker_mutex);
	e = marker_entry_find("marker_names_kunit_pair");
	KUNIT_ASSERT_NOT_NULL_MSG(test, e, "the core kernel's sites have a name");
	KUNIT_EXPECT_EQ_MSG(test, e->nr_markers, 2,
			    "both sites of the name are its markers");
	KUNIT_EXPECT_EQ(test, e->nr_conflicts, 0);
	KUNIT_EXPECT_STREQ(test, e->format, "count %d tag %s");
	/* Only the count is kept: the listing of names parses the fields. */
	KUNIT_EXPECT_EQ_MSG(test, e->nr_fields, 2,
			    "the format is parsed when the name gets it");
	KUNIT_EXPECT_NULL_MSG(test, e->probes, "no probe is attached");
	/*
	 * The name has 23 characters, the most a 192-byte entry takes:
	 * kmalloc-192 where the kernel has it (not where kmalloc's alignment
	 * exceeds 64 bytes).
	 */
	KUNIT_EXPECT_EQ_MSG(test, ksize(e), kmalloc_size_roundup(192),
			    "a name of 23 characters keeps its entry in 192 bytes");
	mutex_unlock(&marker_mutex);
}

static void marker_names_valid(struct kunit *test)
{
	char name[MARKER_NAME_MAX + 1];

	KUNIT_EXPECT_TRUE(test, marker_name_valid("marker_names_kunit_pair"));
	KUNIT_EXPECT_FALSE_MSG(test, marker_name_valid(NULL), "NULL is no name");
	KUNIT_EXPECT_FALSE_MSG(test, marker_name_valid(""), "nor is \"\"");
	memset(name, 'n', sizeof(name));
	name[MARKER_NAME_MAX - 1] = '\0';
	KUNIT_EXPECT_TRUE_MSG(test, marker_name_valid(name),
			      "MARKER_NAME_MAX - 1 characters fit");
	name[MARKER_NAME_MAX - 1] = 'n';
	name[MARKER_NAME_MAX] = '\0';
	KUNIT_EXPECT_FALSE_MSG(test, marker_name_valid(name),
			       "MARKER_NAME_MAX characters do not");
}

static void marker_names_site_off(struct kunit *test)
{
	int counter = 0;

	marker_names_kunit_fire(&counter);
	marker_names_kunit_fire_again(&counter);
	KUNIT_EXPECT_EQ_MSG(test, counter, 0,
			    "arguments must not be evaluated while no probe listens");
}

static struct kunit_case marker_names_cases[] = {
	KUNIT_CASE(marker_names_group_sites),
	KUNIT_CASE(marker_names_valid),
	KUNIT_CASE(marker_names_site_off),
	{}
};

static struct kunit_suite marker_names_suite = {
	.name = "marker_names",
	.test_cases = marker_names_cases,
};

kunit_test_suites(&marker_names_suite);
