// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the fields markers-abi reports: each format, parsed by the
 * kernel's marker_format_parse(), gives these names and C types.
 */
#include <stdio.h>
#include <string.h>

#include "markers-abi.h"

struct fields_case {
	const char *format;
	int nr;				/* fields, or a negative errno */
	const char *fields;		/* "name:type,name:type" */
};

static const struct fields_case cases[] = {
	{ "uaddr %p val %u", 2, "uaddr:void *,val:unsigned int" },
	{ "a %d b %i", 2, "a:int,b:int" },
	{ "a %hhd b %hd c %ld d %lld", 4,
	  "a:signed char,b:short,c:long,d:long long" },
	{ "a %hhu b %hx c %lu d %llx e %o", 5,
	  "a:unsigned char,b:unsigned short,c:unsigned long,d:unsigned long long,e:unsigned int" },
	{ "a %zd b %zu c %td d %tu", 4,
	  "a:ssize_t,b:size_t,c:ptrdiff_t,d:ptrdiff_t" },
	{ "c %c s %s p %pS", 3, "c:char,s:const char *,p:void *" },
	{ "uaddr:%lx op=%d", 2, "uaddr:unsigned long,op:int" },
	{ "%d %u", 2, "arg0:int,arg1:unsigned int" },
	{ "100%% done %-8.3d", 1, "done:int" },
	{ " ", 0, "" },
	{ "", 0, "" },
	{ "a %n", -EINVAL, NULL },
	{ "a %*d", -EINVAL, NULL },
	{ "a %ls", -EINVAL, NULL },
	{ "a %d a %d", -EINVAL, NULL },
	{ "a %", -EINVAL, NULL },
	{ "a %f", -EINVAL, NULL },
	{ "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d", -E2BIG, NULL },
	{ }
};

static int check(const struct fields_case *c)
{
	struct abi_field fields[MARKER_FIELDS_MAX];
	char got[1024] = "";
	int nr, i;

	nr = abi_parse_format(c->format, fields);
	for (i = 0; i < nr; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s:%s",
			 i ? "," : "", fields[i].name, fields[i].ctype);
	if (nr != c->nr || (nr >= 0 && strcmp(got, c->fields))) {
		printf("not ok - \"%s\": expected %d fields \"%s\", got %d \"%s\"\n",
		       c->format, c->nr, c->fields ? c->fields : "", nr, got);
		return 1;
	}
	printf("ok - \"%s\"\n", c->format);
	return 0;
}

int main(void)
{
	unsigned int i, failed = 0;

	for (i = 0; cases[i].format; i++)
		failed += check(&cases[i]);
	printf("%u tests, %u failed\n", i, failed);
	return failed ? 1 : 0;
}
