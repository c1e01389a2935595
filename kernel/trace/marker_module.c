// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: modules coming and going.
 *
 * A module's markers and sites are in its own __markers and __marker_sites
 * sections (struct module records them, as for tracepoints and jump
 * labels). When it comes up they become a range of the registry, sorted,
 * linked to their names and patched to their names' state; when it is
 * live its init text is gone and so are the sites there; when it goes
 * every probe it leaves attached is named and detached, then its range is
 * unlinked and freed after a grace period (marker_text_reserved() reads
 * it without locks). This file owns the module notifier and nothing else:
 * names and probes are marker.c's, site bytes marker_sites.c's.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "marker_internal.h"

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
	marker_range_free_sites(r);
	kfree(r);
}

static void marker_range_free_rcu(struct rcu_head *head)
{
	marker_range_free(container_of(head, struct marker_range, rcu));
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
	ret = marker_range_module_sites(r, mod);
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

/* After marker_init() (early), before any module can load. */
static int __init marker_modules_init(void)
{
	return register_module_notifier(&marker_module_nb);
}
core_initcall(marker_modules_init);
