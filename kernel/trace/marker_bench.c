// SPDX-License-Identifier: GPL-2.0
/*
 * Markers measured against tracepoints, in one boot: the sites and the
 * per-hit measures.
 *
 * The marker_benchmark module defines markers and, in marker_benchmark.h,
 * tracepoints with the same three int arguments, and measures both side by
 * side when asked, once its init has returned (a module's typed events
 * enabled while its init runs take the face's varargs probes, which the
 * table shows in a row of its own). This file holds the measured sites and their loops,
 * the probes, the cost of a disabled site, of a side-effecting argument at
 * a disabled site, of one and two empty probes and of a probe that reads
 * its arguments, the trace event recorded into the ring buffer, the table
 * and its calibration line, and the module init; marker_bench_ops.c holds
 * the measures of operations: one probe registration, enabling and
 * disabling 64 points, and enabling and disabling every event of the
 * "markers" trace system. It prints a calibration line and a table of
 * both figures and their ratio (marker / tracepoint).
 *
 * Costs are counted with get_cycles(). Under QEMU with -icount shift=0 the
 * cycle counter (the TSC on x86) counts guest instructions, of all CPUs, so
 * the figures are instructions and repeat exactly from boot to boot; the
 * calibration line checks that with a loop of known length. Per-hit costs
 * are net: the same loop without the site is subtracted. Each figure is
 * the least of several runs, so an interrupt on the other CPU does not
 * count. Figures of operations that wait (registration, enabling events)
 * include the instructions other CPUs run meanwhile and, when every CPU
 * idles, the virtual time that passes; their sync rounds are counted as
 * function-call IPIs and their grace periods as well.
 *
 * Writing "table" to the debugfs file marker_benchmark/measure measures
 * and prints the table. marker_benchmark/registration measures
 * registration again on each read, for the marker sites loaded by then,
 * e.g. after loading a module with thousands more. marker_benchmark/measure
 * also measures a site's loop with whatever a user program attached to it
 * meanwhile (BPF programs, harness/bench-bpf.c) and prints rows of the
 * figures (marker_bench_measure_write()).
 *
 * No figure is judged: the table fails only when something does not work,
 * such as a disabled marker evaluating its arguments, a probe not seeing
 * the arguments of its site, or a registration failing.
 *
 * See "Benchmark" in Documentation/trace/markers.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/marker_typed.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timex.h>
#include <linux/timekeeping.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include "marker_benchmark.h"

#define CREATE_MARKERS
#include "marker_bench.h"
#undef CREATE_MARKERS

static unsigned int loops = 10000;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "hits per measured loop (default 10000)");

static unsigned int runs = 5;
module_param(runs, uint, 0444);
MODULE_PARM_DESC(runs, "runs of each measure, the least counts (default 5)");

/* The runs of each measure, the least counts. Context: any. */
unsigned int marker_bench_runs(void)
{
	return runs;
}

/* ---- Sites: each loop is the empty loop plus one site ---- */

static unsigned long marker_bench_side_calls;

/* An argument with a side effect: counts its calls. */
static noinline int marker_bench_side(int v)
{
	WRITE_ONCE(marker_bench_side_calls, marker_bench_side_calls + 1);
	return v;
}

typedef void (*marker_bench_loop_t)(unsigned int n);

static noinline void marker_bench_loop_empty(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		barrier();
}

static noinline void marker_bench_loop_tracepoint(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		trace_marker_bench(i, i + 1, i + 2);
		barrier();
	}
}

static noinline void marker_bench_loop_marker(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		trace_mark(marker_bench, MARKER_BENCH_FORMAT, i, i + 1, i + 2);
		barrier();
	}
}

static noinline void marker_bench_loop_typed(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		mark_marker_bench_typed(i, i + 1, i + 2);
		barrier();
	}
}

static const char *marker_bench_string = MARKER_BENCH_STRING;

static noinline void marker_bench_loop_tracepoint_str(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		trace_marker_bench_str(i, READ_ONCE(marker_bench_string));
		barrier();
	}
}

static noinline void marker_bench_loop_marker_str(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		trace_mark(marker_bench_str, MARKER_BENCH_STR_FORMAT, i,
			   READ_ONCE(marker_bench_string));
		barrier();
	}
}

static noinline void marker_bench_loop_typed_str(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		mark_marker_bench_str_typed(i, READ_ONCE(marker_bench_string));
		barrier();
	}
}

static noinline void marker_bench_loop_tracepoint_side(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		trace_marker_bench(marker_bench_side(i), i + 1, i + 2);
		barrier();
	}
}

static noinline void marker_bench_loop_marker_side(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		trace_mark(marker_bench, MARKER_BENCH_FORMAT,
			   marker_bench_side(i), i + 1, i + 2);
		barrier();
	}
}

/*
 * One site each and nothing else, never called: make bench compares their
 * code (inline bytes up to the return, out-of-line bytes after it).
 */
static __used noinline void marker_bench_site_none(int a, int b, int c)
{
}

static __used noinline void marker_bench_site_tracepoint(int a, int b, int c)
{
	trace_marker_bench(a, b, c);
}

static __used noinline void marker_bench_site_marker(int a, int b, int c)
{
	trace_mark(marker_bench, MARKER_BENCH_FORMAT, a, b, c);
}

static __used noinline void marker_bench_site_typed(int a, int b, int c)
{
	mark_marker_bench_typed(a, b, c);
}

/* ---- Probes ---- */

static int marker_bench_sum;

/* The empty probe of the tracepoints. Context: any, as a probe. */
void marker_bench_tp_empty(void *data, int a, int b, int c)
{
}

static void marker_bench_tp_read(void *data, int a, int b, int c)
{
	WRITE_ONCE(marker_bench_sum, a + b + c);
}

/* The empty probe with a format. Context: any, as a probe. */
void marker_bench_probe_empty(const struct marker *marker,
			      void *probe_private, va_list *args)
{
}

static void marker_bench_probe_read(const struct marker *marker,
				    void *probe_private, va_list *args)
{
	int a = va_arg(*args, int);
	int b = va_arg(*args, int);
	int c = va_arg(*args, int);

	WRITE_ONCE(marker_bench_sum, a + b + c);
}

/*
 * Typed probes of marker_bench_typed: the marker's own prototype.
 * Context: any, as a probe.
 */
void marker_bench_typed_empty(void *data, int a, int b, int c)
{
}

static void marker_bench_typed_read(void *data, int a, int b, int c)
{
	WRITE_ONCE(marker_bench_sum, a + b + c);
}

/* Private data telling apart several probes of the same function. */
int marker_bench_private[3];

/* Cycles of one call of @loop, the least of @runs runs, interrupts off. */
static u64 marker_bench_loop_cycles(marker_bench_loop_t loop)
{
	u64 best = U64_MAX, t;
	unsigned long flags;
	unsigned int run;

	for (run = 0; run < runs; run++) {
		local_irq_save(flags);
		t = get_cycles();
		loop(loops);
		t = get_cycles() - t;
		local_irq_restore(flags);
		best = min(best, t);
	}
	return best;
}

/* Net cost of one hit of @loop's site, in tenths. */
static s64 marker_bench_per_hit(marker_bench_loop_t loop)
{
	s64 site = marker_bench_loop_cycles(loop);
	s64 empty = marker_bench_loop_cycles(marker_bench_loop_empty);

	return div_s64((site - empty) * 10, loops);
}

/* ---- The table ---- */

/* @v in tenths, as "2", "2.5", "87", "10.6k", "149k" or "1.25M". */
static void marker_bench_figure(char *buf, size_t size, s64 v)
{
	const char *sign = v < 0 ? "-" : "";
	u64 a;

	if (v == MARKER_BENCH_NA) {
		snprintf(buf, size, "n/a");
		return;
	}
	a = v < 0 ? -v : v;
	if (a < 1000 && a % 10)
		snprintf(buf, size, "%s%llu.%llu", sign, a / 10, a % 10);
	else if (a < 100000)
		snprintf(buf, size, "%s%llu", sign, (a + 5) / 10);
	else if (a < 1000000)
		snprintf(buf, size, "%s%llu.%lluk", sign, (a + 500) / 10000,
			 (a + 500) / 1000 % 10);
	else if (a < 10000000)
		snprintf(buf, size, "%s%lluk", sign, (a + 5000) / 10000);
	else
		snprintf(buf, size, "%s%llu.%02lluM", sign,
			 (a + 50000) / 10000000, (a + 50000) / 100000 % 100);
}

/*
 * One row: @tracepoint and @marker in tenths (MARKER_BENCH_NA for none),
 * and their ratio. Printed to @m if given, else to the kernel log.
 * Context: process.
 */
void marker_bench_row(struct seq_file *m, const char *measure,
		      s64 tracepoint, s64 marker)
{
	char tp[24], mk[24], ratio[24] = "-";
	s64 r;

	marker_bench_figure(tp, sizeof(tp), tracepoint);
	marker_bench_figure(mk, sizeof(mk), marker);
	if (tracepoint > 0 && marker != MARKER_BENCH_NA && marker >= 0) {
		r = div64_s64(marker * 100 + tracepoint / 2, tracepoint);
		snprintf(ratio, sizeof(ratio), "%lld.%02lld", r / 100, r % 100);
	}
	if (m)
		seq_printf(m, "| %s | %s | %s | %s |\n", measure, tp, mk, ratio);
	else
		pr_info("| %s | %s | %s | %s |\n", measure, tp, mk, ratio);
}

/* One row of counts, not tenths. Context: process. */
void marker_bench_count_row(struct seq_file *m, const char *measure,
			    u64 tracepoint, u64 marker)
{
	marker_bench_row(m, measure, (s64)tracepoint * 10, (s64)marker * 10);
}

/* ---- Calibration ---- */

#ifdef CONFIG_X86
/* 2 * @n instructions, and the return. */
static noinline void marker_bench_known_loop(unsigned long n)
{
	asm volatile("1:\n\t"
		     "dec %0\n\t"
		     "jnz 1b"
		     : "+r" (n) : : "cc");
}

/*
 * Time two loops of known length with the cycle counter and the clock, each
 * interval holding one read of the other: the difference is 2,000,000
 * instructions, so under -icount shift=0 both count 1.000 instruction per
 * cycle and per ns.
 */
static void marker_bench_calibrate(void)
{
	const unsigned long extra = 1000000, insns = 2 * extra;
	u64 c0, c1, c2, n0, n1, n2, cycles, ns;
	unsigned long flags;

	local_irq_save(flags);
	c0 = get_cycles();
	n0 = ktime_get_ns();
	marker_bench_known_loop(1000);
	c1 = get_cycles();
	n1 = ktime_get_ns();
	marker_bench_known_loop(1000 + extra);
	c2 = get_cycles();
	n2 = ktime_get_ns();
	local_irq_restore(flags);

	cycles = max((c2 - c1) - (c1 - c0), 1ULL);
	ns = max((n2 - n1) - (n1 - n0), 1ULL);
	pr_info("calibration: a loop of %lu instructions took %llu cycles and %llu ns: %llu.%03llu instructions per cycle, %llu.%03llu per ns\n",
		insns, cycles, ns,
		div64_u64(insns * 1000 + cycles / 2, cycles) / 1000,
		div64_u64(insns * 1000 + cycles / 2, cycles) % 1000,
		div64_u64(insns * 1000 + ns / 2, ns) / 1000,
		div64_u64(insns * 1000 + ns / 2, ns) % 1000);
}
#else
static void marker_bench_calibrate(void)
{
	pr_info("calibration: no loop of known length on this architecture\n");
}
#endif

/* ---- Sites: disabled and enabled ---- */

static int marker_bench_disabled(void)
{
	s64 tp, mk;
	unsigned long tp_calls, mk_calls;

	marker_bench_row(NULL, "disabled site",
			 marker_bench_per_hit(marker_bench_loop_tracepoint),
			 marker_bench_per_hit(marker_bench_loop_marker));

	tp = marker_bench_per_hit(marker_bench_loop_tracepoint_side);
	mk = marker_bench_per_hit(marker_bench_loop_marker_side);
	marker_bench_row(NULL, "disabled, argument with a side-effecting call",
			 tp, mk);

	marker_bench_side_calls = 0;
	marker_bench_loop_tracepoint_side(loops);
	tp_calls = marker_bench_side_calls;
	marker_bench_side_calls = 0;
	marker_bench_loop_marker_side(loops);
	mk_calls = marker_bench_side_calls;
	marker_bench_row(NULL,
			 "disabled, side-effecting call: calls per hit",
			 div_s64((s64)tp_calls * 10, loops),
			 div_s64((s64)mk_calls * 10, loops));
	if (mk_calls) {
		pr_err("a disabled marker evaluated its arguments (%lu calls in %u hits)\n",
		       mk_calls, loops);
		return -EINVAL;
	}
	return 0;
}

/*
 * Register the same probe on both markers: @probe on marker_bench, its
 * typed twin @typed on marker_bench_typed. Context: process.
 */
int marker_bench_markers_register(marker_probe_func probe,
				  marker_bench_typed_t typed, void *priv)
{
	int ret;

	ret = marker_probe_register("marker_bench", MARKER_BENCH_FORMAT, probe,
				    priv);
	if (ret)
		return ret;
	ret = register_mark_marker_bench_typed(typed, priv);
	if (ret)
		marker_probe_unregister("marker_bench", probe, priv);
	return ret;
}

/* Undo marker_bench_markers_register(). Context: process. */
void marker_bench_markers_unregister(marker_probe_func probe,
				     marker_bench_typed_t typed, void *priv)
{
	marker_probe_unregister("marker_bench", probe, priv);
	unregister_mark_marker_bench_typed(typed, priv);
}

/* Rows for trace_mark() and mark_<name>() with the probes attached now. */
static void marker_bench_enabled_rows(const char *what)
{
	s64 tp = marker_bench_per_hit(marker_bench_loop_tracepoint);
	char measure[80];

	snprintf(measure, sizeof(measure), "enabled, %s: trace_mark()", what);
	marker_bench_row(NULL, measure, tp,
			 marker_bench_per_hit(marker_bench_loop_marker));
	snprintf(measure, sizeof(measure), "enabled, %s: mark_<name>()", what);
	marker_bench_row(NULL, measure, tp,
			 marker_bench_per_hit(marker_bench_loop_typed));
}

static int marker_bench_enabled(void)
{
	void *p0 = &marker_bench_private[0], *p1 = &marker_bench_private[1];
	int ret;

	ret = register_trace_marker_bench(marker_bench_tp_empty, p0);
	if (ret)
		return ret;
	ret = marker_bench_markers_register(marker_bench_probe_empty,
					    marker_bench_typed_empty, p0);
	if (ret)
		goto out_tp0;
	marker_bench_enabled_rows("1 empty probe");

	ret = register_trace_marker_bench(marker_bench_tp_empty, p1);
	if (ret)
		goto out_marker0;
	ret = marker_bench_markers_register(marker_bench_probe_empty,
					    marker_bench_typed_empty, p1);
	if (ret)
		goto out_tp1;
	marker_bench_enabled_rows("2 empty probes");

	marker_bench_markers_unregister(marker_bench_probe_empty,
					marker_bench_typed_empty, p1);
out_tp1:
	unregister_trace_marker_bench(marker_bench_tp_empty, p1);
out_marker0:
	marker_bench_markers_unregister(marker_bench_probe_empty,
					marker_bench_typed_empty, p0);
out_tp0:
	unregister_trace_marker_bench(marker_bench_tp_empty, p0);
	tracepoint_synchronize_unregister();
	marker_synchronize_unregister();
	if (ret)
		return ret;

	ret = register_trace_marker_bench(marker_bench_tp_read, NULL);
	if (ret)
		return ret;
	ret = marker_bench_markers_register(marker_bench_probe_read,
					    marker_bench_typed_read, NULL);
	if (ret)
		goto out_read;
	marker_bench_enabled_rows("1 probe reading its 3 arguments");

	/* The last hit of each loop was (loops - 1, loops, loops + 1). */
	marker_bench_sum = 0;
	marker_bench_loop_tracepoint(loops);
	if (marker_bench_sum != 3 * loops)
		ret = -EIO;
	marker_bench_sum = 0;
	marker_bench_loop_marker(loops);
	if (marker_bench_sum != 3 * loops)
		ret = -EIO;
	marker_bench_sum = 0;
	marker_bench_loop_typed(loops);
	if (marker_bench_sum != 3 * loops)
		ret = -EIO;
	if (ret)
		pr_err("a probe did not see the arguments of its site\n");

	marker_bench_markers_unregister(marker_bench_probe_read,
					marker_bench_typed_read, NULL);
out_read:
	unregister_trace_marker_bench(marker_bench_tp_read, NULL);
	tracepoint_synchronize_unregister();
	marker_synchronize_unregister();
	return ret;
}

/*
 * Probes with a format on the typed site, what the faces' perf path
 * attaches to every kernel marker: alone (the static call calls their
 * iterator), two of them, and beside a typed probe (the iterator of every
 * probe), against a tracepoint with as many probes. Their trace_mark()
 * twins are the rows "enabled, 1 empty probe: trace_mark()" and
 * "enabled, 2 empty probes: trace_mark()". Context: process.
 */
static int marker_bench_checked(void)
{
	void *p0 = &marker_bench_private[0], *p1 = &marker_bench_private[1];
	s64 tp;
	int ret;

	ret = register_trace_marker_bench(marker_bench_tp_empty, p0);
	if (ret)
		return ret;
	ret = marker_probe_register("marker_bench_typed", MARKER_BENCH_FORMAT,
				    marker_bench_probe_empty, p0);
	if (ret)
		goto out_tp0;
	tp = marker_bench_per_hit(marker_bench_loop_tracepoint);
	marker_bench_row(NULL,
			 "enabled, 1 empty probe with a format: mark_<name>()",
			 tp, marker_bench_per_hit(marker_bench_loop_typed));

	ret = register_trace_marker_bench(marker_bench_tp_empty, p1);
	if (ret)
		goto out_checked0;
	ret = marker_probe_register("marker_bench_typed", MARKER_BENCH_FORMAT,
				    marker_bench_probe_empty, p1);
	if (ret)
		goto out_tp1;
	tp = marker_bench_per_hit(marker_bench_loop_tracepoint);
	marker_bench_row(NULL,
			 "enabled, 2 empty probes with a format: mark_<name>()",
			 tp, marker_bench_per_hit(marker_bench_loop_typed));
	marker_probe_unregister("marker_bench_typed", marker_bench_probe_empty,
				p1);

	ret = register_mark_marker_bench_typed(marker_bench_typed_empty, p1);
	if (ret)
		goto out_tp1;
	marker_bench_row(NULL,
			 "enabled, 1 typed and 1 empty probe with a format: mark_<name>()",
			 tp, marker_bench_per_hit(marker_bench_loop_typed));
	unregister_mark_marker_bench_typed(marker_bench_typed_empty, p1);
out_tp1:
	unregister_trace_marker_bench(marker_bench_tp_empty, p1);
out_checked0:
	marker_probe_unregister("marker_bench_typed", marker_bench_probe_empty,
				p0);
out_tp0:
	unregister_trace_marker_bench(marker_bench_tp_empty, p0);
	tracepoint_synchronize_unregister();
	marker_synchronize_unregister();
	return ret;
}

/* ---- Trace events ---- */

/*
 * Enable (@set 1) or disable the event @event of @system, or all its
 * events if @event is NULL, as tracefs does. Context: process.
 */
int marker_bench_event_set(const char *system, const char *event, int set)
{
	int ret = trace_set_clr_event(system, event, set);

	if (ret)
		pr_err("cannot %s the events %s:%s: %d\n",
		       set ? "enable" : "disable", system, event ?: "*", ret);
	return ret;
}

/* One event's cost per hit of @loop, enabled as tracefs does. */
static s64 marker_bench_event_per_hit(const char *system, const char *event,
				      marker_bench_loop_t loop)
{
	s64 v;

	if (marker_bench_event_set(system, event, 1))
		return MARKER_BENCH_NA;
	v = marker_bench_per_hit(loop);
	marker_bench_event_set(system, event, 0);
	return v;
}

/*
 * As marker_bench_events(), with a string field: __string() and
 * __assign_str() against %s, a 15-character string.
 */
static int marker_bench_events_str(void)
{
	s64 tp, mk, typed;

	tp = marker_bench_event_per_hit(MARKER_BENCH_SYSTEM, "marker_bench_str",
					marker_bench_loop_tracepoint_str);
	mk = marker_bench_event_per_hit("markers", "marker_bench_str",
					marker_bench_loop_marker_str);
	typed = marker_bench_event_per_hit("markers", "marker_bench_str_typed",
					   marker_bench_loop_typed_str);
	marker_bench_row(NULL,
			 "tracefs event into the ring buffer, int and 16-byte string: trace_mark()",
			 tp, mk);
	marker_bench_row(NULL,
			 "tracefs event into the ring buffer, int and 16-byte string: mark_<name>()",
			 tp, typed);
	if (tp == MARKER_BENCH_NA || mk == MARKER_BENCH_NA ||
	    typed == MARKER_BENCH_NA)
		return -EINVAL;
	return 0;
}

/*
 * The typed event's cost per hit, enabled while the module's init ran
 * (marker_bench_init()): it records through the face's varargs probe.
 */
static s64 marker_bench_typed_in_init = MARKER_BENCH_NA;

/* A hit recorded into the ring buffer, the events enabled as tracefs does. */
static int marker_bench_events(void)
{
	s64 tp, mk, typed;
	int ret;

	if (!IS_ENABLED(CONFIG_MARKERS_TRACE)) {
		marker_bench_row(NULL, "tracefs event into the ring buffer",
				 MARKER_BENCH_NA, MARKER_BENCH_NA);
		return 0;
	}
	if (!tracing_is_on())
		pr_info("tracing is off: events are not recorded\n");

	ret = marker_bench_event_set(MARKER_BENCH_SYSTEM, "marker_bench", 1);
	if (ret)
		return ret;
	tp = marker_bench_per_hit(marker_bench_loop_tracepoint);
	marker_bench_event_set(MARKER_BENCH_SYSTEM, "marker_bench", 0);

	ret = marker_bench_event_set("markers", "marker_bench", 1);
	if (ret)
		return ret;
	mk = marker_bench_per_hit(marker_bench_loop_marker);
	marker_bench_event_set("markers", "marker_bench", 0);

	ret = marker_bench_event_set("markers", "marker_bench_typed", 1);
	if (ret)
		return ret;
	typed = marker_bench_per_hit(marker_bench_loop_typed);
	marker_bench_event_set("markers", "marker_bench_typed", 0);

	marker_bench_row(NULL,
			 "tracefs event into the ring buffer, 20-byte record: trace_mark()",
			 tp, mk);
	marker_bench_row(NULL,
			 "tracefs event into the ring buffer, 20-byte record: mark_<name>()",
			 tp, typed);
	marker_bench_row(NULL,
			 "tracefs event into the ring buffer, 20-byte record: mark_<name>(), enabled while its module's init runs",
			 tp, marker_bench_typed_in_init);
	return marker_bench_events_str();
}

/* ---- debugfs and the module ---- */

static DEFINE_MUTEX(marker_bench_mutex);
static struct dentry *marker_bench_dir;

static int marker_bench_registration_show(struct seq_file *m, void *v)
{
	int ret;

	mutex_lock(&marker_bench_mutex);
	ret = marker_bench_registration(m);
	mutex_unlock(&marker_bench_mutex);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(marker_bench_registration);

/*
 * Measure and print the table: the calibration line, then every row.
 * Caller holds marker_bench_mutex. Context: process.
 */
static int marker_bench_table(void)
{
	int ret;

	marker_bench_calibrate();
	pr_info("instructions (cycles) per hit net of the empty loop, %u hits, least of %u runs:\n",
		loops, runs);
	pr_info("| measure | tracepoint | marker | marker/tracepoint |\n");
	pr_info("|---|---|---|---|\n");
	ret = marker_bench_disabled();
	if (!ret)
		ret = marker_bench_enabled();
	if (!ret)
		ret = marker_bench_checked();
	if (!ret)
		ret = marker_bench_events();
	if (!ret)
		ret = marker_bench_registration(NULL);
	marker_bench_gp_count_start();
	if (!ret)
		ret = marker_bench_points();
	if (!ret)
		ret = marker_bench_systems();
	marker_bench_gp_count_stop();
	if (ret) {
		pr_err("benchmark failed: %d\n", ret);
		return ret;
	}
	pr_info("done\n");
	return 0;
}

/* ---- Measures on request, for what user space attaches ---- */

#define MARKER_BENCH_SLOTS	4

static s64 marker_bench_slot[MARKER_BENCH_SLOTS];

static const struct {
	const char *name;
	marker_bench_loop_t loop;
} marker_bench_loops[] = {
	{ "tracepoint", marker_bench_loop_tracepoint },
	{ "marker", marker_bench_loop_marker },
	{ "typed", marker_bench_loop_typed },
};

/*
 * Attach (@set) or detach an empty probe on the site of the loop @name:
 * the tracepoint's, or one with a format on marker_bench or
 * marker_bench_typed. Context: process.
 */
static int marker_bench_probe_set(const char *name, unsigned int set)
{
	const char *marker = !strcmp(name, "marker") ? "marker_bench" :
			     !strcmp(name, "typed") ? "marker_bench_typed" : NULL;

	if (!strcmp(name, "tracepoint")) {
		if (set)
			return register_trace_marker_bench(marker_bench_tp_empty,
							   NULL);
		unregister_trace_marker_bench(marker_bench_tp_empty, NULL);
		tracepoint_synchronize_unregister();
		return 0;
	}
	if (!marker)
		return -EINVAL;
	if (set)
		return marker_probe_register(marker, MARKER_BENCH_FORMAT,
					     marker_bench_probe_empty, NULL);
	marker_probe_unregister(marker, marker_bench_probe_empty, NULL);
	marker_synchronize_unregister();
	return 0;
}

/*
 * Write "measure SLOT LOOP": the cost per hit of LOOP's site (tracepoint,
 * marker or typed: trace_marker_bench(), trace_mark() or
 * mark_marker_bench_typed()), net of the empty loop as every per-hit
 * figure, into SLOT; "row TP MK MEASURE": the table's row MEASURE of the
 * figures in slots TP and MK, to the kernel log as the module's rows;
 * "table": the whole table, to the kernel log (marker_bench_table());
 * "probe LOOP 1" (or 0): attach (detach) an empty probe to LOOP's site,
 * the tracepoint's or one with a format (what the events of trace_mark()
 * markers attach), to measure by hand what a path is made of (make bench
 * does not use it). Each measure hits the site runs * loops times.
 * Context: process.
 */
static ssize_t marker_bench_measure_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	unsigned int slot, tp, mk, set, i;
	char buf[160], name[16];
	ssize_t ret = count;
	int n = 0;

	if (count >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);

	mutex_lock(&marker_bench_mutex);
	if (!strcmp(buf, "table")) {
		n = marker_bench_table();
		if (n)
			ret = n;
	} else if (sscanf(buf, "measure %u %15s", &slot, name) == 2 &&
	    slot < MARKER_BENCH_SLOTS) {
		for (i = 0; i < ARRAY_SIZE(marker_bench_loops); i++)
			if (!strcmp(name, marker_bench_loops[i].name))
				break;
		if (i < ARRAY_SIZE(marker_bench_loops))
			marker_bench_slot[slot] =
				marker_bench_per_hit(marker_bench_loops[i].loop);
		else
			ret = -EINVAL;
	} else if (sscanf(buf, "probe %15s %u", name, &set) == 2) {
		n = marker_bench_probe_set(name, set);
		if (n)
			ret = n;
	} else if (sscanf(buf, "row %u %u %n", &tp, &mk, &n) == 2 && n &&
		   tp < MARKER_BENCH_SLOTS && mk < MARKER_BENCH_SLOTS) {
		marker_bench_row(NULL, buf + n, marker_bench_slot[tp],
				 marker_bench_slot[mk]);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&marker_bench_mutex);
	return ret;
}

static const struct file_operations marker_bench_measure_fops = {
	.owner = THIS_MODULE,
	.write = marker_bench_measure_write,
};

static int __init marker_bench_init(void)
{
	if (!loops || !runs)
		return -EINVAL;
	/*
	 * The one measure taken while this module's init runs: the table is
	 * measured on request, once the module is live.
	 */
	if (IS_ENABLED(CONFIG_MARKERS_TRACE)) {
		mutex_lock(&marker_bench_mutex);
		marker_bench_typed_in_init =
			marker_bench_event_per_hit("markers", "marker_bench_typed",
						   marker_bench_loop_typed);
		mutex_unlock(&marker_bench_mutex);
	}

	marker_bench_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("registration", 0444, marker_bench_dir, NULL,
			    &marker_bench_registration_fops);
	debugfs_create_file("measure", 0200, marker_bench_dir, NULL,
			    &marker_bench_measure_fops);
	return 0;
}

static void __exit marker_bench_exit(void)
{
	debugfs_remove_recursive(marker_bench_dir);
}

module_init(marker_bench_init);
module_exit(marker_bench_exit);

MODULE_DESCRIPTION("Static markers measured against tracepoints");
MODULE_LICENSE("GPL");
