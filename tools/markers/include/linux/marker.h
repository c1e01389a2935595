/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_MARKER_H
#define _MARKERS_ABI_LINUX_MARKER_H

/*
 * The format parser's part of include/linux/marker.h, for building
 * kernel/trace/marker_format.c in user space (the rest of that header is
 * kernel-only). Keep it in step with the kernel's: the parser is compiled
 * against these declarations, so a member it uses and this copy lacks is
 * a build error here.
 */
#include <errno.h>
#include <linux/stdarg.h>
#include <linux/types.h>

#define MARKER_NAME_MAX		64

#define MARKER_FIELD_NAME_MAX	32
#define MARKER_FIELDS_MAX	16

enum marker_field_type {
	MARKER_FIELD_SIGNED,
	MARKER_FIELD_UNSIGNED,
	MARKER_FIELD_CHAR,
	MARKER_FIELD_POINTER,
	MARKER_FIELD_STRING,
};

struct marker_field {
	char name[MARKER_FIELD_NAME_MAX];
	enum marker_field_type type;
	unsigned char size;
	unsigned char va_size;
	char conversion;
	char length;
};

int marker_format_parse(const char *format, struct marker_field *fields,
			unsigned int max_fields);
u64 marker_field_fetch(const struct marker_field *field, va_list *args);
const char *marker_field_c_type(const struct marker_field *field);

#endif
