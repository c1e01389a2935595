// SPDX-License-Identifier: GPL-2.0
/*
 * Fields of a marker format with their C types. The parsing is the
 * kernel's own marker_format_parse() (kernel/trace/marker_format.c, built
 * into this tool); this file only names the type each conversion reads.
 */
#include <errno.h>
#include <string.h>

#include "markers-abi.h"

static const char *abi_integer_ctype(char length, bool is_signed)
{
	switch (length) {
	case 'H':
		return is_signed ? "signed char" : "unsigned char";
	case 'h':
		return is_signed ? "short" : "unsigned short";
	case 'l':
		return is_signed ? "long" : "unsigned long";
	case 'L':
		return is_signed ? "long long" : "unsigned long long";
	case 'z':
		return is_signed ? "ssize_t" : "size_t";
	case 't':
		/* %tu: vsnprintf() and marker_field_fetch() read ptrdiff_t. */
		return "ptrdiff_t";
	default:
		return is_signed ? "int" : "unsigned int";
	}
}

/**
 * abi_field_ctype - the C type a field's conversion reads
 * @field: a field from marker_format_parse()
 *
 * Return: the type as C spells it: "int" for %d, "unsigned long" for %lx,
 * "char" for %c, "void *" for %p, "const char *" for %s, ...
 */
const char *abi_field_ctype(const struct marker_field *field)
{
	switch (field->type) {
	case MARKER_FIELD_SIGNED:
		return abi_integer_ctype(field->length, true);
	case MARKER_FIELD_UNSIGNED:
		return abi_integer_ctype(field->length, false);
	case MARKER_FIELD_CHAR:
		return "char";
	case MARKER_FIELD_POINTER:
		return "void *";
	case MARKER_FIELD_STRING:
		return "const char *";
	}
	return "?";
}

/**
 * abi_parse_format - parse a marker format into named, typed fields
 * @format: the marker's format
 * @fields: MARKER_FIELDS_MAX entries
 *
 * Return: the number of fields, or the negative errno of
 * marker_format_parse().
 */
int abi_parse_format(const char *format, struct abi_field *fields)
{
	struct marker_field parsed[MARKER_FIELDS_MAX];
	int nr, i;

	nr = marker_format_parse(format, parsed, MARKER_FIELDS_MAX);
	for (i = 0; i < nr; i++) {
		memcpy(fields[i].name, parsed[i].name, sizeof(fields[i].name));
		fields[i].ctype = abi_field_ctype(&parsed[i]);
	}
	return nr;
}
