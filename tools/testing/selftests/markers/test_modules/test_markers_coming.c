// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose init waits, then fails, for markers_bpf_test: while its
 * init runs (MODULE_STATE_COMING) its typed marker test_coming has an
 * event, and the test opens it with perf, enables it in ftrace and tries
 * a raw BPF link on it. Writing 1 to
 * /sys/module/test_markers_coming/parameters/release (or wait_ms passing)
 * ends the wait: the init fires test_coming TEST_COMING_HITS times,
 * with i = 1, 2, 3, and returns -EINVAL, so the loader frees the module
 * without waiting for the references taken on it.
 */

#include <linux/delay.h>
#include <linux/marker_typed.h>
#include <linux/module.h>

#define TEST_COMING_HITS	3
#define TEST_COMING_STEP_MS	20

#define CREATE_MARKERS
DECLARE_MARKER(test_coming,
	       MARKER_PROTO(int i),
	       MARKER_ARGS(i),
	       "i %d",
	       MARKER_VALUES(i))
#undef CREATE_MARKERS

static unsigned int wait_ms = 10000;
module_param(wait_ms, uint, 0400);
MODULE_PARM_DESC(wait_ms, "How long init waits for release, at most (ms)");

static bool release;
module_param(release, bool, 0600);
MODULE_PARM_DESC(release, "Set to end init's wait: it fires, then fails");

/* Not __init: the site is an ordinary one, patched as any other. */
static noinline void test_coming_fire(void)
{
	int i;

	for (i = 1; i <= TEST_COMING_HITS; i++)
		mark_test_coming(i);
}

static int __init test_markers_coming_init(void)
{
	unsigned int waited = 0;

	while (!READ_ONCE(release) && waited < wait_ms) {
		msleep(TEST_COMING_STEP_MS);
		waited += TEST_COMING_STEP_MS;
	}
	test_coming_fire();
	return -EINVAL;
}

module_init(test_markers_coming_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Typed marker of a module whose init waits, then fails");
