// SPDX-License-Identifier: GPL-2.0
/*
 * Fields of a marker format with their C types. The parsing is the
 * kernel's own marker_format_parse() (kernel/trace/marker_format.c, built
 * into this tool); this file only names the type each conversion reads.
 */
#include <errno.h>
#include <string.h>

#include "markers-abi.h"

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
		fields[i].ctype = marker_field_c_type(&parsed[i]);
	}
	return nr;
}
