// SPDX-License-Identifier: GPL-2.0
/*
 * Fields of a marker format with their C types and their place in the
 * event record. The parsing is the kernel's own marker_format_parse()
 * (kernel/trace/marker_format.c, built into this tool); this file names
 * the type each conversion reads and lays the record out as
 * marker_event_alloc() in kernel/trace/trace_markers.c does.
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
		const struct marker_field *p = &parsed[i];
		struct abi_field *f = &fields[i];

		memcpy(f->name, p->name, sizeof(f->name));
		f->ctype = marker_field_c_type(p);
		/* %c too: not every tool prints a char field (trace_markers.c) */
		f->dynamic = p->type == MARKER_FIELD_STRING ||
			     p->type == MARKER_FIELD_CHAR;
		f->record_type = f->dynamic ? "__data_loc char[]" : f->ctype;
		f->size = f->dynamic ? 4 : p->size;
		f->is_signed = p->type == MARKER_FIELD_SIGNED;
	}
	return nr;
}

/* struct trace_entry of the 6.12 kernel, as its format files show it. */
#define ABI_NR_COMMON_6_12	4

static const struct abi_common abi_common_6_12[ABI_NR_COMMON_6_12] = {
	{ "common_type", "unsigned short", 0, 2, false },
	{ "common_flags", "unsigned char", 2, 1, false },
	{ "common_preempt_count", "unsigned char", 3, 1, false },
	{ "common_pid", "int", 4, 4, true },
};

void abi_default_common(struct abi_set *set)
{
	memcpy(set->common, abi_common_6_12, sizeof(abi_common_6_12));
	set->nr_common = ABI_NR_COMMON_6_12;
}

static unsigned int abi_align(unsigned int offset, unsigned int align)
{
	return align ? (offset + align - 1) / align * align : offset;
}

/**
 * abi_layout_set - place every marker's fields in its event record
 * @set: an event set with its common fields (the defaults if it has none)
 *
 * The fields start at sizeof(struct trace_entry): the end of the common
 * fields aligned to the largest of them, as the compiler pads the struct.
 */
void abi_layout_set(struct abi_set *set)
{
	unsigned int end = 0, align = 1, offset;
	int i, j;

	if (!set->nr_common)
		abi_default_common(set);
	for (i = 0; i < set->nr_common; i++) {
		const struct abi_common *c = &set->common[i];

		if (c->offset + c->size > end)
			end = c->offset + c->size;
		if (c->size > align && c->size <= 8)
			align = c->size;
	}
	set->common_size = abi_align(end, align);

	for (i = 0; i < set->nr_markers; i++) {
		struct abi_marker *m = &set->markers[i];

		offset = set->common_size;
		for (j = 0; j < m->nr_fields; j++) {
			offset = abi_align(offset, m->fields[j].size);
			m->fields[j].offset = offset;
			offset += m->fields[j].size;
		}
	}
}
