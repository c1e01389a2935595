/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the markers selftests' test modules share: their knobs are debugfs
 * files in a directory named after the module, read and written by the
 * selftests.
 */
#ifndef _TEST_MARKERS_H
#define _TEST_MARKERS_H

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>

/*
 * DEFINE_TEST_KNOB - the file_operations @name_fops of a knob
 * @name: prefix of the definition
 * @rd: its read handler, or NULL for a write-only knob
 * @wr: its write handler, or NULL for a read-only knob
 */
#define DEFINE_TEST_KNOB(name, rd, wr)				\
static const struct file_operations name##_fops = {		\
	.owner	= THIS_MODULE,					\
	.open	= simple_open,					\
	.read	= rd,						\
	.write	= wr,						\
	.llseek	= default_llseek,				\
}

/* The module's directory of knobs: /sys/kernel/debug/KBUILD_MODNAME. */
static inline struct dentry *test_knob_dir(void)
{
	return debugfs_create_dir(KBUILD_MODNAME, NULL);
}

#endif /* _TEST_MARKERS_H */
