// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the markers of a vmlinux or a module (.ko) with libelf.
 *
 * In vmlinux the linker script merges __markers and __marker_sites into
 * .data, bounded by __start___markers/__stop___markers and
 * __start___marker_sites/__stop___marker_sites, and __markers_strings into
 * .rodata; struct marker holds absolute pointers and each site entry holds
 * offsets relative to its own fields. In a module (ET_REL) the sections
 * keep their names and every pointer or offset is zero in the section data:
 * RELA relocations fill them (R_X86_64_64 for struct marker's pointers,
 * R_X86_64_PC32 for the site entries), so a place is a section and an
 * offset, not an address.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "markers-abi.h"

/*
 * libelf's types under lower-case names, as checkpatch wants (it flags the
 * CamelCase of libelf's own): each is the type a libelf call returns.
 */
#define elf_t		__typeof__(*elf_begin(0, ELF_C_NULL, NULL))
#define elf_scn_t	__typeof__(*elf_getscn(NULL, 0))
#define elf_data_t	__typeof__(*elf_getdata(NULL, NULL))
#define gelf_ehdr_t	__typeof__(*gelf_getehdr(NULL, NULL))
#define gelf_shdr_t	__typeof__(*gelf_getshdr(NULL, NULL))
#define gelf_sym_t	__typeof__(*gelf_getsym(NULL, 0, NULL))
#define gelf_rela_t	__typeof__(*gelf_getrela(NULL, 0, NULL))

/* A place in the file: a section and an offset in it. */
struct abi_place {
	size_t shndx;
	unsigned long long offset;
};

/* The targets of the relocations of one section, by offset. */
struct abi_relocs {
	struct abi_place *targets;	/* one per 4 bytes of the section */
	bool *valid;
	unsigned long long size;
};

/* A table bounded in one section: __markers or __marker_sites. */
struct abi_table {
	struct abi_place start;
	unsigned long long addr;	/* its address (vmlinux) */
	unsigned long long size;
	const unsigned char *data;
	struct abi_relocs relocs;	/* modules only */
};

struct abi_elf {
	const char *path;
	int fd;
	elf_t *elf;
	gelf_ehdr_t ehdr;
	off_t file_size;
	size_t nr_sections;
	size_t shstrndx;
	bool rel;
	elf_data_t *symtab;
	size_t nr_symbols;
	size_t nr_local_symbols;
	size_t symstrndx;
	char *module;
	struct abi_table markers;
	size_t marker_size;
	char **marker_names;		/* per struct marker entry */
	const char **marker_files;	/* its source file, from the symbols */
	struct abi_table sites;
	bool have_sites;		/* entries in __marker_sites */
};

static int abi_elf_error(struct abi_elf *e, const char *what)
{
	return abi_error(e->path, "%s: %s", what, elf_errmsg(-1));
}

static const char *abi_section_name(struct abi_elf *e, size_t shndx)
{
	elf_scn_t *scn = elf_getscn(e->elf, shndx);
	gelf_shdr_t shdr;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &shdr))
		return NULL;
	name = elf_strptr(e->elf, e->shstrndx, shdr.sh_name);
	return name;
}

/*
 * The contents of section @shndx, checked to lie in the file: a section that
 * runs past its end is truncated.
 */
static int abi_section_data(struct abi_elf *e, size_t shndx, elf_data_t **data)
{
	elf_scn_t *scn = elf_getscn(e->elf, shndx);
	const char *name = abi_section_name(e, shndx);
	gelf_shdr_t shdr;

	if (!scn || !gelf_getshdr(scn, &shdr) || !name)
		return abi_elf_error(e, "cannot read a section header");
	if (shdr.sh_type == SHT_NOBITS)
		return abi_error(e->path, "section %s has no contents", name);
	if (shdr.sh_offset > (unsigned long long)e->file_size ||
	    shdr.sh_size > e->file_size - shdr.sh_offset)
		return abi_error(e->path,
				 "section %s is truncated: it ends at byte %llu of a %lld-byte file",
				 name,
				 (unsigned long long)(shdr.sh_offset + shdr.sh_size),
				 (long long)e->file_size);
	*data = elf_getdata(scn, NULL);
	if (!*data || (*data)->d_size != shdr.sh_size ||
	    (shdr.sh_size && !(*data)->d_buf))
		return abi_error(e->path, "cannot read section %s", name);
	return 0;
}

static int abi_find_section(struct abi_elf *e, const char *wanted,
			    size_t *shndx)
{
	size_t i;

	for (i = 1; i < e->nr_sections; i++) {
		const char *name = abi_section_name(e, i);

		if (!name)
			return abi_error(e->path,
					 "section %zu has no name: corrupted section name table",
					 i);
		if (!strcmp(name, wanted)) {
			*shndx = i;
			return 1;
		}
	}
	return 0;
}

static bool abi_symbol(struct abi_elf *e, size_t index, gelf_sym_t *sym)
{
	return e->symtab && index < e->nr_symbols &&
	       gelf_getsym(e->symtab, index, sym);
}

static const char *abi_symbol_name(struct abi_elf *e, const gelf_sym_t *sym)
{
	return elf_strptr(e->elf, e->symstrndx, sym->st_name);
}

static bool abi_find_symbol(struct abi_elf *e, const char *wanted,
			    gelf_sym_t *sym)
{
	size_t i;

	for (i = 1; i < e->nr_symbols; i++) {
		const char *name;

		if (!abi_symbol(e, i, sym))
			continue;
		name = abi_symbol_name(e, sym);
		if (name && !strcmp(name, wanted))
			return true;
	}
	return false;
}

/* The section holding address @addr of a linked file, and the offset. */
static int abi_address_place(struct abi_elf *e, unsigned long long addr,
			     struct abi_place *place)
{
	size_t i;

	for (i = 1; i < e->nr_sections; i++) {
		elf_scn_t *scn = elf_getscn(e->elf, i);
		gelf_shdr_t shdr;

		if (!scn || !gelf_getshdr(scn, &shdr))
			continue;
		if (!(shdr.sh_flags & SHF_ALLOC) || shdr.sh_type == SHT_NOBITS)
			continue;
		if (addr >= shdr.sh_addr && addr - shdr.sh_addr < shdr.sh_size) {
			place->shndx = i;
			place->offset = addr - shdr.sh_addr;
			return 0;
		}
	}
	return -1;
}

/*
 * Reads the relocations that apply to @table (a module's section): each
 * gives the place its field points to, the symbol's section and value plus
 * the addend (for PC32 the place the offset is relative to cancels out).
 */
static int abi_read_relocs(struct abi_elf *e, struct abi_table *table,
			   const char *what)
{
	struct abi_relocs *r = &table->relocs;
	size_t i, shndx;

	r->size = table->size;
	r->targets = abi_alloc((r->size / 4 + 1) * sizeof(*r->targets));
	r->valid = abi_alloc(r->size / 4 + 1);

	for (shndx = 1; shndx < e->nr_sections; shndx++) {
		elf_scn_t *scn = elf_getscn(e->elf, shndx);
		gelf_shdr_t shdr;
		elf_data_t *data;
		size_t nr;

		if (!scn || !gelf_getshdr(scn, &shdr))
			return abi_elf_error(e, "cannot read a section header");
		if (shdr.sh_type != SHT_RELA || shdr.sh_info != table->start.shndx)
			continue;
		if (abi_section_data(e, shndx, &data))
			return -1;
		nr = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
		for (i = 0; i < nr; i++) {
			unsigned long long offset;
			gelf_rela_t rela;
			gelf_sym_t sym;

			if (!gelf_getrela(data, i, &rela))
				return abi_elf_error(e, "cannot read a relocation");
			offset = rela.r_offset - table->start.offset;
			if (rela.r_offset < table->start.offset ||
			    offset >= r->size || offset % 4)
				continue;
			if (!abi_symbol(e, GELF_R_SYM(rela.r_info), &sym) ||
			    sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= e->nr_sections)
				return abi_error(e->path,
						 "a relocation of %s+0x%llx has no defined symbol",
						 what, offset);
			r->targets[offset / 4].shndx = sym.st_shndx;
			r->targets[offset / 4].offset = sym.st_value + rela.r_addend;
			r->valid[offset / 4] = true;
		}
	}
	return 0;
}

static unsigned long long abi_read_u64(const unsigned char *p)
{
	unsigned long long v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static long long abi_read_s32(const unsigned char *p)
{
	unsigned int v = p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;

	return (int)v;
}

/* Where the pointer at @offset of @table points (@pcrel: an s32 offset). */
static int abi_table_target(struct abi_elf *e, const struct abi_table *table,
			    unsigned long long offset, bool pcrel,
			    struct abi_place *place)
{
	unsigned long long addr;

	if (e->rel) {
		if (!table->relocs.valid[offset / 4])
			return -1;
		*place = table->relocs.targets[offset / 4];
		return 0;
	}
	if (pcrel)
		addr = table->addr + offset +
		       abi_read_s32(table->data + offset);
	else
		addr = abi_read_u64(table->data + offset);
	return abi_address_place(e, addr, place);
}

/* The NUL-terminated string at @place, or NULL after printing an error. */
static const char *abi_string(struct abi_elf *e, const struct abi_place *place,
			      const char *what)
{
	const char *section = abi_section_name(e, place->shndx);
	elf_data_t *data;
	const char *s;

	if (abi_section_data(e, place->shndx, &data))
		return NULL;
	if (place->offset >= data->d_size) {
		abi_error(e->path, "%s points past the end of section %s",
			  what, section);
		return NULL;
	}
	s = (const char *)data->d_buf + place->offset;
	if (!memchr(s, '\0', data->d_size - place->offset)) {
		abi_error(e->path,
			  "%s at %s+0x%llx is not terminated: corrupted string table",
			  what, section, place->offset);
		return NULL;
	}
	return s;
}

static bool abi_is_identifier(const char *name)
{
	size_t i, len = strlen(name);

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!(c == '_' || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || (i && c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/*
 * Finds a table: its own section in a module (or a vmlinux linked so), else
 * the __start_/__stop_ symbols the linker script gives it in vmlinux.
 * Return: 1 found, 0 absent, -1 error.
 */
static int abi_find_table(struct abi_elf *e, const char *section,
			  struct abi_table *table)
{
	char start[64], stop[64];
	gelf_sym_t sym_start, sym_stop;
	elf_data_t *data;
	gelf_shdr_t shdr;
	size_t shndx;
	int ret;

	ret = abi_find_section(e, section, &shndx);
	if (ret < 0)
		return ret;
	if (ret) {
		if (!gelf_getshdr(elf_getscn(e->elf, shndx), &shdr))
			return abi_elf_error(e, "cannot read a section header");
		table->start.shndx = shndx;
		table->start.offset = 0;
		table->addr = shdr.sh_addr;
		table->size = shdr.sh_size;
	} else {
		snprintf(start, sizeof(start), "__start_%s", section);
		snprintf(stop, sizeof(stop), "__stop_%s", section);
		if (e->rel || !abi_find_symbol(e, start, &sym_start) ||
		    !abi_find_symbol(e, stop, &sym_stop))
			return 0;
		if (sym_stop.st_value < sym_start.st_value)
			return abi_error(e->path, "%s is below %s", stop, start);
		table->addr = sym_start.st_value;
		table->size = sym_stop.st_value - sym_start.st_value;
		if (!table->size)
			return 1;
		if (abi_address_place(e, table->addr, &table->start))
			return abi_error(e->path, "%s is in no section with contents",
					 start);
	}
	if (!table->size)
		return 1;
	if (abi_section_data(e, table->start.shndx, &data))
		return -1;
	if (table->start.offset + table->size > data->d_size)
		return abi_error(e->path, "%s runs past the end of its section",
				 section);
	table->data = (const unsigned char *)data->d_buf + table->start.offset;
	if (e->rel && abi_read_relocs(e, table, section))
		return -1;
	return 1;
}

/* Whether @sym lies in __markers. */
static bool abi_in_markers(struct abi_elf *e, const gelf_sym_t *sym)
{
	if (e->rel)
		return sym->st_shndx == e->markers.start.shndx &&
		       sym->st_value >= e->markers.start.offset &&
		       sym->st_value - e->markers.start.offset < e->markers.size;
	return sym->st_value >= e->markers.addr &&
	       sym->st_value - e->markers.addr < e->markers.size;
}

/*
 * The size of struct marker in this file: the size of the __marker_<name>
 * objects the compiler put in __markers, so a kernel built with another
 * layout is read right; MARKER_SIZE without symbols.
 */
static int abi_marker_size(struct abi_elf *e)
{
	unsigned long long size = 0;
	size_t i;

	for (i = 1; i < e->nr_symbols; i++) {
		gelf_sym_t sym;

		if (!abi_symbol(e, i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_OBJECT || !sym.st_size ||
		    !abi_in_markers(e, &sym))
			continue;
		if (size && size != sym.st_size)
			return abi_error(e->path,
					 "objects in __markers have sizes %llu and %llu",
					 size, (unsigned long long)sym.st_size);
		size = sym.st_size;
	}
	if (!size)
		size = MARKER_SIZE;
	if (size < MARKER_FORMAT_OFFSET + 16 || size % 8)
		return abi_error(e->path, "struct marker of %llu bytes is not one this tool knows",
				 size);
	if (e->markers.size % size)
		return abi_error(e->path,
				 "__markers (%llu bytes) is not a whole number of %llu-byte markers: truncated section",
				 e->markers.size, size);
	e->marker_size = size;
	return 0;
}

/*
 * The source file of each struct marker: its __marker_<name> object is
 * static, and a linker lists each object file's local symbols after a FILE
 * symbol with the source file's name.
 */
static void abi_marker_files(struct abi_elf *e)
{
	const char *file = NULL;
	size_t i, nr = e->markers.size / e->marker_size;

	e->marker_files = abi_alloc((nr + 1) * sizeof(char *));
	for (i = 1; i < e->nr_local_symbols && i < e->nr_symbols; i++) {
		unsigned long long offset;
		gelf_sym_t sym;

		if (!abi_symbol(e, i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
			file = abi_symbol_name(e, &sym);
		if (GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
		    !abi_in_markers(e, &sym))
			continue;
		offset = e->rel ? sym.st_value - e->markers.start.offset :
				  sym.st_value - e->markers.addr;
		if (offset % e->marker_size == 0)
			e->marker_files[offset / e->marker_size] = file;
	}
}

static const char *abi_typed_subsystem(const char *name, char *buf, size_t size)
{
	const char *end;

	while (*name == '_')
		name++;
	end = strchr(name, '_');
	snprintf(buf, size, "%.*s", end ? (int)(end - name) : (int)strlen(name),
		 name);
	return buf;
}

static int abi_read_markers(struct abi_elf *e, struct abi_set *set)
{
	size_t nr = e->markers.size / e->marker_size, i;

	e->marker_names = abi_alloc((nr + 1) * sizeof(char *));
	for (i = 0; i < nr; i++) {
		unsigned long long entry = i * e->marker_size;
		struct abi_place name_place, format_place;
		const char *name, *format;
		struct abi_marker *marker;
		char what[MARKER_NAME_MAX + 32], sub[MARKER_NAME_MAX];
		unsigned char flags;

		snprintf(what, sizeof(what), "the name of marker %zu", i);
		if (abi_table_target(e, &e->markers,
				     entry + MARKER_NAME_OFFSET,
				     false, &name_place))
			return abi_error(e->path, "%s points into no section", what);
		name = abi_string(e, &name_place, what);
		if (!name)
			return -1;
		if (!abi_is_identifier(name))
			return abi_error(e->path,
					 "%s is not a C identifier: corrupted string table",
					 what);
		/* trace_mark() refuses it, and so does the module loader. */
		if (strlen(name) >= MARKER_NAME_MAX)
			return abi_error(e->path,
					 "marker %.*s... has a name of %zu characters, more than %d: the kernel refuses it",
					 MARKER_NAME_MAX - 1, name, strlen(name),
					 MARKER_NAME_MAX - 1);

		snprintf(what, sizeof(what), "the format of marker %s", name);
		if (abi_table_target(e, &e->markers,
				     entry + MARKER_FORMAT_OFFSET,
				     false, &format_place))
			return abi_error(e->path, "%s points into no section", what);
		format = abi_string(e, &format_place, what);
		if (!format)
			return -1;

		marker = abi_set_add(set, name, format, e->path);
		if (!marker)
			return -1;
		flags = e->markers.data[entry + MARKER_FLAGS_OFFSET(e->marker_size)];
		if (flags & MARKER_FLAG_TYPED) {
			marker->typed = true;
			if (!marker->subsystem) {
				abi_typed_subsystem(name, sub, sizeof(sub));
				marker->subsystem = abi_strdup(sub);
				marker->origin = "header";
			}
		} else if (!marker->subsystem && e->module) {
			marker->subsystem = abi_strdup(e->module);
			marker->origin = "module";
		} else if (!marker->subsystem) {
			marker->subsystem = abi_strdup(e->marker_files[i] ?
						       e->marker_files[i] : "vmlinux");
			marker->origin = "file";
		}
		e->marker_names[i] = marker->name;
	}
	return 0;
}

/* Names the code at @place: the function holding it and the offset. */
static void abi_code_name(struct abi_elf *e, const struct abi_place *place,
			  unsigned long long addr, char *buf, size_t size)
{
	size_t i;

	for (i = 1; i < e->nr_symbols; i++) {
		unsigned long long start;
		gelf_sym_t sym;
		bool inside;

		if (!abi_symbol(e, i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		start = sym.st_value;
		if (e->rel)
			inside = sym.st_shndx == place->shndx &&
				 place->offset >= start &&
				 place->offset - start < sym.st_size;
		else
			inside = addr >= start && addr - start < sym.st_size;
		if (inside) {
			snprintf(buf, size, "%s+0x%llx", abi_symbol_name(e, &sym),
				 (e->rel ? place->offset : addr) - start);
			return;
		}
	}
	snprintf(buf, size, "%s+0x%llx", abi_section_name(e, place->shndx),
		 place->offset);
}

/* Adds the site @where, in this file, to the marker named @name. */
static void abi_add_site(struct abi_elf *e, struct abi_set *set,
			 const char *name, const char *where)
{
	char site[300];

	if (e->module)
		snprintf(site, sizeof(site), "[%s] %s", e->module, where);
	else
		snprintf(site, sizeof(site), "%s", where);
	abi_marker_add_site(abi_set_find(set, name), site);
}

/*
 * With patchable sites, a marker's sites are its __marker_sites entries:
 * one per copy of its code, where the copies inlined in one translation
 * unit share a struct marker, and none for a struct marker whose code the
 * compiler found dead.
 */
static int abi_read_sites(struct abi_elf *e, struct abi_set *set)
{
	size_t nr = e->sites.size / MARKER_SITE_SIZE, i;

	if (e->sites.size % MARKER_SITE_SIZE)
		return abi_error(e->path,
				 "__marker_sites (%llu bytes) is not a whole number of %d-byte entries: truncated section",
				 e->sites.size, MARKER_SITE_SIZE);
	for (i = 0; i < nr; i++) {
		unsigned long long entry = i * MARKER_SITE_SIZE;
		struct abi_place code, target;
		unsigned long long index, addr = 0, flags;
		char where[256];

		if (abi_table_target(e, &e->sites, entry + MARKER_SITE_MARKER_OFFSET,
				     true, &target))
			return abi_error(e->path, "site %zu points to no marker", i);
		flags = target.offset & MARKER_SITE_FLAGS;
		target.offset -= flags;
		if (target.shndx != e->markers.start.shndx ||
		    target.offset < e->markers.start.offset ||
		    target.offset - e->markers.start.offset >= e->markers.size ||
		    (target.offset - e->markers.start.offset) % e->marker_size)
			return abi_error(e->path, "site %zu points to no marker", i);
		index = (target.offset - e->markers.start.offset) / e->marker_size;

		if (abi_table_target(e, &e->sites, entry + MARKER_SITE_CODE_OFFSET,
				     true, &code))
			return abi_error(e->path, "site %zu points into no section", i);
		if (!e->rel)
			addr = e->sites.addr + entry +
			       abi_read_s32(e->sites.data + entry);
		abi_code_name(e, &code, addr, where, sizeof(where));
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 " (%d bytes)", flags ? 2 : 5);
		abi_add_site(e, set, e->marker_names[index], where);
	}
	return 0;
}

/*
 * Without patchable sites (generic sites: CONFIG_MARKERS_GENERIC_SITES, or
 * an architecture without them) nothing records where the code is: each
 * struct marker counts as one site, named by its source file, or by its
 * place in __markers if the symbols do not say. The copies of a marker
 * inlined in one translation unit share their struct marker, so they
 * count once.
 */
static void abi_read_generic_sites(struct abi_elf *e, struct abi_set *set)
{
	size_t nr = e->markers.size / e->marker_size, i;
	char where[256];

	for (i = 0; i < nr; i++) {
		if (e->marker_files[i])
			snprintf(where, sizeof(where), "%s", e->marker_files[i]);
		else
			snprintf(where, sizeof(where), "__markers+0x%llx",
				 (unsigned long long)(i * e->marker_size));
		abi_add_site(e, set, e->marker_names[i], where);
	}
}

/*
 * The typed markers this file defines: DECLARE_MARKER() with
 * CREATE_MARKERS defines struct marker_typed __marker_typed_<name>, whose
 * first member is a struct marker with the name and format, whether any
 * mark_<name>() site is left or not. A declaration whose name has no
 * site in any file read is one a tool can attach to and never hear from
 * (abi_unfired()).
 */
static int abi_read_declarations(struct abi_elf *e, struct abi_set *set)
{
	static const char prefix[] = "__marker_typed_";
	char sub[MARKER_NAME_MAX];
	size_t i;

	for (i = 1; i < e->nr_symbols; i++) {
		struct abi_table decl = { 0 };
		struct abi_place name_place, format_place;
		const char *symbol, *name, *format;
		struct abi_marker *marker;
		elf_data_t *data;
		gelf_sym_t sym;

		if (!abi_symbol(e, i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= e->nr_sections ||
		    sym.st_size < MARKER_FORMAT_OFFSET + 8)
			continue;
		symbol = abi_symbol_name(e, &sym);
		if (!symbol || strncmp(symbol, prefix, sizeof(prefix) - 1))
			continue;
		/* A module's symbol is a section offset, vmlinux's an address. */
		decl.start.shndx = sym.st_shndx;
		decl.start.offset = sym.st_value;
		decl.addr = sym.st_value;
		decl.size = sym.st_size;
		if (!e->rel && abi_address_place(e, sym.st_value, &decl.start))
			return abi_error(e->path, "%s is outside any section", symbol);
		if (abi_section_data(e, decl.start.shndx, &data))
			return -1;
		if (decl.start.offset + decl.size > data->d_size)
			return abi_error(e->path, "%s is outside its section", symbol);
		decl.data = (const unsigned char *)data->d_buf + decl.start.offset;
		if (e->rel && abi_read_relocs(e, &decl, symbol))
			return -1;
		if (abi_table_target(e, &decl, MARKER_NAME_OFFSET, false, &name_place) ||
		    abi_table_target(e, &decl, MARKER_FORMAT_OFFSET, false, &format_place))
			return abi_error(e->path, "%s points into no section", symbol);
		name = abi_string(e, &name_place, symbol);
		format = name ? abi_string(e, &format_place, symbol) : NULL;
		if (!format)
			return -1;
		if (!abi_is_identifier(name) || strcmp(name, symbol + sizeof(prefix) - 1))
			return abi_error(e->path, "%s names marker %s: corrupted string table",
					 symbol, name);
		marker = abi_set_add(set, name, format, e->path);
		if (!marker)
			return -1;
		marker->declared = true;
		marker->typed = true;
		if (!marker->subsystem) {
			abi_typed_subsystem(name, sub, sizeof(sub));
			marker->subsystem = abi_strdup(sub);
			marker->origin = "header";
		}
		free(decl.relocs.targets);
		free(decl.relocs.valid);
	}
	return 0;
}

/* The module's name from .modinfo ("name=..."), NULL for vmlinux. */
static int abi_module_name(struct abi_elf *e)
{
	elf_data_t *data;
	size_t shndx, i;
	int ret;

	ret = abi_find_section(e, ".modinfo", &shndx);
	if (ret <= 0)
		return ret;
	if (abi_section_data(e, shndx, &data))
		return -1;
	for (i = 0; i + 5 < data->d_size; i++) {
		const char *s = (const char *)data->d_buf + i;

		if ((i == 0 || s[-1] == '\0') && !strncmp(s, "name=", 5) &&
		    memchr(s, '\0', data->d_size - i)) {
			e->module = abi_strdup(s + 5);
			return 0;
		}
	}
	return 0;
}

static int abi_open(struct abi_elf *e, const char *path)
{
	struct stat st;
	gelf_shdr_t shdr;
	size_t i;

	e->path = path;
	e->fd = open(path, O_RDONLY);
	if (e->fd < 0 || fstat(e->fd, &st))
		return abi_error(path, "%s", strerror(errno));
	e->file_size = st.st_size;
	e->elf = elf_begin(e->fd, ELF_C_READ, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF)
		return abi_error(path, "not an ELF file");
	if (!gelf_getehdr(e->elf, &e->ehdr))
		return abi_elf_error(e, "cannot read the ELF header");
	if (e->ehdr.e_ident[EI_CLASS] != ELFCLASS64 ||
	    e->ehdr.e_ident[EI_DATA] != ELFDATA2LSB ||
	    e->ehdr.e_machine != EM_X86_64)
		return abi_error(path, "not an x86-64 ELF file");
	e->rel = e->ehdr.e_type == ET_REL;
	if (elf_getshdrnum(e->elf, &e->nr_sections) ||
	    elf_getshdrstrndx(e->elf, &e->shstrndx))
		return abi_elf_error(e, "cannot read the section headers");
	if (e->ehdr.e_shoff > (unsigned long long)e->file_size ||
	    e->nr_sections * (unsigned long long)e->ehdr.e_shentsize >
	    e->file_size - e->ehdr.e_shoff)
		return abi_error(path, "truncated file: its section headers end past its end");
	if (!e->nr_sections)
		return abi_error(path, "no sections");
	for (i = 1; i < e->nr_sections; i++) {
		if (!abi_section_name(e, i))
			return abi_error(path,
					 "section %zu has no name: corrupted section name table",
					 i);
	}

	for (i = 1; i < e->nr_sections; i++) {
		elf_scn_t *scn = elf_getscn(e->elf, i);

		if (!scn || !gelf_getshdr(scn, &shdr))
			return abi_elf_error(e, "cannot read a section header");
		if (shdr.sh_type != SHT_SYMTAB)
			continue;
		if (abi_section_data(e, i, &e->symtab))
			return -1;
		e->nr_symbols = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
		e->nr_local_symbols = shdr.sh_info;
		e->symstrndx = shdr.sh_link;
		break;
	}
	return 0;
}

/**
 * abi_is_elf - whether @path starts like an ELF file
 * @path: a file
 *
 * Return: true for "\x7fELF", false otherwise or if it cannot be read.
 */
bool abi_is_elf(const char *path)
{
	char magic[SELFMAG];
	FILE *f = fopen(path, "r");
	bool elf;

	if (!f)
		return false;
	elf = fread(magic, 1, SELFMAG, f) == SELFMAG &&
	      !memcmp(magic, ELFMAG, SELFMAG);
	fclose(f);
	return elf;
}

/**
 * abi_read_elf - add the markers of a vmlinux or a module to @set
 * @set: the event set
 * @path: the file
 *
 * Return: 0; 1 if it has no marker sections (nothing printed); -1 after
 * printing why: not an x86-64 ELF file, a section past the end of the
 * file, a corrupted table.
 */
int abi_read_elf(struct abi_set *set, const char *path)
{
	struct abi_elf e = { .fd = -1 };
	int ret = -1;

	elf_version(EV_CURRENT);
	if (abi_open(&e, path) || abi_module_name(&e))
		goto out;
	ret = abi_find_table(&e, "__markers", &e.markers);
	if (ret == 0) {
		ret = 1;
		goto out;
	}
	if (ret < 0)
		goto out;
	ret = abi_find_table(&e, "__marker_sites", &e.sites);
	if (ret < 0)
		goto out;
	/* vmlinux bounds an empty table without patchable sites. */
	e.have_sites = ret && e.sites.size;
	ret = -1;
	if (abi_marker_size(&e))
		goto out;
	abi_marker_files(&e);
	if (abi_read_markers(&e, set))
		goto out;
	if (!e.have_sites)
		abi_read_generic_sites(&e, set);
	else if (abi_read_sites(&e, set))
		goto out;
	if (abi_read_declarations(&e, set))
		goto out;
	set->has_typed = true;
	set->has_sites = true;
	ret = 0;
out:
	if (e.elf)
		elf_end(e.elf);
	if (e.fd >= 0)
		close(e.fd);
	return ret;
}
