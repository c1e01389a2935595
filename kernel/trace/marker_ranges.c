// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: ranges of markers.
 *
 * A range is the core kernel's markers and sites, or one module's. This
 * file links a range's markers and sites to the registry's names when it
 * comes (the core kernel's at boot, a module's from marker_module.c) and
 * unlinks them when it goes. It does not change probes (marker.c) nor
 * patch a site (marker_sites.c). Everything here runs with marker_mutex
 * held.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "marker_internal.h"

/* ---- Ranges: the core kernel and modules ---- */

/*
 * Attach one struct marker of range @r to @e: it takes @e's probes and
 * state, or is left out as a conflict if its format is not @e's. The first
 * marker of a name without a format gives it its format.
 *
 * Return: 0, or -ENOMEM when the format cannot be copied.
 */
int marker_attach(struct marker_range *r, struct marker *m,
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
 * Detach the first @nr_markers markers of @r and the first @nr_sites of
 * its sorted sites from their entries.
 */
void marker_range_detach(struct marker_range *r, unsigned int nr_markers,
			 unsigned int nr_sites)
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
int marker_range_attach(struct marker_range *r)
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
	r->links = marker_alloc(r->nr_markers + nr_sites, sizeof(*r->links));
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
	marker_range_link_sites(r);
	return 0;
}
