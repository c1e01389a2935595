// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's typed markers: what include/trace/markers/sched.h
 * declares (each marker's name-wide state, static call and iterator) is
 * defined here, once, outside kernel/sched/core.c so that the sites there
 * stay small.
 */
#include <linux/sched.h>

#define CREATE_MARKERS
#include <trace/markers/sched.h>
