/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

#include <asm/asm.h>
#include <asm/nops.h>

#ifndef __ASSEMBLY__

#include <linux/stringify.h>
#include <linux/types.h>

/* Every site is one 5-byte instruction: a NOP, or JMP rel32 when enabled. */
#define MARKER_SITE_SIZE	5

struct marker;

/*
 * The site: a 5-byte NOP and a __marker_sites entry giving its address, the
 * out-of-line block that calls the probes, and the marker, all relative.
 * Enabling writes JMP rel32 over the NOP (arch/x86/kernel/marker.c).
 */
static __always_inline bool arch_marker_site_enabled(struct marker *marker)
{
	asm goto("1: .byte " __stringify(BYTES_NOP5) "\n\t"
		 MARKER_SITE_ENTRY
		 : : "i" (marker) : : l_yes);
	return false;
l_yes:
	return true;
}

#endif /* __ASSEMBLY__ */

#endif /* _ASM_X86_MARKER_H */
