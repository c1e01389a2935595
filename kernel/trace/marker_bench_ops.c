// SPDX-License-Identifier: GPL-2.0
/*
 * Markers measured against tracepoints: the measures of operations of the
 * marker_benchmark module, which marker_bench.c runs when it loads.
 *
 * This file holds one probe registration on a point that has two (also
 * the debugfs file marker_benchmark/registration), enabling and disabling
 * 64 points, one by one and markers in one batch, format-checked and
 * typed probes, and enabling and
 * disabling every event of a trace system: their cost in instructions,
 * function-call IPIs and RCU grace periods.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/marker_typed.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timex.h>

#include "marker_benchmark.h"
#include "marker_bench.h"

/* ---- Counting ---- */

/* Function-call IPIs received by every online CPU so far. */
static unsigned long marker_bench_call_ipis(void)
{
	unsigned long sum = 0;
#if defined(CONFIG_X86) && defined(CONFIG_SMP)
	int cpu;

	for_each_online_cpu(cpu)
		sum += per_cpu(irq_stat, cpu).irq_call_count;
#endif
	return sum;
}

static bool marker_bench_have_ipis(void)
{
	return IS_ENABLED(CONFIG_X86) && IS_ENABLED(CONFIG_SMP);
}

/*
 * Grace periods waited for: calls of the functions that wait for one,
 * counted by kprobes while the measures run. A grace period that merely
 * elapsed meanwhile, or that cond_synchronize_rcu() found already past,
 * is not counted.
 */
static atomic_t marker_bench_gp_waits = ATOMIC_INIT(0);

static int marker_bench_gp_wait_hit(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&marker_bench_gp_waits);
	return 0;
}

/*
 * A post handler keeps a kprobe from being optimized: the optimizer's
 * delayed work would patch text (IPIs, instructions) while the rows are
 * measured.
 */
static void marker_bench_gp_wait_post(struct kprobe *kp, struct pt_regs *regs,
				      unsigned long flags)
{
}

static struct kprobe marker_bench_gp_probes[] = {
	{ .symbol_name = "synchronize_rcu" },
	{ .symbol_name = "synchronize_rcu_expedited" },
	{ .symbol_name = "synchronize_rcu_tasks" },
	{ .symbol_name = "synchronize_rcu_tasks_trace" },
};

static bool marker_bench_gp_registered[ARRAY_SIZE(marker_bench_gp_probes)];
static bool marker_bench_gp_counting;

void marker_bench_gp_count_stop(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(marker_bench_gp_probes); i++) {
		if (marker_bench_gp_registered[i])
			unregister_kprobe(&marker_bench_gp_probes[i]);
		marker_bench_gp_registered[i] = false;
	}
	marker_bench_gp_counting = false;
}

/*
 * Start counting; without kprobes, the grace-period rows are n/a. Context:
 * process (module init).
 */
void marker_bench_gp_count_start(void)
{
	struct kprobe *kp;
	unsigned int i;
	int ret;

	if (!IS_ENABLED(CONFIG_KPROBES))
		return;
	for (i = 0; i < ARRAY_SIZE(marker_bench_gp_probes); i++) {
		kp = &marker_bench_gp_probes[i];
		kp->pre_handler = marker_bench_gp_wait_hit;
		kp->post_handler = marker_bench_gp_wait_post;
		ret = register_kprobe(kp);
		/* An RCU flavour this kernel lacks has nothing to count. */
		if (ret == -ENOENT)
			continue;
		if (ret) {
			pr_err("cannot count grace periods: %s: %d\n",
			       kp->symbol_name, ret);
			marker_bench_gp_count_stop();
			return;
		}
		marker_bench_gp_registered[i] = true;
	}
	marker_bench_gp_counting = true;
}

/* What an operation cost: cycles, call IPIs and RCU grace periods waited. */
struct marker_bench_cost {
	u64 cycles;
	unsigned long ipis;
	unsigned long gps;
};

static void marker_bench_cost_start(struct marker_bench_cost *c)
{
	c->gps = atomic_read(&marker_bench_gp_waits);
	c->ipis = marker_bench_call_ipis();
	c->cycles = get_cycles();
}

/* Turns @c into the cost since marker_bench_cost_start(). */
static void marker_bench_cost_stop(struct marker_bench_cost *c)
{
	c->cycles = get_cycles() - c->cycles;
	c->ipis = marker_bench_call_ipis() - c->ipis;
	c->gps = atomic_read(&marker_bench_gp_waits) - c->gps;
}

static void marker_bench_ipi_row(const char *measure, unsigned long tracepoint,
				 unsigned long marker)
{
	if (marker_bench_have_ipis())
		marker_bench_count_row(NULL, measure, tracepoint, marker);
	else
		marker_bench_row(NULL, measure, MARKER_BENCH_NA,
				 MARKER_BENCH_NA);
}

/*
 * The rows "<@op> <@what>: call IPIs" and, with @cycles, ": instructions",
 * else ": grace periods", of the costs @tp and @mk.
 */
static void marker_bench_cost_rows(const char *op, const char *what,
				   const struct marker_bench_cost *tp,
				   const struct marker_bench_cost *mk,
				   bool cycles)
{
	char measure[128];

	snprintf(measure, sizeof(measure), "%s %s: call IPIs", op, what);
	marker_bench_ipi_row(measure, tp->ipis, mk->ipis);
	snprintf(measure, sizeof(measure), "%s %s: %s", op, what,
		 cycles ? "instructions" : "grace periods");
	if (cycles)
		marker_bench_count_row(NULL, measure, tp->cycles, mk->cycles);
	else if (marker_bench_gp_counting)
		marker_bench_count_row(NULL, measure, tp->gps, mk->gps);
	else
		marker_bench_row(NULL, measure, MARKER_BENCH_NA,
				 MARKER_BENCH_NA);
}

/* ---- The 64 points and their counting probes ---- */

/*
 * The 64 points: a marker and a tracepoint of each name, and the typed
 * marker of the same index.
 */
#define MARKER_BENCH_FIRE(n)						\
	do {								\
		trace_mark(marker_bench_batch##n, MARKER_BENCH_FORMAT,	\
			   0, 0, 0);					\
		trace_marker_bench_batch##n(0, 0, 0);			\
		mark_marker_bench_typed##n(0, 0, 0);			\
	} while (0)

#define MARKER_BENCH_FIRE8(g)						\
	do {								\
		MARKER_BENCH_FIRE(g##0);				\
		MARKER_BENCH_FIRE(g##1);				\
		MARKER_BENCH_FIRE(g##2);				\
		MARKER_BENCH_FIRE(g##3);				\
		MARKER_BENCH_FIRE(g##4);				\
		MARKER_BENCH_FIRE(g##5);				\
		MARKER_BENCH_FIRE(g##6);				\
		MARKER_BENCH_FIRE(g##7);				\
	} while (0)

static noinline void marker_bench_fire_points(void)
{
	MARKER_BENCH_FIRE8(0);
	MARKER_BENCH_FIRE8(1);
	MARKER_BENCH_FIRE8(2);
	MARKER_BENCH_FIRE8(3);
	MARKER_BENCH_FIRE8(4);
	MARKER_BENCH_FIRE8(5);
	MARKER_BENCH_FIRE8(6);
	MARKER_BENCH_FIRE8(7);
}

#define MARKER_BENCH_TP(n)	(&__tracepoint_marker_bench_batch##n)

static struct tracepoint * const marker_bench_tps[MARKER_BENCH_POINTS] = {
	MARKER_BENCH_TP(00), MARKER_BENCH_TP(01), MARKER_BENCH_TP(02),
	MARKER_BENCH_TP(03), MARKER_BENCH_TP(04), MARKER_BENCH_TP(05),
	MARKER_BENCH_TP(06), MARKER_BENCH_TP(07), MARKER_BENCH_TP(10),
	MARKER_BENCH_TP(11), MARKER_BENCH_TP(12), MARKER_BENCH_TP(13),
	MARKER_BENCH_TP(14), MARKER_BENCH_TP(15), MARKER_BENCH_TP(16),
	MARKER_BENCH_TP(17), MARKER_BENCH_TP(20), MARKER_BENCH_TP(21),
	MARKER_BENCH_TP(22), MARKER_BENCH_TP(23), MARKER_BENCH_TP(24),
	MARKER_BENCH_TP(25), MARKER_BENCH_TP(26), MARKER_BENCH_TP(27),
	MARKER_BENCH_TP(30), MARKER_BENCH_TP(31), MARKER_BENCH_TP(32),
	MARKER_BENCH_TP(33), MARKER_BENCH_TP(34), MARKER_BENCH_TP(35),
	MARKER_BENCH_TP(36), MARKER_BENCH_TP(37), MARKER_BENCH_TP(40),
	MARKER_BENCH_TP(41), MARKER_BENCH_TP(42), MARKER_BENCH_TP(43),
	MARKER_BENCH_TP(44), MARKER_BENCH_TP(45), MARKER_BENCH_TP(46),
	MARKER_BENCH_TP(47), MARKER_BENCH_TP(50), MARKER_BENCH_TP(51),
	MARKER_BENCH_TP(52), MARKER_BENCH_TP(53), MARKER_BENCH_TP(54),
	MARKER_BENCH_TP(55), MARKER_BENCH_TP(56), MARKER_BENCH_TP(57),
	MARKER_BENCH_TP(60), MARKER_BENCH_TP(61), MARKER_BENCH_TP(62),
	MARKER_BENCH_TP(63), MARKER_BENCH_TP(64), MARKER_BENCH_TP(65),
	MARKER_BENCH_TP(66), MARKER_BENCH_TP(67), MARKER_BENCH_TP(70),
	MARKER_BENCH_TP(71), MARKER_BENCH_TP(72), MARKER_BENCH_TP(73),
	MARKER_BENCH_TP(74), MARKER_BENCH_TP(75), MARKER_BENCH_TP(76),
	MARKER_BENCH_TP(77),
};

#define MARKER_BENCH_TYPED_DECL(n)	(&__marker_typed_marker_bench_typed##n)

static struct marker_typed * const marker_bench_typed[MARKER_BENCH_POINTS] = {
	MARKER_BENCH_TYPED_DECL(00), MARKER_BENCH_TYPED_DECL(01),
	MARKER_BENCH_TYPED_DECL(02), MARKER_BENCH_TYPED_DECL(03),
	MARKER_BENCH_TYPED_DECL(04), MARKER_BENCH_TYPED_DECL(05),
	MARKER_BENCH_TYPED_DECL(06), MARKER_BENCH_TYPED_DECL(07),
	MARKER_BENCH_TYPED_DECL(10), MARKER_BENCH_TYPED_DECL(11),
	MARKER_BENCH_TYPED_DECL(12), MARKER_BENCH_TYPED_DECL(13),
	MARKER_BENCH_TYPED_DECL(14), MARKER_BENCH_TYPED_DECL(15),
	MARKER_BENCH_TYPED_DECL(16), MARKER_BENCH_TYPED_DECL(17),
	MARKER_BENCH_TYPED_DECL(20), MARKER_BENCH_TYPED_DECL(21),
	MARKER_BENCH_TYPED_DECL(22), MARKER_BENCH_TYPED_DECL(23),
	MARKER_BENCH_TYPED_DECL(24), MARKER_BENCH_TYPED_DECL(25),
	MARKER_BENCH_TYPED_DECL(26), MARKER_BENCH_TYPED_DECL(27),
	MARKER_BENCH_TYPED_DECL(30), MARKER_BENCH_TYPED_DECL(31),
	MARKER_BENCH_TYPED_DECL(32), MARKER_BENCH_TYPED_DECL(33),
	MARKER_BENCH_TYPED_DECL(34), MARKER_BENCH_TYPED_DECL(35),
	MARKER_BENCH_TYPED_DECL(36), MARKER_BENCH_TYPED_DECL(37),
	MARKER_BENCH_TYPED_DECL(40), MARKER_BENCH_TYPED_DECL(41),
	MARKER_BENCH_TYPED_DECL(42), MARKER_BENCH_TYPED_DECL(43),
	MARKER_BENCH_TYPED_DECL(44), MARKER_BENCH_TYPED_DECL(45),
	MARKER_BENCH_TYPED_DECL(46), MARKER_BENCH_TYPED_DECL(47),
	MARKER_BENCH_TYPED_DECL(50), MARKER_BENCH_TYPED_DECL(51),
	MARKER_BENCH_TYPED_DECL(52), MARKER_BENCH_TYPED_DECL(53),
	MARKER_BENCH_TYPED_DECL(54), MARKER_BENCH_TYPED_DECL(55),
	MARKER_BENCH_TYPED_DECL(56), MARKER_BENCH_TYPED_DECL(57),
	MARKER_BENCH_TYPED_DECL(60), MARKER_BENCH_TYPED_DECL(61),
	MARKER_BENCH_TYPED_DECL(62), MARKER_BENCH_TYPED_DECL(63),
	MARKER_BENCH_TYPED_DECL(64), MARKER_BENCH_TYPED_DECL(65),
	MARKER_BENCH_TYPED_DECL(66), MARKER_BENCH_TYPED_DECL(67),
	MARKER_BENCH_TYPED_DECL(70), MARKER_BENCH_TYPED_DECL(71),
	MARKER_BENCH_TYPED_DECL(72), MARKER_BENCH_TYPED_DECL(73),
	MARKER_BENCH_TYPED_DECL(74), MARKER_BENCH_TYPED_DECL(75),
	MARKER_BENCH_TYPED_DECL(76), MARKER_BENCH_TYPED_DECL(77),
};

/* "marker_bench_batch" and the index in two octal digits, as above. */
static char marker_bench_point_names[MARKER_BENCH_POINTS][MARKER_NAME_MAX];
static struct marker_probe_request marker_bench_reqs[MARKER_BENCH_POINTS];
static struct marker_probe_request marker_bench_typed_reqs[MARKER_BENCH_POINTS];

/* Calls of the counting probes: each of the 64 points fired once. */
static unsigned int marker_bench_tp_calls;
static unsigned int marker_bench_marker_calls;
static unsigned int marker_bench_typed_calls;

static void marker_bench_tp_count(void *data, int a, int b, int c)
{
	WRITE_ONCE(marker_bench_tp_calls, marker_bench_tp_calls + 1);
}

static void marker_bench_probe_count(const struct marker *marker,
				     void *probe_private, va_list *args)
{
	WRITE_ONCE(marker_bench_marker_calls, marker_bench_marker_calls + 1);
}

static void marker_bench_typed_count(void *data, int a, int b, int c)
{
	WRITE_ONCE(marker_bench_typed_calls, marker_bench_typed_calls + 1);
}

/* ---- Registration ---- */

static int marker_bench_count_site(const struct marker_site_info *info,
				   void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

/*
 * The cost of registering a third probe on a point that has two: nothing
 * to patch, for tracepoints nor markers. The least of @runs runs.
 */
static int marker_bench_register_once(u64 *tp_best, u64 *mk_best,
				      u64 *typed_best)
{
	void *p2 = &marker_bench_private[2];
	struct marker_bench_cost c;
	unsigned int run;
	int ret;

	*tp_best = U64_MAX;
	*mk_best = U64_MAX;
	*typed_best = U64_MAX;
	for (run = 0; run < marker_bench_runs(); run++) {
		marker_bench_cost_start(&c);
		ret = tracepoint_probe_register(&__tracepoint_marker_bench,
						(void *)marker_bench_tp_empty,
						p2);
		marker_bench_cost_stop(&c);
		if (ret)
			return ret;
		*tp_best = min(*tp_best, c.cycles);
		tracepoint_probe_unregister(&__tracepoint_marker_bench,
					    (void *)marker_bench_tp_empty, p2);
		tracepoint_synchronize_unregister();

		marker_bench_cost_start(&c);
		ret = marker_probe_register("marker_bench", MARKER_BENCH_FORMAT,
					    marker_bench_probe_empty, p2);
		marker_bench_cost_stop(&c);
		if (ret)
			return ret;
		*mk_best = min(*mk_best, c.cycles);
		marker_probe_unregister("marker_bench",
					marker_bench_probe_empty, p2);
		marker_synchronize_unregister();

		marker_bench_cost_start(&c);
		ret = register_mark_marker_bench_typed(marker_bench_typed_empty,
						       p2);
		marker_bench_cost_stop(&c);
		if (ret)
			return ret;
		*typed_best = min(*typed_best, c.cycles);
		unregister_mark_marker_bench_typed(marker_bench_typed_empty, p2);
		marker_synchronize_unregister();
	}
	return 0;
}

/*
 * Rows of one probe registration, untyped and typed, to @m if given, else
 * to the kernel log. Context: process, under the module's mutex; waits for
 * grace periods.
 */
int marker_bench_registration(struct seq_file *m)
{
	void *p0 = &marker_bench_private[0], *p1 = &marker_bench_private[1];
	unsigned int sites = 0;
	u64 tp = 0, mk = 0, typed = 0;
	char measure[112];
	int ret;

	marker_iterate_sites(marker_bench_count_site, &sites);

	ret = register_trace_marker_bench(marker_bench_tp_empty, p0);
	if (ret)
		return ret;
	ret = register_trace_marker_bench(marker_bench_tp_empty, p1);
	if (ret)
		goto out_tp0;
	ret = marker_bench_markers_register(marker_bench_probe_empty,
					    marker_bench_typed_empty, p0);
	if (ret)
		goto out_tp1;
	ret = marker_bench_markers_register(marker_bench_probe_empty,
					    marker_bench_typed_empty, p1);
	if (ret)
		goto out_markers0;

	ret = marker_bench_register_once(&tp, &mk, &typed);

	marker_bench_markers_unregister(marker_bench_probe_empty,
					marker_bench_typed_empty, p1);
out_markers0:
	marker_bench_markers_unregister(marker_bench_probe_empty,
					marker_bench_typed_empty, p0);
out_tp1:
	unregister_trace_marker_bench(marker_bench_tp_empty, p1);
out_tp0:
	unregister_trace_marker_bench(marker_bench_tp_empty, p0);
	tracepoint_synchronize_unregister();
	marker_synchronize_unregister();
	if (ret) {
		pr_err("registration failed: %d\n", ret);
		return ret;
	}
	snprintf(measure, sizeof(measure),
		 "one probe registration, nothing to patch (%u marker sites loaded)",
		 sites);
	marker_bench_row(m, measure, (s64)tp * 10, (s64)mk * 10);
	snprintf(measure, sizeof(measure),
		 "one typed probe registration, register_mark_<name>(), nothing to patch (%u marker sites loaded)",
		 sites);
	marker_bench_row(m, measure, (s64)tp * 10, (s64)typed * 10);
	return 0;
}

/* ---- Enabling 64 points ---- */

static void marker_bench_points_init(void)
{
	unsigned int i;

	for (i = 0; i < MARKER_BENCH_POINTS; i++) {
		snprintf(marker_bench_point_names[i], MARKER_NAME_MAX,
			 "marker_bench_batch%02o", i);
		marker_bench_reqs[i] = (struct marker_probe_request) {
			.name = marker_bench_point_names[i],
			.format = MARKER_BENCH_FORMAT,
			.probe = marker_bench_probe_count,
		};
		marker_bench_typed_reqs[i] = (struct marker_probe_request) {
			.probe = (marker_probe_func)(void *)marker_bench_typed_count,
			.typed = marker_bench_typed[i],
		};
	}
}

/*
 * Fire the 64 points once, @calls counting the calls of their probes:
 * -EIO unless each point called its probe once.
 */
static int marker_bench_fire_counted(unsigned int *calls)
{
	*calls = 0;
	marker_bench_fire_points();
	return READ_ONCE(*calls) == MARKER_BENCH_POINTS ? 0 : -EIO;
}

static void marker_bench_tps_unregister(unsigned int nr)
{
	while (nr--)
		tracepoint_probe_unregister(marker_bench_tps[nr],
					    (void *)marker_bench_tp_count,
					    NULL);
}

static int marker_bench_tps_register(struct marker_bench_cost *on,
				     struct marker_bench_cost *off)
{
	unsigned int i;
	int ret = 0;

	marker_bench_cost_start(on);
	for (i = 0; i < MARKER_BENCH_POINTS && !ret; i++)
		ret = tracepoint_probe_register(marker_bench_tps[i],
						(void *)marker_bench_tp_count,
						NULL);
	marker_bench_cost_stop(on);
	if (ret) {
		marker_bench_tps_unregister(i - 1);
		return ret;
	}
	ret = marker_bench_fire_counted(&marker_bench_tp_calls);
	marker_bench_cost_start(off);
	marker_bench_tps_unregister(MARKER_BENCH_POINTS);
	marker_bench_cost_stop(off);
	tracepoint_synchronize_unregister();
	return ret;
}

/*
 * Enable and disable the 64 markers, format-checked or @typed probes, one
 * by one or in one @batch, their costs in @on and @off.
 */
static int marker_bench_markers_enable(bool typed, bool batch,
				       struct marker_bench_cost *on,
				       struct marker_bench_cost *off)
{
	const struct marker_probe_request *r = typed ? marker_bench_typed_reqs :
						       marker_bench_reqs;
	unsigned int *calls = typed ? &marker_bench_typed_calls :
				      &marker_bench_marker_calls;
	unsigned int i, n = batch ? MARKER_BENCH_POINTS : 1;
	int ret = 0;

	marker_bench_cost_start(on);
	for (i = 0; i < MARKER_BENCH_POINTS && !ret; i += n)
		ret = marker_probe_register_batch(&r[i], n);
	marker_bench_cost_stop(on);
	if (ret) {
		i -= n;
		while (i--)
			marker_probe_unregister_batch(&r[i], 1);
		return ret;
	}
	ret = marker_bench_fire_counted(calls);
	marker_bench_cost_start(off);
	for (i = 0; i < MARKER_BENCH_POINTS; i += n)
		marker_probe_unregister_batch(&r[i], n);
	marker_bench_cost_stop(off);
	marker_synchronize_unregister();
	return ret;
}

/*
 * Rows of enabling and disabling 64 points. Context: process, under the
 * module's mutex; waits for grace periods.
 */
int marker_bench_points(void)
{
	struct marker_bench_cost tp_on, tp_off, one_on, one_off, b_on, b_off;
	struct marker_bench_cost t_on, t_off, tb_on, tb_off;
	int ret;

	marker_bench_points_init();
	ret = marker_bench_tps_register(&tp_on, &tp_off);
	if (!ret)
		ret = marker_bench_markers_enable(false, false, &one_on,
						  &one_off);
	if (!ret)
		ret = marker_bench_markers_enable(false, true, &b_on, &b_off);
	if (!ret)
		ret = marker_bench_markers_enable(true, false, &t_on, &t_off);
	if (!ret)
		ret = marker_bench_markers_enable(true, true, &tb_on, &tb_off);
	if (ret) {
		pr_err("enabling 64 points failed: %d\n", ret);
		return ret;
	}
	marker_bench_cost_rows("enable", "64 points one by one", &tp_on,
			       &one_on, true);
	marker_bench_cost_rows("enable", "64 points, markers in one batch",
			       &tp_on, &b_on, true);
	marker_bench_cost_rows("enable", "64 typed points one by one",
			       &tp_on, &t_on, true);
	marker_bench_cost_rows("enable", "64 typed points, markers in one batch",
			       &tp_on, &tb_on, true);
	marker_bench_cost_rows("disable", "64 points one by one", &tp_off,
			       &one_off, false);
	marker_bench_cost_rows("disable", "64 points, markers in one batch",
			       &tp_off, &b_off, false);
	marker_bench_cost_rows("disable", "64 typed points one by one",
			       &tp_off, &t_off, false);
	marker_bench_cost_rows("disable", "64 typed points, markers in one batch",
			       &tp_off, &tb_off, false);
	return 0;
}

/* ---- Every event of a trace system ---- */

static int marker_bench_name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

struct marker_bench_names {
	const char **names;
	unsigned int nr;
	unsigned int max;
};

static int marker_bench_add_name(const struct marker_site_info *info,
				 void *data)
{
	struct marker_bench_names *n = data;

	if (n->nr < n->max)
		n->names[n->nr++] = info->marker->name;
	return 0;
}

/* The marker names of the kernel and the loaded modules. */
static unsigned int marker_bench_count_names(void)
{
	struct marker_bench_names n = { };
	unsigned int sites = 0, i, names = 0;

	marker_iterate_sites(marker_bench_count_site, &sites);
	n.max = sites;
	n.names = kcalloc(sites, sizeof(*n.names), GFP_KERNEL);
	if (!n.names)
		return 0;
	marker_iterate_sites(marker_bench_add_name, &n);
	sort(n.names, n.nr, sizeof(*n.names), marker_bench_name_cmp, NULL);
	for (i = 0; i < n.nr; i++)
		if (!i || strcmp(n.names[i - 1], n.names[i]))
			names++;
	kfree(n.names);
	return names;
}

/*
 * What writing 1, then 0, to events/<system>/enable costs: the same call
 * tracefs makes, without the VFS.
 */
static int marker_bench_system(const char *system,
			       struct marker_bench_cost *on,
			       struct marker_bench_cost *off)
{
	int ret;

	marker_bench_cost_start(on);
	ret = marker_bench_event_set(system, NULL, 1);
	marker_bench_cost_stop(on);
	marker_bench_cost_start(off);
	marker_bench_event_set(system, NULL, 0);
	marker_bench_cost_stop(off);
	return ret;
}

/*
 * Rows of enabling and disabling every event of a trace system.
 * Context: process, under the module's mutex; waits for grace periods.
 */
int marker_bench_systems(void)
{
	struct marker_bench_cost tp_on, tp_off, mk_on, mk_off, first;
	char measure[160];
	int ret;

	if (!IS_ENABLED(CONFIG_MARKERS_TRACE))
		return 0;
	/*
	 * The first event enabled starts ftrace's comm recording (probes on
	 * sched tracepoints): an event of neither system, left on while
	 * both are measured, so that their rows count their own events.
	 */
	marker_bench_cost_start(&first);
	ret = marker_bench_event_set(MARKER_BENCH_FIRST_SYSTEM,
				     MARKER_BENCH_FIRST_EVENT, 1);
	marker_bench_cost_stop(&first);
	if (ret)
		return ret;
	ret = marker_bench_system(MARKER_BENCH_SYSTEM, &tp_on, &tp_off);
	if (!ret)
		ret = marker_bench_system("markers", &mk_on, &mk_off);
	marker_bench_event_set(MARKER_BENCH_FIRST_SYSTEM,
			       MARKER_BENCH_FIRST_EVENT, 0);
	if (ret)
		return ret;

	snprintf(measure, sizeof(measure),
		 "the first event enabled (%s:%s), ftrace's comm recording with it: call IPIs",
		 MARKER_BENCH_FIRST_SYSTEM, MARKER_BENCH_FIRST_EVENT);
	if (marker_bench_have_ipis())
		marker_bench_row(NULL, measure, (s64)first.ipis * 10,
				 MARKER_BENCH_NA);
	snprintf(measure, sizeof(measure),
		 "all events of a system (%u tracepoints, %u markers), comm recording already on",
		 MARKER_BENCH_POINTS + 1, marker_bench_count_names());
	marker_bench_cost_rows("enable", measure, &tp_on, &mk_on, false);
	marker_bench_cost_rows("disable", measure, &tp_off, &mk_off, false);
	return 0;
}
