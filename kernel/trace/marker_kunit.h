/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KUnit suites of the marker core share (marker_kunit.c,
 * marker_typed_kunit.c, marker_sites_kunit.c).
 */
#ifndef _KERNEL_TRACE_MARKER_KUNIT_H
#define _KERNEL_TRACE_MARKER_KUNIT_H

#include <linux/marker.h>
#include <linux/types.h>

/* What the test probes saw. */
struct marker_kunit_seen {
	unsigned int calls;
	int a;
	unsigned long long b;
	char s[16];
	const struct marker *marker;
};

/* The format of marker_kunit_values, fired by marker_kunit_fire(). */
#define MARKER_KUNIT_FMT	"a %d b %llu s %s"

/* Record the values of a marker_kunit_values site in a marker_kunit_seen. */
void marker_kunit_probe(const struct marker *marker, void *priv,
			va_list *args);
/* Count calls in a marker_kunit_seen. */
void marker_kunit_count(const struct marker *marker, void *priv,
			va_list *args);
void marker_kunit_fire(int a, unsigned long long b, const char *s);
/* Stands in for marker_array_alloc(): no memory for probe arrays. */
struct marker_probe_array *marker_kunit_no_memory(unsigned int nr);

struct kunit;
/*
 * Until marker_kunit_alloc_done(), the @nth call of marker_alloc() made by
 * the test's own task fails (counted from 1), as fail-nth makes the Nth
 * allocation of a task fail; marker_kunit_alloc_done() says whether it
 * came.
 */
void marker_kunit_fail_alloc(struct kunit *test, unsigned int nth);
bool marker_kunit_alloc_done(struct kunit *test);
/* Has the registry an entry for @name? Takes marker_mutex. */
bool marker_kunit_has_entry(const char *name);

#endif /* _KERNEL_TRACE_MARKER_KUNIT_H */
