// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing two event sets, each change with its class (see
 * Documentation/trace/markers.rst, "Classes of change"):
 *
 *  compatible	a field appended at the end of a stable marker, a new
 *		marker, any change to a debug ("__") marker, a format printed
 *		differently with the same fields, a site added, removed or
 *		moved to another function: no reader notices.
 *  stability	a marker turned from stable to debug or back (its name
 *		gained or lost the "__"): readers work today; the promise
 *		changed.
 *  unfired	a marker still declared (DECLARE_MARKER()) with no site
 *		left: tools attach and never hear from it.
 *  layout	a stable marker's record changed under its readers: a field
 *		inserted, removed, renamed, reordered or retyped, between a
 *		fixed size and a dynamic (__data_loc) string, moved to
 *		another offset, or the common fields changed. Readers with
 *		hard-coded offsets break; readers that parse the format file
 *		survive unless a field they name is gone.
 *  removed	a stable marker removed or renamed: every reader breaks.
 *
 * One line per change, "<class>: <marker>: ...", with what binary and
 * format-parsing readers do; or, with --json, one object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers-abi.h"

/* One change found, kept until all are found (JSON prints them at once). */
struct abi_change {
	enum abi_class class;
	const char *marker;
	const char *field;		/* or NULL */
	char what[128];
	const char *old;		/* or NULL: no "old -> new" */
	const char *new;
	bool binary_survive;
	bool format_survive;
};

struct abi_changes {
	struct abi_change *list;
	int nr;
	enum abi_class worst;
};

static const char *const abi_class_names[] = {
	[ABI_NONE] = "none",
	[ABI_COMPATIBLE] = "compatible",
	[ABI_STABILITY] = "stability",
	[ABI_UNFIRED] = "unfired",
	[ABI_LAYOUT] = "layout",
	[ABI_REMOVED] = "removed",
};

static struct abi_change *abi_change(struct abi_changes *c, enum abi_class class,
				     const char *marker, const char *field,
				     const char *what)
{
	struct abi_change *ch, *grown;

	grown = realloc(c->list, (c->nr + 1) * sizeof(*grown));
	if (!grown) {
		fprintf(stderr, "markers-abi: out of memory\n");
		exit(ABI_EXIT_ERROR);
	}
	c->list = grown;
	ch = &c->list[c->nr++];
	memset(ch, 0, sizeof(*ch));
	ch->class = class;
	ch->marker = marker;
	ch->field = field;
	snprintf(ch->what, sizeof(ch->what), "%s", what);
	/* What each class costs; a layout change names its exceptions. */
	ch->binary_survive = class == ABI_COMPATIBLE || class == ABI_STABILITY;
	ch->format_survive = class != ABI_UNFIRED && class != ABI_REMOVED;
	if (class > c->worst)
		c->worst = class;
	return ch;
}

static void abi_change_types(struct abi_change *ch, const char *old,
			     const char *new)
{
	ch->old = old;
	ch->new = new;
}

static int abi_field_index(const struct abi_marker *m, const char *name)
{
	int i;

	for (i = 0; i < m->nr_fields; i++) {
		if (!strcmp(m->fields[i].name, name))
			return i;
	}
	return -1;
}

static void abi_layout(struct abi_changes *c, const struct abi_marker *m,
		       const char *field, const char *what, const char *old_type,
		       const char *new_type, bool format_survive)
{
	struct abi_change *ch = abi_change(c, ABI_LAYOUT, m->name, field, what);

	abi_change_types(ch, old_type, new_type);
	ch->format_survive = format_survive;
}

/* A field kept its name and changed its type: in place, or its layout. */
static void abi_diff_type(struct abi_changes *c, const struct abi_marker *m,
			  const struct abi_field *of, const struct abi_field *nf)
{
	const char *what = "retyped";

	if (of->dynamic != nf->dynamic)
		what = of->dynamic ? "dynamic -> fixed" : "fixed -> dynamic";
	abi_layout(c, m, of->name, what, of->ctype, nf->ctype, true);
}

/* The fields of a stable marker present on both sides. */
static void abi_diff_fields(struct abi_changes *c, const struct abi_marker *o,
			    const struct abi_marker *n)
{
	bool used[MARKER_FIELDS_MAX] = { false };
	char what[MARKER_FIELD_NAME_MAX + 64];
	int i, j;

	for (i = 0; i < o->nr_fields; i++) {
		const struct abi_field *of = &o->fields[i];
		const struct abi_field *nf;

		j = abi_field_index(n, of->name);
		if (j < 0)
			continue;
		used[j] = true;
		nf = &n->fields[j];
		if (strcmp(of->ctype, nf->ctype))
			abi_diff_type(c, o, of, nf);
		if (i != j) {
			snprintf(what, sizeof(what), "reordered, position %d -> %d",
				 i, j);
			abi_layout(c, o, of->name, what, of->ctype, nf->ctype, true);
		}
		/* Moved by a change before it: binary readers read the old place. */
		if (!strcmp(of->ctype, nf->ctype) && i == j &&
		    of->offset != nf->offset) {
			snprintf(what, sizeof(what), "offset %u -> %u",
				 of->offset, nf->offset);
			abi_layout(c, o, of->name, what, of->ctype, nf->ctype, true);
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
			abi_layout(c, o, of->name, what, of->ctype,
				   n->fields[i].ctype, false);
		} else {
			abi_layout(c, o, of->name, "removed", of->ctype, "none",
				   false);
		}
	}

	for (j = 0; j < n->nr_fields; j++) {
		if (used[j])
			continue;
		if (j >= o->nr_fields) {
			abi_change_types(abi_change(c, ABI_COMPATIBLE, n->name,
						    n->fields[j].name, "appended"),
					 "none", n->fields[j].ctype);
		} else {
			snprintf(what, sizeof(what),
				 "inserted at position %d, before existing fields", j);
			abi_layout(c, n, n->fields[j].name, what, "none",
				   n->fields[j].ctype, true);
		}
	}
}

/* The common fields that start every record: any change moves them all. */
static void abi_diff_common(struct abi_changes *c, const struct abi_set *old,
			    const struct abi_set *new)
{
	static char text[ABI_COMMON_MAX * 4][64];
	const struct abi_set *side[2] = { old, new };
	int i, j, s, t = 0;

	for (s = 0; s < 2; s++) {
		const struct abi_set *a = side[s], *b = side[!s];

		for (i = 0; i < a->nr_common; i++) {
			const struct abi_common *ac = &a->common[i];
			const struct abi_common *bc = NULL;
			struct abi_change *ch;

			for (j = 0; j < b->nr_common; j++) {
				if (!strcmp(b->common[j].name, ac->name))
					bc = &b->common[j];
			}
			if (bc && (s || (bc->offset == ac->offset &&
					 bc->size == ac->size &&
					 !strcmp(bc->ctype, ac->ctype))))
				continue;
			snprintf(text[t], sizeof(text[t]), "%s at offset %u", ac->ctype,
				 ac->offset);
			if (bc)
				snprintf(text[t + 1], sizeof(text[t + 1]),
					 "%s at offset %u", bc->ctype, bc->offset);
			ch = abi_change(c, ABI_LAYOUT, "common fields", ac->name,
					!bc ? (s ? "added" : "removed") : "moved");
			if (s)
				abi_change_types(ch, "none", text[t]);
			else
				abi_change_types(ch, text[t], bc ? text[t + 1] : "none");
			/* A format reader that names a removed one breaks. */
			ch->format_survive = s || bc;
			t += 2;
		}
	}
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
static void abi_diff_sites(struct abi_changes *c, const struct abi_marker *o,
			   const struct abi_marker *n)
{
	const struct abi_marker *side[2] = { o, n };
	char what[300];
	int i, s;

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
			snprintf(what, sizeof(what), "sites in %.*s: %d -> %d",
				 (int)len, site, before, after);
			abi_change(c, ABI_COMPATIBLE, o->name, NULL, what);
		}
	}
}

static void abi_diff_marker(struct abi_changes *c, const struct abi_set *old,
			    const struct abi_set *new, const struct abi_marker *o,
			    const struct abi_marker *n)
{
	int nr = c->nr;

	/* A debug marker promises nothing: its format line says it all. */
	if (!o->debug)
		abi_diff_fields(c, o, n);
	/* Field lines name what changed; else show the formats. */
	if (c->nr == nr && strcmp(o->format, n->format))
		abi_change_types(abi_change(c, ABI_COMPATIBLE, o->name, NULL,
					    "format"),
				 o->format, n->format);
	if (old->has_typed && new->has_typed && o->typed != n->typed)
		abi_change(c, ABI_COMPATIBLE, o->name, NULL,
			   n->typed ? "now typed" : "no longer typed");
	if (old->has_sites && new->has_sites)
		abi_diff_sites(c, o, n);
}

/* A baseline covers one subsystem's stable markers: compare only those. */
static bool abi_compared(const struct abi_set *a, const struct abi_set *b,
			 const struct abi_marker *m)
{
	return (!a->baseline || abi_in_baseline(a->baseline, m)) &&
	       (!b->baseline || abi_in_baseline(b->baseline, m));
}

static bool abi_same_fields(const struct abi_marker *a, const struct abi_marker *b)
{
	int i;

	if (a->nr_fields != b->nr_fields)
		return false;
	for (i = 0; i < a->nr_fields; i++) {
		if (strcmp(a->fields[i].name, b->fields[i].name) ||
		    strcmp(a->fields[i].ctype, b->fields[i].ctype))
			return false;
	}
	return true;
}

/*
 * The marker of @new that @o (gone from @new) became: the same fields
 * under a name that extends or shortens @o's ("sched_foo" ->
 * "sched_foo_tp"), a new name.
 */
static const struct abi_marker *abi_renamed(const struct abi_set *old,
					    const struct abi_set *new,
					    const struct abi_marker *o)
{
	size_t len = strlen(o->name);
	int i;

	for (i = 0; i < new->nr_markers; i++) {
		const struct abi_marker *n = &new->markers[i];
		size_t nlen = strlen(n->name);

		if (n->debug != o->debug || abi_set_find(old, n->name) ||
		    !abi_same_fields(o, n))
			continue;
		if (!strncmp(n->name, o->name, nlen < len ? nlen : len))
			return n;
	}
	return NULL;
}

/* @o's name with "__" added or taken away: its stability changed. */
static const struct abi_marker *abi_restabled(const struct abi_set *new,
					      const struct abi_marker *o)
{
	char name[MARKER_NAME_MAX + 2];

	if (o->debug)
		return abi_set_find(new, o->name + 2);
	snprintf(name, sizeof(name), "__%s", o->name);
	return abi_set_find(new, name);
}

static void abi_diff_gone(struct abi_changes *c, const struct abi_set *old,
			  const struct abi_set *new, const struct abi_marker *o)
{
	const struct abi_marker *n = abi_restabled(new, o);
	char what[MARKER_NAME_MAX + 32];

	if (n && !abi_set_find(old, n->name)) {
		abi_change_types(abi_change(c, ABI_STABILITY, o->name, NULL,
					    "stability"),
				 o->debug ? "debug" : "stable", n->name);
		return;
	}
	if (o->debug) {
		abi_change(c, ABI_COMPATIBLE, o->name, NULL, "debug marker removed");
		return;
	}
	n = abi_renamed(old, new, o);
	if (n)
		snprintf(what, sizeof(what), "stable marker renamed to %s", n->name);
	else
		snprintf(what, sizeof(what), "stable marker removed");
	abi_change(c, ABI_REMOVED, o->name, NULL, what);
}

/* A marker of @new not in @old: new, or what a gone one became. */
static void abi_diff_new(struct abi_changes *c, const struct abi_set *old,
			 const struct abi_set *new, const struct abi_marker *n)
{
	int i;

	for (i = 0; i < old->nr_markers; i++) {
		const struct abi_marker *o = &old->markers[i];

		if (abi_set_find(new, o->name) || !abi_compared(old, new, o))
			continue;
		if (abi_restabled(new, o) == n || abi_renamed(old, new, o) == n)
			return;
	}
	abi_change(c, ABI_COMPATIBLE, n->name, NULL,
		   n->debug ? "new debug marker" : "new stable marker");
}

static void abi_print_change(const struct abi_change *ch)
{
	printf("%s: %s: ", abi_class_names[ch->class], ch->marker);
	if (ch->field)
		printf("field %s: ", ch->field);
	if (ch->class == ABI_STABILITY)
		printf("%s -> %s, now %s", ch->old, ch->old[0] == 's' ? "debug" : "stable",
		       ch->new);
	else if (ch->old && ch->class == ABI_COMPATIBLE && !ch->field)
		printf("%s: \"%s\" -> \"%s\"", ch->what, ch->old, ch->new);
	else if (ch->old)
		printf("%s: %s -> %s", ch->what, ch->old, ch->new);
	else
		printf("%s", ch->what);
	if (ch->class != ABI_COMPATIBLE)
		printf(" (binary readers %s, format readers %s)",
		       ch->binary_survive ? "survive" : "break",
		       ch->format_survive ? "survive" : "break");
	printf("\n");
}

static void abi_json_string(const char *key, const char *value)
{
	printf("\"%s\": ", key);
	if (!value) {
		printf("null");
		return;
	}
	putchar('"');
	for (; *value; value++) {
		if (*value == '"' || *value == '\\')
			printf("\\%c", *value);
		else if ((unsigned char)*value < 0x20)
			printf("\\u%04x", *value);
		else
			putchar(*value);
	}
	putchar('"');
}

static void abi_print_json_changes(const struct abi_set *old,
				   const struct abi_set *new,
				   const struct abi_changes *c)
{
	int i;

	printf("{\n  ");
	abi_json_string("old", old->source);
	printf(",\n  ");
	abi_json_string("new", new->source);
	printf(",\n  ");
	abi_json_string("class", abi_class_names[c->worst]);
	printf(",\n  \"changes\": [");
	for (i = 0; i < c->nr; i++) {
		const struct abi_change *ch = &c->list[i];

		printf("%s\n    { ", i ? "," : "");
		abi_json_string("class", abi_class_names[ch->class]);
		printf(", ");
		abi_json_string("marker", ch->marker);
		printf(", ");
		abi_json_string("field", ch->field);
		printf(", ");
		abi_json_string("change", ch->class == ABI_STABILITY ?
				(ch->old[0] == 's' ? "stable -> debug" :
				 "debug -> stable") : ch->what);
		printf(", ");
		abi_json_string("old", ch->old);
		printf(", ");
		abi_json_string("new", ch->new);
		printf(", \"binary_readers\": \"%s\", \"format_readers\": \"%s\" }",
		       ch->binary_survive ? "survive" : "break",
		       ch->format_survive ? "survive" : "break");
	}
	printf("%s]\n}\n", c->nr ? "\n  " : "");
}

/**
 * abi_diff - print the changes from @old to @new, classified
 * @old: the earlier event set (a build, a report or a baseline)
 * @new: the later one
 * @json: print them as one JSON object instead of one line each
 *
 * Return: the class of the change found that costs tools most
 * (ABI_NONE if nothing changed).
 */
int abi_diff(const struct abi_set *old, const struct abi_set *new, bool json)
{
	struct abi_changes c = { 0 };
	int i;

	abi_diff_common(&c, old, new);
	for (i = 0; i < old->nr_markers; i++) {
		const struct abi_marker *o = &old->markers[i];
		const struct abi_marker *n = abi_set_find(new, o->name);

		if (!abi_compared(old, new, o))
			continue;
		if (n)
			abi_diff_marker(&c, old, new, o, n);
		else
			abi_diff_gone(&c, old, new, o);
	}
	for (i = 0; i < new->nr_markers; i++) {
		const struct abi_marker *n = &new->markers[i];
		const struct abi_marker *o = abi_set_find(old, n->name);

		if (!abi_compared(old, new, n))
			continue;
		if (!o)
			abi_diff_new(&c, old, new, n);
		if (abi_unfired(new, n) && !(o && abi_unfired(old, o)))
			abi_change(&c, ABI_UNFIRED, n->name, NULL,
				   "declared with no site left: attaches and never fires");
	}
	if (json) {
		abi_print_json_changes(old, new, &c);
	} else {
		for (i = 0; i < c.nr; i++)
			abi_print_change(&c.list[i]);
	}
	free(c.list);
	return c.worst;
}
