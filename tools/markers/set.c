// SPDX-License-Identifier: GPL-2.0
/* An event set: markers by name, each with its fields and sites. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers-abi.h"

int abi_error(const char *file, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "markers-abi: %s: ", file);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	return -1;
}

void *abi_alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		fprintf(stderr, "markers-abi: out of memory\n");
		exit(2);
	}
	return p;
}

char *abi_strdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(abi_alloc(len), s, len);
}

struct abi_marker *abi_set_find(const struct abi_set *set, const char *name)
{
	int i;

	for (i = 0; i < set->nr_markers; i++) {
		if (!strcmp(set->markers[i].name, name))
			return &set->markers[i];
	}
	return NULL;
}

/**
 * abi_set_add - add a site of marker @name to @set
 * @set: the event set
 * @name: the marker's name
 * @format: its format at this site
 * @where: the file it comes from, for errors
 *
 * A name seen before keeps its first format; a different one marks the
 * marker as a conflict, as the registry does at boot.
 *
 * Return: the marker, or NULL (an error was printed) if @format cannot be
 * parsed.
 */
struct abi_marker *abi_set_add(struct abi_set *set, const char *name,
			       const char *format, const char *where)
{
	struct abi_marker *marker = abi_set_find(set, name);
	struct abi_marker *grown;

	if (marker) {
		if (strcmp(marker->format, format))
			marker->conflict = true;
		return marker;
	}

	grown = realloc(set->markers, (set->nr_markers + 1) * sizeof(*grown));
	if (!grown) {
		fprintf(stderr, "markers-abi: out of memory\n");
		exit(2);
	}
	set->markers = grown;
	marker = &set->markers[set->nr_markers];
	memset(marker, 0, sizeof(*marker));
	marker->nr_fields = abi_parse_format(format, marker->fields);
	if (marker->nr_fields < 0) {
		abi_error(where, "marker %s: format \"%s\" cannot be parsed",
			  name, format);
		return NULL;
	}
	marker->name = abi_strdup(name);
	marker->format = abi_strdup(format);
	marker->debug = name[0] == '_' && name[1] == '_';
	set->nr_markers++;
	return marker;
}

int abi_marker_add_site(struct abi_marker *marker, const char *site)
{
	char **grown;

	grown = realloc(marker->sites, (marker->nr_sites + 1) * sizeof(*grown));
	if (!grown) {
		fprintf(stderr, "markers-abi: out of memory\n");
		exit(2);
	}
	marker->sites = grown;
	marker->sites[marker->nr_sites++] = abi_strdup(site);
	return 0;
}

static int abi_compare_strings(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int abi_compare_markers(const void *a, const void *b)
{
	const struct abi_marker *ma = a, *mb = b;
	int ret = strcmp(ma->subsystem ? ma->subsystem : "",
			 mb->subsystem ? mb->subsystem : "");

	return ret ? ret : strcmp(ma->name, mb->name);
}

/* Subsystems by name, markers by name in each, sites by name: stable text. */
void abi_set_sort(struct abi_set *set)
{
	int i;

	for (i = 0; i < set->nr_markers; i++)
		qsort(set->markers[i].sites, set->markers[i].nr_sites,
		      sizeof(char *), abi_compare_strings);
	qsort(set->markers, set->nr_markers, sizeof(*set->markers),
	      abi_compare_markers);
}

/*
 * A subsystem's baseline holds its stable markers: those its header
 * (include/trace/markers/<subsystem>.h) declares, named <subsystem>_<event>.
 */
bool abi_in_baseline(const char *baseline, const struct abi_marker *marker)
{
	size_t len = strlen(baseline);

	return !marker->debug && !strncmp(marker->name, baseline, len) &&
	       marker->name[len] == '_';
}

/*
 * A marker DECLARE_MARKER() defines in the files read that has no site in
 * any of them: tools can attach to it, and it never fires.
 */
bool abi_unfired(const struct abi_set *set, const struct abi_marker *marker)
{
	return set->has_sites && marker->declared && !marker->nr_sites;
}
