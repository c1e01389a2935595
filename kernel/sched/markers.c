// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's typed markers: what include/trace/markers/sched.h
 * declares (each marker's name-wide state, static call and iterator) is
 * defined here, once, outside kernel/sched/core.c so that the sites there
 * stay small. Each is exported for tracer modules' typed probes: the
 * declaration and the static call's trampoline, never its key.
 */
#include <linux/sched.h>

#define CREATE_MARKERS
#include <trace/markers/sched.h>

EXPORT_MARKER_SYMBOL_GPL(sched_switch);
EXPORT_MARKER_SYMBOL_GPL(sched_wakeup);
EXPORT_MARKER_SYMBOL_GPL(sched_wakeup_new);
EXPORT_MARKER_SYMBOL_GPL(sched_migrate_task);
EXPORT_MARKER_SYMBOL_GPL(sched_process_fork);
EXPORT_MARKER_SYMBOL_GPL(sched_process_exit);
