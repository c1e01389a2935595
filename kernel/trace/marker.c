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
 * every walk of the entries. The probe-call path takes no lock: it reads the
 * site's probe array under preempt-disabled RCU; arrays are copied on write
 * and freed after a grace period.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/sections.h>

struct marker_probe {
	marker_probe_func func;
	void *probe_private;
	bool checked;			/* registered with a format */
};

/* What a site's ->probes points to; never changed once published. */
struct marker_probe_array {
	struct rcu_head rcu;
	unsigned int nr;
	struct marker_probe probes[] __counted_by(nr);
};

/* One per marker name with sites or probes; protected by marker_mutex. */
struct marker_entry {
	struct hlist_node hlist;
	struct marker_probe_array *probes;	/* published to the sites */
	/* While an update is being built: */
	struct list_head update;		/* on the update's list */
	struct marker_probe_array *pending;	/* the next array, may be NULL */
	char *pending_format;			/* format the update brings */
	bool in_update;
	/* Settled state: */
	char *format;		/* of the sites and checked probes, or NULL */
	struct marker_field *fields;
	int nr_fields;		/* or -errno if the format does not parse */
	unsigned int nr_markers;	/* sites' struct markers, conflicts excluded */
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
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	struct marker_site *sites;
	unsigned int nr_sites;
#endif
	/*
	 * A module's init text, recorded when it comes up: the loader
	 * forgets it once the module is live, and frees it soon after.
	 */
	unsigned long init_start, init_end;
	bool init_freed;		/* the module is live: init text gone */
	struct rcu_head rcu;
};

#define MARKER_HASH_BITS	6

static DEFINE_MUTEX(marker_mutex);
static DEFINE_HASHTABLE(marker_table, MARKER_HASH_BITS);
static LIST_HEAD(marker_ranges);
static struct marker_range marker_core;

/* Events not delivered because a probe re-entered markers in one context. */
static DEFINE_PER_CPU(unsigned int, marker_nesting);
static DEFINE_PER_CPU(unsigned long, marker_recursion_drops);

/* ---- Probe-call path ---- */

/**
 * __marker_probe_call - call the probes attached to a site
 * @marker: the site's marker
 * @format: the site's format (the same as @marker->format); the arguments
 *	follow it
 *
 * Reached from an enabled site's out-of-line block with the site's
 * arguments. Context: any — task, softirq, hard IRQ, NMI, with the runqueue
 * lock held. Takes no locks, allocates nothing. A probe that fires a marker
 * in the same context (task, softirq, IRQ or NMI) on this CPU is not called
 * again; such events are counted in marker_recursion_drops.
 */
void notrace __marker_probe_call(const struct marker *marker,
				 const char *format, ...)
{
	struct marker_probe_array *array;
	unsigned int bit, i;
	va_list args;

	if (unlikely(!rcu_is_watching()))
		return;

	preempt_disable_notrace();
	bit = 1U << interrupt_context_level();
	if (unlikely(this_cpu_read(marker_nesting) & bit)) {
		this_cpu_inc(marker_recursion_drops);
		goto out;
	}
	this_cpu_or(marker_nesting, bit);

	array = rcu_dereference_sched(marker->probes);
	if (likely(array)) {
		for (i = 0; i < array->nr; i++) {
			va_start(args, format);
			array->probes[i].func(marker,
					      array->probes[i].probe_private,
					      &args);
			va_end(args);
		}
	}

	this_cpu_and(marker_nesting, ~bit);
out:
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__marker_probe_call);

/* ---- Entries ---- */

static struct hlist_head *marker_bucket(const char *name)
{
	return &marker_table[hash_min(full_name_hash(NULL, name, strlen(name)),
				      MARKER_HASH_BITS)];
}

static struct marker_entry *marker_entry_find(const char *name)
{
	struct marker_entry *e;

	lockdep_assert_held(&marker_mutex);
	hlist_for_each_entry(e, marker_bucket(name), hlist)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

static struct marker_entry *marker_entry_get(const char *name)
{
	struct marker_entry *e = marker_entry_find(name);
	size_t len = strlen(name) + 1;

	if (e)
		return e;
	e = kzalloc(struct_size(e, name, len), GFP_KERNEL);
	if (!e)
		return NULL;
	memcpy(e->name, name, len);
	INIT_LIST_HEAD(&e->update);
	hlist_add_head(&e->hlist, marker_bucket(name));
	return e;
}

static unsigned int marker_entry_checked(const struct marker_entry *e)
{
	unsigned int i, n = 0;

	for (i = 0; e->probes && i < e->probes->nr; i++)
		n += e->probes->probes[i].checked;
	return n;
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
	e->fields = fields;
	e->nr_fields = nr;
	return 0;
}

/*
 * Drop what nobody uses any more: the format once no site and no checked
 * probe holds it, the entry once it has neither sites nor probes.
 */
static void marker_entry_settle(struct marker_entry *e)
{
	if (!e->nr_markers && !marker_entry_checked(e))
		marker_entry_clear_format(e);
	if (e->nr_markers || e->probes || e->in_update)
		return;
	hlist_del(&e->hlist);
	kfree(e);
}

/* ---- Sites ---- */

static bool marker_range_init_freed(const struct marker_range *r,
				    unsigned long code)
{
	if (r->mod)
		return READ_ONCE(r->init_freed) && code >= r->init_start &&
		       code < r->init_end;
	return is_kernel_inittext(code) &&
	       system_state >= SYSTEM_FREEING_INITMEM;
}

#ifdef CONFIG_HAVE_ARCH_MARKER_SITES

static int marker_site_cmp(const void *a, const void *b)
{
	unsigned long ca = marker_site_code(a), cb = marker_site_code(b);

	return ca < cb ? -1 : ca > cb;
}

/* Entries hold offsets relative to themselves: moving one rebases them. */
static void marker_site_swap(void *a, void *b, int size)
{
	long delta = (unsigned long)a - (unsigned long)b;
	struct marker_site *sa = a, *sb = b, tmp = *sa;

	sa->code = sb->code - delta;
	sa->target = sb->target - delta;
	sa->marker = sb->marker - delta;
	sb->code = tmp.code + delta;
	sb->target = tmp.target + delta;
	sb->marker = tmp.marker + delta;
}

static void marker_range_sort(struct marker_range *r)
{
	sort(r->sites, r->nr_sites, sizeof(*r->sites), marker_site_cmp,
	     marker_site_swap);
}

/* Is @marker being turned on or off by the update being committed? */
static struct marker_entry *marker_changing(const struct marker *marker,
					    bool *on)
{
	struct marker_entry *e;

	if (marker->flags & MARKER_FLAG_CONFLICT)
		return NULL;
	e = marker_entry_find(marker->name);
	if (!e || !e->in_update || !e->probes == !e->pending)
		return NULL;
	*on = e->pending;
	return e;
}

/* Check, before anything changes, that every site to enable is a NOP. */
static int marker_sites_check(void)
{
	struct marker_range *r;
	struct marker_site *s;
	bool on;
	int ret;

	list_for_each_entry(r, &marker_ranges, list) {
		for (s = r->sites; s < r->sites + r->nr_sites; s++) {
			if (!marker_changing(marker_site_marker(s), &on) || !on ||
			    marker_range_init_freed(r, marker_site_code(s)))
				continue;
			ret = arch_marker_site_check(s, false);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * Patch the sites of @r whose marker's state differs from the code: all of
 * them for a module coming up, or those the current update changes. A site
 * found holding something unexpected is left alone (warned about by the
 * arch code); the marker's probes are already unpublished when disabling.
 */
static unsigned int marker_range_patch(struct marker_range *r, bool all)
{
	unsigned int queued = 0;
	struct marker_site *s;
	struct marker *m;
	bool on;

	for (s = r->sites; s < r->sites + r->nr_sites; s++) {
		m = marker_site_marker(s);
		if (all) {
			on = READ_ONCE(m->state);
			if (!on)
				continue;
		} else if (!marker_changing(m, &on)) {
			continue;
		}
		if (marker_range_init_freed(r, marker_site_code(s)) ||
		    arch_marker_site_check(s, !on))
			continue;
		arch_marker_site_queue(s, on);
		queued++;
	}
	return queued;
}

static void marker_sites_patch(void)
{
	struct marker_range *r;
	unsigned int queued = 0;

	list_for_each_entry(r, &marker_ranges, list)
		queued += marker_range_patch(r, false);
	if (queued)
		arch_marker_site_apply();
}

static void marker_range_patch_all(struct marker_range *r)
{
	if (marker_range_patch(r, true))
		arch_marker_site_apply();
}

static bool marker_range_reserved(const struct marker_range *r,
				  unsigned long start, unsigned long end)
{
	struct marker_site *s;
	unsigned long code;

	for (s = r->sites; s < r->sites + r->nr_sites; s++) {
		code = marker_site_code(s);
		if (code <= end && start < code + MARKER_SITE_SIZE &&
		    !marker_range_init_freed(r, code))
			return true;
	}
	return false;
}

static void marker_core_sites_init(void)
{
	marker_core.sites = __start___marker_sites;
	marker_core.nr_sites = __stop___marker_sites - __start___marker_sites;
	marker_range_sort(&marker_core);
}

#else /* !CONFIG_HAVE_ARCH_MARKER_SITES */

static int marker_sites_check(void)
{
	return 0;
}

static void marker_sites_patch(void)
{
}

static void marker_range_patch_all(struct marker_range *r)
{
}

static bool marker_range_reserved(const struct marker_range *r,
				  unsigned long start, unsigned long end)
{
	return false;
}

static void marker_core_sites_init(void)
{
}

#endif /* CONFIG_HAVE_ARCH_MARKER_SITES */

/* Give every site of the names in the update its new probes and state. */
static void marker_sites_publish(void)
{
	struct marker_entry *e;
	struct marker_range *r;
	struct marker *m;

	list_for_each_entry(r, &marker_ranges, list) {
		for (m = r->markers; m < r->markers + r->nr_markers; m++) {
			if (m->flags & MARKER_FLAG_CONFLICT)
				continue;
			e = marker_entry_find(m->name);
			if (!e || !e->in_update)
				continue;
			rcu_assign_pointer(m->probes, e->pending);
			WRITE_ONCE(m->state, !!e->pending);
		}
	}
}

/* ---- Updates ---- */

/*
 * An update collects probe changes on any number of names, then checks and
 * applies them together: all of them, or none.
 */
struct marker_update {
	struct list_head entries;
};

static void marker_array_free(struct marker_probe_array *array)
{
	if (array)
		kfree_rcu(array, rcu);
}

static struct marker_probe_array *marker_array_alloc(unsigned int nr)
{
	struct marker_probe_array *array;

	array = kzalloc(struct_size(array, probes, nr), GFP_KERNEL);
	if (array)
		array->nr = nr;
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
	struct marker_probe_array *old, *array;
	const char *have;
	struct marker_entry *e;
	unsigned int i, nr;

	if (!req->probe || !marker_name_valid(req->name))
		return -EINVAL;
	if (req->format) {
		struct marker_field *fields;
		int ret;

		fields = kcalloc(MARKER_FIELDS_MAX, sizeof(*fields), GFP_KERNEL);
		if (!fields)
			return -ENOMEM;
		ret = marker_format_parse(req->format, fields,
					  MARKER_FIELDS_MAX);
		kfree(fields);
		if (ret < 0)
			return -EINVAL;
	}

	e = marker_entry_get(req->name);
	if (!e)
		return -ENOMEM;
	marker_update_join(u, e);

	have = e->format ?: e->pending_format;
	if (req->format && have && strcmp(req->format, have)) {
		pr_notice("probe format \"%s\" does not match marker %s format \"%s\"\n",
			  req->format, e->name, have);
		return -EPERM;
	}
	if (req->format && !have) {
		e->pending_format = kstrdup(req->format, GFP_KERNEL);
		if (!e->pending_format)
			return -ENOMEM;
	}

	old = e->pending;
	nr = old ? old->nr : 0;
	for (i = 0; i < nr; i++)
		if (old->probes[i].func == req->probe &&
		    old->probes[i].probe_private == req->probe_private)
			return -EEXIST;

	array = marker_array_alloc(nr + 1);
	if (!array)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		array->probes[i] = old->probes[i];
	array->probes[nr].func = req->probe;
	array->probes[nr].probe_private = req->probe_private;
	array->probes[nr].checked = !!req->format;
	marker_update_set(e, array);
	return 0;
}

/* Remove @probe/@probe_private from @e's pending array; -ENOENT if absent. */
static int marker_update_remove_from(struct marker_update *u,
				     struct marker_entry *e,
				     marker_probe_func probe,
				     void *probe_private)
{
	struct marker_probe_array *old, *array = NULL;
	unsigned int i, j = 0;
	int found = -1;

	old = e->in_update ? e->pending : e->probes;
	for (i = 0; old && i < old->nr; i++)
		if (old->probes[i].func == probe &&
		    old->probes[i].probe_private == probe_private)
			found = i;
	if (found < 0)
		return -ENOENT;

	marker_update_join(u, e);
	if (old->nr > 1) {
		array = marker_array_alloc(old->nr - 1);
		if (!array)
			return -ENOMEM;
		for (i = 0; i < old->nr; i++)
			if (i != found)
				array->probes[j++] = old->probes[i];
	}
	marker_update_set(e, array);
	return 0;
}

static int marker_update_remove(struct marker_update *u,
				const struct marker_probe_request *req)
{
	struct marker_entry *e;

	if (!req->probe || !marker_name_valid(req->name))
		return -EINVAL;
	e = marker_entry_find(req->name);
	if (!e)
		return -ENOENT;
	return marker_update_remove_from(u, e, req->probe, req->probe_private);
}

/* Leave every entry of the update as it was before the update began. */
static void marker_update_abort(struct marker_update *u)
{
	struct marker_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &u->entries, update) {
		marker_update_set(e, NULL);
		kfree(e->pending_format);
		e->pending_format = NULL;
		e->in_update = false;
		list_del_init(&e->update);
		marker_entry_settle(e);
	}
}

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

	ret = marker_sites_check();
	if (ret)
		goto abort;

	marker_sites_publish();
	marker_sites_patch();

	list_for_each_entry_safe(e, tmp, &u->entries, update) {
		if (e->pending != e->probes)
			marker_array_free(e->probes);
		e->probes = e->pending;
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

static int marker_probe_change(const struct marker_probe_request *reqs,
			       unsigned int nr, bool add)
{
	struct marker_update u = { .entries = LIST_HEAD_INIT(u.entries) };
	unsigned int i;
	int ret = 0;

	if (!reqs && nr)
		return -EINVAL;

	cpus_read_lock();
	mutex_lock(&marker_mutex);
	for (i = 0; i < nr && !ret; i++)
		ret = add ? marker_update_add(&u, &reqs[i]) :
			    marker_update_remove(&u, &reqs[i]);
	if (ret)
		marker_update_abort(&u);
	else
		ret = marker_update_commit(&u);
	mutex_unlock(&marker_mutex);
	cpus_read_unlock();
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
 * -EEXIST if @probe with @probe_private is already attached; -EBUSY if a
 * site's code is not what markers left there; -ENOMEM.
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
 * marker_synchronize_unregister() before freeing what it uses.
 *
 * Return: 0; -ENOENT if @probe with @probe_private is not attached to
 * @name; -EINVAL for a NULL probe or an invalid name; -ENOMEM.
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
 * Either every request takes effect or none does.
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
 * Return: 0; -ENOENT if there was none; -EINVAL for a NULL probe; -ENOMEM.
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

	cpus_read_lock();
	mutex_lock(&marker_mutex);
	hash_for_each_safe(marker_table, bkt, tmp, e, hlist) {
		ret = marker_update_remove_from(&u, e, probe, probe_private);
		if (!ret)
			found++;
		else if (ret != -ENOENT)
			break;
		ret = 0;
	}
	if (!ret && !found)
		ret = -ENOENT;
	if (ret)
		marker_update_abort(&u);
	else
		ret = marker_update_commit(&u);
	mutex_unlock(&marker_mutex);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_private_data);

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

/* Detach the markers of @r below @end from their entries. */
static void marker_range_detach(struct marker_range *r, struct marker *end)
{
	struct marker_entry *e;
	struct marker *m;

	for (m = r->markers; m < end; m++) {
		if (m->flags & MARKER_FLAG_CONFLICT)
			continue;
		e = marker_entry_find(m->name);
		if (WARN_ON_ONCE(!e || !e->nr_markers))
			continue;
		e->nr_markers--;
		RCU_INIT_POINTER(m->probes, NULL);
		WRITE_ONCE(m->state, 0);
		marker_entry_settle(e);
	}
}

/*
 * Attach the markers of a new range to their entries: their probes and
 * state come from the entry; a site whose format differs from its name's is
 * left disabled for good. Caller holds marker_mutex.
 */
static int marker_range_attach(struct marker_range *r)
{
	const char *owner = r->mod ? r->mod->name : "vmlinux";
	struct marker_entry *e;
	struct marker *m;
	char *format;

	for (m = r->markers; m < r->markers + r->nr_markers; m++) {
		e = marker_entry_get(m->name);
		if (!e)
			goto nomem;
		if (!e->format) {
			format = kstrdup(m->format, GFP_KERNEL);
			if (!format || marker_entry_set_format(e, format)) {
				marker_entry_settle(e);
				goto nomem;
			}
		} else if (strcmp(e->format, m->format)) {
			if (!(m->flags & MARKER_FLAG_CONFLICT))
				pr_warn("marker %s in %s has format \"%s\", others have \"%s\": left disabled\n",
					m->name, owner, m->format, e->format);
			m->flags |= MARKER_FLAG_CONFLICT;
			continue;
		}
		e->nr_markers++;
		rcu_assign_pointer(m->probes, e->probes);
		WRITE_ONCE(m->state, !!e->probes);
	}
	return 0;

nomem:
	marker_range_detach(r, m);
	return -ENOMEM;
}

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

#ifdef CONFIG_MODULES

static struct marker_range *marker_module_range(struct module *mod)
{
	struct marker_range *r;

	list_for_each_entry(r, &marker_ranges, list)
		if (r->mod == mod)
			return r;
	return NULL;
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
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	r->sites = mod->marker_sites;
	r->nr_sites = mod->num_marker_sites;
	marker_range_sort(r);
#endif
	ret = marker_range_attach(r);
	if (ret) {
		kfree(r);
		return ret;
	}
	marker_range_insert(r);
	marker_range_patch_all(r);
	return 0;
}

static void marker_module_going(struct module *mod)
{
	struct marker_range *r = marker_module_range(mod);

	if (!r)
		return;
	list_del_rcu(&r->list);
	marker_range_detach(r, r->markers + r->nr_markers);
	kfree_rcu(r, rcu);
}

static int marker_module_notify(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct module *mod = data;
	struct marker_range *r;
	int ret = 0;

	cpus_read_lock();
	mutex_lock(&marker_mutex);
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
	mutex_unlock(&marker_mutex);
	cpus_read_unlock();
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
 * Lets kprobes refuse addresses that marker updates rewrite. Context: any;
 * lock-free (RCU), callers run it with preemption disabled.
 *
 * Return: true if a site overlaps the range.
 */
bool marker_text_reserved(void *start, void *end)
{
	struct marker_range *r;
	bool found = false;

	rcu_read_lock_sched();
	list_for_each_entry_rcu(r, &marker_ranges, list) {
		if (marker_range_reserved(r, (unsigned long)start,
					  (unsigned long)end)) {
			found = true;
			break;
		}
	}
	rcu_read_unlock_sched();
	return found;
}

#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
static int marker_range_iterate_sites(struct marker_range *r,
				      marker_site_func_t fn, void *data)
{
	struct marker_site_info info = { };
	struct marker_site *s;
	int ret;

	info.mod = r->mod;
	for (s = r->sites; s < r->sites + r->nr_sites; s++) {
		info.marker = marker_site_marker(s);
		info.code = marker_site_code(s);
		info.target = marker_site_target(s);
		info.enabled = READ_ONCE(info.marker->state);
		info.init_freed = marker_range_init_freed(r, info.code);
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

/* ---- debugfs: markers/sites and markers/stats ---- */

#ifdef CONFIG_DEBUG_FS

static const char *marker_site_state(const struct marker_site_info *info)
{
	if (info->marker->flags & MARKER_FLAG_CONFLICT)
		return "conflict";
	if (info->init_freed)
		return "init-freed";
	return info->enabled ? "enabled" : "disabled";
}

static int marker_site_show(const struct marker_site_info *info, void *data)
{
	struct seq_file *seq = data;
	u8 bytes[8] = { };
	size_t len = 0;

#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	len = MARKER_SITE_SIZE;
	if (info->init_freed ||
	    copy_from_kernel_nofault(bytes, (void *)info->code, len))
		memset(bytes, 0, len);
#endif
	seq_printf(seq, "%s %s %s 0x%016lx 0x%016lx %*phN %pS\n",
		   info->marker->name,
		   info->mod ? module_name(info->mod) : "vmlinux",
		   marker_site_state(info), info->code, info->target,
		   (int)len, bytes, (void *)info->code);
	return 0;
}

static int marker_sites_show(struct seq_file *seq, void *v)
{
	return marker_iterate_sites(marker_site_show, seq);
}
DEFINE_SHOW_ATTRIBUTE(marker_sites);

static int marker_stats_show(struct seq_file *seq, void *v)
{
	unsigned long drops = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		drops += per_cpu(marker_recursion_drops, cpu);
	seq_printf(seq, "recursion_drops %lu\n", drops);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_stats);

static int __init marker_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("markers", NULL);

	debugfs_create_file("sites", 0400, dir, NULL, &marker_sites_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &marker_stats_fops);
	return 0;
}
fs_initcall(marker_debugfs_init);

#endif /* CONFIG_DEBUG_FS */

static int __init marker_init(void)
{
	int ret;

	BUILD_BUG_ON(sizeof(struct marker) % 8);

	marker_core.markers = __start___markers;
	marker_core.nr_markers = __stop___markers - __start___markers;
	marker_core_sites_init();

	mutex_lock(&marker_mutex);
	list_add_rcu(&marker_core.list, &marker_ranges);
	ret = marker_range_attach(&marker_core);
	mutex_unlock(&marker_mutex);
	if (ret)
		return ret;
	return marker_modules_init();
}
early_initcall(marker_init);
