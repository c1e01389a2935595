// SPDX-License-Identifier: GPL-2.0
/*
 * Marker formats: the one parser that turns "uaddr %p val %u" into named,
 * sized fields, and the fetch that reads one field's argument from a probe's
 * va_list.
 *
 * The parser accepts the conversions of the kernel's vsnprintf() (see
 * format_decode() in lib/vsprintf.c) whose argument size the format alone
 * tells, and refuses the rest: '*' width or precision (an extra argument),
 * %n, floating point, and anything vsnprintf() would warn about.
 */

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/marker_format.h>
#include <linux/sprintf.h>
#include <linux/string.h>

/* Names are ASCII C identifiers; <linux/ctype.h> also knows Latin-1. */
static bool marker_is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool marker_is_name_char(char c)
{
	return marker_is_name_start(c) || (c >= '0' && c <= '9');
}

static const char *marker_skip_back_spaces(const char *text, const char *end)
{
	while (end > text && end[-1] == ' ')
		end--;
	return end;
}

/*
 * Names @field from the literal text [@text, @end) before its conversion:
 * the identifier that ends the text, optionally followed by ':' or '=' and
 * spaces. Text that ends otherwise gives the field the name "arg<@index>".
 */
static int marker_field_set_name(struct marker_field *field, const char *text,
				 const char *end, unsigned int index)
{
	const char *name;
	size_t len;

	end = marker_skip_back_spaces(text, end);
	if (end > text && (end[-1] == ':' || end[-1] == '='))
		end = marker_skip_back_spaces(text, end - 1);

	name = end;
	while (name > text && marker_is_name_char(name[-1]))
		name--;

	if (name == end || !marker_is_name_start(*name)) {
		snprintf(field->name, sizeof(field->name), "arg%u", index);
		return 0;
	}

	len = end - name;
	if (len >= sizeof(field->name))
		return -EINVAL;
	memcpy(field->name, name, len);
	field->name[len] = '\0';
	return 0;
}

/* Sizes an integer conversion from its length modifier. */
static void marker_field_set_integer_size(struct marker_field *field)
{
	switch (field->length) {
	case 'H':
		field->size = sizeof(char);
		field->va_size = sizeof(int);
		break;
	case 'h':
		field->size = sizeof(short);
		field->va_size = sizeof(int);
		break;
	case 'l':
		field->size = sizeof(long);
		field->va_size = sizeof(long);
		break;
	case 'L':
		field->size = sizeof(long long);
		field->va_size = sizeof(long long);
		break;
	case 'z':
		field->size = sizeof(size_t);
		field->va_size = sizeof(size_t);
		break;
	case 't':
		field->size = sizeof(ptrdiff_t);
		field->va_size = sizeof(ptrdiff_t);
		break;
	default:
		field->size = sizeof(int);
		field->va_size = sizeof(int);
		break;
	}
}

/*
 * Parses the conversion that follows a '%' at @fmt into @field, reading
 * flags, width, precision and length modifier as format_decode() does.
 *
 * Return: the number of characters read, or -EINVAL.
 */
static int marker_field_parse_conversion(struct marker_field *field,
					 const char *fmt)
{
	const char *start = fmt;

	while (*fmt && strchr("-+ #0", *fmt))
		fmt++;
	while (isdigit(*fmt))
		fmt++;
	if (*fmt == '.') {
		fmt++;
		while (isdigit(*fmt))
			fmt++;
	}

	/* As format_decode() keeps it: "hh" is 'H', "ll" and "L" are 'L'. */
	if (*fmt == 'h' || *fmt == 'l' || *fmt == 'L' || *fmt == 'z' ||
	    *fmt == 't') {
		field->length = *fmt++;
		if (field->length == 'h' && *fmt == 'h') {
			field->length = 'H';
			fmt++;
		} else if (field->length == 'l' && *fmt == 'l') {
			field->length = 'L';
			fmt++;
		}
	}

	field->conversion = *fmt;
	switch (*fmt++) {
	case 'd':
	case 'i':
		field->type = MARKER_FIELD_SIGNED;
		marker_field_set_integer_size(field);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		field->type = MARKER_FIELD_UNSIGNED;
		marker_field_set_integer_size(field);
		break;
	case 'c':
		field->type = MARKER_FIELD_CHAR;
		field->size = sizeof(unsigned char);
		field->va_size = sizeof(int);
		break;
	case 'p':
		field->type = MARKER_FIELD_POINTER;
		field->size = sizeof(void *);
		field->va_size = sizeof(void *);
		/* Extensions (%pS, %pI4, ...): vsnprintf() skips them so. */
		while (isalnum(*fmt))
			fmt++;
		break;
	case 's':
		field->type = MARKER_FIELD_STRING;
		field->size = 0;
		field->va_size = sizeof(const char *);
		break;
	default:
		/* %n, '*', floating point, "%5%", unknown, or the end */
		return -EINVAL;
	}

	/* vsnprintf() ignores a length modifier on these; we refuse it. */
	if (field->length && (field->type == MARKER_FIELD_CHAR ||
			      field->type == MARKER_FIELD_POINTER ||
			      field->type == MARKER_FIELD_STRING))
		return -EINVAL;

	return fmt - start;
}

static bool marker_field_name_taken(const struct marker_field *fields,
				    unsigned int nr, const char *name)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!strcmp(fields[i].name, name))
			return true;
	}
	return false;
}

/**
 * marker_format_parse - parse a marker format into its fields
 * @format: the format, e.g. "uaddr %p val %u" or "uaddr:%p val:%u"
 * @fields: where the fields go, in the order of the arguments
 * @max_fields: number of entries in @fields
 *
 * Each conversion is one field, named by the identifier just before it
 * (optionally followed by ':' or '=' and spaces), or "argN" (N counting
 * fields from 0) without one; other text is ignored, "%%" is a literal
 * percent. Conversions are those of vsnprintf() with a fixed argument
 * size: %d %i %u %x %X %o with length modifiers hh h l ll L z t, %c, %s,
 * and %p with its extensions, each with flags, width and precision.
 *
 * Context: any; takes no locks and allocates nothing.
 *
 * Return: the number of fields (0 for "" and MARK_NOARGS); -EINVAL if
 * @format is NULL, has a conversion it cannot size (%n, '*', floating
 * point, a length modifier on %c, %s or %p, unknown), a lone '%' at the
 * end, a duplicate field name or a name longer than
 * MARKER_FIELD_NAME_MAX - 1; -E2BIG if it has more than @max_fields
 * fields (the syntax is still checked to the end, for -EINVAL). On error
 * @fields holds a partial result.
 */
int marker_format_parse(const char *format, struct marker_field *fields,
			unsigned int max_fields)
{
	struct marker_field beyond_max;
	const char *text, *fmt;
	unsigned int nr = 0;
	int ret;

	if (!format)
		return -EINVAL;

	/* [text, fmt) is the literal text since the previous conversion. */
	text = format;
	fmt = format;
	while (*fmt) {
		struct marker_field *field;

		if (*fmt != '%') {
			fmt++;
			continue;
		}
		if (fmt[1] == '%') {
			/* A literal '%' is no part of a name. */
			fmt += 2;
			text = fmt;
			continue;
		}

		/* Keep checking the syntax past @max_fields, for -EINVAL. */
		field = nr < max_fields ? &fields[nr] : &beyond_max;
		memset(field, 0, sizeof(*field));

		ret = marker_field_set_name(field, text, fmt, nr);
		if (ret)
			return ret;
		ret = marker_field_parse_conversion(field, fmt + 1);
		if (ret < 0)
			return ret;
		fmt += 1 + ret;
		text = fmt;

		if (nr < max_fields &&
		    marker_field_name_taken(fields, nr, field->name))
			return -EINVAL;
		nr++;
	}

	if (nr > max_fields)
		return -E2BIG;
	return nr;
}
EXPORT_SYMBOL_GPL(marker_format_parse);

/* Reads a signed integer argument as the type its length modifier names. */
static s64 marker_fetch_signed(char length, va_list *args)
{
	switch (length) {
	case 'l':
		return va_arg(*args, long);
	case 'L':
		return va_arg(*args, long long);
	case 'z':
		return va_arg(*args, ssize_t);
	case 't':
		return va_arg(*args, ptrdiff_t);
	default:
		/* hh, h and none: the argument was promoted to int. */
		return va_arg(*args, int);
	}
}

/* Reads an unsigned integer argument as the type its modifier names. */
static u64 marker_fetch_unsigned(char length, va_list *args)
{
	switch (length) {
	case 'l':
		return va_arg(*args, unsigned long);
	case 'L':
		return va_arg(*args, unsigned long long);
	case 'z':
		return va_arg(*args, size_t);
	case 't':
		/* %tu: vsnprintf() reads ptrdiff_t too. */
		return va_arg(*args, ptrdiff_t);
	default:
		/* hh, h and none: the argument was promoted to unsigned int. */
		return va_arg(*args, unsigned int);
	}
}

static const char *marker_integer_c_type(char length, bool is_signed)
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
 * marker_field_c_type - the C type a field's conversion reads
 * @field: a field from marker_format_parse()
 *
 * Return: the type as C spells it: ``int`` for %d, ``unsigned long`` for
 * %lx, ``char`` for %c, ``void *`` for %p, ``const char *`` for %s, ...
 * The tracefs face names its fields with it, and markers-abi reports them
 * with it.
 */
const char *marker_field_c_type(const struct marker_field *field)
{
	switch (field->type) {
	case MARKER_FIELD_SIGNED:
		return marker_integer_c_type(field->length, true);
	case MARKER_FIELD_UNSIGNED:
		return marker_integer_c_type(field->length, false);
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
 * marker_field_fetch - read the argument of one field
 * @field: a field from marker_format_parse()
 * @args: the arguments, positioned at @field's; advanced past it
 *
 * Call it once per field, in order, to walk a probe's arguments.
 *
 * Context: probe context, NMI and hard IRQ included, possibly under the
 * runqueue lock: takes no locks, allocates nothing and does not sleep.
 *
 * Return: the value as vsnprintf() would print it: signed integers
 * truncated to @field->size then sign-extended (%hhd of -1 and of 255 give
 * (u64)-1), unsigned integers and %c truncated to @field->size (%hhu of 257
 * gives 1), and for %p and %s the pointer.
 */
u64 marker_field_fetch(const struct marker_field *field, va_list *args)
{
	unsigned int bits = field->size * BITS_PER_BYTE;

	switch (field->type) {
	case MARKER_FIELD_SIGNED:
		return sign_extend64(marker_fetch_signed(field->length, args),
				     bits - 1);
	case MARKER_FIELD_UNSIGNED:
		return marker_fetch_unsigned(field->length, args) &
		       GENMASK_ULL(bits - 1, 0);
	case MARKER_FIELD_CHAR:
		return (unsigned char)va_arg(*args, int);
	case MARKER_FIELD_POINTER:
	case MARKER_FIELD_STRING:
		return (unsigned long)va_arg(*args, const void *);
	}

	/* Not from marker_format_parse(): the argument size is unknown. */
	WARN_ON_ONCE(1);
	return 0;
}
EXPORT_SYMBOL_GPL(marker_field_fetch);
