// SPDX-License-Identifier: GPL-2.0
/*
 * test_markers_hold.c - a kernel user holding a marker event
 *
 * Holds one event of the top-level trace array through
 * trace_get_event_file(), as in-kernel users of trace events do, so that
 * the selftests can unload the module owning the marker's sites while the
 * event is held. Commands written to /sys/kernel/debug/test_markers_hold/
 * control:
 *
 *	hold <name>	trace_get_event_file(NULL, "markers", <name>)
 *	enable		enable the held event (trace_array_set_clr_event())
 *	disable		disable it
 *	release		disable it if this module enabled it, then
 *			trace_put_event_file()
 *
 * Reading control gives "held <name> enabled=<0|1>", the name and state
 * read from the held file, or "none". Errors are the errno of the call.
 * Unloading the module releases what it holds.
 */

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>
#include "test_markers.h"

#define TEST_CMD_MAX	128

static DEFINE_MUTEX(test_lock);
static struct trace_event_file *test_file;	/* under test_lock */
static bool test_enabled;			/* enabled by this module */
static struct dentry *test_dir;

static int test_set(bool enable)
{
	int ret;

	ret = trace_array_set_clr_event(test_file->tr, "markers",
					trace_event_name(test_file->event_call),
					enable);
	if (!ret)
		test_enabled = enable;
	return ret;
}

static void test_release(void)
{
	if (test_enabled)
		test_set(false);
	trace_put_event_file(test_file);
	test_file = NULL;
	test_enabled = false;
}

static int test_command(char *cmd)
{
	struct trace_event_file *file;

	if (str_has_prefix(cmd, "hold ")) {
		if (test_file)
			return -EBUSY;
		file = trace_get_event_file(NULL, "markers", cmd + 5);
		if (IS_ERR(file))
			return PTR_ERR(file);
		test_file = file;
		return 0;
	}
	if (!test_file)
		return -ENOENT;
	if (!strcmp(cmd, "enable"))
		return test_set(true);
	if (!strcmp(cmd, "disable"))
		return test_set(false);
	if (!strcmp(cmd, "release")) {
		test_release();
		return 0;
	}
	return -EINVAL;
}

static ssize_t test_control_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char cmd[TEST_CMD_MAX];
	int ret;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';
	strim(cmd);

	mutex_lock(&test_lock);
	ret = test_command(cmd);
	mutex_unlock(&test_lock);
	return ret ?: count;
}

static ssize_t test_control_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[TEST_CMD_MAX];
	int len;

	mutex_lock(&test_lock);
	if (test_file)
		len = scnprintf(buf, sizeof(buf), "held %s enabled=%d\n",
				trace_event_name(test_file->event_call),
				!!(test_file->flags & EVENT_FILE_FL_ENABLED));
	else
		len = scnprintf(buf, sizeof(buf), "none\n");
	mutex_unlock(&test_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

DEFINE_TEST_KNOB(test_control, test_control_read, test_control_write);

static int __init test_markers_hold_init(void)
{
	test_dir = test_knob_dir();
	debugfs_create_file("control", 0600, test_dir, NULL,
			    &test_control_fops);
	return 0;
}

static void __exit test_markers_hold_exit(void)
{
	debugfs_remove_recursive(test_dir);
	mutex_lock(&test_lock);
	if (test_file)
		test_release();
	mutex_unlock(&test_lock);
}

module_init(test_markers_hold_init);
module_exit(test_markers_hold_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers selftest: holds a marker event through trace_get_event_file()");
