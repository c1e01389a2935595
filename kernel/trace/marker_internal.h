/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the marker core share, and nothing else may use:
 *
 *   marker.c         the registry: names and their formats, the
 *                    probe-call path
 *   marker_probe.c   probe arrays, the update transaction and the
 *                    registration API
 *   marker_ranges.c  the ranges of markers (the core kernel's, each
 *                    module's) linked to their names
 *   marker_list.c    the listings of sites and names the faces read
 *   marker_sites.c   patchable sites: sorting, the byte check, patching
 *                    in batches, busy and init-freed sites, the kprobe
 *                    guard (only with CONFIG_HAVE_ARCH_MARKER_SITES; the
 *                    fallbacks below stand in for it otherwise)
 *   marker_module.c  modules coming and going (CONFIG_MODULES)
 *   marker_typed.c   the static calls of typed markers (DECLARE_MARKER(),
 *                    CONFIG_MARKERS_TYPED; fallbacks below otherwise)
 *
 * Everything here is used with marker_mutex held unless it says otherwise.
 */
#ifndef _KERNEL_TRACE_MARKER_INTERNAL_H
#define _KERNEL_TRACE_MARKER_INTERNAL_H

#include <linux/errno.h>
#include <linux/hashtable.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/marker_format.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/stddef.h>
#include <linux/stringhash.h>
#include <kunit/visibility.h>

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
	/* Settled state: */
	struct list_head sync;	/* to patch: on marker_sync_list or a batch */
	char *format;		/* of the sites and checked probes, or NULL */
	u64 format_hashlen;	/* hashlen_string() of ->format */
	unsigned int nr_markers;	/* sites' struct markers, conflicts excluded */
	unsigned int nr_conflicts;	/* struct markers left out for their format */
	/* Declared with DECLARE_MARKER(): */
	struct marker_typed *typed;	/* of its sites and typed probes */
	struct list_head direct;	/* the static call's move: as ->sync */
	unsigned int nr_typed;	/* attached mark_<name>() sites */
	/*
	 * The small members last, together (one byte of padding after
	 * them): the entry of a name of up to 23 characters then fits 192
	 * bytes (see below).
	 */
	s8 nr_fields;		/* its fields, or -errno if it does not parse */
	bool busy;		/* a site was busy at the last look */
	bool in_update;		/* an update is being built (->update) */
	u64 hashlen;		/* hashlen_string() of the name */
	char name[];
};

/*
 * A name of up to 23 characters and its NUL keep an entry in kmalloc-192
 * (sched_migrate_task, sched_process_fork and sched_process_exit have 18).
 */
static_assert(offsetof(struct marker_entry, name) + 24 <= 192);
/* ->nr_fields holds a field count or marker_format_parse()'s errors */
static_assert(MARKER_FIELDS_MAX <= S8_MAX && -EINVAL >= S8_MIN &&
	      -E2BIG >= S8_MIN);

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

/* marker.c */
extern struct mutex marker_mutex;
extern struct hlist_head marker_table[1 << MARKER_HASH_BITS];
extern struct list_head marker_ranges;
extern struct marker_range marker_core;
extern struct list_head marker_sync_list;

/* The hash of @name and its length (hashlen_len()), in one pass. */
static inline u64 marker_name_hashlen(const char *name)
{
	return hashlen_string(NULL, name);
}

/* Is a name of this hashlen non-empty and short enough? */
static inline bool marker_hashlen_valid(u64 hashlen)
{
	return hashlen_len(hashlen) && hashlen_len(hashlen) < MARKER_NAME_MAX;
}

void *marker_alloc(size_t n, size_t size);
struct marker_entry *marker_entry_find_hashed(const char *name, u64 hashlen);
struct marker_entry *marker_entry_find(const char *name);
struct marker_entry *marker_entry_get_hashed(const char *name, u64 hashlen);
struct marker_entry *marker_entry_get(const char *name);
bool marker_name_valid(const char *name);
int marker_entry_set_format(struct marker_entry *e, char *format);
void marker_entry_sync(struct marker_entry *e);
void marker_entry_settle(struct marker_entry *e);
const char *marker_range_owner(const struct marker_range *r);
void marker_lock(void);
void marker_unlock(void);

/* marker_probe.c */
int marker_update_remove_from(struct marker_update *u, struct marker_entry *e,
			      void *probe, void *probe_private);
int marker_update_run(struct marker_update *u, int ret);
int marker_probe_change(const struct marker_probe_request *reqs,
			unsigned int nr, bool add);

/* marker_ranges.c */
int marker_attach(struct marker_range *r, struct marker *m,
		  struct marker_entry *e);
int marker_range_attach(struct marker_range *r);
void marker_range_detach(struct marker_range *r, unsigned int nr_markers,
			 unsigned int nr_sites);

static inline struct marker *marker_link_marker(const struct marker_link *l)
{
	return &l->range->markers[l->index];
}

/*
 * The context whose probes with a format this CPU runs (see
 * marker_enter()), 0 if none; events not delivered because a probe
 * re-entered markers in its own context.
 */
DECLARE_PER_CPU(unsigned int, marker_context);
DECLARE_PER_CPU(unsigned long, marker_recursion_drops);

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

/* Probe @i of @a, counting typed probes first, then the others. */
static inline struct marker_probe *marker_slot(struct marker_probe_array *a,
					       unsigned int i)
{
	return &a->probes[i < a->nr_typed ? i : i + 1];
}

/* Is this slot a probe that stays attached once the update is done? */
static inline bool marker_probe_live(const struct marker_probe *p)
{
	return !p->detached && !p->removing;
}

/* marker_list.c: what listings print for a site's state. */
const char *marker_site_state(const struct marker_site_info *info);

/* The registry's part of declaration @t, which only the registry reads. */
static inline struct marker_typed_registry *
marker_typed_reg(struct marker_typed *t)
{
	return &ACCESS_PRIVATE(t, registry);
}

/* marker_typed.c, or what stands in for it without typed markers */
#ifdef CONFIG_MARKERS_TYPED
/*
 * Typed entries whose static call waits for its target, to be moved
 * before marker_mutex is released (a batch's wait on the batch's list).
 */
extern struct list_head marker_direct_list;

void marker_entry_type(struct marker_entry *e, struct marker_typed *t);
void marker_entry_drop_typed(struct marker_entry *e);
void marker_array_name(struct marker_probe_array *a, struct marker_typed *t);
void __marker_entry_untype(struct marker_entry *e);
void __marker_update_calls_before(struct marker_update *u);
void __marker_entry_want_direct(struct marker_entry *e, bool take);
void __marker_calls_after(struct list_head *list);

/* Only a typed name has a static call: the others pay a test, no call. */
static inline void marker_entry_untype(struct marker_entry *e)
{
	if (e->typed)
		__marker_entry_untype(e);
}

/*
 * @e's static call may need another target now: queue it for the
 * changes' __marker_calls_after(). @take: @e's probes were just changed,
 * so take it from a batch that queued it before (see marker_entry_sync()).
 */
static inline void marker_entry_want_direct(struct marker_entry *e, bool take)
{
	if (e->typed)
		__marker_entry_want_direct(e, take);
}

static inline void marker_update_calls_before(struct marker_update *u)
{
	struct marker_entry *e;

	list_for_each_entry(e, &u->entries, update) {
		if (e->typed) {
			__marker_update_calls_before(u);
			return;
		}
	}
}

/* Retarget the static calls queued on @list, a batch's, and empty it. */
static inline void marker_calls_after_list(struct list_head *list)
{
	if (!list_empty(list))
		__marker_calls_after(list);
}

/* The static calls the lock holder's own changes queued. */
static inline void marker_calls_after(void)
{
	marker_calls_after_list(&marker_direct_list);
}
#else
/* No declaration can reach the registry: no name is ever typed. */
static inline void marker_entry_type(struct marker_entry *e,
				     struct marker_typed *t)
{
}

static inline void marker_array_name(struct marker_probe_array *a,
				     struct marker_typed *t)
{
}

static inline void marker_entry_untype(struct marker_entry *e)
{
}

static inline void marker_update_calls_before(struct marker_update *u)
{
}

static inline void marker_entry_want_direct(struct marker_entry *e, bool take)
{
}

static inline void marker_calls_after_list(struct list_head *list)
{
}

static inline void marker_calls_after(void)
{
}
#endif /* CONFIG_MARKERS_TYPED */

/* marker_sites.c, or what stands in for it without patchable sites */
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
int marker_range_sort(struct marker_range *r);
void marker_range_free_sites(struct marker_range *r);
int marker_range_module_sites(struct marker_range *r, struct module *mod);
int marker_core_sites_init(void);
void marker_range_link_sites(struct marker_range *r);
int marker_sites_check(struct marker_update *u);
void marker_range_sync(struct marker_range *r);
void marker_defer_begin(void);
void marker_defer_end(void);
struct marker_patch_batch *marker_deferred_batch(void);
void marker_sites_lock(void);
int marker_sites_unlock(void);
int marker_range_iterate_sites(struct marker_range *r, marker_site_func_t fn,
			       void *data);
void marker_entry_count_sites(const struct marker_entry *e,
			      unsigned int *sites, unsigned int *conflicts);

static inline unsigned int marker_range_nr_sites(const struct marker_range *r)
{
	return r->nr_sites;
}
#else /* !CONFIG_HAVE_ARCH_MARKER_SITES: each site tests its marker's state */
static inline int marker_range_sort(struct marker_range *r)
{
	return 0;
}

static inline void marker_range_free_sites(struct marker_range *r)
{
}

static inline int marker_range_module_sites(struct marker_range *r,
					    struct module *mod)
{
	return 0;
}

static inline int marker_core_sites_init(void)
{
	return 0;
}

static inline void marker_range_link_sites(struct marker_range *r)
{
}

static inline int marker_sites_check(struct marker_update *u)
{
	return 0;
}

static inline void marker_range_sync(struct marker_range *r)
{
}

/* No batches: every change is patched before marker_mutex is released. */
static inline void marker_defer_begin(void)
{
}

static inline void marker_defer_end(void)
{
}

static inline struct marker_patch_batch *marker_deferred_batch(void)
{
	return NULL;
}

static inline void marker_sites_lock(void)
{
}

/* Nothing to patch: the sites read their marker's state. */
static inline int marker_sites_unlock(void)
{
	struct marker_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &marker_sync_list, sync)
		list_del_init(&e->sync);
	return 0;
}

/* Each struct marker is one site, with no code address. */
static inline int marker_range_iterate_sites(struct marker_range *r,
					     marker_site_func_t fn, void *data)
{
	struct marker_site_info info = { .mod = r->mod };
	struct marker *m;
	int ret;

	for (m = r->markers; m < r->markers + r->nr_markers; m++) {
		info.marker = m;
		info.enabled = READ_ONCE(m->state);
		info.state = marker_site_state(&info);
		ret = fn(&info, data);
		if (ret)
			return ret;
	}
	return 0;
}

static inline void marker_entry_count_sites(const struct marker_entry *e,
					    unsigned int *sites,
					    unsigned int *conflicts)
{
	*sites = e->nr_markers;
	*conflicts = e->nr_conflicts;
}

static inline unsigned int marker_range_nr_sites(const struct marker_range *r)
{
	return 0;
}
#endif /* CONFIG_HAVE_ARCH_MARKER_SITES */

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * Allocates every probe array of the registry; a KUnit static stub makes
 * it fail to test what happens without memory.
 */
struct marker_probe_array *marker_array_alloc(unsigned int nr);
/* marker_list.c: a name's list of modules, as listings print it. */
void marker_add_module(char *modules, const char *module);
#endif

#endif /* _KERNEL_TRACE_MARKER_INTERNAL_H */
