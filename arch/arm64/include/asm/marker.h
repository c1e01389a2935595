/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_MARKER_H
#define _ASM_ARM64_MARKER_H

#ifndef __ASSEMBLY__

#include <linux/types.h>
#include <asm/insn.h>

/* Every site is one A64 instruction: NOP, or B to its probe call. */
#define MARKER_SITE_SIZE_MAX	AARCH64_INSN_SIZE

/* The entry's flags are unused: every site is one instruction. */
static inline unsigned int arch_marker_site_size(unsigned int flags)
{
	return AARCH64_INSN_SIZE;
}

struct marker;

/*
 * The site: a NOP and a __marker_sites entry giving its address, the
 * out-of-line block that calls the probes, and the marker, all relative
 * (the marker is the site's own static struct, so 32 bits reach it from a
 * module too). Enabling writes B to the block over the NOP
 * (arch/arm64/kernel/marker.c), as a static branch is patched.
 */
static __always_inline bool arch_marker_site_enabled(struct marker *marker)
{
	asm goto("1:	nop\n\t"
		 MARKER_SITE_ENTRY
		 : : "i" (marker) : : l_yes);
	return false;
l_yes:
	return true;
}

#endif /* __ASSEMBLY__ */

#endif /* _ASM_ARM64_MARKER_H */
