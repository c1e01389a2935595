/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_TYPED_H
#define _LINUX_MARKER_TYPED_H

/*
 * Typed markers: a subsystem's event set, declared once in its marker
 * header (include/trace/markers/<subsystem>.h) with DECLARE_MARKER(). Each
 * declaration gives its sites, mark_<name>(args), and typed probes that
 * take the marker's C prototype. See Documentation/trace/markers.rst.
 */

#include <linux/marker.h>
#include <linux/static_call.h>

/**
 * DECLARE_MARKER - declare a typed marker once, in a subsystem's marker header
 * @name: marker name; a leading "__" makes it a debug marker
 * @proto: the C prototype, as MARKER_PROTO(type arg, ...)
 * @args: the parameter names of @proto, as MARKER_ARGS(arg, ...)
 * @format: the format of the marker's fields
 * @values: the fields' values, computed from @args, as
 *	MARKER_VALUES(expr, ...); checked against @format here, once
 *
 * Defines mark_<name>(@proto), the site: call sites read
 * mark_futex_wait(uaddr, op, val, ...), and the event set of a subsystem is
 * reviewed in one header (include/trace/markers/<subsystem>.h). It also
 * defines register_mark_<name>() and unregister_mark_<name>() for typed
 * probes, ``void probe(void *data, proto)``, which are called with the
 * site's arguments in registers: the only probe of a marker directly,
 * through a static call, as a tracepoint calls its only probe. Probes with
 * a format (marker_probe_register()) see @values, computed only for them.
 *
 * Exactly one file of the kernel or module defines what the header
 * declares, by defining CREATE_MARKERS before including it.
 */
#define DECLARE_MARKER(name, proto, args, format, values)		\
	__DECLARE_MARKER(name, __MARKER_PARAMS(proto),			\
			 __MARKER_PARAMS(args), format,			\
			 __MARKER_PARAMS(values))

#define MARKER_PROTO(args...)	args
#define __MARKER_PARAMS(args...)	args
#define MARKER_ARGS(args...)	args
#define MARKER_VALUES(args...)	args

#ifdef CONFIG_MARKERS

int marker_probe_register_typed(struct marker_typed *typed, void *probe,
				void *probe_private);
int marker_probe_unregister_typed(struct marker_typed *typed, void *probe,
				  void *probe_private);
struct module;
struct marker_typed *marker_typed_get(const char *name, struct module **owner);

void __marker_call_varargs(const struct marker_probe *p, ...);

/*
 * A mark_<name>() site: as __trace_mark(), and when enabled the typed call,
 * made with preemption disabled as a tracepoint's.
 */
#define __trace_mark_typed(id, fmt, args...)				\
	do {								\
		__MARKER_SITE(id, fmt, &__marker_typed_##id,		\
			      MARKER_FLAG_TYPED);			\
		if (marker_site_enabled(&__marker_##id))		\
			__marker_typed_call(id, args);			\
		__marker_rcu_check(id);					\
	} while (0)

/*
 * Context: the site's. Calls the only typed probe directly, or the
 * marker's iterator (__marker_iter_<name>) when there are several probes
 * or probes with a format; the registry switches the static call. On a
 * CPU not online (and with lockdep where RCU is not watching), nothing is
 * called, as from a trace_mark() site (marker_probes_may_run()). A
 * module's site calls the static call's trampoline (its key is not
 * exported); without static calls, a site calls the iterator, which
 * serves any array, as tracepoints do.
 */
#ifdef CONFIG_HAVE_STATIC_CALL
#define __marker_static_call(id)	static_call_mod(marker_call_##id)
#else
#define __marker_static_call(id)	__marker_iter_##id
#endif

#define __marker_typed_call(id, args...)				\
	do {								\
		struct marker_probe_array *__a;				\
									\
		preempt_disable_notrace();				\
		if (likely(marker_probes_may_run())) {			\
			__a = rcu_dereference_sched(__marker_typed_##id.probes); \
			if (likely(__a))				\
				__marker_static_call(id)(__a->data, args); \
		}							\
		preempt_enable_notrace();				\
	} while (0)

/*
 * Besides mark_<name>() and the registration inlines, expands to the
 * definitions (__MARKER_CREATE()) in the one file that defines
 * CREATE_MARKERS. The prototype and argument lists are used several times,
 * as in include/linux/tracepoint.h: they are types and names, and the
 * values are evaluated only by the iterator.
 */
#define __DECLARE_MARKER(name, proto, args, format, values)		\
	extern struct marker_typed __marker_typed_##name;		\
	void __marker_iter_##name(void *__data, __MARKER_PARAMS(proto));	\
	DECLARE_STATIC_CALL(marker_call_##name, __marker_iter_##name);	\
	static __always_inline void mark_##name(proto)			\
	{								\
		__trace_mark_typed(name, format, args);			\
		if (0)							\
			__marker_check_format(#name, format, values);	\
	}								\
	static inline int						\
	register_mark_##name(void (*probe)(void *data, proto), void *data) \
	{								\
		return marker_probe_register_typed(&__marker_typed_##name, \
						   (void *)probe, data);	\
	}								\
	static inline int						\
	unregister_mark_##name(void (*probe)(void *data, proto), void *data) \
	{								\
		return marker_probe_unregister_typed(&__marker_typed_##name, \
						     (void *)probe, data);	\
	}								\
	__MARKER_CREATE(CREATE_MARKERS, name, __MARKER_PARAMS(proto),	\
			__MARKER_PARAMS(args), format,			\
			__MARKER_PARAMS(values))

/*
 * __MARKER_DEFINE_ where CREATE_MARKERS is defined (empty) when the
 * declaration expands, else __MARKER_DEFINE_CREATE_MARKERS: nothing.
 */
#define __MARKER_CREATE(c, name, proto, args, format, values)		\
	__MARKER_CREATE_(c, name, __MARKER_PARAMS(proto),		\
			 __MARKER_PARAMS(args), format, __MARKER_PARAMS(values))
#define __MARKER_CREATE_(c, name, proto, args, format, values)		\
	__MARKER_DEFINE_##c(name, __MARKER_PARAMS(proto),		\
			    __MARKER_PARAMS(args), format,		\
			    __MARKER_PARAMS(values))
#define __MARKER_DEFINE_CREATE_MARKERS(...)

#define __MARKER_TYPED_INIT(n, fmt, args...) {				\
		.marker = {						\
			.name = #n,					\
			.format = fmt,					\
			.flags = __marker_flags(n) | MARKER_FLAG_TYPED,	\
		},							\
		.key = &STATIC_CALL_KEY(marker_call_##n),		\
		.tramp = STATIC_CALL_TRAMP_ADDR(marker_call_##n),	\
		.iterator = __marker_iter_##n,				\
		.iterator_typed = __marker_iter_typed_##n,		\
		.iterator_va = __marker_iter_va_##n,			\
		.stub = __marker_stub_##n,				\
		.recorder = __MARKER_RECORDER_FUNC(n),			\
		__MARKER_BPF_INIT(n, args)				\
	}

/**
 * EXPORT_MARKER_SYMBOL_GPL - let modules use a typed marker
 * @name: the marker's name, as given to DECLARE_MARKER()
 *
 * In the file that defines CREATE_MARKERS, after including the header:
 * modules may then have mark_<name>() sites and register typed probes,
 * as EXPORT_TRACEPOINT_SYMBOL_GPL() lets them use a tracepoint. Without
 * it, the declaration is for built-in code; probes with a format reach
 * the marker by name from anywhere. What a module's site calls (the
 * static call's trampoline, or the iterator without static calls) is
 * exported with every built-in declaration, never the static call's key:
 * only the registry retargets it.
 */
#define EXPORT_MARKER_SYMBOL_GPL(name)					\
	EXPORT_SYMBOL_GPL(__marker_typed_##name)

/*
 * A module's own declarations do not export their trampolines: no other
 * module's site could call them (static_call_add_module() finds a
 * module's trampoline keys for its own sites only). What they keep is the
 * trampoline-to-key entry, with inline static calls: a site in another
 * object of the module calls the trampoline (objtool records it in place
 * of a key the object does not have), and the module loader finds the key
 * there. Not exporting saves each declaration its __ksymtab entry and
 * name.
 */
#if defined(CONFIG_HAVE_STATIC_CALL_INLINE) && defined(MODULE)
#define __MARKER_EXPORT_CALL(n)	ARCH_ADD_TRAMP_KEY(marker_call_##n)
#elif defined(CONFIG_HAVE_STATIC_CALL) && defined(MODULE)
#define __MARKER_EXPORT_CALL(n)	static_assert(sizeof(__marker_typed_##n))
#elif defined(CONFIG_HAVE_STATIC_CALL)
#define __MARKER_EXPORT_CALL(n)	EXPORT_STATIC_CALL_TRAMP_GPL(marker_call_##n)
#else
#define __MARKER_EXPORT_CALL(n)	EXPORT_SYMBOL_GPL(__marker_iter_##n)
#endif

/*
 * The iterators: the site's context, preemption disabled; no locks, no
 * allocation. Typed probes are called as the static call calls the only
 * one, without a recursion guard, as tracepoint probes are; probes with a
 * format get __marker_call_varargs(), which keeps the guard. The static
 * call calls __marker_iter_typed_<name>() while the array holds typed
 * probes only, so that a tracepoint's iterator is all it costs, and
 * __marker_iter_va_<name>() while it holds probes with a format only (the
 * faces' perf path): the site gives it the first of them (the array's
 * ->data then), and it hands that and the values straight to
 * __marker_call_varargs(), as a trace_mark() site hands its marker and
 * arguments to __marker_probe_call(): where the values are the
 * arguments, in their order, it is a jump.
 */
#define __MARKER_DEFINE_(n, proto, args, fmt, values)			\
	static void notrace						\
	__marker_iter_typed_##n(void *__data, __MARKER_PARAMS(proto));	\
	static void notrace						\
	__marker_iter_va_##n(void *__data, __MARKER_PARAMS(proto));	\
	static void notrace						\
	__marker_stub_##n(void *__data, __MARKER_PARAMS(proto))	\
	{								\
	}								\
	/* A detached typed probe's stub is called as typed probes are. */ \
	static_assert(__same_type(&__marker_stub_##n, &__marker_iter_##n)); \
	__MARKER_RECORDER(n, __MARKER_PARAMS(proto), __MARKER_PARAMS(values)) \
	__MARKER_BPF(n, __MARKER_PARAMS(proto), __MARKER_PARAMS(args))	\
	/* Its own alignment, not the compiler's 32 bytes for a large object. */ \
	struct marker_typed __marker_typed_##n				\
		__aligned(__alignof__(struct marker_typed)) =		\
		__MARKER_TYPED_INIT(n, fmt, __MARKER_PARAMS(args));	\
	DEFINE_STATIC_CALL(marker_call_##n, __marker_iter_##n);		\
	__MARKER_EXPORT_CALL(n);					\
	static void notrace						\
	__marker_iter_va_##n(void *__data, __MARKER_PARAMS(proto))	\
	{								\
		__marker_call_varargs(__data, values);			\
	}								\
	static __always_inline struct marker_probe *			\
	__marker_call_typed_##n(__MARKER_PARAMS(proto))			\
	{								\
		struct marker_probe_array *__a;				\
		struct marker_probe *__p;				\
		void *__func;						\
									\
		__a = rcu_dereference_sched(__marker_typed_##n.probes);	\
		if (unlikely(!__a))					\
			return NULL;					\
		for (__p = __a->probes; (__func = READ_ONCE(__p->func)); __p++) \
			((void (*)(void *, proto))__func)(__p->probe_private, \
							  args);	\
		return __p;						\
	}								\
	static void notrace						\
	__marker_iter_typed_##n(void *__data, __MARKER_PARAMS(proto))	\
	{								\
		__marker_call_typed_##n(args);				\
	}								\
	void notrace __marker_iter_##n(void *__data, __MARKER_PARAMS(proto)) \
	{								\
		struct marker_probe *__p = __marker_call_typed_##n(args);	\
									\
		if (__p && unlikely(READ_ONCE(__p[1].func)))		\
			__marker_call_varargs(__p + 1, values);		\
	}

/*
 * What each declaration generates for the faces from its lists: its
 * recorders, for the ring buffer and for perf (__MARKER_RECORDER()), and
 * its raw BPF shim (__MARKER_BPF()).
 */
#ifdef CONFIG_MARKERS_TRACE_RECORDERS
#include <linux/marker_record.h>
#else
#define __MARKER_RECORDER(...)
#define __MARKER_RECORDER_FUNC(...)	NULL
#define __MARKER_BPF(...)
#define __MARKER_BPF_INIT(...)
#endif

#else /* !CONFIG_MARKERS */

/* Never called: uses a typed marker's arguments where nothing else does. */
static inline void __marker_args(int dummy, ...)
{
}

#define EXPORT_MARKER_SYMBOL_GPL(name)					\
	__marker_name_check(name)

#define __DECLARE_MARKER(name, proto, args, format, values)		\
	static __always_inline void mark_##name(proto)			\
	{								\
		__marker_name_check(name);				\
		if (0)							\
			__marker_check_format(#name, format, values);	\
		if (0)							\
			__marker_args(0, args);			\
	}								\
	static inline int						\
	register_mark_##name(void (*probe)(void *data, proto), void *data) \
	{								\
		return -EOPNOTSUPP;					\
	}								\
	static inline int						\
	unregister_mark_##name(void (*probe)(void *data, proto), void *data) \
	{								\
		return -EOPNOTSUPP;					\
	}

#define __MARKER_CREATE(...)

#endif /* CONFIG_MARKERS */

#endif /* _LINUX_MARKER_TYPED_H */
