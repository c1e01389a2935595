// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the sites markers-abi finds, on the fixtures the Makefile
 * builds from tests/sites.S: as an object file read like a module
 * (sites-*.o) and linked as vmlinux is, each marker with its own number
 * of struct markers and of sites. With __marker_sites (sites-patchable*)
 * a marker's sites are its entries there, however many struct markers
 * they share: two for one struct marker inlined twice, none for a struct
 * marker whose code is gone. Without (sites-generic*) they are its struct
 * markers, one per file for the inlined copies, named by the file.
 */
#include <stdio.h>
#include <string.h>

#include "markers-abi.h"

struct sites_case {
	const char *file;
	const char *marker;
	const char *sites;		/* sorted, "," between sites */
};

static const struct sites_case cases[] = {
	{ "sites-patchable.o", "sites_inlined",
	  "[sites_test] sites_first+0x0 (5 bytes),[sites_test] sites_second+0x0 (2 bytes)" },
	{ "sites-patchable.o", "sites_twice",
	  "[sites_test] sites_third+0x0 (5 bytes),[sites_test] sites_third+0x5 (5 bytes)" },
	{ "sites-patchable.o", "sites_dead", "" },
	{ "sites-patchable", "sites_inlined",
	  "sites_first+0x0 (5 bytes),sites_second+0x0 (2 bytes)" },
	{ "sites-patchable", "sites_twice",
	  "sites_third+0x0 (5 bytes),sites_third+0x5 (5 bytes)" },
	{ "sites-patchable", "sites_dead", "" },
	{ "sites-generic.o", "sites_inlined", "[sites_test] sites.S" },
	{ "sites-generic.o", "sites_twice",
	  "[sites_test] sites.S,[sites_test] sites.S" },
	{ "sites-generic.o", "sites_dead", "[sites_test] sites.S" },
	{ "sites-generic", "sites_inlined", "sites.S" },
	{ "sites-generic", "sites_twice", "sites.S,sites.S" },
	{ "sites-generic", "sites_dead", "sites.S" },
	{ }
};

/* The sites of @marker in @path, as a case lists them, and their number. */
static int sites_of(const char *path, const char *marker, char *buf, size_t size)
{
	struct abi_set set = { .source = path };
	const struct abi_marker *m;
	int i;

	if (abi_read_elf(&set, path))
		return -1;
	abi_set_sort(&set);
	m = abi_set_find(&set, marker);
	if (!m)
		return -1;
	buf[0] = '\0';
	for (i = 0; i < m->nr_sites; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
			 i ? "," : "", m->sites[i]);
	return m->nr_sites;
}

static int check(const char *dir, const struct sites_case *c)
{
	char path[4096], got[1024];
	int nr;

	snprintf(path, sizeof(path), "%s/%s", dir, c->file);
	nr = sites_of(path, c->marker, got, sizeof(got));
	if (nr < 0) {
		printf("not ok - %s: %s: no such marker in the file\n", c->file,
		       c->marker);
		return 1;
	}
	if (strcmp(got, c->sites)) {
		printf("not ok - %s: %s: expected sites \"%s\", got %d: \"%s\"\n",
		       c->file, c->marker, c->sites, nr, got);
		return 1;
	}
	printf("ok - %s: %s: %d sites\n", c->file, c->marker, nr);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	unsigned int i, failed = 0;

	for (i = 0; cases[i].file; i++)
		failed += check(dir, &cases[i]);
	printf("%u tests, %u failed\n", i, failed);
	return failed ? 1 : 0;
}
