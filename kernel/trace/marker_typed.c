// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: the static calls of typed markers.
 *
 * A marker declared with DECLARE_MARKER() (struct marker_typed) has typed
 * probes, which take its C prototype, and its mark_<name>() sites call
 * through a static call: the only typed probe directly, or one of the
 * marker's iterators. This file owns which: it points the static call at
 * an iterator before an array the call cannot serve is published, and at
 * a probe (or at the iterator of probes with a format, which is given the
 * first of them) only after its array is published and a grace period has
 * passed since the array before was replaced, so that no CPU passes a
 * stale ->data to it, as kernel/tracepoint.c does. It also ties a declaration
 * to its name's entry while the declaration has sites or typed probes.
 * It changes no probe array (marker_probe.c) and patches no site
 * (marker_sites.c); static_call_update() takes cpus_read_lock() and
 * text_mutex itself, so this runs with marker_mutex held and nothing else.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/list.h>
#include <linux/marker.h>
#include <linux/marker_typed.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/static_call.h>

#include "marker_internal.h"

/*
 * The slot that ends the typed probes of @a, an array declaration @t is
 * about to publish, holds the struct marker that __marker_call_varargs()
 * gives the probes with a format: @t's. A CPU still in the sites of a
 * declaration that held @a before (a module's, on its way out) reads that
 * one's or @t's: both name the marker and its format.
 */
void marker_array_name(struct marker_probe_array *a, struct marker_typed *t)
{
	if (a)
		WRITE_ONCE(a->probes[a->nr_typed].probe_private,
			   (void *)&t->marker);
}

static bool marker_call_serves(struct marker_typed *t, void *call,
			       struct marker_probe_array *a);

/*
 * The typed slots of an untyped name's array are those of typed probes
 * detached without memory that marker_entry_drop_typed() had no memory to
 * drop either (__marker_entry_untype() leaves no live one), each still
 * holding the __marker_stub_<name>() of the declaration that had the
 * name, whose module may be gone since. Before @t's iterators read them
 * they take @t's stub, of @t's prototype, which a CFI kernel checks at
 * each call; after a grace period, so that no CPU still walks them in the
 * iterators of the declaration before. Only after two allocations failed,
 * so rarely.
 */
static void marker_array_restub(struct marker_probe_array *a,
				struct marker_typed *t)
{
	unsigned int i;

	if (!a || !a->nr_typed || READ_ONCE(a->probes[0].func) == t->stub)
		return;
	synchronize_rcu();
	for (i = 0; i < a->nr_typed; i++)
		WRITE_ONCE(a->probes[i].func, t->stub);
}

/*
 * Where @e's static call waits to be moved: on the batch of the
 * registration being run, if it defers to one, else on marker_direct_list
 * (moved before marker_mutex is released).
 */
static void marker_entry_queue_direct(struct marker_entry *e)
{
	struct marker_patch_batch *b = marker_deferred_batch();

	list_move_tail(&e->direct, b ? &b->direct : &marker_direct_list);
}

/*
 * @e's sites and typed probes are those of declaration @t: publish @e's
 * probes there, and let @t find @e without a lookup by name. The static
 * call is on @t's iterator of every probe, or wherever @t last left it
 * while it kept the name (a probe, or the iterator that takes ->data),
 * which may not serve @e's array: the array then waits, and the sites
 * call nothing, until __marker_calls_after() has moved the call (a new
 * site arrives here with text_mutex held, which a static call update
 * takes). The entry is taken from any batch that queued it before: the
 * sites of a module coming up never wait for a batch, as the module
 * notifier's marker_unlock() moves the call.
 */
void marker_entry_type(struct marker_entry *e, struct marker_typed *t)
{
	e->typed = t;
	marker_typed_reg(t)->entry = e;
	marker_array_restub(e->probes, t);
	marker_array_name(e->probes, t);
	if (marker_call_serves(t, marker_typed_reg(t)->call, e->probes)) {
		rcu_assign_pointer(t->probes, e->probes);
		__marker_entry_want_direct(e, true);
		return;
	}
	marker_entry_queue_direct(e);
}

static unsigned int marker_array_typed(struct marker_probe_array *a)
{
	unsigned int i, n = 0;

	for (i = 0; a && i < a->nr_typed; i++)
		n += marker_probe_live(marker_slot(a, i));
	return n;
}

/* Has @e neither a mark_<name>() site nor a live typed probe? */
static bool marker_entry_untypeable(struct marker_entry *e)
{
	return !e->nr_typed && !e->in_update && !marker_array_typed(e->probes);
}

/*
 * Whether @t may leave its name with its static call where it is: on one
 * of its iterators, which are @t's own code, or anywhere once @t's module
 * is going (the static call goes with it). Elsewhere it is a probe, of a
 * module that may go before @t does.
 */
static bool marker_call_may_stay(struct marker_typed *t)
{
	void *call = marker_typed_reg(t)->call;
#ifdef CONFIG_MODULES
	struct module *mod;
	bool going;
#endif

	if (!call || call == t->iterator_typed || call == t->iterator_va)
		return true;
#ifdef CONFIG_MODULES
	preempt_disable();
	mod = __module_address((unsigned long)t);
	going = mod && mod->state == MODULE_STATE_GOING;
	preempt_enable();
	return going;
#else
	return false;	/* The declaration is the kernel's: it stays */
#endif
}

/*
 * A typed marker's name-wide state goes with its last mark_<name>() site
 * and typed probe: its struct marker_typed may belong to a module on its
 * way out. A static call on a probe goes to its iterator of every probe
 * first, with the batch of __marker_calls_after(), which then untypes the
 * entry (the entry stays until then, marker_entry_settle()): left on the
 * probe, it would point into the probe's module after it goes. The
 * struct keeps where it points (->registry.call) for when the name is
 * typed again. The array loses the slots of typed probes detached
 * without memory (marker_entry_drop_typed()).
 */
void __marker_entry_untype(struct marker_entry *e)
{
	if (!marker_entry_untypeable(e))
		return;
	if (!marker_call_may_stay(e->typed)) {
		if (list_empty(&e->direct))
			marker_entry_queue_direct(e);
		return;
	}
	/* A CPU may still hold the array withdrawn, and its ->data. */
	if (rcu_access_pointer(e->typed->probes))
		marker_typed_reg(e->typed)->call_gp = get_state_synchronize_rcu();
	RCU_INIT_POINTER(e->typed->probes, NULL);
	marker_typed_reg(e->typed)->entry = NULL;
	e->typed = NULL;
	marker_entry_drop_typed(e);
}

/*
 * A typed marker's static call calls (->registry.call) its only
 * typed probe, its typed iterator (typed probes only), its iterator of
 * probes with a format (no typed probes; it is given the array's first
 * such probe as ->data) or, NULL, its iterator of every probe, which
 * serves any array. The two that take ->data are moved to only a grace
 * period after the array before was replaced, and never before a publish.
 */

/*
 * Typed entries whose static call waits for its target, queued by the
 * holder of marker_mutex, which moves them before releasing it; those a
 * task's registrations queue in its patch batch wait on the batch.
 */
LIST_HEAD(marker_direct_list);

/* The probe a typed marker's static call may call directly for @a, or NULL. */
static void *marker_array_direct(struct marker_probe_array *a)
{
	if (!a || a->nr != 1 || a->nr_typed != 1 ||
	    !marker_probe_live(&a->probes[0]))
		return NULL;
	return a->probes[0].func;
}

/* Does @a hold typed probes only (detached slots aside)? */
static bool marker_array_typed_only(struct marker_probe_array *a)
{
	return a && a->nr == a->nr_typed;
}

/* The iterator that serves @a (not NULL) best. */
static void *marker_array_iterator(struct marker_typed *t,
				   struct marker_probe_array *a)
{
	if (!a->nr_typed)
		return t->iterator_va;
	return marker_array_typed_only(a) ? t->iterator_typed : NULL;
}

/* The static call's best target for @a: a probe or an iterator. */
static void *marker_array_call(struct marker_typed *t,
			       struct marker_probe_array *a)
{
	if (!a)
		return NULL;
	return marker_array_direct(a) ?: marker_array_iterator(t, a);
}

/*
 * Can the static call's target @call serve @a once @a is published? Any
 * target serves no array: sites call nothing without one, and a CPU that
 * still holds the array before calls the target with that array's data,
 * as it did. The move to the iterator, which tracepoint.c makes as a
 * tracepoint's last probe goes, then waits for __marker_calls_after(),
 * with a batch's other static calls.
 */
static bool marker_call_serves(struct marker_typed *t, void *call,
			       struct marker_probe_array *a)
{
	if (!call || !a)
		return true;
	if (call == t->iterator_typed)
		return marker_array_typed_only(a);
	if (call == t->iterator_va)
		return !a->nr_typed;
	return marker_array_direct(a) == call &&
	       a->data == marker_typed_reg(t)->call_data;
}

/*
 * Static calls retargeted together: every trampoline and site of a batch
 * is patched with one set of synchronizations (__static_call_update_many())
 * where one by one each takes its own. Without memory for the list, each
 * is retargeted at once, one by one.
 */
struct marker_calls {
	struct static_call_change *changes;
	unsigned int nr;
	unsigned int max;
};

static void marker_calls_init(struct marker_calls *c, unsigned int max)
{
	c->nr = 0;
	c->max = max;
	c->changes = max > 1 ? marker_alloc(max, sizeof(*c->changes)) : NULL;
}

/* Point @e's static call at @call, or at its iterator for NULL. */
static void marker_calls_add(struct marker_calls *c, struct marker_entry *e,
			     void *call)
{
	struct marker_typed *t = e->typed;

	lockdep_assert_held(&marker_mutex);
	marker_typed_reg(t)->call = call;
	if (c->changes && c->nr < c->max) {
		c->changes[c->nr++] = (struct static_call_change){
			.key = t->key,
			.tramp = t->tramp,
			.func = call ?: t->iterator,
		};
		return;
	}
	__static_call_update(t->key, t->tramp, call ?: t->iterator);
}

static void marker_calls_run(struct marker_calls *c)
{
	if (c->nr)
		__static_call_update_many(c->changes, c->nr);
	kfree(c->changes);
}

/*
 * Before the new arrays of @u are published: a static call that cannot
 * serve its new array (another probe, other data, more probes or probes
 * with a format) goes to an iterator that can, which reads the array
 * itself. Caller holds marker_mutex only.
 */
void __marker_update_calls_before(struct marker_update *u)
{
	struct marker_calls c = { };
	struct marker_entry *e, *f;
	unsigned int nr;

	list_for_each_entry(e, &u->entries, update) {
		if (!e->typed ||
		    marker_call_serves(e->typed, marker_typed_reg(e->typed)->call,
				       e->pending))
			continue;
		if (!c.max) {
			/* The first to retarget: room for it and the rest. */
			nr = 0;
			f = e;
			list_for_each_entry_from(f, &u->entries, update)
				nr++;
			marker_calls_init(&c, nr);
		}
		marker_calls_add(&c, e, marker_array_typed_only(e->pending) ?
				 e->typed->iterator_typed : NULL);
	}
	if (c.max)
		marker_calls_run(&c);
}

/*
 * @take: the update just changed @e's probes, so it retargets the static
 * call itself, taking @e from a batch that queued it before (as its sites,
 * marker_entry_sync()); otherwise a queued entry stays where it is.
 */
void __marker_entry_want_direct(struct marker_entry *e, bool take)
{
	if (marker_array_call(e->typed, e->probes) ==
	    marker_typed_reg(e->typed)->call)
		return;
	if (take || list_empty(&e->direct))
		marker_entry_queue_direct(e);
}

/*
 * After the arrays are published: a typed marker with typed probes only
 * calls its typed iterator; with one typed probe it calls it directly,
 * and with probes with a format only their iterator, once no CPU can hold
 * the ->data of an array replaced before (one grace period after the last
 * replacement, often long past). All of those queued on @list
 * (marker_direct_list, or a batch's at its end) are retargeted together,
 * and @list is emptied; those other batches queued are left to them.
 * Caller holds marker_mutex only.
 */
void __marker_calls_after(struct list_head *list)
{
	struct marker_entry *e, *tmp;
	struct marker_typed *t;
	struct marker_calls c;
	unsigned int nr = 0;
	LIST_HEAD(untyping);
	LIST_HEAD(waiting);
	void *call;
	bool wait;

	list_for_each_entry(e, list, direct)
		nr++;
	marker_calls_init(&c, nr);
	list_for_each_entry_safe(e, tmp, list, direct) {
		list_del_init(&e->direct);
		t = e->typed;
		if (!t)
			continue;
		/* An array marker_entry_type() kept back, published below. */
		wait = rcu_access_pointer(t->probes) != e->probes;
		if (wait)
			list_add_tail(&e->direct, &waiting);
		/* Leaving the name: untyped once off any probe, below */
		if (marker_entry_untypeable(e)) {
			call = marker_call_may_stay(t) ?
			       marker_typed_reg(t)->call : NULL;
			if (!wait)
				list_add_tail(&e->direct, &untyping);
		} else {
			call = marker_array_call(t, e->probes);
		}
		if (call == marker_typed_reg(t)->call && !wait)
			continue;
		if (call && call != t->iterator_typed) {
			cond_synchronize_rcu(marker_typed_reg(t)->call_gp);
			marker_typed_reg(t)->call_data = e->probes->data;
		}
		if (call != marker_typed_reg(t)->call)
			marker_calls_add(&c, e, call);
	}
	marker_calls_run(&c);
	list_for_each_entry_safe(e, tmp, &waiting, direct) {
		list_del_init(&e->direct);
		rcu_assign_pointer(e->typed->probes, e->probes);
		if (marker_entry_untypeable(e))
			list_add_tail(&e->direct, &untyping);
	}
	if (list_empty(&untyping))
		return;
	list_for_each_entry_safe(e, tmp, &untyping, direct) {
		list_del_init(&e->direct);
		marker_entry_settle(e);
	}
	/*
	 * Sites left out for a conflict with the name may be back, typed:
	 * patched, and their static call moved, before the mutex goes.
	 */
	if (!list_empty(&marker_sync_list)) {
		marker_sites_lock();
		marker_sites_unlock();
	}
	marker_calls_after();
}

/**
 * __marker_call_varargs - call the probes with a format of a typed marker
 * @p: the first of them in a published array of the marker; the marker's
 *	values follow, as its format describes them
 *
 * The iterators of a DECLARE_MARKER() marker call this with the marker's
 * values: it calls each probe with a format from @p on, as
 * __marker_probe_call() calls a trace_mark() site's, with the marker's
 * struct marker, which the slot before @p holds (marker_array_name()).
 * Context: the iterators' (any, NMI included, preemption disabled, RCU
 * watching); no locks, no allocation. A probe that fires a marker in the
 * same context on this CPU is not called again from it (counted in
 * marker_recursion_drops).
 */
void notrace __marker_call_varargs(const struct marker_probe *p, ...)
{
	const struct marker *marker;
	marker_probe_func func;
	unsigned int bit;
	/* Set by va_start() before each use: not worth zeroing every hit. */
	va_list args __uninitialized;

	bit = marker_enter();
	if (unlikely(!bit))
		return;
	marker = READ_ONCE(p[-1].probe_private);
	for (; (func = READ_ONCE(p->func)); p++) {
		va_start(args, p);
		func(marker, p->probe_private, &args);
		va_end(args);
	}
	marker_exit(bit);
}
EXPORT_SYMBOL_GPL(__marker_call_varargs);

/**
 * marker_probe_register_typed - attach a typed probe to a typed marker
 * @typed: the marker's __marker_typed_<name>
 * @probe: ``void probe(void *data, proto)``, proto the marker's prototype
 * @probe_private: passed to @probe as @data
 *
 * Called by register_mark_<name>(), which checks @probe's type. The only
 * probe of a marker is called directly from its sites (a static call); the
 * marker may also have probes with a format, called with its values.
 *
 * Context: process; may sleep (it may wait for a grace period before
 * pointing the static call at @probe).
 *
 * Return: as marker_probe_register(); -EPERM also if the marker's sites
 * are trace_mark() sites or belong to another declaration of the name.
 */
int marker_probe_register_typed(struct marker_typed *typed, void *probe,
				void *probe_private)
{
	struct marker_probe_request req = {
		.name = typed->marker.name,
		.format = typed->marker.format,
		.probe = (marker_probe_func)probe,
		.probe_private = probe_private,
		.typed = typed,
	};

	return marker_probe_change(&req, 1, true);
}
EXPORT_SYMBOL_GPL(marker_probe_register_typed);

/**
 * marker_probe_unregister_typed - detach a typed probe
 * @typed: the marker's __marker_typed_<name>
 * @probe: the probe
 * @probe_private: the private pointer it was registered with
 *
 * Called by unregister_mark_<name>(). As for marker_probe_unregister(),
 * call marker_synchronize_unregister() before freeing what the probe uses.
 *
 * Return: as marker_probe_unregister().
 */
int marker_probe_unregister_typed(struct marker_typed *typed, void *probe,
				  void *probe_private)
{
	struct marker_probe_request req = {
		.name = typed->marker.name,
		.probe = (marker_probe_func)probe,
		.probe_private = probe_private,
		.typed = typed,
	};

	return marker_probe_change(&req, 1, false);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_typed);

/**
 * marker_typed_get - find a typed marker's declaration by name
 * @name: the marker's name
 * @owner: set to the declaration's module, NULL for the core kernel
 *
 * For faces that attach a declaration's own typed probes by name (its
 * raw BPF shim): the declaration stays while its module is held, which
 * the caller releases with module_put(*@owner) once it no longer uses
 * the declaration.
 *
 * Context: process; takes marker_mutex.
 *
 * Return: the declaration, its module held; ERR_PTR(-ENOENT) if no
 * marker has @name (or its module is on its way out), ERR_PTR(-EBUSY)
 * while its module's init has not returned (MODULE_STATE_COMING),
 * ERR_PTR(-EOPNOTSUPP) if the name's sites are trace_mark() sites, which
 * have no prototype.
 */
struct marker_typed *marker_typed_get(const char *name, struct module **owner)
{
	struct marker_typed *t = ERR_PTR(-ENOENT);
	struct marker_entry *e;
	struct module *mod;

	mutex_lock(&marker_mutex);
	e = marker_entry_find(name);
	if (e && e->typed) {
		/* Its module's notifier waits for the mutex to remove it */
		preempt_disable();
		mod = __module_address((unsigned long)e->typed);
		/*
		 * Not while the module's init runs: if it fails, the loader
		 * frees the module without waiting for the references taken
		 * on it (do_init_module()), as it refuses a coming module to
		 * the symbol references of others (-EBUSY).
		 */
		if (mod && module_is_coming(mod)) {
			t = ERR_PTR(-EBUSY);
		} else if (try_module_get(mod)) {
			t = e->typed;
			*owner = mod;
		}
		preempt_enable();
	} else if (e && e->nr_markers) {
		t = ERR_PTR(-EOPNOTSUPP);
	}
	mutex_unlock(&marker_mutex);
	return t;
}
