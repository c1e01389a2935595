// SPDX-License-Identifier: GPL-2.0
/*
 * markers-abi: the event set of a kernel build, read from vmlinux and
 * modules without booting them, as a report, a subsystem's baseline, or
 * a classified diff. See Documentation/trace/markers.rst.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers-abi.h"

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: markers-abi [--json] [--baseline SUBSYSTEM] FILE...\n"
		"       markers-abi diff [--strict] [--json] OLD NEW\n"
		"\n"
		"Report the markers of FILEs (a vmlinux and/or modules): each\n"
		"marker's stability, whether it is typed, its fields with their C\n"
		"types and its sites, grouped by subsystem; with --json, also each\n"
		"field's offset, size, signedness and string kind in the event\n"
		"record, and the common fields. --baseline prints the stable\n"
		"markers of one subsystem for a committed baseline.\n"
		"\n"
		"diff compares two event sets, each a vmlinux, a module, a report\n"
		"or a baseline, and prints each change with its class: compatible,\n"
		"stability, unfired, layout or removed (--json: as JSON).\n"
		"\n"
		"Exit status: 2 for bad input or usage; for diff, the class found\n"
		"that costs tools most: 0 nothing or compatible only (1 with\n"
		"--strict), 3 stability, 4 unfired, 5 layout, 6 removed.\n");
}

/* Reads one side of a diff, or all the files of a report, into @set. */
static int load(struct abi_set *set, char **paths, int nr)
{
	int i, ret;

	set->source = paths[0];
	for (i = 0; i < nr; i++) {
		if (abi_is_elf(paths[i])) {
			ret = abi_read_elf(set, paths[i]);
			if (ret < 0)
				return -1;
			/* Of several files, those without markers add none. */
			if (ret && nr == 1)
				return abi_error(paths[i],
						 "no marker sections (__markers, or __start___markers in vmlinux)");
		} else if (nr > 1) {
			return abi_error(paths[i], "not an ELF file");
		} else if (abi_read_text(set, paths[i])) {
			return -1;
		}
	}
	abi_set_sort(set);
	abi_layout_set(set);
	return 0;
}

static int diff_main(int argc, char **argv)
{
	struct abi_set old = { 0 }, new = { 0 };
	bool strict = false, json = false;
	int ret;

	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
		if (!strcmp(argv[1], "--strict")) {
			strict = true;
		} else if (!strcmp(argv[1], "--json")) {
			json = true;
		} else {
			print_help(stderr);
			return ABI_EXIT_ERROR;
		}
	}
	if (argc != 3) {
		print_help(stderr);
		return ABI_EXIT_ERROR;
	}
	if (load(&old, &argv[1], 1) || load(&new, &argv[2], 1))
		return ABI_EXIT_ERROR;
	ret = abi_diff(&old, &new, json);
	if (ret == ABI_COMPATIBLE)
		return strict ? 1 : 0;
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct abi_set set = { 0 };
	const char *baseline = NULL;
	bool json = false;
	int opt;

	if (argc > 1 && !strcmp(argv[1], "diff"))
		return diff_main(argc - 1, argv + 1);

	while ((opt = getopt_long(argc, argv, "jb:h", options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'b':
			baseline = optarg;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		print_help(stderr);
		return 2;
	}
	if (load(&set, &argv[optind], argc - optind))
		return 2;
	if (json)
		abi_print_json(&set, baseline);
	else
		abi_print_text(&set, baseline);
	return 0;
}
