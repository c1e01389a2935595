// SPDX-License-Identifier: GPL-2.0
/*
 * futex-probes.c - futex calls, failures and last errors per operation
 *
 * Attaches format-checked probes to the futex markers of
 * include/trace/markers/futex.h. Each event is one futex(2) operation
 * with its result: the probe counts the call, and if the result is
 * negative counts a failure and notes the error.
 *
 * The probes run in the caller's task context, within the futex syscall;
 * like every marker probe they take no locks, allocate nothing and never
 * sleep. All their data is per CPU: the reader adds the counters up and
 * takes the most recent error of all CPUs.
 *
 * debugfs, under /sys/kernel/debug/futex-probes/:
 *
 *	stats	one line per operation (wait, wake, requeue, lock_pi,
 *		unlock_pi): "op calls=N failures=N last_error=E", counted
 *		since the module was loaded; E is the negative errno of the
 *		most recent failure, 0 if there was none
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <trace/markers/futex.h>

enum futex_probes_op {
	FUTEX_PROBES_WAIT,
	FUTEX_PROBES_WAKE,
	FUTEX_PROBES_REQUEUE,
	FUTEX_PROBES_LOCK_PI,
	FUTEX_PROBES_UNLOCK_PI,
	FUTEX_PROBES_OPS,
};

static const char * const futex_probes_names[FUTEX_PROBES_OPS] = {
	[FUTEX_PROBES_WAIT]	 = "wait",
	[FUTEX_PROBES_WAKE]	 = "wake",
	[FUTEX_PROBES_REQUEUE]	 = "requeue",
	[FUTEX_PROBES_LOCK_PI]	 = "lock_pi",
	[FUTEX_PROBES_UNLOCK_PI] = "unlock_pi",
};

/* The last error packs local_clock() << ERRNO_BITS | errno in one word. */
#define ERRNO_BITS	12	/* MAX_ERRNO is 4095 */
#define ERRNO_MASK	((1ULL << ERRNO_BITS) - 1)

/**
 * struct futex_probes_stats - the counters of one CPU
 * @calls: operations per op
 * @failures: operations that returned an error, per op
 * @last_error: the most recent failure on this CPU per op, packed as
 *	time << ERRNO_BITS | errno so that one store writes both; 0 if none
 */
struct futex_probes_stats {
	unsigned long calls[FUTEX_PROBES_OPS];
	unsigned long failures[FUTEX_PROBES_OPS];
	u64 last_error[FUTEX_PROBES_OPS];
};

static DEFINE_PER_CPU(struct futex_probes_stats, futex_probes_stats);

static struct dentry *futex_probes_dir;

/*
 * Count one operation. Context: the futex caller's task context with
 * preemption disabled (the probe-call path); no locks, no allocation:
 * per-CPU updates only.
 */
static void futex_probes_count(enum futex_probes_op op, int ret)
{
	u64 error;

	this_cpu_inc(futex_probes_stats.calls[op]);
	if (ret >= 0)
		return;
	this_cpu_inc(futex_probes_stats.failures[op]);
	error = local_clock() << ERRNO_BITS | ((u64)-ret & ERRNO_MASK);
	this_cpu_write(futex_probes_stats.last_error[op], error);
}

/*
 * The probes, one per marker: each reads the fields before ret in the
 * order of its format. Context (each of them): the futex syscall's task
 * context with preemption disabled; no locks, no allocation.
 */

/* futex_wait, FUTEX_WAIT_FORMAT. Task context; no locks, no allocation. */
static void futex_probes_wait(const struct marker *marker,
			      void *probe_private, va_list *args)
{
	/* uaddr, op, val, bitset, timeout_ns */
	va_arg(*args, unsigned long);
	va_arg(*args, int);
	va_arg(*args, unsigned int);
	va_arg(*args, unsigned int);
	va_arg(*args, long long);
	futex_probes_count(FUTEX_PROBES_WAIT, va_arg(*args, int));
}

/* futex_wake, FUTEX_WAKE_FORMAT. Task context; no locks, no allocation. */
static void futex_probes_wake(const struct marker *marker,
			      void *probe_private, va_list *args)
{
	/* uaddr, op, nr_wake, bitset */
	va_arg(*args, unsigned long);
	va_arg(*args, int);
	va_arg(*args, int);
	va_arg(*args, unsigned int);
	futex_probes_count(FUTEX_PROBES_WAKE, va_arg(*args, int));
}

/* futex_requeue, FUTEX_REQUEUE_FORMAT. Task context; no locks, no allocation. */
static void futex_probes_requeue(const struct marker *marker,
				 void *probe_private, va_list *args)
{
	/* uaddr, op, nr_wake, nr_requeue, uaddr2, cmpval */
	va_arg(*args, unsigned long);
	va_arg(*args, int);
	va_arg(*args, int);
	va_arg(*args, int);
	va_arg(*args, unsigned long);
	va_arg(*args, unsigned int);
	futex_probes_count(FUTEX_PROBES_REQUEUE, va_arg(*args, int));
}

/* futex_lock_pi, FUTEX_LOCK_PI_FORMAT. Task context; no locks, no allocation. */
static void futex_probes_lock_pi(const struct marker *marker,
				 void *probe_private, va_list *args)
{
	/* uaddr, op, timeout_ns */
	va_arg(*args, unsigned long);
	va_arg(*args, int);
	va_arg(*args, long long);
	futex_probes_count(FUTEX_PROBES_LOCK_PI, va_arg(*args, int));
}

/* futex_unlock_pi, FUTEX_UNLOCK_PI_FORMAT. Task context; no locks, no allocation. */
static void futex_probes_unlock_pi(const struct marker *marker,
				   void *probe_private, va_list *args)
{
	/* uaddr, op */
	va_arg(*args, unsigned long);
	va_arg(*args, int);
	futex_probes_count(FUTEX_PROBES_UNLOCK_PI, va_arg(*args, int));
}

static const struct marker_probe_request futex_probes[] = {
	{ "futex_wait", FUTEX_WAIT_FORMAT, futex_probes_wait, NULL },
	{ "futex_wake", FUTEX_WAKE_FORMAT, futex_probes_wake, NULL },
	{ "futex_requeue", FUTEX_REQUEUE_FORMAT, futex_probes_requeue, NULL },
	{ "futex_lock_pi", FUTEX_LOCK_PI_FORMAT, futex_probes_lock_pi, NULL },
	{ "futex_unlock_pi", FUTEX_UNLOCK_PI_FORMAT, futex_probes_unlock_pi,
	  NULL },
};

/* debugfs, in process context. */

static int futex_probes_stats_show(struct seq_file *m, void *unused)
{
	const struct futex_probes_stats *stats;
	unsigned long calls, failures;
	u64 error, last;
	int cpu, op;

	for (op = 0; op < FUTEX_PROBES_OPS; op++) {
		calls = 0;
		failures = 0;
		last = 0;
		for_each_possible_cpu(cpu) {
			stats = per_cpu_ptr(&futex_probes_stats, cpu);
			calls += READ_ONCE(stats->calls[op]);
			failures += READ_ONCE(stats->failures[op]);
			error = READ_ONCE(stats->last_error[op]);
			if (error >> ERRNO_BITS > last >> ERRNO_BITS)
				last = error;
		}
		seq_printf(m, "%s calls=%lu failures=%lu last_error=%d\n",
			   futex_probes_names[op], calls, failures,
			   -(int)(last & ERRNO_MASK));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(futex_probes_stats);

static int __init futex_probes_init(void)
{
	int ret;

	ret = marker_probe_register_batch(futex_probes,
					  ARRAY_SIZE(futex_probes));
	if (ret) {
		pr_err("registering the probes failed: %d\n", ret);
		return ret;
	}
	futex_probes_dir = debugfs_create_dir("futex-probes", NULL);
	debugfs_create_file("stats", 0400, futex_probes_dir, NULL,
			    &futex_probes_stats_fops);
	return 0;
}

static void __exit futex_probes_exit(void)
{
	debugfs_remove_recursive(futex_probes_dir);
	marker_probe_unregister_batch(futex_probes, ARRAY_SIZE(futex_probes));
	/* No CPU runs a probe past this point: the module may go. */
	marker_synchronize_unregister();
}

module_init(futex_probes_init);
module_exit(futex_probes_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static marker sample: futex calls, failures and last errors");
