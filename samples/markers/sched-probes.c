// SPDX-License-Identifier: GPL-2.0
/*
 * sched-probes.c - context switches per CPU and wakeup-to-run latency
 *
 * Attaches format-checked probes to the scheduler markers of
 * include/trace/markers/sched.h:
 *
 *  - sched_switch counts the context switches of each CPU, and closes the
 *    wakeup-to-run interval of the task switched in;
 *  - sched_wakeup and sched_wakeup_new open that interval: they note the
 *    time a task became runnable.
 *
 * The probes run in the scheduler with a runqueue lock held and
 * interrupts off: they take no locks, allocate nothing and never sleep.
 * Counters are per CPU; wakeup times live in a fixed table allocated with
 * the module.
 *
 * The wakeup table: WAKEUP_SLOTS 64-bit words, indexed by a hash of the
 * pid. Each word packs the pid (its low PID_BITS bits; 0 is an empty slot)
 * and the low TIME_BITS bits of local_clock() at the wakeup, so one
 * cmpxchg reads or writes a whole entry. Its limits:
 *
 *  - two runnable tasks whose pids share a slot: the second wakeup is not
 *    timed (counted as "collisions");
 *  - a task woken again before it ran keeps its first wakeup time;
 *  - latencies are taken modulo 2^TIME_BITS ns (about 73 minutes), and
 *    across CPUs they rest on local_clock() agreeing between CPUs; a
 *    negative difference is counted in bucket 0.
 *
 * debugfs, under /sys/kernel/debug/sched-probes/:
 *
 *	switches	"cpuN count" for every possible CPU, then
 *			"total count": context switches since the module
 *			was loaded
 *	latency		wakeup-to-run latency histogram: "lo hi count" for
 *			each non-empty bucket of latencies lo <= ns <= hi
 *			(log2 buckets: 0-0, 1-1, 2-3, 4-7, ...), then
 *			"samples N" (intervals measured) and
 *			"collisions N" (wakeups not timed)
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <trace/markers/sched.h>

#define WAKEUP_SLOTS_BITS	10
#define WAKEUP_SLOTS		BIT(WAKEUP_SLOTS_BITS)
#define PID_BITS		22	/* PID_MAX_LIMIT is 1 << 22 */
#define PID_MASK		((1ULL << PID_BITS) - 1)
#define TIME_BITS		(64 - PID_BITS)
#define TIME_MASK		((1ULL << TIME_BITS) - 1)
#define LATENCY_BUCKETS		(TIME_BITS + 1)	/* fls64() of a latency */

/**
 * struct sched_probes_stats - the counters of one CPU
 * @switches: context switches on this CPU
 * @latency: wakeup-to-run latencies of tasks switched in on this CPU,
 *	by fls64(ns)
 * @collisions: wakeups on this CPU that found their slot taken
 */
struct sched_probes_stats {
	unsigned long switches;
	unsigned long latency[LATENCY_BUCKETS];
	unsigned long collisions;
};

static DEFINE_PER_CPU(struct sched_probes_stats, sched_probes_stats);

/* pid | wakeup time << PID_BITS, or 0: see the header comment. */
static atomic64_t sched_probes_wakeups[WAKEUP_SLOTS];

static struct dentry *sched_probes_dir;

/*
 * The table slot of @pid. Context: the probes below (scheduler, runqueue
 * lock held, interrupts off); no locks, no allocation.
 */
static atomic64_t *sched_probes_slot(pid_t pid)
{
	return &sched_probes_wakeups[hash_32(pid, WAKEUP_SLOTS_BITS)];
}

/**
 * sched_probes_wakeup() - note when a task became runnable
 * @marker: sched_wakeup or sched_wakeup_new
 * @probe_private: unused
 * @args: SCHED_WAKEUP_FORMAT (the same fields as SCHED_WAKEUP_NEW_FORMAT)
 *
 * Context: the scheduler's wakeup path, with p->pi_lock and a runqueue
 * lock held and interrupts off, on behalf of a waker in task, softirq or
 * hard IRQ context. Takes no locks, allocates nothing: one cmpxchg on the
 * preallocated table and a per-CPU increment.
 */
static void sched_probes_wakeup(const struct marker *marker,
				void *probe_private, va_list *args)
{
	pid_t pid = va_arg(*args, int);
	atomic64_t *slot;
	s64 old, entry;

	if (pid <= 0 || pid > PID_MASK)
		return;
	entry = (s64)(((local_clock() & TIME_MASK) << PID_BITS) | pid);
	slot = sched_probes_slot(pid);
	old = atomic64_read(slot);
	/* Woken again before it ran: keep the first wakeup time. */
	if ((old & PID_MASK) == pid)
		return;
	if (old || !atomic64_try_cmpxchg(slot, &old, entry))
		this_cpu_inc(sched_probes_stats.collisions);
}

/**
 * sched_probes_switch() - count a switch, time the task switched in
 * @marker: sched_switch
 * @probe_private: unused
 * @args: SCHED_SWITCH_FORMAT
 *
 * Context: __schedule(), with this CPU's runqueue lock held and interrupts
 * off. Takes no locks, allocates nothing: per-CPU increments and at most
 * one cmpxchg on the preallocated table.
 */
static void sched_probes_switch(const struct marker *marker,
				void *probe_private, va_list *args)
{
	atomic64_t *slot;
	u64 latency;
	pid_t next_pid;
	s64 entry;

	/* prev_pid, prev_tgid, prev_comm, prev_prio, prev_state. */
	va_arg(*args, int);
	va_arg(*args, int);
	va_arg(*args, const char *);
	va_arg(*args, int);
	va_arg(*args, unsigned long);
	next_pid = va_arg(*args, int);

	this_cpu_inc(sched_probes_stats.switches);

	if (next_pid <= 0 || next_pid > PID_MASK)
		return;
	slot = sched_probes_slot(next_pid);
	entry = atomic64_read(slot);
	if ((entry & PID_MASK) != next_pid ||
	    !atomic64_try_cmpxchg(slot, &entry, 0))
		return;
	latency = (local_clock() - ((u64)entry >> PID_BITS)) & TIME_MASK;
	/* local_clock() of the waking CPU was ahead of ours. */
	if (latency > TIME_MASK / 2)
		latency = 0;
	this_cpu_inc(sched_probes_stats.latency[fls64(latency)]);
}

static const struct marker_probe_request sched_probes[] = {
	{ "sched_switch", SCHED_SWITCH_FORMAT, sched_probes_switch, NULL },
	{ "sched_wakeup", SCHED_WAKEUP_FORMAT, sched_probes_wakeup, NULL },
	{ "sched_wakeup_new", SCHED_WAKEUP_NEW_FORMAT, sched_probes_wakeup,
	  NULL },
};

/* debugfs, in process context. */

static int sched_probes_switches_show(struct seq_file *m, void *unused)
{
	unsigned long n, total = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		n = READ_ONCE(per_cpu(sched_probes_stats.switches, cpu));
		seq_printf(m, "cpu%d %lu\n", cpu, n);
		total += n;
	}
	seq_printf(m, "total %lu\n", total);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_probes_switches);

static int sched_probes_latency_show(struct seq_file *m, void *unused)
{
	unsigned long n, samples = 0, collisions = 0;
	u64 lo, hi;
	int cpu, b;

	for (b = 0; b < LATENCY_BUCKETS; b++) {
		n = 0;
		for_each_possible_cpu(cpu)
			n += READ_ONCE(per_cpu(sched_probes_stats.latency[b], cpu));
		if (!n)
			continue;
		lo = b ? 1ULL << (b - 1) : 0;
		hi = b ? (1ULL << b) - 1 : 0;
		seq_printf(m, "%llu %llu %lu\n", lo, hi, n);
		samples += n;
	}
	for_each_possible_cpu(cpu)
		collisions += READ_ONCE(per_cpu(sched_probes_stats.collisions, cpu));
	seq_printf(m, "samples %lu\ncollisions %lu\n", samples, collisions);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sched_probes_latency);

static int __init sched_probes_init(void)
{
	int ret;

	ret = marker_probe_register_batch(sched_probes,
					  ARRAY_SIZE(sched_probes));
	if (ret) {
		pr_err("registering the probes failed: %d\n", ret);
		return ret;
	}
	sched_probes_dir = debugfs_create_dir("sched-probes", NULL);
	debugfs_create_file("switches", 0400, sched_probes_dir, NULL,
			    &sched_probes_switches_fops);
	debugfs_create_file("latency", 0400, sched_probes_dir, NULL,
			    &sched_probes_latency_fops);
	return 0;
}

static void __exit sched_probes_exit(void)
{
	debugfs_remove_recursive(sched_probes_dir);
	marker_probe_unregister_batch(sched_probes, ARRAY_SIZE(sched_probes));
	/* No CPU runs a probe, or reads the table, past this point. */
	marker_synchronize_unregister();
}

module_init(sched_probes_init);
module_exit(sched_probes_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static marker sample: context switches and wakeup-to-run latency");
