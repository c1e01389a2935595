// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing two event sets. What a tool that reads a stable marker by its
 * field names and types relies on may not change: removing or renaming a
 * stable marker, removing, renaming, retyping or reordering one of its
 * fields, or inserting one before the last, is breaking. Anything else is
 * compatible and listed: a field appended at the end, a new marker, any
 * change to a debug ("__") marker, a format printed differently with the
 * same fields, a site added, removed or moved to another function.
 *
 * One line per change, "breaking: " or "compatible: ", then the marker,
 * the field and its type before and after ("none" where there is none).
 */
#include <stdio.h>
#include <string.h>

#include "markers-abi.h"

static int abi_field_index(const struct abi_marker *m, const char *name)
{
	int i;

	for (i = 0; i < m->nr_fields; i++) {
		if (!strcmp(m->fields[i].name, name))
			return i;
	}
	return -1;
}

static int abi_breaking(const struct abi_marker *m, const char *field,
			const char *what, const char *old_type,
			const char *new_type)
{
	printf("breaking: %s: field %s: %s: %s -> %s\n", m->name, field, what,
	       old_type, new_type);
	return ABI_DIFF_BREAKING;
}

/* The fields of a stable marker present on both sides. */
static int abi_diff_fields(const struct abi_marker *o, const struct abi_marker *n)
{
	bool used[MARKER_FIELDS_MAX] = { false };
	char what[MARKER_FIELD_NAME_MAX + 64];
	int i, j, ret = 0;

	for (i = 0; i < o->nr_fields; i++) {
		const struct abi_field *of = &o->fields[i];

		j = abi_field_index(n, of->name);
		if (j < 0)
			continue;
		used[j] = true;
		if (strcmp(of->ctype, n->fields[j].ctype))
			ret |= abi_breaking(o, of->name, "retyped", of->ctype,
					    n->fields[j].ctype);
		if (i != j) {
			snprintf(what, sizeof(what), "reordered, position %d -> %d",
				 i, j);
			ret |= abi_breaking(o, of->name, what, of->ctype,
					    n->fields[j].ctype);
		}
	}

	for (i = 0; i < o->nr_fields; i++) {
		const struct abi_field *of = &o->fields[i];

		if (abi_field_index(n, of->name) >= 0)
			continue;
		/* A new name in the same place is the old field renamed. */
		if (i < n->nr_fields && !used[i] &&
		    abi_field_index(o, n->fields[i].name) < 0) {
			used[i] = true;
			snprintf(what, sizeof(what), "renamed to %s",
				 n->fields[i].name);
			ret |= abi_breaking(o, of->name, what, of->ctype,
					    n->fields[i].ctype);
		} else {
			ret |= abi_breaking(o, of->name, "removed", of->ctype,
					    "none");
		}
	}

	for (j = 0; j < n->nr_fields; j++) {
		if (used[j])
			continue;
		if (j >= o->nr_fields) {
			printf("compatible: %s: field %s: appended: none -> %s\n",
			       n->name, n->fields[j].name, n->fields[j].ctype);
			ret |= ABI_DIFF_COMPATIBLE;
		} else {
			snprintf(what, sizeof(what),
				 "inserted at position %d, before existing fields", j);
			ret |= abi_breaking(n, n->fields[j].name, what, "none",
					    n->fields[j].ctype);
		}
	}
	return ret;
}

/* A site without its offset: the function (and module) holding it. */
static size_t abi_site_key(const char *site)
{
	const char *plus = strrchr(site, '+');

	return plus ? (size_t)(plus - site) : strlen(site);
}

static int abi_count_sites(const struct abi_marker *m, const char *site,
			   size_t len)
{
	int i, n = 0;

	for (i = 0; i < m->nr_sites; i++) {
		if (abi_site_key(m->sites[i]) == len &&
		    !strncmp(m->sites[i], site, len))
			n++;
	}
	return n;
}

static bool abi_same_key(const char *a, const char *b)
{
	size_t len = abi_site_key(a);

	return abi_site_key(b) == len && !strncmp(a, b, len);
}

/*
 * Sites by function: an offset that shifts inside a function is no change
 * worth a line; a site added to or gone from a function is. Sites are
 * sorted, so those of one function are adjacent.
 */
static int abi_diff_sites(const struct abi_marker *o, const struct abi_marker *n)
{
	const struct abi_marker *side[2] = { o, n };
	int i, s, ret = 0;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < side[s]->nr_sites; i++) {
			const char *site = side[s]->sites[i];
			size_t len = abi_site_key(site);
			int before = abi_count_sites(o, site, len);
			int after = abi_count_sites(n, site, len);

			if (i && abi_same_key(side[s]->sites[i - 1], site))
				continue;
			/* A function with sites on both sides: seen in @o. */
			if (before == after || (s == 1 && before))
				continue;
			printf("compatible: %s: sites in %.*s: %d -> %d\n",
			       o->name, (int)len, site, before, after);
			ret = ABI_DIFF_COMPATIBLE;
		}
	}
	return ret;
}

static int abi_diff_marker(const struct abi_set *old, const struct abi_set *new,
			   const struct abi_marker *o, const struct abi_marker *n)
{
	int ret = 0;

	/* A debug marker promises nothing: its format line says it all. */
	if (!o->debug)
		ret = abi_diff_fields(o, n);
	/* Field lines name what changed; else show the formats. */
	if (!ret && strcmp(o->format, n->format)) {
		printf("compatible: %s: format: \"%s\" -> \"%s\"\n", o->name,
		       o->format, n->format);
		ret = ABI_DIFF_COMPATIBLE;
	}
	if (old->has_typed && new->has_typed && o->typed != n->typed) {
		printf("compatible: %s: %s\n", o->name,
		       n->typed ? "now typed" : "no longer typed");
		ret |= ABI_DIFF_COMPATIBLE;
	}
	if (old->has_sites && new->has_sites)
		ret |= abi_diff_sites(o, n);
	return ret;
}

/* A baseline covers one subsystem's stable markers: compare only those. */
static bool abi_compared(const struct abi_set *a, const struct abi_set *b,
			 const struct abi_marker *m)
{
	return (!a->baseline || abi_in_baseline(a->baseline, m)) &&
	       (!b->baseline || abi_in_baseline(b->baseline, m));
}

/**
 * abi_diff - print the changes from @old to @new, classified
 * @old: the earlier event set (a build, a report or a baseline)
 * @new: the later one
 *
 * Return: ABI_DIFF_BREAKING and/or ABI_DIFF_COMPATIBLE, 0 if nothing
 * changed.
 */
int abi_diff(const struct abi_set *old, const struct abi_set *new)
{
	int i, ret = 0;

	for (i = 0; i < old->nr_markers; i++) {
		const struct abi_marker *o = &old->markers[i];
		const struct abi_marker *n = abi_set_find(new, o->name);

		if (!abi_compared(old, new, o))
			continue;
		if (n) {
			ret |= abi_diff_marker(old, new, o, n);
		} else if (o->debug) {
			printf("compatible: %s: debug marker removed\n", o->name);
			ret |= ABI_DIFF_COMPATIBLE;
		} else {
			printf("breaking: %s: stable marker removed or renamed\n",
			       o->name);
			ret |= ABI_DIFF_BREAKING;
		}
	}
	for (i = 0; i < new->nr_markers; i++) {
		const struct abi_marker *n = &new->markers[i];

		if (!abi_compared(old, new, n) || abi_set_find(old, n->name))
			continue;
		printf("compatible: %s: new %s marker\n", n->name,
		       n->debug ? "debug" : "stable");
		ret |= ABI_DIFF_COMPATIBLE;
	}
	return ret;
}
