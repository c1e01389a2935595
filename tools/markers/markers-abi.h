/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_H
#define _MARKERS_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/marker_format.h>

/*
 * The layout of the marker tables in an x86-64 vmlinux or module: the one
 * place this tool knows it. struct marker (include/linux/marker.h) starts
 * with the name and format pointers and ends with the state and flags
 * bytes in its last 8-byte word; its size is read from each file (the
 * size of the __marker_<name> objects), so a pointer added in the middle
 * changes nothing here. MARKER_SIZE is used only for a file without them.
 */
#define MARKER_NAME_OFFSET		0
#define MARKER_FORMAT_OFFSET		8
#define MARKER_FLAGS_OFFSET(size)	((size) - 8 + 1)
#define MARKER_SIZE			40

#define MARKER_FLAG_DEBUG		0x02	/* name starts with "__" */
#define MARKER_FLAG_TYPED		0x04	/* a DECLARE_MARKER() site */

/* struct marker_site: three offsets relative to each field's address. */
#define MARKER_SITE_SIZE		12
#define MARKER_SITE_CODE_OFFSET		0
#define MARKER_SITE_MARKER_OFFSET	8

/* One field of a marker's format, with the C type its conversion reads. */
struct abi_field {
	char name[MARKER_FIELD_NAME_MAX];
	const char *ctype;		/* "unsigned long", "const char *", ... */
};

/* One marker name: all its sites in the files read. */
struct abi_marker {
	char *name;
	char *format;
	char *subsystem;
	const char *origin;		/* "header", "module" or "file" */
	bool debug;
	bool typed;
	bool conflict;			/* sites with different formats */
	struct abi_field fields[MARKER_FIELDS_MAX];
	int nr_fields;
	/*
	 * One per __marker_sites entry, "function+0xoffset"; in a file
	 * without patchable sites one per struct marker, its source file.
	 * "[module] " first in a module.
	 */
	char **sites;
	int nr_sites;
};

/* An event set: a build (one or more ELF files) or a report read back. */
struct abi_set {
	const char *source;		/* the file(s) it came from */
	char *baseline;			/* a baseline's subsystem, or NULL */
	bool has_typed;			/* the typed flag is known */
	bool has_sites;			/* sites are known */
	struct abi_marker *markers;
	int nr_markers;
};

/* fields.c */
int abi_parse_format(const char *format, struct abi_field *fields);

/* set.c */
void *abi_alloc(size_t size);
char *abi_strdup(const char *s);
struct abi_marker *abi_set_find(const struct abi_set *set, const char *name);
struct abi_marker *abi_set_add(struct abi_set *set, const char *name,
			       const char *format, const char *where);
int abi_marker_add_site(struct abi_marker *marker, const char *site);
void abi_set_sort(struct abi_set *set);
bool abi_in_baseline(const char *baseline, const struct abi_marker *marker);
int abi_error(const char *file, const char *fmt, ...);

/* elf.c */
bool abi_is_elf(const char *path);
int abi_read_elf(struct abi_set *set, const char *path);

/* report.c */
void abi_print_text(const struct abi_set *set, const char *baseline);
void abi_print_json(const struct abi_set *set, const char *baseline);
int abi_read_text(struct abi_set *set, const char *path);

/* diff.c */
#define ABI_DIFF_COMPATIBLE	0x1
#define ABI_DIFF_BREAKING	0x2
int abi_diff(const struct abi_set *old, const struct abi_set *new);

#endif /* _MARKERS_ABI_H */
