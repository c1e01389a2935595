// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: the registry.
 *
 * Every trace_mark() site has its own struct marker in the __markers section
 * (and, on architectures with patchable sites, an entry in __marker_sites).
 * The registry groups them by name: one struct marker_entry per name holds
 * the format, the parsed fields and the probe array shared by all sites of
 * that name.
 *
 * This file owns the names and their formats, the probe-call path and the
 * list of ranges of markers (the core kernel's, added at boot). It does not
 * build probe arrays or run updates (marker_probe.c), link a range's
 * markers to names (marker_ranges.c), touch a site's bytes
 * (marker_sites.c), a typed marker's static call (marker_typed.c) or the
 * module loader's notifications (marker_module.c); marker_internal.h is all
 * they share.
 *
 * Locking: marker_mutex serialises every update, module load and unload and
 * every walk of the entries; with patchable sites, text_mutex is held from
 * the check of the sites' bytes to the end of their patching, so no other
 * patcher (kprobes, the kprobe optimizer) can write a site in between. Order:
 * marker_mutex, cpus_read_lock(), text_mutex; the last two only while sites
 * are checked or patched, so an update that patches nothing takes
 * marker_mutex alone. The probe-call path takes no
 * lock: it reads the site's probe array under preempt-disabled RCU; arrays
 * are copied on write and freed after a grace period.
 *
 * Formats: the first site of a name (or the first format-checked probe,
 * before any site) sets the name's format; a site with another format is a
 * conflict and stays disabled. When the owner of the format goes (its
 * module unloads, the last checked probe detaches), the conflicting sites
 * are looked at again: the first of them sets the new format.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/context_tracking.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <asm/sections.h>
#include <kunit/static_stub.h>

#include "marker_internal.h"

/* Serialises updates, module loads and unloads, and walks of the names. */
DEFINE_MUTEX(marker_mutex);
/* Who wants to know when names change (marker_notifier_register()). */
static ATOMIC_NOTIFIER_HEAD(marker_notifier_list);
DEFINE_HASHTABLE(marker_table, MARKER_HASH_BITS);
LIST_HEAD(marker_ranges);
struct marker_range marker_core;

/*
 * The context whose probes with a format this CPU runs (see
 * marker_enter()), 0 if none; events not delivered because a probe
 * re-entered markers in its own context.
 */
DEFINE_PER_CPU(unsigned int, marker_context);
DEFINE_PER_CPU(unsigned long, marker_recursion_drops);

/* ---- Probe-call path ---- */

/**
 * __marker_probe_call - call the probes attached to a site
 * @marker: the site's marker; the site's arguments follow, as
 *	@marker->format describes them
 *
 * Reached from an enabled site's out-of-line block with the site's
 * arguments. Context: any — task, softirq, hard IRQ, NMI, with the runqueue
 * lock held, never where RCU is not watching (a lockdep kernel warns at
 * such a site). Takes no locks, allocates nothing. Calls nothing on a CPU
 * not online yet (marker_probes_may_run(), the rule of typed sites too).
 * A probe that fires a marker in the same context (task, softirq, IRQ or
 * NMI) on this CPU is not called again; such events are counted in
 * marker_recursion_drops.
 */
void notrace __marker_probe_call(const struct marker *marker, ...)
{
	struct marker_probe_array *array;
	struct marker_probe *p;
	marker_probe_func func;
	unsigned int bit;
	/* Set by va_start() before each use: not worth zeroing every hit. */
	va_list args __uninitialized;

	preempt_disable_notrace();
	if (unlikely(!marker_probes_may_run()))
		goto out;
	bit = marker_enter();
	if (unlikely(!bit))
		goto out;

	array = rcu_dereference_sched(marker->probes);
	/* Typed probes, first in the array, have mark_<name>() sites only. */
	if (likely(array)) {
		for (p = array->varargs; (func = READ_ONCE(p->func)); p++) {
			va_start(args, marker);
			func(marker, p->probe_private, &args);
			va_end(args);
		}
	}

	marker_exit(bit);
out:
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__marker_probe_call);

/* ---- Entries ---- */

/*
 * The registry's own allocations, zeroed: names, their links to markers
 * and sites, sorted site tables, parsed fields, lists of static calls
 * (probe arrays have marker_array_alloc()). A KUnit static stub makes it
 * fail, to test each way out without memory.
 */
void *marker_alloc(size_t n, size_t size)
{
	KUNIT_STATIC_STUB_REDIRECT(marker_alloc, n, size);
	return kcalloc(n, size, GFP_KERNEL);
}

struct marker_entry *marker_entry_find_hashed(const char *name, u64 hashlen)
{
	u32 hash = hashlen_hash(hashlen);
	struct marker_entry *e;

	lockdep_assert_held(&marker_mutex);
	hlist_for_each_entry(e, &marker_table[hash_min(hash, MARKER_HASH_BITS)],
			     hlist)
		if (e->hashlen == hashlen &&
		    !memcmp(e->name, name, hashlen_len(hashlen)))
			return e;
	return NULL;
}

struct marker_entry *marker_entry_find(const char *name)
{
	return marker_entry_find_hashed(name, marker_name_hashlen(name));
}

struct marker_entry *marker_entry_get_hashed(const char *name, u64 hashlen)
{
	struct marker_entry *e = marker_entry_find_hashed(name, hashlen);
	size_t len = hashlen_len(hashlen) + 1;
	u32 hash = hashlen_hash(hashlen);

	if (e)
		return e;
	e = marker_alloc(1, struct_size(e, name, len));
	if (!e)
		return NULL;
	memcpy(e->name, name, len);
	INIT_LIST_HEAD(&e->markers);
	INIT_LIST_HEAD(&e->sites);
	INIT_LIST_HEAD(&e->update);
	INIT_LIST_HEAD(&e->sync);
	INIT_LIST_HEAD(&e->direct);
	e->hashlen = hashlen;
	hlist_add_head(&e->hlist, &marker_table[hash_min(hash, MARKER_HASH_BITS)]);
	return e;
}

struct marker_entry *marker_entry_get(const char *name)
{
	return marker_entry_get_hashed(name, marker_name_hashlen(name));
}

static unsigned int marker_entry_checked(const struct marker_entry *e)
{
	unsigned int i, n = 0;

	for (i = 0; e->probes && i < e->probes->nr; i++)
		n += marker_slot(e->probes, i)->checked;
	return n;
}

static void marker_entry_heal(struct marker_entry *e);
static void marker_entry_clear_format(struct marker_entry *e)
{
	kfree(e->format);
	e->format = NULL;
	e->nr_fields = 0;
}

/*
 * Take ownership of @format (kmalloc'ed) and parse it. Only the parse's
 * result is kept: the faces that want the fields parse them again
 * (marker_iterate_names()), once per listing, rather than every name
 * keeping them for its lifetime.
 */
int marker_entry_set_format(struct marker_entry *e, char *format)
{
	struct marker_field *fields;
	int nr;

	fields = marker_alloc(MARKER_FIELDS_MAX, sizeof(*fields));
	if (!fields) {
		kfree(format);
		return -ENOMEM;
	}
	nr = marker_format_parse(format, fields, MARKER_FIELDS_MAX);
	kfree(fields);
	marker_entry_clear_format(e);
	e->format = format;
	e->format_hashlen = hashlen_string(NULL, format);
	e->nr_fields = nr;
	return 0;
}

/* "vmlinux" or the module's name, for messages. */
const char *marker_range_owner(const struct marker_range *r)
{
	return r->mod ? module_name(r->mod) : "vmlinux";
}

/*
 * Drop what nobody uses any more: the format once no site and no checked
 * probe holds it, a typed marker's state once no mark_<name>() site and no
 * typed probe holds it (then the sites left out for a conflict get their
 * chance), the entry once it has neither sites nor probes.
 */
void marker_entry_settle(struct marker_entry *e)
{
	if (!e->nr_markers && !marker_entry_checked(e) && !e->in_update)
		marker_entry_clear_format(e);
	marker_entry_untype(e);
	/* Sites left out for the format or the kind of the sites now gone. */
	if (!e->nr_markers && e->nr_conflicts && !e->in_update)
		marker_entry_heal(e);
	/* A declaration leaving the name first moves its static call */
	if (e->nr_markers || e->nr_conflicts || e->probes || e->in_update ||
	    e->typed)
		return;
	list_del(&e->sync);
	list_del(&e->direct);
	hlist_del(&e->hlist);
	kfree(e);
}

/*
 * Entries whose sites wait for marker_sites_unlock(): the changes of
 * whoever holds marker_mutex, patched before it is released. Those of a
 * task's registrations in its patch batch wait on the batch instead.
 */
LIST_HEAD(marker_sync_list);

/*
 * @e's sites are to be patched by whoever changes it now: queued on the
 * batch of the registration being run, if it defers to one, else on
 * marker_sync_list. An entry a batch queued before is taken from it: its
 * sites are patched by the last to change the name, to the state
 * published by then, so that another task's probes on it are reached
 * when its registration returns, not at somebody's batch end, and a
 * name left without probes becomes NOPs then.
 */
void marker_entry_sync(struct marker_entry *e)
{
	struct marker_patch_batch *b = marker_deferred_batch();

	list_move_tail(&e->sync, b ? &b->sync : &marker_sync_list);
}

/*
 * The owner of @e's format went: attach the struct markers that were left
 * out for a conflict with it, in range order, the first one giving the
 * name its new format. Their sites are patched by the next
 * marker_sites_sync_flagged(); the registry's notifiers (the tracefs
 * face) are told, to rescan their events.
 */
static void marker_entry_heal(struct marker_entry *e)
{
	unsigned int before = e->nr_conflicts;
	struct marker_link *l;
	struct marker *m;

	list_for_each_entry(l, &e->markers, node) {
		m = marker_link_marker(l);
		if (!(m->flags & MARKER_FLAG_CONFLICT))
			continue;
		if (marker_attach(l->range, m, e))
			pr_warn("marker %s: no memory to attach a site\n",
				e->name);
	}
	if (e->nr_conflicts == before)
		return;
	marker_entry_sync(e);
	atomic_notifier_call_chain(&marker_notifier_list, MARKER_NAMES_CHANGED,
				   NULL);
}

bool marker_name_valid(const char *name)
{
	return name && name[0] && strnlen(name, MARKER_NAME_MAX) < MARKER_NAME_MAX;
}

/*
 * Every lock, for module notifiers and boot; marker_unlock() patches what
 * they changed, whatever batch their task may have open.
 */
void marker_lock(void)
{
	mutex_lock(&marker_mutex);
	marker_sites_lock();
}

void marker_unlock(void)
{
	marker_sites_unlock();
	marker_calls_after();
	mutex_unlock(&marker_mutex);
}

/**
 * marker_notifier_register - be told when the registry's names change
 * @nb: its ->notifier_call gets MARKER_NAMES_CHANGED and NULL
 *
 * A face of the registry (the tracefs face) learns here that the sites of
 * a name changed other than by a module coming or going, which module
 * notifiers see: a format conflict healed, and sites that were left out
 * now give the name its new format. The call comes with the registry's
 * mutex held and possibly under the locks of whoever detached a probe (a
 * trace event's reg() holds event_mutex): it must not sleep nor take
 * such locks, only schedule work.
 *
 * Context: process.
 *
 * Return: 0.
 */
int marker_notifier_register(struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&marker_notifier_list, nb);
}
EXPORT_SYMBOL_GPL(marker_notifier_register);

/**
 * marker_notifier_unregister - stop being told when names change
 * @nb: as given to marker_notifier_register()
 *
 * Context: process; waits for a call in progress to end.
 *
 * Return: 0, or -ENOENT if @nb was not registered.
 */
int marker_notifier_unregister(struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(&marker_notifier_list, nb);
}
EXPORT_SYMBOL_GPL(marker_notifier_unregister);

/**
 * marker_recursion_drops_read - events not delivered for re-entry, all CPUs
 *
 * Counts the probe calls skipped because a probe fired a marker in the
 * context it was called from (see marker_enter()).
 *
 * Context: any; the sum of per-CPU counters read without a lock.
 *
 * Return: the number of such calls since boot.
 */
unsigned long marker_recursion_drops_read(void)
{
	unsigned long drops = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		drops += per_cpu(marker_recursion_drops, cpu);
	return drops;
}

static int __init marker_init(void)
{
	int ret;

	BUILD_BUG_ON(sizeof(struct marker) % 8);

	marker_core.markers = __start___markers;
	marker_core.nr_markers = __stop___markers - __start___markers;
	ret = marker_core_sites_init();
	if (ret)
		return ret;

	marker_lock();
	list_add_rcu(&marker_core.list, &marker_ranges);
	ret = marker_range_attach(&marker_core);
	marker_unlock();
	return ret;
}
early_initcall(marker_init);
