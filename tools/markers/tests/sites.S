/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Marker tables laid out as the kernel's (include/linux/marker.h) for
 * markers-abi's test-sites, written in assembly so that each marker has
 * exactly the struct markers and sites it is meant to have:
 *
 *	sites_inlined	one struct marker, two sites (sites_first and
 *			sites_second): a mark_<name>() inlined twice in one
 *			file, as futex_lock_pi is in do_futex()
 *	sites_twice	two struct markers, one site each (sites_third)
 *	sites_dead	one struct marker, no site: its code was dead
 *
 * Without GENERIC_SITES each site has its __marker_sites entry, as on x86
 * and arm64; with it there are only the struct markers, as with
 * CONFIG_MARKERS_GENERIC_SITES. Without VMLINUX the tables are sections of
 * their own, filled by relocations, in a module named sites_test; with
 * VMLINUX they lie in .data between the __start_ and __stop_ symbols that
 * the kernel's linker script gives them, and the file is to be linked.
 */
	.file	"sites.S"

#define MARKER_FLAG_TYPED	0x04

#ifdef VMLINUX
#define MARKERS_SECTION		.data
#define MARKER_SITES_SECTION	.data
#else
#define MARKERS_SECTION		__markers, "aw"
#define MARKER_SITES_SECTION	__marker_sites, "aw"
#endif

/* A struct marker: name, format, probes, typed, state, flags; 40 bytes. */
.macro MARKER symbol, name, flags
	.pushsection __markers_strings, "a"
\symbol\()_name:
	.asciz	"\name"
\symbol\()_format:
	.asciz	"value %d"
	.popsection
	.balign	8
	.type	\symbol, @object
	.size	\symbol, 40
\symbol:
	.quad	\symbol\()_name, \symbol\()_format, 0, 0
	.byte	0, \flags
	.zero	6
.endm

/*
 * A site: a 5-byte NOP (with short=1 a 2-byte one, flagged in the marker's
 * offset as x86 does), and its __marker_sites entry giving it, the
 * out-of-line block that would call the probes and the marker. A generic
 * site reads the marker's state instead, and has no entry.
 */
.macro SITE marker, short=0
#ifdef GENERIC_SITES
	cmpb	$0, \marker + 32(%rip)
#else
.Lsite\@:
	.if	\short
	.byte	0x66, 0x90
	.else
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00
	.endif
	.pushsection MARKER_SITES_SECTION
	.balign	4
	.long	.Lsite\@ - .
	.long	.Lcall\@ - .
	.long	\marker + 3 * \short - .
	.popsection
	.pushsection .text.unlikely, "ax"
.Lcall\@:
	jmp	.Lsite\@ + 5 - 3 * \short
	.popsection
#endif
.endm

.macro FUNCTION name
	.text
	.globl	\name
	.type	\name, @function
\name:
.endm

.macro END name
	ret
	.size	\name, . - \name
.endm

/* A __start_ or __stop_ symbol of the kernel's linker script. */
.macro BOUND symbol
#ifdef VMLINUX
	.globl	\symbol
\symbol:
#endif
.endm

	.pushsection MARKERS_SECTION
	.balign	8
	BOUND	__start___markers
	MARKER	__marker_sites_inlined, sites_inlined, MARKER_FLAG_TYPED
	MARKER	__marker_sites_twice_1, sites_twice, 0
	MARKER	__marker_sites_twice_2, sites_twice, 0
	MARKER	__marker_sites_dead, sites_dead, 0
	BOUND	__stop___markers
	.popsection
	.pushsection MARKER_SITES_SECTION
	.balign	4
	BOUND	__start___marker_sites
	.popsection

FUNCTION sites_first
	SITE	__marker_sites_inlined
END sites_first

FUNCTION sites_second
	SITE	__marker_sites_inlined, 1
END sites_second

FUNCTION sites_third
	SITE	__marker_sites_twice_1
	SITE	__marker_sites_twice_2
END sites_third

	.pushsection MARKER_SITES_SECTION
	BOUND	__stop___marker_sites
	.popsection

#ifndef VMLINUX
	.section .modinfo, "a"
	.asciz	"name=sites_test"
#endif
	.section .note.GNU-stack, "", @progbits
