/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_RECORD_H
#define _LINUX_MARKER_RECORD_H
/*
 * Included by include/linux/marker_typed.h, in the middle of its
 * DECLARE_MARKER() plumbing, with CONFIG_MARKERS_TRACE: not to be
 * included on its own. What a declaration generates from its argument
 * and value lists for the faces: its raw BPF shim and its recorders,
 * for the ring buffer and for perf.
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
 * perf_trace_<call>(), each DECLARE_MARKER() defines two typed probes:
 * __marker_record_<name>(), which the tracefs face
 * (kernel/trace/trace_markers.c) attaches for its event markers:<name>
 * with an event file as its data (the ring buffer of an instance), and
 * __marker_record_perf_<name>(), which it attaches with the event's
 * struct trace_event_call, tagged with MARKER_RECORD_PERF, while perf
 * uses the event (perf's per-CPU buffer, the BPF programs attached
 * through perf). Both measure and store with the same code
 * (__MARKER_REC_MEASURE(), __MARKER_REC_STORE()). They store the
 * declaration's values straight into the record, at offsets the compiler
 * computes from their types, with no va_list and no per-field decode. The
 * layout is the face's
 * (struct trace_entry, then each field aligned to its size, a %s field a
 * u32 __data_loc, then the strings); each value is given a code (1 to 4:
 * an integer or pointer of 1, 2, 4 or 8 bytes, 8: a string), the codes
 * make the layout's signature, 4 bits per field, which the declaration
 * publishes with its recorders (marker_recorder_func, the marker's
 * ->recorder). The face compares it, once, when it builds the event with
 * the signature it derived from the format: where they differ (a %hd
 * given an int, a %c, a bool for a %d), the event does not use the
 * recorders but the face's varargs probes, which store the format's values
 * field by field. A record too large for the ring buffer goes to the face
 * as u64 values (marker_record_values()), which cuts its strings. 64-bit
 * only (the values travel as unsigned long there).
 */
#ifdef CONFIG_64BIT
#include <linux/align.h>
#include <linux/instruction_pointer.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/trace_events.h>

/*
 * What a declaration's ->recorder is, __marker_recorder_<name>(): returns
 * its recorder for the ring buffer, __marker_record_<name>(), or with
 * @perf its recorder for perf, __marker_record_perf_<name>(), and sets
 * *@layout to the signature of the layout both store, which the face
 * checks against its event's when it builds the event. One function, not
 * a structure and functions: a few bytes a declaration. Process context.
 */
typedef void *(*marker_recorder_func)(u64 *layout, bool perf);

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
void marker_record_perf_lost(void);

/*
 * The perf recorder's data: the event's trace_event_call, its address
 * with this bit set (an event file's never has it), which
 * marker_record_values() tells apart.
 */
#define MARKER_RECORD_PERF	1UL

/* The longest string a field stores, NUL included (checked there). */
#define MARKER_RECORD_STRING_MAX	256

/*
 * A string value is read as TRACE_EVENT()'s __string() and __assign_str()
 * read theirs: measured, then copied, trusted as the compiler-checked C
 * expression of a declaration it is: strlen() then memcpy(), a string cut
 * to MARKER_RECORD_STRING_MAX - 1 bytes. The rule for every %s value of a
 * declaration is that it is a kernel string: sparse refuses a __user,
 * __iomem or __percpu one (__marker_record_kernel_string()), so the
 * face's varargs path, which reads the same values when the recorders'
 * layout is not the event's, reads kernel strings too (it reads them with
 * page faults disabled, as it reads trace_mark()'s, whose arguments have
 * no prototype). NULL is stored as
 * "(null)": the measure replaces it, once, so that the copy has no test;
 * the copy takes the measured length. The lengths are unsigned int, not
 * u16, which spares their zero-extensions (make bench: 2 instructions per
 * string). The copy is a call of memcpy(), as __assign_str()'s: GCC,
 * knowing the length is below 256, would expand it inline (a rep movsq
 * and the words around it, about 80 bytes per string per recorder, for
 * 5 instructions less on a 16-byte string); the length is hidden from it
 * after the cut (OPTIMIZER_HIDE_VAR(), no instruction), not before, so
 * that the test of a record too large for the ring buffer still folds
 * away where the strings cannot make one.
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
	size_t n = len - 1;

	OPTIMIZER_HIDE_VAR(n);
	memcpy(dst, s, n);
	dst[n] = '\0';
	*(u32 *)(entry + offset) = (u32)len << 16 | data_offset;
	return data_offset + len;
}

/*
 * Under sparse, a string value that is not a kernel pointer (an address
 * space: __user, __iomem, __percpu) is a warning, which the build's
 * sparse gate refuses: it could not be read with strlen(). sparse's
 * _Generic tells the address spaces apart, so a __user string is not
 * one of __MARKER_REC_IS_STR()'s: every value is checked, those of the
 * other address spaces passed on as they are. Nothing for the compiler:
 * the value is not evaluated.
 */
#ifdef __CHECKER__
static inline void __marker_record_kernel_string(const void *s)
{
}

#define __marker_record_check_string(v)					\
	__marker_record_kernel_string(_Generic((v),			\
		char __user *: (v), const char __user *: (v),		\
		char __iomem *: (v), const char __iomem *: (v),		\
		char __percpu *: (v), const char __percpu *: (v),	\
		default: (const char *)NULL))
#else
#define __marker_record_check_string(v)	((void)0)
#endif

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
	__marker_record_check_string(v);				\
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

/* The recorders' locals, the values' measures and the record's offsets */
#define __MARKER_REC_LOCALS(values...)					\
	const bool __strings =						\
		(0 __MARKER_MAP(__MARKER_REC_SIG, values)) &		\
		__MARKER_REC_STRINGS;					\
	/* The strings set by the first pass */				\
	const char *__str[__MARKER_MAP(__MARKER_REC_NR, values) 1]	\
		__uninitialized;					\
	unsigned int __len[__MARKER_MAP(__MARKER_REC_NR, values) 1]	\
		__uninitialized;					\
	unsigned int __off = MARKER_RECORD_HEADER, __size = 0;		\
	unsigned int __data;						\
	void *__e

/* A record larger than MARKER_RECORD_FITS: its values to the face */
#define __MARKER_REC_SLOW(data, values...)				\
	do {								\
		const u64 __vals[] = {					\
			__MARKER_MAP(__MARKER_REC_U64, values)		\
			0 };						\
									\
		marker_record_values(data, __vals);			\
	} while (0)

/*
 * __marker_record_<name>(data, proto): the typed probe of the event
 * markers:<name> for one trace instance (@__rec_data, its struct
 * trace_event_file), as trace_event_raw_event_<call>() is a
 * TRACE_EVENT()'s: soft disable and pid checks, measure, reserve, store,
 * commit. Records not written are counted by the face, as its varargs
 * probes count them. The face attaches it only to events whose layout is
 * its own (__marker_recorder_<name>()), so it stores without checking.
 * Context: the site's (any: task, softirq, hard IRQ, NMI, under the
 * runqueue lock), preemption disabled; no locks, no allocation, no
 * sleeping: the ring buffer's reservation is lockless. A record that fits
 * evaluates each value once: a string's is kept from the measure for the
 * copy, as TRACE_EVENT()'s __string() keeps its source
 * (__marker_record_strlen()); one larger than MARKER_RECORD_FITS
 * evaluates them again for marker_record_values().
 */
#define __MARKER_RECORDER(n, proto, values...)				\
	static void notrace						\
	__marker_record_##n(void *__rec_data, proto)			\
	{								\
		struct trace_event_file *__file = __rec_data;		\
		/* Set by the reservation */				\
		struct trace_event_buffer __fb __uninitialized;		\
		__MARKER_REC_LOCALS(values);				\
									\
		if (trace_trigger_soft_disabled(__file)) {		\
			marker_record_filtered(__file);			\
			return;						\
		}							\
		__MARKER_MAP(__MARKER_REC_MEASURE, values)		\
		__data = __off;						\
		if (__strings && __off + __size > MARKER_RECORD_FITS) {	\
			__MARKER_REC_SLOW(__rec_data, values);		\
			return;						\
		}							\
		__e = trace_event_buffer_reserve(&__fb, __file,		\
						 __off + __size);	\
		if (unlikely(!__e)) {					\
			marker_record_refused(__file);			\
			return;						\
		}							\
		__off = MARKER_RECORD_HEADER;				\
		__MARKER_MAP(__MARKER_REC_STORE, values)		\
		(void)__data;						\
		marker_record_commit(&__fb);				\
	}								\
	__MARKER_RECORDER_PERF(n, (proto), values)			\
	/* The values' types, from the prototype's parameters, unused */ \
	static void *__marker_recorder_##n(u64 *__layout, bool __perf)	\
	{								\
		__MARKER_MAP(__MARKER_REC_PARAM, proto)			\
		*__layout = 0 __MARKER_MAP(__MARKER_REC_SIG, values);	\
		return __MARKER_RECORDER_PICK(n, __perf);		\
	}

#ifdef CONFIG_PERF_EVENTS
/*
 * The registers perf takes, as perf_fetch_caller_regs() takes them but
 * with the address @ip: inlined, so that the frame is the recorder's. A
 * function, not the macro itself in the recorder: arm64's names a
 * member after its parameter (regs).
 */
static __always_inline void
__marker_record_perf_regs(struct pt_regs *regs, unsigned long ip)
{
	perf_arch_fetch_caller_regs(regs, ip);
}

/*
 * __marker_record_perf_<name>(data, proto), @proto in parentheses: the
 * typed probe of the event markers:<name> for perf (@__rec_data, the
 * event's struct trace_event_call | MARKER_RECORD_PERF, the tag untested
 * but by marker_record_values()), as perf_trace_<call>() is a
 * TRACE_EVENT()'s, with what it calls inline: nothing if no perf event of
 * this CPU and no BPF program listens; else measure, a record from perf's
 * per-CPU buffer of this context (perf_trace_buf_alloc()), the registers
 * perf takes, store, then the event's BPF programs and the perf events of
 * this CPU unless a program returned 0 (perf_trace_run_bpf_submit()). A
 * record perf cannot take (recursion) is counted in marker_perf_lost
 * (marker_record_perf_lost()); a record that fits is at most
 * MARKER_RECORD_FITS bytes and perf's alignment, well below
 * PERF_MAX_TRACE_SIZE. The sample's
 * address is in this recorder (_THIS_IP_), which names the marker;
 * perf_trace_<call>()'s is its caller's; its frame is this recorder's.
 * Context: as __marker_record_<name>()'s: any, NMI included, preemption
 * disabled; no locks, no allocation, no sleeping (perf's buffer is per
 * CPU and per context; BPF tracepoint programs are not sleepable).
 */
#define __MARKER_RECORDER_PERF(n, proto, values...)			\
	static void notrace						\
	__marker_record_perf_##n(void *__rec_data, __MARKER_PARAMS proto) \
	{								\
		struct trace_event_call *__call =			\
			__rec_data - MARKER_RECORD_PERF;		\
		struct hlist_head *__head =				\
			this_cpu_ptr(__call->perf_events);		\
		/* Set by perf_trace_buf_alloc() */			\
		struct pt_regs *__regs __uninitialized;			\
		int __rctx __uninitialized;				\
		__MARKER_REC_LOCALS(values);				\
									\
		if (!bpf_prog_array_valid(__call) && hlist_empty(__head)) \
			return;						\
		__MARKER_MAP(__MARKER_REC_MEASURE, values)		\
		__data = __off;						\
		if (__strings && __off + __size > MARKER_RECORD_FITS) {	\
			__MARKER_REC_SLOW(__rec_data, values);		\
			return;						\
		}							\
		/* perf adds a u32 size before the record, aligns to u64 */ \
		__size = ALIGN(__off + __size + sizeof(u32), sizeof(u64)) - \
			 sizeof(u32);					\
		__e = perf_trace_buf_alloc(__size, &__regs, &__rctx);	\
		if (unlikely(!__e)) {					\
			marker_record_perf_lost();			\
			return;						\
		}							\
		__marker_record_perf_regs(__regs, _THIS_IP_);		\
		__off = MARKER_RECORD_HEADER;				\
		__MARKER_MAP(__MARKER_REC_STORE, values)		\
		(void)__data;						\
		perf_trace_run_bpf_submit(__e, __size, __rctx, __call, 1, \
					  __regs, __head, NULL);	\
	}
#define __MARKER_RECORDER_PICK(n, perf)					\
	((perf) ? (void *)__marker_record_perf_##n :			\
		  (void *)__marker_record_##n)
#else
#define __MARKER_RECORDER_PERF(n, proto, values...)
#define __MARKER_RECORDER_PICK(n, perf)	((void *)__marker_record_##n)
#endif
#define __MARKER_RECORDER_FUNC(n)	__marker_recorder_##n
#else
#define __MARKER_RECORDER(n, proto, values...)
#define __MARKER_RECORDER_FUNC(n)	NULL
#endif

#endif /* _LINUX_MARKER_RECORD_H */
