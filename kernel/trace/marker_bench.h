/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two files of the marker_benchmark module share: the markers
 * measured (defined in marker_bench.c, which defines CREATE_MARKERS before
 * including this header), the probes and the table's rows of
 * marker_bench.c, and the measures of marker_bench_ops.c that its module
 * init runs. The tracepoints are in the trace header marker_benchmark.h.
 */
#ifndef _KERNEL_TRACE_MARKER_BENCH_H
#define _KERNEL_TRACE_MARKER_BENCH_H

#include <linux/marker.h>
#include <linux/marker_typed.h>
#include <linux/seq_file.h>
#include <linux/types.h>

#define MARKER_BENCH_FORMAT	"a %d b %d c %d"
#define MARKER_BENCH_STR_FORMAT	"a %d s %s"
/* The string of the string rows: 16 bytes with its NUL, as a comm. */
#define MARKER_BENCH_STRING	"marker_bench_s0"
#define MARKER_BENCH_POINTS	64
#define MARKER_BENCH_SYSTEM	"marker_benchmark"
/* An event of neither measured system, that seldom fires. */
#define MARKER_BENCH_FIRST_SYSTEM	"sched"
#define MARKER_BENCH_FIRST_EVENT	"sched_kthread_stop"

/* The typed face: mark_marker_bench_typed(a, b, c). */
DECLARE_MARKER(marker_bench_typed, MARKER_PROTO(int a, int b, int c),
	       MARKER_ARGS(a, b, c),
	       MARKER_BENCH_FORMAT,
	       MARKER_VALUES(a, b, c))
/* With a string field, beside the tracepoint marker_bench_str. */
DECLARE_MARKER(marker_bench_str_typed, MARKER_PROTO(int a, const char *s),
	       MARKER_ARGS(a, s),
	       MARKER_BENCH_STR_FORMAT,
	       MARKER_VALUES(a, s))

/*
 * 64 typed markers, marker_bench_typed00 to marker_bench_typed77 (the
 * index in octal, as the 64 points of marker_bench_ops.c): enabling many
 * typed markers, whose static calls are switched too.
 */
#define MARKER_BENCH_TYPED(n)						\
	DECLARE_MARKER(marker_bench_typed##n,				\
		       MARKER_PROTO(int a, int b, int c),		\
		       MARKER_ARGS(a, b, c), MARKER_BENCH_FORMAT,	\
		       MARKER_VALUES(a, b, c))

MARKER_BENCH_TYPED(00)
MARKER_BENCH_TYPED(01)
MARKER_BENCH_TYPED(02)
MARKER_BENCH_TYPED(03)
MARKER_BENCH_TYPED(04)
MARKER_BENCH_TYPED(05)
MARKER_BENCH_TYPED(06)
MARKER_BENCH_TYPED(07)
MARKER_BENCH_TYPED(10)
MARKER_BENCH_TYPED(11)
MARKER_BENCH_TYPED(12)
MARKER_BENCH_TYPED(13)
MARKER_BENCH_TYPED(14)
MARKER_BENCH_TYPED(15)
MARKER_BENCH_TYPED(16)
MARKER_BENCH_TYPED(17)
MARKER_BENCH_TYPED(20)
MARKER_BENCH_TYPED(21)
MARKER_BENCH_TYPED(22)
MARKER_BENCH_TYPED(23)
MARKER_BENCH_TYPED(24)
MARKER_BENCH_TYPED(25)
MARKER_BENCH_TYPED(26)
MARKER_BENCH_TYPED(27)
MARKER_BENCH_TYPED(30)
MARKER_BENCH_TYPED(31)
MARKER_BENCH_TYPED(32)
MARKER_BENCH_TYPED(33)
MARKER_BENCH_TYPED(34)
MARKER_BENCH_TYPED(35)
MARKER_BENCH_TYPED(36)
MARKER_BENCH_TYPED(37)
MARKER_BENCH_TYPED(40)
MARKER_BENCH_TYPED(41)
MARKER_BENCH_TYPED(42)
MARKER_BENCH_TYPED(43)
MARKER_BENCH_TYPED(44)
MARKER_BENCH_TYPED(45)
MARKER_BENCH_TYPED(46)
MARKER_BENCH_TYPED(47)
MARKER_BENCH_TYPED(50)
MARKER_BENCH_TYPED(51)
MARKER_BENCH_TYPED(52)
MARKER_BENCH_TYPED(53)
MARKER_BENCH_TYPED(54)
MARKER_BENCH_TYPED(55)
MARKER_BENCH_TYPED(56)
MARKER_BENCH_TYPED(57)
MARKER_BENCH_TYPED(60)
MARKER_BENCH_TYPED(61)
MARKER_BENCH_TYPED(62)
MARKER_BENCH_TYPED(63)
MARKER_BENCH_TYPED(64)
MARKER_BENCH_TYPED(65)
MARKER_BENCH_TYPED(66)
MARKER_BENCH_TYPED(67)
MARKER_BENCH_TYPED(70)
MARKER_BENCH_TYPED(71)
MARKER_BENCH_TYPED(72)
MARKER_BENCH_TYPED(73)
MARKER_BENCH_TYPED(74)
MARKER_BENCH_TYPED(75)
MARKER_BENCH_TYPED(76)
MARKER_BENCH_TYPED(77)

/* A figure that could not be measured here. */
#define MARKER_BENCH_NA		S64_MIN

/* A typed probe of marker_bench_typed: the marker's own prototype. */
typedef void (*marker_bench_typed_t)(void *data, int a, int b, int c);

/* Private data telling apart several probes of the same function. */
extern int marker_bench_private[3];

/* marker_bench.c */
unsigned int marker_bench_runs(void);
void marker_bench_tp_empty(void *data, int a, int b, int c);
void marker_bench_probe_empty(const struct marker *marker,
			      void *probe_private, va_list *args);
void marker_bench_typed_empty(void *data, int a, int b, int c);
void marker_bench_row(struct seq_file *m, const char *measure,
		      s64 tracepoint, s64 marker);
void marker_bench_count_row(struct seq_file *m, const char *measure,
			    u64 tracepoint, u64 marker);
int marker_bench_markers_register(marker_probe_func probe,
				  marker_bench_typed_t typed, void *priv);
void marker_bench_markers_unregister(marker_probe_func probe,
				     marker_bench_typed_t typed, void *priv);
int marker_bench_event_set(const char *system, const char *event, int set);

/* marker_bench_ops.c */
void marker_bench_gp_count_start(void);
void marker_bench_gp_count_stop(void);
int marker_bench_registration(struct seq_file *m);
int marker_bench_points(void);
int marker_bench_systems(void);

#endif /* _KERNEL_TRACE_MARKER_BENCH_H */
