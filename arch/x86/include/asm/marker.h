/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

#include <asm/asm.h>
#include <asm/nops.h>

#ifndef __ASSEMBLY__

#include <linux/stringify.h>
#include <linux/types.h>

/*
 * A site is one instruction: a NOP, or a JMP to its out-of-line block when
 * enabled, 2 bytes (JMP rel8) where the block is in a short jump's reach,
 * 5 bytes (JMP rel32) otherwise. The entry's flags say which: how much
 * shorter than 5 bytes it is, so 0 for a 5-byte site, as any entry written
 * without flags, and 3 for a 2-byte one.
 */
#define MARKER_SITE_SIZE_MAX	5

static inline unsigned int arch_marker_site_size(unsigned int flags)
{
	return flags ? 2 : 5;
}

struct marker;

#ifdef CONFIG_HAVE_JUMP_LABEL_HACK
/*
 * As a static branch: the assembler picks JMP rel8 or rel32 by distance and
 * objtool writes a NOP of the same length over it. The length is recorded
 * in the entry rather than decoded from the site when needed: a busy site
 * holds foreign bytes, and marker_text_reserved() reads sites without locks
 * while text_poke_bp() may have an int3 in them.
 */
#define MARKER_SITE_INSN	"jmp %l[l_yes] # objtool NOPs this"
#else
/* Without objtool to NOP the jump, every site is 5 bytes. */
#define MARKER_SITE_INSN	".byte " __stringify(BYTES_NOP5)
#endif

/* The entry's flags for a site between local labels 1 and 2. */
#define MARKER_SITE_LENGTH_FLAGS	"(5 - (2b - 1b))"

/*
 * The site: a NOP and a __marker_sites entry giving its address, the
 * out-of-line block that calls the probes, the marker and the NOP's length,
 * all relative. Enabling writes a JMP over the NOP (arch/x86/kernel/marker.c).
 */
static __always_inline bool arch_marker_site_enabled(struct marker *marker)
{
	asm goto("1: " MARKER_SITE_INSN "\n2:\n\t"
		 MARKER_SITE_ENTRY_FLAGS(MARKER_SITE_LENGTH_FLAGS)
		 : : "i" (marker) : : l_yes);
	return false;
l_yes:
	return true;
}

#endif /* __ASSEMBLY__ */

#endif /* _ASM_X86_MARKER_H */
