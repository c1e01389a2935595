/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_RECORD_H
#define _LINUX_MARKER_RECORD_H
/*
 * Included by include/linux/marker_typed.h, in the middle of its
 * DECLARE_MARKER() plumbing, with CONFIG_MARKERS_TRACE: not to be
 * included on its own. What a declaration generates from its argument
 * and value lists for the faces: its raw BPF shim and its ring-buffer
 * recorder.
 */

#include <linux/args.h>

#define __MARKER_MAP0(m, i, ...)
#define __MARKER_MAP1(m, i, v) m(i, v)
#define __MARKER_MAP2(m, i, v, ...) m(i, v) __MARKER_MAP1(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP3(m, i, v, ...) m(i, v) __MARKER_MAP2(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP4(m, i, v, ...) m(i, v) __MARKER_MAP3(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP5(m, i, v, ...) m(i, v) __MARKER_MAP4(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP6(m, i, v, ...) m(i, v) __MARKER_MAP5(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP7(m, i, v, ...) m(i, v) __MARKER_MAP6(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP8(m, i, v, ...) m(i, v) __MARKER_MAP7(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP9(m, i, v, ...) m(i, v) __MARKER_MAP8(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP10(m, i, v, ...) m(i, v) __MARKER_MAP9(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP11(m, i, v, ...) m(i, v) __MARKER_MAP10(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP12(m, i, v, ...) m(i, v) __MARKER_MAP11(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP13(m, i, v, ...) m(i, v) __MARKER_MAP12(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP14(m, i, v, ...) m(i, v) __MARKER_MAP13(m, i + 1, __VA_ARGS__)
#define __MARKER_MAP15(m, i, v, ...) m(i, v) __MARKER_MAP14(m, i + 1, __VA_ARGS__)
/* m(index, value) for each value: up to 15, as COUNT_ARGS() counts. */
#define __MARKER_MAP(m, values...)					\
	CONCATENATE(__MARKER_MAP, COUNT_ARGS(values))(m, 0, ## values)

/*
 * The raw BPF shim each declaration defines, as include/trace/bpf_probe.h
 * defines __bpf_trace_<call>() for a tracepoint: __marker_bpf_<name>(), a
 * typed probe whose data is a raw tracepoint program's link (struct
 * bpf_raw_tp_link, attached by kernel/trace/marker_bpf.c), which hands
 * the marker's arguments (its C prototype, not its format's values) to
 * the program as the u64 array a raw tracepoint program reads, through
 * bpf_trace_run<N>(), and builds no record. Each argument is widened as
 * CAST_TO_U64() widens a tracepoint's: its bytes, zero-extended. At most
 * 12 arguments, as for tracepoints. Context: the site's (any, NMI
 * included), preemption disabled; no locks, no allocation;
 * bpf_trace_run<N>() keeps a program from running nested in itself on a
 * CPU, as for tracepoints.
 */
#ifdef CONFIG_BPF_EVENTS
#include <linux/string.h>
#include <linux/trace_events.h>

#define __marker_bpf_u64(v)						\
	({								\
		typeof(v) __src = (v);					\
		__typeof__(__builtin_choose_expr(sizeof(v) == 1, (u8)0,	\
			   __builtin_choose_expr(sizeof(v) == 2, (u16)0,	\
			   __builtin_choose_expr(sizeof(v) == 4, (u32)0,	\
			   __builtin_choose_expr(sizeof(v) == 8, (u64)0,	\
						 (void)0))))) __dst;	\
									\
		memcpy(&__dst, &__src, sizeof(__dst));			\
		(u64)__dst;						\
	})
#define __MARKER_BPF_ARG(i, v)	, __marker_bpf_u64(v)
#define __MARKER_BPF(n, proto, args...)					\
	static void notrace						\
	__marker_bpf_##n(void *__data, proto)				\
	{								\
		CONCATENATE(bpf_trace_run, COUNT_ARGS(args))(__data	\
			__MARKER_MAP(__MARKER_BPF_ARG, args));		\
	}
#define __MARKER_BPF_INIT(n, args...)					\
	.bpf_func = __marker_bpf_##n,					\
	.bpf_nr_args = COUNT_ARGS(args),
#else
#define __MARKER_BPF(...)
#define __MARKER_BPF_INIT(...)
#endif

/*
 * ---- Recorders: a declaration's ring-buffer and perf event, made at compile time ----
 *
 * As TRACE_EVENT() generates trace_event_raw_event_<call>() and
 * perf_trace_<call>(), each DECLARE_MARKER() defines
 * __marker_record_<name>(), one typed probe that serves both: the tracefs
 * face (kernel/trace/trace_markers.c) attaches it for its event
 * markers:<name> with an event file as its data (the ring buffer of an
 * instance), and with the event's struct trace_event_call, tagged with
 * MARKER_RECORD_PERF, while perf uses the event (perf's per-CPU buffer,
 * the BPF programs attached through perf). The data's tag tells the two
 * apart: the measuring and storing are one code (see
 * __MARKER_RECORDER()). It stores the
 * declaration's values straight into the record, at offsets the compiler
 * computes from their types, with no va_list and no per-field decode. The
 * layout is the face's
 * (struct trace_entry, then each field aligned to its size, a %s field a
 * u32 __data_loc, then the strings); each value is given a code (1 to 4:
 * an integer or pointer of 1, 2, 4 or 8 bytes, 8: a string), the codes
 * make the layout's signature, 4 bits per field, which the declaration
 * publishes with its recorder (marker_recorder_func, the marker's
 * ->recorder). The face compares it, once, when it builds the event with
 * the signature it derived from the format: where they differ (a %hd
 * given an int, a %c, a bool for a %d), the event does not use the
 * recorder but the face's varargs probes, which store the format's values
 * field by field. A record too large for the ring buffer goes to the face
 * as u64 values (marker_record_values()), which cuts its strings. 64-bit
 * only (the values travel as unsigned long there).
 */
#ifdef CONFIG_64BIT
#include <linux/align.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/trace_events.h>

/*
 * What a declaration's ->recorder is, __marker_recorder_<name>(): returns
 * its recorder, __marker_record_<name>(), and sets *@layout to the
 * signature of the layout the recorder stores, which the face checks
 * against its event's when it builds the event. One function, not a
 * structure and a function: 16 bytes a declaration. Process context.
 */
typedef void *(*marker_recorder_func)(u64 *layout);

/* The bytes of struct trace_entry, before the fields (checked there). */
#define MARKER_RECORD_HEADER	8
/*
 * A record that any ring buffer takes (the largest is a sub-buffer, a page
 * at least); a larger one has its strings cut by marker_record_values().
 */
#define MARKER_RECORD_FITS	2048

void marker_record_filtered(struct trace_event_file *file);
void marker_record_refused(struct trace_event_file *file);
void marker_record_commit(struct trace_event_buffer *fbuffer);
void marker_record_values(void *data, const u64 *values);

/*
 * The recorder's data for perf: the event's trace_event_call, its
 * address with this bit set (an event file's never has it).
 */
#define MARKER_RECORD_PERF	1UL

/*
 * A record in perf's per-CPU buffer, from marker_record_perf_alloc() to
 * marker_record_perf_submit().
 */
struct marker_record_perf {
	void *entry;
	struct trace_event_call *call;
	struct hlist_head *head;
	struct pt_regs *regs;
	int size;
	int rctx;
};

/*
 * Where a recorder's record is, in the ring buffer or perf's buffer: a
 * type of its own, not one declared in each recorder, so that GCC can
 * fold recorders of one prototype into one (its ICF compares types).
 */
union marker_record_buf {
	struct trace_event_buffer fb;
	struct marker_record_perf perf;
};

void *marker_record_perf_alloc(void *data, unsigned int size,
			       struct marker_record_perf *perf);
void marker_record_perf_submit(struct marker_record_perf *perf);

/* The longest string a field stores, NUL included (checked there). */
#define MARKER_RECORD_STRING_MAX	256

/*
 * A string value is read as TRACE_EVENT()'s __string() and __assign_str()
 * read theirs: measured, then copied, trusted as the compiler-checked C
 * expression of a declaration it is (trace_mark()'s varargs path reads
 * its %s arguments with page faults disabled): strlen() then memcpy(), a
 * string cut to MARKER_RECORD_STRING_MAX - 1 bytes. NULL is stored as
 * "(null)": the measure replaces it, once, so that the copy has no test;
 * the copy takes the measured length. The lengths are unsigned int, not
 * u16, which spares their zero-extensions (make bench: 2 instructions per
 * string).
 */
static __always_inline unsigned int __marker_record_strlen(const char *s)
{
	return min_t(size_t, strlen(s), MARKER_RECORD_STRING_MAX - 1) + 1;
}

static __always_inline unsigned int
__marker_record_string(void *entry, unsigned int offset,
		       unsigned int data_offset, const char *s,
		       unsigned int len)
{
	char *dst = entry + data_offset;

	memcpy(dst, s, len - 1);
	dst[len - 1] = '\0';
	*(u32 *)(entry + offset) = (u32)len << 16 | data_offset;
	return data_offset + len;
}

/* A value stored as a string: a char pointer or array. */
#define __MARKER_REC_IS_STR(v)						\
	_Generic((v), char *: 1, const char *: 1, default: 0)
#define __MARKER_REC_STR(v)						\
	_Generic((v), char *: (v), const char *: (v),			\
		 default: (const char *)NULL)
/* Bytes a value takes in the fixed part, and its alignment. */
#define __MARKER_REC_SIZE(v)						\
	(__MARKER_REC_IS_STR(v) ? sizeof(u32) : sizeof(v))
#define __MARKER_REC_CODE(v)						\
	(__MARKER_REC_IS_STR(v) ? 8ULL : sizeof(v) == 1 ? 1ULL :	\
	 sizeof(v) == 2 ? 2ULL : sizeof(v) == 4 ? 3ULL :		\
	 sizeof(v) == 8 ? 4ULL : 15ULL)
#define __MARKER_REC_SIG(i, v)	| (__MARKER_REC_CODE(v) << (4 * (i)))
#define __MARKER_REC_NR(i, v)	1 +
/*
 * A parameter of the prototype, declared for the types of the values. A
 * parameter written as an array (none is) would be an array here and a
 * pointer in the recorder: the layouts would differ, and the event would
 * take the varargs probes, correct but slower.
 */
#define __MARKER_REC_PARAM(i, p)	p __maybe_unused;
/* The signature's bits that say a field is a string (code 8). */
#define __MARKER_REC_STRINGS	0x8888888888888888ULL
#define __MARKER_REC_U64(i, v)	(u64)(unsigned long)(v),

/* First pass: the fixed size, and the bytes of each string. */
#define __MARKER_REC_MEASURE(i, v)					\
	__off = ALIGN(__off, __MARKER_REC_SIZE(v)) + __MARKER_REC_SIZE(v); \
	if (__MARKER_REC_IS_STR(v)) {					\
		__str[i] = __MARKER_REC_STR(v) ?: "(null)";		\
		__len[i] = __marker_record_strlen(__str[i]);		\
		__size += __len[i];					\
	}

/* Second pass: each value into its field. */
#define __MARKER_REC_STORE(i, v)					\
	__off = ALIGN(__off, __MARKER_REC_SIZE(v));			\
	if (__MARKER_REC_IS_STR(v)) {					\
		__data = __marker_record_string(__e, __off, __data,	\
						__str[i], __len[i]);	\
	} else {							\
		/* A string's dead branch: 0, not an array to copy. */	\
		__auto_type __v = __builtin_choose_expr(		\
			__MARKER_REC_IS_STR(v), 0, (v));		\
									\
		*(__unqual_scalar_typeof(__v) *)(__e + __off) = __v;	\
	}								\
	__off += __MARKER_REC_SIZE(v);

/*
 * __marker_record_<name>(data, proto): the typed probe of the event
 * markers:<name>, for one trace instance (@__rec_data, its struct
 * trace_event_file) as trace_event_raw_event_<call>() is a TRACE_EVENT()'s:
 * measure, soft disable and pid checks, reserve, store, commit; or for perf
 * (@__rec_data, the event's struct trace_event_call | MARKER_RECORD_PERF)
 * as perf_trace_<call>() is: measure, perf's buffer if a perf event of
 * this CPU or a BPF program listens, store, then the programs and perf
 * (marker_record_perf_alloc(), marker_record_perf_submit()). Records not
 * written are counted by the face, as its varargs probes count them. The
 * face attaches it only to events whose layout is its own
 * (__marker_recorder_<name>()), so it stores without checking. The
 * values are measured first, for both; the data's tag is tested before
 * reserving and again before committing, which GCC may thread into the
 * first test by giving each side its own copy of the stores: it does for
 * the benchmark's recorders (one test on the ring buffer's path), not for
 * sched_switch's larger one. The soft disable and pid checks come after
 * the measure, on the ring buffer's side only: a string of a soft
 * disabled event is measured for nothing, rather than the data tested
 * once more on every hit.
 * Context: the site's (any: task, softirq, hard IRQ, NMI, under the
 * runqueue lock), preemption disabled; no locks, no allocation, no
 * sleeping: the ring buffer's reservation is lockless, perf's buffer is
 * per CPU and per context. A record that fits evaluates each value once:
 * a string's is kept from the measure for the copy, as TRACE_EVENT()'s
 * __string() keeps its source (__marker_record_strlen()); one larger
 * than MARKER_RECORD_FITS evaluates them again for marker_record_values().
 */
#define __MARKER_RECORDER(n, proto, values...)				\
	static void notrace						\
	__marker_record_##n(void *__rec_data, proto)			\
	{								\
		const bool __strings =					\
			(0 __MARKER_MAP(__MARKER_REC_SIG, values)) &	\
			__MARKER_REC_STRINGS;				\
		const bool __perf = IS_ENABLED(CONFIG_PERF_EVENTS) &&	\
			((unsigned long)__rec_data & MARKER_RECORD_PERF); \
		struct trace_event_file *__file = __rec_data;		\
		/* Set by the reservation; the strings by the first pass */ \
		union marker_record_buf __rec __uninitialized;		\
		const char *__str[__MARKER_MAP(__MARKER_REC_NR, values) 1] \
			__uninitialized;				\
		unsigned int __len[__MARKER_MAP(__MARKER_REC_NR, values) 1] \
			__uninitialized;				\
		unsigned int __off = MARKER_RECORD_HEADER, __size = 0;	\
		unsigned int __data;					\
		void *__e;						\
									\
		__MARKER_MAP(__MARKER_REC_MEASURE, values)		\
		__data = __off;						\
		if (__perf) {						\
			if (__strings &&				\
			    __off + __size > MARKER_RECORD_FITS)	\
				goto slow;				\
			__e = marker_record_perf_alloc(__rec_data,	\
						       __off + __size,	\
						       &__rec.perf);	\
			if (!__e)					\
				return;					\
		} else {						\
			if (trace_trigger_soft_disabled(__file)) {	\
				marker_record_filtered(__file);		\
				return;					\
			}						\
			if (__strings &&				\
			    __off + __size > MARKER_RECORD_FITS)	\
				goto slow;				\
			__e = trace_event_buffer_reserve(&__rec.fb, __file, \
							 __off + __size); \
			if (unlikely(!__e)) {				\
				marker_record_refused(__file);		\
				return;					\
			}						\
		}							\
		__off = MARKER_RECORD_HEADER;				\
		__MARKER_MAP(__MARKER_REC_STORE, values)		\
		(void)__data;						\
		if (__perf)						\
			marker_record_perf_submit(&__rec.perf);		\
		else							\
			marker_record_commit(&__rec.fb);		\
		return;							\
	slow:								\
		{							\
			const u64 __vals[] = {				\
				__MARKER_MAP(__MARKER_REC_U64, values)	\
				0 };					\
									\
			marker_record_values(__rec_data, __vals);	\
		}							\
	}								\
	/* The values' types, from the prototype's parameters, unused */ \
	static void *__marker_recorder_##n(u64 *__layout)		\
	{								\
		__MARKER_MAP(__MARKER_REC_PARAM, proto)			\
		*__layout = 0 __MARKER_MAP(__MARKER_REC_SIG, values);	\
		return __marker_record_##n;				\
	}
#define __MARKER_RECORDER_FUNC(n)	__marker_recorder_##n
#else
#define __MARKER_RECORDER(n, proto, values...)
#define __MARKER_RECORDER_FUNC(n)	NULL
#endif

#endif /* _LINUX_MARKER_RECORD_H */
