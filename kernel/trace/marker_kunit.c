// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the marker registry and, with patchable sites, of the
 * bytes written at each site.
 *
 * The markers below are sites of the core kernel; each test attaches its
 * own probes and leaves every marker as it found it.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/context_tracking.h>
#include <linux/hardirq.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "marker_internal.h"

/* What the test probes saw. */
struct marker_kunit_seen {
	unsigned int calls;
	int a;
	unsigned long long b;
	char s[16];
	const struct marker *marker;
};

/* Probes run in the test's own thread here: plain writes are enough. */
static void marker_kunit_probe(const struct marker *marker, void *priv,
			       va_list *args)
{
	struct marker_kunit_seen *seen = priv;

	seen->calls++;
	seen->marker = marker;
	seen->a = va_arg(*args, int);
	seen->b = va_arg(*args, unsigned long long);
	strscpy(seen->s, va_arg(*args, const char *), sizeof(seen->s));
}

static void marker_kunit_count(const struct marker *marker, void *priv,
			       va_list *args)
{
	struct marker_kunit_seen *seen = priv;

	seen->calls++;
}

#define MARKER_KUNIT_FMT	"a %d b %llu s %s"

static noinline void marker_kunit_fire(int a, unsigned long long b,
				       const char *s)
{
	trace_mark(marker_kunit_values, MARKER_KUNIT_FMT, a, b, s);
}

static noinline void marker_kunit_fire_effect(int *counter)
{
	trace_mark(marker_kunit_effect, "n %d", (*counter)++);
}

static noinline void marker_kunit_fire_noargs(void)
{
	trace_mark(marker_kunit_noargs, MARK_NOARGS);
}

/* A typed debug marker, declared as subsystem headers declare theirs. */
#define CREATE_MARKERS
DECLARE_MARKER(__marker_kunit_typed,
	       MARKER_PROTO(int a, unsigned long long b, const char *s),
	       MARKER_ARGS(a, b, s),
	       MARKER_KUNIT_FMT,
	       MARKER_VALUES(a, b, s));
#undef CREATE_MARKERS

static noinline void marker_kunit_fire_typed(int a)
{
	mark___marker_kunit_typed(a, 2 * a, "typed");
}

/*
 * A name with a mark_<name>() site and a trace_mark() site: the first
 * attached decides the name's kind, the other is a conflict.
 */
#define CREATE_MARKERS
DECLARE_MARKER(__marker_kunit_mixed,
	       MARKER_PROTO(int n),
	       MARKER_ARGS(n),
	       "n %d",
	       MARKER_VALUES(n));
#undef CREATE_MARKERS

static noinline void marker_kunit_fire_mixed(int n)
{
	mark___marker_kunit_mixed(n);
	trace_mark(__marker_kunit_mixed, "n %d", n + 1000);
}

/* What a typed probe of __marker_kunit_typed saw. */
struct marker_kunit_typed_seen {
	unsigned int calls;
	int a;
	unsigned long long b;
	const char *s;
	void *data;
};

static void marker_kunit_typed_probe(void *data, int a, unsigned long long b,
				     const char *s)
{
	struct marker_kunit_typed_seen *seen = data;

	seen->calls++;
	seen->data = data;
	seen->a = a;
	seen->b = b;
	seen->s = s;
}

/* A probe with the format that fires the typed marker once more. */
static void marker_kunit_typed_va_reenter(const struct marker *marker,
					  void *priv, va_list *args)
{
	struct marker_kunit_seen *seen = priv;
	int a = va_arg(*args, int);

	seen->calls++;
	if (a < 100)
		marker_kunit_fire_typed(a + 100);
}

static void marker_kunit_mixed_probe(void *data, int n)
{
	struct marker_kunit_typed_seen *seen = data;

	seen->calls++;
	seen->a = n;
}

/* The function the static call of __marker_kunit_typed calls now. */
static void *marker_kunit_typed_call(void)
{
	return static_call_query(marker_call___marker_kunit_typed);
}

/*
 * A built-in site in __exit text: x86 and arm64 keep .exit.text of
 * built-in code between __init_begin and __init_end and free it with init
 * memory. The selftests check that the site is listed init-freed after
 * boot and that attaching a probe to its name does not touch the freed
 * page.
 */
static void __exit marker_kunit_exit(void)
{
	trace_mark(marker_kunit_exit, MARK_NOARGS);
}
module_exit(marker_kunit_exit);

/* A probe that fires its own marker again: the inner call is dropped. */
static void marker_kunit_reenter(const struct marker *marker, void *priv,
				 va_list *args)
{
	struct marker_kunit_seen *seen = priv;

	seen->calls++;
	marker_kunit_fire_noargs();
}

static void marker_register_errors(struct kunit *test)
{
	char name[MARKER_NAME_MAX + 1];
	struct marker_kunit_seen seen = { };

	memset(name, 'n', sizeof(name));
	name[MARKER_NAME_MAX] = '\0';
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_register("marker_kunit_values", NULL,
						  NULL, &seen),
			    "a NULL probe is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_register("", NULL, marker_kunit_count,
						  &seen),
			    "an empty name is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_register(NULL, NULL,
						  marker_kunit_count, &seen),
			    "a NULL name is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_register(name, NULL,
						  marker_kunit_count, &seen),
			    "a name of MARKER_NAME_MAX characters is -EINVAL");
	name[MARKER_NAME_MAX - 1] = '\0';
	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_register(name, NULL,
						  marker_kunit_count, &seen),
			    "a name of MARKER_NAME_MAX - 1 characters is valid");
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name,
							 marker_kunit_count,
							 &seen));
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_register("marker_kunit_values",
						  "a %*d", marker_kunit_count,
						  &seen),
			    "a format the parser refuses is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register("marker_kunit_values",
						  "a %d b %llu", marker_kunit_count,
						  &seen),
			    "a format other than the marker's is -EPERM");
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_probe_unregister("marker_kunit_values",
						    marker_kunit_count, &seen),
			    "unregistering what is not registered is -ENOENT");
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_probe_unregister("marker_kunit_no_such",
						    marker_kunit_count, &seen),
			    "unregistering from an unknown marker is -ENOENT");
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_probe_unregister_private_data(marker_kunit_count,
								 &seen),
			    "unregister_private_data with nothing is -ENOENT");

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &seen));
	KUNIT_EXPECT_EQ_MSG(test, -EEXIST,
			    marker_probe_register("marker_kunit_values",
						  MARKER_KUNIT_FMT,
						  marker_kunit_count, &seen),
			    "the same probe and private twice is -EEXIST");
	KUNIT_EXPECT_EQ_MSG(test, -EEXIST,
			    marker_probe_register("marker_kunit_values", NULL,
						  marker_kunit_count, &seen),
			    "-EEXIST also without a format");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

static void marker_fires_with_values(struct kunit *test)
{
	struct marker_kunit_seen seen = { };

	marker_kunit_fire(1, 2, "off");
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 0, "no probe, no call");

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &seen));
	marker_kunit_fire(-42, 1ULL << 40, "hello");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, seen.a, -42);
	KUNIT_EXPECT_EQ(test, seen.b, 1ULL << 40);
	KUNIT_EXPECT_STREQ(test, seen.s, "hello");
	KUNIT_ASSERT_NOT_NULL(test, seen.marker);
	KUNIT_EXPECT_STREQ(test, seen.marker->name, "marker_kunit_values");
	KUNIT_EXPECT_STREQ(test, seen.marker->format, MARKER_KUNIT_FMT);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	marker_synchronize_unregister();
	marker_kunit_fire(7, 8, "gone");
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 1, "no call after unregister");
	KUNIT_EXPECT_EQ(test, seen.a, -42);
}

static void marker_args_not_evaluated_when_off(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	int counter = 0;

	marker_kunit_fire_effect(&counter);
	KUNIT_EXPECT_EQ_MSG(test, counter, 0,
			    "arguments must not be evaluated while off");
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_effect", "n %d",
					      marker_kunit_count, &seen));
	marker_kunit_fire_effect(&counter);
	KUNIT_EXPECT_EQ_MSG(test, counter, 1, "evaluated once while on");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_effect",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
	marker_kunit_fire_effect(&counter);
	KUNIT_EXPECT_EQ(test, counter, 1);
}

static void marker_several_probes(struct kunit *test)
{
	struct marker_kunit_seen one = { }, two = { }, raw = { };

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &one));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &two));
	KUNIT_ASSERT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_values", NULL,
						  marker_kunit_count, &raw),
			    "a NULL-format probe joins any marker");
	marker_kunit_fire(3, 4, "both");
	KUNIT_EXPECT_EQ(test, one.calls, 1);
	KUNIT_EXPECT_EQ(test, two.calls, 1);
	KUNIT_EXPECT_EQ(test, raw.calls, 1);
	KUNIT_EXPECT_EQ_MSG(test, two.a, 3, "each probe gets its own va_list");
	KUNIT_EXPECT_STREQ(test, two.s, "both");

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &one));
	marker_kunit_fire(5, 6, "two");
	KUNIT_EXPECT_EQ(test, one.calls, 1);
	KUNIT_EXPECT_EQ(test, two.calls, 2);
	KUNIT_EXPECT_EQ(test, raw.calls, 2);
	KUNIT_EXPECT_EQ(test, two.a, 5);

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister_private_data(marker_kunit_probe,
							     &two));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister_private_data(marker_kunit_count,
							     &raw));
	marker_synchronize_unregister();
	marker_kunit_fire(9, 9, "none");
	KUNIT_EXPECT_EQ(test, two.calls, 2);
	KUNIT_EXPECT_EQ(test, raw.calls, 2);
}

static void marker_register_before_site(struct kunit *test)
{
	struct marker_kunit_seen seen = { };

	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_later", "x %d",
						  marker_kunit_count, &seen),
			    "a marker may appear after its probe");
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register("marker_kunit_later", "x %u",
						  marker_kunit_probe, &seen),
			    "the first probe's format binds the later ones");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_later",
						marker_kunit_count, &seen));
	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_later", "x %u",
						  marker_kunit_count, &seen),
			    "with no site and no probe the name is free again");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_later",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

static void marker_batch_all_or_nothing(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	int counter = 0;
	struct marker_probe_request reqs[] = {
		{ "marker_kunit_values", MARKER_KUNIT_FMT, marker_kunit_probe,
		  &seen },
		{ "marker_kunit_effect", "n %d", marker_kunit_count, &seen },
		{ "marker_kunit_noargs", "wrong %d", marker_kunit_count,
		  &seen },
	};

	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register_batch(reqs, ARRAY_SIZE(reqs)),
			    "one mismatching request fails the batch");
	marker_kunit_fire(1, 1, "x");
	marker_kunit_fire_effect(&counter);
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 0,
			    "a failed batch attaches nothing");
	KUNIT_EXPECT_EQ(test, counter, 0);

	reqs[2].format = MARK_NOARGS;
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register_batch(reqs, ARRAY_SIZE(reqs)));
	marker_kunit_fire(1, 1, "x");
	marker_kunit_fire_effect(&counter);
	marker_kunit_fire_noargs();
	KUNIT_EXPECT_EQ(test, seen.calls, 3);
	KUNIT_EXPECT_EQ(test, counter, 1);

	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_batch(reqs + 1, 1));
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_probe_unregister_batch(reqs, 2),
			    "a batch with one absent probe fails whole");
	marker_kunit_fire(1, 1, "x");
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 4,
			    "and leaves the other probe attached");
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_batch(reqs, 1));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_batch(reqs + 2, 1));
	marker_synchronize_unregister();
	marker_kunit_fire(1, 1, "x");
	marker_kunit_fire_effect(&counter);
	marker_kunit_fire_noargs();
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 4, "all detached");
}

static void marker_recursion_dropped(struct kunit *test)
{
	struct marker_kunit_seen seen = { };

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_noargs",
					      MARK_NOARGS,
					      marker_kunit_reenter, &seen));
	marker_kunit_fire_noargs();
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 1,
			    "a probe firing its own marker is not re-entered");
	marker_kunit_fire_noargs();
	KUNIT_EXPECT_EQ(test, seen.calls, 2);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_noargs",
						marker_kunit_reenter, &seen));
	marker_synchronize_unregister();
}

struct marker_kunit_flags {
	const char *name;
	unsigned int flags;
	unsigned int found;
};

static int marker_kunit_find_flags(const struct marker_site_info *info,
				   void *data)
{
	struct marker_kunit_flags *f = data;

	if (!strcmp(info->marker->name, f->name)) {
		f->flags = info->marker->flags;
		f->found++;
	}
	return 0;
}

static void marker_declared_typed(struct kunit *test)
{
	struct marker_kunit_flags flags = { .name = "__marker_kunit_typed" };
	struct marker_kunit_seen seen = { };

	marker_iterate_sites(marker_kunit_find_flags, &flags);
	KUNIT_EXPECT_EQ_MSG(test, flags.found, 1, "one typed site");
	KUNIT_EXPECT_TRUE_MSG(test, flags.flags & MARKER_FLAG_DEBUG,
			      "a name starting with __ is a debug marker");
	flags = (struct marker_kunit_flags){ .name = "marker_kunit_values" };
	marker_iterate_sites(marker_kunit_find_flags, &flags);
	KUNIT_EXPECT_EQ(test, flags.found, 1);
	KUNIT_EXPECT_FALSE_MSG(test, flags.flags & MARKER_FLAG_DEBUG,
			       "other markers are stable");

	KUNIT_ASSERT_EQ_MSG(test, 0,
			    marker_probe_register("__marker_kunit_typed",
						  MARKER_KUNIT_FMT,
						  marker_kunit_probe, &seen),
			    "the declared format is the marker's");
	marker_kunit_fire_typed(21);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, seen.a, 21);
	KUNIT_EXPECT_EQ(test, seen.b, 42);
	KUNIT_EXPECT_STREQ(test, seen.s, "typed");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_typed",
						marker_kunit_probe, &seen));
	marker_synchronize_unregister();
}

/*
 * Typed probes take the marker's prototype: the only one is the static
 * call's target and gets its own data; a second makes the static call the
 * typed iterator, which calls both, a probe with a format the iterator of
 * every probe, and probes with a format see the values.
 */
static void marker_typed_probes(struct kunit *test)
{
	struct marker_kunit_typed_seen t1 = { }, t2 = { };
	struct marker_kunit_seen seen = { };
	void *iterator = __marker_typed___marker_kunit_typed.iterator;
	void *typed_iterator = __marker_typed___marker_kunit_typed.iterator_typed;

	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(), iterator,
				"no probe: the iterator");
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t1));
	KUNIT_EXPECT_EQ(test, -EEXIST,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t1));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(),
				(void *)marker_kunit_typed_probe,
				"one typed probe: called directly");
	marker_kunit_fire_typed(7);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, t1.data, (void *)&t1);
	KUNIT_EXPECT_EQ(test, t1.a, 7);
	KUNIT_EXPECT_EQ(test, t1.b, 14);
	KUNIT_EXPECT_STREQ(test, t1.s, "typed");

	/* A second typed probe, then a probe with the format. */
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t2));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(), typed_iterator,
				"two typed probes: the typed iterator");
	marker_kunit_fire_typed(6);
	KUNIT_EXPECT_EQ(test, t1.calls, 2);
	KUNIT_EXPECT_EQ(test, t2.calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, t2.data, (void *)&t2);
	KUNIT_EXPECT_EQ(test, t2.a, 6);
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_typed",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &seen));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(), iterator,
				"and a probe with a format: the iterator");
	marker_kunit_fire_typed(8);
	KUNIT_EXPECT_EQ(test, t1.calls, 3);
	KUNIT_EXPECT_EQ(test, t2.calls, 2);
	KUNIT_EXPECT_PTR_EQ(test, t2.data, (void *)&t2);
	KUNIT_EXPECT_EQ(test, t2.a, 8);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, seen.a, 8);
	KUNIT_EXPECT_EQ(test, seen.b, 16);
	KUNIT_EXPECT_STREQ(test, seen.s, "typed");
	KUNIT_EXPECT_STREQ(test, seen.marker->name, "__marker_kunit_typed");
	KUNIT_EXPECT_STREQ(test, seen.marker->format, MARKER_KUNIT_FMT);

	/* Down to t2 alone: a direct call again, with t2's data. */
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_typed",
						marker_kunit_probe, &seen));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(), typed_iterator);
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t1));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    (void *)marker_kunit_typed_probe);
	marker_kunit_fire_typed(9);
	KUNIT_EXPECT_EQ(test, t1.calls, 3);
	KUNIT_EXPECT_EQ(test, t2.calls, 3);
	KUNIT_EXPECT_PTR_EQ(test, t2.data, (void *)&t2);
	KUNIT_EXPECT_EQ(test, t2.a, 9);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);

	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t2));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t2));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(), iterator,
				"no probe: the iterator again");
	marker_synchronize_unregister();
	marker_kunit_fire_typed(10);
	KUNIT_EXPECT_EQ(test, t2.calls, 3);
}

/*
 * A typed probe can be detached through the batch API with its
 * declaration and no name, as register_mark_<name>() attaches it: the
 * registry finds the name through the declaration.
 */
static void marker_typed_batch_by_declaration(struct kunit *test)
{
	struct marker_kunit_typed_seen t1 = { };
	struct marker_probe_request req = {
		.probe = (marker_probe_func)(void *)marker_kunit_typed_probe,
		.probe_private = &t1,
		.typed = &__marker_typed___marker_kunit_typed,
	};
	void *iterator = __marker_typed___marker_kunit_typed.iterator;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register_batch(&req, 1));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    (void *)marker_kunit_typed_probe);
	marker_kunit_fire_typed(3);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_EQ(test, t1.a, 3);

	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_batch(&req, 1));
	KUNIT_EXPECT_EQ(test, -ENOENT, marker_probe_unregister_batch(&req, 1));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(), iterator);
	marker_synchronize_unregister();
	marker_kunit_fire_typed(4);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
}

/*
 * Typed probes are called without a recursion guard, as tracepoint probes
 * are; a probe with a format that fires the marker again is not re-entered
 * by it, while the typed probe sees both hits.
 */
static void marker_typed_recursion(struct kunit *test)
{
	struct marker_kunit_typed_seen t = { };
	struct marker_kunit_seen seen = { };

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_typed",
					      MARKER_KUNIT_FMT,
					      marker_kunit_typed_va_reenter,
					      &seen));
	marker_kunit_fire_typed(1);
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 1,
			    "a probe firing its own marker is not re-entered");
	KUNIT_EXPECT_EQ_MSG(test, t.calls, 2, "the typed probe sees both hits");
	KUNIT_EXPECT_EQ(test, t.a, 101);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_typed",
						marker_kunit_typed_va_reenter,
						&seen));
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t));
	marker_synchronize_unregister();
}

struct marker_kunit_states {
	const char *name;
	unsigned int conflict, typed_conflict;
};

static int marker_kunit_count_states(const struct marker_site_info *info,
				     void *data)
{
	struct marker_kunit_states *st = data;

	if (strcmp(info->marker->name, st->name) ||
	    !(info->marker->flags & MARKER_FLAG_CONFLICT))
		return 0;
	st->conflict++;
	st->typed_conflict += !!(info->marker->flags & MARKER_FLAG_TYPED);
	return 0;
}

/*
 * One name, a mark_<name>() site and a trace_mark() site: one of them is
 * a conflict, and typed probes are taken exactly when the typed one won.
 */
static void marker_typed_mixed_sites(struct kunit *test)
{
	struct marker_kunit_states st = { .name = "__marker_kunit_mixed" };
	struct marker_kunit_typed_seen t = { };
	struct marker_kunit_seen seen = { };
	int ret;

	marker_iterate_sites(marker_kunit_count_states, &st);
	KUNIT_ASSERT_EQ_MSG(test, st.conflict, 1, "one of the two is left out");
	ret = register_mark___marker_kunit_mixed(marker_kunit_mixed_probe, &t);
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_mixed", "n %d",
					      marker_kunit_count, &seen));
	marker_kunit_fire_mixed(5);
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 1,
			    "a format probe sees the one enabled site");
	if (st.typed_conflict) {
		KUNIT_EXPECT_EQ_MSG(test, ret, -EPERM,
				    "the name has trace_mark() sites");
		KUNIT_EXPECT_EQ(test, t.calls, 0);
	} else {
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, t.calls, 1);
		KUNIT_EXPECT_EQ(test, t.a, 5);
		KUNIT_EXPECT_EQ(test, 0,
				unregister_mark___marker_kunit_mixed(marker_kunit_mixed_probe,
								     &t));
	}
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_mixed",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

static struct marker_probe_array *marker_kunit_no_memory(unsigned int nr);

/*
 * A typed marker declared here with no site anywhere: its name's entry
 * lives only as long as its probes.
 */
#define CREATE_MARKERS
DECLARE_MARKER(__marker_kunit_unsited,
	       MARKER_PROTO(int n),
	       MARKER_ARGS(n),
	       "n %d",
	       MARKER_VALUES(n));
#undef CREATE_MARKERS

/*
 * The static call goes to a new only probe directly only a grace period
 * after the array before it went, even when the name's entry went in
 * between: a CPU that read the old array may still pass its ->data.
 */
static void marker_typed_direct_waits_across_entries(struct kunit *test)
{
	struct marker_kunit_typed_seen t1 = { }, t2 = { };
	struct rcu_gp_oldstate gone;

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							     &t1));
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    (void *)marker_kunit_mixed_probe);
	/*
	 * A grace period from here covers every CPU that read t1's array
	 * before the unregistration: the registry's own cookie, taken as it
	 * withdraws the array, is this one or a later one. The _full cookie
	 * sees expedited grace periods too (all of them, during boot).
	 */
	get_state_synchronize_rcu_full(&gone);
	KUNIT_ASSERT_EQ(test, 0,
			unregister_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							       &t1));
	/* No site, no probe: the entry is gone; t1's array is not yet. */
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							     &t2));
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    (void *)marker_kunit_mixed_probe);
	KUNIT_EXPECT_TRUE_MSG(test, poll_state_synchronize_rcu_full(&gone),
			      "the direct call to t2 waited for the readers of t1's array");
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							       &t2));
	marker_synchronize_unregister();
}

/* Fire both kinds of sites where RCU is not watching this CPU. */
static noinline void marker_kunit_fire_rcu_idle(int a)
{
	unsigned long flags;

	/* The sites' lockdep check would rightly warn: this is on purpose. */
	lockdep_off();
	local_irq_save(flags);
	ct_idle_enter();
	marker_kunit_fire_typed(a);
	marker_kunit_fire(a, 0, "idle");
	ct_idle_exit();
	local_irq_restore(flags);
	lockdep_on();
}

/*
 * Neither a mark_<name>() site nor a trace_mark() site calls probes where
 * RCU is not watching: the probe arrays are RCU-protected.
 */
static void marker_rcu_idle_skipped(struct kunit *test)
{
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
	struct marker_kunit_typed_seen t = { };
	struct marker_kunit_seen seen = { };

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values", NULL,
					      marker_kunit_count, &seen));
	marker_kunit_fire_rcu_idle(1);
	KUNIT_EXPECT_EQ_MSG(test, t.calls, 0,
			    "a typed site calls nothing where RCU is not watching");
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 0,
			    "nor does a trace_mark() site");
	marker_kunit_fire_typed(2);
	marker_kunit_fire(2, 0, "watching");
	KUNIT_EXPECT_EQ(test, t.calls, 1);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
#else
	kunit_skip(test, "needs CONFIG_CONTEXT_TRACKING_IDLE (tree RCU)");
#endif
}

static noinline void marker_kunit_fire_nest(int level)
{
	trace_mark(marker_kunit_nest, "level %d", level);
}

/*
 * Called at each level: enter one more hard IRQ nesting level (as
 * irq_enter does) and fire again, up to level 3, where the marker is
 * fired once more in the same context, which must be dropped.
 */
static void marker_kunit_nest_probe(const struct marker *marker, void *priv,
				    va_list *args)
{
	struct marker_kunit_seen *seen = priv;
	int level = va_arg(*args, int);

	seen->calls++;
	seen->a = max(seen->a, level);
	if (level == 3) {
		marker_kunit_fire_nest(99);
		return;
	}
	__irq_enter_raw();
	marker_kunit_fire_nest(level + 1);
	__irq_exit_raw();
}

/*
 * Each hard IRQ nesting level is a context of its own for the recursion
 * guard (levels 2 and 3 once shared one and the third was dropped), and
 * the same level is still refused.
 */
static void marker_recursion_nesting_levels(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	unsigned long flags, drops;

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_nest", "level %d",
					      marker_kunit_nest_probe, &seen));
	drops = marker_recursion_drops_read();
	local_irq_save(flags);
	marker_kunit_fire_nest(0);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 4,
			    "task, then hard IRQ levels 1, 2 and 3");
	KUNIT_EXPECT_EQ_MSG(test, seen.a, 3, "level 3's own re-fire dropped");
	KUNIT_EXPECT_EQ(test, marker_recursion_drops_read() - drops, 1);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_nest",
						marker_kunit_nest_probe, &seen));
	marker_synchronize_unregister();
}

struct marker_kunit_other {
	struct marker_kunit_seen seen;
	struct completion done;
	int ret;
};

/* Another task: registers, fires once, and says how that went. */
static int marker_kunit_other_task(void *data)
{
	struct marker_kunit_other *o = data;

	o->ret = marker_probe_register("marker_kunit_values", MARKER_KUNIT_FMT,
				       marker_kunit_count, &o->seen);
	if (!o->ret)
		marker_kunit_fire(3, 4, "other");
	complete(&o->done);
	return 0;
}

/*
 * A patch batch is its owner's: another task's registration while it is
 * open patches its sites before returning, and its probe is called.
 */
static void marker_batch_belongs_to_caller(struct kunit *test)
{
	struct marker_kunit_other o = { };
	struct marker_patch_batch batch;
	struct task_struct *task;

	init_completion(&o.done);
	marker_patch_batch_begin(&batch);
	task = kthread_run(marker_kunit_other_task, &o, "marker_kunit_other");
	if (IS_ERR(task)) {
		marker_patch_batch_end(&batch);
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(task));
		return;
	}
	wait_for_completion(&o.done);
	KUNIT_EXPECT_EQ(test, o.ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, o.seen.calls, 1,
			    "the other task's probe is called while this batch is open");
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &o.seen));
	marker_synchronize_unregister();
}

/* One trace_mark() in an inline function, inlined three times. */
static __always_inline void marker_kunit_inlined(int n)
{
	trace_mark(marker_kunit_inlined, "n %d", n);
}

static noinline void marker_kunit_inlined_1(void)
{
	marker_kunit_inlined(1);
}

static noinline void marker_kunit_inlined_2(void)
{
	marker_kunit_inlined(2);
}

static noinline void marker_kunit_inlined_3(void)
{
	marker_kunit_inlined(3);
}

struct marker_kunit_count_name {
	const char *name;
	unsigned int sites;	/* by marker_iterate_sites() */
	unsigned int listed;	/* nr_sites by marker_iterate_names() */
	unsigned int found;
};

static int marker_kunit_count_site(const struct marker_site_info *info,
				   void *data)
{
	struct marker_kunit_count_name *c = data;

	c->sites += !strcmp(info->marker->name, c->name);
	return 0;
}

static int marker_kunit_count_listed(const struct marker_name_info *info,
				     void *data)
{
	struct marker_kunit_count_name *c = data;

	if (!strcmp(info->name, c->name)) {
		c->listed = info->nr_sites;
		c->found++;
	}
	return 0;
}

/*
 * A name's site count is its real sites: one struct marker per file, but
 * a patchable site per inlined copy.
 */
static void marker_sites_counted_per_copy(struct kunit *test)
{
	struct marker_kunit_count_name c = { .name = "marker_kunit_inlined" };
	struct marker_kunit_seen seen = { };
	unsigned int expect = 1;

	if (IS_ENABLED(CONFIG_HAVE_ARCH_MARKER_SITES))
		expect = 3;
	marker_iterate_sites(marker_kunit_count_site, &c);
	KUNIT_ASSERT_EQ(test, 0,
			marker_iterate_names(marker_kunit_count_listed, &c));
	KUNIT_EXPECT_EQ(test, c.found, 1);
	KUNIT_EXPECT_EQ_MSG(test, c.sites, expect, "the sites listed");
	KUNIT_EXPECT_EQ_MSG(test, c.listed, c.sites,
			    "the name's count is its sites'");

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_inlined", "n %d",
					      marker_kunit_count, &seen));
	marker_kunit_inlined_1();
	marker_kunit_inlined_2();
	marker_kunit_inlined_3();
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 3, "every copy is enabled");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_inlined",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

/*
 * A typed probe detached without memory for a smaller array takes a stub
 * of the typed probes' own type (a CFI kernel checks the type of every
 * indirect call), a probe with a format one of marker_probe_func's.
 */
static void marker_typed_stub_typed(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_typed;
	struct marker_kunit_typed_seen t1 = { }, t2 = { };
	struct marker_kunit_seen v1 = { }, v2 = { };
	struct marker_probe_array *a;

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t1));
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t2));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_typed",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &v1));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_typed", NULL,
					      marker_kunit_count, &v2));
	kunit_activate_static_stub(test, marker_array_alloc,
				   marker_kunit_no_memory);
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t1));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_typed",
						marker_kunit_count, &v1));
	kunit_deactivate_static_stub(test, marker_array_alloc);

	rcu_read_lock_sched();
	a = rcu_dereference_sched(t->probes);
	KUNIT_EXPECT_NOT_NULL(test, a);
	if (a) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, a->probes[0].func, t->stub,
					"the typed slot: the declaration's stub");
		KUNIT_EXPECT_PTR_NE(test, a->varargs[0].func,
				    (void *)marker_kunit_count);
		KUNIT_EXPECT_PTR_NE(test, a->varargs[0].func, t->stub);
	}
	rcu_read_unlock_sched();
	marker_kunit_fire_typed(5);
	KUNIT_EXPECT_EQ(test, t1.calls, 0);
	KUNIT_EXPECT_EQ(test, t2.calls, 1);
	KUNIT_EXPECT_EQ(test, v1.calls, 0);
	KUNIT_EXPECT_EQ(test, v2.calls, 1);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t1));
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t2));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_typed",
						marker_kunit_count, &v2));
	marker_synchronize_unregister();
}

/* Stands in for marker_array_alloc(): no memory for probe arrays. */
static struct marker_probe_array *marker_kunit_no_memory(unsigned int nr)
{
	return NULL;
}

/*
 * Detaching cannot fail, even without memory for the smaller array: the
 * probe is never called again, the others still are, and a later update
 * with memory compacts the array.
 */
static void marker_unregister_without_memory(struct kunit *test)
{
	struct marker_kunit_seen one = { }, two = { }, three = { };
	struct marker_probe_request req = {
		.name = "marker_kunit_values", .probe = marker_kunit_count,
		.probe_private = &two,
	};

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &one));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values", NULL,
					      marker_kunit_count, &two));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &three));
	marker_kunit_fire(1, 2, "three");
	KUNIT_EXPECT_EQ(test, one.calls + two.calls + three.calls, 3);

	kunit_activate_static_stub(test, marker_array_alloc,
				   marker_kunit_no_memory);
	KUNIT_EXPECT_EQ_MSG(test, -ENOMEM,
			    marker_probe_register("marker_kunit_effect", "n %d",
						  marker_kunit_count, &one),
			    "attaching needs memory");
	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_unregister("marker_kunit_values",
						    marker_kunit_count, &one),
			    "detaching does not fail without memory");
	marker_kunit_fire(1, 2, "two");
	KUNIT_EXPECT_EQ_MSG(test, one.calls, 1,
			    "a detached probe is not called again");
	KUNIT_EXPECT_EQ(test, two.calls, 2);
	KUNIT_EXPECT_EQ(test, three.calls, 2);

	KUNIT_EXPECT_EQ_MSG(test, 0, marker_probe_unregister_batch(&req, 1),
			    "nor does a batch");
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_probe_unregister("marker_kunit_values",
						    marker_kunit_count, &one),
			    "a stubbed probe is gone for good");
	marker_kunit_fire(1, 2, "one");
	KUNIT_EXPECT_EQ(test, two.calls, 2);
	KUNIT_EXPECT_EQ(test, three.calls, 3);
	kunit_deactivate_static_stub(test, marker_array_alloc);

	/* With memory again, the stubbed slots go and the format holds. */
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register("marker_kunit_values", "a %d",
						  marker_kunit_count, &one),
			    "the format is still checked");
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &one));
	marker_kunit_fire(1, 2, "again");
	KUNIT_EXPECT_EQ(test, one.calls, 2);
	KUNIT_EXPECT_EQ(test, two.calls, 2);
	KUNIT_EXPECT_EQ(test, three.calls, 4);

	kunit_activate_static_stub(test, marker_array_alloc,
				   marker_kunit_no_memory);
	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_unregister_private_data(marker_kunit_count,
								 &three),
			    "unregister_private_data does not fail either");
	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_unregister("marker_kunit_values",
						    marker_kunit_count, &one),
			    "the last probe needs no array at all");
	kunit_deactivate_static_stub(test, marker_array_alloc);
	marker_synchronize_unregister();
	marker_kunit_fire(1, 2, "none");
	KUNIT_EXPECT_EQ(test, one.calls, 2);
	KUNIT_EXPECT_EQ(test, three.calls, 4);
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register("marker_kunit_values", "a %d",
						  marker_kunit_count, &one),
			    "with no probe left, the sites' format still rules");
}

static struct kunit_case marker_registry_cases[] = {
	KUNIT_CASE(marker_register_errors),
	KUNIT_CASE(marker_fires_with_values),
	KUNIT_CASE(marker_args_not_evaluated_when_off),
	KUNIT_CASE(marker_several_probes),
	KUNIT_CASE(marker_register_before_site),
	KUNIT_CASE(marker_batch_all_or_nothing),
	KUNIT_CASE(marker_recursion_dropped),
	KUNIT_CASE(marker_declared_typed),
	KUNIT_CASE(marker_typed_probes),
	KUNIT_CASE(marker_typed_batch_by_declaration),
	KUNIT_CASE(marker_typed_recursion),
	KUNIT_CASE(marker_typed_mixed_sites),
	KUNIT_CASE(marker_unregister_without_memory),
	KUNIT_CASE(marker_typed_direct_waits_across_entries),
	KUNIT_CASE(marker_rcu_idle_skipped),
	KUNIT_CASE(marker_recursion_nesting_levels),
	KUNIT_CASE(marker_batch_belongs_to_caller),
	KUNIT_CASE(marker_sites_counted_per_copy),
	KUNIT_CASE(marker_typed_stub_typed),
	{}
};

static struct kunit_suite marker_registry_suite = {
	.name = "marker_registry",
	.test_cases = marker_registry_cases,
};

/*
 * The site suite knows each architecture's instructions and IPI counters:
 * the helpers below are all it needs of them.
 */
#if defined(CONFIG_HAVE_ARCH_MARKER_SITES) && \
	(defined(CONFIG_X86) || defined(CONFIG_ARM64))

#ifdef CONFIG_X86
#include <linux/kallsyms.h>
#include <trace/events/csd.h>
#include <asm/text-patching.h>

/* A disabled site: the 5-byte NOP. */
#define marker_kunit_nop	x86_nops[MARKER_SITE_SIZE]

/* An instruction markers never write: DS-prefixed 4-byte NOP. */
static const u8 marker_kunit_foreign[MARKER_SITE_SIZE] = {
	0x3e, 0x0f, 0x1f, 0x40, 0x00
};

/* Where the instruction at @code jumps if it is JMP rel32, else 0. */
static unsigned long marker_kunit_jmp_target(unsigned long code)
{
	const u8 *insn = (const u8 *)code;
	s32 rel;

	if (insn[0] != 0xe9)
		return 0;
	memcpy(&rel, insn + 1, sizeof(rel));
	return code + MARKER_SITE_SIZE + rel;
}

static void marker_kunit_poke(unsigned long code, const void *bytes)
{
	mutex_lock(&text_mutex);
	text_poke_bp((void *)code, bytes, MARKER_SITE_SIZE, marker_kunit_nop);
	mutex_unlock(&text_mutex);
}

/*
 * text_poke_sync() rounds run by other CPUs: each runs do_sync_core() from
 * a function-call IPI. They are counted at csd_function_entry rather than
 * as every function-call IPI (irq_call_count, CAL in /proc/interrupts):
 * the scheduler's remote wakeups (ttwu_queue_wakelist()) come through the
 * same vector, and on a slow preemptible kernel some land in the window.
 */
static atomic_long_t marker_kunit_sync_rounds;
static unsigned long marker_kunit_sync_core;

/*
 * Hard-IRQ context, on the CPU the IPI reached; csd is NULL where the
 * sender runs the function itself, which is not an IPI.
 */
static void marker_kunit_csd_entry(void *data, smp_call_func_t func,
				   call_single_data_t *csd)
{
	if (csd && (unsigned long)func == marker_kunit_sync_core)
		atomic_long_inc(&marker_kunit_sync_rounds);
}

static void marker_kunit_ipis_start(struct kunit *test)
{
	marker_kunit_sync_core = kallsyms_lookup_name("do_sync_core");
	if (!marker_kunit_sync_core)
		kunit_skip(test, "do_sync_core() not found in kallsyms");
	KUNIT_ASSERT_EQ(test, 0,
			register_trace_csd_function_entry(marker_kunit_csd_entry,
							  NULL));
}

static void marker_kunit_ipis_stop(void)
{
	unregister_trace_csd_function_entry(marker_kunit_csd_entry, NULL);
	tracepoint_synchronize_unregister();
}

static unsigned long marker_kunit_call_ipis(void)
{
	return atomic_long_read(&marker_kunit_sync_rounds);
}

/* text_poke_finish() patches its queue with three sync rounds. */
#define MARKER_KUNIT_BATCH_IPIS_MAX(others)	(2 * 3 * (others))
#endif /* CONFIG_X86 */

#ifdef CONFIG_ARM64
#include <linux/cpu.h>
#include <linux/interrupt.h>
#include <linux/irqdesc.h>
#include <linux/kernel_stat.h>
#include <linux/unaligned.h>
#include <asm/insn.h>
#include <asm/patching.h>

/*
 * A64 instructions, little-endian in memory: NOP, and YIELD, a hint that
 * markers never write.
 */
static const u8 marker_kunit_nop[MARKER_SITE_SIZE] = {
	0x1f, 0x20, 0x03, 0xd5
};

static const u8 marker_kunit_foreign[MARKER_SITE_SIZE] = {
	0x3f, 0x20, 0x03, 0xd5
};

/* Where the instruction at @code branches if it is B, else 0. */
static unsigned long marker_kunit_jmp_target(unsigned long code)
{
	u32 insn = get_unaligned_le32((const void *)code);

	if (!aarch64_insn_is_b(insn))
		return 0;
	return code + aarch64_get_branch_offset(insn);
}

/* As a kprobe is armed: with every other CPU stopped. */
static void marker_kunit_poke(unsigned long code, const void *bytes)
{
	void *addr = (void *)code;
	u32 insn = get_unaligned_le32(bytes);

	cpus_read_lock();
	mutex_lock(&text_mutex);
	WARN_ON(aarch64_insn_patch_text(&addr, &insn, 1));
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
}

/* arm64 reads the IPI's own counter: nothing to set up. */
static void marker_kunit_ipis_start(struct kunit *test)
{
}

static void marker_kunit_ipis_stop(void)
{
}

/*
 * Function-call IPIs all CPUs received (IPI1 in /proc/interrupts): arm64
 * requests its IPIs as consecutive per-CPU interrupts named "IPI", the
 * function call one second (IPI_CALL_FUNC in arch/arm64/kernel/smp.c).
 */
static unsigned long marker_kunit_call_ipis(void)
{
	struct irq_desc *desc;
	unsigned long sum = 0;
	unsigned int irq;
	int cpu;

	for_each_irq_desc(irq, desc)
		if (desc->action && desc->action->name &&
		    !strcmp(desc->action->name, "IPI"))
			break;
	if (irq >= nr_irqs)
		return 0;
	for_each_online_cpu(cpu)
		sum += kstat_irqs_cpu(irq + 1, cpu);
	return sum;
}

/* One kick_all_cpus_sync() per batch; room for a stray IPI or two. */
#define MARKER_KUNIT_BATCH_IPIS_MAX(others)	(4 * (others))
#endif /* CONFIG_ARM64 */

struct marker_kunit_site {
	const char *name;
	unsigned long code;
	unsigned long target;
	bool enabled;
	bool busy;
	unsigned int found;
};

static int marker_kunit_find_site(const struct marker_site_info *info,
				  void *data)
{
	struct marker_kunit_site *site = data;

	if (strcmp(info->marker->name, site->name))
		return 0;
	site->code = info->code;
	site->target = info->target;
	site->enabled = info->enabled;
	site->busy = info->busy;
	site->found++;
	return 0;
}

/* The two sites of marker_kunit_two, in address order. */
struct marker_kunit_two_sites {
	struct marker_kunit_site site[2];
	unsigned int found;
};

static int marker_kunit_find_two(const struct marker_site_info *info,
				 void *data)
{
	struct marker_kunit_two_sites *two = data;

	if (strcmp(info->marker->name, "marker_kunit_two"))
		return 0;
	if (two->found < 2) {
		two->site[two->found].name = info->marker->name;
		marker_kunit_find_site(info, &two->site[two->found]);
	}
	two->found++;
	return 0;
}

static void marker_kunit_get_site(struct kunit *test,
				  struct marker_kunit_site *site,
				  const char *name)
{
	memset(site, 0, sizeof(*site));
	site->name = name;
	marker_iterate_sites(marker_kunit_find_site, site);
	KUNIT_ASSERT_EQ_MSG(test, site->found, 1, "one site named %s", name);
}

static void marker_kunit_expect_nop(struct kunit *test, unsigned long code)
{
	KUNIT_EXPECT_MEMEQ_MSG(test, (void *)code, marker_kunit_nop,
			       MARKER_SITE_SIZE, "a disabled site holds the NOP");
}

static void marker_kunit_expect_jmp(struct kunit *test, unsigned long code,
				    unsigned long target)
{
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_jmp_target(code), target,
			    "an enabled site holds a jump to its probe call");
}

static void marker_site_bytes(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE(test, site.enabled);
	KUNIT_EXPECT_NE(test, site.target, site.code);
	marker_kunit_expect_nop(test, site.code);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &seen));
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE(test, site.enabled);
	marker_kunit_expect_jmp(test, site.code, site.target);
	marker_kunit_fire(11, 12, "jmp");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	marker_synchronize_unregister();
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE(test, site.enabled);
	marker_kunit_expect_nop(test, site.code);
}

/*
 * Inside marker_patch_batch_begin()/end(), a registration publishes its
 * probes but the site is patched only at the end, and a failing one still
 * fails.
 */
static void marker_site_patch_batch(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;

	struct marker_patch_batch batch, inner;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	marker_patch_batch_begin(&batch);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &seen));
	KUNIT_EXPECT_EQ(test, -EPERM,
			marker_probe_register("marker_kunit_values", "x %d",
					      marker_kunit_count, &seen));
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE_MSG(test, site.enabled, "the probes are published");
	marker_kunit_expect_nop(test, site.code);
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	marker_kunit_expect_jmp(test, site.code, site.target);
	marker_kunit_fire(5, 6, "batch");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL, marker_patch_batch_end(&batch),
			    "a batch ends once");

	marker_patch_batch_begin(&batch);
	marker_patch_batch_begin(&inner);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&inner));
	marker_kunit_expect_jmp(test, site.code, site.target);
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	marker_kunit_expect_nop(test, site.code);
	marker_synchronize_unregister();
	marker_kunit_fire(7, 8, "off");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
}

static void marker_site_kprobe_refused(struct kunit *test)
{
#ifdef CONFIG_KPROBES
	struct marker_kunit_site site;
	struct kprobe kp = { };
	int ret;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE(test, marker_text_reserved((void *)site.code,
						     (void *)site.code));
	KUNIT_EXPECT_TRUE(test,
			  marker_text_reserved((void *)site.code + MARKER_SITE_SIZE - 1,
					       (void *)site.code + MARKER_SITE_SIZE - 1));
	KUNIT_EXPECT_FALSE(test,
			   marker_text_reserved((void *)site.code + MARKER_SITE_SIZE,
						(void *)site.code + MARKER_SITE_SIZE));

	kp.addr = (kprobe_opcode_t *)site.code;
	ret = register_kprobe(&kp);
	if (!ret)
		unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
			    "a kprobe on a marker site is refused");
#else
	kunit_skip(test, "needs CONFIG_KPROBES");
#endif
}

static void marker_site_busy(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	marker_kunit_expect_nop(test, site.code);
	marker_kunit_poke(site.code, marker_kunit_foreign);

	KUNIT_EXPECT_EQ_MSG(test, -EBUSY,
			    marker_probe_register("marker_kunit_values",
						  MARKER_KUNIT_FMT,
						  marker_kunit_probe, &seen),
			    "a marker whose only site is changed by someone else is -EBUSY");
	KUNIT_EXPECT_MEMEQ_MSG(test, (void *)site.code, marker_kunit_foreign,
			       MARKER_SITE_SIZE, "the foreign bytes are left alone");
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE_MSG(test, site.enabled, "the marker stays off");
	KUNIT_EXPECT_TRUE_MSG(test, site.busy, "the site is listed busy");
	marker_kunit_fire(1, 2, "busy");
	KUNIT_EXPECT_EQ(test, seen.calls, 0);

	marker_kunit_poke(site.code, marker_kunit_nop);
	KUNIT_ASSERT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_values",
						  MARKER_KUNIT_FMT,
						  marker_kunit_probe, &seen),
			    "the restored site can be enabled");
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE_MSG(test, site.busy, "and is no longer busy");
	marker_kunit_fire(1, 2, "back");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	marker_synchronize_unregister();
}

static noinline void marker_kunit_fire_two_a(int i)
{
	trace_mark(marker_kunit_two, "i %d", i);
}

static noinline void marker_kunit_fire_two_b(int i)
{
	trace_mark(marker_kunit_two, "i %d", i);
}

/*
 * One busy site does not hold back the other sites of its name: they are
 * enabled, the busy one is listed and left alone, and the next update of
 * the name brings it back once it holds markers' code again.
 */
static void marker_site_busy_one_of_two(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_two_sites two = { };

	marker_iterate_sites(marker_kunit_find_two, &two);
	KUNIT_ASSERT_EQ(test, two.found, 2);
	marker_kunit_poke(two.site[0].code, marker_kunit_foreign);

	KUNIT_ASSERT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_two", "i %d",
						  marker_kunit_count, &seen),
			    "one busy site of two does not fail the registration");
	two.found = 0;
	marker_iterate_sites(marker_kunit_find_two, &two);
	KUNIT_EXPECT_TRUE_MSG(test, two.site[0].busy, "the busy site is listed");
	KUNIT_EXPECT_MEMEQ_MSG(test, (void *)two.site[0].code,
			       marker_kunit_foreign, MARKER_SITE_SIZE,
			       "its foreign bytes are left alone");
	KUNIT_EXPECT_FALSE(test, two.site[1].busy);
	marker_kunit_expect_jmp(test, two.site[1].code, two.site[1].target);
	marker_kunit_fire_two_a(1);
	marker_kunit_fire_two_b(2);
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 1,
			    "the other site fires, the busy one does not");

	marker_kunit_poke(two.site[0].code, marker_kunit_nop);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_two",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
	two.found = 0;
	marker_iterate_sites(marker_kunit_find_two, &two);
	KUNIT_EXPECT_FALSE_MSG(test, two.site[0].busy,
			       "the next update finds markers' code: not busy");
	marker_kunit_expect_nop(test, two.site[0].code);
	marker_kunit_expect_nop(test, two.site[1].code);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_two", "i %d",
					      marker_kunit_count, &seen));
	marker_kunit_expect_jmp(test, two.site[0].code, two.site[0].target);
	marker_kunit_expect_jmp(test, two.site[1].code, two.site[1].target);
	marker_kunit_fire_two_a(3);
	marker_kunit_fire_two_b(4);
	KUNIT_EXPECT_EQ(test, seen.calls, 3);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_two",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

#ifdef CONFIG_OPTPROBES
/* Simple, boostable instructions before a site. */
static noinline void marker_kunit_fire_near(int *counter)
{
	WRITE_ONCE(*counter, READ_ONCE(*counter) + 1);
	barrier();
	trace_mark(marker_kunit_near, "n %d", READ_ONCE(*counter));
}

/* The same without a site: what the optimizer does optimize. */
static noinline int marker_kunit_plain(int *p)
{
	return READ_ONCE(p[0]) + READ_ONCE(p[1]) + READ_ONCE(p[2]);
}

static int marker_kunit_kprobe_handler(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* Whether the kprobe at @addr ended up optimized (a JMP, not an int3). */
static bool marker_kunit_optimized(void *addr)
{
	struct kprobe *p;
	bool optimized;

	wait_for_kprobe_optimizer();
	preempt_disable();
	p = get_kprobe(addr);
	optimized = p && kprobe_optimized(p);
	preempt_enable();
	return optimized;
}
#endif

/*
 * A kprobe on an instruction just before a site is not optimized into a
 * JMP over the site, and the marker works while the kprobe is there.
 */
static void marker_site_optprobe_refused(struct kunit *test)
{
#ifdef CONFIG_OPTPROBES
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;
	struct kprobe kp = { .pre_handler = marker_kunit_kprobe_handler };
	int counter = 0, k, ret = -EINVAL;

	kp.addr = (kprobe_opcode_t *)marker_kunit_plain;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	KUNIT_EXPECT_TRUE_MSG(test, marker_kunit_optimized(kp.addr),
			      "control: a kprobe away from sites is optimized here");
	unregister_kprobe(&kp);

	marker_kunit_get_site(test, &site, "marker_kunit_near");
	for (k = 1; k < MARKER_SITE_SIZE && ret; k++) {
		memset(&kp, 0, sizeof(kp));
		kp.pre_handler = marker_kunit_kprobe_handler;
		kp.addr = (kprobe_opcode_t *)(site.code - k);
		ret = register_kprobe(&kp);
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, 0,
			    "an instruction starts within 4 bytes before the site");
	KUNIT_EXPECT_FALSE_MSG(test, marker_kunit_optimized(kp.addr),
			       "a kprobe %d bytes before a site is not optimized",
			       k - 1);
	marker_kunit_expect_nop(test, site.code);

	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_near", "n %d",
						  marker_kunit_count, &seen),
			    "the marker enables beside the kprobe");
	marker_kunit_expect_jmp(test, site.code, site.target);
	marker_kunit_fire_near(&counter);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, kp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_near",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
	marker_kunit_expect_nop(test, site.code);
	unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ(test, counter, 1);
#else
	kunit_skip(test, "needs CONFIG_OPTPROBES");
#endif
}

/*
 * The first byte of a site's out-of-line block is reserved with the site:
 * nothing jumps there while the site is a NOP, so an optimized kprobe
 * over the instructions before it could otherwise take it. A kprobe on
 * those instructions is not optimized over it.
 */
static void marker_site_block_reserved(struct kunit *test)
{
	struct marker_kunit_site site;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE_MSG(test,
			      marker_text_reserved((void *)site.target,
						   (void *)site.target),
			      "the block's first byte is reserved");
	KUNIT_EXPECT_TRUE_MSG(test,
			      marker_text_reserved((void *)site.target - 4,
						   (void *)site.target),
			      "so is a range that ends there");
	KUNIT_EXPECT_FALSE_MSG(test,
			       marker_text_reserved((void *)site.target + 1,
						    (void *)site.target + 1),
			       "the rest of the block is not");
#ifdef CONFIG_OPTPROBES
	{
		int k, tried = 0;

		marker_kunit_get_site(test, &site, "marker_kunit_near");
		for (k = 1; k < MARKER_SITE_SIZE; k++) {
			struct kprobe kp = {
				.pre_handler = marker_kunit_kprobe_handler,
				.addr = (kprobe_opcode_t *)(site.target - k),
			};

			/* Not every address before the block starts an instruction. */
			if (register_kprobe(&kp))
				continue;
			tried++;
			KUNIT_EXPECT_FALSE_MSG(test,
					       marker_kunit_optimized(kp.addr),
					       "a kprobe %d bytes before a site's block is not optimized over it",
					       k);
			unregister_kprobe(&kp);
		}
		kunit_info(test, "%d kprobes tried before the block", tried);
	}
#endif
}

/*
 * What held at early_initcall time, before marker_init() (this object is
 * linked before marker.o): kprobes may be registered from the first
 * initcalls on, and a core site must be refused to them already.
 */
static int marker_kunit_early_reserved = -1;
static int marker_kunit_early_names = -1;

static int marker_kunit_count_names(const struct marker_name_info *info,
				    void *data)
{
	(*(int *)data)++;
	return 0;
}

static int __init marker_kunit_early(void)
{
	unsigned long code;

	if (__stop___marker_sites - __start___marker_sites > 0) {
		code = marker_site_code(__start___marker_sites);
		marker_kunit_early_reserved =
			marker_text_reserved((void *)code, (void *)code);
	}
	marker_kunit_early_names = 0;
	marker_iterate_names(marker_kunit_count_names,
			     &marker_kunit_early_names);
	return 0;
}
early_initcall(marker_kunit_early);

static void marker_site_reserved_before_init(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_early_names, 0,
			    "the check ran before marker_init() attached a name");
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_early_reserved, 1,
			    "a core site was reserved against kprobes then");
}

/* The table text_poke() writes through is read-only after init. */
static void marker_site_table_read_only(struct kunit *test)
{
	KUNIT_EXPECT_GT(test, __stop___marker_sites - __start___marker_sites, 0);
	KUNIT_EXPECT_TRUE_MSG(test,
			      (void *)__start___marker_sites >=
			      (void *)__start_ro_after_init &&
			      (void *)__stop___marker_sites <=
			      (void *)__end_ro_after_init,
			      "__marker_sites %p-%p, ro_after_init %p-%p",
			      __start___marker_sites, __stop___marker_sites,
			      __start_ro_after_init, __end_ro_after_init);
}

/* 64 sites of 64 markers, for one batch. */
#define MARKER_KUNIT_BATCH	64
#define MB(n)	trace_mark(marker_kunit_batch_##n, "i %d", i)
#define MB8(n)					\
	do {					\
		MB(n##0);			\
		MB(n##1);			\
		MB(n##2);			\
		MB(n##3);			\
		MB(n##4);			\
		MB(n##5);			\
		MB(n##6);			\
		MB(n##7);			\
	} while (0)

static noinline void marker_kunit_fire_batch(int i)
{
	MB8(0);
	MB8(1);
	MB8(2);
	MB8(3);
	MB8(4);
	MB8(5);
	MB8(6);
	MB8(7);
}

/*
 * Each sync round of a batch is one function-call IPI to every other
 * online CPU: count the IPIs all CPUs received around an update.
 */
static void marker_kunit_expect_one_batch(struct kunit *test,
					  unsigned long ipis, const char *what)
{
	unsigned int others = num_online_cpus() - 1;

	kunit_info(test, "%s 64 sites: %lu call IPIs on %u other CPUs\n",
		   what, ipis, others);
	KUNIT_EXPECT_GE_MSG(test, ipis, others,
			    "%s: at least one sync round", what);
	KUNIT_EXPECT_LT_MSG(test, ipis, MARKER_KUNIT_BATCH_IPIS_MAX(others),
			    "%s: 64 sites cost one batch of sync rounds, not 64",
			    what);
}

struct marker_kunit_batch {
	struct marker_probe_request reqs[MARKER_KUNIT_BATCH];
	char names[MARKER_KUNIT_BATCH][24];
	unsigned int sites, enabled, jmps;
};

static int marker_kunit_batch_site(const struct marker_site_info *info,
				   void *data)
{
	struct marker_kunit_batch *b = data;

	if (strncmp(info->marker->name, "marker_kunit_batch_", 19))
		return 0;
	b->sites++;
	b->enabled += info->enabled;
	b->jmps += marker_kunit_jmp_target(info->code) == info->target;
	return 0;
}

static void marker_site_batch(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_probe_request *reqs;
	unsigned long ipis, on, off, best_on = ULONG_MAX, best_off = ULONG_MAX;
	unsigned int others = num_online_cpus() - 1;
	struct marker_kunit_batch *b;
	unsigned int i, try;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	reqs = b->reqs;
	for (i = 0; i < MARKER_KUNIT_BATCH; i++) {
		snprintf(b->names[i], sizeof(b->names[i]),
			 "marker_kunit_batch_%u%u", i / 8, i % 8);
		reqs[i] = (struct marker_probe_request) {
			.name = b->names[i], .format = "i %d",
			.probe = marker_kunit_count, .probe_private = &seen,
		};
	}

	if (num_online_cpus() < 2)
		kunit_skip(test, "sync rounds are only seen with 2 CPUs or more");

	/*
	 * Other code may patch text in the same window (a static key, say),
	 * so the whole update is measured up to 3 times and the fewest IPIs
	 * of each direction are checked: one batch per site (3 sync rounds
	 * per site on x86) fails every time.
	 */
	marker_kunit_ipis_start(test);
	for (try = 0; try < 3; try++) {
		ipis = marker_kunit_call_ipis();
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_register_batch(reqs, MARKER_KUNIT_BATCH));
		on = marker_kunit_call_ipis() - ipis;
		if (!try) {
			marker_iterate_sites(marker_kunit_batch_site, b);
			KUNIT_EXPECT_EQ(test, b->sites, MARKER_KUNIT_BATCH);
			KUNIT_EXPECT_EQ(test, b->enabled, MARKER_KUNIT_BATCH);
			KUNIT_EXPECT_EQ(test, b->jmps, MARKER_KUNIT_BATCH);
			marker_kunit_fire_batch(0);
			KUNIT_EXPECT_EQ(test, seen.calls, MARKER_KUNIT_BATCH);
		}

		ipis = marker_kunit_call_ipis();
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_unregister_batch(reqs, MARKER_KUNIT_BATCH));
		off = marker_kunit_call_ipis() - ipis;
		marker_synchronize_unregister();
		if (!try) {
			b->sites = 0;
			b->enabled = 0;
			b->jmps = 0;
			marker_iterate_sites(marker_kunit_batch_site, b);
			KUNIT_EXPECT_EQ(test, b->enabled, 0);
			KUNIT_EXPECT_EQ(test, b->jmps, 0);
			marker_kunit_fire_batch(0);
			KUNIT_EXPECT_EQ(test, seen.calls, MARKER_KUNIT_BATCH);
		}
		best_on = min(best_on, on);
		best_off = min(best_off, off);
		if (best_on < MARKER_KUNIT_BATCH_IPIS_MAX(others) &&
		    best_off < MARKER_KUNIT_BATCH_IPIS_MAX(others))
			break;
	}
	marker_kunit_ipis_stop();
	marker_kunit_expect_one_batch(test, best_on, "enabling");
	marker_kunit_expect_one_batch(test, best_off, "disabling");
}

static struct kunit_case marker_site_cases[] = {
	KUNIT_CASE(marker_site_bytes),
	KUNIT_CASE(marker_site_patch_batch),
	KUNIT_CASE(marker_site_kprobe_refused),
	KUNIT_CASE(marker_site_busy),
	KUNIT_CASE(marker_site_busy_one_of_two),
	KUNIT_CASE(marker_site_optprobe_refused),
	KUNIT_CASE(marker_site_block_reserved),
	KUNIT_CASE(marker_site_table_read_only),
	KUNIT_CASE(marker_site_reserved_before_init),
	KUNIT_CASE(marker_site_batch),
	{}
};

static struct kunit_suite marker_site_suite = {
	.name = "marker_sites",
	.test_cases = marker_site_cases,
};

kunit_test_suites(&marker_registry_suite, &marker_site_suite);
#else
kunit_test_suites(&marker_registry_suite);
#endif /* CONFIG_HAVE_ARCH_MARKER_SITES && (CONFIG_X86 || CONFIG_ARM64) */

MODULE_DESCRIPTION("KUnit tests for static markers");
MODULE_LICENSE("GPL");
