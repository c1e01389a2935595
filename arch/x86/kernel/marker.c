// SPDX-License-Identifier: GPL-2.0
/*
 * x86 marker sites: a NOP while disabled, a JMP to the site's out-of-line
 * probe call while enabled; 2 bytes (JMP rel8) where the probe call is in a
 * short jump's reach, 5 bytes (JMP rel32) otherwise.
 *
 * This file only chooses instructions, checks the bytes it expects to find
 * and hands the writes to text_poke_queue()/text_poke_finish(). Which sites
 * change, and when, is decided by kernel/trace/marker.c, which calls in here
 * with its marker mutex and text_mutex held, one batch per registry update.
 */
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/lockdep.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

static const void *marker_site_insn(const struct marker_site *site, bool enabled)
{
	unsigned int size = marker_site_size(site);
	void *code = (void *)marker_site_code(site);

	if (!enabled)
		return x86_nops[size];
	return text_gen_insn(size == JMP8_INSN_SIZE ? JMP8_INSN_OPCODE : JMP32_INSN_OPCODE,
			     code, (void *)marker_site_target(site));
}

/**
 * arch_marker_site_check - does a site hold the instruction for a state?
 * @site: the site
 * @enabled: the state to compare with
 *
 * Anything else (a kprobe's int3, another patcher's bytes) means the site
 * is not ours to patch now; the core names it. Called with text_mutex
 * held, so nothing changes the bytes between this check and the batch.
 *
 * Return: 0 if the site holds exactly that instruction, else -EBUSY.
 */
int arch_marker_site_check(const struct marker_site *site, bool enabled)
{
	const void *code = (void *)marker_site_code(site);
	const void *expect = marker_site_insn(site, enabled);
	unsigned int size = marker_site_size(site);
	u8 found[MARKER_SITE_SIZE_MAX];

	lockdep_assert_held(&text_mutex);
	if (copy_from_kernel_nofault(found, code, size) ||
	    memcmp(found, expect, size))
		return -EBUSY;
	return 0;
}

/**
 * arch_marker_site_queue - queue the instruction for a site's new state
 * @site: a site that holds the other state's instruction
 * @enable: write the JMP (true) or the NOP (false)
 *
 * Sites queued in ascending address order share one int3-guarded batch;
 * text_poke_queue() flushes early only when its vector is full. Called with
 * text_mutex held.
 */
void arch_marker_site_queue(const struct marker_site *site, bool enable)
{
	lockdep_assert_held(&text_mutex);
	text_poke_queue((void *)marker_site_code(site),
			marker_site_insn(site, enable), marker_site_size(site), NULL);
}

/**
 * arch_marker_site_apply - write every queued site
 *
 * Called with text_mutex held, and cpus_read_lock() for the sync rounds.
 */
void arch_marker_site_apply(void)
{
	lockdep_assert_held(&text_mutex);
	text_poke_finish();
}
