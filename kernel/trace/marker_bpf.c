// SPDX-License-Identifier: GPL-2.0
/*
 * Static markers: raw BPF tracepoint programs on typed markers.
 *
 * bpf(BPF_RAW_TRACEPOINT_OPEN) given "markers:<name>" attaches a raw
 * tracepoint program to the typed marker <name> (DECLARE_MARKER()): the
 * declaration's shim, __marker_bpf_<name>() of
 * include/linux/marker_typed.h, is registered as a typed probe with the
 * program's link as its data. The program then runs from the marker's
 * static call with the marker's C arguments as the u64 array it reads,
 * as a raw tracepoint program runs from __bpf_trace_<call>(), and no
 * record is built. Tracepoint names are C identifiers: the "markers:"
 * prefix (the trace system of marker events) cannot name one, so
 * bpf_get_raw_tracepoint() is asked first and a tracepoint keeps its
 * name. See Documentation/trace/markers.rst.
 */
#define pr_fmt(fmt) "markers: " fmt

#include <linux/bpf.h>
#include <linux/marker.h>
#include <linux/marker_typed.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#define MARKER_BPF_PREFIX	"markers:"

/*
 * A raw tracepoint link on a typed marker. @raw is the shim's data:
 * bpf_trace_run<N>() reads the program and the cookie there. The link
 * holds @owner, the declaration's module, while it is attached. @tp_name
 * is the name it was opened with, "markers:<name>", which the link's
 * queries answer.
 */
struct marker_bpf_link {
	struct bpf_raw_tp_link raw;
	struct marker_typed *typed;
	struct module *owner;
	char tp_name[sizeof(MARKER_BPF_PREFIX) + MARKER_NAME_MAX];
};

static struct marker_bpf_link *marker_bpf_link(const struct bpf_link *link)
{
	return container_of(link, struct marker_bpf_link, raw.link);
}

/*
 * Detach when the link's last reference goes (close, or the program's
 * detach). No grace period here: the link is freed after one
 * (->dealloc_deferred), so a CPU still in the shim reads a live link.
 * Process context.
 */
static void marker_bpf_link_release(struct bpf_link *link)
{
	struct marker_bpf_link *ml = marker_bpf_link(link);

	WARN_ON_ONCE(marker_probe_unregister_typed(ml->typed,
						   ml->typed->bpf_func,
						   &ml->raw));
	module_put(ml->owner);
}

/* Context: an RCU callback, a grace period after the release. */
static void marker_bpf_link_dealloc(struct bpf_link *link)
{
	kfree(marker_bpf_link(link));
}

/* Context: process (a read of the link's fdinfo). */
static void marker_bpf_link_show_fdinfo(const struct bpf_link *link,
					struct seq_file *seq)
{
	seq_printf(seq, "tp_name:\t%s\n", marker_bpf_link(link)->tp_name);
}

/*
 * The name, as BPF_OBJ_GET_INFO_BY_FD gives a raw tracepoint link's.
 * Context: process.
 */
static int marker_bpf_link_fill_link_info(const struct bpf_link *link,
					  struct bpf_link_info *info)
{
	char __user *ubuf = u64_to_user_ptr(info->raw_tracepoint.tp_name);
	const char *name = marker_bpf_link(link)->tp_name;
	u32 ulen = info->raw_tracepoint.tp_name_len;
	u32 len = strlen(name) + 1;

	if (!ulen ^ !ubuf)
		return -EINVAL;
	info->raw_tracepoint.tp_name_len = len;
	if (!ubuf)
		return 0;
	if (ulen < len) {
		if (copy_to_user(ubuf, name, ulen - 1) ||
		    put_user('\0', ubuf + ulen - 1))
			return -EFAULT;
		return -ENOSPC;
	}
	return copy_to_user(ubuf, name, len) ? -EFAULT : 0;
}

/*
 * bpf(BPF_TASK_FD_QUERY) on the link (bpftool perf): a raw tracepoint
 * named as it was opened, as raw tracepoint links are answered.
 * Context: process, the link's file held.
 */
static int marker_bpf_link_task_fd_query(const struct bpf_link *link,
					 u32 *fd_type, const char **buf)
{
	*fd_type = BPF_FD_TYPE_RAW_TRACEPOINT;
	*buf = marker_bpf_link(link)->tp_name;
	return 0;
}

static const struct bpf_link_ops marker_bpf_link_lops = {
	.release = marker_bpf_link_release,
	.dealloc_deferred = marker_bpf_link_dealloc,
	.show_fdinfo = marker_bpf_link_show_fdinfo,
	.fill_link_info = marker_bpf_link_fill_link_info,
	.task_fd_query = marker_bpf_link_task_fd_query,
};

/**
 * marker_bpf_raw_tp_attach - attach a raw tracepoint program to a marker
 * @prog: the program
 * @name: the name given to BPF_RAW_TRACEPOINT_OPEN, "markers:<marker>"
 * @cookie: the program's cookie (bpf_get_attach_cookie())
 *
 * Called by bpf(BPF_RAW_TRACEPOINT_OPEN) for a name no tracepoint has.
 * The program may read as many u64 arguments as the marker's prototype
 * has (as bpf_probe_register() checks a tracepoint's) and write none.
 *
 * Context: process; may sleep.
 *
 * Return: the link's file descriptor; -ENOENT if @name does not start
 * with "markers:" or no marker has the rest; -EOPNOTSUPP if the marker
 * has trace_mark() sites (no prototype: attach a tracepoint program to
 * its event markers:<marker> through perf); -EBUSY while the module that
 * declares the marker is in its init (its shim is the module's code, and
 * a failed init frees the module whatever holds it); -EINVAL for a
 * program that is not a raw tracepoint program or that reads past the
 * arguments; as marker_probe_register_typed() (-EEXIST, -ENOMEM...).
 */
int marker_bpf_raw_tp_attach(struct bpf_prog *prog, const char *name,
			     u64 cookie)
{
	struct bpf_link_primer primer;
	struct marker_bpf_link *link;
	struct marker_typed *typed;
	struct module *owner;
	int ret;

	if (!str_has_prefix(name, MARKER_BPF_PREFIX))
		return -ENOENT;
	if (prog->type != BPF_PROG_TYPE_RAW_TRACEPOINT &&
	    prog->type != BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE)
		return -EINVAL;
	typed = marker_typed_get(name + strlen(MARKER_BPF_PREFIX), &owner);
	if (IS_ERR(typed))
		return PTR_ERR(typed);

	ret = -EINVAL;
	if (prog->aux->max_ctx_offset > typed->bpf_nr_args * sizeof(u64) ||
	    prog->aux->max_tp_access)
		goto out_put;

	ret = -ENOMEM;
	link = kzalloc(sizeof(*link), GFP_USER);
	if (!link)
		goto out_put;
	bpf_link_init(&link->raw.link, BPF_LINK_TYPE_RAW_TRACEPOINT,
		      &marker_bpf_link_lops, prog);
	link->raw.cookie = cookie;
	link->typed = typed;
	link->owner = owner;
	strscpy(link->tp_name, name);

	ret = bpf_link_prime(&link->raw.link, &primer);
	if (ret) {
		kfree(link);
		goto out_put;
	}
	ret = marker_probe_register_typed(typed, typed->bpf_func, &link->raw);
	if (ret) {
		/* Frees the link, without ->release: the prog is the caller's */
		bpf_link_cleanup(&primer);
		goto out_put;
	}
	return bpf_link_settle(&primer);

out_put:
	module_put(owner);
	return ret;
}
