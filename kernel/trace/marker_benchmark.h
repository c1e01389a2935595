/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints the marker_benchmark module (marker_bench.c and
 * marker_bench_ops.c) measures markers against:
 * the same three int arguments as its markers, recorded as the same 20-byte
 * entry (the 8-byte common header and three ints) as the markers:<name>
 * events of its markers.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM marker_benchmark

#if !defined(_TRACE_MARKER_BENCHMARK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MARKER_BENCHMARK_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(marker_bench_class,
		    TP_PROTO(int a, int b, int c),
		    TP_ARGS(a, b, c),
		    TP_STRUCT__entry(__field(int, a)
				     __field(int, b)
				     __field(int, c)),
		    TP_fast_assign(__entry->a = a;
				   __entry->b = b;
				   __entry->c = c;),
		    TP_printk("a=%d b=%d c=%d", __entry->a, __entry->b, __entry->c)
);

/* The tracepoint beside the markers marker_bench_str and _str_typed. */
TRACE_EVENT(marker_bench_str,
	    TP_PROTO(int a, const char *s),
	    TP_ARGS(a, s),
	    TP_STRUCT__entry(__field(int, a)
			     __string(s, s)),
	    TP_fast_assign(__entry->a = a;
			   __assign_str(s);),
	    TP_printk("a=%d s=%s", __entry->a, __get_str(s))
);

/* The tracepoint beside the markers marker_bench and marker_bench_typed. */
DEFINE_EVENT(marker_bench_class, marker_bench,
	     TP_PROTO(int a, int b, int c),
	     TP_ARGS(a, b, c));

/*
 * 64 more, marker_bench_batch00 to marker_bench_batch77 (the index in
 * octal), beside the markers of the same names: enabling many points.
 */
#define MARKER_BENCH_EVENT(n)					\
	DEFINE_EVENT(marker_bench_class, marker_bench_batch##n,		\
		     TP_PROTO(int a, int b, int c), TP_ARGS(a, b, c))

MARKER_BENCH_EVENT(00); MARKER_BENCH_EVENT(01); MARKER_BENCH_EVENT(02); MARKER_BENCH_EVENT(03);
MARKER_BENCH_EVENT(04); MARKER_BENCH_EVENT(05); MARKER_BENCH_EVENT(06); MARKER_BENCH_EVENT(07);
MARKER_BENCH_EVENT(10); MARKER_BENCH_EVENT(11); MARKER_BENCH_EVENT(12); MARKER_BENCH_EVENT(13);
MARKER_BENCH_EVENT(14); MARKER_BENCH_EVENT(15); MARKER_BENCH_EVENT(16); MARKER_BENCH_EVENT(17);
MARKER_BENCH_EVENT(20); MARKER_BENCH_EVENT(21); MARKER_BENCH_EVENT(22); MARKER_BENCH_EVENT(23);
MARKER_BENCH_EVENT(24); MARKER_BENCH_EVENT(25); MARKER_BENCH_EVENT(26); MARKER_BENCH_EVENT(27);
MARKER_BENCH_EVENT(30); MARKER_BENCH_EVENT(31); MARKER_BENCH_EVENT(32); MARKER_BENCH_EVENT(33);
MARKER_BENCH_EVENT(34); MARKER_BENCH_EVENT(35); MARKER_BENCH_EVENT(36); MARKER_BENCH_EVENT(37);
MARKER_BENCH_EVENT(40); MARKER_BENCH_EVENT(41); MARKER_BENCH_EVENT(42); MARKER_BENCH_EVENT(43);
MARKER_BENCH_EVENT(44); MARKER_BENCH_EVENT(45); MARKER_BENCH_EVENT(46); MARKER_BENCH_EVENT(47);
MARKER_BENCH_EVENT(50); MARKER_BENCH_EVENT(51); MARKER_BENCH_EVENT(52); MARKER_BENCH_EVENT(53);
MARKER_BENCH_EVENT(54); MARKER_BENCH_EVENT(55); MARKER_BENCH_EVENT(56); MARKER_BENCH_EVENT(57);
MARKER_BENCH_EVENT(60); MARKER_BENCH_EVENT(61); MARKER_BENCH_EVENT(62); MARKER_BENCH_EVENT(63);
MARKER_BENCH_EVENT(64); MARKER_BENCH_EVENT(65); MARKER_BENCH_EVENT(66); MARKER_BENCH_EVENT(67);
MARKER_BENCH_EVENT(70); MARKER_BENCH_EVENT(71); MARKER_BENCH_EVENT(72); MARKER_BENCH_EVENT(73);
MARKER_BENCH_EVENT(74); MARKER_BENCH_EVENT(75); MARKER_BENCH_EVENT(76); MARKER_BENCH_EVENT(77);

#endif /* _TRACE_MARKER_BENCHMARK_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE marker_benchmark

/* This part must be outside protection */
#include <trace/define_trace.h>
