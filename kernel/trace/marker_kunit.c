// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the marker registry: registration and its errors, probes
 * with a format and their values, re-entry, detaching without memory, and
 * how sites are counted. The registry's names have marker_names_kunit.c,
 * typed markers marker_typed_kunit.c, the bytes of patchable sites
 * marker_sites_kunit.c.
 *
 * The markers below are sites of the core kernel; each test attaches its
 * own probes and leaves every marker as it found it.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/context_tracking.h>
#include <linux/hardirq.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "marker_internal.h"
#include "marker_kunit.h"

/* Probes run in the test's own thread here: plain writes are enough. */
void marker_kunit_probe(const struct marker *marker, void *priv,
			va_list *args)
{
	struct marker_kunit_seen *seen = priv;

	seen->calls++;
	seen->marker = marker;
	seen->a = va_arg(*args, int);
	seen->b = va_arg(*args, unsigned long long);
	strscpy(seen->s, va_arg(*args, const char *), sizeof(seen->s));
}

void marker_kunit_count(const struct marker *marker, void *priv,
			va_list *args)
{
	struct marker_kunit_seen *seen = priv;

	seen->calls++;
}

noinline void marker_kunit_fire(int a, unsigned long long b, const char *s)
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

struct marker_probe_array *marker_kunit_no_memory(unsigned int nr)
{
	return NULL;
}

/* For marker_kunit_fail_alloc(): the call to fail, the calls so far. */
static unsigned int marker_kunit_alloc_nth;
static unsigned int marker_kunit_alloc_calls;
static bool marker_kunit_alloc_failed;

/* Stands in for marker_alloc(): every call allocates but the Nth. */
static void *marker_kunit_alloc(size_t n, size_t size)
{
	if (++marker_kunit_alloc_calls == marker_kunit_alloc_nth) {
		marker_kunit_alloc_failed = true;
		return NULL;
	}
	return kcalloc(n, size, GFP_KERNEL);
}

void marker_kunit_fail_alloc(struct kunit *test, unsigned int nth)
{
	marker_kunit_alloc_nth = nth;
	marker_kunit_alloc_calls = 0;
	marker_kunit_alloc_failed = false;
	kunit_activate_static_stub(test, marker_alloc, marker_kunit_alloc);
}

bool marker_kunit_alloc_done(struct kunit *test)
{
	kunit_deactivate_static_stub(test, marker_alloc);
	return marker_kunit_alloc_failed;
}

bool marker_kunit_has_entry(const char *name)
{
	bool found;

	mutex_lock(&marker_mutex);
	found = !!marker_entry_find(name);
	mutex_unlock(&marker_mutex);
	return found;
}

/*
 * @name's published array holds @nr probes, each live, in the ->nr + 1
 * slots from the first (the typed group's end among them), and every
 * slot after them, a copy's unused room, is NULL.
 */
static void marker_kunit_expect_slots(struct kunit *test, const char *name,
				      unsigned int nr)
{
	struct marker_probe_array *a;
	struct marker_entry *e;
	unsigned int i;

	marker_lock();
	e = marker_entry_find(name);
	a = e ? e->probes : NULL;
	KUNIT_EXPECT_NOT_NULL(test, a);
	if (a) {
		KUNIT_EXPECT_EQ(test, a->nr, nr);
		KUNIT_EXPECT_LE(test, a->nr + 2, a->nr_slots);
		for (i = 0; i < a->nr + 1; i++) {
			KUNIT_EXPECT_EQ_MSG(test, !a->probes[i].func,
					    i == a->nr_typed, "slot %u", i);
			KUNIT_EXPECT_FALSE_MSG(test, a->probes[i].detached ||
					       a->probes[i].removing,
					       "slot %u", i);
		}
		for (; i < a->nr_slots; i++)
			KUNIT_EXPECT_PTR_EQ_MSG(test, a->probes[i].func, NULL,
						"slot %u", i);
	}
	marker_unlock();
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
	marker_kunit_expect_slots(test, "marker_kunit_values", 2);

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

/* Detaching is refused for what could never have been attached. */
static void marker_unregister_errors(struct kunit *test)
{
	char name[MARKER_NAME_MAX + 1];
	struct marker_kunit_seen seen = { };

	memset(name, 'n', sizeof(name));
	name[MARKER_NAME_MAX] = '\0';
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_unregister("marker_kunit_values", NULL,
						    &seen),
			    "detaching a NULL probe is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_unregister(NULL, marker_kunit_count,
						    &seen),
			    "detaching from a NULL name is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_unregister("", marker_kunit_count,
						    &seen),
			    "detaching from an empty name is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_unregister(name, marker_kunit_count,
						    &seen),
			    "detaching from a name of MARKER_NAME_MAX characters is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_unregister_private_data(NULL, &seen),
			    "unregister_private_data of a NULL probe is -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL, marker_probe_register_batch(NULL, 1),
			    "a batch of one request and no requests is -EINVAL");
	KUNIT_EXPECT_EQ(test, -EINVAL, marker_probe_unregister_batch(NULL, 1));
	KUNIT_EXPECT_EQ_MSG(test, 0, marker_probe_register_batch(NULL, 0),
			    "an empty batch changes nothing, and succeeds");
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_batch(NULL, 0));
}

/*
 * A batch that fails leaves every probe attached, the one an earlier
 * request of it had already taken out of the name's next array too: the
 * published array keeps it live, and the next registration copies it.
 */
static void marker_batch_unregister_fails_whole(struct kunit *test)
{
	struct marker_kunit_seen one = { }, two = { }, three = { };
	struct marker_probe_request reqs[] = {
		{ "marker_kunit_values", NULL, marker_kunit_count, &one },
		{ "marker_kunit_no_such", NULL, marker_kunit_count, &one },
	};

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &one));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values", NULL,
					      marker_kunit_count, &two));
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_probe_unregister_batch(reqs, ARRAY_SIZE(reqs)),
			    "a request for a name without probes fails the batch");
	marker_kunit_fire(1, 2, "kept");
	KUNIT_EXPECT_EQ_MSG(test, one.calls, 1,
			    "the probe the failed batch began to detach is called");
	KUNIT_EXPECT_EQ(test, two.calls, 1);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &three));
	marker_kunit_expect_slots(test, "marker_kunit_values", 3);
	marker_kunit_fire(3, 4, "three");
	KUNIT_EXPECT_EQ_MSG(test, one.calls, 2,
			    "and copied into the next array");
	KUNIT_EXPECT_EQ(test, two.calls, 2);
	KUNIT_EXPECT_EQ(test, three.calls, 1);

	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_batch(reqs, 1));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &two));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &three));
	marker_synchronize_unregister();
	marker_kunit_fire(5, 6, "none");
	KUNIT_EXPECT_EQ(test, one.calls + two.calls + three.calls, 5);
}

/*
 * Two probes of one name detached by one batch: the first leaves a copy of
 * the published array, and the second is taken out of that copy, which
 * nobody reads yet, in place; the probes after it move down.
 */
static void marker_batch_unregister_in_place(struct kunit *test)
{
	struct marker_kunit_seen one = { }, two = { }, three = { };
	struct marker_probe_request reqs[] = {
		{ "marker_kunit_values", NULL, marker_kunit_count, &one },
		{ "marker_kunit_values", NULL, marker_kunit_count, &two },
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
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister_batch(reqs, ARRAY_SIZE(reqs)));
	marker_kunit_expect_slots(test, "marker_kunit_values", 1);
	marker_kunit_fire(1, 2, "three");
	KUNIT_EXPECT_EQ(test, one.calls, 0);
	KUNIT_EXPECT_EQ(test, two.calls, 0);
	KUNIT_EXPECT_EQ_MSG(test, three.calls, 1,
			    "the probe after the two is the array's only one");
	KUNIT_EXPECT_EQ(test, -ENOENT,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &two));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &three));
	marker_synchronize_unregister();
}

/*
 * Probes with a format on a name without a site, in one batch: the
 * first's format, not committed yet, is the one the others must have.
 */
static void marker_batch_pending_format(struct kunit *test)
{
	struct marker_kunit_seen one = { }, two = { }, three = { };
	struct marker_probe_request reqs[] = {
		{ "marker_kunit_pending", "x %d", marker_kunit_count, &one },
		{ "marker_kunit_pending", "x %u", marker_kunit_count, &two },
	};

	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register_batch(reqs, ARRAY_SIZE(reqs)),
			    "the second format is not the first's");
	KUNIT_EXPECT_FALSE_MSG(test,
			       marker_kunit_has_entry("marker_kunit_pending"),
			       "nothing is left of the failed batch");

	reqs[1].format = "x %d";
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register_batch(reqs, ARRAY_SIZE(reqs)));
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register("marker_kunit_pending", "x %u",
						  marker_kunit_count, &three),
			    "the batch gave the name its format");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister_batch(reqs, ARRAY_SIZE(reqs)));
	KUNIT_EXPECT_FALSE_MSG(test,
			       marker_kunit_has_entry("marker_kunit_pending"),
			       "no probe, no site: the name is gone");
	marker_synchronize_unregister();
}

/*
 * Each allocation of a registration that gives a name its first format
 * fails in turn (the name's entry, the fields the format is checked
 * with, the fields it is parsed into as the name's at the commit): the
 * registration is -ENOMEM and leaves nothing of the name behind, until
 * none fails and it succeeds.
 */
static void marker_register_without_memory(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	unsigned int nth, failed = 0;
	int ret = -EINVAL;

	for (nth = 1; nth <= 8; nth++) {
		marker_kunit_fail_alloc(test, nth);
		ret = marker_probe_register("marker_kunit_nomem", "x %d",
					    marker_kunit_count, &seen);
		if (!marker_kunit_alloc_done(test))
			break;
		failed++;
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
				    "allocation %u failing", nth);
		KUNIT_EXPECT_FALSE_MSG(test,
				       marker_kunit_has_entry("marker_kunit_nomem"),
				       "allocation %u failing leaves no name", nth);
		if (!ret)
			marker_probe_unregister("marker_kunit_nomem",
						marker_kunit_count, &seen);
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "with every allocation made");
	KUNIT_EXPECT_EQ_MSG(test, failed, 3,
			    "the entry, the fields checked, the name's fields");
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register("marker_kunit_nomem", "x %u",
						  marker_kunit_count, &seen),
			    "the registration that succeeded set the format");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_nomem",
						marker_kunit_count, &seen));
	KUNIT_EXPECT_FALSE(test, marker_kunit_has_entry("marker_kunit_nomem"));
	marker_synchronize_unregister();
}

/* The state of marker_kunit_values and of a hand-made marker of it. */
static unsigned int marker_kunit_values_markers(void)
{
	struct marker_entry *e;
	unsigned int nr;

	mutex_lock(&marker_mutex);
	e = marker_entry_find("marker_kunit_values");
	nr = e ? e->nr_markers : 0;
	mutex_unlock(&marker_mutex);
	return nr;
}

/*
 * A range (a module's, here made by hand) whose markers are two new names
 * and one that has a site and a probe: each allocation of its attach fails
 * in turn (its links, then each new name's entry and format). The attach
 * is -ENOMEM and undoes what it did: no new name is left, and the marker
 * of the known name, attached before the failure, is detached again.
 */
static void marker_range_attach_without_memory(struct kunit *test)
{
	struct marker m[] = {
		{ .name = "marker_kunit_range_a", .format = "a %d" },
		{ .name = "marker_kunit_values", .format = MARKER_KUNIT_FMT },
		{ .name = "marker_kunit_range_b", .format = "b %d" },
	};
	struct marker_range r = { .markers = m, .nr_markers = ARRAY_SIZE(m) };
	struct marker_kunit_seen seen = { };
	unsigned int nth, failed = 0, before;
	bool injected;
	int ret = -EINVAL;

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_count, &seen));
	before = marker_kunit_values_markers();
	for (nth = 1; nth <= 12; nth++) {
		marker_kunit_fail_alloc(test, nth);
		marker_lock();
		ret = marker_range_attach(&r);
		marker_unlock();
		injected = marker_kunit_alloc_done(test);
		if (!injected)
			break;
		failed++;
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
				    "allocation %u failing", nth);
		KUNIT_EXPECT_NULL(test, r.links);
		KUNIT_EXPECT_FALSE(test,
				   marker_kunit_has_entry("marker_kunit_range_a"));
		KUNIT_EXPECT_FALSE(test,
				   marker_kunit_has_entry("marker_kunit_range_b"));
		KUNIT_EXPECT_EQ_MSG(test, marker_kunit_values_markers(), before,
				    "allocation %u failing: the known name's marker detached",
				    nth);
		KUNIT_EXPECT_NULL(test, rcu_access_pointer(m[1].probes));
		KUNIT_EXPECT_EQ(test, m[1].state, 0);
		if (!ret) {
			marker_lock();
			marker_range_detach(&r, r.nr_markers, 0);
			marker_unlock();
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "with every allocation made");
	KUNIT_EXPECT_EQ_MSG(test, failed, 5,
			    "the links, the entry and the format of each new name");
	KUNIT_EXPECT_EQ(test, marker_kunit_values_markers(), before + 1);
	KUNIT_EXPECT_EQ_MSG(test, m[1].state, 1,
			    "the known name's marker takes its probes");
	KUNIT_EXPECT_TRUE(test, marker_kunit_has_entry("marker_kunit_range_a"));
	KUNIT_EXPECT_TRUE(test, marker_kunit_has_entry("marker_kunit_range_b"));

	if (!ret) {
		marker_lock();
		marker_range_detach(&r, r.nr_markers, 0);
		marker_unlock();
	}
	KUNIT_EXPECT_EQ(test, marker_kunit_values_markers(), before);
	KUNIT_EXPECT_FALSE(test, marker_kunit_has_entry("marker_kunit_range_a"));
	KUNIT_EXPECT_FALSE(test, marker_kunit_has_entry("marker_kunit_range_b"));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

/*
 * A site whose format does not parse has an event of no face, yet a probe
 * that reads no format may attach to it; one that claims the very format
 * is refused as that format is, and one with another format as any other.
 * The site, of a range made by hand, is never fired.
 */
static void marker_register_on_bad_format(struct kunit *test)
{
	struct marker m = {
		.name = "marker_kunit_bad_format", .format = "width %*d",
	};
	struct marker_range r = { .markers = &m, .nr_markers = 1 };
	struct marker_kunit_seen seen = { };
	int ret;

	marker_lock();
	ret = marker_range_attach(&r);
	marker_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
			    marker_probe_register("marker_kunit_bad_format",
						  "width %*d", marker_kunit_count,
						  &seen),
			    "the site's own format does not parse: -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, -EPERM,
			    marker_probe_register("marker_kunit_bad_format",
						  "width %d", marker_kunit_count,
						  &seen),
			    "another format: -EPERM");
	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_bad_format", NULL,
						  marker_kunit_count, &seen),
			    "a probe that reads no format attaches");
	KUNIT_EXPECT_EQ(test, m.state, 1);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_bad_format",
						marker_kunit_count, &seen));
	KUNIT_EXPECT_EQ(test, m.state, 0);
	marker_lock();
	marker_range_detach(&r, 1, 0);
	marker_unlock();
	KUNIT_EXPECT_FALSE(test, marker_kunit_has_entry("marker_kunit_bad_format"));
	marker_synchronize_unregister();
}

static atomic_t marker_kunit_names_changed;

/* Context: the registry's notifier chain (atomic); counts its calls. */
static int marker_kunit_notify(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	if (val == MARKER_NAMES_CHANGED)
		atomic_inc(&marker_kunit_names_changed);
	return NOTIFY_OK;
}

static struct notifier_block marker_kunit_nb = {
	.notifier_call = marker_kunit_notify,
};

/* Is @m left out for a conflict? */
static bool marker_kunit_conflict(const struct marker *m)
{
	return m->flags & MARKER_FLAG_CONFLICT;
}

/* @name's counts and format (an empty string for none), under the mutex. */
static void marker_kunit_entry_state(const char *name, unsigned int *markers,
				     unsigned int *conflicts, char *format,
				     size_t size)
{
	struct marker_entry *e;

	mutex_lock(&marker_mutex);
	e = marker_entry_find(name);
	*markers = e ? e->nr_markers : 0;
	*conflicts = e ? e->nr_conflicts : 0;
	strscpy(format, e && e->format ? e->format : "", size);
	mutex_unlock(&marker_mutex);
}

/*
 * Two ranges (made by hand) with a site of one name each, in two formats:
 * the second's is a conflict until the first range goes, then it gives
 * the name its format, and the registry's notifiers are told. Without
 * memory for that format the site stays out, nobody is told, and the
 * name's next update heals it. The formats parse to no event: the tracefs
 * face, told of the heals, makes no event of these sites.
 */
static void marker_conflict_heals(struct kunit *test)
{
	struct marker ma = { .name = "marker_kunit_heal", .format = "a %*d" };
	struct marker mb = { .name = "marker_kunit_heal", .format = "b %*d" };
	struct marker_range ra = { .markers = &ma, .nr_markers = 1 };
	struct marker_range rb = { .markers = &mb, .nr_markers = 1 };
	struct marker_kunit_seen seen = { };
	unsigned int markers, conflicts;
	char format[16];
	bool injected;
	int ret;

	atomic_set(&marker_kunit_names_changed, 0);
	KUNIT_ASSERT_EQ(test, 0, marker_notifier_register(&marker_kunit_nb));
	marker_lock();
	ret = marker_range_attach(&ra);
	if (!ret && marker_range_attach(&rb)) {
		marker_range_detach(&ra, 1, 0);
		ret = -ENOMEM;
	}
	marker_unlock();
	if (ret) {
		marker_notifier_unregister(&marker_kunit_nb);
		KUNIT_FAIL(test, "cannot attach the ranges: %d", ret);
		return;
	}
	KUNIT_EXPECT_FALSE(test, marker_kunit_conflict(&ma));
	KUNIT_EXPECT_TRUE_MSG(test, marker_kunit_conflict(&mb),
			      "the second format is a conflict");

	marker_lock();
	marker_range_detach(&ra, 1, 0);
	marker_unlock();
	marker_kunit_entry_state("marker_kunit_heal", &markers, &conflicts,
				 format, sizeof(format));
	KUNIT_EXPECT_FALSE_MSG(test, marker_kunit_conflict(&mb),
			       "the first range gone, the second's site is in");
	KUNIT_EXPECT_EQ(test, markers, 1);
	KUNIT_EXPECT_EQ(test, conflicts, 0);
	KUNIT_EXPECT_STREQ(test, format, "b %*d");
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&marker_kunit_names_changed), 1,
			    "the notifiers are told of the heal");

	/* The first range again, the conflict now; the second goes. */
	marker_lock();
	ret = marker_range_attach(&ra);
	marker_unlock();
	marker_kunit_fail_alloc(test, 1);
	marker_lock();
	marker_range_detach(&rb, 1, 0);
	marker_unlock();
	injected = marker_kunit_alloc_done(test);
	if (ret) {
		marker_notifier_unregister(&marker_kunit_nb);
		KUNIT_FAIL(test, "cannot attach the first range again: %d", ret);
		return;
	}
	KUNIT_EXPECT_TRUE(test, marker_kunit_conflict(&ma));
	KUNIT_EXPECT_TRUE_MSG(test, injected,
			      "the heal asked for memory for the format");
	marker_kunit_entry_state("marker_kunit_heal", &markers, &conflicts,
				 format, sizeof(format));
	KUNIT_EXPECT_EQ_MSG(test, markers, 0, "no memory: the site stays out");
	KUNIT_EXPECT_EQ(test, conflicts, 1);
	KUNIT_EXPECT_STREQ_MSG(test, format, "", "and the name has no format");
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&marker_kunit_names_changed), 1,
			    "nobody is told of a heal that did not happen");

	/* The name's next update: a probe that reads no format. */
	ret = marker_probe_register("marker_kunit_heal", NULL,
				    marker_kunit_count, &seen);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE_MSG(test, marker_kunit_conflict(&ma),
			       "the next update of the name heals the site");
	KUNIT_EXPECT_EQ_MSG(test, ma.state, 1, "and gives it the probe");
	KUNIT_EXPECT_EQ(test, atomic_read(&marker_kunit_names_changed), 2);
	marker_kunit_entry_state("marker_kunit_heal", &markers, &conflicts,
				 format, sizeof(format));
	KUNIT_EXPECT_STREQ(test, format, "a %*d");
	if (!ret)
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_unregister("marker_kunit_heal",
							marker_kunit_count,
							&seen));

	marker_lock();
	marker_range_detach(&ra, 1, 0);
	marker_unlock();
	KUNIT_EXPECT_FALSE(test, marker_kunit_has_entry("marker_kunit_heal"));
	marker_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, 0, marker_notifier_unregister(&marker_kunit_nb));
	KUNIT_EXPECT_EQ_MSG(test, -ENOENT,
			    marker_notifier_unregister(&marker_kunit_nb),
			    "a notifier is unregistered once");
}

static struct kunit_case marker_registry_cases[] = {
	KUNIT_CASE(marker_register_errors),
	KUNIT_CASE(marker_fires_with_values),
	KUNIT_CASE(marker_args_not_evaluated_when_off),
	KUNIT_CASE(marker_several_probes),
	KUNIT_CASE(marker_register_before_site),
	KUNIT_CASE(marker_batch_all_or_nothing),
	KUNIT_CASE(marker_recursion_dropped),
	KUNIT_CASE(marker_unregister_without_memory),
	KUNIT_CASE(marker_recursion_nesting_levels),
	KUNIT_CASE(marker_unregister_errors),
	KUNIT_CASE(marker_batch_unregister_fails_whole),
	KUNIT_CASE(marker_batch_unregister_in_place),
	KUNIT_CASE(marker_batch_pending_format),
	KUNIT_CASE(marker_register_without_memory),
	KUNIT_CASE(marker_range_attach_without_memory),
	KUNIT_CASE(marker_register_on_bad_format),
	KUNIT_CASE(marker_conflict_heals),
	{}
};

static struct kunit_suite marker_registry_suite = {
	.name = "marker_registry",
	.test_cases = marker_registry_cases,
};

kunit_test_suites(&marker_registry_suite);

MODULE_DESCRIPTION("KUnit tests for static markers");
MODULE_LICENSE("GPL");
