// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of patchable marker sites: the bytes at a site as probes
 * come and go, busy sites, kprobes kept off sites, batches (one per
 * update, and the caller's own), and the site table's protection.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/context_tracking.h>
#include <linux/hardirq.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "marker_internal.h"
#include "marker_kunit.h"

struct marker_kunit_other {
	struct marker_kunit_seen seen;
	struct completion done;
	struct marker_patch_batch *batch;	/* the test's own */
	int end_ret;
	int ret;
};

/*
 * Another task: tries to end the test's batch, registers, fires once, and
 * says how that went.
 */
static int marker_kunit_other_task(void *data)
{
	struct marker_kunit_other *o = data;

	o->end_ret = marker_patch_batch_end(o->batch);
	o->ret = marker_probe_register("marker_kunit_values", MARKER_KUNIT_FMT,
				       marker_kunit_count, &o->seen);
	if (!o->ret)
		marker_kunit_fire(3, 4, "other");
	complete(&o->done);
	return 0;
}

/*
 * A patch batch is its owner's: another task cannot end it (-EINVAL), and
 * its registration while the batch is open patches its sites before
 * returning, and its probe is called.
 */
static void marker_batch_belongs_to_caller(struct kunit *test)
{
	struct marker_patch_batch batch;
	struct marker_kunit_other o = { .batch = &batch };
	struct task_struct *task;

	init_completion(&o.done);
	marker_patch_batch_begin(&batch);
	task = kthread_run(marker_kunit_other_task, &o, "marker_kunit_other");
	if (IS_ERR(task)) {
		marker_patch_batch_end(&batch);
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(task));
		return;
	}
	wait_for_completion(&o.done);
	KUNIT_EXPECT_EQ_MSG(test, o.end_ret, -EINVAL,
			    "another task cannot end this task's batch");
	KUNIT_EXPECT_EQ(test, o.ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, o.seen.calls, 1,
			    "the other task's probe is called while this batch is open");
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_count, &o.seen));
	marker_synchronize_unregister();
}

/*
 * The site suite knows each architecture's instructions and IPI counters:
 * the helpers below are all it needs of them.
 */

#ifdef CONFIG_X86
#include <linux/kallsyms.h>
#include <trace/events/csd.h>
#include <asm/text-patching.h>

/* A disabled site of @size bytes: the NOP of that length. */
static const u8 *marker_kunit_nop(unsigned int size)
{
	return x86_nops[size];
}

/*
 * Instructions markers never write, one per site size: DS-prefixed
 * 1-byte and 4-byte NOPs.
 */
static const u8 marker_kunit_foreign2[JMP8_INSN_SIZE] = { 0x3e, 0x90 };
static const u8 marker_kunit_foreign5[JMP32_INSN_SIZE] = {
	0x3e, 0x0f, 0x1f, 0x40, 0x00
};

static const u8 *marker_kunit_foreign(unsigned int size)
{
	return size == JMP8_INSN_SIZE ? marker_kunit_foreign2 : marker_kunit_foreign5;
}

/* Where the instruction at @code jumps if it is JMP rel8 or rel32, else 0. */
static unsigned long marker_kunit_jmp_target(unsigned long code)
{
	const u8 *insn = (const u8 *)code;
	s32 rel;

	if (insn[0] == JMP8_INSN_OPCODE)
		return code + JMP8_INSN_SIZE + (s8)insn[1];
	if (insn[0] != JMP32_INSN_OPCODE)
		return 0;
	memcpy(&rel, insn + 1, sizeof(rel));
	return code + JMP32_INSN_SIZE + rel;
}

static void marker_kunit_poke(unsigned long code, unsigned int size,
			      const void *bytes)
{
	mutex_lock(&text_mutex);
	text_poke_bp((void *)code, bytes, size, x86_nops[size]);
	mutex_unlock(&text_mutex);
}

/*
 * text_poke_sync() rounds run by other CPUs: each runs do_sync_core() from
 * a function-call IPI. They are counted at csd_function_entry rather than
 * as every function-call IPI (irq_call_count, CAL in /proc/interrupts):
 * the scheduler's remote wakeups (ttwu_queue_wakelist()) come through the
 * same vector, and on a slow preemptible kernel some land in the window.
 */
static atomic_long_t marker_kunit_sync_rounds;
static unsigned long marker_kunit_sync_core;

/*
 * Hard-IRQ context, on the CPU the IPI reached; csd is NULL where the
 * sender runs the function itself, which is not an IPI.
 */
static void marker_kunit_csd_entry(void *data, smp_call_func_t func,
				   call_single_data_t *csd)
{
	if (csd && (unsigned long)func == marker_kunit_sync_core)
		atomic_long_inc(&marker_kunit_sync_rounds);
}

static void marker_kunit_ipis_start(struct kunit *test)
{
	marker_kunit_sync_core = kallsyms_lookup_name("do_sync_core");
	if (!marker_kunit_sync_core)
		kunit_skip(test, "do_sync_core() not found in kallsyms");
	KUNIT_ASSERT_EQ(test, 0,
			register_trace_csd_function_entry(marker_kunit_csd_entry,
							  NULL));
}

static void marker_kunit_ipis_stop(void)
{
	unregister_trace_csd_function_entry(marker_kunit_csd_entry, NULL);
	tracepoint_synchronize_unregister();
}

static unsigned long marker_kunit_call_ipis(void)
{
	return atomic_long_read(&marker_kunit_sync_rounds);
}

/* text_poke_finish() patches its queue with three sync rounds. */
#define MARKER_KUNIT_BATCH_IPIS_MAX(others)	(2 * 3 * (others))

/*
 * The lengths of a site whose block is a short jump away and of one whose
 * block is not: 2 and 5 bytes where objtool turns the assembler's choice of
 * jump into the site's NOP, 5 bytes for both otherwise.
 */
#ifdef CONFIG_HAVE_JUMP_LABEL_HACK
#define MARKER_KUNIT_NEAR_SIZE	JMP8_INSN_SIZE
#else
#define MARKER_KUNIT_NEAR_SIZE	JMP32_INSN_SIZE
#endif
#define MARKER_KUNIT_FAR_SIZE	JMP32_INSN_SIZE

/* arch_marker_site_enabled(), with 128 bytes of NOPs after the site. */
static __always_inline bool marker_kunit_far_enabled(struct marker *marker)
{
	asm goto("1: " MARKER_SITE_INSN "\n2:\n\t"
		 ".skip 128, 0x90\n\t"
		 MARKER_SITE_ENTRY_FLAGS(MARKER_SITE_LENGTH_FLAGS)
		 : : "i" (marker) : : l_yes);
	return false;
l_yes:
	return true;
}
#endif /* CONFIG_X86 */

#ifdef CONFIG_ARM64
#include <linux/cpu.h>
#include <linux/interrupt.h>
#include <linux/irqdesc.h>
#include <linux/kernel_stat.h>
#include <linux/unaligned.h>
#include <asm/insn.h>
#include <asm/patching.h>

/*
 * A64 instructions, little-endian in memory: NOP, and YIELD, a hint that
 * markers never write.
 */
static const u8 marker_kunit_nop4[AARCH64_INSN_SIZE] = {
	0x1f, 0x20, 0x03, 0xd5
};

static const u8 marker_kunit_foreign4[AARCH64_INSN_SIZE] = {
	0x3f, 0x20, 0x03, 0xd5
};

/* Every site is one instruction: @size is always AARCH64_INSN_SIZE. */
static const u8 *marker_kunit_nop(unsigned int size)
{
	return marker_kunit_nop4;
}

static const u8 *marker_kunit_foreign(unsigned int size)
{
	return marker_kunit_foreign4;
}

/* Where the instruction at @code branches if it is B, else 0. */
static unsigned long marker_kunit_jmp_target(unsigned long code)
{
	u32 insn = get_unaligned_le32((const void *)code);

	if (!aarch64_insn_is_b(insn))
		return 0;
	return code + aarch64_get_branch_offset(insn);
}

/* As a kprobe is armed: with every other CPU stopped. */
static void marker_kunit_poke(unsigned long code, unsigned int size,
			      const void *bytes)
{
	void *addr = (void *)code;
	u32 insn = get_unaligned_le32(bytes);

	cpus_read_lock();
	mutex_lock(&text_mutex);
	WARN_ON(aarch64_insn_patch_text(&addr, &insn, 1));
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
}

/* arm64 reads the IPI's own counter: nothing to set up. */
static void marker_kunit_ipis_start(struct kunit *test)
{
}

static void marker_kunit_ipis_stop(void)
{
}

/*
 * Function-call IPIs all CPUs received (IPI1 in /proc/interrupts): arm64
 * requests its IPIs as consecutive per-CPU interrupts named "IPI", the
 * function call one second (IPI_CALL_FUNC in arch/arm64/kernel/smp.c).
 */
static unsigned long marker_kunit_call_ipis(void)
{
	struct irq_desc *desc;
	unsigned long sum = 0;
	unsigned int irq;
	int cpu;

	for_each_irq_desc(irq, desc)
		if (desc->action && desc->action->name &&
		    !strcmp(desc->action->name, "IPI"))
			break;
	if (irq >= nr_irqs)
		return 0;
	for_each_online_cpu(cpu)
		sum += kstat_irqs_cpu(irq + 1, cpu);
	return sum;
}

/* One kick_all_cpus_sync() per batch; room for a stray IPI or two. */
#define MARKER_KUNIT_BATCH_IPIS_MAX(others)	(4 * (others))

/* B reaches 128 MiB: every site is one instruction, near block or far. */
#define MARKER_KUNIT_NEAR_SIZE	AARCH64_INSN_SIZE
#define MARKER_KUNIT_FAR_SIZE	AARCH64_INSN_SIZE
#define marker_kunit_far_enabled(marker)	arch_marker_site_enabled(marker)
#endif /* CONFIG_ARM64 */

struct marker_kunit_site {
	const char *name;
	unsigned long code;
	unsigned long target;
	unsigned int size;
	bool enabled;
	bool busy;
	unsigned int found;
};

static int marker_kunit_find_site(const struct marker_site_info *info,
				  void *data)
{
	struct marker_kunit_site *site = data;

	if (strcmp(info->marker->name, site->name))
		return 0;
	site->code = info->code;
	site->target = info->target;
	site->size = info->size;
	site->enabled = info->enabled;
	site->busy = info->busy;
	site->found++;
	return 0;
}

/* The two sites of marker_kunit_two, in address order. */
struct marker_kunit_two_sites {
	struct marker_kunit_site site[2];
	unsigned int found;
};

static int marker_kunit_find_two(const struct marker_site_info *info,
				 void *data)
{
	struct marker_kunit_two_sites *two = data;

	if (strcmp(info->marker->name, "marker_kunit_two"))
		return 0;
	if (two->found < 2) {
		two->site[two->found].name = info->marker->name;
		marker_kunit_find_site(info, &two->site[two->found]);
	}
	two->found++;
	return 0;
}

static void marker_kunit_get_site(struct kunit *test,
				  struct marker_kunit_site *site,
				  const char *name)
{
	memset(site, 0, sizeof(*site));
	site->name = name;
	marker_iterate_sites(marker_kunit_find_site, site);
	KUNIT_ASSERT_EQ_MSG(test, site->found, 1, "one site named %s", name);
}

static int marker_kunit_find_size(const struct marker_site_info *info,
				  void *data)
{
	struct marker_kunit_site *site = data;

	if (info->code != site->code)
		return 0;
	site->size = info->size;
	return 1;
}

/* The length of the site at @code, as its entry gives it. */
static unsigned int marker_kunit_size(unsigned long code)
{
	struct marker_kunit_site site = { .code = code };

	marker_iterate_sites(marker_kunit_find_size, &site);
	WARN_ON(!site.size);
	return site.size;
}

/* Write the bytes markers never write over the site at @code. */
static void marker_kunit_poke_foreign(unsigned long code)
{
	unsigned int size = marker_kunit_size(code);

	marker_kunit_poke(code, size, marker_kunit_foreign(size));
}

static void marker_kunit_poke_nop(unsigned long code)
{
	unsigned int size = marker_kunit_size(code);

	marker_kunit_poke(code, size, marker_kunit_nop(size));
}

static void marker_kunit_expect_nop_msg(struct kunit *test, unsigned long code,
					const char *msg)
{
	unsigned int size = marker_kunit_size(code);

	KUNIT_EXPECT_MEMEQ_MSG(test, (void *)code, marker_kunit_nop(size), size,
			       "%s", msg);
}

static void marker_kunit_expect_nop(struct kunit *test, unsigned long code)
{
	marker_kunit_expect_nop_msg(test, code, "a disabled site holds the NOP");
}

static void marker_kunit_expect_foreign(struct kunit *test, unsigned long code)
{
	unsigned int size = marker_kunit_size(code);

	KUNIT_EXPECT_MEMEQ_MSG(test, (void *)code, marker_kunit_foreign(size),
			       size, "the foreign bytes are left alone");
}

static void marker_kunit_expect_jmp(struct kunit *test, unsigned long code,
				    unsigned long target)
{
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_jmp_target(code), target,
			    "an enabled site holds a jump to its probe call");
}

static void marker_site_bytes(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE(test, site.enabled);
	KUNIT_EXPECT_NE(test, site.target, site.code);
	marker_kunit_expect_nop(test, site.code);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &seen));
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE(test, site.enabled);
	marker_kunit_expect_jmp(test, site.code, site.target);
	marker_kunit_fire(11, 12, "jmp");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	marker_synchronize_unregister();
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE(test, site.enabled);
	marker_kunit_expect_nop(test, site.code);
}

/*
 * Inside marker_patch_batch_begin()/end(), a registration publishes its
 * probes but the site is patched only at the end, and a failing one still
 * fails.
 */
static void marker_site_patch_batch(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;

	struct marker_patch_batch batch, inner;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	marker_patch_batch_begin(&batch);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_register("marker_kunit_values",
					      MARKER_KUNIT_FMT,
					      marker_kunit_probe, &seen));
	KUNIT_EXPECT_EQ(test, -EPERM,
			marker_probe_register("marker_kunit_values", "x %d",
					      marker_kunit_count, &seen));
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE_MSG(test, site.enabled, "the probes are published");
	marker_kunit_expect_nop(test, site.code);
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	marker_kunit_expect_jmp(test, site.code, site.target);
	marker_kunit_fire(5, 6, "batch");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ_MSG(test, -EINVAL, marker_patch_batch_end(&batch),
			    "a batch ends once");

	marker_patch_batch_begin(&batch);
	marker_patch_batch_begin(&inner);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&inner));
	marker_kunit_expect_jmp(test, site.code, site.target);
	/* Still a jump, to a marker without probes: it calls nothing. */
	marker_synchronize_unregister();
	marker_kunit_fire(7, 8, "jump, no probe");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	marker_kunit_expect_nop(test, site.code);
	marker_synchronize_unregister();
	marker_kunit_fire(7, 8, "off");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
}

static void marker_site_kprobe_refused(struct kunit *test)
{
#ifdef CONFIG_KPROBES
	struct marker_kunit_site site;
	struct kprobe kp = { };
	int ret;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE(test, marker_text_reserved((void *)site.code,
						     (void *)site.code));
	KUNIT_EXPECT_TRUE(test,
			  marker_text_reserved((void *)site.code + site.size - 1,
					       (void *)site.code + site.size - 1));
	KUNIT_EXPECT_FALSE(test,
			   marker_text_reserved((void *)site.code + site.size,
						(void *)site.code + site.size));

	kp.addr = (kprobe_opcode_t *)site.code;
	ret = register_kprobe(&kp);
	if (!ret)
		unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
			    "a kprobe on a marker site is refused");
#else
	kunit_skip(test, "needs CONFIG_KPROBES");
#endif
}

static void marker_site_busy(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	marker_kunit_expect_nop(test, site.code);
	marker_kunit_poke_foreign(site.code);

	KUNIT_EXPECT_EQ_MSG(test, -EBUSY,
			    marker_probe_register("marker_kunit_values",
						  MARKER_KUNIT_FMT,
						  marker_kunit_probe, &seen),
			    "a marker whose only site is changed by someone else is -EBUSY");
	marker_kunit_expect_foreign(test, site.code);
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE_MSG(test, site.enabled, "the marker stays off");
	KUNIT_EXPECT_TRUE_MSG(test, site.busy, "the site is listed busy");
	marker_kunit_fire(1, 2, "busy");
	KUNIT_EXPECT_EQ(test, seen.calls, 0);

	marker_kunit_poke_nop(site.code);
	KUNIT_ASSERT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_values",
						  MARKER_KUNIT_FMT,
						  marker_kunit_probe, &seen),
			    "the restored site can be enabled");
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE_MSG(test, site.busy, "and is no longer busy");
	marker_kunit_fire(1, 2, "back");
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	marker_synchronize_unregister();
}

/* A site whose out-of-line block is its function's only other code. */
static noinline void marker_kunit_fire_short(int n)
{
	trace_mark(marker_kunit_short, "n %d", n);
}

/*
 * A site with more code between it and its block than a short jump
 * reaches, whatever the compiler's layout (with -Os it puts a block right
 * after its site): trace_mark()'s site, with that code inside the asm.
 */
static noinline void marker_kunit_fire_far(int n)
{
	__MARKER_SITE(marker_kunit_far, "n %d", NULL, 0);
	if (marker_kunit_far_enabled(&__marker_marker_kunit_far))
		__marker_probe_call(&__marker_marker_kunit_far, n);
}

/* A site of known length, for the cases each length must pass. */
struct marker_kunit_sized {
	const char *name;
	unsigned int size;
	void (*fire)(int n);
};

static const struct marker_kunit_sized marker_kunit_sized_sites[] = {
	{ "marker_kunit_short", MARKER_KUNIT_NEAR_SIZE, marker_kunit_fire_short },
	{ "marker_kunit_far", MARKER_KUNIT_FAR_SIZE, marker_kunit_fire_far },
};

KUNIT_ARRAY_PARAM_DESC(marker_kunit_sized, marker_kunit_sized_sites, name);

/* The case's site, which must have the length the case is for. */
static const struct marker_kunit_sized *
marker_kunit_get_sized(struct kunit *test, struct marker_kunit_site *site)
{
	const struct marker_kunit_sized *p = test->param_value;

	marker_kunit_get_site(test, site, p->name);
	KUNIT_ASSERT_EQ_MSG(test, site->size, p->size,
			    "%s is a %u-byte site", p->name, p->size);
	return p;
}

/* A counting probe on the case's marker: its site jumps to its block. */
static void marker_kunit_sized_on(struct kunit *test,
				  const struct marker_kunit_sized *p,
				  const struct marker_kunit_site *site,
				  struct marker_kunit_seen *seen)
{
	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_register(p->name, "n %d",
						  marker_kunit_count, seen),
			    "the site of %s can be enabled", p->name);
	marker_kunit_expect_jmp(test, site->code, site->target);
}

/* The probe gone again: the site is back to its NOP. */
static void marker_kunit_sized_off(struct kunit *test,
				   const struct marker_kunit_sized *p,
				   const struct marker_kunit_site *site,
				   struct marker_kunit_seen *seen)
{
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister(p->name, marker_kunit_count,
						seen));
	marker_synchronize_unregister();
	marker_kunit_expect_nop(test, site->code);
}

/*
 * A site of each length holding foreign bytes is busy: its only marker
 * cannot be enabled (-EBUSY) and the bytes are left alone; once it holds
 * its NOP again it is patched to the jump of its length.
 */
static void marker_site_sized_busy(struct kunit *test)
{
	const struct marker_kunit_sized *p;
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;

	p = marker_kunit_get_sized(test, &site);
	marker_kunit_expect_nop(test, site.code);
	marker_kunit_poke_foreign(site.code);
	KUNIT_EXPECT_EQ_MSG(test, -EBUSY,
			    marker_probe_register(p->name, "n %d",
						  marker_kunit_count, &seen),
			    "a marker whose only site holds foreign bytes is -EBUSY");
	marker_kunit_expect_foreign(test, site.code);
	marker_kunit_get_site(test, &site, p->name);
	KUNIT_EXPECT_TRUE_MSG(test, site.busy, "the site is listed busy");
	p->fire(1);
	KUNIT_EXPECT_EQ(test, seen.calls, 0);

	marker_kunit_poke_nop(site.code);
	marker_kunit_sized_on(test, p, &site, &seen);
	p->fire(2);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	marker_kunit_sized_off(test, p, &site, &seen);
}

/* Kprobes are kept off every byte of a site of each length, and no more. */
static void marker_site_sized_reserved(struct kunit *test)
{
	struct marker_kunit_site site;
	unsigned long after;

	marker_kunit_get_sized(test, &site);
	after = site.code + site.size;
	KUNIT_EXPECT_TRUE(test, marker_text_reserved((void *)site.code,
						     (void *)site.code));
	KUNIT_EXPECT_TRUE_MSG(test,
			      marker_text_reserved((void *)after - 1,
						   (void *)after - 1),
			      "the site's last byte is reserved");
	KUNIT_ASSERT_NE_MSG(test, after, site.target,
			    "the block does not start right after the site");
	KUNIT_EXPECT_FALSE_MSG(test,
			       marker_text_reserved((void *)after, (void *)after),
			       "the byte after the site is not reserved");
#ifdef CONFIG_KPROBES
	{
		struct kprobe kp = { .addr = (kprobe_opcode_t *)site.code };
		int ret = register_kprobe(&kp);

		if (!ret)
			unregister_kprobe(&kp);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
				    "a kprobe on a marker site is refused");
	}
#endif
}

/*
 * A site of each length is patched both ways while a kprobe sits on the
 * instruction after it, and patching leaves that instruction's bytes (the
 * kprobe's) alone.
 */
static void marker_site_sized_kprobe_next(struct kunit *test)
{
#ifdef CONFIG_KPROBES
	const struct marker_kunit_sized *p;
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;
	struct kprobe kp = { };
	u8 next[MARKER_SITE_BYTES_MAX];

	p = marker_kunit_get_sized(test, &site);
	kp.addr = (kprobe_opcode_t *)(site.code + site.size);
	KUNIT_ASSERT_EQ_MSG(test, 0, register_kprobe(&kp),
			    "a kprobe on the instruction after a site is allowed");
#ifdef CONFIG_OPTPROBES
	wait_for_kprobe_optimizer();
#endif
	memcpy(next, kp.addr, sizeof(next));

	marker_kunit_sized_on(test, p, &site, &seen);
	KUNIT_EXPECT_MEMEQ_MSG(test, (void *)kp.addr, next, sizeof(next),
			       "enabling the site leaves the kprobe's bytes alone");
	p->fire(1);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);

	marker_kunit_sized_off(test, p, &site, &seen);
	KUNIT_EXPECT_MEMEQ_MSG(test, (void *)kp.addr, next, sizeof(next),
			       "disabling the site leaves the kprobe's bytes alone");
	p->fire(2);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	unregister_kprobe(&kp);
#else
	kunit_skip(test, "needs CONFIG_KPROBES");
#endif
}

static noinline void marker_kunit_fire_two_a(int i)
{
	trace_mark(marker_kunit_two, "i %d", i);
}

static noinline void marker_kunit_fire_two_b(int i)
{
	trace_mark(marker_kunit_two, "i %d", i);
}

/*
 * One busy site does not hold back the other sites of its name: they are
 * enabled, the busy one is listed and left alone, and the next update of
 * the name brings it back once it holds markers' code again.
 */
static void marker_site_busy_one_of_two(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_two_sites two = { };

	marker_iterate_sites(marker_kunit_find_two, &two);
	KUNIT_ASSERT_EQ(test, two.found, 2);
	marker_kunit_poke_foreign(two.site[0].code);

	KUNIT_ASSERT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_two", "i %d",
						  marker_kunit_count, &seen),
			    "one busy site of two does not fail the registration");
	two.found = 0;
	marker_iterate_sites(marker_kunit_find_two, &two);
	KUNIT_EXPECT_TRUE_MSG(test, two.site[0].busy, "the busy site is listed");
	marker_kunit_expect_foreign(test, two.site[0].code);
	KUNIT_EXPECT_FALSE(test, two.site[1].busy);
	marker_kunit_expect_jmp(test, two.site[1].code, two.site[1].target);
	marker_kunit_fire_two_a(1);
	marker_kunit_fire_two_b(2);
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 1,
			    "the other site fires, the busy one does not");

	marker_kunit_poke_nop(two.site[0].code);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_two",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
	two.found = 0;
	marker_iterate_sites(marker_kunit_find_two, &two);
	KUNIT_EXPECT_FALSE_MSG(test, two.site[0].busy,
			       "the next update finds markers' code: not busy");
	marker_kunit_expect_nop(test, two.site[0].code);
	marker_kunit_expect_nop(test, two.site[1].code);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_two", "i %d",
					      marker_kunit_count, &seen));
	marker_kunit_expect_jmp(test, two.site[0].code, two.site[0].target);
	marker_kunit_expect_jmp(test, two.site[1].code, two.site[1].target);
	marker_kunit_fire_two_a(3);
	marker_kunit_fire_two_b(4);
	KUNIT_EXPECT_EQ(test, seen.calls, 3);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_two",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

#ifdef CONFIG_OPTPROBES
/* Simple, boostable instructions before a site. */
static noinline void marker_kunit_fire_near(int *counter)
{
	WRITE_ONCE(*counter, READ_ONCE(*counter) + 1);
	barrier();
	trace_mark(marker_kunit_near, "n %d", READ_ONCE(*counter));
}

/* The same without a site: what the optimizer does optimize. */
static noinline int marker_kunit_plain(int *p)
{
	return READ_ONCE(p[0]) + READ_ONCE(p[1]) + READ_ONCE(p[2]);
}

static int marker_kunit_kprobe_handler(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* Whether the kprobe at @addr ended up optimized (a JMP, not an int3). */
static bool marker_kunit_optimized(void *addr)
{
	struct kprobe *p;
	bool optimized;

	wait_for_kprobe_optimizer();
	preempt_disable();
	p = get_kprobe(addr);
	optimized = p && kprobe_optimized(p);
	preempt_enable();
	return optimized;
}
#endif

/*
 * A kprobe on an instruction just before a site is not optimized into a
 * JMP over the site, and the marker works while the kprobe is there.
 */
static void marker_site_optprobe_refused(struct kunit *test)
{
#ifdef CONFIG_OPTPROBES
	struct marker_kunit_seen seen = { };
	struct marker_kunit_site site;
	struct kprobe kp = { .pre_handler = marker_kunit_kprobe_handler };
	int counter = 0, k, ret = -EINVAL;

	kp.addr = (kprobe_opcode_t *)marker_kunit_plain;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	KUNIT_EXPECT_TRUE_MSG(test, marker_kunit_optimized(kp.addr),
			      "control: a kprobe away from sites is optimized here");
	unregister_kprobe(&kp);

	marker_kunit_get_site(test, &site, "marker_kunit_near");
	for (k = 1; k < JMP32_INSN_SIZE && ret; k++) {
		memset(&kp, 0, sizeof(kp));
		kp.pre_handler = marker_kunit_kprobe_handler;
		kp.addr = (kprobe_opcode_t *)(site.code - k);
		ret = register_kprobe(&kp);
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, 0,
			    "an instruction starts within 4 bytes before the site");
	KUNIT_EXPECT_FALSE_MSG(test, marker_kunit_optimized(kp.addr),
			       "a kprobe %d bytes before a site is not optimized",
			       k - 1);
	marker_kunit_expect_nop(test, site.code);

	KUNIT_EXPECT_EQ_MSG(test, 0,
			    marker_probe_register("marker_kunit_near", "n %d",
						  marker_kunit_count, &seen),
			    "the marker enables beside the kprobe");
	marker_kunit_expect_jmp(test, site.code, site.target);
	marker_kunit_fire_near(&counter);
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, kp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_near",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
	marker_kunit_expect_nop(test, site.code);
	unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ(test, counter, 1);
#else
	kunit_skip(test, "needs CONFIG_OPTPROBES");
#endif
}

/*
 * The first byte of a site's out-of-line block is reserved with the site:
 * nothing jumps there while the site is a NOP, so an optimized kprobe
 * over the instructions before it could otherwise take it. A kprobe on
 * those instructions is not optimized over it.
 */
static void marker_site_block_reserved(struct kunit *test)
{
	struct marker_kunit_site site;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE_MSG(test,
			      marker_text_reserved((void *)site.target,
						   (void *)site.target),
			      "the block's first byte is reserved");
	KUNIT_EXPECT_TRUE_MSG(test,
			      marker_text_reserved((void *)site.target - 4,
						   (void *)site.target),
			      "so is a range that ends there");
	KUNIT_EXPECT_FALSE_MSG(test,
			       marker_text_reserved((void *)site.target + 1,
						    (void *)site.target + 1),
			       "the rest of the block is not");
#ifdef CONFIG_OPTPROBES
	{
		int k, tried = 0;

		marker_kunit_get_site(test, &site, "marker_kunit_near");
		for (k = 1; k < JMP32_INSN_SIZE; k++) {
			struct kprobe kp = {
				.pre_handler = marker_kunit_kprobe_handler,
				.addr = (kprobe_opcode_t *)(site.target - k),
			};

			/* Not every address before the block starts an instruction. */
			if (register_kprobe(&kp))
				continue;
			tried++;
			KUNIT_EXPECT_FALSE_MSG(test,
					       marker_kunit_optimized(kp.addr),
					       "a kprobe %d bytes before a site's block is not optimized over it",
					       k);
			unregister_kprobe(&kp);
		}
		kunit_info(test, "%d kprobes tried before the block", tried);
	}
#endif
}

/*
 * What held at early_initcall time, before marker_init() (this object is
 * linked before marker.o): kprobes may be registered from the first
 * initcalls on, and a core site must be refused to them already.
 */
static int marker_kunit_early_reserved = -1;
static int marker_kunit_early_names = -1;

static int marker_kunit_count_names(const struct marker_name_info *info,
				    void *data)
{
	(*(int *)data)++;
	return 0;
}

static int __init marker_kunit_early(void)
{
	unsigned long code;

	if (__stop___marker_sites - __start___marker_sites > 0) {
		code = marker_site_code(__start___marker_sites);
		marker_kunit_early_reserved =
			marker_text_reserved((void *)code, (void *)code);
	}
	marker_kunit_early_names = 0;
	marker_iterate_names(marker_kunit_count_names,
			     &marker_kunit_early_names);
	return 0;
}
early_initcall(marker_kunit_early);

static void marker_site_reserved_before_init(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_early_names, 0,
			    "the check ran before marker_init() attached a name");
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_early_reserved, 1,
			    "a core site was reserved against kprobes then");
}

/* The table text_poke() writes through is read-only after init. */
static void marker_site_table_read_only(struct kunit *test)
{
	KUNIT_EXPECT_GT(test, __stop___marker_sites - __start___marker_sites, 0);
	KUNIT_EXPECT_TRUE_MSG(test,
			      (void *)__start___marker_sites >=
			      (void *)__start_ro_after_init &&
			      (void *)__stop___marker_sites <=
			      (void *)__end_ro_after_init,
			      "__marker_sites %p-%p, ro_after_init %p-%p",
			      __start___marker_sites, __stop___marker_sites,
			      __start_ro_after_init, __end_ro_after_init);
}

/* 64 sites of 64 markers, for one batch. */
#define MARKER_KUNIT_BATCH	64
#define MB(n)	trace_mark(marker_kunit_batch_##n, "i %d", i)
#define MB8(n)					\
	do {					\
		MB(n##0);			\
		MB(n##1);			\
		MB(n##2);			\
		MB(n##3);			\
		MB(n##4);			\
		MB(n##5);			\
		MB(n##6);			\
		MB(n##7);			\
	} while (0)

static noinline void marker_kunit_fire_batch(int i)
{
	MB8(0);
	MB8(1);
	MB8(2);
	MB8(3);
	MB8(4);
	MB8(5);
	MB8(6);
	MB8(7);
}

/*
 * Each sync round of a batch is one function-call IPI to every other
 * online CPU: count the IPIs all CPUs received around an update.
 */
static void marker_kunit_expect_one_batch(struct kunit *test,
					  unsigned long ipis, const char *what)
{
	unsigned int others = num_online_cpus() - 1;

	kunit_info(test, "%s 64 sites: %lu call IPIs on %u other CPUs\n",
		   what, ipis, others);
	KUNIT_EXPECT_GE_MSG(test, ipis, others,
			    "%s: at least one sync round", what);
	KUNIT_EXPECT_LT_MSG(test, ipis, MARKER_KUNIT_BATCH_IPIS_MAX(others),
			    "%s: 64 sites cost one batch of sync rounds, not 64",
			    what);
}

struct marker_kunit_batch {
	struct marker_probe_request reqs[MARKER_KUNIT_BATCH];
	char names[MARKER_KUNIT_BATCH][24];
	const char *prefix;	/* of the names whose sites are counted */
	unsigned int sites, enabled, jmps, nops;
};

static int marker_kunit_batch_site(const struct marker_site_info *info,
				   void *data)
{
	struct marker_kunit_batch *b = data;

	if (!str_has_prefix(info->marker->name, b->prefix))
		return 0;
	b->sites++;
	b->enabled += info->enabled;
	b->jmps += marker_kunit_jmp_target(info->code) == info->target;
	b->nops += info->nr_bytes == info->size &&
		   !memcmp(info->bytes, marker_kunit_nop(info->size), info->size);
	return 0;
}

static void marker_site_batch(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_probe_request *reqs;
	unsigned long ipis, on, off, best_on = ULONG_MAX, best_off = ULONG_MAX;
	unsigned int others = num_online_cpus() - 1;
	struct marker_kunit_batch *b;
	unsigned int i, try;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	b->prefix = "marker_kunit_batch_";
	reqs = b->reqs;
	for (i = 0; i < MARKER_KUNIT_BATCH; i++) {
		snprintf(b->names[i], sizeof(b->names[i]),
			 "marker_kunit_batch_%u%u", i / 8, i % 8);
		reqs[i] = (struct marker_probe_request) {
			.name = b->names[i], .format = "i %d",
			.probe = marker_kunit_count, .probe_private = &seen,
		};
	}

	if (num_online_cpus() < 2)
		kunit_skip(test, "sync rounds are only seen with 2 CPUs or more");

	/*
	 * Other code may patch text in the same window (a static key, say),
	 * so the whole update is measured up to 3 times and the fewest IPIs
	 * of each direction are checked: one batch per site (3 sync rounds
	 * per site on x86) fails every time.
	 */
	marker_kunit_ipis_start(test);
	for (try = 0; try < 3; try++) {
		ipis = marker_kunit_call_ipis();
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_register_batch(reqs, MARKER_KUNIT_BATCH));
		on = marker_kunit_call_ipis() - ipis;
		if (!try) {
			marker_iterate_sites(marker_kunit_batch_site, b);
			KUNIT_EXPECT_EQ(test, b->sites, MARKER_KUNIT_BATCH);
			KUNIT_EXPECT_EQ(test, b->enabled, MARKER_KUNIT_BATCH);
			KUNIT_EXPECT_EQ(test, b->jmps, MARKER_KUNIT_BATCH);
			marker_kunit_fire_batch(0);
			KUNIT_EXPECT_EQ(test, seen.calls, MARKER_KUNIT_BATCH);
		}

		ipis = marker_kunit_call_ipis();
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_unregister_batch(reqs, MARKER_KUNIT_BATCH));
		off = marker_kunit_call_ipis() - ipis;
		marker_synchronize_unregister();
		if (!try) {
			b->sites = 0;
			b->enabled = 0;
			b->jmps = 0;
			marker_iterate_sites(marker_kunit_batch_site, b);
			KUNIT_EXPECT_EQ(test, b->enabled, 0);
			KUNIT_EXPECT_EQ(test, b->jmps, 0);
			marker_kunit_fire_batch(0);
			KUNIT_EXPECT_EQ(test, seen.calls, MARKER_KUNIT_BATCH);
		}
		best_on = min(best_on, on);
		best_off = min(best_off, off);
		if (best_on < MARKER_KUNIT_BATCH_IPIS_MAX(others) &&
		    best_off < MARKER_KUNIT_BATCH_IPIS_MAX(others))
			break;
	}
	marker_kunit_ipis_stop();
	marker_kunit_expect_one_batch(test, best_on, "enabling");
	marker_kunit_expect_one_batch(test, best_off, "disabling");
}

/* Two of the batch's markers, one site each, for the patch batch tests. */
#define MARKER_KUNIT_A	"marker_kunit_batch_00"
#define MARKER_KUNIT_B	"marker_kunit_batch_01"

/*
 * Another task's change of a probe on @name, in a patch batch of its own
 * if @batch: it says when its (un)registration returned (@changed), ends
 * its batch when told (@go), then says it is done (@done).
 */
struct marker_kunit_task {
	const char *name;
	bool add;
	bool batch;
	struct marker_kunit_seen *seen;
	struct completion changed, go, done;
	int ret, end_ret;
};

static int marker_kunit_task_fn(void *data)
{
	struct marker_kunit_task *t = data;
	struct marker_patch_batch batch;

	if (t->batch)
		marker_patch_batch_begin(&batch);
	if (t->add)
		t->ret = marker_probe_register(t->name, "i %d",
					       marker_kunit_count, t->seen);
	else
		t->ret = marker_probe_unregister(t->name, marker_kunit_count,
						 t->seen);
	complete(&t->changed);
	if (t->batch) {
		wait_for_completion(&t->go);
		t->end_ret = marker_patch_batch_end(&batch);
	}
	complete(&t->done);
	return 0;
}

/* Start @t's task and wait for its change to return. */
static int marker_kunit_task_start(struct marker_kunit_task *t)
{
	struct task_struct *task;

	init_completion(&t->changed);
	init_completion(&t->go);
	init_completion(&t->done);
	task = kthread_run(marker_kunit_task_fn, t, "marker_kunit_task");
	if (IS_ERR(task))
		return PTR_ERR(task);
	wait_for_completion(&t->changed);
	return 0;
}

/* Let @t's batch end, if it has one, and wait until the task is done. */
static void marker_kunit_task_finish(struct marker_kunit_task *t)
{
	complete(&t->go);
	wait_for_completion(&t->done);
}

static int marker_kunit_task_run(struct marker_kunit_task *t)
{
	int ret = marker_kunit_task_start(t);

	if (!ret)
		marker_kunit_task_finish(t);
	return ret;
}

/* Are @name's probes published to its one site? Asserts nothing. */
static bool marker_kunit_published(const char *name)
{
	struct marker_kunit_site site = { .name = name };

	marker_iterate_sites(marker_kunit_find_site, &site);
	return site.found == 1 && site.enabled;
}

static void marker_kunit_expect_left(struct kunit *test, unsigned long code)
{
	marker_kunit_expect_nop_msg(test, code,
				    "a site this task's batch changed waits for its end");
}

/*
 * While this task's batch is open, another task's registration patches
 * the site of the marker it changed, and only that one: the site the
 * batch changed stays a NOP, its probe published but not reached, until
 * the batch ends.
 */
static void marker_batch_others_patch_their_own(struct kunit *test)
{
	struct marker_kunit_seen seen_a = { }, seen_b = { };
	struct marker_kunit_task t = {
		.name = MARKER_KUNIT_B, .add = true, .seen = &seen_b,
	};
	struct marker_patch_batch batch;
	struct marker_kunit_site a, b;
	int ret;

	marker_kunit_get_site(test, &a, MARKER_KUNIT_A);
	marker_kunit_get_site(test, &b, MARKER_KUNIT_B);
	marker_kunit_expect_nop(test, a.code);
	marker_kunit_expect_nop(test, b.code);

	marker_patch_batch_begin(&batch);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_register(MARKER_KUNIT_A, "i %d",
					      marker_kunit_count, &seen_a));
	ret = marker_kunit_task_run(&t);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, t.ret, 0);
		marker_kunit_expect_jmp(test, b.code, b.target);
		marker_kunit_expect_left(test, a.code);
		KUNIT_EXPECT_TRUE(test, marker_kunit_published(MARKER_KUNIT_A));
		marker_kunit_fire_batch(1);
		KUNIT_EXPECT_EQ(test, seen_b.calls, 1);
		KUNIT_EXPECT_EQ_MSG(test, seen_a.calls, 0,
				    "the batch's site is not reached before its end");
	}
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	marker_kunit_expect_jmp(test, a.code, a.target);
	marker_kunit_fire_batch(2);
	KUNIT_EXPECT_EQ(test, seen_a.calls, 1);

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister(MARKER_KUNIT_A,
						marker_kunit_count, &seen_a));
	if (!ret) {
		KUNIT_EXPECT_EQ(test, seen_b.calls, 2);
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_unregister(MARKER_KUNIT_B,
							marker_kunit_count,
							&seen_b));
	}
	marker_synchronize_unregister();
	marker_kunit_expect_nop(test, a.code);
	marker_kunit_expect_nop(test, b.code);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "no thread");
}

/*
 * A marker changed in this task's batch and then by another task: that
 * task patches its sites before it returns, to the probes both attached
 * (its own is reached at once), and the batch's end has nothing left to
 * do for it. Once both probes are gone, the other task's unregistration
 * leaves the NOP.
 */
static void marker_batch_others_take_a_shared_name(struct kunit *test)
{
	struct marker_kunit_seen mine = { }, theirs = { };
	struct marker_kunit_task t = {
		.name = MARKER_KUNIT_A, .add = true, .seen = &theirs,
	};
	struct marker_patch_batch batch;
	struct marker_kunit_site a;
	int ret;

	marker_kunit_get_site(test, &a, MARKER_KUNIT_A);
	marker_kunit_expect_nop(test, a.code);

	marker_patch_batch_begin(&batch);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_register(MARKER_KUNIT_A, "i %d",
					      marker_kunit_count, &mine));
	marker_kunit_expect_left(test, a.code);
	ret = marker_kunit_task_run(&t);
	if (ret)
		goto no_thread;
	KUNIT_EXPECT_EQ(test, t.ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, marker_kunit_jmp_target(a.code), a.target,
			    "the other task patched the marker it changed");
	marker_kunit_fire_batch(1);
	KUNIT_EXPECT_EQ(test, mine.calls, 1);
	KUNIT_EXPECT_EQ(test, theirs.calls, 1);

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister(MARKER_KUNIT_A,
						marker_kunit_count, &mine));
	t.add = false;
	ret = marker_kunit_task_run(&t);
	if (ret)
		goto no_thread;
	KUNIT_EXPECT_EQ(test, t.ret, 0);
	KUNIT_EXPECT_FALSE(test, marker_kunit_published(MARKER_KUNIT_A));
	marker_kunit_expect_nop_msg(test, a.code,
				    "no probe left: the other task leaves the NOP");
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&batch));
	marker_kunit_expect_nop(test, a.code);
	marker_synchronize_unregister();
	marker_kunit_fire_batch(2);
	KUNIT_EXPECT_EQ(test, mine.calls, 1);
	KUNIT_EXPECT_EQ(test, theirs.calls, 1);
	return;

no_thread:
	marker_patch_batch_end(&batch);
	marker_probe_unregister(MARKER_KUNIT_A, marker_kunit_count, &mine);
	marker_probe_unregister(MARKER_KUNIT_A, marker_kunit_count, &theirs);
	marker_synchronize_unregister();
	KUNIT_FAIL(test, "no thread: %d", ret);
}

/*
 * Two tasks with a batch open each, on two markers: the other task's
 * batch end patches its own site and leaves this task's; this task's
 * batches nest, and the inner one's end leaves its site to the outer's.
 */
static void marker_batch_two_tasks(struct kunit *test)
{
	struct marker_kunit_seen seen_a = { }, seen_b = { };
	struct marker_kunit_task t = {
		.name = MARKER_KUNIT_B, .add = true, .batch = true,
		.seen = &seen_b,
	};
	struct marker_patch_batch outer, inner;
	struct marker_kunit_site a, b;
	int ret;

	marker_kunit_get_site(test, &a, MARKER_KUNIT_A);
	marker_kunit_get_site(test, &b, MARKER_KUNIT_B);

	marker_patch_batch_begin(&outer);
	marker_patch_batch_begin(&inner);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_register(MARKER_KUNIT_A, "i %d",
					      marker_kunit_count, &seen_a));
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&inner));
	marker_kunit_expect_left(test, a.code);
	ret = marker_kunit_task_start(&t);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, t.ret, 0);
		marker_kunit_expect_nop_msg(test, b.code,
					    "the other task's site waits for its batch");
		marker_kunit_expect_left(test, a.code);
		marker_kunit_task_finish(&t);
		KUNIT_EXPECT_EQ(test, t.end_ret, 0);
		marker_kunit_expect_jmp(test, b.code, b.target);
		marker_kunit_expect_left(test, a.code);
	}
	KUNIT_EXPECT_EQ(test, 0, marker_patch_batch_end(&outer));
	marker_kunit_expect_jmp(test, a.code, a.target);
	marker_kunit_fire_batch(1);
	KUNIT_EXPECT_EQ(test, seen_a.calls, 1);

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister(MARKER_KUNIT_A,
						marker_kunit_count, &seen_a));
	if (!ret) {
		KUNIT_EXPECT_EQ(test, seen_b.calls, 1);
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_unregister(MARKER_KUNIT_B,
							marker_kunit_count,
							&seen_b));
	}
	marker_synchronize_unregister();
	marker_kunit_expect_nop(test, a.code);
	marker_kunit_expect_nop(test, b.code);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "no thread");
}

/*
 * A site that holds another patcher's bytes when the batch that enabled
 * its marker ends is left alone and listed busy, its marker's probes are
 * not called from it, and the batch's end says so (-EBUSY); once the
 * site holds markers' code again, the next update finds it so.
 */
static void marker_site_batch_end_busy(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_patch_batch batch;
	struct marker_kunit_site site;
	int ret;

	marker_kunit_get_site(test, &site, "marker_kunit_values");
	marker_kunit_expect_nop(test, site.code);
	marker_patch_batch_begin(&batch);
	ret = marker_probe_register("marker_kunit_values", MARKER_KUNIT_FMT,
				    marker_kunit_probe, &seen);
	if (!ret)
		marker_kunit_poke_foreign(site.code);
	KUNIT_EXPECT_EQ_MSG(test, -EBUSY, marker_patch_batch_end(&batch),
			    "the batch's end finds the site to enable busy");
	KUNIT_ASSERT_EQ(test, ret, 0);
	marker_kunit_expect_foreign(test, site.code);
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_TRUE_MSG(test, site.busy, "the site is listed busy");
	KUNIT_EXPECT_TRUE_MSG(test, site.enabled, "its marker has its probe");
	marker_kunit_fire(1, 2, "busy");
	KUNIT_EXPECT_EQ(test, seen.calls, 0);

	marker_kunit_poke_nop(site.code);
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_values",
						marker_kunit_probe, &seen));
	marker_synchronize_unregister();
	marker_kunit_get_site(test, &site, "marker_kunit_values");
	KUNIT_EXPECT_FALSE_MSG(test, site.busy,
			       "the next update finds markers' code: not busy");
	marker_kunit_expect_nop(test, site.code);
}

/*
 * Sorting a range's sites (a module's as it comes) without memory for the
 * sorted table or its busy bitmap is -ENOMEM and leaves neither; with
 * memory, the table is in ascending address order.
 */
static void marker_site_sort_without_memory(struct kunit *test)
{
	struct marker_range r = {
		.sites = __start___marker_sites,
		.nr_sites = min_t(unsigned long,
				  __stop___marker_sites - __start___marker_sites,
				  16),
	};
	unsigned int nth, i;
	int ret;

	KUNIT_ASSERT_GT(test, r.nr_sites, 1);
	for (nth = 1; nth <= 2; nth++) {
		marker_kunit_fail_alloc(test, nth);
		ret = marker_range_sort(&r);
		KUNIT_EXPECT_TRUE_MSG(test, marker_kunit_alloc_done(test),
				      "allocation %u of the sort", nth);
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_NULL(test, r.sorted);
		KUNIT_EXPECT_NULL(test, r.busy);
	}
	KUNIT_ASSERT_EQ(test, 0, marker_range_sort(&r));
	for (i = 1; i < r.nr_sites; i++)
		KUNIT_EXPECT_LT_MSG(test, marker_site_code(r.sorted[i - 1]),
				    marker_site_code(r.sorted[i]),
				    "sorted site %u", i);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(r.busy, r.nr_sites));
	marker_range_free_sites(&r);
}

/* marker_sites.c's MARKER_BATCH_MAX: as many sites as one batch takes. */
#define MARKER_KUNIT_BATCH_MAX	256
/* More sites of one name than that: 5 * 64 inlined copies. */
#define MARKER_KUNIT_MANY	320

/*
 * Its field is named common_i: the tracefs face makes no event of a
 * marker with a field named as the common fields are, so enabling every
 * marker event (markers_tracefs.sh counts the IPIs it takes) does not
 * patch these sites too.
 */
static __always_inline void marker_kunit_many(int i)
{
	trace_mark(marker_kunit_many, "common_i %d", i);
}

#define MM8(n)					\
	do {					\
		marker_kunit_many(n##0);	\
		marker_kunit_many(n##1);	\
		marker_kunit_many(n##2);	\
		marker_kunit_many(n##3);	\
		marker_kunit_many(n##4);	\
		marker_kunit_many(n##5);	\
		marker_kunit_many(n##6);	\
		marker_kunit_many(n##7);	\
	} while (0)
#define MM64(n)					\
	do {					\
		MM8(n##0);			\
		MM8(n##1);			\
		MM8(n##2);			\
		MM8(n##3);			\
		MM8(n##4);			\
		MM8(n##5);			\
		MM8(n##6);			\
		MM8(n##7);			\
	} while (0)

/* Each copy passes its own value (100 to 577), so that none is merged. */
static noinline void marker_kunit_fire_many(void)
{
	MM64(1);
	MM64(2);
	MM64(3);
	MM64(4);
	MM64(5);
}

/*
 * One update that patches more sites than one batch takes: the sites are
 * patched in batches of MARKER_KUNIT_BATCH_MAX, each sorted, and every
 * one ends up a jump to its own block, then the NOP again.
 */
static void marker_site_batch_full(struct kunit *test)
{
	struct marker_kunit_seen seen = { };
	struct marker_kunit_batch *b;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	BUILD_BUG_ON(MARKER_KUNIT_MANY <= MARKER_KUNIT_BATCH_MAX);
	b->prefix = "marker_kunit_many";
	marker_iterate_sites(marker_kunit_batch_site, b);
	KUNIT_ASSERT_EQ_MSG(test, b->sites, MARKER_KUNIT_MANY,
			    "a site per inlined copy");
	KUNIT_EXPECT_EQ(test, b->enabled, 0);
	KUNIT_EXPECT_EQ(test, b->nops, MARKER_KUNIT_MANY);

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_many", NULL,
					      marker_kunit_count, &seen));
	b->sites = 0;
	b->nops = 0;
	marker_iterate_sites(marker_kunit_batch_site, b);
	KUNIT_EXPECT_EQ(test, b->enabled, MARKER_KUNIT_MANY);
	KUNIT_EXPECT_EQ_MSG(test, b->jmps, MARKER_KUNIT_MANY,
			    "every site a jump to its block");
	marker_kunit_fire_many();
	KUNIT_EXPECT_EQ(test, seen.calls, MARKER_KUNIT_MANY);

	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_many",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
	b->sites = 0;
	b->enabled = 0;
	b->jmps = 0;
	b->nops = 0;
	marker_iterate_sites(marker_kunit_batch_site, b);
	KUNIT_EXPECT_EQ(test, b->enabled, 0);
	KUNIT_EXPECT_EQ_MSG(test, b->nops, MARKER_KUNIT_MANY,
			    "every site the NOP again");
	marker_kunit_fire_many();
	KUNIT_EXPECT_EQ(test, seen.calls, MARKER_KUNIT_MANY);
}

/* One trace_mark() in an inline function, inlined three times. */
static __always_inline void marker_kunit_inlined(int n)
{
	trace_mark(marker_kunit_inlined, "n %d", n);
}

static noinline void marker_kunit_inlined_1(void)
{
	marker_kunit_inlined(1);
}

static noinline void marker_kunit_inlined_2(void)
{
	marker_kunit_inlined(2);
}

static noinline void marker_kunit_inlined_3(void)
{
	marker_kunit_inlined(3);
}

struct marker_kunit_count_name {
	const char *name;
	unsigned int sites;	/* by marker_iterate_sites() */
	unsigned int listed;	/* nr_sites by marker_iterate_names() */
	unsigned int found;
};

static int marker_kunit_count_site(const struct marker_site_info *info,
				   void *data)
{
	struct marker_kunit_count_name *c = data;

	c->sites += !strcmp(info->marker->name, c->name);
	return 0;
}

static int marker_kunit_count_listed(const struct marker_name_info *info,
				     void *data)
{
	struct marker_kunit_count_name *c = data;

	if (!strcmp(info->name, c->name)) {
		c->listed = info->nr_sites;
		c->found++;
	}
	return 0;
}

/*
 * A name's site count is its real sites: one struct marker per file, but
 * a patchable site per inlined copy.
 */
static void marker_sites_counted_per_copy(struct kunit *test)
{
	struct marker_kunit_count_name c = { .name = "marker_kunit_inlined" };
	struct marker_kunit_seen seen = { };
	unsigned int expect = 3;

	marker_iterate_sites(marker_kunit_count_site, &c);
	KUNIT_ASSERT_EQ(test, 0,
			marker_iterate_names(marker_kunit_count_listed, &c));
	KUNIT_EXPECT_EQ(test, c.found, 1);
	KUNIT_EXPECT_EQ_MSG(test, c.sites, expect, "the sites listed");
	KUNIT_EXPECT_EQ_MSG(test, c.listed, c.sites,
			    "the name's count is its sites'");

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("marker_kunit_inlined", "n %d",
					      marker_kunit_count, &seen));
	marker_kunit_inlined_1();
	marker_kunit_inlined_2();
	marker_kunit_inlined_3();
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 3, "every copy is enabled");
	KUNIT_EXPECT_EQ(test, 0,
			marker_probe_unregister("marker_kunit_inlined",
						marker_kunit_count, &seen));
	marker_synchronize_unregister();
}

struct marker_kunit_walk {
	unsigned int calls;
	int stop;
};

static int marker_kunit_walk_site(const struct marker_site_info *info,
				  void *data)
{
	struct marker_kunit_walk *w = data;

	w->calls++;
	return w->stop;
}

static int marker_kunit_walk_name(const struct marker_name_info *info,
				  void *data)
{
	struct marker_kunit_walk *w = data;

	w->calls++;
	return w->stop;
}

/*
 * The listings (marker_list.c). A callback's non-zero value ends a
 * walk and is its result; a listing of names without memory for its
 * buffers is -ENOMEM and calls nothing.
 */
static void marker_iterate_stops(struct kunit *test)
{
	struct marker_kunit_walk w = { .stop = 7 };
	unsigned int nth;
	int ret;

	KUNIT_EXPECT_EQ(test, marker_iterate_sites(marker_kunit_walk_site, &w),
			7);
	KUNIT_EXPECT_EQ_MSG(test, w.calls, 1, "the first site's 7 ends the walk");
	w.calls = 0;
	KUNIT_EXPECT_EQ(test, marker_iterate_names(marker_kunit_walk_name, &w),
			7);
	KUNIT_EXPECT_EQ_MSG(test, w.calls, 1, "the first name's 7 ends the walk");

	w.stop = 0;
	for (nth = 1; nth <= 2; nth++) {
		w.calls = 0;
		marker_kunit_fail_alloc(test, nth);
		ret = marker_iterate_names(marker_kunit_walk_name, &w);
		KUNIT_EXPECT_TRUE_MSG(test, marker_kunit_alloc_done(test),
				      "the listing's allocation %u", nth);
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_EQ(test, w.calls, 0);
	}
	w.calls = 0;
	KUNIT_EXPECT_EQ(test, marker_iterate_names(marker_kunit_walk_name, &w),
			0);
	KUNIT_EXPECT_GT_MSG(test, w.calls, 1, "with memory, every name");
}

/*
 * The modules a name's listing gives: each once (a name that is only part
 * of another is a module of its own), and "..." ending a list that has no
 * room for the next; nothing comes after it.
 */
static void marker_modules_listed(struct kunit *test)
{
	char modules[MARKER_MODULES_LEN] = "", full[MARKER_MODULES_LEN];
	char name[MARKER_MODULES_LEN];
	size_t len;
	unsigned int i;

	marker_add_module(modules, "vmlinux");
	marker_add_module(modules, "mod_ab");
	marker_add_module(modules, "mod_a");
	marker_add_module(modules, "ab");
	marker_add_module(modules, "mod_ab");
	marker_add_module(modules, "vmlinux");
	marker_add_module(modules, "ab");
	KUNIT_EXPECT_STREQ(test, modules, "vmlinux,mod_ab,mod_a,ab");

	for (i = 0; i < 32; i++) {
		snprintf(name, sizeof(name), "marker_kunit_module_%u", i);
		marker_add_module(modules, name);
	}
	len = strlen(modules);
	KUNIT_EXPECT_LT(test, len, MARKER_MODULES_LEN);
	KUNIT_EXPECT_GT(test, len, 4);
	KUNIT_EXPECT_STREQ_MSG(test, modules + len - 4, ",...",
			       "a full list ends with \"...\"");
	strscpy(full, modules, sizeof(full));
	marker_add_module(modules, "mod_b");
	KUNIT_EXPECT_STREQ_MSG(test, modules, full, "nothing after \"...\"");

	/* A first name with no room for itself and ",...". */
	memset(name, 'm', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	modules[0] = '\0';
	marker_add_module(modules, name);
	KUNIT_EXPECT_STREQ(test, modules, "...");
}

static struct kunit_case marker_site_cases[] = {
	KUNIT_CASE(marker_iterate_stops),
	KUNIT_CASE(marker_modules_listed),
	KUNIT_CASE(marker_site_bytes),
	KUNIT_CASE(marker_site_patch_batch),
	KUNIT_CASE(marker_site_kprobe_refused),
	KUNIT_CASE(marker_site_busy),
	KUNIT_CASE_PARAM(marker_site_sized_busy, marker_kunit_sized_gen_params),
	KUNIT_CASE_PARAM(marker_site_sized_reserved, marker_kunit_sized_gen_params),
	KUNIT_CASE_PARAM(marker_site_sized_kprobe_next, marker_kunit_sized_gen_params),
	KUNIT_CASE(marker_site_busy_one_of_two),
	KUNIT_CASE(marker_site_optprobe_refused),
	KUNIT_CASE(marker_site_block_reserved),
	KUNIT_CASE(marker_site_table_read_only),
	KUNIT_CASE(marker_site_reserved_before_init),
	KUNIT_CASE(marker_site_batch),
	KUNIT_CASE(marker_batch_belongs_to_caller),
	KUNIT_CASE(marker_batch_others_patch_their_own),
	KUNIT_CASE(marker_batch_others_take_a_shared_name),
	KUNIT_CASE(marker_batch_two_tasks),
	KUNIT_CASE(marker_sites_counted_per_copy),
	KUNIT_CASE(marker_site_batch_end_busy),
	KUNIT_CASE(marker_site_sort_without_memory),
	KUNIT_CASE(marker_site_batch_full),
	{}
};

static struct kunit_suite marker_site_suite = {
	.name = "marker_sites",
	.test_cases = marker_site_cases,
};

kunit_test_suites(&marker_site_suite);

MODULE_DESCRIPTION("KUnit tests for patchable marker sites");
MODULE_LICENSE("GPL");
