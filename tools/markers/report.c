// SPDX-License-Identifier: GPL-2.0
/*
 * The report: a stable text form (one line per fact, sorted, so that two
 * reports diff well and a baseline reads like a header), JSON, and the
 * reader that takes the text form back for a diff.
 *
 *	common common_pid offset:4 size:4 signed:1 int
 *	...
 *	subsystem sched (typed)
 *	marker sched_wakeup stable typed
 *		format "pid %d tgid %d comm %s prio %d cpu %u"
 *		field pid int
 *		...
 *		site ttwu_do_activate+0x7e
 *
 * A baseline ("baseline sched" at the top) holds the common fields and the
 * stable markers of one subsystem with their formats and fields only. A
 * "common" line gives a common field's offset, size, signedness and type,
 * as the format file says them
 * (a file without them has abi_default_common()'s); a marker declared
 * with no site left is "unfired" on its marker line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers-abi.h"

static const char *abi_origin_text(const struct abi_marker *marker,
				   char *buf, size_t size)
{
	if (!marker->origin)
		return "";
	if (!strcmp(marker->origin, "header"))
		snprintf(buf, size, " (typed)");
	else if (!strcmp(marker->origin, "module"))
		snprintf(buf, size, " (module)");
	else
		snprintf(buf, size, " (source file)");
	return buf;
}

static void abi_print_quoted(FILE *f, const char *s, bool json)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, json ? "\\u%04x" : "\\x%02x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static bool abi_wanted(const struct abi_marker *marker, const char *baseline)
{
	return !baseline || abi_in_baseline(baseline, marker);
}

static bool abi_same_subsystem(const struct abi_marker *a,
			       const struct abi_marker *b)
{
	return !strcmp(a->subsystem ? a->subsystem : "",
		       b->subsystem ? b->subsystem : "");
}

/**
 * abi_print_text - print @set in the text form
 * @set: a sorted event set
 * @baseline: a subsystem: print its baseline; NULL: the whole report
 */
void abi_print_text(const struct abi_set *set, const char *baseline)
{
	const struct abi_marker *prev = NULL;
	char origin[128];
	int i, j;

	if (baseline) {
		printf("# The stable markers of include/trace/markers/%s.h: names, formats\n",
		       baseline);
		printf("# and field types that tools rely on. Regenerate with\n");
		printf("# markers-abi --baseline %s vmlinux (tools/markers).\n", baseline);
		printf("baseline %s\n", baseline);
	} else {
		printf("# markers-abi report of %s\n", set->source);
	}
	for (i = 0; i < set->nr_common; i++)
		printf("common %s offset:%u size:%u signed:%d %s\n",
		       set->common[i].name, set->common[i].offset,
		       set->common[i].size, set->common[i].is_signed,
		       set->common[i].ctype);

	for (i = 0; i < set->nr_markers; i++) {
		const struct abi_marker *m = &set->markers[i];

		if (!abi_wanted(m, baseline))
			continue;
		if (!baseline && (!prev || !abi_same_subsystem(prev, m)))
			printf("subsystem %s%s\n", m->subsystem ? m->subsystem : "-",
			       abi_origin_text(m, origin, sizeof(origin)));
		prev = m;
		printf("marker %s %s", m->name, m->debug ? "debug" : "stable");
		if (!baseline && set->has_typed)
			printf(" %s", m->typed ? "typed" : "untyped");
		if (m->conflict)
			printf(" conflict");
		if (abi_unfired(set, m))
			printf(" unfired");
		printf("\n\tformat ");
		abi_print_quoted(stdout, m->format, false);
		printf("\n");
		for (j = 0; j < m->nr_fields; j++)
			printf("\tfield %s %s\n", m->fields[j].name,
			       m->fields[j].ctype);
		for (j = 0; !baseline && j < m->nr_sites; j++)
			printf("\tsite %s\n", m->sites[j]);
	}
}

/*
 * A field as a binary reader needs it: the C type of its argument, then
 * its type, offset, size and signedness in the event record (as the
 * format file says them) and its string kind: "dynamic" for a
 * __data_loc string, "none" for a value stored inline. Marker formats
 * have no fixed-size char arrays, the "inline" kind of trace events.
 */
static void abi_print_field_layout(const struct abi_field *f)
{
	printf(", \"type\": ");
	abi_print_quoted(stdout, f->ctype, true);
	printf(", \"record_type\": ");
	abi_print_quoted(stdout, f->record_type, true);
	printf(", \"offset\": %u, \"size\": %u, \"signed\": %s, \"string\": \"%s\" }",
	       f->offset, f->size, f->is_signed ? "true" : "false",
	       f->dynamic ? "dynamic" : "none");
}

/**
 * abi_print_json - print @set as JSON
 * @set: a sorted event set
 * @baseline: a subsystem: only its stable markers; NULL: all
 */
void abi_print_json(const struct abi_set *set, const char *baseline)
{
	const struct abi_marker *prev = NULL;
	int i, j;

	printf("{\n  \"source\": ");
	abi_print_quoted(stdout, set->source, true);
	if (baseline) {
		printf(",\n  \"baseline\": ");
		abi_print_quoted(stdout, baseline, true);
	}
	printf(",\n  \"common_fields\": [");
	for (i = 0; i < set->nr_common; i++) {
		const struct abi_common *c = &set->common[i];

		printf("%s\n    { \"name\": ", i ? "," : "");
		abi_print_quoted(stdout, c->name, true);
		printf(", \"type\": ");
		abi_print_quoted(stdout, c->ctype, true);
		printf(", \"offset\": %u, \"size\": %u, \"signed\": %s }",
		       c->offset, c->size, c->is_signed ? "true" : "false");
	}
	printf("%s],\n  \"common_size\": %u", set->nr_common ? "\n  " : "",
	       set->common_size);
	printf(",\n  \"subsystems\": [");
	for (i = 0; i < set->nr_markers; i++) {
		const struct abi_marker *m = &set->markers[i];

		if (!abi_wanted(m, baseline))
			continue;
		if (!prev || !abi_same_subsystem(prev, m)) {
			printf("%s\n    {\n      \"name\": ", prev ? "\n      ]\n    }," : "");
			abi_print_quoted(stdout, m->subsystem ? m->subsystem : "-", true);
			printf(",\n      \"origin\": ");
			abi_print_quoted(stdout, m->origin ? m->origin : "unknown", true);
			printf(",\n      \"markers\": [\n");
		} else {
			printf(",\n");
		}
		prev = m;
		printf("        {\n          \"name\": ");
		abi_print_quoted(stdout, m->name, true);
		printf(",\n          \"stability\": \"%s\"", m->debug ? "debug" : "stable");
		if (set->has_typed)
			printf(",\n          \"typed\": %s", m->typed ? "true" : "false");
		printf(",\n          \"conflict\": %s", m->conflict ? "true" : "false");
		if (set->has_sites)
			printf(",\n          \"unfired\": %s",
			       abi_unfired(set, m) ? "true" : "false");
		printf(",\n          \"format\": ");
		abi_print_quoted(stdout, m->format, true);
		printf(",\n          \"fields\": [");
		for (j = 0; j < m->nr_fields; j++) {
			printf("%s\n            { \"name\": ", j ? "," : "");
			abi_print_quoted(stdout, m->fields[j].name, true);
			abi_print_field_layout(&m->fields[j]);
		}
		printf("%s]", m->nr_fields ? "\n          " : "");
		if (set->has_sites) {
			printf(",\n          \"sites\": [");
			for (j = 0; j < m->nr_sites; j++) {
				printf("%s\n            ", j ? "," : "");
				abi_print_quoted(stdout, m->sites[j], true);
			}
			printf("%s]", m->nr_sites ? "\n          " : "");
		}
		printf("\n        }");
	}
	printf("%s\n  ]\n}\n", prev ? "\n      ]\n    }" : "");
}

/* The quoted string of a "format" line, unescaped in place. */
static char *abi_unquote(char *s)
{
	char *out, *start;

	if (*s != '"')
		return NULL;
	start = ++s;
	out = start;
	for (; *s && *s != '"'; s++) {
		if (*s == '\\' && s[1] == 'x' && s[2] && s[3]) {
			char hex[3] = { s[2], s[3], 0 };

			*out++ = (char)strtol(hex, NULL, 16);
			s += 3;
		} else if (*s == '\\' && s[1]) {
			*out++ = *++s;
		} else {
			*out++ = *s;
		}
	}
	if (*s != '"' || s[1])
		return NULL;
	*out = '\0';
	return start;
}

struct abi_reader {
	struct abi_set *set;
	const char *path;
	int line;
	char *subsystem;
	const char *origin;
	char pending[MARKER_NAME_MAX];	/* a "marker" line awaiting its format */
	bool pending_debug, pending_typed, pending_conflict, pending_unfired;
	struct abi_marker *marker;
	int field;
};

static int abi_reader_error(struct abi_reader *r, const char *msg)
{
	return abi_error(r->path, "not an ELF file, nor a report or baseline: line %d: %s",
			 r->line, msg);
}

static int abi_read_marker_line(struct abi_reader *r, char *rest)
{
	char *name = strtok(rest, " "), *word;

	if (r->pending[0])
		return abi_reader_error(r, "marker without a format line");
	if (!name || strlen(name) >= MARKER_NAME_MAX)
		return abi_reader_error(r, "bad marker name");
	snprintf(r->pending, sizeof(r->pending), "%s", name);
	r->pending_debug = false;
	r->pending_typed = false;
	r->pending_conflict = false;
	r->pending_unfired = false;
	word = strtok(NULL, " ");
	if (!word || (strcmp(word, "stable") && strcmp(word, "debug")))
		return abi_reader_error(r, "marker line without stable or debug");
	r->pending_debug = !strcmp(word, "debug");
	if (r->pending_debug != (name[0] == '_' && name[1] == '_'))
		return abi_reader_error(r,
					"a debug marker's name, and only its, starts with \"__\"");
	while ((word = strtok(NULL, " "))) {
		if (!strcmp(word, "typed") || !strcmp(word, "untyped")) {
			r->pending_typed = !strcmp(word, "typed");
			r->set->has_typed = true;
		} else if (!strcmp(word, "conflict")) {
			r->pending_conflict = true;
		} else if (!strcmp(word, "unfired")) {
			/* Declared, no site: what the sites are is known. */
			r->pending_unfired = true;
			r->set->has_sites = true;
		} else {
			return abi_reader_error(r, "unknown word on a marker line");
		}
	}
	return 0;
}

static int abi_read_format_line(struct abi_reader *r, char *rest)
{
	char *format = abi_unquote(rest);
	struct abi_marker *m;

	if (!r->pending[0])
		return abi_reader_error(r, "format line outside a marker");
	if (!format)
		return abi_reader_error(r, "format is not a quoted string");
	if (abi_set_find(r->set, r->pending))
		return abi_reader_error(r, "marker listed twice");
	m = abi_set_add(r->set, r->pending, format, r->path);
	if (!m)
		return -1;
	m->typed = r->pending_typed;
	m->conflict = r->pending_conflict;
	m->declared = r->pending_unfired;
	if (r->subsystem) {
		m->subsystem = abi_strdup(r->subsystem);
		m->origin = r->origin;
	}
	r->marker = m;
	r->field = 0;
	r->pending[0] = '\0';
	return 0;
}

/* Field lines must say what the format says: a hand edit shows here. */
static int abi_read_field_line(struct abi_reader *r, char *rest)
{
	char *type = strchr(rest, ' ');
	const struct abi_field *f;

	if (!r->marker)
		return abi_reader_error(r, "field line outside a marker");
	if (!type)
		return abi_reader_error(r, "field line without a type");
	*type++ = '\0';
	if (r->field >= r->marker->nr_fields)
		return abi_reader_error(r, "more field lines than the format has fields");
	f = &r->marker->fields[r->field++];
	if (strcmp(f->name, rest) || strcmp(f->ctype, type))
		return abi_reader_error(r, "field line disagrees with the format");
	return 0;
}

/* "common NAME offset:N size:N signed:0|1 TYPE": before any marker. */
static int abi_read_common_line(struct abi_reader *r, char *rest)
{
	struct abi_set *set = r->set;
	struct abi_common *c;
	unsigned int is_signed;
	int type_at = 0;

	if (set->nr_markers || r->pending[0])
		return abi_reader_error(r, "common line after a marker");
	if (set->nr_common >= ABI_COMMON_MAX)
		return abi_reader_error(r, "too many common lines");
	c = &set->common[set->nr_common];
	if (sscanf(rest, "%31s offset:%u size:%u signed:%u %n", c->name,
		   &c->offset, &c->size, &is_signed, &type_at) != 4 ||
	    !type_at || !rest[type_at] ||
	    strlen(rest + type_at) >= sizeof(c->ctype) || is_signed > 1 ||
	    !c->size || c->size > 8)
		return abi_reader_error(r,
					"common line is not \"common NAME offset:N size:N signed:0|1 TYPE\"");
	snprintf(c->ctype, sizeof(c->ctype), "%s", rest + type_at);
	c->is_signed = is_signed;
	set->nr_common++;
	return 0;
}

static int abi_read_line(struct abi_reader *r, char *line)
{
	char *rest, *word;

	line[strcspn(line, "\n")] = '\0';
	while (*line == '\t' || *line == ' ')
		line++;
	if (!*line || *line == '#')
		return 0;
	word = line;
	rest = strchr(line, ' ');
	if (!rest)
		return abi_reader_error(r, "a line with one word");
	*rest++ = '\0';

	if (!strcmp(word, "marker")) {
		if (r->marker && r->field != r->marker->nr_fields)
			return abi_reader_error(r, "fewer field lines than the format has fields");
		r->marker = NULL;
		return abi_read_marker_line(r, rest);
	}
	if (!strcmp(word, "format"))
		return abi_read_format_line(r, rest);
	if (!strcmp(word, "field"))
		return abi_read_field_line(r, rest);
	if (!strcmp(word, "site")) {
		if (!r->marker)
			return abi_reader_error(r, "site line outside a marker");
		r->set->has_sites = true;
		return abi_marker_add_site(r->marker, rest);
	}
	if (!strcmp(word, "subsystem")) {
		r->marker = NULL;
		free(r->subsystem);
		r->subsystem = abi_strdup(strtok(rest, " "));
		if (strstr(rest + strlen(r->subsystem) + 1, "(typed)"))
			r->origin = "header";
		else if (strstr(rest + strlen(r->subsystem) + 1, "(module)"))
			r->origin = "module";
		else
			r->origin = "file";
		return 0;
	}
	if (!strcmp(word, "common"))
		return abi_read_common_line(r, rest);
	if (!strcmp(word, "baseline")) {
		if (r->set->baseline)
			return abi_reader_error(r, "two baseline lines");
		r->set->baseline = abi_strdup(rest);
		return 0;
	}
	return abi_reader_error(r, "unknown line");
}

/**
 * abi_read_text - read a report or a baseline in the text form
 * @set: an empty event set
 * @path: the file
 *
 * Return: 0, or -1 after printing the line that is wrong.
 */
int abi_read_text(struct abi_set *set, const char *path)
{
	struct abi_reader r = { .set = set, .path = path };
	char line[4096];
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return abi_error(path, "cannot open");
	while (!ret && fgets(line, sizeof(line), f)) {
		r.line++;
		if (!strchr(line, '\n') && !feof(f))
			ret = abi_reader_error(&r, "line too long");
		else
			ret = abi_read_line(&r, line);
	}
	if (!ret && r.pending[0])
		ret = abi_reader_error(&r, "marker without a format line");
	if (!ret && r.marker && r.field != r.marker->nr_fields)
		ret = abi_reader_error(&r, "fewer field lines than the format has fields");
	if (!ret && !r.line)
		ret = abi_error(path, "empty file: not an ELF file, nor a report or baseline");
	fclose(f);
	free(r.subsystem);
	return ret;
}
