// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: patchable sites.
 *
 * With CONFIG_HAVE_ARCH_MARKER_SITES each site is an instruction the
 * architecture patches between a NOP and a jump to the site's out-of-line
 * probe call (arch_marker_site_*()). This file owns the sites' tables: it
 * sorts each range's sites by address, checks a site's bytes before it is
 * patched (a site holding anybody else's code is busy and left alone),
 * knows which sites went with init text, gathers the sites of an update
 * into batches (and the batches a caller keeps open), and keeps kprobes
 * off every site. It reads the names' state and probes, never changes
 * them (marker.c). Without patchable sites marker_internal.h stands in for
 * it: each site then tests its marker's state, with nothing to patch.
 *
 * Locking: marker_mutex, then cpus_read_lock() and text_mutex while sites
 * are checked or patched (marker_sites_lock()).
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <asm/sections.h>

#include "marker_internal.h"

static bool marker_range_init_freed(const struct marker_range *r,
				    unsigned long code)
{
	if (r->mod)
		return READ_ONCE(r->init_freed) && code >= r->init_start &&
		       code < r->init_end;
	/*
	 * As kernel/jump_label.c: everything between __init_begin and
	 * __init_end goes with init memory, built-in __exit text included
	 * on architectures that keep it there (x86).
	 */
	return system_state >= SYSTEM_FREEING_INITMEM &&
	       (is_kernel_inittext(code) ||
		init_section_contains((void *)code, 1));
}

static int marker_site_cmp(const void *a, const void *b)
{
	unsigned long ca = marker_site_code(*(struct marker_site * const *)a);
	unsigned long cb = marker_site_code(*(struct marker_site * const *)b);

	return ca < cb ? -1 : ca > cb;
}

/*
 * Order the sites of @r by address, for text_poke_queue(), in an array of
 * pointers: the table itself is never rearranged, as marker_text_reserved()
 * reads a module's table without locks while the module comes up.
 */
int marker_range_sort(struct marker_range *r)
{
	unsigned int i;

	if (!r->nr_sites)
		return 0;
	r->sorted = marker_alloc(r->nr_sites, sizeof(*r->sorted));
	r->busy = marker_alloc(BITS_TO_LONGS(r->nr_sites), sizeof(*r->busy));
	if (!r->sorted || !r->busy) {
		kfree(r->sorted);
		kfree(r->busy);
		r->sorted = NULL;
		r->busy = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < r->nr_sites; i++)
		r->sorted[i] = &r->sites[i];
	sort(r->sorted, r->nr_sites, sizeof(*r->sorted), marker_site_cmp, NULL);
	return 0;
}

/*
 * marker_site_prepare - what it takes to bring site @i of @r to @on
 *
 * The one rule for the check before an update and for the patching: a site
 * holding the instruction for @on needs nothing, one holding the other
 * state's is patched, one holding anything else (a kprobe's int3, another
 * patcher's bytes) is busy: flagged and named in one warning when it
 * becomes so, and left alone until it holds markers' code again.
 *
 * Return: 1 to patch it, 0 if nothing is to be done (or the site is
 * init-freed), -EBUSY if it is busy.
 */
static int marker_site_prepare(struct marker_range *r, unsigned int i,
			       bool on)
{
	const struct marker_site *s = r->sorted[i];
	unsigned long code = marker_site_code(s);
	unsigned int size = marker_site_size(s);
	u8 found[MARKER_SITE_SIZE_MAX];
	struct marker_entry *e;

	if (marker_range_init_freed(r, code))
		return 0;
	if (!arch_marker_site_check(s, on)) {
		clear_bit(i, r->busy);
		return 0;
	}
	if (!arch_marker_site_check(s, !on)) {
		clear_bit(i, r->busy);
		return 1;
	}
	e = marker_entry_find(marker_site_marker(s)->name);
	if (e)
		e->busy = true;
	if (!test_and_set_bit(i, r->busy)) {
		if (copy_from_kernel_nofault(found, (void *)code, size))
			memset(found, 0, size);
		pr_warn("site %pS of marker %s holds %*ph, not markers' code: busy, left alone\n",
			(void *)code, marker_site_marker(s)->name, size, found);
	}
	return -EBUSY;
}

/*
 * Before an update turns names on: each such name with sites must have one
 * that can be enabled, or the update fails with -EBUSY and changes nothing.
 * Caller holds marker_mutex and text_mutex.
 */
int marker_sites_check(struct marker_update *u)
{
	unsigned int sites, usable;
	struct marker_entry *e;
	struct marker_link *l;
	struct marker_site *s;
	int ret = 0;

	list_for_each_entry(e, &u->entries, update) {
		if (e->probes || !e->pending)
			continue;
		sites = 0;
		usable = 0;
		list_for_each_entry(l, &e->sites, node) {
			s = l->range->sorted[l->index];
			if (marker_site_marker(s)->flags & MARKER_FLAG_CONFLICT ||
			    marker_range_init_freed(l->range, marker_site_code(s)))
				continue;
			sites++;
			if (marker_site_prepare(l->range, l->index, true) >= 0)
				usable++;
		}
		if (sites && !usable) {
			pr_warn("cannot enable marker %s: its %u sites are busy\n",
				e->name, sites);
			ret = -EBUSY;
		}
	}
	return ret;
}

/* Every site of @r to its marker's state, in address order, one batch. */
void marker_range_sync(struct marker_range *r)
{
	unsigned int i, queued = 0;
	bool on;

	for (i = 0; i < r->nr_sites; i++) {
		on = READ_ONCE(marker_site_marker(r->sorted[i])->state);
		if (marker_site_prepare(r, i, on) > 0) {
			arch_marker_site_queue(r->sorted[i], on);
			queued++;
		}
	}
	if (queued)
		arch_marker_site_apply();
}

/*
 * Sites gathered from several names, sorted by address before they are
 * queued so that text_poke_queue() does not flush early; a full buffer is
 * one batch. 256 is as many as x86's text_poke_queue() takes in one batch
 * (a page of struct text_poke_loc). Protected by marker_mutex.
 */
#define MARKER_BATCH_MAX	256
static struct marker_site *marker_batch[MARKER_BATCH_MAX];
static unsigned int marker_batch_nr;

static void marker_batch_flush(void)
{
	unsigned int i;

	if (!marker_batch_nr)
		return;
	sort(marker_batch, marker_batch_nr, sizeof(*marker_batch),
	     marker_site_cmp, NULL);
	for (i = 0; i < marker_batch_nr; i++)
		arch_marker_site_queue(marker_batch[i],
				       READ_ONCE(marker_site_marker(marker_batch[i])->state));
	arch_marker_site_apply();
	marker_batch_nr = 0;
}

/*
 * Bring the sites of the entries on @list (marker_sync_list or a batch's)
 * to their marker's state: JMP while probes are attached, the NOP
 * otherwise, whatever the state was when they were queued. Busy sites are
 * left alone. Empties @list. Caller holds marker_mutex and text_mutex.
 *
 * Return: 0, or -EBUSY if a site to enable was busy (and named in a
 * warning when it became so).
 */
static int marker_sites_sync_flagged(struct list_head *list)
{
	struct marker_entry *e, *tmp;
	struct marker_link *l;
	struct marker_site *s;
	struct marker *m;
	int ret = 0, prep;

	list_for_each_entry_safe(e, tmp, list, sync) {
		e->busy = false;	/* until a site says otherwise */
		list_for_each_entry(l, &e->sites, node) {
			s = l->range->sorted[l->index];
			m = marker_site_marker(s);
			if (m->flags & MARKER_FLAG_CONFLICT)
				continue;
			prep = marker_site_prepare(l->range, l->index,
						   READ_ONCE(m->state));
			if (prep == -EBUSY && READ_ONCE(m->state))
				ret = -EBUSY;
			if (prep <= 0)
				continue;
			marker_batch[marker_batch_nr++] = s;
			if (marker_batch_nr == MARKER_BATCH_MAX)
				marker_batch_flush();
		}
		list_del_init(&e->sync);
	}
	marker_batch_flush();
	return ret;
}

/*
 * Does [@start, @end] hold a byte of site @s or the first byte of its
 * out-of-line block? Nothing visibly jumps to the block while the site is
 * a NOP: an optimized kprobe over the instructions before it (a function's
 * last pop and ret) could take its first bytes, and enabling the marker
 * would then jump into the middle of the optimized kprobe's JMP.
 */
static bool marker_site_reserved(const struct marker_site *s,
				 unsigned long start, unsigned long end)
{
	unsigned long code = marker_site_code(s);
	unsigned long target = marker_site_target(s);

	return (code <= end && start < code + marker_site_size(s)) ||
	       (start <= target && target <= end);
}

/*
 * The core kernel's sites, from the linker's table bounds: right from
 * boot, before marker_init() has sorted them, as early kprobes may come.
 */
static bool marker_core_reserved(unsigned long start, unsigned long end)
{
	struct marker_site *s;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		if (marker_site_reserved(s, start, end) &&
		    !marker_range_init_freed(&marker_core, marker_site_code(s)))
			return true;
	return false;
}

/*
 * A module's sites are read from its own table, unsorted and never
 * changed, from the moment the module's text can be probed
 * (MODULE_STATE_COMING) until it is freed. Preemption disabled.
 */
#ifdef CONFIG_MODULES
static bool marker_sites_reserved(const struct marker_site *sites,
				  unsigned int nr, unsigned long start,
				  unsigned long end)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (marker_site_reserved(&sites[i], start, end))
			return true;
	return false;
}
#endif

static bool marker_module_reserved(unsigned long start, unsigned long end)
{
#ifdef CONFIG_MODULES
	struct module *mod = __module_text_address(start);

	if (mod && marker_sites_reserved(mod->marker_sites,
					 mod->num_marker_sites, start, end))
		return true;
	if (end != start) {
		struct module *mod_end = __module_text_address(end);

		if (mod_end && mod_end != mod &&
		    marker_sites_reserved(mod_end->marker_sites,
					  mod_end->num_marker_sites, start,
					  end))
			return true;
	}
#endif
	return false;
}

int marker_core_sites_init(void)
{
	marker_core.sites = __start___marker_sites;
	marker_core.nr_sites = __stop___marker_sites - __start___marker_sites;
	return marker_range_sort(&marker_core);
}

/* Link each site of @r, by address, to its name's entry. */
void marker_range_link_sites(struct marker_range *r)
{
	struct marker_entry *e;
	struct marker_link *l;
	unsigned int i;

	for (i = 0; i < r->nr_sites; i++) {
		/* A site's marker is in the same object: attached before. */
		e = marker_entry_find(marker_site_marker(r->sorted[i])->name);
		l = &r->links[r->nr_markers + i];
		l->range = r;
		l->index = i;
		if (WARN_ON_ONCE(!e))
			INIT_LIST_HEAD(&l->node);
		else
			list_add_tail(&l->node, &e->sites);
	}
}

void marker_range_free_sites(struct marker_range *r)
{
	kfree(r->sorted);
	kfree(r->busy);
}

#ifdef CONFIG_MODULES
/* A module's range: its sites, sorted. */
int marker_range_module_sites(struct marker_range *r, struct module *mod)
{
	r->sites = mod->marker_sites;
	r->nr_sites = mod->num_marker_sites;
	return marker_range_sort(r);
}
#endif

/*
 * @e's sites that take its probes and those left out. A struct marker is
 * one per translation unit, but a mark_<name>() or a trace_mark() in an
 * inline function has a patchable site per inlined copy: count those.
 */
void marker_entry_count_sites(const struct marker_entry *e,
			      unsigned int *sites, unsigned int *conflicts)
{
	const struct marker_link *l;
	const struct marker *m;

	*sites = 0;
	*conflicts = 0;
	list_for_each_entry(l, &e->sites, node) {
		m = marker_site_marker(l->range->sorted[l->index]);
		if (m->flags & MARKER_FLAG_CONFLICT)
			(*conflicts)++;
		else
			(*sites)++;
	}
}

/* ---- Batches and locking ---- */

/*
 * The open patch batches (struct marker_patch_batch), each its owner's:
 * the registrations of a task that has one open check sites but queue
 * the names whose sites they change on the batch (->sync, ->direct for
 * static calls), for its marker_patch_batch_end(). Every other change
 * (another task's, a module's coming or going) goes on marker_sync_list
 * and marker_direct_list, which its maker empties before it releases
 * marker_mutex: it patches its own sites, never those a batch left for
 * later, unless it changes the same names (see marker_entry_sync()).
 * Protected by marker_mutex.
 */
static LIST_HEAD(marker_patch_batches);

/*
 * The batch of the registration being run, between marker_defer_begin()
 * and marker_defer_end(): its task's newest open batch, or NULL. NULL
 * for everything else (a module coming or going, boot), which patches
 * before it unlocks whatever batch its task may have open. Protected by
 * marker_mutex.
 */
static struct marker_patch_batch *marker_deferring;

/* The current task's newest open batch, or NULL. Caller holds marker_mutex. */
static struct marker_patch_batch *marker_batch_current(void)
{
	struct marker_patch_batch *b;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(b, &marker_patch_batches, node)
		if (b->owner == current)
			return b;
	return NULL;
}

/*
 * A registration of the current task starts (marker_probe_change()):
 * until marker_defer_end(), what it changes waits for the task's batch,
 * if it has one open. Caller holds marker_mutex.
 */
void marker_defer_begin(void)
{
	marker_deferring = marker_batch_current();
}

void marker_defer_end(void)
{
	marker_deferring = NULL;
}

/*
 * The batch that the changes being made wait for (marker_defer_begin()),
 * or NULL. Caller holds marker_mutex.
 */
struct marker_patch_batch *marker_deferred_batch(void)
{
	lockdep_assert_held(&marker_mutex);
	return marker_deferring;
}

/* The locks for checking and patching sites, after marker_mutex. */
void marker_sites_lock(void)
{
	cpus_read_lock();
	mutex_lock(&text_mutex);
}

/*
 * Patch the sites the lock holder's own changes queued on
 * marker_sync_list (a batch's wait on the batch), and unlock. Return: as
 * marker_sites_sync_flagged().
 */
int marker_sites_unlock(void)
{
	int ret;

	ret = marker_sites_sync_flagged(&marker_sync_list);
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
	return ret;
}

/**
 * marker_patch_batch_begin - let the caller's updates leave their patching
 * @batch: the caller's batch, on its stack until marker_patch_batch_end()
 *
 * Until the matching marker_patch_batch_end(), the probes this task
 * registers and unregisters are checked against their sites as always
 * (and fail as always) and published, but no site is patched:
 * marker_patch_batch_end() patches every site they changed in one batch,
 * and retargets the static calls of the typed markers they changed
 * together, in one more (__marker_calls_after()). ftrace opens one
 * around enabling or disabling the events of a whole system, so enabling
 * every marker event costs one set of sync rounds (and one more for the
 * static calls).
 * Meanwhile a site may still be a NOP though its probes are attached (its
 * events are not seen yet), or a jump though they are not (it finds no
 * probes). The batch is the caller's: another task's registration patches
 * the sites of the markers it changes before it returns, as without a
 * batch, and leaves those of the batch alone; a marker both change is
 * patched by whoever changed it last (the other task then, to the probes
 * both published), and a module's sites are patched to their markers'
 * state as it loads. A task's batches nest: the last to end patches.
 *
 * Context: process; takes the registry's mutex.
 */
void marker_patch_batch_begin(struct marker_patch_batch *batch)
{
	batch->owner = current;
	INIT_LIST_HEAD(&batch->sync);
	INIT_LIST_HEAD(&batch->direct);
	mutex_lock(&marker_mutex);
	list_add(&batch->node, &marker_patch_batches);
	mutex_unlock(&marker_mutex);
}
EXPORT_SYMBOL_GPL(marker_patch_batch_begin);

/**
 * marker_patch_batch_end - patch what the caller's updates left for later
 * @batch: the batch marker_patch_batch_begin() opened, by the same task
 *
 * Patches the sites and retargets the static calls that the caller's
 * registrations changed since @batch began and no other task changed
 * since, none of other batches'. If the caller has another batch open,
 * they wait for that one instead.
 *
 * Context: process; takes the registry's mutex, cpus_read_lock() and
 * text_mutex.
 *
 * Return: 0; -EBUSY if a site to enable held code markers did not write
 * (another patcher's) when it was patched: named in a warning, left
 * alone, and the probes of its marker are not called from it; -EINVAL if
 * @batch is not open by this task.
 */
int marker_patch_batch_end(struct marker_patch_batch *batch)
{
	struct marker_patch_batch *other;
	int ret = 0;

	mutex_lock(&marker_mutex);
	if (batch->owner != current || list_empty(&batch->node)) {
		mutex_unlock(&marker_mutex);
		return -EINVAL;
	}
	list_del_init(&batch->node);
	other = marker_batch_current();
	if (other) {
		/* Nested: the task's batch still open takes them over. */
		list_splice_tail_init(&batch->sync, &other->sync);
		list_splice_tail_init(&batch->direct, &other->direct);
	} else {
		if (!list_empty(&batch->sync)) {
			marker_sites_lock();
			ret = marker_sites_sync_flagged(&batch->sync);
			ret = marker_sites_unlock() ?: ret;
		}
		marker_calls_after_list(&batch->direct);
	}
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_patch_batch_end);

/* ---- The kprobe guard and the listing ---- */

/**
 * marker_text_reserved - is any marker site within [@start, @end]?
 * @start: first byte
 * @end: last byte
 *
 * Lets kprobes and the kprobe optimizer refuse addresses that marker
 * updates rewrite. A module's sites count from the moment its text can be
 * probed, before the marker core attaches them. Context: any; lock-free
 * (RCU-sched).
 *
 * Return: true if a site overlaps the range.
 */
bool marker_text_reserved(void *start, void *end)
{
	bool found;

	preempt_disable_notrace();
	found = marker_core_reserved((unsigned long)start, (unsigned long)end) ||
		marker_module_reserved((unsigned long)start, (unsigned long)end);
	preempt_enable_notrace();
	return found;
}

/* Every site of @r, by address, with its state and bytes. */
int marker_range_iterate_sites(struct marker_range *r, marker_site_func_t fn,
			       void *data)
{
	struct marker_site_info info = { };
	struct marker_site *s;
	unsigned int i;
	int ret;

	BUILD_BUG_ON(MARKER_SITE_SIZE_MAX > MARKER_SITE_BYTES_MAX);
	/* The low bits of a site's marker offset are its flags. */
	BUILD_BUG_ON(__alignof__(struct marker) <= MARKER_SITE_FLAGS);
	info.mod = r->mod;
	for (i = 0; i < r->nr_sites; i++) {
		s = r->sorted[i];
		info.marker = marker_site_marker(s);
		info.code = marker_site_code(s);
		info.target = marker_site_target(s);
		info.enabled = READ_ONCE(info.marker->state);
		info.init_freed = marker_range_init_freed(r, info.code);
		info.busy = test_bit(i, r->busy);
		info.state = marker_site_state(&info);
		info.size = marker_site_size(s);
		info.nr_bytes = 0;
		if (!info.init_freed &&
		    !copy_from_kernel_nofault(info.bytes, (void *)info.code,
					      info.size))
			info.nr_bytes = info.size;
		ret = fn(&info, data);
		if (ret)
			return ret;
	}
	return 0;
}
