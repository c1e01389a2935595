// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: the registry.
 *
 * Every trace_mark() site has its own struct marker in the __markers section
 * (and, on architectures with patchable sites, an entry in __marker_sites).
 * The registry groups them by name: one struct marker_entry per name holds
 * the format, the parsed fields and the probe array shared by all sites of
 * that name. Probes are attached and detached in updates; one update changes
 * any number of names and patches all their sites in one arch batch.
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
 * Detaching a probe cannot fail: when the smaller array cannot be allocated,
 * the probe's slot in the published array is pointed at a stub that does
 * nothing, as kernel/tracepoint.c does.
 *
 * Typed markers (DECLARE_MARKER()) also publish their array in their
 * struct marker_typed, and their sites call through a static call: the
 * only typed probe directly, or the marker's iterator. Switching it follows
 * kernel/tracepoint.c: to the iterator before an array it cannot serve is
 * published; to a probe only after its array is published and a grace
 * period has passed since the array before was replaced, so no CPU passes
 * a stale ->data to it. Static calls are updated with marker_mutex held
 * and nothing else (static_call_update() takes cpus_read_lock() and
 * text_mutex itself).
 *
 * Formats: the first site of a name (or the first format-checked probe,
 * before any site) sets the name's format; a site with another format is a
 * conflict and stays disabled. When the owner of the format goes (its
 * module unloads, the last checked probe detaches), the conflicting sites
 * are looked at again: the first of them sets the new format.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/bitmap.h>
#include <linux/context_tracking.h>
#include <linux/cpu.h>
#include <linux/hashtable.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <linux/uaccess.h>
#include <asm/sections.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "marker_internal.h"

/*
 * A struct marker or a site of a range, on the list of its name's entry:
 * an update walks the markers and sites of the names it changes only, so
 * its cost does not grow with the number of markers in the kernel.
 */
struct marker_link {
	struct list_head node;
	struct marker_range *range;
	unsigned int index;	/* in ->markers, or in ->sorted for a site */
};

/* One per marker name with sites or probes; protected by marker_mutex. */
struct marker_entry {
	struct hlist_node hlist;
	struct list_head markers;	/* links of its struct markers */
	struct list_head sites;		/* links of their sites */
	struct marker_probe_array *probes;	/* published to the sites */
	/* While an update is being built: */
	struct list_head update;		/* on the update's list */
	struct marker_probe_array *pending;	/* the next array, may be NULL */
	char *pending_format;			/* format the update brings */
	bool in_update;
	/* Settled state: */
	struct list_head sync;	/* on marker_sync_list: sites to patch */
	char *format;		/* of the sites and checked probes, or NULL */
	u64 format_hashlen;	/* hashlen_string() of ->format */
	struct marker_field *fields;
	int nr_fields;		/* or -errno if the format does not parse */
	unsigned int nr_markers;	/* sites' struct markers, conflicts excluded */
	unsigned int nr_conflicts;	/* struct markers left out for their format */
	bool busy;		/* a site was busy at the last look */
	/* Declared with DECLARE_MARKER(): */
	struct marker_typed *typed;	/* of its sites and typed probes */
	unsigned int nr_typed;	/* attached mark_<name>() sites */
	struct list_head direct;	/* to give the static call its target */
	u64 hashlen;		/* hashlen_string() of the name */
	char name[];
};

/*
 * The markers and sites of the core kernel or of one module. The list is
 * sorted by address so one update queues sites in ascending order, as
 * text_poke_queue() needs to batch them; it is read under RCU by
 * marker_text_reserved().
 */
struct marker_range {
	struct list_head list;
	struct module *mod;		/* NULL for the core kernel */
	struct marker *markers;
	unsigned int nr_markers;
	struct marker_link *links;	/* of the markers, then of ->sorted */
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	struct marker_site *sites;	/* as the linker or loader left them */
	unsigned int nr_sites;
	struct marker_site **sorted;	/* the sites by address */
	unsigned long *busy;		/* of ->sorted: holding foreign code */
#endif
	/*
	 * A module's init text, recorded when it comes up: the loader
	 * forgets it once the module is live, and frees it soon after.
	 */
	unsigned long init_start, init_end;
	bool init_freed;		/* the module is live: init text gone */
	struct rcu_head rcu;
};

/*
 * An update collects probe changes on any number of names, then checks and
 * applies them together: all of them, or none.
 */
struct marker_update {
	struct list_head entries;
};

#define MARKER_HASH_BITS	10

static DEFINE_MUTEX(marker_mutex);
/* Who wants to know when names change (marker_notifier_register()). */
static ATOMIC_NOTIFIER_HEAD(marker_notifier_list);
static DEFINE_HASHTABLE(marker_table, MARKER_HASH_BITS);
static LIST_HEAD(marker_ranges);
static struct marker_range marker_core;

/*
 * The context whose probes with a format this CPU runs (see
 * marker_enter()), 0 if none; events not delivered because a probe
 * re-entered markers in its own context.
 */
static DEFINE_PER_CPU(unsigned int, marker_context);
static DEFINE_PER_CPU(unsigned long, marker_recursion_drops);

/* ---- Probe-call path ---- */

/*
 * Enter the probes with a format in this context: 0 if this CPU already
 * runs them in this very context (a probe fired a marker), counted as a
 * drop; else what to give marker_exit(). Preemption disabled; any context.
 *
 * A context is numbered by the preempt count's NMI, hard IRQ and
 * softirq-serving fields, plus one: 1 in a task, above that in a softirq,
 * above that at each hard IRQ nesting level, above that at each NMI
 * level. Contexts nest strictly on a CPU, so one that interrupts another
 * always has a larger number, and every nesting level has its own (no
 * two levels share one). The CPU's number is saved and restored around
 * the probes: an interrupt between the read and the write leaves it as
 * it found it.
 */
#define MARKER_ENTERED	BIT(31)	/* above every context's number */

static __always_inline unsigned int marker_enter(void)
{
	unsigned int context = (preempt_count() &
				(NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)) + 1;
	unsigned int outer = this_cpu_read(marker_context);

	if (unlikely(outer >= context)) {
		this_cpu_inc(marker_recursion_drops);
		return 0;
	}
	this_cpu_write(marker_context, context);
	return outer | MARKER_ENTERED;
}

static __always_inline void marker_exit(unsigned int outer)
{
	this_cpu_write(marker_context, outer & ~MARKER_ENTERED);
}

/*
 * Take the slot of a probe detached when no smaller array could be
 * allocated, each of its group's type so that a CFI kernel lets the call
 * through: this one for probes with or without a format, the
 * declaration's __marker_stub_<name>() for typed probes. Takes and does
 * nothing. Context: any.
 */
static void notrace marker_probe_stub(const struct marker *marker,
				      void *probe_private, va_list *args)
{
}

static_assert(__same_type(&marker_probe_stub, marker_probe_func));

/**
 * __marker_probe_call - call the probes attached to a site
 * @marker: the site's marker; the site's arguments follow, as
 *	@marker->format describes them
 *
 * Reached from an enabled site's out-of-line block with the site's
 * arguments. Context: any — task, softirq, hard IRQ, NMI, with the runqueue
 * lock held. Takes no locks, allocates nothing. Calls nothing where RCU is
 * not watching or on a CPU not online yet (marker_probes_may_run(), the
 * rule of typed sites too). A probe that fires a marker
 * in the same context (task, softirq, IRQ or NMI) on this CPU is not called
 * again; such events are counted in marker_recursion_drops.
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

/**
 * __marker_call_varargs - call a probe with a format from a typed marker
 * @marker: the typed marker's name and format
 * @func: the probe, a marker_probe_func
 * @probe_private: its private pointer
 *
 * The iterator of a DECLARE_MARKER() marker calls this with the marker's
 * values. Context: the iterator's (any, preemption disabled). A probe that
 * fires a marker in the same context on this CPU is not called again from
 * it (counted in marker_recursion_drops).
 */
void notrace __marker_call_varargs(const struct marker *marker, void *func,
				   void *probe_private, ...)
{
	unsigned int bit = marker_enter();
	va_list args;

	if (unlikely(!bit))
		return;
	va_start(args, probe_private);
	((marker_probe_func)func)(marker, probe_private, &args);
	va_end(args);
	marker_exit(bit);
}
EXPORT_SYMBOL_GPL(__marker_call_varargs);

/* Probe @i of @a, counting typed probes first, then the others. */
static struct marker_probe *marker_slot(struct marker_probe_array *a,
					unsigned int i)
{
	return &a->probes[i < a->nr_typed ? i : i + 1];
}

/* Is this slot a probe that stays attached once the update is done? */
static bool marker_probe_live(const struct marker_probe *p)
{
	return !p->detached && !p->removing;
}

/* ---- Entries ---- */

/* The hash of @name and its length (hashlen_len()), in one pass. */
static u64 marker_name_hashlen(const char *name)
{
	return hashlen_string(NULL, name);
}

/* Is a name of this hashlen non-empty and short enough? */
static bool marker_hashlen_valid(u64 hashlen)
{
	return hashlen_len(hashlen) && hashlen_len(hashlen) < MARKER_NAME_MAX;
}

static struct marker_entry *marker_entry_find_hashed(const char *name,
						     u64 hashlen)
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

static struct marker_entry *marker_entry_find(const char *name)
{
	return marker_entry_find_hashed(name, marker_name_hashlen(name));
}

static struct marker_entry *marker_entry_get_hashed(const char *name,
						    u64 hashlen)
{
	struct marker_entry *e = marker_entry_find_hashed(name, hashlen);
	size_t len = hashlen_len(hashlen) + 1;
	u32 hash = hashlen_hash(hashlen);

	if (e)
		return e;
	e = kzalloc(struct_size(e, name, len), GFP_KERNEL);
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

static struct marker_entry *marker_entry_get(const char *name)
{
	return marker_entry_get_hashed(name, marker_name_hashlen(name));
}

/*
 * @e's sites and typed probes are those of declaration @t: publish @e's
 * probes there, and let @t find @e without a lookup by name.
 */
static void marker_entry_type(struct marker_entry *e, struct marker_typed *t)
{
	e->typed = t;
	t->entry = e;
	rcu_assign_pointer(t->probes, e->probes);
}

static unsigned int marker_entry_checked(const struct marker_entry *e)
{
	unsigned int i, n = 0;

	for (i = 0; e->probes && i < e->probes->nr; i++)
		n += marker_slot(e->probes, i)->checked;
	return n;
}

static void marker_entry_heal(struct marker_entry *e);

static unsigned int marker_array_typed(struct marker_probe_array *a)
{
	unsigned int i, n = 0;

	for (i = 0; a && i < a->nr_typed; i++)
		n += marker_probe_live(marker_slot(a, i));
	return n;
}

/*
 * A typed marker's name-wide state goes with its last mark_<name>() site
 * and typed probe: its struct marker_typed may belong to a module on its
 * way out. Its static call is one of its iterators by then (no typed
 * probe), and the struct keeps which for when the name is typed again.
 */
static void marker_entry_untype(struct marker_entry *e)
{
	if (!e->typed || e->nr_typed || e->in_update ||
	    marker_array_typed(e->probes))
		return;
	/* A CPU may still hold the array withdrawn, and its ->data. */
	if (rcu_access_pointer(e->typed->probes))
		e->typed->call_gp = get_state_synchronize_rcu();
	RCU_INIT_POINTER(e->typed->probes, NULL);
	e->typed->entry = NULL;
	e->typed = NULL;
}

static void marker_entry_clear_format(struct marker_entry *e)
{
	kfree(e->format);
	kfree(e->fields);
	e->format = NULL;
	e->fields = NULL;
	e->nr_fields = 0;
}

/* Take ownership of @format (kmalloc'ed) and parse it. */
static int marker_entry_set_format(struct marker_entry *e, char *format)
{
	struct marker_field *fields;
	int nr;

	fields = kcalloc(MARKER_FIELDS_MAX, sizeof(*fields), GFP_KERNEL);
	if (!fields) {
		kfree(format);
		return -ENOMEM;
	}
	nr = marker_format_parse(format, fields, MARKER_FIELDS_MAX);
	if (nr <= 0) {
		kfree(fields);
		fields = NULL;
	}
	marker_entry_clear_format(e);
	e->format = format;
	e->format_hashlen = hashlen_string(NULL, format);
	e->fields = fields;
	e->nr_fields = nr;
	return 0;
}

/* "vmlinux" or the module's name, for messages. */
static const char *marker_range_owner(const struct marker_range *r)
{
	return r->mod ? module_name(r->mod) : "vmlinux";
}

/*
 * Drop what nobody uses any more: the format once no site and no checked
 * probe holds it, a typed marker's state once no mark_<name>() site and no
 * typed probe holds it (then the sites left out for a conflict get their
 * chance), the entry once it has neither sites nor probes.
 */
static void marker_entry_settle(struct marker_entry *e)
{
	if (!e->nr_markers && !marker_entry_checked(e) && !e->in_update)
		marker_entry_clear_format(e);
	marker_entry_untype(e);
	/* Sites left out for the format or the kind of the sites now gone. */
	if (!e->nr_markers && e->nr_conflicts && !e->in_update)
		marker_entry_heal(e);
	if (e->nr_markers || e->nr_conflicts || e->probes || e->in_update)
		return;
	list_del(&e->sync);
	list_del(&e->direct);
	hlist_del(&e->hlist);
	kfree(e);
}

/* Entries whose sites wait for marker_sites_sync_flagged(). */
static LIST_HEAD(marker_sync_list);

static void marker_entry_sync(struct marker_entry *e)
{
	if (list_empty(&e->sync))
		list_add_tail(&e->sync, &marker_sync_list);
}

static struct marker *marker_link_marker(const struct marker_link *l)
{
	return &l->range->markers[l->index];
}

/*
 * Attach one struct marker of range @r to @e: it takes @e's probes and
 * state, or is left out as a conflict if its format is not @e's. The first
 * marker of a name without a format gives it its format.
 *
 * Return: 0, or -ENOMEM when the format cannot be copied.
 */
static int marker_attach(struct marker_range *r, struct marker *m,
			 struct marker_entry *e)
{
	const char *owner = marker_range_owner(r);
	char *format;

	if (e->format && strcmp(e->format, m->format)) {
		if (!(m->flags & MARKER_FLAG_CONFLICT)) {
			pr_warn("marker %s in %s has format \"%s\", others have \"%s\": left disabled\n",
				m->name, owner, m->format, e->format);
			m->flags |= MARKER_FLAG_CONFLICT;
			e->nr_conflicts++;
		}
		return 0;
	}
	/*
	 * A name's sites are all mark_<name>() sites of one declaration, or
	 * all trace_mark() sites: the first attached decides.
	 */
	if (m->typed != e->typed && (e->typed || e->nr_markers)) {
		if (!(m->flags & MARKER_FLAG_CONFLICT)) {
			pr_warn("marker %s in %s is %s, others are %s: left disabled\n",
				m->name, owner,
				m->typed ? "a mark_<name>() site" : "a trace_mark() site",
				e->typed ? "declared elsewhere" : "trace_mark() sites");
			m->flags |= MARKER_FLAG_CONFLICT;
			e->nr_conflicts++;
		}
		return 0;
	}
	if (!e->format) {
		format = kstrdup(m->format, GFP_KERNEL);
		if (!format || marker_entry_set_format(e, format))
			return -ENOMEM;
	}
	if (m->typed && !e->typed)
		marker_entry_type(e, m->typed);
	if (m->flags & MARKER_FLAG_CONFLICT) {
		m->flags &= ~MARKER_FLAG_CONFLICT;
		e->nr_conflicts--;
		pr_info("marker %s in %s: no longer in conflict, its format \"%s\" is the name's now\n",
			m->name, owner, m->format);
	}
	e->nr_markers++;
	e->nr_typed += !!m->typed;
	rcu_assign_pointer(m->probes, e->probes);
	WRITE_ONCE(m->state, !!e->probes);
	return 0;
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

/* ---- Sites ---- */

#ifdef CONFIG_HAVE_ARCH_MARKER_SITES

static bool marker_range_init_freed(const struct marker_range *r,
				    unsigned long code)
{
	if (r->mod)
		return READ_ONCE(r->init_freed) && code >= r->init_start &&
		       code < r->init_end;
	/*
	 * As kernel/jump_label.c: everything between __init_begin and
	 * __init_end goes with init memory, built-in __exit text included
	 * on architectures that keep it there (x86).
	 */
	return system_state >= SYSTEM_FREEING_INITMEM &&
	       (is_kernel_inittext(code) ||
		init_section_contains((void *)code, 1));
}

static int marker_site_cmp(const void *a, const void *b)
{
	unsigned long ca = marker_site_code(*(struct marker_site * const *)a);
	unsigned long cb = marker_site_code(*(struct marker_site * const *)b);

	return ca < cb ? -1 : ca > cb;
}

/*
 * Order the sites of @r by address, for text_poke_queue(), in an array of
 * pointers: the table itself is never rearranged, as marker_text_reserved()
 * reads a module's table without locks while the module comes up.
 */
static int marker_range_sort(struct marker_range *r)
{
	unsigned int i;

	if (!r->nr_sites)
		return 0;
	r->sorted = kmalloc_array(r->nr_sites, sizeof(*r->sorted), GFP_KERNEL);
	r->busy = bitmap_zalloc(r->nr_sites, GFP_KERNEL);
	if (!r->sorted || !r->busy) {
		kfree(r->sorted);
		bitmap_free(r->busy);
		r->sorted = NULL;
		r->busy = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < r->nr_sites; i++)
		r->sorted[i] = &r->sites[i];
	sort(r->sorted, r->nr_sites, sizeof(*r->sorted), marker_site_cmp, NULL);
	return 0;
}

/*
 * marker_site_prepare - what it takes to bring site @i of @r to @on
 *
 * The one rule for the check before an update and for the patching: a site
 * holding the instruction for @on needs nothing, one holding the other
 * state's is patched, one holding anything else (a kprobe's int3, another
 * patcher's bytes) is busy: flagged and named in one warning when it
 * becomes so, and left alone until it holds markers' code again.
 *
 * Return: 1 to patch it, 0 if nothing is to be done (or the site is
 * init-freed), -EBUSY if it is busy.
 */
static int marker_site_prepare(struct marker_range *r, unsigned int i,
			       bool on)
{
	const struct marker_site *s = r->sorted[i];
	unsigned long code = marker_site_code(s);
	u8 found[MARKER_SITE_SIZE];
	struct marker_entry *e;

	if (marker_range_init_freed(r, code))
		return 0;
	if (!arch_marker_site_check(s, on)) {
		clear_bit(i, r->busy);
		return 0;
	}
	if (!arch_marker_site_check(s, !on)) {
		clear_bit(i, r->busy);
		return 1;
	}
	e = marker_entry_find(marker_site_marker(s)->name);
	if (e)
		e->busy = true;
	if (!test_and_set_bit(i, r->busy)) {
		if (copy_from_kernel_nofault(found, (void *)code, sizeof(found)))
			memset(found, 0, sizeof(found));
		pr_warn("site %pS of marker %s holds %*ph, not markers' code: busy, left alone\n",
			(void *)code, marker_site_marker(s)->name,
			(int)sizeof(found), found);
	}
	return -EBUSY;
}

/*
 * Before an update turns names on: each such name with sites must have one
 * that can be enabled, or the update fails with -EBUSY and changes nothing.
 * Caller holds marker_mutex and text_mutex.
 */
static int marker_sites_check(struct marker_update *u)
{
	unsigned int sites, usable;
	struct marker_entry *e;
	struct marker_link *l;
	struct marker_site *s;
	int ret = 0;

	list_for_each_entry(e, &u->entries, update) {
		if (e->probes || !e->pending)
			continue;
		sites = 0;
		usable = 0;
		list_for_each_entry(l, &e->sites, node) {
			s = l->range->sorted[l->index];
			if (marker_site_marker(s)->flags & MARKER_FLAG_CONFLICT ||
			    marker_range_init_freed(l->range, marker_site_code(s)))
				continue;
			sites++;
			if (marker_site_prepare(l->range, l->index, true) >= 0)
				usable++;
		}
		if (sites && !usable) {
			pr_warn("cannot enable marker %s: its %u sites are busy\n",
				e->name, sites);
			ret = -EBUSY;
		}
	}
	return ret;
}

#ifdef CONFIG_MODULES
/* Every site of @r to its marker's state, in address order, one batch. */
static void marker_range_sync(struct marker_range *r)
{
	unsigned int i, queued = 0;
	bool on;

	for (i = 0; i < r->nr_sites; i++) {
		on = READ_ONCE(marker_site_marker(r->sorted[i])->state);
		if (marker_site_prepare(r, i, on) > 0) {
			arch_marker_site_queue(r->sorted[i], on);
			queued++;
		}
	}
	if (queued)
		arch_marker_site_apply();
}
#endif

/*
 * Sites gathered from several names, sorted by address before they are
 * queued so that text_poke_queue() does not flush early; a full buffer is
 * one batch. 256 is as many as x86's text_poke_queue() takes in one batch
 * (a page of struct text_poke_loc). Protected by marker_mutex.
 */
#define MARKER_BATCH_MAX	256
static struct marker_site *marker_batch[MARKER_BATCH_MAX];
static unsigned int marker_batch_nr;

static void marker_batch_flush(void)
{
	unsigned int i;

	if (!marker_batch_nr)
		return;
	sort(marker_batch, marker_batch_nr, sizeof(*marker_batch),
	     marker_site_cmp, NULL);
	for (i = 0; i < marker_batch_nr; i++)
		arch_marker_site_queue(marker_batch[i],
				       READ_ONCE(marker_site_marker(marker_batch[i])->state));
	arch_marker_site_apply();
	marker_batch_nr = 0;
}

/*
 * Bring the sites of the entries on marker_sync_list to their marker's
 * state: JMP while probes are attached, the NOP otherwise. Busy sites are
 * left alone. Caller holds marker_mutex and text_mutex.
 *
 * Return: 0, or -EBUSY if a site to enable was busy (and named in a
 * warning when it became so).
 */
static int marker_sites_sync_flagged(void)
{
	struct marker_entry *e, *tmp;
	struct marker_link *l;
	struct marker_site *s;
	struct marker *m;
	int ret = 0, prep;

	list_for_each_entry_safe(e, tmp, &marker_sync_list, sync) {
		e->busy = false;	/* until a site says otherwise */
		list_for_each_entry(l, &e->sites, node) {
			s = l->range->sorted[l->index];
			m = marker_site_marker(s);
			if (m->flags & MARKER_FLAG_CONFLICT)
				continue;
			prep = marker_site_prepare(l->range, l->index,
						   READ_ONCE(m->state));
			if (prep == -EBUSY && READ_ONCE(m->state))
				ret = -EBUSY;
			if (prep <= 0)
				continue;
			marker_batch[marker_batch_nr++] = s;
			if (marker_batch_nr == MARKER_BATCH_MAX)
				marker_batch_flush();
		}
		list_del_init(&e->sync);
	}
	marker_batch_flush();
	return ret;
}

static void marker_text_lock(void)
{
	mutex_lock(&text_mutex);
}

static void marker_text_unlock(void)
{
	mutex_unlock(&text_mutex);
}

/*
 * Does [@start, @end] hold a byte of site @s or the first byte of its
 * out-of-line block? Nothing visibly jumps to the block while the site is
 * a NOP: an optimized kprobe over the instructions before it (a function's
 * last pop and ret) could take its first bytes, and enabling the marker
 * would then jump into the middle of the optimized kprobe's JMP.
 */
static bool marker_site_reserved(const struct marker_site *s,
				 unsigned long start, unsigned long end)
{
	unsigned long code = marker_site_code(s);
	unsigned long target = marker_site_target(s);

	return (code <= end && start < code + MARKER_SITE_SIZE) ||
	       (start <= target && target <= end);
}

/*
 * The core kernel's sites, from the linker's table bounds: right from
 * boot, before marker_init() has sorted them, as early kprobes may come.
 */
static bool marker_core_reserved(unsigned long start, unsigned long end)
{
	struct marker_site *s;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		if (marker_site_reserved(s, start, end) &&
		    !marker_range_init_freed(&marker_core, marker_site_code(s)))
			return true;
	return false;
}

/*
 * A module's sites are read from its own table, unsorted and never
 * changed, from the moment the module's text can be probed
 * (MODULE_STATE_COMING) until it is freed. Preemption disabled.
 */
#ifdef CONFIG_MODULES
static bool marker_sites_reserved(const struct marker_site *sites,
				  unsigned int nr, unsigned long start,
				  unsigned long end)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (marker_site_reserved(&sites[i], start, end))
			return true;
	return false;
}
#endif

static bool marker_module_reserved(unsigned long start, unsigned long end)
{
#ifdef CONFIG_MODULES
	struct module *mod = __module_text_address(start);

	if (mod && marker_sites_reserved(mod->marker_sites,
					 mod->num_marker_sites, start, end))
		return true;
	if (end != start) {
		struct module *mod_end = __module_text_address(end);

		if (mod_end && mod_end != mod &&
		    marker_sites_reserved(mod_end->marker_sites,
					  mod_end->num_marker_sites, start,
					  end))
			return true;
	}
#endif
	return false;
}

static int marker_core_sites_init(void)
{
	marker_core.sites = __start___marker_sites;
	marker_core.nr_sites = __stop___marker_sites - __start___marker_sites;
	return marker_range_sort(&marker_core);
}

#else /* !CONFIG_HAVE_ARCH_MARKER_SITES */

static int marker_sites_check(struct marker_update *u)
{
	return 0;
}

#ifdef CONFIG_MODULES
static void marker_range_sync(struct marker_range *r)
{
}
#endif

static int marker_sites_sync_flagged(void)
{
	struct marker_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &marker_sync_list, sync)
		list_del_init(&e->sync);
	return 0;
}

static void marker_text_lock(void)
{
}

static void marker_text_unlock(void)
{
}

static bool marker_core_reserved(unsigned long start, unsigned long end)
{
	return false;
}

static bool marker_module_reserved(unsigned long start, unsigned long end)
{
	return false;
}

static int marker_core_sites_init(void)
{
	return 0;
}

#endif /* CONFIG_HAVE_ARCH_MARKER_SITES */

/* Give every site of the names in the update its new probes and state. */
static void marker_sites_publish(struct marker_update *u)
{
	struct marker_entry *e;
	struct marker_link *l;
	struct marker *m;

	list_for_each_entry(e, &u->entries, update) {
		if (e->typed)
			rcu_assign_pointer(e->typed->probes, e->pending);
		list_for_each_entry(l, &e->markers, node) {
			m = marker_link_marker(l);
			if (m->flags & MARKER_FLAG_CONFLICT)
				continue;
			rcu_assign_pointer(m->probes, e->pending);
			WRITE_ONCE(m->state, !!e->pending);
		}
	}
}

/* ---- Typed markers' static calls ---- */

/*
 * A typed marker's static call calls (struct marker_typed ->call) its only
 * typed probe, its typed iterator (typed probes only) or, NULL, its
 * iterator of every probe, which serves any array.
 */

/* Typed entries whose static call waits for its target. */
static LIST_HEAD(marker_direct_list);

/* The probe a typed marker's static call may call directly for @a, or NULL. */
static void *marker_array_direct(struct marker_probe_array *a)
{
	if (!a || a->nr != 1 || a->nr_typed != 1 ||
	    !marker_probe_live(&a->probes[0]))
		return NULL;
	return a->probes[0].func;
}

/* Does @a hold typed probes only (detached slots aside)? */
static bool marker_array_typed_only(struct marker_probe_array *a)
{
	return a && a->nr == a->nr_typed;
}

/* The static call's best target for @a: probe, typed iterator or NULL. */
static void *marker_array_call(struct marker_typed *t,
			       struct marker_probe_array *a)
{
	if (!marker_array_typed_only(a))
		return NULL;
	return marker_array_direct(a) ?: t->iterator_typed;
}

/* Can the static call's target @call serve @a once @a is published? */
static bool marker_call_serves(struct marker_typed *t, void *call,
			       struct marker_probe_array *a)
{
	if (!call)
		return true;
	if (call == t->iterator_typed)
		return marker_array_typed_only(a);
	return marker_array_direct(a) == call && a->data == t->call_data;
}

/* Point @e's static call at @call, or at its iterator for NULL. */
static void marker_static_call(struct marker_entry *e, void *call)
{
	struct marker_typed *t = e->typed;

	lockdep_assert_held(&marker_mutex);
	__static_call_update(t->key, t->tramp, call ?: t->iterator);
	t->call = call;
}

/*
 * Before the arrays of an update are published: a static call that cannot
 * serve the new array (another probe, other data, more probes or probes
 * with a format) goes to an iterator that can, which reads the array
 * itself. Caller holds marker_mutex only.
 */
static void marker_update_calls_before(struct marker_update *u)
{
	struct marker_entry *e;
	struct marker_typed *t;

	list_for_each_entry(e, &u->entries, update) {
		t = e->typed;
		if (!t || marker_call_serves(t, t->call, e->pending))
			continue;
		marker_static_call(e, marker_array_typed_only(e->pending) ?
				      t->iterator_typed : NULL);
	}
}

static void marker_entry_want_direct(struct marker_entry *e)
{
	if (e->typed &&
	    marker_array_call(e->typed, e->probes) != e->typed->call &&
	    list_empty(&e->direct))
		list_add_tail(&e->direct, &marker_direct_list);
}

/*
 * After the arrays are published: a typed marker with typed probes only
 * calls its typed iterator, and with one typed probe calls it directly,
 * once no CPU can hold the ->data of an array replaced before (one grace
 * period after the last replacement, often long past). Caller holds
 * marker_mutex only.
 */
static void marker_calls_after(void)
{
	struct marker_entry *e, *tmp;
	struct marker_typed *t;
	void *call;

	list_for_each_entry_safe(e, tmp, &marker_direct_list, direct) {
		list_del_init(&e->direct);
		t = e->typed;
		if (!t)
			continue;
		call = marker_array_call(t, e->probes);
		if (call == t->call)
			continue;
		if (call && call != t->iterator_typed) {
			cond_synchronize_rcu(t->call_gp);
			t->call_data = e->probes->data;
		}
		marker_static_call(e, call);
	}
}

/* ---- Updates ---- */

static void marker_array_free(struct marker_probe_array *array)
{
	if (array)
		kfree_rcu(array, rcu);
}

/* The one allocation of probe arrays; KUnit makes it fail. */
VISIBLE_IF_KUNIT struct marker_probe_array *marker_array_alloc(unsigned int nr)
{
	struct marker_probe_array *array;

	KUNIT_STATIC_STUB_REDIRECT(marker_array_alloc, nr);

	/* Not zeroed: marker_array_copy() writes every slot. */
	array = kmalloc(struct_size(array, probes, nr + 2), GFP_KERNEL);
	if (array) {
		array->nr_slots = nr + 2;
		array->nr = nr;
	}
	return array;
}

static unsigned int marker_array_live(struct marker_probe_array *array)
{
	unsigned int i, n = 0;

	for (i = 0; array && i < array->nr; i++)
		n += marker_probe_live(marker_slot(array, i));
	return n;
}

/*
 * A copy of @old's live probes, with @add too if not NULL: a typed probe
 * (@typed) after the typed ones, another after the others.
 */
static struct marker_probe_array *
marker_array_copy(struct marker_probe_array *old,
		  const struct marker_probe *add, bool typed)
{
	struct marker_probe_array *array;
	unsigned int i, j = 0, nr_typed = old ? old->nr_typed : 0;
	struct marker_probe *p;

	array = marker_array_alloc(marker_array_live(old) + !!add);
	if (!array)
		return NULL;
	for (i = 0; i < nr_typed; i++) {
		p = marker_slot(old, i);
		if (marker_probe_live(p))
			array->probes[j++] = *p;
	}
	if (add && typed)
		array->probes[j++] = *add;
	array->nr_typed = j;
	array->probes[j++] = (struct marker_probe){ };
	array->varargs = &array->probes[j];
	for (i = nr_typed; old && i < old->nr; i++) {
		p = marker_slot(old, i);
		if (marker_probe_live(p))
			array->probes[j++] = *p;
	}
	if (add && !typed)
		array->probes[j++] = *add;
	array->probes[j] = (struct marker_probe){ };
	array->data = array->probes[0].probe_private;
	return array;
}

static void marker_update_join(struct marker_update *u, struct marker_entry *e)
{
	if (e->in_update)
		return;
	e->in_update = true;
	e->pending = e->probes;
	list_add_tail(&e->update, &u->entries);
}

/* Replace @e's pending array by @array, freeing the old one if unpublished. */
static void marker_update_set(struct marker_entry *e,
			      struct marker_probe_array *array)
{
	if (e->pending != e->probes)
		kfree(e->pending);
	e->pending = array;
}

static bool marker_name_valid(const char *name)
{
	return name && name[0] && strnlen(name, MARKER_NAME_MAX) < MARKER_NAME_MAX;
}

static int marker_update_add(struct marker_update *u,
			     const struct marker_probe_request *req)
{
	/* A typed probe's name and format are its declaration's. */
	const char *name = req->typed ? req->typed->marker.name : req->name;
	const char *format = req->typed ? req->typed->marker.format :
					  req->format;
	struct marker_probe_array *old, *array;
	struct marker_entry *e;
	struct marker_probe add = {
		.func = req->probe,
		.probe_private = req->probe_private,
		.checked = !!format,
	};
	struct marker_probe *p;
	const char *have;
	unsigned int i;
	bool same;

	if (!req->probe || !name)
		return -EINVAL;
	if (req->typed && req->typed->entry) {
		/* The declaration's entry: no lookup by name. */
		e = req->typed->entry;
	} else {
		u64 hashlen = marker_name_hashlen(name);

		if (!marker_hashlen_valid(hashlen))
			return -EINVAL;
		e = marker_entry_get_hashed(name, hashlen);
		if (!e)
			return -ENOMEM;
	}
	marker_update_join(u, e);

	if (req->typed && req->typed != e->typed) {
		/* Sites are trace_mark() ones, or another declaration's. */
		if (e->typed || e->nr_markers) {
			pr_notice("typed probe on marker %s: its sites are %s\n",
				  e->name, e->typed ? "declared elsewhere" :
				  "trace_mark() sites");
			return -EPERM;
		}
		marker_entry_type(e, req->typed);
	} else if (req->typed && e->format) {
		/* The declaration's sites or probes set the name's format. */
		goto checked;
	}
	if (!format)
		goto checked;

	have = e->format ?: e->pending_format;
	same = false;
	if (have) {
		/* Lengths and hashes first, then the bytes, word by word. */
		u64 hashlen = hashlen_string(NULL, format);

		same = hashlen == (have == e->format ? e->format_hashlen :
				   hashlen_string(NULL, have)) &&
		       !memcmp(format, have, hashlen_len(hashlen));
	}
	/* The name's own format was parsed when it was set: no parse again. */
	if (same && have == e->format) {
		if (e->nr_fields < 0)
			return -EINVAL;
	} else if (!same) {
		struct marker_field *fields;
		int ret;

		fields = kcalloc(MARKER_FIELDS_MAX, sizeof(*fields), GFP_KERNEL);
		if (!fields)
			return -ENOMEM;
		ret = marker_format_parse(format, fields, MARKER_FIELDS_MAX);
		kfree(fields);
		if (ret < 0)
			return -EINVAL;
	}
	if (have && !same) {
		pr_notice("probe format \"%s\" does not match marker %s format \"%s\"\n",
			  format, e->name, have);
		return -EPERM;
	}
	if (!have) {
		e->pending_format = kstrdup(format, GFP_KERNEL);
		if (!e->pending_format)
			return -ENOMEM;
	}

checked:
	old = e->pending;
	for (i = 0; old && i < old->nr; i++) {
		p = marker_slot(old, i);
		if (marker_probe_live(p) && p->func == (void *)req->probe &&
		    p->probe_private == req->probe_private)
			return -EEXIST;
	}

	array = marker_array_copy(old, &add, req->typed);
	if (!array)
		return -ENOMEM;
	marker_update_set(e, array);
	return 0;
}

/*
 * Remove @probe/@probe_private from @e's pending array; -ENOENT if absent.
 * Never fails otherwise: an unpublished array is shrunk in place; when a
 * published one cannot be replaced by a smaller copy, the probe's slot is
 * marked and, at commit, pointed at marker_probe_stub.
 */
static int marker_update_remove_from(struct marker_update *u,
				     struct marker_entry *e, void *probe,
				     void *probe_private)
{
	struct marker_probe_array *old, *array;
	struct marker_probe *p;
	unsigned int i;
	int found = -1;

	old = e->in_update ? e->pending : e->probes;
	for (i = 0; old && i < old->nr; i++) {
		p = marker_slot(old, i);
		if (marker_probe_live(p) && p->func == probe &&
		    p->probe_private == probe_private)
			found = i;
	}
	if (found < 0)
		return -ENOENT;

	marker_update_join(u, e);
	if (marker_array_live(old) == 1) {
		marker_update_set(e, NULL);
		return 0;
	}
	if (old != e->probes) {
		/* The update's own copy: nobody reads it yet. */
		p = marker_slot(old, found);
		old->nr_typed -= (unsigned int)found < old->nr_typed;
		old->nr--;
		/* The NULL slots move down with the probes after @p. */
		memmove(p, p + 1,
			(old->nr_slots - 1 - (p - old->probes)) * sizeof(*p));
		memset(&old->probes[old->nr_slots - 1], 0, sizeof(*p));
		old->varargs = &old->probes[old->nr_typed + 1];
		old->data = old->probes[0].probe_private;
		return 0;
	}
	marker_slot(old, found)->removing = true;
	array = marker_array_copy(old, NULL, false);
	if (array)
		marker_update_set(e, array);
	return 0;
}

static int marker_update_remove(struct marker_update *u,
				const struct marker_probe_request *req)
{
	struct marker_entry *e;
	u64 hashlen;

	if (req->typed && req->typed->entry && req->probe) {
		/* The declaration's entry: no lookup by name. */
		e = req->typed->entry;
	} else {
		if (!req->probe || !req->name)
			return -EINVAL;
		hashlen = marker_name_hashlen(req->name);
		if (!marker_hashlen_valid(hashlen))
			return -EINVAL;
		e = marker_entry_find_hashed(req->name, hashlen);
		if (!e)
			return -ENOENT;
	}
	return marker_update_remove_from(u, e, (void *)req->probe,
					 req->probe_private);
}

/*
 * Slots of @e's published array marked for removal: clear or stub them,
 * each with the stub of its group's type.
 */
static void marker_entry_settle_removals(struct marker_entry *e, bool stub)
{
	struct marker_probe_array *array = e->probes;
	struct marker_probe *p;
	unsigned int i;

	for (i = 0; array && i < array->nr; i++) {
		p = marker_slot(array, i);
		if (!p->removing)
			continue;
		if (stub) {
			/* Typed probes imply the declaration's entry. */
			WRITE_ONCE(p->func, i < array->nr_typed ?
				   e->typed->stub : (void *)marker_probe_stub);
			p->checked = false;
			p->detached = true;
		}
		p->removing = false;
	}
}

/* Leave every entry of the update as it was before the update began. */
static void marker_update_abort(struct marker_update *u)
{
	struct marker_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &u->entries, update) {
		marker_update_set(e, NULL);
		marker_entry_settle_removals(e, false);
		kfree(e->pending_format);
		e->pending_format = NULL;
		e->in_update = false;
		list_del_init(&e->update);
		/* Back to a direct call if the update moved it off one. */
		marker_entry_want_direct(e);
		marker_entry_settle(e);
	}
}

/*
 * Check, publish and patch an update: all of it or, on error, none of it.
 * Caller holds marker_mutex, and the sites' locks if the update turns a
 * name on.
 */
static int marker_update_commit(struct marker_update *u)
{
	struct marker_entry *e, *tmp;
	int ret;

	lockdep_assert_held(&marker_mutex);

	list_for_each_entry(e, &u->entries, update) {
		if (!e->pending_format)
			continue;
		ret = marker_entry_set_format(e, e->pending_format);
		e->pending_format = NULL;
		if (ret)
			goto abort;
	}

	ret = marker_sites_check(u);
	if (ret)
		goto abort;

	marker_sites_publish(u);

	list_for_each_entry_safe(e, tmp, &u->entries, update) {
		/* Sites change with the state, or may come back from busy. */
		if (!e->probes != !e->pending || e->busy)
			marker_entry_sync(e);
		if (e->pending == e->probes) {
			marker_entry_settle_removals(e, true);
		} else if (e->probes) {
			if (e->typed)
				e->typed->call_gp = get_state_synchronize_rcu();
			marker_array_free(e->probes);
		}
		e->probes = e->pending;
		marker_entry_want_direct(e);
		e->pending = NULL;
		e->in_update = false;
		list_del_init(&e->update);
		marker_entry_settle(e);
	}
	return 0;

abort:
	marker_update_abort(u);
	return ret;
}

/* ---- Locking ---- */

/*
 * The open patch batches (struct marker_patch_batch), each its owner's:
 * the updates of a task that has one open check sites but leave their
 * patching to its marker_patch_batch_end(); anybody else's patch before
 * they return (patching, on the way, what a batch left for later).
 * Protected by marker_mutex.
 */
static LIST_HEAD(marker_patch_batches);

/* Does the current task have a patch batch open? Caller holds marker_mutex. */
static bool marker_in_batch(void)
{
	struct marker_patch_batch *b;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(b, &marker_patch_batches, node)
		if (b->owner == current)
			return true;
	return false;
}

/* The locks for checking and patching sites, after marker_mutex. */
static void marker_sites_lock(void)
{
	cpus_read_lock();
	marker_text_lock();
}

/*
 * Patch what waits to be patched, unless the caller's batch is open, and
 * unlock. Return: as marker_sites_sync_flagged().
 */
static int marker_sites_unlock(void)
{
	int ret = 0;

	if (!marker_in_batch())
		ret = marker_sites_sync_flagged();
	marker_text_unlock();
	cpus_read_unlock();
	return ret;
}

/* Every lock, for module notifiers and boot; marker_unlock() patches. */
static void marker_lock(void)
{
	mutex_lock(&marker_mutex);
	marker_sites_lock();
}

static void marker_unlock(void)
{
	marker_sites_unlock();
	marker_calls_after();
	mutex_unlock(&marker_mutex);
}

/* Does the update turn a name on: its sites must be checked first. */
static bool marker_update_turns_on(struct marker_update *u)
{
	struct marker_entry *e;

	list_for_each_entry(e, &u->entries, update)
		if (!e->probes && e->pending)
			return true;
	return false;
}

/*
 * Commit the update built with marker_mutex held, or abort it if @ret is
 * an error. The sites' locks are taken only when sites are checked or
 * patched: an update that only changes a name's probes takes none.
 */
static int marker_update_run(struct marker_update *u, int ret)
{
	bool locked = false;

	lockdep_assert_held(&marker_mutex);
	if (ret) {
		marker_update_abort(u);
	} else {
		marker_update_calls_before(u);
		if (marker_update_turns_on(u)) {
			marker_sites_lock();
			locked = true;
		}
		ret = marker_update_commit(u);
	}
	if (!locked && !list_empty(&marker_sync_list) && !marker_in_batch()) {
		marker_sites_lock();
		locked = true;
	}
	if (locked)
		marker_sites_unlock();
	marker_calls_after();
	return ret;
}

static int marker_probe_change(const struct marker_probe_request *reqs,
			       unsigned int nr, bool add)
{
	struct marker_update u = { .entries = LIST_HEAD_INIT(u.entries) };
	unsigned int i;
	int ret = 0;

	if (!reqs && nr)
		return -EINVAL;

	mutex_lock(&marker_mutex);
	for (i = 0; i < nr && !ret; i++)
		ret = add ? marker_update_add(&u, &reqs[i]) :
			    marker_update_remove(&u, &reqs[i]);
	ret = marker_update_run(&u, ret);
	mutex_unlock(&marker_mutex);
	return ret;
}

/**
 * marker_probe_register - attach a probe to a marker
 * @name: marker name
 * @format: the format the probe expects, or NULL for a probe that reads
 *	@marker->format itself
 * @probe: the probe
 * @probe_private: passed to @probe
 *
 * The marker need not exist yet: the probe is attached to sites of @name
 * when they appear (module load).
 *
 * Return: 0; -EINVAL for a NULL probe, an empty or overlong name, or a
 * format that cannot be parsed; -EPERM if @format differs from the marker's;
 * -EEXIST if @probe with @probe_private is already attached; -EBUSY if the
 * marker has sites and none of them can be enabled because each holds code
 * markers did not write (a warning names them; sites that are busy while
 * others can be enabled are only reported, and listed as busy); -ENOMEM.
 */
int marker_probe_register(const char *name, const char *format,
			  marker_probe_func probe, void *probe_private)
{
	struct marker_probe_request req = {
		.name = name,
		.format = format,
		.probe = probe,
		.probe_private = probe_private,
	};

	return marker_probe_change(&req, 1, true);
}
EXPORT_SYMBOL_GPL(marker_probe_register);

/**
 * marker_probe_unregister - detach a probe from a marker
 * @name: marker name
 * @probe: the probe
 * @probe_private: the private pointer it was registered with
 *
 * The probe may still be running on other CPUs when this returns: call
 * marker_synchronize_unregister() before freeing what it uses. Detaching
 * cannot fail for lack of memory.
 *
 * Return: 0; -ENOENT if @probe with @probe_private is not attached to
 * @name; -EINVAL for a NULL probe or an invalid name.
 */
int marker_probe_unregister(const char *name, marker_probe_func probe,
			    void *probe_private)
{
	struct marker_probe_request req = {
		.name = name,
		.probe = probe,
		.probe_private = probe_private,
	};

	return marker_probe_change(&req, 1, false);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister);

/**
 * marker_probe_register_typed - attach a typed probe to a typed marker
 * @typed: the marker's __marker_typed_<name>
 * @probe: ``void probe(void *data, proto)``, proto the marker's prototype
 * @probe_private: passed to @probe as @data
 *
 * Called by register_mark_<name>(), which checks @probe's type. The only
 * probe of a marker is called directly from its sites (a static call); the
 * marker may also have probes with a format, called with its values.
 *
 * Context: process; may sleep (it may wait for a grace period before
 * pointing the static call at @probe).
 *
 * Return: as marker_probe_register(); -EPERM also if the marker's sites
 * are trace_mark() sites or belong to another declaration of the name.
 */
int marker_probe_register_typed(struct marker_typed *typed, void *probe,
				void *probe_private)
{
	struct marker_probe_request req = {
		.name = typed->marker.name,
		.format = typed->marker.format,
		.probe = (marker_probe_func)probe,
		.probe_private = probe_private,
		.typed = typed,
	};

	return marker_probe_change(&req, 1, true);
}
EXPORT_SYMBOL_GPL(marker_probe_register_typed);

/**
 * marker_probe_unregister_typed - detach a typed probe
 * @typed: the marker's __marker_typed_<name>
 * @probe: the probe
 * @probe_private: the private pointer it was registered with
 *
 * Called by unregister_mark_<name>(). As for marker_probe_unregister(),
 * call marker_synchronize_unregister() before freeing what the probe uses.
 *
 * Return: as marker_probe_unregister().
 */
int marker_probe_unregister_typed(struct marker_typed *typed, void *probe,
				  void *probe_private)
{
	struct marker_probe_request req = {
		.name = typed->marker.name,
		.probe = (marker_probe_func)probe,
		.probe_private = probe_private,
		.typed = typed,
	};

	return marker_probe_change(&req, 1, false);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_typed);

/**
 * marker_probe_register_batch - attach several probes in one update
 * @reqs: the probes and the markers to attach them to
 * @nr: number of requests
 *
 * All sites changed by the batch are patched with one set of sync rounds.
 * Either every request takes effect or none does.
 *
 * Return: 0, or the first error, as for marker_probe_register().
 */
int marker_probe_register_batch(const struct marker_probe_request *reqs,
				unsigned int nr)
{
	return marker_probe_change(reqs, nr, true);
}
EXPORT_SYMBOL_GPL(marker_probe_register_batch);

/**
 * marker_probe_unregister_batch - detach several probes in one update
 * @reqs: the probes and their markers (formats are ignored)
 * @nr: number of requests
 *
 * Either every request takes effect or none does; only a request that
 * names no attached probe or is invalid makes the batch fail.
 *
 * Return: 0, or the first error, as for marker_probe_unregister().
 */
int marker_probe_unregister_batch(const struct marker_probe_request *reqs,
				  unsigned int nr)
{
	return marker_probe_change(reqs, nr, false);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_batch);

/**
 * marker_probe_unregister_private_data - detach a probe from every marker
 * @probe: the probe
 * @probe_private: the private pointer it was registered with
 *
 * Detaches every registration of @probe with @probe_private, on all
 * markers, in one update.
 *
 * Return: 0; -ENOENT if there was none; -EINVAL for a NULL probe.
 */
int marker_probe_unregister_private_data(marker_probe_func probe,
					 void *probe_private)
{
	struct marker_update u = { .entries = LIST_HEAD_INIT(u.entries) };
	struct marker_entry *e;
	struct hlist_node *tmp;
	unsigned int bkt, found = 0;
	int ret = 0;

	if (!probe)
		return -EINVAL;

	mutex_lock(&marker_mutex);
	hash_for_each_safe(marker_table, bkt, tmp, e, hlist) {
		ret = marker_update_remove_from(&u, e, (void *)probe,
						probe_private);
		if (!ret)
			found++;
		else if (ret != -ENOENT)
			break;
		ret = 0;
	}
	if (!ret && !found)
		ret = -ENOENT;
	ret = marker_update_run(&u, ret);
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_private_data);

/**
 * marker_patch_batch_begin - let the caller's updates leave their patching
 * @batch: the caller's batch, on its stack until marker_patch_batch_end()
 *
 * Until the matching marker_patch_batch_end(), the probes this task
 * registers and unregisters are checked against their sites as always
 * (and fail as always) and published, but no site is patched:
 * marker_patch_batch_end() patches every site they changed in one batch.
 * ftrace opens one around enabling or disabling the events of a whole
 * system, so enabling every marker event costs one set of sync rounds.
 * Meanwhile a site may still be a NOP though its probes are attached (its
 * events are not seen yet), or a jump though they are not (it finds no
 * probes). The batch is the caller's: other tasks' registrations patch
 * their sites before they return, as without a batch. A task's batches
 * nest: the outermost end patches.
 *
 * Context: process; takes the registry's mutex.
 */
void marker_patch_batch_begin(struct marker_patch_batch *batch)
{
	batch->owner = current;
	mutex_lock(&marker_mutex);
	list_add(&batch->node, &marker_patch_batches);
	mutex_unlock(&marker_mutex);
}
EXPORT_SYMBOL_GPL(marker_patch_batch_begin);

/**
 * marker_patch_batch_end - patch what the caller's updates left for later
 * @batch: the batch marker_patch_batch_begin() opened, by the same task
 *
 * Context: process; takes the registry's mutex, cpus_read_lock() and
 * text_mutex.
 *
 * Return: 0; -EBUSY if a site to enable held code markers did not write
 * (another patcher's) when it was patched: named in a warning, left
 * alone, and the probes of its marker are not called from it; -EINVAL if
 * @batch is not open by this task.
 */
int marker_patch_batch_end(struct marker_patch_batch *batch)
{
	int ret = 0;

	mutex_lock(&marker_mutex);
	if (batch->owner != current || list_empty(&batch->node)) {
		mutex_unlock(&marker_mutex);
		return -EINVAL;
	}
	list_del_init(&batch->node);
	if (!marker_in_batch() && !list_empty(&marker_sync_list)) {
		marker_sites_lock();
		ret = marker_sites_unlock();
	}
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_patch_batch_end);

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
 * marker_synchronize_unregister - wait for detached probes to finish
 *
 * After marker_probe_unregister() and this, no CPU runs the probe or holds
 * the probe array it was in: its module may go and its data be freed.
 */
void marker_synchronize_unregister(void)
{
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(marker_synchronize_unregister);

/* ---- Ranges: the core kernel and modules ---- */

static unsigned int marker_range_nr_sites(const struct marker_range *r)
{
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	return r->nr_sites;
#else
	return 0;
#endif
}

/*
 * Detach the first @nr_markers markers of @r and the first @nr_sites of
 * its sorted sites from their entries.
 */
static void marker_range_detach(struct marker_range *r,
				unsigned int nr_markers, unsigned int nr_sites)
{
	struct marker_entry *e;
	struct marker *m;
	unsigned int i;

	for (i = 0; i < nr_sites; i++)
		list_del(&r->links[r->nr_markers + i].node);
	for (i = 0; i < nr_markers; i++) {
		m = &r->markers[i];
		list_del(&r->links[i].node);
		e = marker_entry_find(m->name);
		if (m->flags & MARKER_FLAG_CONFLICT) {
			if (!WARN_ON_ONCE(!e || !e->nr_conflicts)) {
				e->nr_conflicts--;
				marker_entry_settle(e);
			}
			continue;
		}
		if (WARN_ON_ONCE(!e || !e->nr_markers))
			continue;
		e->nr_markers--;
		e->nr_typed -= !!m->typed;
		RCU_INIT_POINTER(m->probes, NULL);
		WRITE_ONCE(m->state, 0);
		marker_entry_settle(e);
	}
	kfree(r->links);
	r->links = NULL;
}

/*
 * Attach the markers of a new range to their entries: their probes and
 * state come from the entry; a site whose format differs from its name's is
 * left disabled until the owner of that format goes. Each marker and site
 * is linked to its name's entry. A name of MARKER_NAME_MAX characters or
 * more (trace_mark() refuses them at build time; a hand-made struct marker
 * can have one) refuses the whole range. Caller holds marker_mutex.
 *
 * Return: 0, -ENAMETOOLONG or -ENOMEM.
 */
static int marker_range_attach(struct marker_range *r)
{
	const char *owner = marker_range_owner(r);
	unsigned int i, nr_sites = marker_range_nr_sites(r);
	struct marker_entry *e;
	struct marker_link *l;
	struct marker *m;

	for (m = r->markers; m < r->markers + r->nr_markers; m++) {
		if (!marker_name_valid(m->name)) {
			pr_warn("%s has a marker whose name is empty or longer than %d characters: %.*s...\n",
				owner, MARKER_NAME_MAX - 1, MARKER_NAME_MAX - 1,
				m->name);
			return -ENAMETOOLONG;
		}
	}
	r->links = kcalloc(r->nr_markers + nr_sites, sizeof(*r->links),
			   GFP_KERNEL);
	if (!r->links && r->nr_markers + nr_sites)
		return -ENOMEM;

	for (i = 0; i < r->nr_markers; i++) {
		m = &r->markers[i];
		e = marker_entry_get(m->name);
		if (!e || marker_attach(r, m, e)) {
			if (e)
				marker_entry_settle(e);
			marker_range_detach(r, i, 0);
			return -ENOMEM;
		}
		l = &r->links[i];
		l->range = r;
		l->index = i;
		list_add_tail(&l->node, &e->markers);
	}
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	for (i = 0; i < nr_sites; i++) {
		/* A site's marker is in the same object: attached above. */
		e = marker_entry_find(marker_site_marker(r->sorted[i])->name);
		l = &r->links[r->nr_markers + i];
		l->range = r;
		l->index = i;
		if (WARN_ON_ONCE(!e))
			INIT_LIST_HEAD(&l->node);
		else
			list_add_tail(&l->node, &e->sites);
	}
#endif
	return 0;
}

#ifdef CONFIG_MODULES

/* Insert keeping the list sorted by address; the core kernel comes first. */
static void marker_range_insert(struct marker_range *r)
{
	struct marker_range *pos;

	list_for_each_entry(pos, &marker_ranges, list)
		if (pos->mod && pos->mod->mem[MOD_TEXT].base >
				r->mod->mem[MOD_TEXT].base)
			break;
	list_add_tail_rcu(&r->list, &pos->list);
}

static struct marker_range *marker_module_range(struct module *mod)
{
	struct marker_range *r;

	list_for_each_entry(r, &marker_ranges, list)
		if (r->mod == mod)
			return r;
	return NULL;
}

static void marker_range_free(struct marker_range *r)
{
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	kfree(r->sorted);
	bitmap_free(r->busy);
#endif
	kfree(r);
}

static void marker_range_free_rcu(struct rcu_head *head)
{
	marker_range_free(container_of(head, struct marker_range, rcu));
}

static int marker_module_sites(struct marker_range *r, struct module *mod)
{
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	r->sites = mod->marker_sites;
	r->nr_sites = mod->num_marker_sites;
	return marker_range_sort(r);
#else
	return 0;
#endif
}

static int marker_module_coming(struct module *mod)
{
	struct marker_range *r;
	int ret;

	if (!mod->num_markers)
		return 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->mod = mod;
	r->init_start = (unsigned long)mod->mem[MOD_INIT_TEXT].base;
	r->init_end = r->init_start + mod->mem[MOD_INIT_TEXT].size;
	r->markers = mod->markers;
	r->nr_markers = mod->num_markers;
	ret = marker_module_sites(r, mod);
	if (!ret)
		ret = marker_range_attach(r);
	if (ret) {
		marker_range_free(r);
		return ret;
	}
	marker_range_insert(r);
	marker_range_sync(r);
	return 0;
}

/*
 * A module that goes with probes still attached leaks them: its own
 * functions on any marker, and typed probes on its own declaration (which
 * no other module can reach: using it holds a reference on the module).
 * Each is named in a warning and detached, so that nothing is left
 * pointing into the module's memory, and the declaration leaves the name
 * with the module's last site (marker_entry_untype()). Caller holds
 * marker_mutex only.
 */
static void marker_module_drop_leaks(struct module *mod)
{
	struct marker_update u = { .entries = LIST_HEAD_INIT(u.entries) };
	struct marker_probe_array *a;
	struct marker_probe *p;
	struct marker_entry *e;
	unsigned int bkt, i;
	bool own;

	hash_for_each(marker_table, bkt, e, hlist) {
		own = e->typed && within_module((unsigned long)e->typed, mod);
		a = e->probes;
		for (i = 0; a && i < a->nr; i++) {
			p = marker_slot(a, i);
			if (!marker_probe_live(p) ||
			    (!(own && i < a->nr_typed) &&
			     !within_module((unsigned long)p->func, mod)))
				continue;
			pr_warn("module %s goes with probe %ps still attached to marker %s: detached\n",
				module_name(mod), p->func, e->name);
			marker_update_remove_from(&u, e, p->func,
						  p->probe_private);
		}
	}
	marker_update_run(&u, 0);
}

static void marker_module_going(struct module *mod)
{
	struct marker_range *r = marker_module_range(mod);

	if (!r)
		return;
	list_del_rcu(&r->list);
	marker_range_detach(r, r->nr_markers, marker_range_nr_sites(r));
	call_rcu(&r->rcu, marker_range_free_rcu);
}

/*
 * Context: process, the module loader's notifier chain. A module whose
 * markers cannot be attached does not load.
 */
static int marker_module_notify(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct module *mod = data;
	struct marker_range *r;
	int ret = 0;

	mutex_lock(&marker_mutex);
	if (val == MODULE_STATE_GOING)
		marker_module_drop_leaks(mod);
	marker_sites_lock();
	switch (val) {
	case MODULE_STATE_COMING:
		ret = marker_module_coming(mod);
		if (ret)
			pr_warn("cannot add the markers of %s: %d\n",
				mod->name, ret);
		break;
	case MODULE_STATE_LIVE:
		r = marker_module_range(mod);
		if (r)
			WRITE_ONCE(r->init_freed, true);
		break;
	case MODULE_STATE_GOING:
		marker_module_going(mod);
		break;
	}
	marker_unlock();
	return notifier_from_errno(ret);
}

static struct notifier_block marker_module_nb = {
	.notifier_call = marker_module_notify,
	.priority = 1,
};

static int __init marker_modules_init(void)
{
	return register_module_notifier(&marker_module_nb);
}

#else
static int __init marker_modules_init(void)
{
	return 0;
}
#endif /* CONFIG_MODULES */

/* ---- Queries ---- */

/**
 * marker_text_reserved - is any marker site within [@start, @end]?
 * @start: first byte
 * @end: last byte
 *
 * Lets kprobes and the kprobe optimizer refuse addresses that marker
 * updates rewrite. A module's sites count from the moment its text can be
 * probed, before the marker core attaches them. Context: any; lock-free
 * (RCU-sched).
 *
 * Return: true if a site overlaps the range.
 */
bool marker_text_reserved(void *start, void *end)
{
	bool found;

	preempt_disable_notrace();
	found = marker_core_reserved((unsigned long)start, (unsigned long)end) ||
		marker_module_reserved((unsigned long)start, (unsigned long)end);
	preempt_enable_notrace();
	return found;
}

#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
static int marker_range_iterate_sites(struct marker_range *r,
				      marker_site_func_t fn, void *data)
{
	struct marker_site_info info = { };
	struct marker_site *s;
	unsigned int i;
	int ret;

	info.mod = r->mod;
	for (i = 0; i < r->nr_sites; i++) {
		s = r->sorted[i];
		info.marker = marker_site_marker(s);
		info.code = marker_site_code(s);
		info.target = marker_site_target(s);
		info.enabled = READ_ONCE(info.marker->state);
		info.init_freed = marker_range_init_freed(r, info.code);
		info.busy = test_bit(i, r->busy);
		ret = fn(&info, data);
		if (ret)
			return ret;
	}
	return 0;
}
#else
static int marker_range_iterate_sites(struct marker_range *r,
				      marker_site_func_t fn, void *data)
{
	struct marker_site_info info = { };
	struct marker *m;
	int ret;

	info.mod = r->mod;
	for (m = r->markers; m < r->markers + r->nr_markers; m++) {
		info.marker = m;
		info.enabled = READ_ONCE(m->state);
		ret = fn(&info, data);
		if (ret)
			return ret;
	}
	return 0;
}
#endif

/**
 * marker_iterate_sites - call @fn for every marker site
 * @fn: called for each site with the marker mutex held; a non-zero return
 *	stops the walk
 * @data: passed to @fn
 *
 * Covers the core kernel and every loaded module. Without patchable sites
 * each struct marker is one site, with @info->code and ->target zero.
 *
 * Context: process; takes the marker mutex, so @fn must not register or
 * unregister probes.
 *
 * Return: the first non-zero value returned by @fn, or 0.
 */
int marker_iterate_sites(marker_site_func_t fn, void *data)
{
	struct marker_range *r;
	int ret = 0;

	mutex_lock(&marker_mutex);
	list_for_each_entry(r, &marker_ranges, list) {
		ret = marker_range_iterate_sites(r, fn, data);
		if (ret)
			break;
	}
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_iterate_sites);

/* Append @module to @modules unless it is there; "..." when full. */
static void marker_add_module(char *modules, const char *module)
{
	size_t len = strlen(modules), mlen = strlen(module);
	const char *p = modules;

	while ((p = strstr(p, module))) {
		if ((p == modules || p[-1] == ',') && (p[mlen] == ',' || !p[mlen]))
			return;
		p += mlen;
	}
	if (len >= 3 && !strcmp(modules + len - 3, "..."))
		return;
	if (len + !!len + mlen + sizeof(",...") > MARKER_MODULES_LEN) {
		strlcat(modules, len ? ",..." : "...", MARKER_MODULES_LEN);
		return;
	}
	if (len)
		strlcat(modules, ",", MARKER_MODULES_LEN);
	strlcat(modules, module, MARKER_MODULES_LEN);
}

/*
 * @e's sites that take its probes and those left out. A struct marker is
 * one per translation unit, but a mark_<name>() or a trace_mark() in an
 * inline function has a patchable site per inlined copy: count those.
 */
static void marker_entry_count_sites(const struct marker_entry *e,
				     unsigned int *sites,
				     unsigned int *conflicts)
{
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	const struct marker_link *l;
	const struct marker *m;

	*sites = 0;
	*conflicts = 0;
	list_for_each_entry(l, &e->sites, node) {
		m = marker_site_marker(l->range->sorted[l->index]);
		if (m->flags & MARKER_FLAG_CONFLICT)
			(*conflicts)++;
		else
			(*sites)++;
	}
#else
	*sites = e->nr_markers;
	*conflicts = e->nr_conflicts;
#endif
}

/**
 * marker_iterate_names - call a function for every marker name with sites
 * @fn: called with each name, in no particular order; a non-zero return
 *	stops the walk
 * @data: passed to @fn
 *
 * The registry's own view of each name: its sites, those left out, the
 * modules that hold them, and its format as the registry parsed it. Names
 * that only probes wait for are not reported.
 *
 * Context: process; takes the marker mutex, so @fn must not register or
 * unregister probes. @info is valid only during the call.
 *
 * Return: the first non-zero value returned by @fn, or 0.
 */
int marker_iterate_names(marker_name_func_t fn, void *data)
{
	struct marker_name_info *info;
	struct marker_entry *e;
	struct marker_link *l;
	unsigned int bkt;
	int ret = 0;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	mutex_lock(&marker_mutex);
	hash_for_each(marker_table, bkt, e, hlist) {
		if (!e->nr_markers && !e->nr_conflicts)
			continue;
		*info = (struct marker_name_info) {
			.name = e->name,
			.format = e->nr_markers ? e->format : NULL,
			.debug = e->name[0] == '_' && e->name[1] == '_',
		};
		marker_entry_count_sites(e, &info->nr_sites,
					 &info->nr_conflicts);
		if (info->format) {
			info->fields = e->nr_fields > 0 ? e->fields : NULL;
			info->nr_fields = e->nr_fields;
		}
		list_for_each_entry(l, &e->markers, node)
			if (!(marker_link_marker(l)->flags & MARKER_FLAG_CONFLICT))
				marker_add_module(info->modules,
						  marker_range_owner(l->range));
		ret = fn(info, data);
		if (ret)
			break;
	}
	mutex_unlock(&marker_mutex);
	kfree(info);
	return ret;
}

/**
 * marker_site_state - a site's state as listings print it
 * @info: the site, as marker_iterate_sites() reports it
 *
 * Return: "conflict", "init-freed", "busy", "enabled" or "disabled".
 */
const char *marker_site_state(const struct marker_site_info *info)
{
	if (info->marker->flags & MARKER_FLAG_CONFLICT)
		return "conflict";
	if (info->init_freed)
		return "init-freed";
	if (info->busy)
		return "busy";
	return info->enabled ? "enabled" : "disabled";
}

/**
 * marker_site_read_bytes - read the instruction bytes at a site
 * @info: the site, as marker_iterate_sites() reports it
 * @buf: where to put them, %MARKER_SITE_BYTES_MAX bytes
 *
 * The bytes in memory order: on x86 a 5-byte NOP or a JMP, on arm64 a NOP
 * or B. Nothing for a site whose init text is gone, or without patchable
 * sites.
 *
 * Context: called from a marker_iterate_sites() callback (the marker
 * mutex held, so the site is neither patched nor freed meanwhile).
 *
 * Return: the number of bytes read, 0 if there are none to read.
 */
size_t marker_site_read_bytes(const struct marker_site_info *info, u8 *buf)
{
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	BUILD_BUG_ON(MARKER_SITE_SIZE > MARKER_SITE_BYTES_MAX);
	lockdep_assert_held(&marker_mutex);
	if (!info->code || info->init_freed ||
	    copy_from_kernel_nofault(buf, (void *)info->code, MARKER_SITE_SIZE))
		return 0;
	return MARKER_SITE_SIZE;
#else
	return 0;
#endif
}

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
	if (ret)
		return ret;
	return marker_modules_init();
}
early_initcall(marker_init);
