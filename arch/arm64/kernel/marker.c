// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 marker sites: a NOP while disabled, B to the site's out-of-line
 * probe call while enabled.
 *
 * This file only chooses instructions, checks the instruction it expects
 * to find and writes the new one, as arch/arm64/kernel/jump_label.c does.
 * Which sites change, and when, is decided by kernel/trace/marker.c, which
 * calls in here with its marker mutex and text_mutex held, one batch per
 * registry update.
 *
 * NOP and B are among the instructions the architecture lets one CPU
 * rewrite while others may execute them (ARM DDI 0487, "Concurrent
 * modification and execution of instructions"), so each site is written
 * in place with aarch64_insn_patch_text_nosync(), which cleans the line to
 * the point of unification, and the whole batch ends with a single
 * kick_all_cpus_sync(): one IPI round after which every CPU has taken an
 * exception, a context synchronisation event, and so fetches the new
 * instructions. aarch64_insn_patch_text() would stop every CPU instead.
 */
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/lockdep.h>
#include <linux/smp.h>
#include <asm/insn.h>
#include <asm/patching.h>

/*
 * The instruction of a site in a state; AARCH64_BREAK_FAULT if the site's
 * block is out of reach of B (+-128 MiB), which the linker and the module
 * loader leave no room for, as for static branches.
 */
static u32 marker_site_insn(const struct marker_site *site, bool enabled)
{
	if (!enabled)
		return aarch64_insn_gen_nop();
	return aarch64_insn_gen_branch_imm(marker_site_code(site),
					   marker_site_target(site),
					   AARCH64_INSN_BRANCH_NOLINK);
}

/**
 * arch_marker_site_check - does a site hold the instruction for a state?
 * @site: the site
 * @enabled: the state to compare with
 *
 * Anything else (a kprobe's BRK, another patcher's instruction) means the
 * site is not ours to patch now; the core names it. Called with text_mutex
 * held, so nothing changes the instruction between this check and the
 * batch.
 *
 * Return: 0 if the site holds exactly that instruction, else -EBUSY.
 */
int arch_marker_site_check(const struct marker_site *site, bool enabled)
{
	u32 expect = marker_site_insn(site, enabled);
	u32 found;

	lockdep_assert_held(&text_mutex);
	if (expect == AARCH64_BREAK_FAULT ||
	    aarch64_insn_read((void *)marker_site_code(site), &found) ||
	    found != expect)
		return -EBUSY;
	return 0;
}

/**
 * arch_marker_site_queue - write the instruction for a site's new state
 * @site: a site that holds the other state's instruction
 * @enable: write B to the probe call (true) or the NOP (false)
 *
 * The write is visible to the CPU that made it at once; the others are
 * made to fetch it by arch_marker_site_apply(). Called with text_mutex
 * held.
 */
void arch_marker_site_queue(const struct marker_site *site, bool enable)
{
	void *code = (void *)marker_site_code(site);
	u32 insn = marker_site_insn(site, enable);

	lockdep_assert_held(&text_mutex);
	if (WARN_ONCE(insn == AARCH64_BREAK_FAULT,
		      "marker site %pS: probe call out of reach\n", code))
		return;
	WARN_ONCE(aarch64_insn_patch_text_nosync(code, insn),
		  "marker site %pS: cannot write %08x\n", code, insn);
}

/**
 * arch_marker_site_apply - make every CPU see the written sites
 *
 * One IPI round for the whole batch. Called with text_mutex held, and
 * cpus_read_lock().
 */
void arch_marker_site_apply(void)
{
	lockdep_assert_held(&text_mutex);
	kick_all_cpus_sync();
}
