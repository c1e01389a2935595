// SPDX-License-Identifier: GPL-2.0
/*
 * x86 marker sites: a 5-byte NOP while disabled, JMP rel32 to the site's
 * out-of-line probe call while enabled.
 *
 * This file only chooses instructions, checks the bytes it expects to find
 * and hands the writes to text_poke_queue()/text_poke_finish(). Which sites
 * change, and when, is decided by kernel/trace/marker.c, which calls in here
 * with its marker mutex held, one batch per registry update.
 */
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/text-patching.h>

static const void *marker_site_insn(const struct marker_site *site, bool enabled)
{
	void *code = (void *)marker_site_code(site);

	if (!enabled)
		return x86_nops[MARKER_SITE_SIZE];
	return text_gen_insn(JMP32_INSN_OPCODE, code,
			     (void *)marker_site_target(site));
}

/**
 * arch_marker_site_check - check that a site holds what markers left there
 * @site: the site
 * @enabled: the state the core last gave the site
 *
 * Anything else (a kprobe's int3, another patcher's bytes) means the site is
 * not ours to patch now.
 *
 * Return: 0, or -EBUSY after one warning line naming the site.
 */
int arch_marker_site_check(const struct marker_site *site, bool enabled)
{
	const void *code = (void *)marker_site_code(site);
	const void *expect = marker_site_insn(site, enabled);
	u8 found[MARKER_SITE_SIZE];

	if (copy_from_kernel_nofault(found, code, MARKER_SITE_SIZE)) {
		pr_warn("markers: cannot read site %pS\n", code);
		return -EBUSY;
	}
	if (memcmp(found, expect, MARKER_SITE_SIZE)) {
		pr_warn("markers: site %pS holds %5ph, expected %5ph; not patched\n",
			code, found, expect);
		return -EBUSY;
	}
	return 0;
}

/**
 * arch_marker_site_queue - queue the instruction for a site's new state
 * @site: a site that passed arch_marker_site_check() for the other state
 * @enable: write JMP rel32 (true) or the NOP (false)
 *
 * Sites queued in ascending address order share one int3-guarded batch;
 * text_poke_queue() flushes early only when its vector is full.
 */
void arch_marker_site_queue(const struct marker_site *site, bool enable)
{
	mutex_lock(&text_mutex);
	text_poke_queue((void *)marker_site_code(site),
			marker_site_insn(site, enable), MARKER_SITE_SIZE, NULL);
	mutex_unlock(&text_mutex);
}

/**
 * arch_marker_site_apply - write every queued site
 */
void arch_marker_site_apply(void)
{
	mutex_lock(&text_mutex);
	text_poke_finish();
	mutex_unlock(&text_mutex);
}
