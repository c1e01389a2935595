// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the marker format parser and of the field fetch that
 * probes use (kernel/trace/marker_format.c).
 */

#include <kunit/test.h>
#include <linux/array_size.h>
#include <linux/limits.h>
#include <linux/marker_format.h>
#include <linux/sprintf.h>
#include <linux/string.h>

/* ---- marker_format_parse(): integer conversions ---- */

struct parse_length_case {
	const char *desc;
	const char *modifier;		/* as written in the format */
	char length;			/* as struct marker_field keeps it */
	unsigned char size;
	unsigned char va_size;
};

static const struct parse_length_case parse_length_cases[] = {
	{ "none", "",   0,   4,                 sizeof(int) },
	{ "hh",   "hh", 'H', 1,                 sizeof(int) },
	{ "h",    "h",  'h', 2,                 sizeof(int) },
	{ "l",    "l",  'l', sizeof(long),      sizeof(long) },
	{ "ll",   "ll", 'L', 8,                 sizeof(long long) },
	{ "L",    "L",  'L', 8,                 sizeof(long long) },
	{ "z",    "z",  'z', sizeof(size_t),    sizeof(size_t) },
	{ "t",    "t",  't', sizeof(ptrdiff_t), sizeof(ptrdiff_t) },
};

KUNIT_ARRAY_PARAM_DESC(parse_length, parse_length_cases, desc);

/* Every integer conversion with the length modifier of the parameter. */
static void parse_integer_test(struct kunit *test)
{
	static const struct {
		char conversion;
		enum marker_field_type type;
	} conversions[] = {
		{ 'd', MARKER_FIELD_SIGNED },
		{ 'i', MARKER_FIELD_SIGNED },
		{ 'u', MARKER_FIELD_UNSIGNED },
		{ 'x', MARKER_FIELD_UNSIGNED },
		{ 'X', MARKER_FIELD_UNSIGNED },
		{ 'o', MARKER_FIELD_UNSIGNED },
	};
	const struct parse_length_case *param = test->param_value;
	struct marker_field fields[2];
	char format[32];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(conversions); i++) {
		/* The second field checks where the conversion ended. */
		snprintf(format, sizeof(format), "value %%%s%c next %%c",
			 param->modifier, conversions[i].conversion);
		ret = marker_format_parse(format, fields, ARRAY_SIZE(fields));
		KUNIT_EXPECT_EQ_MSG(test, ret, 2,
				    "\"%s\" should have 2 fields", format);
		if (ret != 2)
			continue;

		KUNIT_EXPECT_STREQ_MSG(test, fields[0].name, "value",
				       "\"%s\": first field should be value",
				       format);
		KUNIT_EXPECT_EQ_MSG(test, fields[0].type, conversions[i].type,
				    "\"%s\": %s type expected", format,
				    conversions[i].type == MARKER_FIELD_SIGNED ?
				    "signed" : "unsigned");
		KUNIT_EXPECT_EQ_MSG(test, fields[0].conversion,
				    conversions[i].conversion,
				    "\"%s\": conversion '%c' expected", format,
				    conversions[i].conversion);
		KUNIT_EXPECT_EQ_MSG(test, fields[0].length, param->length,
				    "\"%s\": length modifier %d expected",
				    format, param->length);
		KUNIT_EXPECT_EQ_MSG(test, fields[0].size, param->size,
				    "\"%s\": size %u expected", format,
				    param->size);
		KUNIT_EXPECT_EQ_MSG(test, fields[0].va_size, param->va_size,
				    "\"%s\": va_size %u expected", format,
				    param->va_size);
		KUNIT_EXPECT_STREQ_MSG(test, fields[1].name, "next",
				       "\"%s\": second field should be next",
				       format);
		KUNIT_EXPECT_EQ_MSG(test, fields[1].conversion, 'c',
				    "\"%s\": second field should be %%c",
				    format);
	}
}

/* ---- marker_format_parse(): other conversions, flags, width ---- */

struct parse_conversion_case {
	const char *desc;
	const char *conversion;		/* put in "v <conversion> w %u" */
	enum marker_field_type type;
	char expected;			/* struct marker_field.conversion */
	char length;
	unsigned char size;
	unsigned char va_size;
};

static const struct parse_conversion_case parse_conversion_cases[] = {
	{ "c", "%c", MARKER_FIELD_CHAR, 'c', 0, 1, sizeof(int) },
	{ "s", "%s", MARKER_FIELD_STRING, 's', 0, 0, sizeof(char *) },
	{ "p", "%p", MARKER_FIELD_POINTER, 'p', 0,
	  sizeof(void *), sizeof(void *) },
	{ "pS", "%pS", MARKER_FIELD_POINTER, 'p', 0,
	  sizeof(void *), sizeof(void *) },
	{ "px", "%px", MARKER_FIELD_POINTER, 'p', 0,
	  sizeof(void *), sizeof(void *) },
	{ "pK", "%pK", MARKER_FIELD_POINTER, 'p', 0,
	  sizeof(void *), sizeof(void *) },
	{ "pI4", "%pI4", MARKER_FIELD_POINTER, 'p', 0,
	  sizeof(void *), sizeof(void *) },
	{ "pISpc", "%pISpc", MARKER_FIELD_POINTER, 'p', 0,
	  sizeof(void *), sizeof(void *) },
	{ "flag minus", "%-d", MARKER_FIELD_SIGNED, 'd', 0, 4, sizeof(int) },
	{ "flag plus", "%+d", MARKER_FIELD_SIGNED, 'd', 0, 4, sizeof(int) },
	{ "flag space", "% d", MARKER_FIELD_SIGNED, 'd', 0, 4, sizeof(int) },
	{ "flag hash", "%#x", MARKER_FIELD_UNSIGNED, 'x', 0, 4, sizeof(int) },
	{ "flag zero", "%0x", MARKER_FIELD_UNSIGNED, 'x', 0, 4, sizeof(int) },
	{ "all flags", "%-+ #0o", MARKER_FIELD_UNSIGNED, 'o', 0,
	  4, sizeof(int) },
	{ "width", "%08x", MARKER_FIELD_UNSIGNED, 'x', 0, 4, sizeof(int) },
	{ "wide width", "%123456u", MARKER_FIELD_UNSIGNED, 'u', 0,
	  4, sizeof(int) },
	{ "precision", "%.3d", MARKER_FIELD_SIGNED, 'd', 0, 4, sizeof(int) },
	{ "empty precision", "%.i", MARKER_FIELD_SIGNED, 'i', 0,
	  4, sizeof(int) },
	{ "width precision ll", "%-+ #010.5lld", MARKER_FIELD_SIGNED, 'd',
	  'L', 8, sizeof(long long) },
	{ "width hh", "%4hhX", MARKER_FIELD_UNSIGNED, 'X', 'H',
	  1, sizeof(int) },
	{ "width c", "%-3c", MARKER_FIELD_CHAR, 'c', 0, 1, sizeof(int) },
	{ "width precision s", "%10.4s", MARKER_FIELD_STRING, 's', 0,
	  0, sizeof(char *) },
	{ "width p", "%-20pS", MARKER_FIELD_POINTER, 'p', 0,
	  sizeof(void *), sizeof(void *) },
};

KUNIT_ARRAY_PARAM_DESC(parse_conversion, parse_conversion_cases, desc);

static void parse_conversion_test(struct kunit *test)
{
	const struct parse_conversion_case *param = test->param_value;
	struct marker_field fields[2];
	char format[32];
	int ret;

	snprintf(format, sizeof(format), "v %s w %%u", param->conversion);
	ret = marker_format_parse(format, fields, ARRAY_SIZE(fields));
	KUNIT_ASSERT_EQ_MSG(test, ret, 2, "\"%s\" should have 2 fields",
			    format);

	KUNIT_EXPECT_STREQ_MSG(test, fields[0].name, "v",
			       "\"%s\": first field should be v", format);
	KUNIT_EXPECT_EQ_MSG(test, fields[0].type, param->type,
			    "\"%s\": type %d expected", format, param->type);
	KUNIT_EXPECT_EQ_MSG(test, fields[0].conversion, param->expected,
			    "\"%s\": conversion '%c' expected", format,
			    param->expected);
	KUNIT_EXPECT_EQ_MSG(test, fields[0].length, param->length,
			    "\"%s\": length modifier %d expected", format,
			    param->length);
	KUNIT_EXPECT_EQ_MSG(test, fields[0].size, param->size,
			    "\"%s\": size %u expected", format, param->size);
	KUNIT_EXPECT_EQ_MSG(test, fields[0].va_size, param->va_size,
			    "\"%s\": va_size %u expected", format,
			    param->va_size);
	KUNIT_EXPECT_STREQ_MSG(test, fields[1].name, "w",
			       "\"%s\": second field should be w", format);
	KUNIT_EXPECT_EQ_MSG(test, fields[1].type, MARKER_FIELD_UNSIGNED,
			    "\"%s\": second field should be unsigned", format);
}

/* ---- marker_format_parse(): field names ---- */

struct parse_naming_case {
	const char *desc;
	const char *format;
	int nr;
	const char *names[3];
};

static const struct parse_naming_case parse_naming_cases[] = {
	{ "space", "uaddr %p val %u", 2, { "uaddr", "val" } },
	{ "colon", "uaddr:%p val:%u", 2, { "uaddr", "val" } },
	{ "equals", "a=%d b=%d", 2, { "a", "b" } },
	{ "spaced separators", "a: %d b = %d c =%d", 3, { "a", "b", "c" } },
	{ "no name", "%d %u", 2, { "arg0", "arg1" } },
	{ "no name after named", "x %d %d", 2, { "x", "arg1" } },
	{ "adjacent conversions", "%d%d", 2, { "arg0", "arg1" } },
	{ "name glued to previous", "%uval %d", 2, { "arg0", "val" } },
	{ "ignored text", "pid %d comm %s (prio %d)", 3,
	  { "pid", "comm", "prio" } },
	{ "last word of text", "the task.pid %d", 1, { "pid" } },
	{ "not an identifier", "val 0x%x 9lives %d", 2, { "arg0", "arg1" } },
	{ "other punctuation", "val(%d) [x]%d", 2, { "arg0", "arg1" } },
	{ "identifier chars", "_under_score9 %d", 1, { "_under_score9" } },
	{ "longest name", "abcdefghijklmnopqrstuvwxyz01234 %d", 1,
	  { "abcdefghijklmnopqrstuvwxyz01234" } },
	{ "pointer extension", "%pSfoo %d", 2, { "arg0", "arg1" } },
	{ "percent literal", "100%% done %d", 1, { "done" } },
	{ "percent before name", "a %d %% b %u", 2, { "a", "b" } },
	{ "percent ends text", "a%%%d", 1, { "arg0" } },
	{ "argN is positional", "%d b %d %d", 3, { "arg0", "b", "arg2" } },
};

KUNIT_ARRAY_PARAM_DESC(parse_naming, parse_naming_cases, desc);

static void parse_naming_test(struct kunit *test)
{
	const struct parse_naming_case *param = test->param_value;
	struct marker_field fields[MARKER_FIELDS_MAX];
	int ret, i;

	ret = marker_format_parse(param->format, fields, ARRAY_SIZE(fields));
	KUNIT_ASSERT_EQ_MSG(test, ret, param->nr,
			    "\"%s\" should have %d fields", param->format,
			    param->nr);
	for (i = 0; i < param->nr; i++)
		KUNIT_EXPECT_STREQ_MSG(test, fields[i].name, param->names[i],
				       "\"%s\": field %d should be %s",
				       param->format, i, param->names[i]);
}

/* ---- marker_format_parse(): formats without fields ---- */

struct parse_format_case {
	const char *desc;
	const char *format;
};

static const struct parse_format_case parse_no_fields_cases[] = {
	{ "MARK_NOARGS", MARK_NOARGS },
	{ "empty", "" },
	{ "text only", "nothing to see here" },
	{ "percent literal", "100%%" },
	{ "percent literals", "%%d %%s %%%%" },
};

KUNIT_ARRAY_PARAM_DESC(parse_no_fields, parse_no_fields_cases, desc);

static void parse_no_fields_test(struct kunit *test)
{
	const struct parse_format_case *param = test->param_value;
	struct marker_field fields[MARKER_FIELDS_MAX];

	KUNIT_EXPECT_EQ_MSG(test,
			    marker_format_parse(param->format, fields,
						ARRAY_SIZE(fields)), 0,
			    "\"%s\" should have no fields", param->format);
}

/* ---- marker_format_parse(): errors ---- */

struct parse_error_case {
	const char *desc;
	const char *format;
	int error;
};

static const struct parse_error_case parse_error_cases[] = {
	{ "NULL", NULL, -EINVAL },
	{ "star width", "a %*d", -EINVAL },
	{ "star width after flag", "a %-*d", -EINVAL },
	{ "star precision", "a %.*s", -EINVAL },
	{ "n", "a %n", -EINVAL },
	{ "n with length", "a %hn", -EINVAL },
	{ "e", "a %e", -EINVAL },
	{ "E", "a %E", -EINVAL },
	{ "f", "a %f", -EINVAL },
	{ "F", "a %F", -EINVAL },
	{ "g", "a %g", -EINVAL },
	{ "G", "a %G", -EINVAL },
	{ "a", "a %a", -EINVAL },
	{ "A", "a %A", -EINVAL },
	{ "lf", "a %lf", -EINVAL },
	{ "Lf", "a %Lf", -EINVAL },
	{ "unknown", "a %k", -EINVAL },
	{ "q alone", "a %q", -EINVAL },
	{ "q modifier", "a %qd", -EINVAL },
	{ "j modifier", "a %jd", -EINVAL },
	{ "Z modifier", "a %Z", -EINVAL },
	{ "LL", "a %LLd", -EINVAL },
	{ "lll", "a %llld", -EINVAL },
	{ "hhh", "a %hhhd", -EINVAL },
	{ "lh", "a %lhd", -EINVAL },
	{ "hc", "a %hc", -EINVAL },
	{ "lc", "a %lc", -EINVAL },
	{ "ls", "a %ls", -EINVAL },
	{ "zs", "a %zs", -EINVAL },
	{ "lp", "a %lp", -EINVAL },
	{ "hhp with extension", "a %hhpS", -EINVAL },
	{ "trailing percent", "a %", -EINVAL },
	{ "trailing percent after field", "a %d b %", -EINVAL },
	{ "trailing flag", "a %-", -EINVAL },
	{ "trailing width", "a %5", -EINVAL },
	{ "trailing precision", "a %.", -EINVAL },
	{ "trailing modifier", "a %ll", -EINVAL },
	{ "width on percent", "a %5%", -EINVAL },
	{ "duplicate", "a %d a %u", -EINVAL },
	{ "duplicate other style", "a:%d a=%u", -EINVAL },
	{ "duplicate of argN", "arg1 %d %d", -EINVAL },
	{ "argN duplicated", "%d arg0 %d", -EINVAL },
	{ "name too long", "abcdefghijklmnopqrstuvwxyz012345 %d", -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(parse_error, parse_error_cases, desc);

static void parse_error_test(struct kunit *test)
{
	const struct parse_error_case *param = test->param_value;
	struct marker_field fields[MARKER_FIELDS_MAX];

	KUNIT_EXPECT_EQ_MSG(test,
			    marker_format_parse(param->format, fields,
						ARRAY_SIZE(fields)),
			    param->error, "\"%s\" should fail with %d",
			    param->format, param->error);
}

/* ---- marker_format_parse(): the max_fields limit ---- */

/* Writes "f0 %d f1 %d ..." with @nr fields into @buf. */
static void make_format(char *buf, size_t size, unsigned int nr)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < nr; i++)
		len += scnprintf(buf + len, size - len, "f%u %%d ", i);
}

static void parse_max_fields_test(struct kunit *test)
{
	struct marker_field fields[MARKER_FIELDS_MAX + 1];
	char format[MARKER_FIELDS_MAX * 16];
	char name[MARKER_FIELD_NAME_MAX];
	int ret, i;

	make_format(format, sizeof(format), MARKER_FIELDS_MAX);
	ret = marker_format_parse(format, fields, MARKER_FIELDS_MAX);
	KUNIT_ASSERT_EQ_MSG(test, ret, MARKER_FIELDS_MAX,
			    "MARKER_FIELDS_MAX fields should parse");
	for (i = 0; i < MARKER_FIELDS_MAX; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		KUNIT_EXPECT_STREQ_MSG(test, fields[i].name, name,
				       "field %d should be %s", i, name);
	}

	make_format(format, sizeof(format), MARKER_FIELDS_MAX + 1);
	KUNIT_EXPECT_EQ_MSG(test, marker_format_parse(format, fields,
						      MARKER_FIELDS_MAX),
			    -E2BIG,
			    "MARKER_FIELDS_MAX + 1 fields should be -E2BIG");
}

static void parse_small_max_test(struct kunit *test)
{
	struct marker_field fields[3];
	struct marker_field guard;

	memset(&fields[2], 0xa5, sizeof(fields[2]));
	guard = fields[2];

	KUNIT_EXPECT_EQ_MSG(test, marker_format_parse("a %d b %d", fields, 2),
			    2, "2 fields should fit in 2");
	KUNIT_EXPECT_EQ_MSG(test,
			    marker_format_parse("a %d b %d c %d", fields, 2),
			    -E2BIG, "3 fields should not fit in 2");
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&fields[2], &guard, sizeof(guard)),
			    0, "nothing should be written past max_fields");
	KUNIT_EXPECT_EQ_MSG(test, marker_format_parse("", fields, 0), 0,
			    "no fields should fit in 0");
	KUNIT_EXPECT_EQ_MSG(test, marker_format_parse("a %d", fields, 0),
			    -E2BIG, "1 field should not fit in 0");
	/* A malformed format is -EINVAL, however many fields it has. */
	KUNIT_EXPECT_EQ_MSG(test,
			    marker_format_parse("a %d b %d c %n", fields, 1),
			    -EINVAL, "%%n past max_fields should be -EINVAL");
	KUNIT_EXPECT_EQ_MSG(test, marker_format_parse("a %d b %d %", fields, 1),
			    -EINVAL,
			    "trailing %% past max_fields should be -EINVAL");
}

/* ---- marker_format_parse(): comparing results ---- */

static bool fields_equal(const struct marker_field *a,
			 const struct marker_field *b)
{
	return !strcmp(a->name, b->name) && a->type == b->type &&
	       a->size == b->size && a->va_size == b->va_size &&
	       a->conversion == b->conversion && a->length == b->length;
}

/* Formats that differ only in naming style or flags give equal fields. */
static void parse_equivalent_test(struct kunit *test)
{
	static const char * const formats[] = {
		"uaddr:%p val:%u",
		"uaddr=%p val=%u",
		"uaddr: %p, val = %u",
		"(uaddr %pK) val %-08.3u",
	};
	struct marker_field expected[2], fields[2];
	unsigned int i;

	KUNIT_ASSERT_EQ_MSG(test, marker_format_parse("uaddr %p val %u",
						      expected, 2), 2,
			    "\"uaddr %%p val %%u\" should have 2 fields");
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		bool equal;

		KUNIT_ASSERT_EQ_MSG(test,
				    marker_format_parse(formats[i], fields, 2),
				    2, "\"%s\" should have 2 fields",
				    formats[i]);
		equal = fields_equal(&fields[0], &expected[0]) &&
			fields_equal(&fields[1], &expected[1]);
		KUNIT_EXPECT_TRUE_MSG(test, equal,
				      "\"%s\" should parse as \"uaddr %%p val %%u\"",
				      formats[i]);
	}
}

/* Formats that differ in a name, type or size give different fields. */
static void parse_different_test(struct kunit *test)
{
	static const char * const formats[] = {
		"a %d", "b %d", "a %u", "a %ld", "a %hd", "a %i", "a %c",
		"a %s", "a %p", "a %zd",
	};
	struct marker_field fields[ARRAY_SIZE(formats)];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(formats); i++)
		KUNIT_ASSERT_EQ_MSG(test,
				    marker_format_parse(formats[i], &fields[i],
							1),
				    1, "\"%s\" should have 1 field",
				    formats[i]);

	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		for (j = i + 1; j < ARRAY_SIZE(formats); j++) {
			bool equal = fields_equal(&fields[i], &fields[j]);

			KUNIT_EXPECT_FALSE_MSG(test, equal,
					       "\"%s\" and \"%s\" should differ",
					       formats[i], formats[j]);
		}
	}
}

/* ---- marker_field_c_type() ---- */

/* The C type each conversion reads, as the tracefs face names its fields. */
static void c_type_test(struct kunit *test)
{
	static const struct {
		const char *format;
		const char *type;
	} cases[] = {
		{ "a %hhd", "signed char" },
		{ "a %hhu", "unsigned char" },
		{ "a %hd", "short" },
		{ "a %hx", "unsigned short" },
		{ "a %d", "int" },
		{ "a %i", "int" },
		{ "a %u", "unsigned int" },
		{ "a %o", "unsigned int" },
		{ "a %ld", "long" },
		{ "a %lu", "unsigned long" },
		{ "a %lld", "long long" },
		{ "a %llx", "unsigned long long" },
		{ "a %zd", "ssize_t" },
		{ "a %zx", "size_t" },
		{ "a %td", "ptrdiff_t" },
		{ "a %tu", "ptrdiff_t" },
		{ "a %c", "char" },
		{ "a %p", "void *" },
		{ "a %pS", "void *" },
		{ "a %s", "const char *" },
	};
	struct marker_field field;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_ASSERT_EQ_MSG(test,
				    marker_format_parse(cases[i].format, &field, 1),
				    1, "\"%s\" should have 1 field",
				    cases[i].format);
		KUNIT_EXPECT_STREQ_MSG(test, marker_field_c_type(&field),
				       cases[i].type, "the C type of \"%s\"",
				       cases[i].format);
	}
	/* A field the parser did not make has no C type. */
	memset(&field, 0, sizeof(field));
	field.type = MARKER_FIELD_STRING + 1;
	KUNIT_EXPECT_STREQ(test, marker_field_c_type(&field), "?");
}

static struct kunit_case marker_format_parse_cases[] = {
	KUNIT_CASE_PARAM(parse_integer_test, parse_length_gen_params),
	KUNIT_CASE_PARAM(parse_conversion_test, parse_conversion_gen_params),
	KUNIT_CASE_PARAM(parse_naming_test, parse_naming_gen_params),
	KUNIT_CASE_PARAM(parse_no_fields_test, parse_no_fields_gen_params),
	KUNIT_CASE_PARAM(parse_error_test, parse_error_gen_params),
	KUNIT_CASE(parse_max_fields_test),
	KUNIT_CASE(parse_small_max_test),
	KUNIT_CASE(parse_equivalent_test),
	KUNIT_CASE(parse_different_test),
	KUNIT_CASE(c_type_test),
	{}
};

static struct kunit_suite marker_format_parse_suite = {
	.name = "marker_format_parse",
	.test_cases = marker_format_parse_cases,
};

/* ---- marker_field_fetch() ---- */

/* Ends each fetch format: shows the va_list was walked to the right place. */
#define FETCH_END	0x5a5aa5a5u

/*
 * Parses @format, which should have @nr fields ending with "end %x", and
 * fetches every field from the arguments into @values, as a probe does.
 */
static __printf(4, 5) void fetch_fields(struct kunit *test, u64 *values,
					int nr, const char *format, ...)
{
	struct marker_field fields[MARKER_FIELDS_MAX];
	va_list args;
	int i;

	KUNIT_ASSERT_EQ_MSG(test,
			    marker_format_parse(format, fields,
						ARRAY_SIZE(fields)),
			    nr, "\"%s\" should have %d fields", format, nr);
	KUNIT_ASSERT_EQ_MSG(test, fields[nr - 1].conversion, 'x',
			    "\"%s\" should end with \"end %%x\"", format);

	va_start(args, format);
	for (i = 0; i < nr; i++)
		values[i] = marker_field_fetch(&fields[i], &args);
	va_end(args);

	KUNIT_ASSERT_EQ_MSG(test, values[nr - 1], (u64)FETCH_END,
			    "\"%s\": the last argument should be %#x",
			    format, FETCH_END);
}

static void fetch_signed_test(struct kunit *test)
{
	u64 v[MARKER_FIELDS_MAX];
	int i;

	fetch_fields(test, v, 9,
		     "hh %hhd h %hd d %d i %i l %ld ll %lld z %zd t %td end %x",
		     -1, -1, -1, -1, -1L, -1LL, (ssize_t)-1, (ptrdiff_t)-1,
		     FETCH_END);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ_MSG(test, v[i], (u64)-1,
				    "field %d: -1 should be sign-extended",
				    i);

	fetch_fields(test, v, 8,
		     "hh %hhd h %hd i %i l %ld ll %lld z %zd t %td end %x",
		     100, 30000, INT_MAX, LONG_MAX, LLONG_MAX, (ssize_t)12345,
		     (ptrdiff_t)-54321, FETCH_END);
	KUNIT_EXPECT_EQ_MSG(test, v[0], 100ULL, "%%hhd of 100 should be 100");
	KUNIT_EXPECT_EQ_MSG(test, v[1], 30000ULL,
			    "%%hd of 30000 should be 30000");
	KUNIT_EXPECT_EQ_MSG(test, v[2], (u64)INT_MAX,
			    "%%i of INT_MAX should be INT_MAX");
	KUNIT_EXPECT_EQ_MSG(test, v[3], (u64)LONG_MAX,
			    "%%ld of LONG_MAX should be LONG_MAX");
	KUNIT_EXPECT_EQ_MSG(test, v[4], (u64)LLONG_MAX,
			    "%%lld of LLONG_MAX should be LLONG_MAX");
	KUNIT_EXPECT_EQ_MSG(test, v[5], 12345ULL,
			    "%%zd of 12345 should be 12345");
	KUNIT_EXPECT_EQ_MSG(test, v[6], (u64)-54321LL,
			    "%%td of -54321 should be -54321");
}

/* Signed values are truncated to the field size, then sign-extended. */
static void fetch_signed_truncation_test(struct kunit *test)
{
	u64 v[MARKER_FIELDS_MAX];

	fetch_fields(test, v, 9,
		     "a %hhd b %hhd c %hhd d %hd e %hd f %d g %ld h %lld end %x",
		     0xff, 0x17f, 0x80, 0x18000, 0x7fff, INT_MIN, LONG_MIN,
		     LLONG_MIN, FETCH_END);
	KUNIT_EXPECT_EQ_MSG(test, v[0], (u64)-1, "%%hhd of 0xff should be -1");
	KUNIT_EXPECT_EQ_MSG(test, v[1], 0x7fULL,
			    "%%hhd of 0x17f should be 0x7f");
	KUNIT_EXPECT_EQ_MSG(test, v[2], (u64)-128LL,
			    "%%hhd of 0x80 should be -128");
	KUNIT_EXPECT_EQ_MSG(test, v[3], (u64)-32768LL,
			    "%%hd of 0x18000 should be -32768");
	KUNIT_EXPECT_EQ_MSG(test, v[4], 0x7fffULL,
			    "%%hd of 0x7fff should be 0x7fff");
	KUNIT_EXPECT_EQ_MSG(test, v[5], 0xffffffff80000000ULL,
			    "%%d of INT_MIN should be sign-extended");
	KUNIT_EXPECT_EQ_MSG(test, v[6], (u64)(s64)LONG_MIN,
			    "%%ld of LONG_MIN should be sign-extended");
	KUNIT_EXPECT_EQ_MSG(test, v[7], 0x8000000000000000ULL,
			    "%%lld of LLONG_MIN should be LLONG_MIN");
}

/* Unsigned values are truncated to the field size, never sign-extended. */
static void fetch_unsigned_test(struct kunit *test)
{
	u64 v[MARKER_FIELDS_MAX];

	fetch_fields(test, v, 9,
		     "a %hhu b %hhx c %hu d %hx e %u f %x g %o h %X end %x",
		     257, 0x1ff, 0x12345, 0xffff, UINT_MAX, 0x80000000u, 8u,
		     0xabcdu, FETCH_END);
	KUNIT_EXPECT_EQ_MSG(test, v[0], 1ULL, "%%hhu of 257 should be 1");
	KUNIT_EXPECT_EQ_MSG(test, v[1], 0xffULL,
			    "%%hhx of 0x1ff should be 0xff");
	KUNIT_EXPECT_EQ_MSG(test, v[2], 0x2345ULL,
			    "%%hu of 0x12345 should be 0x2345");
	KUNIT_EXPECT_EQ_MSG(test, v[3], 0xffffULL,
			    "%%hx of 0xffff should be 0xffff");
	KUNIT_EXPECT_EQ_MSG(test, v[4], 0xffffffffULL,
			    "%%u of UINT_MAX should be 0xffffffff");
	KUNIT_EXPECT_EQ_MSG(test, v[5], 0x80000000ULL,
			    "%%x of 0x80000000 should not be sign-extended");
	KUNIT_EXPECT_EQ_MSG(test, v[6], 8ULL, "%%o of 8 should be 8");
	KUNIT_EXPECT_EQ_MSG(test, v[7], 0xabcdULL,
			    "%%X of 0xabcd should be 0xabcd");

	fetch_fields(test, v, 6, "l %lu ll %llx L %llu z %zu t %tu end %x",
		     ULONG_MAX, ULLONG_MAX, 0x123456789ULL, SIZE_MAX,
		     (ptrdiff_t)-1, FETCH_END);
	KUNIT_EXPECT_EQ_MSG(test, v[0], (u64)ULONG_MAX,
			    "%%lu of ULONG_MAX should be ULONG_MAX");
	KUNIT_EXPECT_EQ_MSG(test, v[1], U64_MAX,
			    "%%llx of ULLONG_MAX should be U64_MAX");
	KUNIT_EXPECT_EQ_MSG(test, v[2], 0x123456789ULL,
			    "%%llu of 0x123456789 should be 0x123456789");
	KUNIT_EXPECT_EQ_MSG(test, v[3], (u64)SIZE_MAX,
			    "%%zu of SIZE_MAX should be SIZE_MAX");
	KUNIT_EXPECT_EQ_MSG(test, v[4], (u64)(size_t)(ptrdiff_t)-1,
			    "%%tu of -1 should be all ones in ptrdiff_t size");
}

static void fetch_char_test(struct kunit *test)
{
	u64 v[MARKER_FIELDS_MAX];

	fetch_fields(test, v, 4, "a %c b %c c %c end %x",
		     'A', 0x142, -1, FETCH_END);
	KUNIT_EXPECT_EQ_MSG(test, v[0], (u64)'A', "%%c of 'A' should be 'A'");
	KUNIT_EXPECT_EQ_MSG(test, v[1], 0x42ULL,
			    "%%c of 0x142 should be 0x42");
	KUNIT_EXPECT_EQ_MSG(test, v[2], 0xffULL, "%%c of -1 should be 0xff");
}

static void fetch_pointer_test(struct kunit *test)
{
	static const char comm[] = "swapper";
	u64 v[MARKER_FIELDS_MAX];
	int local;

	fetch_fields(test, v, 6,
		     "comm %s uaddr %p func %pS key %pK null %s end %x",
		     comm, &local, (void *)fetch_pointer_test, &v[1],
		     (char *)NULL, FETCH_END);
	KUNIT_EXPECT_EQ_MSG(test, v[0], (u64)(unsigned long)comm,
			    "%%s should give the string's address");
	KUNIT_EXPECT_STREQ_MSG(test, (const char *)(unsigned long)v[0], comm,
			       "%%s should point at \"%s\"", comm);
	KUNIT_EXPECT_EQ_MSG(test, v[1], (u64)(unsigned long)&local,
			    "%%p should give the pointer");
	KUNIT_EXPECT_EQ_MSG(test, v[2],
			    (u64)(unsigned long)fetch_pointer_test,
			    "%%pS should give the pointer");
	KUNIT_EXPECT_EQ_MSG(test, v[3], (u64)(unsigned long)&v[1],
			    "%%pK should give the pointer");
	KUNIT_EXPECT_EQ_MSG(test, v[4], 0ULL, "%%s of NULL should be 0");
}

/* Arguments of every size, interleaved, as a real marker passes them. */
static void fetch_mixed_test(struct kunit *test)
{
	static const char comm[] = "kworker/0:1";
	u64 v[MARKER_FIELDS_MAX];

	fetch_fields(test, v, 8,
		     "pid %d comm %s (prio %hhd) c %c len %zu off %lld f %hx end %x",
		     -42, comm, -3, 'z', (size_t)4096, -5000000000LL, 0xbeef,
		     FETCH_END);
	KUNIT_EXPECT_EQ_MSG(test, v[0], (u64)-42LL, "pid should be -42");
	KUNIT_EXPECT_EQ_MSG(test, v[1], (u64)(unsigned long)comm,
			    "comm should point at \"%s\"", comm);
	KUNIT_EXPECT_EQ_MSG(test, v[2], (u64)-3LL, "prio should be -3");
	KUNIT_EXPECT_EQ_MSG(test, v[3], (u64)'z', "c should be 'z'");
	KUNIT_EXPECT_EQ_MSG(test, v[4], 4096ULL, "len should be 4096");
	KUNIT_EXPECT_EQ_MSG(test, v[5], (u64)-5000000000LL,
			    "off should be -5000000000");
	KUNIT_EXPECT_EQ_MSG(test, v[6], 0xbeefULL, "f should be 0xbeef");
}

static struct kunit_case marker_field_fetch_cases[] = {
	KUNIT_CASE(fetch_signed_test),
	KUNIT_CASE(fetch_signed_truncation_test),
	KUNIT_CASE(fetch_unsigned_test),
	KUNIT_CASE(fetch_char_test),
	KUNIT_CASE(fetch_pointer_test),
	KUNIT_CASE(fetch_mixed_test),
	{}
};

static struct kunit_suite marker_field_fetch_suite = {
	.name = "marker_field_fetch",
	.test_cases = marker_field_fetch_cases,
};

kunit_test_suites(&marker_format_parse_suite, &marker_field_fetch_suite);
