/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_H
#define _LINUX_MARKER_H

/*
 * Static markers: named instrumentation sites that cost one NOP while
 * nobody listens.
 *
 * Adding a marker is one line at the site:
 *
 *	trace_mark(futex_wait, "uaddr %p val %u", uaddr, val);
 *
 * The name is a C identifier; the format names each field and gives its
 * printf conversion. The compiler checks the arguments against the format as
 * it does for printk(), and the arguments are evaluated only when at least
 * one probe is attached. See Documentation/trace/markers.rst.
 */

#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/marker_format.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>
#include <linux/stdarg.h>
#include <linux/types.h>

struct module;
struct marker;

/**
 * typedef marker_probe_func - a probe attached to a marker
 * @marker: the site that fired; @marker->name and @marker->format describe
 *	the arguments
 * @probe_private: the pointer given at registration
 * @args: the arguments of the site, in the order of @marker->format
 *
 * Context: any context the site runs in, NMI and hard IRQ included, with
 * preemption disabled. A probe must not sleep, take locks that those contexts
 * may hold, or allocate memory.
 */
typedef void (*marker_probe_func)(const struct marker *marker,
				  void *probe_private, va_list *args);

struct marker_typed;

/* One per site, in the __markers section; sites of one name share probes. */
struct marker {
	const char *name;		/* in __markers_strings */
	const char *format;		/* in __markers_strings */
	void __rcu *probes;		/* struct marker_probe_array, or NULL */
	struct marker_typed *typed;	/* a mark_<name>() site's, else NULL */
	unsigned char state;		/* 1 while probes are attached */
	unsigned char flags;		/* MARKER_FLAG_* */
} __aligned(8);

/*
 * The site is left disabled: its format is not its name's, or it is a
 * trace_mark() site of a name declared with DECLARE_MARKER() (or the other
 * way round).
 */
#define MARKER_FLAG_CONFLICT	0x01
/* A debug marker (name starting with "__"): no promise across versions. */
#define MARKER_FLAG_DEBUG	0x02
/* A mark_<name>() site of a marker declared with DECLARE_MARKER(). */
#define MARKER_FLAG_TYPED	0x04

/* A name starting with "__" is a debug marker. */
#define __marker_flags(id)						\
	(#id[0] == '_' && #id[1] == '_' ? MARKER_FLAG_DEBUG : 0)

#ifdef CONFIG_MARKERS

/**
 * trace_mark - a static marker
 * @name: marker name, a C identifier
 * @format: "field %conv field %conv ..." describing the arguments
 * @args: the arguments, checked against @format like printk()
 *
 * Costs one NOP (on architectures with patchable sites) while no probe is
 * attached; @args are not evaluated then.
 */
#define trace_mark(name, format, args...)				\
	__trace_mark(name, format, ## args)

int marker_probe_register(const char *name, const char *format,
			  marker_probe_func probe, void *probe_private);
int marker_probe_unregister(const char *name, marker_probe_func probe,
			    void *probe_private);
int marker_probe_unregister_private_data(marker_probe_func probe,
					 void *probe_private);
void marker_synchronize_unregister(void);

/**
 * struct marker_patch_batch - a caller's batch of site patching
 * @owner: the task that opened it; only its registrations are deferred
 * @node: on the registry's list of open batches
 * @sync: the names whose sites its owner's registrations left to its end
 * @direct: the typed names whose static calls wait for its end
 *
 * Lives on the caller's stack between marker_patch_batch_begin() and
 * marker_patch_batch_end(); its fields are the registry's.
 */
struct marker_patch_batch {
	struct task_struct *owner;
	struct list_head node;
	struct list_head sync;
	struct list_head direct;
};

#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
void marker_patch_batch_begin(struct marker_patch_batch *batch);
int marker_patch_batch_end(struct marker_patch_batch *batch);
#else
/* Sites that test their marker's state have nothing to patch. */
static inline void marker_patch_batch_begin(struct marker_patch_batch *batch)
{
}

static inline int marker_patch_batch_end(struct marker_patch_batch *batch)
{
	return 0;
}
#endif

/**
 * struct marker_probe_request - one probe change in a batch
 * @name: marker name
 * @format: as for marker_probe_register(); ignored when unregistering
 * @probe: the probe
 * @probe_private: passed to @probe
 * @typed: NULL for a probe of type marker_probe_func; for a typed probe
 *	(``void probe(void *data, proto)`` of a DECLARE_MARKER() marker, cast
 *	to marker_probe_func through void *), the marker's
 *	__marker_typed_<name>, as register_mark_<name>() passes it; @name and
 *	@format are then ignored, when attaching and when detaching: the
 *	declaration's are used
 */
struct marker_probe_request {
	const char *name;
	const char *format;
	marker_probe_func probe;
	void *probe_private;
	struct marker_typed *typed;
};

int marker_probe_register_batch(const struct marker_probe_request *reqs,
				unsigned int nr);
int marker_probe_unregister_batch(const struct marker_probe_request *reqs,
				  unsigned int nr);

/* Room for the bytes of any architecture's site. */
#define MARKER_SITE_BYTES_MAX	8

/**
 * struct marker_site_info - what marker_iterate_sites() reports of a site
 * @marker: the site's marker
 * @mod: the module holding the site, NULL for the core kernel
 * @code: address of the patchable instruction, 0 without patchable sites
 * @target: where the instruction jumps when enabled, 0 without sites
 * @enabled: probes are attached and the site calls them
 * @init_freed: the site was in init text that is gone; it is never patched
 * @busy: the site holds code markers did not write (a kprobe, another
 *	patcher); it is left alone until it holds markers' code again
 * @state: as listings print it: "conflict", "init-freed", "busy",
 *	"enabled" or "disabled"
 * @size: the site's length in bytes (x86: 2 or 5; arm64: 4), 0 without
 *	patchable sites
 * @bytes: the site's instruction in memory order (x86: a NOP or a JMP;
 *	arm64: a NOP or B), read with the marker mutex held
 * @nr_bytes: how many of @bytes there are: 0 without patchable sites or
 *	for a site whose init text is gone
 */
struct marker_site_info {
	const struct marker *marker;
	struct module *mod;
	unsigned long code;
	unsigned long target;
	bool enabled;
	bool init_freed;
	bool busy;
	const char *state;
	unsigned int size;
	unsigned int nr_bytes;
	u8 bytes[MARKER_SITE_BYTES_MAX];
};

typedef int (*marker_site_func_t)(const struct marker_site_info *info, void *data);
int marker_iterate_sites(marker_site_func_t fn, void *data);

/* Room for the module names of one marker name, "vmlinux,mod1,...". */
#define MARKER_MODULES_LEN	128

/**
 * struct marker_name_info - what marker_iterate_names() reports of a name
 * @name: the marker name
 * @format: the format of its sites; NULL when every site is left out
 * @fields: @format parsed for this call (the registry keeps only
 *	@nr_fields); NULL unless @nr_fields > 0
 * @nr_fields: number of fields, or -EINVAL or -E2BIG when @format does
 *	not parse
 * @nr_sites: its sites that take its probes
 * @nr_conflicts: its sites left out for their format or their kind
 * @debug: a debug marker (its name starts with "__")
 * @modules: "vmlinux" and the modules that hold its sites, comma
 *	separated, "..." ending a list too long to show
 */
struct marker_name_info {
	const char *name;
	const char *format;
	const struct marker_field *fields;
	int nr_fields;
	unsigned int nr_sites;
	unsigned int nr_conflicts;
	bool debug;
	char modules[MARKER_MODULES_LEN];
};

typedef int (*marker_name_func_t)(const struct marker_name_info *info, void *data);
int marker_iterate_names(marker_name_func_t fn, void *data);
unsigned long marker_recursion_drops_read(void);
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
bool marker_text_reserved(void *start, void *end);
#else
static inline bool marker_text_reserved(void *start, void *end)
{
	return false;
}
#endif

/*
 * What the registry tells its notifiers (marker_notifier_register()):
 * MARKER_NAMES_CHANGED, the sites of a name changed other than by a module
 * coming or going (a format conflict healed: sites left out now give the
 * name its new format).
 */
#define MARKER_NAMES_CHANGED	1

struct notifier_block;
int marker_notifier_register(struct notifier_block *nb);
int marker_notifier_unregister(struct notifier_block *nb);

#else /* !CONFIG_MARKERS */

#define trace_mark(name, format, args...)				\
	do {								\
		__marker_name_check(name);				\
		if (0)							\
			__marker_check_format(#name, format, ## args);	\
	} while (0)

static inline int marker_probe_register(const char *name, const char *format,
					marker_probe_func probe,
					void *probe_private)
{
	return -EOPNOTSUPP;
}

static inline int marker_probe_unregister(const char *name,
					  marker_probe_func probe,
					  void *probe_private)
{
	return -EOPNOTSUPP;
}

static inline int marker_probe_unregister_private_data(marker_probe_func probe,
						       void *probe_private)
{
	return -EOPNOTSUPP;
}

static inline void marker_synchronize_unregister(void) { }

struct marker_patch_batch {
};

static inline void marker_patch_batch_begin(struct marker_patch_batch *batch)
{
}

static inline int marker_patch_batch_end(struct marker_patch_batch *batch)
{
	return 0;
}

static inline bool marker_text_reserved(void *start, void *end)
{
	return false;
}

#endif /* CONFIG_MARKERS */

/* ---- Plumbing below: not needed to add a marker. ---- */

/* A marker name and its NUL fit MARKER_NAME_MAX: checked at build time. */
#define __marker_name_check(id)						\
	static_assert(sizeof(#id) <= MARKER_NAME_MAX,			\
		      "marker name " #id " is longer than "		\
		      "MARKER_NAME_MAX - 1 characters")

/* Never called: lets the compiler check @args against @format. */
static inline __printf(2, 3) void __marker_check_format(const char *name,
							const char *format, ...)
{
}

#ifdef CONFIG_MARKERS

#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
#include <linux/marker_sites.h>

#define marker_site_enabled(marker)	arch_marker_site_enabled(marker)
#else
/* No patchable sites: test the marker's state, one load and a branch. */
#define marker_site_enabled(marker)	unlikely(READ_ONCE((marker)->state))
#endif

void __marker_probe_call(const struct marker *marker, ...);

/*
 * May a site call its probes on this CPU now? Not on a CPU that is not
 * online yet, as tracepoints. RCU must be watching wherever a site is
 * (probe arrays are RCU-protected): as tracepoints, that is the site's
 * placement to get right, not a test every hit pays; a lockdep kernel
 * checks it at every site (__marker_rcu_check()) and there also calls
 * nothing where RCU is not watching. The one rule of every site,
 * mark_<name>() and trace_mark() alike. Preemption disabled; any context.
 */
static __always_inline bool marker_probes_may_run(void)
{
	if (IS_ENABLED(CONFIG_LOCKDEP) && unlikely(!rcu_is_watching()))
		return false;
	return likely(cpu_online(raw_smp_processor_id()));
}

/*
 * With lockdep, every site, enabled or not, warns once if it is reached
 * where RCU is not watching, as a tracepoint does: a site must not be
 * there (its probes are skipped there with lockdep only).
 */
#define __marker_rcu_check(id)						\
	RCU_LOCKDEP_WARN(!rcu_is_watching(),				\
			 "RCU not watching for marker " #id)

/*
 * A probe attached to a name: a typed probe, void func(void *data, proto),
 * or a marker_probe_func; its place in the array says which. Once detached
 * from a published array that could not be replaced (no memory), ->func is
 * a stub that takes and does nothing, called through either type as
 * the stub of its group's type: a marker_probe_func for probes with or
 * without a format, the declaration's ->stub for typed probes, so that a
 * CFI kernel calls each through its own prototype.
 */
struct marker_probe {
	void *func;
	void *probe_private;
	bool checked;			/* registered with a format */
	bool removing;			/* detached by the update being built */
	bool detached;			/* ->func is its group's stub */
};

/*
 * What sites and typed markers point to: copied on write, published with
 * RCU, freed after a grace period. The ->nr_typed typed probes come first,
 * then a slot whose ->func is NULL, then the probes with a format, then
 * another NULL slot: each group ends where its ->func is NULL, as a
 * tracepoint's array does, and keeps its registration order. ->nr counts
 * the probes, ->nr_slots the slots. ->data is what a typed marker's
 * static call is given: the first slot's private pointer, for its only
 * typed probe, or without typed probes ->varargs, for its iterator of
 * probes with a format. ->varargs is the first slot after the typed
 * group's end; that end's private pointer is the struct marker of the
 * typed marker the array is published to, which its probes with a format
 * are given (marker_array_name()).
 */
struct marker_probe_array {
	struct rcu_head rcu;
	void *data;
	struct marker_probe *varargs;
	unsigned int nr;
	unsigned int nr_typed;
	unsigned int nr_slots;
	struct marker_probe probes[] __counted_by(nr_slots);
};

/*
 * The registry's part of a declaration (struct marker_typed ->registry),
 * kept under its mutex here with the static call rather than with the
 * name, which a module's declaration may leave and join again: ->call is
 * what the static call calls (NULL: the declaration's ->iterator) and
 * ->call_data the data of the array it was switched for; ->call_gp is
 * the grace period after the last array the declaration's sites could
 * read was replaced or withdrawn: the static call goes to a probe
 * directly only once it has passed, so that no CPU still holding an
 * older array's ->data calls the probe with it (0: none yet). ->entry is
 * the registry's entry of the name while the declaration is the name's
 * (NULL otherwise). Not for the declaration's users: sparse refuses an
 * access that is not the registry's (ACCESS_PRIVATE()).
 */
struct marker_typed_registry {
	void *call;
	void *call_data;
	unsigned long call_gp;
	void *entry;
};

/*
 * The name-wide part of a marker declared with DECLARE_MARKER(), defined
 * once (CREATE_MARKERS) and exported with EXPORT_MARKER_SYMBOL_GPL(), as
 * a struct tracepoint is. What its users reach through it is what a
 * tracepoint's reach through that: ->marker, its name and format (a
 * tracepoint's ->name), which names it to probes with a format;
 * ->probes, the probes of all its sites, which they read under RCU
 * (->funcs); its static call, ->key and ->tramp (->static_call_key,
 * ->static_call_tramp); and the declaration's own functions:
 * ->iterator every probe (->iterator), ->iterator_typed the typed probes
 * of an array that has no others, ->iterator_va the probes with a format
 * of an array without typed ones, ->stub, which takes the slot of a typed
 * probe detached without memory for a smaller array (->probestub).
 * ->recorder is __marker_recorder_<name>() (marker_recorder_func,
 * __MARKER_RECORDER()), which gives one of the declaration's two
 * recorders, the typed probes the tracefs face attaches for the ring
 * buffer and for perf, and the signature of the layout both store; or
 * NULL. ->bpf_func is the declaration's raw BPF shim
 * (__marker_bpf_<name>(), a typed probe kernel/trace/marker_bpf.c
 * attaches for a raw tracepoint program) and ->bpf_nr_args the number of
 * arguments it passes on. ->registry is the registry's, __private.
 */
struct marker_typed {
	struct marker marker;
	struct marker_probe_array __rcu *probes;
	struct static_call_key *key;
	void *tramp;
	void *iterator;
	void *iterator_typed;
	void *iterator_va;
	void *stub;
	void *recorder;
#if defined(CONFIG_BPF_EVENTS) && defined(CONFIG_MARKERS_TRACE_RECORDERS)
	void *bpf_func;
	unsigned int bpf_nr_args;
#endif
	struct marker_typed_registry __private registry;
};

/* The core kernel's markers and sites, bounded by the linker script. */
extern struct marker __start___markers[], __stop___markers[];

/*
 * Each site gets its own struct marker and strings; the name and format are
 * kept in one string so both land in __markers_strings together. The one
 * layout of trace_mark() and mark_<name>() sites: @typed is the
 * declaration of a mark_<name>() site, NULL for trace_mark().
 */
#define __MARKER_SITE(id, fmt, typed_, flags_)				\
	__marker_name_check(id);					\
	static const char __marker_str_##id[]				\
	__section("__markers_strings") __aligned(1) = #id "\0" fmt;	\
	static struct marker __marker_##id				\
	__section("__markers") __used __aligned(8) = {			\
		.name = __marker_str_##id,				\
		.format = __marker_str_##id + sizeof(#id),		\
		.typed = typed_,					\
		.flags = __marker_flags(id) | (flags_),			\
	}

/*
 * A trace_mark() site. The format travels inside __VA_ARGS__ so that one
 * literal feeds both the string table and the printf check.
 */
#define __trace_mark(id, ...)						\
	do {								\
		__MARKER_SITE(id, __marker_format(__VA_ARGS__), NULL, 0);	\
		if (0)							\
			__marker_check_format(#id, __VA_ARGS__);	\
		if (marker_site_enabled(&__marker_##id))		\
			__marker_call(&__marker_##id, __VA_ARGS__);	\
		__marker_rcu_check(id);					\
	} while (0)

#define __marker_format(format, args...)	format
/* The format is the marker's own literal: only the arguments travel. */
#define __marker_call(marker, format, args...)			\
	((void)(format), __marker_probe_call(marker, ## args))

#endif /* CONFIG_MARKERS */

/*
 * ftrace's loop over several events (__ftrace_set_clr_event_nolock()):
 * a patch batch, in which the tracefs face attaches its varargs probe to
 * typed markers, whose recorders would each retarget a static call on its
 * own; a batch that enabled one typed event gives it its recorder at its
 * end (kernel/trace/trace_markers.c).
 */
#ifdef CONFIG_MARKERS_TRACE
void marker_event_batch_begin(struct marker_patch_batch *batch);
int marker_event_batch_end(struct marker_patch_batch *batch);
#else
static inline void marker_event_batch_begin(struct marker_patch_batch *batch)
{
	marker_patch_batch_begin(batch);
}

static inline int marker_event_batch_end(struct marker_patch_batch *batch)
{
	return marker_patch_batch_end(batch);
}
#endif

#endif /* _LINUX_MARKER_H */
