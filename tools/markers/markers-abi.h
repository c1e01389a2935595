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

/*
 * struct marker_site: three offsets relative to each field's address. The
 * marker's carries flags in its low bits (x86: nonzero for a 2-byte site,
 * zero for a 5-byte one).
 */
#define MARKER_SITE_SIZE		12
#define MARKER_SITE_CODE_OFFSET		0
#define MARKER_SITE_MARKER_OFFSET	8
#define MARKER_SITE_FLAGS		3

/*
 * One field of a marker's format, with the C type its conversion reads
 * and its place in the event record of the tracefs face (the entry of
 * markers:<name>, laid out by kernel/trace/trace_markers.c): after the
 * common fields, in format order, each at its natural alignment; %s and
 * %c are __data_loc char[] strings, a u32 (length << 16 | offset) in the
 * fixed part and the bytes after it.
 */
struct abi_field {
	char name[MARKER_FIELD_NAME_MAX];
	const char *ctype;		/* "unsigned long", "const char *", ... */
	const char *record_type;	/* the format file's: "__data_loc char[]" */
	unsigned int offset;		/* in the event record */
	unsigned int size;		/* in the fixed part of the record */
	bool is_signed;
	bool dynamic;			/* a __data_loc string */
};

/*
 * The common fields that start every event record (struct trace_entry),
 * in the format file's words. An ELF file does not say them: it has the
 * 6.12 kernel's (abi_default_common); a report or baseline may state
 * others in "common" lines.
 */
struct abi_common {
	char name[MARKER_FIELD_NAME_MAX];
	char ctype[32];
	unsigned int offset;
	unsigned int size;
	bool is_signed;
};

#define ABI_COMMON_MAX		8

/* One marker name: all its sites in the files read. */
struct abi_marker {
	char *name;
	char *format;
	char *subsystem;
	const char *origin;		/* "header", "module" or "file" */
	bool debug;
	bool typed;
	bool conflict;			/* sites with different formats */
	bool declared;			/* DECLARE_MARKER() defines it here */
	struct abi_field fields[MARKER_FIELDS_MAX];
	int nr_fields;
	/*
	 * One per __marker_sites entry, "function+0xoffset (N bytes)"; in a file
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
	struct abi_common common[ABI_COMMON_MAX];
	int nr_common;
	unsigned int common_size;	/* where the marker's fields start */
	struct abi_marker *markers;
	int nr_markers;
};

/* fields.c */
int abi_parse_format(const char *format, struct abi_field *fields);
void abi_default_common(struct abi_set *set);
void abi_layout_set(struct abi_set *set);

/* set.c */
void *abi_alloc(size_t size);
char *abi_strdup(const char *s);
struct abi_marker *abi_set_find(const struct abi_set *set, const char *name);
struct abi_marker *abi_set_add(struct abi_set *set, const char *name,
			       const char *format, const char *where);
int abi_marker_add_site(struct abi_marker *marker, const char *site);
void abi_set_sort(struct abi_set *set);
bool abi_unfired(const struct abi_set *set, const struct abi_marker *marker);
bool abi_in_baseline(const char *baseline, const struct abi_marker *marker);
int abi_error(const char *file, const char *fmt, ...);

/* elf.c */
bool abi_is_elf(const char *path);
int abi_read_elf(struct abi_set *set, const char *path);

/* report.c */
void abi_print_text(const struct abi_set *set, const char *baseline);
void abi_print_json(const struct abi_set *set, const char *baseline);
int abi_read_text(struct abi_set *set, const char *path);

/*
 * diff.c: the classes of change, in increasing order of what a tool
 * loses; markers-abi diff exits with the highest one found (see
 * Documentation/trace/markers.rst, "Classes of change").
 */
enum abi_class {
	ABI_NONE = 0,
	ABI_COMPATIBLE = 1,	/* exit status 0, or 1 with --strict */
	ABI_STABILITY = 3,	/* debug -> stable or stable -> debug */
	ABI_UNFIRED = 4,	/* declared, no site: attaches, never fires */
	ABI_LAYOUT = 5,		/* binary readers break */
	ABI_REMOVED = 6,	/* a stable marker renamed or removed */
};

#define ABI_EXIT_ERROR		2

int abi_diff(const struct abi_set *old, const struct abi_set *new, bool json);

#endif /* _MARKERS_ABI_H */
