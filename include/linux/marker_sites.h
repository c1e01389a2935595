/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_SITES_H
#define _LINUX_MARKER_SITES_H

/*
 * Patchable marker sites (CONFIG_HAVE_ARCH_MARKER_SITES): what an
 * architecture implements and what kernel/trace/marker_sites.c reads of
 * each site. Included by <linux/marker.h>; not for direct use.
 */

#include <linux/types.h>

/*
 * The __marker_sites entry (struct marker_site) of a site whose instruction
 * is at local label 1, for an architecture's asm goto: operand 0 is the
 * marker, label l_yes the out-of-line block. @flags, an assembler
 * expression worth 0 to MARKER_SITE_FLAGS, is added to the marker's
 * offset, as jump labels add a branch's type to its key's.
 */
#define MARKER_SITE_ENTRY_FLAGS(flags)		\
	".pushsection __marker_sites, \"aw\"\n\t"	\
	".balign 4\n\t"				\
	".long 1b - .\n\t"			\
	".long %l[l_yes] - .\n\t"		\
	".long %c0 + " flags " - .\n\t"		\
	".popsection\n\t"

#define MARKER_SITE_ENTRY	MARKER_SITE_ENTRY_FLAGS("0")

/*
 * The low bits of an entry's marker offset, free as struct marker is
 * aligned to 4 bytes and so is the field: the architecture's, to say
 * what kind of site the entry is (x86: a 2-byte or a 5-byte one).
 */
#define MARKER_SITE_FLAGS	3UL

#include <asm/marker.h>

/*
 * One patchable site, in the __marker_sites section. Offsets are relative to
 * the field's own address, so the table needs no relocation.
 */
struct marker_site {
	s32 code;
	s32 target;
	s32 marker;
};

static inline unsigned long marker_site_code(const struct marker_site *site)
{
	return (unsigned long)&site->code + site->code;
}

static inline unsigned long marker_site_target(const struct marker_site *site)
{
	return (unsigned long)&site->target + site->target;
}

static inline struct marker *marker_site_marker(const struct marker_site *site)
{
	return (struct marker *)(((unsigned long)&site->marker + site->marker) &
				 ~MARKER_SITE_FLAGS);
}

static inline unsigned int marker_site_flags(const struct marker_site *site)
{
	return site->marker & MARKER_SITE_FLAGS;
}

/* The site's length in bytes, at most MARKER_SITE_SIZE_MAX. */
static inline unsigned int marker_site_size(const struct marker_site *site)
{
	return arch_marker_site_size(marker_site_flags(site));
}

/*
 * Implemented by the architecture; called with the marker mutex and
 * text_mutex held. arch_marker_site_check() returns 0 if the site holds
 * exactly the instruction for @enabled, -EBUSY otherwise, silently.
 */
int arch_marker_site_check(const struct marker_site *site, bool enabled);
void arch_marker_site_queue(const struct marker_site *site, bool enable);
void arch_marker_site_apply(void);

/* The core kernel's sites, bounded by the linker script. */
extern struct marker_site __start___marker_sites[], __stop___marker_sites[];

#endif /* _LINUX_MARKER_SITES_H */
