// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: the listings of sites and names.
 *
 * What the registry tells its readers (the tracefs face, the benchmark,
 * the tests): every site of the core kernel and of loaded modules with its
 * state and bytes, and every name with sites as the registry sees it. Each
 * walk holds marker_mutex, so nothing it reports is patched or freed while
 * a callback reads it; nothing here changes the registry.
 */
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker_internal.h"

/* "conflict", "init-freed", "busy", "enabled" or "disabled". */
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

/*
 * Append @module to @modules (MARKER_MODULES_LEN bytes) unless it is
 * there; "..." when full.
 */
VISIBLE_IF_KUNIT void marker_add_module(char *modules, const char *module)
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

/**
 * marker_iterate_names - call a function for every marker name with sites
 * @fn: called with each name, in no particular order; a non-zero return
 *	stops the walk
 * @data: passed to @fn
 *
 * The registry's own view of each name: its sites, those left out, the
 * modules that hold them, and its format and fields, parsed again here
 * (the registry keeps the number of fields only). Names that only probes
 * wait for are not reported.
 *
 * Context: process; takes the marker mutex, so @fn must not register or
 * unregister probes. @info is valid only during the call.
 *
 * Return: the first non-zero value returned by @fn, or 0.
 */
int marker_iterate_names(marker_name_func_t fn, void *data)
{
	struct marker_name_info *info;
	struct marker_field *fields;
	struct marker_entry *e;
	struct marker_link *l;
	unsigned int bkt;
	int ret = 0;

	info = marker_alloc(1, sizeof(*info));
	fields = marker_alloc(MARKER_FIELDS_MAX, sizeof(*fields));
	if (!info || !fields) {
		kfree(info);
		kfree(fields);
		return -ENOMEM;
	}
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
		if (info->format)
			info->nr_fields = e->nr_fields;
		/* The parse marker_entry_set_format() counted, again. */
		if (info->format && e->nr_fields > 0) {
			info->nr_fields = marker_format_parse(e->format, fields,
							      MARKER_FIELDS_MAX);
			info->fields = info->nr_fields > 0 ? fields : NULL;
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
	kfree(fields);
	return ret;
}
