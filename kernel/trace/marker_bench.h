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
#define MARKER_BENCH_TYPED8(g)						\
	MARKER_BENCH_TYPED(g##0) MARKER_BENCH_TYPED(g##1)		\
	MARKER_BENCH_TYPED(g##2) MARKER_BENCH_TYPED(g##3)		\
	MARKER_BENCH_TYPED(g##4) MARKER_BENCH_TYPED(g##5)		\
	MARKER_BENCH_TYPED(g##6) MARKER_BENCH_TYPED(g##7)

MARKER_BENCH_TYPED8(0)
MARKER_BENCH_TYPED8(1)
MARKER_BENCH_TYPED8(2)
MARKER_BENCH_TYPED8(3)
MARKER_BENCH_TYPED8(4)
MARKER_BENCH_TYPED8(5)
MARKER_BENCH_TYPED8(6)
MARKER_BENCH_TYPED8(7)

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
