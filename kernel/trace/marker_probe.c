// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: attaching and detaching probes.
 *
 * The probes of a name are one array, shared by all its sites. Probes are
 * attached and detached in updates: one update changes any number of names
 * (the batch API), is checked and published as a whole or not at all, and
 * touches only the sites of the names it changes, patched in one batch.
 * This file owns the probe arrays, the update transaction and the
 * registration API (marker_probe_*()). It does not find a name's sites
 * (marker.c, marker_ranges.c), touch a site's bytes (marker_sites.c) or a
 * typed marker's static call (marker_typed.c); marker_internal.h is all
 * they share.
 *
 * Arrays are copied on write, published with RCU to every site of their
 * name and freed after a grace period; the probe-call path (marker.c)
 * reads them without a lock. Every update runs with marker_mutex held (the
 * locking rules are in marker.c).
 *
 * Detaching a probe cannot fail: when the smaller array cannot be allocated,
 * the probe's slot in the published array is pointed at a stub that does
 * nothing, as kernel/tracepoint.c does.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "marker_internal.h"

/* ---- Probe arrays ---- */

/*
 * Take the slot of a probe detached when no smaller array could be
 * allocated, each of its group's type so that a CFI kernel lets the call
 * through: this one for probes with or without a format, the
 * declaration's __marker_stub_<name>() for typed probes. Takes and does
 * nothing. Context: any.
 */
static void notrace marker_probe_stub(const struct marker *marker,
				      void *probe_private, va_list *args)
{
}

static_assert(__same_type(&marker_probe_stub, marker_probe_func));

static void marker_array_free(struct marker_probe_array *array)
{
	if (array)
		kfree_rcu(array, rcu);
}

/* The one allocation of probe arrays; KUnit makes it fail. */
VISIBLE_IF_KUNIT struct marker_probe_array *marker_array_alloc(unsigned int nr)
{
	struct marker_probe_array *array;

	KUNIT_STATIC_STUB_REDIRECT(marker_array_alloc, nr);

	/* Not zeroed: marker_array_copy() writes every slot, sets ->nr. */
	array = kmalloc(struct_size(array, probes, nr + 2), GFP_KERNEL);
	if (array) {
		array->nr_slots = nr + 2;
		array->nr = nr;
	}
	return array;
}

/*
 * What a typed marker's sites pass to its static call: the only typed
 * probe's private pointer, or in an array without typed probes the first
 * probe with a format, for __marker_iter_va_<name>() (see
 * include/linux/marker_typed.h).
 */
static void marker_array_set_data(struct marker_probe_array *array)
{
	array->data = array->nr_typed ? array->probes[0].probe_private :
					array->varargs;
}

/*
 * The end of @a's probes: the ->nr + 1 slots from the first hold them,
 * typed and with a format, in order, and the typed group's end between
 * them (its ->func is NULL). Walking them to it spares marker_slot()'s
 * index mapping per probe.
 */
static struct marker_probe *marker_array_end(struct marker_probe_array *a)
{
	return a->probes + a->nr + 1;
}

static unsigned int marker_array_live(struct marker_probe_array *array)
{
	const struct marker_probe *p;
	unsigned int n = 0;

	if (!array)
		return 0;
	for (p = array->probes; p < marker_array_end(array); p++)
		n += p->func && marker_probe_live(p);
	return n;
}

/*
 * A copy of @old's live probes, with @add too if not NULL: a typed probe
 * (@typed) after the typed ones, another after the others. Sized for all
 * of @old's probes, live or not: slots of probes detached without memory
 * are rare, and counting the live ones cost a walk of @old on every
 * registration; the slots they would have taken end the copy, NULL.
 */
static struct marker_probe_array *
marker_array_copy(struct marker_probe_array *old,
		  const struct marker_probe *add, bool typed)
{
	const struct marker_probe *p, *end;
	struct marker_probe_array *array;
	struct marker_probe *q;

	array = marker_array_alloc((old ? old->nr : 0) + !!add);
	if (!array)
		return NULL;
	/* The typed group, then its end, then the probes with a format */
	q = array->probes;
	if (old) {
		for (p = old->probes, end = p + old->nr_typed; p < end; p++)
			if (marker_probe_live(p))
				*q++ = *p;
	}
	if (add && typed)
		*q++ = *add;
	array->nr_typed = q - array->probes;
	*q++ = (struct marker_probe){ };
	array->varargs = q;
	if (old) {
		for (p = old->varargs, end = marker_array_end(old); p < end; p++)
			if (marker_probe_live(p))
				*q++ = *p;
	}
	if (add && !typed)
		*q++ = *add;
	array->nr = q - array->probes - 1;
	do {
		*q++ = (struct marker_probe){ };
	} while (q < array->probes + array->nr_slots);
	marker_array_set_data(array);
	return array;
}

/*
 * The declaration of @e's name left it (__marker_entry_untype()): the
 * slots of its typed probes detached without memory, each holding its
 * __marker_stub_<name>() (its module's text), go with it, in a copy of
 * the array without them; nobody reads the array now but CPUs still in
 * the declaration's iterators, and it is freed after a grace period.
 * Without memory for the copy they stay, and the next declaration of the
 * name gives them its own stub (marker_array_restub()). Caller holds
 * marker_mutex.
 */
void marker_entry_drop_typed(struct marker_entry *e)
{
	struct marker_probe_array *old = e->probes, *array;

	if (!old || !old->nr_typed)
		return;
	array = marker_array_copy(old, NULL, false);
	if (!array)
		return;
	e->probes = array;
	marker_array_free(old);
}

/* ---- Updates ---- */

static void marker_update_join(struct marker_update *u, struct marker_entry *e)
{
	if (e->in_update)
		return;
	e->in_update = true;
	e->pending = e->probes;
	list_add_tail(&e->update, &u->entries);
}

/* Replace @e's pending array by @array, freeing the old one if unpublished. */
static void marker_update_set(struct marker_entry *e,
			      struct marker_probe_array *array)
{
	if (e->pending != e->probes)
		kfree(e->pending);
	e->pending = array;
}

static int marker_update_add(struct marker_update *u,
			     const struct marker_probe_request *req)
{
	/* A typed probe's name and format are its declaration's. */
	const char *name = req->typed ? req->typed->marker.name : req->name;
	const char *format = req->typed ? req->typed->marker.format :
					  req->format;
	struct marker_probe_array *old, *array;
	struct marker_entry *e;
	struct marker_probe add = {
		.func = req->probe,
		.probe_private = req->probe_private,
		.checked = !!format,
	};
	const struct marker_probe *p;
	const char *have;
	bool same;

	if (!req->probe || !name)
		return -EINVAL;
	if (req->typed && marker_typed_reg(req->typed)->entry) {
		/* The declaration's entry: no lookup by name. */
		e = marker_typed_reg(req->typed)->entry;
	} else {
		u64 hashlen = marker_name_hashlen(name);

		if (!marker_hashlen_valid(hashlen))
			return -EINVAL;
		e = marker_entry_get_hashed(name, hashlen);
		if (!e)
			return -ENOMEM;
	}
	marker_update_join(u, e);

	if (req->typed && req->typed != e->typed) {
		/* Sites are trace_mark() ones, or another declaration's. */
		if (e->typed || e->nr_markers) {
			pr_notice("typed probe on marker %s: its sites are %s\n",
				  e->name, e->typed ? "declared elsewhere" :
				  "trace_mark() sites");
			return -EPERM;
		}
		marker_entry_type(e, req->typed);
	} else if (req->typed && e->format) {
		/* The declaration's sites or probes set the name's format. */
		goto checked;
	}
	if (!format)
		goto checked;

	have = e->format ?: e->pending_format;
	same = false;
	if (have) {
		/* Lengths and hashes first, then the bytes, word by word. */
		u64 hashlen = hashlen_string(NULL, format);

		same = hashlen == (have == e->format ? e->format_hashlen :
				   hashlen_string(NULL, have)) &&
		       !memcmp(format, have, hashlen_len(hashlen));
	}
	/* The name's own format was parsed when it was set: no parse again. */
	if (same && have == e->format) {
		if (e->nr_fields < 0)
			return -EINVAL;
	} else if (!same) {
		struct marker_field *fields;
		int ret;

		fields = marker_alloc(MARKER_FIELDS_MAX, sizeof(*fields));
		if (!fields)
			return -ENOMEM;
		ret = marker_format_parse(format, fields, MARKER_FIELDS_MAX);
		kfree(fields);
		if (ret < 0)
			return -EINVAL;
	}
	if (have && !same) {
		pr_notice("probe format \"%s\" does not match marker %s format \"%s\"\n",
			  format, e->name, have);
		return -EPERM;
	}
	if (!have) {
		e->pending_format = kstrdup(format, GFP_KERNEL);
		if (!e->pending_format)
			return -ENOMEM;
	}

checked:
	old = e->pending;
	if (old) {
		/* The typed group's end has no ->func: never the probe's */
		for (p = old->probes; p < marker_array_end(old); p++)
			if (p->func == (void *)req->probe &&
			    p->probe_private == req->probe_private &&
			    marker_probe_live(p))
				return -EEXIST;
	}

	array = marker_array_copy(old, &add, req->typed);
	if (!array)
		return -ENOMEM;
	marker_update_set(e, array);
	return 0;
}

/*
 * Remove @probe/@probe_private from @e's pending array; -ENOENT if absent.
 * Never fails otherwise: an unpublished array is shrunk in place; when a
 * published one cannot be replaced by a smaller copy, the probe's slot is
 * marked and, at commit, pointed at marker_probe_stub.
 */
int marker_update_remove_from(struct marker_update *u, struct marker_entry *e,
			      void *probe, void *probe_private)
{
	struct marker_probe_array *old, *array;
	struct marker_probe *p;
	unsigned int i;
	int found = -1;

	old = e->in_update ? e->pending : e->probes;
	for (i = 0; old && i < old->nr; i++) {
		p = marker_slot(old, i);
		if (marker_probe_live(p) && p->func == probe &&
		    p->probe_private == probe_private)
			found = i;
	}
	if (found < 0)
		return -ENOENT;

	marker_update_join(u, e);
	if (marker_array_live(old) == 1) {
		marker_update_set(e, NULL);
		return 0;
	}
	if (old != e->probes) {
		/* The update's own copy: nobody reads it yet. */
		p = marker_slot(old, found);
		old->nr_typed -= (unsigned int)found < old->nr_typed;
		old->nr--;
		/* The NULL slots move down with the probes after @p. */
		memmove(p, p + 1,
			(old->nr_slots - 1 - (p - old->probes)) * sizeof(*p));
		memset(&old->probes[old->nr_slots - 1], 0, sizeof(*p));
		old->varargs = &old->probes[old->nr_typed + 1];
		marker_array_set_data(old);
		return 0;
	}
	marker_slot(old, found)->removing = true;
	array = marker_array_copy(old, NULL, false);
	if (array)
		marker_update_set(e, array);
	return 0;
}

static int marker_update_remove(struct marker_update *u,
				const struct marker_probe_request *req)
{
	struct marker_entry *e;
	u64 hashlen;

	if (req->typed && marker_typed_reg(req->typed)->entry && req->probe) {
		/* The declaration's entry: no lookup by name. */
		e = marker_typed_reg(req->typed)->entry;
	} else {
		if (!req->probe || !req->name)
			return -EINVAL;
		hashlen = marker_name_hashlen(req->name);
		if (!marker_hashlen_valid(hashlen))
			return -EINVAL;
		e = marker_entry_find_hashed(req->name, hashlen);
		if (!e)
			return -ENOENT;
	}
	return marker_update_remove_from(u, e, (void *)req->probe,
					 req->probe_private);
}

/*
 * Slots of @e's published array marked for removal: clear or stub them,
 * each with the stub of its group's type.
 */
static void marker_entry_settle_removals(struct marker_entry *e, bool stub)
{
	struct marker_probe_array *array = e->probes;
	struct marker_probe *p;
	unsigned int i;

	for (i = 0; array && i < array->nr; i++) {
		p = marker_slot(array, i);
		if (!p->removing)
			continue;
		if (stub) {
			/* Typed probes imply the declaration's entry. */
			WRITE_ONCE(p->func, i < array->nr_typed ?
				   e->typed->stub : (void *)marker_probe_stub);
			p->checked = false;
			p->detached = true;
		}
		p->removing = false;
	}
}

/* Leave every entry of the update as it was before the update began. */
static void marker_update_abort(struct marker_update *u)
{
	struct marker_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &u->entries, update) {
		marker_update_set(e, NULL);
		marker_entry_settle_removals(e, false);
		kfree(e->pending_format);
		e->pending_format = NULL;
		e->in_update = false;
		list_del_init(&e->update);
		/*
		 * Back to a direct call if the update moved it off one; a
		 * name a batch queued stays the batch's: nothing changed.
		 */
		marker_entry_want_direct(e, false);
		marker_entry_settle(e);
	}
}

/* Give every site of the names in the update its new probes and state. */
static void marker_sites_publish(struct marker_update *u)
{
	struct marker_entry *e;
	struct marker_link *l;
	struct marker *m;

	list_for_each_entry(e, &u->entries, update) {
		if (e->typed) {
			marker_array_name(e->pending, e->typed);
			rcu_assign_pointer(e->typed->probes, e->pending);
		}
		list_for_each_entry(l, &e->markers, node) {
			m = marker_link_marker(l);
			if (m->flags & MARKER_FLAG_CONFLICT)
				continue;
			rcu_assign_pointer(m->probes, e->pending);
			WRITE_ONCE(m->state, !!e->pending);
		}
	}
}

/* Does the update turn a name on: its sites must be checked first. */
static bool marker_update_turns_on(struct marker_update *u)
{
	struct marker_entry *e;

	list_for_each_entry(e, &u->entries, update)
		if (!e->probes && e->pending)
			return true;
	return false;
}

/*
 * Check, publish and patch an update: all of it or, on error, none of it.
 * Caller holds marker_mutex, and the sites' locks if the update turns a
 * name on.
 */
static int marker_update_commit(struct marker_update *u)
{
	struct marker_entry *e, *tmp;
	int ret;

	lockdep_assert_held(&marker_mutex);

	list_for_each_entry(e, &u->entries, update) {
		if (!e->pending_format)
			continue;
		ret = marker_entry_set_format(e, e->pending_format);
		e->pending_format = NULL;
		if (ret)
			goto abort;
	}

	/* Only a name turned on needs a site it can enable. */
	ret = marker_update_turns_on(u) ? marker_sites_check(u) : 0;
	if (ret)
		goto abort;

	marker_sites_publish(u);

	list_for_each_entry_safe(e, tmp, &u->entries, update) {
		/*
		 * Sites change with the state, may come back from busy, or
		 * wait for a batch that changed the name before: this update
		 * takes them (marker_entry_sync()), so that its probes are
		 * reached when it returns.
		 */
		if (!e->probes != !e->pending || e->busy ||
		    !list_empty(&e->sync))
			marker_entry_sync(e);
		if (e->pending == e->probes) {
			marker_entry_settle_removals(e, true);
		} else if (e->probes) {
			if (e->typed)
				marker_typed_reg(e->typed)->call_gp =
					get_state_synchronize_rcu();
			marker_array_free(e->probes);
		}
		e->probes = e->pending;
		marker_entry_want_direct(e, true);
		e->pending = NULL;
		e->in_update = false;
		list_del_init(&e->update);
		marker_entry_settle(e);
	}
	return 0;

abort:
	marker_update_abort(u);
	return ret;
}

/*
 * Commit the update built with marker_mutex held, or abort it if @ret is
 * an error. The sites' locks are taken only when sites are checked or
 * patched: an update that only changes a name's probes takes none, nor
 * does one whose task's batch patches them (marker_defer_begin()).
 */
int marker_update_run(struct marker_update *u, int ret)
{
	bool locked = false;

	lockdep_assert_held(&marker_mutex);
	if (ret) {
		marker_update_abort(u);
	} else {
		marker_update_calls_before(u);
		if (marker_update_turns_on(u)) {
			marker_sites_lock();
			locked = true;
		}
		ret = marker_update_commit(u);
	}
	if (!locked && !list_empty(&marker_sync_list)) {
		marker_sites_lock();
		locked = true;
	}
	if (locked)
		marker_sites_unlock();
	marker_calls_after();
	return ret;
}

int marker_probe_change(const struct marker_probe_request *reqs,
			unsigned int nr, bool add)
{
	struct marker_update u = { .entries = LIST_HEAD_INIT(u.entries) };
	unsigned int i;
	int ret = 0;

	if (!reqs && nr)
		return -EINVAL;

	mutex_lock(&marker_mutex);
	marker_defer_begin();
	for (i = 0; i < nr && !ret; i++)
		ret = add ? marker_update_add(&u, &reqs[i]) :
			    marker_update_remove(&u, &reqs[i]);
	ret = marker_update_run(&u, ret);
	marker_defer_end();
	mutex_unlock(&marker_mutex);
	return ret;
}

/* ---- Registration API ---- */

/**
 * marker_probe_register - attach a probe to a marker
 * @name: marker name
 * @format: the format the probe expects, or NULL for a probe that reads
 *	@marker->format itself
 * @probe: the probe
 * @probe_private: passed to @probe
 *
 * The marker need not exist yet: the probe is attached to sites of @name
 * when they appear (module load).
 *
 * Return: 0; -EINVAL for a NULL probe, an empty or overlong name, or a
 * format that cannot be parsed; -EPERM if @format differs from the marker's;
 * -EEXIST if @probe with @probe_private is already attached; -EBUSY if the
 * marker has sites and none of them can be enabled because each holds code
 * markers did not write (a warning names them; sites that are busy while
 * others can be enabled are only reported, and listed as busy); -ENOMEM.
 */
int marker_probe_register(const char *name, const char *format,
			  marker_probe_func probe, void *probe_private)
{
	struct marker_probe_request req = {
		.name = name,
		.format = format,
		.probe = probe,
		.probe_private = probe_private,
	};

	return marker_probe_change(&req, 1, true);
}
EXPORT_SYMBOL_GPL(marker_probe_register);

/**
 * marker_probe_unregister - detach a probe from a marker
 * @name: marker name
 * @probe: the probe
 * @probe_private: the private pointer it was registered with
 *
 * The probe may still be running on other CPUs when this returns: call
 * marker_synchronize_unregister() before freeing what it uses. Detaching
 * cannot fail for lack of memory.
 *
 * Return: 0; -ENOENT if @probe with @probe_private is not attached to
 * @name; -EINVAL for a NULL probe or an invalid name.
 */
int marker_probe_unregister(const char *name, marker_probe_func probe,
			    void *probe_private)
{
	struct marker_probe_request req = {
		.name = name,
		.probe = probe,
		.probe_private = probe_private,
	};

	return marker_probe_change(&req, 1, false);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister);

/**
 * marker_probe_register_batch - attach several probes in one update
 * @reqs: the probes and the markers to attach them to
 * @nr: number of requests
 *
 * All sites changed by the batch are patched with one set of sync rounds.
 * Either every request takes effect or none does.
 *
 * Return: 0, or the first error, as for marker_probe_register().
 */
int marker_probe_register_batch(const struct marker_probe_request *reqs,
				unsigned int nr)
{
	return marker_probe_change(reqs, nr, true);
}
EXPORT_SYMBOL_GPL(marker_probe_register_batch);

/**
 * marker_probe_unregister_batch - detach several probes in one update
 * @reqs: the probes and their markers (formats are ignored)
 * @nr: number of requests
 *
 * Either every request takes effect or none does; only a request that
 * names no attached probe or is invalid makes the batch fail.
 *
 * Return: 0, or the first error, as for marker_probe_unregister().
 */
int marker_probe_unregister_batch(const struct marker_probe_request *reqs,
				  unsigned int nr)
{
	return marker_probe_change(reqs, nr, false);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_batch);

/**
 * marker_probe_unregister_private_data - detach a probe from every marker
 * @probe: the probe
 * @probe_private: the private pointer it was registered with
 *
 * Detaches every registration of @probe with @probe_private, on all
 * markers, in one update.
 *
 * Return: 0; -ENOENT if there was none; -EINVAL for a NULL probe.
 */
int marker_probe_unregister_private_data(marker_probe_func probe,
					 void *probe_private)
{
	struct marker_update u = { .entries = LIST_HEAD_INIT(u.entries) };
	struct marker_entry *e;
	struct hlist_node *tmp;
	unsigned int bkt, found = 0;
	int ret = 0;

	if (!probe)
		return -EINVAL;

	mutex_lock(&marker_mutex);
	marker_defer_begin();
	hash_for_each_safe(marker_table, bkt, tmp, e, hlist) {
		ret = marker_update_remove_from(&u, e, (void *)probe,
						probe_private);
		if (!ret)
			found++;
		else if (ret != -ENOENT)
			break;
		ret = 0;
	}
	if (!ret && !found)
		ret = -ENOENT;
	ret = marker_update_run(&u, ret);
	marker_defer_end();
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_private_data);

/**
 * marker_synchronize_unregister - wait for detached probes to finish
 *
 * After marker_probe_unregister() and this, no CPU runs the probe or holds
 * the probe array it was in: its module may go and its data be freed.
 */
void marker_synchronize_unregister(void)
{
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(marker_synchronize_unregister);
