// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of typed markers (DECLARE_MARKER()): typed probes and their
 * values, a name's kind decided by its first site, re-entry, the sites'
 * RCU rule, where the static call points as probes come and go, and
 * static calls retargeted together in batches.
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
#include <linux/marker_typed.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "marker_internal.h"
#include "marker_kunit.h"

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
 * Probes with a format alone on a typed marker (what the faces' perf path
 * attaches): the static call calls their iterator, given the array's
 * first such probe, and each sees the values; a typed probe joining them
 * moves it to the iterator of every probe, which calls all three, and
 * its leaving moves it back, a grace period after the array with the
 * typed probe went (a CPU may still pass that array's ->data, the typed
 * probe's private pointer, where the iterator takes its first probe).
 */
static void marker_typed_format_only(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_typed;
	struct marker_kunit_seen s1 = { }, s2 = { };
	struct marker_kunit_typed_seen t1 = { };
	struct rcu_gp_oldstate gone;

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_typed",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &s1));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(),
				t->iterator_va,
				"a probe with a format: their iterator");
	marker_kunit_fire_typed(5);
	KUNIT_EXPECT_EQ(test, s1.calls, 1);
	KUNIT_EXPECT_EQ(test, s1.a, 5);
	KUNIT_EXPECT_EQ(test, s1.b, 10);
	KUNIT_EXPECT_STREQ(test, s1.s, "typed");
	KUNIT_EXPECT_PTR_EQ(test, s1.marker, &t->marker);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_typed",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &s2));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(),
				t->iterator_va, "two: their iterator still");
	marker_kunit_fire_typed(6);
	KUNIT_EXPECT_EQ(test, s1.calls, 2);
	KUNIT_EXPECT_EQ(test, s2.calls, 1);
	KUNIT_EXPECT_EQ(test, s1.a, 6);
	KUNIT_EXPECT_EQ(test, s2.a, 6);
	KUNIT_EXPECT_EQ(test, s2.b, 12);

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t1));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(), t->iterator,
				"and a typed probe: the iterator of every probe");
	marker_kunit_fire_typed(7);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, t1.data, (void *)&t1);
	KUNIT_EXPECT_EQ(test, t1.a, 7);
	KUNIT_EXPECT_EQ(test, s1.calls, 3);
	KUNIT_EXPECT_EQ(test, s2.calls, 2);
	KUNIT_EXPECT_EQ(test, s2.a, 7);

	/* Every CPU that read the array with t1 is covered from here. */
	get_state_synchronize_rcu_full(&gone);
	KUNIT_ASSERT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t1));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(),
				t->iterator_va,
				"the typed probe gone: their iterator again");
	KUNIT_EXPECT_TRUE_MSG(test, poll_state_synchronize_rcu_full(&gone),
			      "the move waited for the readers of t1's array");
	marker_kunit_fire_typed(8);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_EQ(test, s1.calls, 4);
	KUNIT_EXPECT_EQ(test, s2.calls, 3);
	KUNIT_EXPECT_EQ(test, s1.a, 8);

	/* The first one leaves: the second is the array's first now. */
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_typed",
						marker_kunit_probe, &s1));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(), t->iterator_va);
	marker_kunit_fire_typed(9);
	KUNIT_EXPECT_EQ(test, s1.calls, 4);
	KUNIT_EXPECT_EQ(test, s2.calls, 4);
	KUNIT_EXPECT_EQ(test, s2.a, 9);

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_typed",
						marker_kunit_probe, &s2));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(), t->iterator,
				"no probe: the iterator");
	marker_synchronize_unregister();
	marker_kunit_fire_typed(10);
	KUNIT_EXPECT_EQ(test, s2.calls, 4);
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
 * A mark___marker_kunit_unsited() site of a module, made by hand, and
 * its range: attached and detached as the module notifier would.
 */
#define MARKER_KUNIT_UNSITED_SITE(t) {					\
		.name = "__marker_kunit_unsited",			\
		.format = "n %d",					\
		.typed = (t),						\
		.flags = MARKER_FLAG_DEBUG | MARKER_FLAG_TYPED,		\
	}

static int marker_kunit_range_attach(struct marker_range *r)
{
	int ret;

	marker_lock();
	ret = marker_range_attach(r);
	marker_unlock();
	return ret;
}

static void marker_kunit_range_detach(struct marker_range *r)
{
	marker_lock();
	marker_range_detach(r, r->nr_markers, 0);
	marker_unlock();
}

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

/* A probe with the format "n %d". Context: any, as a probe. */
static void marker_kunit_n_probe(const struct marker *marker, void *priv,
				 va_list *args)
{
	struct marker_kunit_seen *seen = priv;

	seen->calls++;
	seen->marker = marker;
	seen->a = va_arg(*args, int);
}

/*
 * A declaration whose last site and typed probe went leaves its static
 * call on its iterator of every probe, not on the probe it called (whose
 * module may go before the declaration's). When a site of it comes back
 * (a module's) while the name has probes with a format, the site calls
 * them through the iterator that takes the first of them, never the old
 * probe. A hand-made range stands for the module.
 */
static void marker_typed_site_after_untyped(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_unsited;
	struct marker m = MARKER_KUNIT_UNSITED_SITE(t);
	struct marker_range r = { .markers = &m, .nr_markers = 1 };
	struct marker_kunit_typed_seen t1 = { };
	struct marker_kunit_seen seen = { };
	int ret;

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							     &t1));
	KUNIT_ASSERT_EQ(test, 0,
			unregister_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							       &t1));
	KUNIT_EXPECT_PTR_EQ_MSG(test,
				static_call_query(marker_call___marker_kunit_unsited),
				t->iterator,
				"untyped with its call on its iterator, off the probe");
	KUNIT_EXPECT_NULL(test, marker_typed_reg(t)->entry);
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_unsited", "n %d",
					      marker_kunit_n_probe, &seen));

	ret = marker_kunit_range_attach(&r);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    t->iterator_va);
	/* What a mark___marker_kunit_unsited(5) site does once enabled. */
	__marker_typed_call(__marker_kunit_unsited, 5);
	KUNIT_EXPECT_EQ_MSG(test, t1.calls, 0, "the old probe is not called");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, seen.a, 5);
	KUNIT_EXPECT_PTR_EQ(test, seen.marker, &t->marker);

	marker_kunit_range_detach(&r);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_unsited",
						marker_kunit_n_probe, &seen));
	marker_synchronize_unregister();
}

/*
 * A declaration whose last site and typed probes went with its static
 * call on its typed iterator (two typed probes) leaves it there: its own
 * code. When a site of it comes back while the name has a probe with a
 * format only, that iterator cannot serve the array, which waits until
 * the call is on the iterator of probes with a format; the site then
 * calls that probe, never the typed ones. A hand-made range stands for
 * the module.
 */
static void marker_typed_site_after_untyped_iterator(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_unsited;
	struct marker m = MARKER_KUNIT_UNSITED_SITE(t);
	struct marker_range r = { .markers = &m, .nr_markers = 1 };
	struct marker_kunit_typed_seen t1 = { }, t2 = { };
	struct marker_probe_request reqs[] = {
		{
			.probe = (marker_probe_func)(void *)marker_kunit_mixed_probe,
			.probe_private = &t1,
			.typed = t,
		}, {
			.probe = (marker_probe_func)(void *)marker_kunit_mixed_probe,
			.probe_private = &t2,
			.typed = t,
		},
	};
	struct marker_kunit_seen seen = { };
	int ret;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register_batch(reqs, 2));
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    t->iterator_typed);
	/* Both in one update: the call is on the typed iterator as they go */
	KUNIT_ASSERT_EQ(test, 0, marker_probe_unregister_batch(reqs, 2));
	KUNIT_EXPECT_NULL(test, marker_typed_reg(t)->entry);
	KUNIT_EXPECT_PTR_EQ_MSG(test,
				static_call_query(marker_call___marker_kunit_unsited),
				t->iterator_typed,
				"untyped with its call on its own typed iterator");
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_unsited", "n %d",
					      marker_kunit_n_probe, &seen));

	ret = marker_kunit_range_attach(&r);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    t->iterator_va);
	/* What a mark___marker_kunit_unsited(9) site does once enabled. */
	__marker_typed_call(__marker_kunit_unsited, 9);
	KUNIT_EXPECT_EQ(test, t1.calls + t2.calls, 0);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, seen.a, 9);

	marker_kunit_range_detach(&r);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_unsited",
						marker_kunit_n_probe, &seen));
	marker_synchronize_unregister();
	KUNIT_EXPECT_NULL(test, marker_typed_reg(t)->entry);
}

/*
 * The only typed probe detached and attached again with other data in
 * one patch batch: the static call, still on the probe with the old data
 * (the batch keeps its moves for its end), cannot serve the new array, so
 * it goes to the typed iterator before the array is published, and to
 * the probe again, with the new data, only at the batch's end. No hit
 * passes the old data.
 */
static void marker_typed_direct_new_data_in_batch(struct kunit *test)
{
	struct marker_kunit_typed_seen t1 = { }, t2 = { };
	struct marker_patch_batch batch;

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t1));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    (void *)marker_kunit_typed_probe);
	marker_patch_batch_begin(&batch);
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t1));
	KUNIT_EXPECT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t2));
	if (IS_ENABLED(CONFIG_HAVE_ARCH_MARKER_SITES))
		KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(),
					__marker_typed___marker_kunit_typed.iterator_typed,
					"off the probe with the old data");
	else	/* No batches: each update moves the call at once */
		KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
				    (void *)marker_kunit_typed_probe);
	marker_kunit_fire_typed(6);
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    (void *)marker_kunit_typed_probe);
	marker_kunit_fire_typed(7);
	KUNIT_EXPECT_EQ(test, t1.calls, 0);
	KUNIT_EXPECT_EQ(test, t2.calls, 2);
	KUNIT_EXPECT_PTR_EQ(test, t2.data, (void *)&t2);
	KUNIT_EXPECT_EQ(test, t2.a, 7);
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t2));
	marker_synchronize_unregister();
}

/* Calls of marker_kunit_gone_stub(): there must be none. */
static unsigned int marker_kunit_gone_stub_calls;

/*
 * Stands for the __marker_stub_<name>() of a declaration whose module
 * went: a call of it would be a call into freed text.
 */
static void marker_kunit_gone_stub(void *data, int n)
{
	marker_kunit_gone_stub_calls++;
}

/*
 * A typed probe detached without memory leaves its slot with the
 * declaration's stub. When the declaration then leaves the name (its
 * module goes) while a probe with a format keeps the name, still without
 * memory for a copy without the slot, the slot stays in the name's
 * array; a declaration that takes the name later
 * gives it its own stub before its sites call the array, and never calls
 * the one before. The stub before is made a function of this file's,
 * which counts calls; a hand-made range stands for the new module.
 */
static void marker_typed_stub_after_untyped(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_unsited;
	struct marker m = MARKER_KUNIT_UNSITED_SITE(t);
	struct marker_range r = { .markers = &m, .nr_markers = 1 };
	struct marker_kunit_typed_seen t1 = { };
	struct marker_kunit_seen seen = { };
	struct marker_probe_array *a;
	struct marker_entry *e;
	void *func;
	int ret;

	marker_kunit_gone_stub_calls = 0;
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							     &t1));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_unsited", "n %d",
					      marker_kunit_n_probe, &seen));
	kunit_activate_static_stub(test, marker_array_alloc,
				   marker_kunit_no_memory);
	ret = unregister_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
						     &t1);
	kunit_deactivate_static_stub(test, marker_array_alloc);
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* No site, no live typed probe: the declaration left the name. */
	KUNIT_EXPECT_NULL(test, marker_typed_reg(t)->entry);
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    t->iterator);
	marker_lock();
	e = marker_entry_find("__marker_kunit_unsited");
	KUNIT_ASSERT_NOT_NULL_MSG(test, e, "the probe with a format keeps the name");
	KUNIT_EXPECT_NULL(test, e->typed);
	a = e->probes;
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ_MSG(test, a->nr_typed, 1,
			    "the detached typed slot stays in the array");
	KUNIT_EXPECT_PTR_EQ(test, a->probes[0].func, t->stub);
	/* The declaration's module went; its stub with it. */
	WRITE_ONCE(a->probes[0].func, (void *)marker_kunit_gone_stub);
	ret = marker_range_attach(&r);
	marker_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* Read under RCU, checked after: a failed check allocates */
	rcu_read_lock_sched();
	a = rcu_dereference_sched(t->probes);
	func = a ? READ_ONCE(a->probes[0].func) : NULL;
	rcu_read_unlock_sched();
	KUNIT_EXPECT_PTR_EQ_MSG(test, func, t->stub,
				"the new declaration's stub in the slot");
	/* What a mark___marker_kunit_unsited(7) site does once enabled. */
	__marker_typed_call(__marker_kunit_unsited, 7);
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_gone_stub_calls, 0,
			    "the stub of the declaration before is not called");
	KUNIT_EXPECT_EQ(test, t1.calls, 0);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, seen.a, 7);

	marker_kunit_range_detach(&r);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_unsited",
						marker_kunit_n_probe, &seen));
	marker_synchronize_unregister();
	KUNIT_EXPECT_NULL(test, marker_typed_reg(t)->entry);
}

/* Calls of marker_kunit_no_memory_once() so far. */
static unsigned int marker_kunit_allocs;

/* The first probe array allocated fails, the others are allocated. */
static struct marker_probe_array *marker_kunit_no_memory_once(unsigned int nr)
{
	struct marker_probe_array *a;

	if (!marker_kunit_allocs++)
		return NULL;
	a = kmalloc(struct_size(a, probes, nr + 2), GFP_KERNEL);
	if (a) {
		a->nr_slots = nr + 2;
		a->nr = nr;
	}
	return a;
}

/*
 * As marker_typed_stub_after_untyped(), with memory for the copy that
 * drops the detached typed slot as the declaration leaves the name: the
 * name's array keeps only the probe with a format, and nothing of the
 * declaration's (its stub).
 */
static void marker_typed_stub_dropped_untyped(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_unsited;
	struct marker_kunit_typed_seen t1 = { };
	struct marker_kunit_seen seen = { };
	struct marker_probe_array *a;
	struct marker_entry *e;
	int ret;

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							     &t1));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_unsited", "n %d",
					      marker_kunit_n_probe, &seen));
	marker_kunit_allocs = 0;
	kunit_activate_static_stub(test, marker_array_alloc,
				   marker_kunit_no_memory_once);
	ret = unregister_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
						     &t1);
	kunit_deactivate_static_stub(test, marker_array_alloc);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_allocs, 2,
			    "the detach's copy failed, the untype's was made");

	KUNIT_EXPECT_NULL(test, marker_typed_reg(t)->entry);
	marker_lock();
	e = marker_entry_find("__marker_kunit_unsited");
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_NULL(test, e->typed);
	a = e->probes;
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->nr_typed, 0);
	KUNIT_EXPECT_EQ(test, a->nr, 1);
	KUNIT_EXPECT_PTR_EQ(test, a->varargs[0].func, (void *)marker_kunit_n_probe);
	KUNIT_EXPECT_PTR_NE(test, a->probes[0].func, t->stub);
	marker_unlock();

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_unsited",
						marker_kunit_n_probe, &seen));
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
 * With lockdep, neither a mark_<name>() site nor a trace_mark() site calls
 * probes where RCU is not watching (the probe arrays are RCU-protected);
 * without, no site tests it, as no tracepoint does: a site must not be
 * there, which lockdep reports.
 */
static void marker_rcu_idle_skipped(struct kunit *test)
{
#if defined(CONFIG_CONTEXT_TRACKING_IDLE) && defined(CONFIG_LOCKDEP)
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
	kunit_skip(test, "needs CONFIG_CONTEXT_TRACKING_IDLE (tree RCU) and CONFIG_LOCKDEP");
#endif
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

/*
 * Typed probes attached to two typed markers in one batch: both static
 * calls go to their probes directly (one text_poke batch on x86) and call
 * them through their patched sites; detached in one batch, both go back
 * to their iterators.
 */
static void marker_kunit_batch_two_calls(struct kunit *test)
{
	struct marker_kunit_typed_seen t1 = { }, t2 = { };
	struct marker_probe_request reqs[] = {
		{
			.probe = (marker_probe_func)(void *)marker_kunit_typed_probe,
			.probe_private = &t1,
			.typed = &__marker_typed___marker_kunit_typed,
		}, {
			.probe = (marker_probe_func)(void *)marker_kunit_mixed_probe,
			.probe_private = &t2,
			.typed = &__marker_typed___marker_kunit_unsited,
		},
	};

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register_batch(reqs, 2));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    (void *)marker_kunit_typed_probe);
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    (void *)marker_kunit_mixed_probe);
	marker_kunit_fire_typed(7);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_EQ(test, t1.a, 7);
	/* No site: call through the static call as a site would. */
	static_call(marker_call___marker_kunit_unsited)(&t2, 8);
	KUNIT_EXPECT_EQ(test, t2.calls, 1);
	KUNIT_EXPECT_EQ(test, t2.a, 8);

	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_batch(reqs, 2));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    __marker_typed___marker_kunit_typed.iterator);
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    __marker_typed___marker_kunit_unsited.iterator);
	marker_synchronize_unregister();
	marker_kunit_fire_typed(9);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
}

static void marker_typed_batch_two_calls(struct kunit *test)
{
	marker_kunit_batch_two_calls(test);
}

/*
 * Three typed probes and a probe with a format, three of them detached by
 * one batch: the first leaves a copy of the published array, the others
 * are taken out of that copy in place, a typed one shrinking the typed
 * group. The typed probe left is the only one: the static call calls it
 * directly, with its own data.
 */
static void marker_typed_batch_unregister_in_place(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_typed;
	struct marker_kunit_typed_seen t1 = { }, t2 = { }, t3 = { };
	struct marker_kunit_seen v = { };
	struct marker_probe_request reqs[] = {
		{
			.probe = (marker_probe_func)(void *)marker_kunit_typed_probe,
			.probe_private = &t1,
			.typed = t,
		}, {
			.name = "__marker_kunit_typed",
			.probe = marker_kunit_probe,
			.probe_private = &v,
		}, {
			.probe = (marker_probe_func)(void *)marker_kunit_typed_probe,
			.probe_private = &t2,
			.typed = t,
		},
	};
	struct marker_probe_array *a;

	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t1));
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t2));
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							   &t3));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_typed",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &v));
	marker_kunit_fire_typed(1);
	KUNIT_EXPECT_EQ(test, t1.calls + t2.calls + t3.calls + v.calls, 4);

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister_batch(reqs, ARRAY_SIZE(reqs)));
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(),
				(void *)marker_kunit_typed_probe,
				"one typed probe left: called directly");
	rcu_read_lock_sched();
	a = rcu_dereference_sched(t->probes);
	KUNIT_EXPECT_NOT_NULL(test, a);
	if (a) {
		KUNIT_EXPECT_EQ(test, a->nr, 1);
		KUNIT_EXPECT_EQ(test, a->nr_typed, 1);
		KUNIT_EXPECT_PTR_EQ(test, a->probes[0].probe_private, (void *)&t3);
		KUNIT_EXPECT_PTR_EQ_MSG(test, a->probes[1].func, NULL,
					"the typed group's end");
		KUNIT_EXPECT_PTR_EQ_MSG(test, a->probes[1].probe_private,
					(void *)&t->marker,
					"the end names the marker");
		KUNIT_EXPECT_PTR_EQ(test, a->varargs, &a->probes[2]);
		KUNIT_EXPECT_PTR_EQ_MSG(test, a->varargs[0].func, NULL,
					"no probe with a format left");
		KUNIT_EXPECT_PTR_EQ_MSG(test, a->data, (void *)&t3,
					"the data the sites pass is t3's");
	}
	rcu_read_unlock_sched();
	marker_kunit_fire_typed(2);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_EQ(test, t2.calls, 1);
	KUNIT_EXPECT_EQ(test, v.calls, 1);
	KUNIT_EXPECT_EQ(test, t3.calls, 2);
	KUNIT_EXPECT_PTR_EQ(test, t3.data, (void *)&t3);
	KUNIT_EXPECT_EQ(test, t3.a, 2);

	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t3));
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(), t->iterator);
	marker_synchronize_unregister();
}

/*
 * A typed probe of a declaration that is not the one of the name's sites
 * (another module's of the same name, here made by hand), or of a name
 * whose sites are trace_mark() sites, is refused (-EPERM); the name and
 * its static call are as they were.
 */
static void marker_typed_other_declaration(struct kunit *test)
{
	struct marker_typed other = {
		.marker = {
			.name = "__marker_kunit_typed",
			.format = MARKER_KUNIT_FMT,
		},
	};
	struct marker_typed on_trace_mark = {
		.marker = {
			.name = "marker_kunit_values",
			.format = MARKER_KUNIT_FMT,
		},
	};
	struct marker_kunit_typed_seen t1 = { };
	struct marker_kunit_seen seen = { };
	void *iterator = __marker_typed___marker_kunit_typed.iterator;

	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register_typed(&other,
							(void *)marker_kunit_typed_probe,
							&t1),
			    "the name's sites are another declaration's");
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(), iterator);
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_probe_unregister_typed(&other,
							  (void *)marker_kunit_typed_probe,
							  &t1),
			    "and nothing was attached");
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register_typed(&on_trace_mark,
							(void *)marker_kunit_typed_probe,
							&t1),
			    "the name's sites are trace_mark() sites");

	KUNIT_ASSERT_EQ_MSG(test, 0,
			    register_mark___marker_kunit_typed(marker_kunit_typed_probe,
							       &t1),
			    "the sites' own declaration takes its probe");
	marker_kunit_fire_typed(3);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t1));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &seen));
	marker_kunit_fire(1, 2, "untouched");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

/* marker_kunit_batch_no_calls_list()'s refusals. */
static unsigned int marker_kunit_calls_lists_refused;

/*
 * Stands in for marker_alloc(): no memory for a list of static calls to
 * retarget together (no other allocation of the registry has elements of
 * that size); everything else is allocated.
 */
static void *marker_kunit_no_calls_list(size_t n, size_t size)
{
	if (size == sizeof(struct static_call_change)) {
		marker_kunit_calls_lists_refused++;
		return NULL;
	}
	return kcalloc(n, size, GFP_KERNEL);
}

/*
 * As marker_typed_batch_two_calls, without memory for the list of static
 * calls to retarget together: each is retargeted on its own, to the same
 * targets.
 */
static void marker_typed_batch_without_calls_list(struct kunit *test)
{
	marker_kunit_calls_lists_refused = 0;
	kunit_activate_static_stub(test, marker_alloc,
				   marker_kunit_no_calls_list);
	marker_kunit_batch_two_calls(test);
	kunit_deactivate_static_stub(test, marker_alloc);
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_calls_lists_refused, 2,
			    "one list refused as the batch attaches, one as it detaches");
}

/*
 * A declaration leaves its name with its last site and typed probe; when
 * its static call was on a probe, it leaves once the call is back on its
 * iterator (__marker_calls_after()), and only then may the trace_mark()
 * sites of the name, left out for their kind, take the name: they are
 * patched at once. The two sites are of ranges made by hand; their
 * format parses to no event, so that the tracefs face, told of the heal,
 * makes none of them.
 */
static void marker_typed_leaves_to_trace_mark(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_unsited;
	struct marker typed = {
		.name = "__marker_kunit_unsited",
		.format = "n %*d",
		.typed = t,
		.flags = MARKER_FLAG_DEBUG | MARKER_FLAG_TYPED,
	};
	struct marker plain = {
		.name = "__marker_kunit_unsited",
		.format = "n %*d",
		.flags = MARKER_FLAG_DEBUG,
	};
	struct marker_range rt = { .markers = &typed, .nr_markers = 1 };
	struct marker_range rp = { .markers = &plain, .nr_markers = 1 };
	struct marker_kunit_typed_seen t1 = { };
	struct marker_entry *e;
	bool untyped = false;
	int ret;

	KUNIT_ASSERT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    t->iterator);
	marker_lock();
	ret = marker_range_attach(&rt);
	if (!ret && marker_range_attach(&rp)) {
		marker_range_detach(&rt, 1, 0);
		ret = -ENOMEM;
	}
	marker_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, plain.flags & MARKER_FLAG_CONFLICT,
			      "a trace_mark() site of a declared name is left out");

	ret = register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
						   &t1);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    (void *)marker_kunit_mixed_probe);

	/* The declaration's last site goes: its typed probe keeps it. */
	marker_lock();
	marker_range_detach(&rt, 1, 0);
	marker_unlock();
	KUNIT_EXPECT_TRUE(test, plain.flags & MARKER_FLAG_CONFLICT);

	if (!ret)
		KUNIT_EXPECT_EQ(test, 0,
				unregister_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
								       &t1));
	KUNIT_EXPECT_PTR_EQ_MSG(test,
				static_call_query(marker_call___marker_kunit_unsited),
				t->iterator,
				"the static call left the probe for its iterator");
	KUNIT_EXPECT_FALSE_MSG(test, plain.flags & MARKER_FLAG_CONFLICT,
			       "then the trace_mark() site took the name");
	mutex_lock(&marker_mutex);
	e = marker_entry_find("__marker_kunit_unsited");
	if (e) {
		untyped = !e->typed;
		KUNIT_EXPECT_EQ(test, e->nr_markers, 1);
		KUNIT_EXPECT_EQ(test, e->nr_conflicts, 0);
		KUNIT_EXPECT_TRUE(test, list_empty(&marker_sync_list));
	}
	mutex_unlock(&marker_mutex);
	KUNIT_EXPECT_NOT_NULL(test, e);
	KUNIT_EXPECT_TRUE_MSG(test, untyped, "the declaration left the name");
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
								 &t1),
			    "its sites are trace_mark() sites now");

	marker_lock();
	marker_range_detach(&rp, 1, 0);
	marker_unlock();
	KUNIT_EXPECT_FALSE(test,
			   marker_kunit_has_entry("__marker_kunit_unsited"));
	marker_synchronize_unregister();
}

/*
 * A declaration without sites whose last typed probe goes while a probe
 * with a format keeps the name leaves the name at once, its static call
 * on its iterator of every probe: the name stays, untyped, with that
 * probe, and the static call stays where it is (the entry's wish to move
 * it, made as the array changed, finds the name untyped).
 */
static void marker_typed_leaves_to_format_probe(struct kunit *test)
{
	struct marker_typed *t = &__marker_typed___marker_kunit_unsited;
	struct marker_kunit_typed_seen t1 = { };
	struct marker_kunit_seen seen = { };
	struct marker_entry *e;
	bool typed = true;

	KUNIT_ASSERT_PTR_EQ(test,
			    static_call_query(marker_call___marker_kunit_unsited),
			    t->iterator);
	KUNIT_ASSERT_EQ(test, 0,
			register_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							     &t1));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("__marker_kunit_unsited", "n %d",
					      marker_kunit_n_probe, &seen));
	KUNIT_EXPECT_PTR_EQ_MSG(test,
				static_call_query(marker_call___marker_kunit_unsited),
				t->iterator,
				"a typed probe and a probe with a format: the iterator");
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_unsited(marker_kunit_mixed_probe,
							       &t1));
	KUNIT_EXPECT_PTR_EQ_MSG(test,
				static_call_query(marker_call___marker_kunit_unsited),
				t->iterator, "the static call stays");
	KUNIT_EXPECT_NULL_MSG(test, rcu_access_pointer(t->probes),
			      "the declaration publishes no array");
	mutex_lock(&marker_mutex);
	e = marker_entry_find("__marker_kunit_unsited");
	if (e)
		typed = !!e->typed;
	mutex_unlock(&marker_mutex);
	KUNIT_EXPECT_NOT_NULL_MSG(test, e, "the probe with a format keeps the name");
	KUNIT_EXPECT_FALSE_MSG(test, typed, "the declaration left it");

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("__marker_kunit_unsited",
						marker_kunit_n_probe, &seen));
	KUNIT_EXPECT_FALSE(test,
			   marker_kunit_has_entry("__marker_kunit_unsited"));
	marker_synchronize_unregister();
}

/*
 * In a patch batch, the static call of a typed marker whose only probe
 * was attached stays on its iterator (which serves any array) until the
 * batch ends, when it goes to the probe with the batch's other calls.
 */
static void marker_typed_call_waits_for_batch_end(struct kunit *test)
{
	struct marker_kunit_typed_seen t1 = { };
	struct marker_patch_batch batch;
	void *iterator = __marker_typed___marker_kunit_typed.iterator;
	int ret;

	marker_patch_batch_begin(&batch);
	ret = register_mark___marker_kunit_typed(marker_kunit_typed_probe, &t1);
	if (IS_ENABLED(CONFIG_HAVE_ARCH_MARKER_SITES))
		KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(), iterator,
					"retargeted at the batch's end");
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    (void *)marker_kunit_typed_probe);
	marker_kunit_fire_typed(5);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	KUNIT_EXPECT_EQ(test, t1.a, 5);
	KUNIT_EXPECT_EQ(test, 0,
			unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
							     &t1));
	marker_synchronize_unregister();
}

struct marker_kunit_other {
	struct marker_kunit_seen seen;
	struct completion done;
	int ret;
};

/* Another task: registers a probe on an untyped marker. */
static int marker_kunit_other_register(void *data)
{
	struct marker_kunit_other *o = data;

	o->ret = marker_probe_register("marker_kunit_values", MARKER_KUNIT_FMT,
				       marker_kunit_count, &o->seen);
	complete(&o->done);
	return 0;
}

/*
 * Another task's registration while this task's batch is open retargets
 * only the static calls of the markers it changes: the one the batch
 * changed stays on its iterator until the batch ends. Without patchable
 * sites batches defer nothing: the batch's call is on its probe at once.
 */
static void marker_typed_call_left_to_batch(struct kunit *test)
{
	struct marker_kunit_typed_seen t1 = { };
	struct marker_kunit_other o = { };
	struct marker_patch_batch batch;
	void *iterator = __marker_typed___marker_kunit_typed.iterator;
	struct task_struct *task;
	int ret;

	init_completion(&o.done);
	marker_patch_batch_begin(&batch);
	ret = register_mark___marker_kunit_typed(marker_kunit_typed_probe, &t1);
	task = kthread_run(marker_kunit_other_register, &o,
			   "marker_kunit_other");
	if (!IS_ERR(task)) {
		wait_for_completion(&o.done);
		KUNIT_EXPECT_EQ(test, o.ret, 0);
		if (IS_ENABLED(CONFIG_HAVE_ARCH_MARKER_SITES))
			KUNIT_EXPECT_PTR_EQ_MSG(test, marker_kunit_typed_call(),
						iterator,
						"left by another task's registration");
		else	/* No batches: the registration moved it at once */
			KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
					    (void *)marker_kunit_typed_probe);
	}
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, marker_kunit_typed_call(),
			    (void *)marker_kunit_typed_probe);
	marker_kunit_fire_typed(6);
	KUNIT_EXPECT_EQ(test, t1.calls, 1);
	if (!ret)
		KUNIT_EXPECT_EQ(test, 0,
				unregister_mark___marker_kunit_typed(marker_kunit_typed_probe,
								     &t1));
	if (!IS_ERR(task))
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_unregister("marker_kunit_values",
							marker_kunit_count,
							&o.seen));
	marker_synchronize_unregister();
	KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(task), "no thread: %ld",
			       PTR_ERR(task));
}

/* A static call of this test only, for __static_call_update_many(). */
static int marker_kunit_ret1(int n)
{
	return n + 1;
}

static int marker_kunit_ret2(int n)
{
	return n + 2;
}

static int marker_kunit_ret3(int n)
{
	return n + 3;
}

DEFINE_STATIC_CALL(marker_kunit_sc, marker_kunit_ret1);

/*
 * __static_call_update_many(): each change as __static_call_update()
 * would make it in turn, so a key changed twice ends at its last target,
 * and the site below calls it.
 */
static void marker_static_call_update_many(struct kunit *test)
{
	struct static_call_change changes[] = {
		{
			.key = &STATIC_CALL_KEY(marker_kunit_sc),
			.tramp = STATIC_CALL_TRAMP_ADDR(marker_kunit_sc),
			.func = marker_kunit_ret2,
		}, {
			.key = &STATIC_CALL_KEY(marker_kunit_sc),
			.tramp = STATIC_CALL_TRAMP_ADDR(marker_kunit_sc),
			.func = marker_kunit_ret3,
		},
	};

	KUNIT_EXPECT_EQ(test, static_call(marker_kunit_sc)(10), 11);
	__static_call_update_many(changes, 2);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(marker_kunit_sc),
			    (void *)marker_kunit_ret3);
	KUNIT_EXPECT_EQ(test, static_call(marker_kunit_sc)(10), 13);
	/* Nothing to change: nothing patched, nothing allocated. */
	__static_call_update_many(&changes[1], 1);
	KUNIT_EXPECT_EQ(test, static_call(marker_kunit_sc)(10), 13);
	static_call_update(marker_kunit_sc, marker_kunit_ret1);
	KUNIT_EXPECT_EQ(test, static_call(marker_kunit_sc)(10), 11);
}

static struct kunit_case marker_typed_cases[] = {
	KUNIT_CASE(marker_declared_typed),
	KUNIT_CASE(marker_typed_probes),
	KUNIT_CASE(marker_typed_format_only),
	KUNIT_CASE(marker_typed_batch_by_declaration),
	KUNIT_CASE(marker_typed_recursion),
	KUNIT_CASE(marker_typed_mixed_sites),
	KUNIT_CASE(marker_typed_direct_waits_across_entries),
	KUNIT_CASE(marker_typed_site_after_untyped),
	KUNIT_CASE(marker_typed_site_after_untyped_iterator),
	KUNIT_CASE(marker_typed_direct_new_data_in_batch),
	KUNIT_CASE(marker_typed_stub_after_untyped),
	KUNIT_CASE(marker_typed_stub_dropped_untyped),
	KUNIT_CASE(marker_rcu_idle_skipped),
	KUNIT_CASE(marker_typed_stub_typed),
	KUNIT_CASE(marker_typed_batch_two_calls),
	KUNIT_CASE(marker_typed_call_waits_for_batch_end),
	KUNIT_CASE(marker_typed_call_left_to_batch),
	KUNIT_CASE(marker_static_call_update_many),
	KUNIT_CASE(marker_typed_batch_unregister_in_place),
	KUNIT_CASE(marker_typed_other_declaration),
	KUNIT_CASE(marker_typed_batch_without_calls_list),
	KUNIT_CASE(marker_typed_leaves_to_trace_mark),
	KUNIT_CASE(marker_typed_leaves_to_format_probe),
	{}
};

static struct kunit_suite marker_typed_suite = {
	.name = "marker_typed",
	.test_cases = marker_typed_cases,
};

kunit_test_suites(&marker_typed_suite);

MODULE_DESCRIPTION("KUnit tests for typed static markers");
MODULE_LICENSE("GPL");
