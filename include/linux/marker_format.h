/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_FORMAT_H
#define _LINUX_MARKER_FORMAT_H

/*
 * Marker formats: what a static marker's name and format may be, and the
 * one parser of formats (kernel/trace/marker_format.c). This header needs
 * nothing but types, so tools/markers builds the same parser in user
 * space. See Documentation/trace/markers.rst.
 */

#include <linux/stdarg.h>
#include <linux/types.h>

/* Longest marker name, terminating NUL included. */
#define MARKER_NAME_MAX		64

/* Format for markers without arguments: trace_mark(name, MARK_NOARGS). */
#define MARK_NOARGS " "

/*
 * Parsed formats. "uaddr %p val %u" has two fields, "uaddr" (a pointer) and
 * "val" (an unsigned int); the field name is the word before each conversion,
 * optionally followed by ':' or '='.
 */

#define MARKER_FIELD_NAME_MAX	32	/* terminating NUL included */
#define MARKER_FIELDS_MAX	16

enum marker_field_type {
	MARKER_FIELD_SIGNED,		/* %d %i, with h hh l ll L z t */
	MARKER_FIELD_UNSIGNED,		/* %u %x %X %o, with h hh l ll L z t */
	MARKER_FIELD_CHAR,		/* %c */
	MARKER_FIELD_POINTER,		/* %p and its extensions */
	MARKER_FIELD_STRING,		/* %s */
};

/**
 * struct marker_field - one conversion of a marker format
 * @name: field name; "argN" (N from 0) when the format gives none
 * @type: kind of value
 * @size: bytes the value occupies once stored (1, 2, 4 or 8; pointer size
 *	for %p; 0 for %s, whose length varies)
 * @va_size: bytes va_arg() reads: sizeof(int) for hh, h, plain and %c,
 *	else the size of the promoted type
 * @conversion: the conversion character ('d', 'i', 'u', 'x', 'X', 'o',
 *	'c', 'p' or 's')
 * @length: the length modifier as lib/vsprintf.c keeps it: 0 for none,
 *	'H' for hh, 'h', 'l', 'L' for ll and L, 'z' or 't'; it tells
 *	marker_field_fetch() which type va_arg() reads
 */
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

#endif /* _LINUX_MARKER_FORMAT_H */
