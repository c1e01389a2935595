// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_kprobe.c - kprobes on a module's marker sites before the
 * marker core has seen the module
 *
 * A module notifier that runs before the marker core's (a higher priority)
 * tries register_kprobe() on every marker site of the module named in
 * /sys/kernel/debug/test_markers_kprobe/target as that module comes up
 * (MODULE_STATE_COMING): its text exists and can be probed, but the marker
 * core has not attached its sites yet. Every such kprobe must be refused,
 * as the marker core patches those sites from its own notifier on.
 *
 * debugfs, under /sys/kernel/debug/test_markers_kprobe/:
 *
 *	target	write a module name (a trailing newline is dropped)
 *	result	read "sites N accepted M" for the last load of the target:
 *		N sites tried, M kprobes the kprobe core accepted (each is
 *		unregistered at once)
 */

#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "test_markers.h"

static DEFINE_MUTEX(test_lock);
static char test_target[MODULE_NAME_LEN];
static unsigned int test_sites, test_accepted;
static struct dentry *test_dir;

/* Never hit: the kprobes are removed before the module's code runs. */
static int test_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* Try a kprobe on each marker site of @mod. Process context. */
static void test_probe_sites(struct module *mod)
{
#ifdef CONFIG_HAVE_ARCH_MARKER_SITES
	struct kprobe kp;
	unsigned int i;

	for (i = 0; i < mod->num_marker_sites; i++) {
		memset(&kp, 0, sizeof(kp));
		kp.addr = (kprobe_opcode_t *)
			  marker_site_code(&mod->marker_sites[i]);
		kp.pre_handler = test_kprobe_pre;
		test_sites++;
		if (!register_kprobe(&kp)) {
			test_accepted++;
			unregister_kprobe(&kp);
		}
	}
#endif
}

static int test_module_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct module *mod = data;

	if (val != MODULE_STATE_COMING)
		return NOTIFY_DONE;
	mutex_lock(&test_lock);
	if (!strcmp(mod->name, test_target)) {
		test_sites = 0;
		test_accepted = 0;
		test_probe_sites(mod);
	}
	mutex_unlock(&test_lock);
	return NOTIFY_DONE;
}

/* Runs before the marker core's notifier (priority 1). */
static struct notifier_block test_module_nb = {
	.notifier_call = test_module_notify,
	.priority = INT_MAX,
};

static ssize_t test_target_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char name[MODULE_NAME_LEN];

	if (!count || count >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, ubuf, count))
		return -EFAULT;
	name[count] = '\0';
	if (name[count - 1] == '\n')
		name[count - 1] = '\0';
	mutex_lock(&test_lock);
	strscpy(test_target, name, sizeof(test_target));
	test_sites = 0;
	test_accepted = 0;
	mutex_unlock(&test_lock);
	return count;
}

DEFINE_TEST_KNOB(test_target, NULL, test_target_write);

static int test_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&test_lock);
	seq_printf(m, "sites %u accepted %u\n", test_sites, test_accepted);
	mutex_unlock(&test_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_result);

static int __init test_markers_kprobe_init(void)
{
	int ret;

	test_dir = test_knob_dir();
	debugfs_create_file("target", 0200, test_dir, NULL, &test_target_fops);
	debugfs_create_file("result", 0400, test_dir, NULL, &test_result_fops);
	ret = register_module_notifier(&test_module_nb);
	if (ret)
		debugfs_remove_recursive(test_dir);
	return ret;
}

static void __exit test_markers_kprobe_exit(void)
{
	unregister_module_notifier(&test_module_nb);
	debugfs_remove_recursive(test_dir);
}

module_init(test_markers_kprobe_init);
module_exit(test_markers_kprobe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: kprobes on a module's sites before the marker core attaches them");
