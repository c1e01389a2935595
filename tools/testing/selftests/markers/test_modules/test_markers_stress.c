// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_stress.c - markers fired under load and from every context
 *
 * debugfs, under /sys/kernel/debug/test_markers_stress/:
 *
 *	hot	write N (N > 0) to start the hot-site test: a kthread per
 *		online CPU fires test_stress_hot in a tight loop while
 *		another kthread attaches and detaches a counting probe on
 *		it N times, odd cycles through marker_probe_register(), even
 *		ones through marker_probe_register_batch(); write 0 to stop
 *		early. -EBUSY while a run is in progress. Reading gives one
 *		line of counters (see test_hot_read()), final once
 *		"running 0".
 *	irq	write 1 to attach counting probes to test_stress_hardirq,
 *		test_stress_softirq and test_stress_nmi and start firing
 *		them: an hrtimer (hard IRQ) every 500 us fires the first,
 *		schedules a tasklet (softirq) that fires the second, and
 *		sends an NMI to the next online CPU, whose handler fires
 *		the third; write 0 to stop, wait for pending NMIs and detach
 *		the probes. Reading gives one line of counters.
 *	burst	write N: a kthread per online CPU fires test_stress_hot N
 *		times, nothing else; the write returns when all are done.
 *		Reading gives "fired F": the fires of the last burst.
 *
 * The control case: each fire of test_stress_hot in the hot-site test is
 * followed by a call through the static call test_stress_call, which a
 * kthread retargets between two functions every 100 to 200 us while the
 * test runs: the kernel's own int3-guarded patching of hot code, with no
 * marker involved. Every call must reach one of the two functions
 * (sc_calls = sc_a + sc_b in the hot line), and an emulator fault shows
 * there as well as at the marker site.
 *
 * The hot-site accounting: the toggler advances hot_gen before and after
 * each change, so hot_gen % 4 is 0 (detached, and
 * marker_synchronize_unregister() returned), 1 (attaching), 2 (attached:
 * marker_probe_register*() returned) or 3 (detaching). A firing thread
 * reads hot_gen, its CPU's probe call count, fires, and reads both again.
 * With hot_gen unchanged, a fire in phase 2 must call the probe exactly
 * once and one in phase 0 never ("lost" and "extra" count the
 * exceptions); a fire across a change or in phases 1 and 3 is the
 * documented window, where either is allowed. Only every
 * TEST_HOT_WAIT_EVERY-th cycle and the last wait for
 * marker_synchronize_unregister() and reach phase 0 ("waits" in the hot
 * line); the others go from 3 to the next cycle's 1.
 */

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>
#include "test_markers.h"

#define TEST_NMI_NAME		"test_markers_stress"
#define TEST_IRQ_PERIOD_NS	(500 * NSEC_PER_USEC)
/* Hot-site cycles per marker_synchronize_unregister() (phase 0). */
#define TEST_HOT_WAIT_EVERY	16

/* What one firing thread saw; written by that thread only. */
struct test_hot_cpu {
	unsigned long fired;
	unsigned long on_ok;		/* phase 2: one call, as expected */
	unsigned long off_ok;		/* phase 0: no call, as expected */
	unsigned long lost;		/* phase 2: no call */
	unsigned long extra;		/* phase 0, or more than one call */
	unsigned long window_fires;	/* across a change, or phase 1 or 3 */
	unsigned long window_calls;
	struct task_struct *task;
};

static DEFINE_MUTEX(test_lock);		/* starts and stops */
static struct dentry *test_dir;

static DEFINE_PER_CPU(unsigned long, hot_calls);
static DEFINE_PER_CPU(unsigned long, sc_calls);
static DEFINE_PER_CPU(unsigned long, sc_a);
static DEFINE_PER_CPU(unsigned long, sc_b);
static unsigned long sc_updates;
static struct task_struct *sc_task;
static atomic_long_t burst_fired;
static DEFINE_PER_CPU(struct test_hot_cpu, hot_cpu);
static unsigned long hot_gen;
static unsigned long hot_cycles, hot_done_cycles, hot_errors, hot_waits;
static bool hot_running, hot_abort;
static DECLARE_COMPLETION(hot_finished);

static atomic_long_t hard_fired, hard_calls, soft_fired, soft_calls;
static atomic_long_t nmi_sent, nmi_skipped, nmi_fired, nmi_calls;
static unsigned long nmi_lost;
static DEFINE_PER_CPU(int, nmi_pending);
static bool irq_running, irq_stop;
static struct hrtimer irq_timer;
static struct tasklet_struct irq_tasklet;

/**
 * test_hot_probe() - count a call of test_stress_hot on this CPU
 * @marker: the site that fired
 * @probe_private: unused
 * @args: not read
 *
 * Context: task (the firing kthreads), with preemption disabled by the
 * marker core; no locks, no allocation: one per-CPU increment.
 */
static void test_hot_probe(const struct marker *marker, void *probe_private,
			   va_list *args)
{
	this_cpu_inc(hot_calls);
}

/**
 * test_idle_probe() - attached with the counting probe by the batch API
 * @marker: the site that fired
 * @probe_private: unused
 * @args: not read
 *
 * Context: never called (test_stress_idle never fires); does nothing.
 */
static void test_idle_probe(const struct marker *marker, void *probe_private,
			    va_list *args)
{
}

/**
 * test_count_probe() - count a call
 * @marker: the site that fired
 * @probe_private: the atomic_long_t to increment
 * @args: not read
 *
 * Context: hard IRQ, softirq and NMI; no locks, no allocation: one atomic
 * increment.
 */
static void test_count_probe(const struct marker *marker, void *probe_private,
			     va_list *args)
{
	atomic_long_inc(probe_private);
}

static const struct marker_probe_request hot_batch[] = {
	{ .name = "test_stress_hot", .format = "cpu %d",
	  .probe = test_hot_probe },
	{ .name = "test_stress_idle", .format = MARK_NOARGS,
	  .probe = test_idle_probe },
};

static const struct marker_probe_request irq_batch[] = {
	{ .name = "test_stress_hardirq", .format = "seq %ld",
	  .probe = test_count_probe, .probe_private = &hard_calls },
	{ .name = "test_stress_softirq", .format = "seq %ld",
	  .probe = test_count_probe, .probe_private = &soft_calls },
	{ .name = "test_stress_nmi", .format = "seq %ld",
	  .probe = test_count_probe, .probe_private = &nmi_calls },
};

/* The two targets of the control case's static call. */
static noinline void test_sc_a(void)
{
	this_cpu_inc(sc_a);
}

static noinline void test_sc_b(void)
{
	this_cpu_inc(sc_b);
}

DEFINE_STATIC_CALL(test_stress_call, test_sc_a);

/* Fired once at load, with nothing attached: the batch's second name. */
static noinline void test_idle_site(void)
{
	trace_mark(test_stress_idle, MARK_NOARGS);
}

/* One fire of test_stress_hot, classified as the header comment says. */
static void test_hot_fire(struct test_hot_cpu *s, unsigned long *calls,
			  int cpu)
{
	unsigned long g1, g2, c0, c1, d;

	/* Pairs with test_hot_gen_to(): the phase read is the one fired in. */
	g1 = smp_load_acquire(&hot_gen);
	c0 = READ_ONCE(*calls);
	trace_mark(test_stress_hot, "cpu %d", cpu);
	c1 = READ_ONCE(*calls);
	/* The count is read before hot_gen is read again. */
	smp_rmb();
	g2 = READ_ONCE(hot_gen);
	d = c1 - c0;
	s->fired++;
	if (g1 != g2 || (g1 & 3) == 1 || (g1 & 3) == 3) {
		s->window_fires++;
		s->window_calls += d;
		if (d > 1)
			s->extra++;
	} else if ((g1 & 3) == 2) {
		if (d == 1)
			s->on_ok++;
		else if (d == 0)
			s->lost++;
		else
			s->extra++;
	} else {
		if (d == 0)
			s->off_ok++;
		else
			s->extra++;
	}
}

static int test_hot_fire_thread(void *data)
{
	int cpu = (long)data;
	struct test_hot_cpu *s = per_cpu_ptr(&hot_cpu, cpu);
	unsigned long *calls = per_cpu_ptr(&hot_calls, cpu);
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		test_hot_fire(s, calls, cpu);
		static_call(test_stress_call)();
		this_cpu_inc(sc_calls);
		if (!(++i % 64)) {
			/*
			 * A spin-wait hint: on hardware a few cycles; under
			 * single-threaded TCG it hands the emulator to the
			 * other vCPU, which otherwise runs only from one of
			 * its own interrupts to the next, so that an IPI
			 * from the toggler's text_poke_bp() waits a tick.
			 */
			cpu_relax();
			cond_resched();
		}
	}
	return 0;
}

/* The control case: retarget test_stress_call until stopped. */
static int test_sc_retarget_thread(void *data)
{
	bool b = false;

	while (!kthread_should_stop()) {
		b = !b;
		if (b)
			static_call_update(test_stress_call, test_sc_b);
		else
			static_call_update(test_stress_call, test_sc_a);
		WRITE_ONCE(sc_updates, sc_updates + 1);
		usleep_range(100, 200);
	}
	static_call_update(test_stress_call, test_sc_a);
	return 0;
}

/* Advance hot_gen to the next value that is @phase modulo 4. */
static void test_hot_gen_to(unsigned long phase)
{
	unsigned long gen = hot_gen + 1;

	gen += (phase - gen) & 3;
	/* The (un)registration before is done before the phase changes... */
	smp_mb();
	WRITE_ONCE(hot_gen, gen);
	/* ...and the one after starts after it changed. */
	smp_mb();
}

/*
 * One attach and detach; the probe is detached on return. Every
 * TEST_HOT_WAIT_EVERY-th cycle (and the last) waits for the detach with
 * marker_synchronize_unregister() and holds phase 0; the others go from
 * detaching (3) straight to the next attach (1), as a tracer re-enabling
 * an event would, so that a cycle costs two patchings and not a grace
 * period.
 */
static int test_hot_cycle(bool batch, bool wait)
{
	int ret;

	test_hot_gen_to(1);	/* attaching */
	if (batch)
		ret = marker_probe_register_batch(hot_batch, ARRAY_SIZE(hot_batch));
	else
		ret = marker_probe_register("test_stress_hot", "cpu %d",
					    test_hot_probe, NULL);
	test_hot_gen_to(2);	/* attached */
	usleep_range(100, 200);
	test_hot_gen_to(3);	/* detaching */
	if (!ret) {
		if (batch)
			ret = marker_probe_unregister_batch(hot_batch,
							    ARRAY_SIZE(hot_batch));
		else
			ret = marker_probe_unregister("test_stress_hot",
						      test_hot_probe, NULL);
	}
	if (wait) {
		marker_synchronize_unregister();
		test_hot_gen_to(0);	/* detached */
		hot_waits++;
	}
	usleep_range(100, 200);
	return ret;
}

static int test_hot_toggler(void *data)
{
	unsigned long i;
	bool wait;
	int cpu;

	for (i = 0; i < hot_cycles && !READ_ONCE(hot_abort); i++) {
		wait = !((i + 1) % TEST_HOT_WAIT_EVERY) ||
		       i + 1 == hot_cycles || READ_ONCE(hot_abort);
		if (test_hot_cycle(i & 1, wait))
			hot_errors++;
		WRITE_ONCE(hot_done_cycles, i + 1);
	}
	/* Stopped early: the last cycle may not have waited. */
	if ((hot_gen & 3) != 0) {
		marker_synchronize_unregister();
		test_hot_gen_to(0);
	}
	if (sc_task)
		kthread_stop(sc_task);
	sc_task = NULL;
	for_each_online_cpu(cpu) {
		struct test_hot_cpu *s = per_cpu_ptr(&hot_cpu, cpu);

		if (s->task)
			kthread_stop(s->task);
		s->task = NULL;
	}
	WRITE_ONCE(hot_running, false);
	/* The module may go as soon as hot_finished completes. */
	kthread_complete_and_exit(&hot_finished, 0);
}

/* Called with test_lock held. */
static int test_hot_start(unsigned long cycles)
{
	struct task_struct *t;
	int cpu;

	if (hot_running)
		return -EBUSY;
	for_each_possible_cpu(cpu) {
		memset(per_cpu_ptr(&hot_cpu, cpu), 0, sizeof(struct test_hot_cpu));
		per_cpu(hot_calls, cpu) = 0;
		per_cpu(sc_calls, cpu) = 0;
		per_cpu(sc_a, cpu) = 0;
		per_cpu(sc_b, cpu) = 0;
	}
	sc_updates = 0;
	hot_cycles = cycles;
	hot_done_cycles = 0;
	hot_errors = 0;
	hot_waits = 0;
	hot_abort = false;
	hot_gen = 0;
	reinit_completion(&hot_finished);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		t = kthread_create_on_cpu(test_hot_fire_thread, (void *)(long)cpu,
					  cpu, "test_stress_hot/%u");
		if (IS_ERR(t))
			continue;
		per_cpu(hot_cpu, cpu).task = t;
		wake_up_process(t);
	}
	cpus_read_unlock();
	hot_running = true;
	sc_task = kthread_run(test_sc_retarget_thread, NULL, "test_stress_sc");
	if (IS_ERR(sc_task))
		sc_task = NULL;
	t = kthread_run(test_hot_toggler, NULL, "test_stress_toggle");
	if (IS_ERR(t)) {
		if (sc_task)
			kthread_stop(sc_task);
		sc_task = NULL;
		for_each_online_cpu(cpu) {
			if (per_cpu(hot_cpu, cpu).task)
				kthread_stop(per_cpu(hot_cpu, cpu).task);
			per_cpu(hot_cpu, cpu).task = NULL;
		}
		hot_running = false;
		return PTR_ERR(t);
	}
	return 0;
}

/* Called with test_lock held. */
static void test_hot_stop(void)
{
	if (!hot_running)
		return;
	WRITE_ONCE(hot_abort, true);
	wait_for_completion(&hot_finished);
}

static ssize_t test_hot_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	unsigned long cycles;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 0, &cycles);
	if (ret)
		return ret;
	mutex_lock(&test_lock);
	if (cycles)
		ret = test_hot_start(cycles);
	else
		test_hot_stop();
	mutex_unlock(&test_lock);
	return ret ? ret : count;
}

static ssize_t test_hot_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct test_hot_cpu sum = { };
	unsigned long calls = 0, scc = 0, sca = 0, scb = 0;
	char buf[400];
	int cpu, len;

	for_each_possible_cpu(cpu) {
		struct test_hot_cpu *s = per_cpu_ptr(&hot_cpu, cpu);

		sum.fired += READ_ONCE(s->fired);
		sum.on_ok += READ_ONCE(s->on_ok);
		sum.off_ok += READ_ONCE(s->off_ok);
		sum.lost += READ_ONCE(s->lost);
		sum.extra += READ_ONCE(s->extra);
		sum.window_fires += READ_ONCE(s->window_fires);
		sum.window_calls += READ_ONCE(s->window_calls);
		calls += per_cpu(hot_calls, cpu);
		scc += per_cpu(sc_calls, cpu);
		sca += per_cpu(sc_a, cpu);
		scb += per_cpu(sc_b, cpu);
	}
	len = scnprintf(buf, sizeof(buf),
			"running %d cycles %lu/%lu errors %lu waits %lu fired %lu calls %lu on_ok %lu off_ok %lu lost %lu extra %lu window_fires %lu window_calls %lu sc_updates %lu sc_calls %lu sc_a %lu sc_b %lu\n",
			READ_ONCE(hot_running), READ_ONCE(hot_done_cycles),
			hot_cycles, hot_errors, READ_ONCE(hot_waits), sum.fired, calls, sum.on_ok,
			sum.off_ok, sum.lost, sum.extra, sum.window_fires,
			sum.window_calls, READ_ONCE(sc_updates), scc, sca, scb);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

struct test_burst {
	unsigned long n;
	atomic_t left;
	struct completion done;
};

static int test_burst_thread(void *data)
{
	struct test_burst *b = data;
	int cpu = raw_smp_processor_id();
	unsigned long i;

	for (i = 0; i < b->n; i++) {
		trace_mark(test_stress_hot, "cpu %d", cpu);
		atomic_long_inc(&burst_fired);
		if (!(i % 64))
			cond_resched();
	}
	if (atomic_dec_and_test(&b->left))
		complete(&b->done);
	return 0;
}

/* Called with test_lock held: N fires on each online CPU, then return. */
static int test_burst_run(unsigned long n)
{
	struct test_burst b = { .n = n };
	struct task_struct *t;
	int cpu;

	if (hot_running)
		return -EBUSY;
	atomic_long_set(&burst_fired, 0);
	init_completion(&b.done);
	cpus_read_lock();
	atomic_set(&b.left, num_online_cpus() + 1);
	for_each_online_cpu(cpu) {
		t = kthread_run_on_cpu(test_burst_thread, &b, cpu,
				       "test_stress_burst/%u");
		if (IS_ERR(t))
			atomic_dec(&b.left);
	}
	cpus_read_unlock();
	if (!atomic_dec_and_test(&b.left))
		wait_for_completion(&b.done);
	return 0;
}

static ssize_t test_burst_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	unsigned long n;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (n > 100000000)
		return -EINVAL;
	mutex_lock(&test_lock);
	ret = test_burst_run(n);
	mutex_unlock(&test_lock);
	return ret ? ret : count;
}

static ssize_t test_burst_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[40];
	int len;

	len = scnprintf(buf, sizeof(buf), "fired %ld\n",
			atomic_long_read(&burst_fired));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/**
 * test_nmi_handler() - fire test_stress_nmi for an NMI this module sent
 * @type: NMI_LOCAL
 * @regs: not read
 *
 * Context: NMI; no locks, no allocation.
 *
 * Return: NMI_HANDLED for this module's NMIs, NMI_DONE for others.
 */
static int test_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (!this_cpu_read(nmi_pending))
		return NMI_DONE;
	trace_mark(test_stress_nmi, "seq %ld", atomic_long_inc_return(&nmi_fired));
	this_cpu_write(nmi_pending, 0);
	return NMI_HANDLED;
}

/* Context: softirq. */
static void test_irq_tasklet(struct tasklet_struct *t)
{
	trace_mark(test_stress_softirq, "seq %ld", atomic_long_inc_return(&soft_fired));
}

/* Context: hard IRQ. */
static enum hrtimer_restart test_irq_timer(struct hrtimer *t)
{
	int self = smp_processor_id(), cpu;

	trace_mark(test_stress_hardirq, "seq %ld", atomic_long_inc_return(&hard_fired));
	tasklet_schedule(&irq_tasklet);
	cpu = cpumask_next(self, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	if (cpu != self) {
		if (xchg(per_cpu_ptr(&nmi_pending, cpu), 1)) {
			atomic_long_inc(&nmi_skipped);
		} else {
			atomic_long_inc(&nmi_sent);
			apic->send_IPI(cpu, NMI_VECTOR);
		}
	}
	if (READ_ONCE(irq_stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(TEST_IRQ_PERIOD_NS));
	return HRTIMER_RESTART;
}

/* Called with test_lock held. */
static int test_irq_start(void)
{
	atomic_long_t *counters[] = { &hard_fired, &hard_calls, &soft_fired,
		&soft_calls, &nmi_sent, &nmi_skipped, &nmi_fired, &nmi_calls };
	int cpu, i, ret;

	if (irq_running)
		return -EBUSY;
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		atomic_long_set(counters[i], 0);
	for_each_possible_cpu(cpu)
		per_cpu(nmi_pending, cpu) = 0;
	nmi_lost = 0;
	ret = marker_probe_register_batch(irq_batch, ARRAY_SIZE(irq_batch));
	if (ret)
		return ret;
	ret = register_nmi_handler(NMI_LOCAL, test_nmi_handler, 0, TEST_NMI_NAME);
	if (ret) {
		marker_probe_unregister_batch(irq_batch, ARRAY_SIZE(irq_batch));
		return ret;
	}
	WRITE_ONCE(irq_stop, false);
	hrtimer_start(&irq_timer, ns_to_ktime(TEST_IRQ_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED);
	irq_running = true;
	return 0;
}

/* Called with test_lock held. */
static void test_irq_stop(void)
{
	int cpu, tries;

	if (!irq_running)
		return;
	WRITE_ONCE(irq_stop, true);
	hrtimer_cancel(&irq_timer);
	tasklet_kill(&irq_tasklet);
	for (tries = 0; tries < 50; tries++) {
		bool pending = false;

		for_each_possible_cpu(cpu)
			pending |= READ_ONCE(per_cpu(nmi_pending, cpu));
		if (!pending)
			break;
		msleep(20);
	}
	for_each_possible_cpu(cpu)
		nmi_lost += xchg(per_cpu_ptr(&nmi_pending, cpu), 0);
	unregister_nmi_handler(NMI_LOCAL, TEST_NMI_NAME);
	marker_probe_unregister_batch(irq_batch, ARRAY_SIZE(irq_batch));
	marker_synchronize_unregister();
	irq_running = false;
}

static ssize_t test_irq_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&test_lock);
	if (on)
		ret = test_irq_start();
	else
		test_irq_stop();
	mutex_unlock(&test_lock);
	return ret ? ret : count;
}

static ssize_t test_irq_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[320];
	int len;

	len = scnprintf(buf, sizeof(buf),
			"running %d hard_fired %ld hard_calls %ld soft_fired %ld soft_calls %ld nmi_sent %ld nmi_skipped %ld nmi_fired %ld nmi_calls %ld nmi_lost %lu\n",
			READ_ONCE(irq_running),
			atomic_long_read(&hard_fired), atomic_long_read(&hard_calls),
			atomic_long_read(&soft_fired), atomic_long_read(&soft_calls),
			atomic_long_read(&nmi_sent), atomic_long_read(&nmi_skipped),
			atomic_long_read(&nmi_fired), atomic_long_read(&nmi_calls),
			nmi_lost);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

DEFINE_TEST_KNOB(test_hot, test_hot_read, test_hot_write);
DEFINE_TEST_KNOB(test_irq, test_irq_read, test_irq_write);
DEFINE_TEST_KNOB(test_burst, test_burst_read, test_burst_write);

static int __init test_markers_stress_init(void)
{
	test_idle_site();
	hrtimer_init(&irq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	irq_timer.function = test_irq_timer;
	tasklet_setup(&irq_tasklet, test_irq_tasklet);
	test_dir = test_knob_dir();
	debugfs_create_file("hot", 0600, test_dir, NULL, &test_hot_fops);
	debugfs_create_file("irq", 0600, test_dir, NULL, &test_irq_fops);
	debugfs_create_file("burst", 0600, test_dir, NULL, &test_burst_fops);
	return 0;
}

static void __exit test_markers_stress_exit(void)
{
	debugfs_remove_recursive(test_dir);
	mutex_lock(&test_lock);
	test_hot_stop();
	test_irq_stop();
	mutex_unlock(&test_lock);
}

module_init(test_markers_stress_init);
module_exit(test_markers_stress_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers stress test: hot-site patching, hard IRQ, softirq and NMI");
