/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduler markers: the event set of kernel/sched/core.c.
 *
 * Rules for this header:
 *
 *  - Every scheduler marker is declared here, once, with DECLARE_MARKER();
 *    kernel/sched/core.c calls mark_<name>() and never spells a format.
 *  - Fields are values a tool can use without knowing the kernel's
 *    internals: pids, command names, priorities, CPU numbers and task
 *    states. No kernel pointers: a task is named by its pid and tgid.
 *  - Names without a leading "__" are stable: their fields keep their
 *    names, types and meanings across kernel versions; fields may only be
 *    added at the end. A "__" name is a debug marker, with no promise.
 *  - These run in the scheduler, most of them with a runqueue lock or
 *    p->pi_lock held and interrupts off; sched_process_exit with
 *    preemption disabled. The MARKER_VALUES() only read fields of the
 *    tasks they are given: no locks, no allocation. The sites disable
 *    preemption with the _notrace variants and take no lock, so they never
 *    re-enter the scheduler; probes must do the same, and a typed probe,
 *    called without a recursion guard as tracepoint probes are, must not
 *    wake tasks (see Documentation/trace/markers.rst).
 *
 * Common fields:
 *
 *	pid, tgid	the task's pid and thread-group id, as the initial pid
 *			namespace sees them (gettid() and getpid() there)
 *	comm		the task's command name (TASK_COMM_LEN bytes at most)
 *	prio		the kernel priority: 0-99 real-time (99 - rtprio),
 *			100-139 normal (120 + nice), as for sched_switch
 *			tracepoints
 *	cpu		a CPU number
 *
 * The events:
 *
 *	sched_switch	a CPU switches from task prev to task next. Fires only
 *			when they differ, exactly once per switch counted in
 *			the task's nvcsw + nivcsw (getrusage(RUSAGE_THREAD)).
 *			prev_state is the state prev blocks in (TASK_* bits:
 *			1 interruptible, 2 uninterruptible, 0x80 dead, ...),
 *			or 0 if prev stays runnable (it was preempted or its
 *			sleep was cancelled by a signal); a non-zero
 *			prev_state is a voluntary switch (nvcsw). cpu is the
 *			CPU switching.
 *	sched_wakeup	a sleeping task is made runnable (TASK_RUNNING) on the
 *			runqueue of cpu: once per wakeup that found the task
 *			not running, whether it had left its runqueue or not.
 *	sched_wakeup_new
 *			a new task is made runnable for the first time, on cpu.
 *	sched_migrate_task
 *			a task moves from the runqueue of orig_cpu to that of
 *			dest_cpu; fires only when the two differ.
 *	sched_process_fork
 *			a task (parent) creates a task (child): a process or
 *			a thread; child_tgid equals parent_tgid for a thread.
 *			Fires once the child has its pid, before it first
 *			runs.
 *	sched_process_exit
 *			a task makes its last call to the scheduler. exit_code
 *			is the task's exit code as wait(2) reports it (the
 *			exit status << 8, or the signal number).
 */
#ifndef _TRACE_MARKERS_SCHED_H
#define _TRACE_MARKERS_SCHED_H

#include <linux/marker_typed.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/smp.h>

#define SCHED_SWITCH_FORMAT \
	"prev_pid %d prev_tgid %d prev_comm %s prev_prio %d prev_state %lu next_pid %d next_tgid %d next_comm %s next_prio %d cpu %u"
#define SCHED_WAKEUP_FORMAT \
	"pid %d tgid %d comm %s prio %d cpu %u"
#define SCHED_WAKEUP_NEW_FORMAT \
	"pid %d tgid %d comm %s prio %d cpu %u"
#define SCHED_MIGRATE_TASK_FORMAT \
	"pid %d tgid %d comm %s prio %d orig_cpu %u dest_cpu %u"
#define SCHED_PROCESS_FORK_FORMAT \
	"parent_pid %d parent_tgid %d parent_comm %s child_pid %d child_tgid %d child_prio %d"
#define SCHED_PROCESS_EXIT_FORMAT \
	"pid %d tgid %d comm %s prio %d exit_code %d"

/* __schedule(), runqueue lock held: @prev_state as __schedule() has it. */
DECLARE_MARKER(sched_switch,
	       MARKER_PROTO(bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned long prev_state),
	       MARKER_ARGS(preempt, prev, next, prev_state),
	       SCHED_SWITCH_FORMAT,
	       MARKER_VALUES(prev->pid, task_tgid_nr(prev), prev->comm, prev->prio,
			     preempt ? 0UL : prev_state,
			     next->pid, task_tgid_nr(next), next->comm, next->prio,
			     (unsigned int)smp_processor_id()))

/* ttwu_do_wakeup(), runqueue lock of @p's CPU held. */
DECLARE_MARKER(sched_wakeup,
	       MARKER_PROTO(struct task_struct *p),
	       MARKER_ARGS(p),
	       SCHED_WAKEUP_FORMAT,
	       MARKER_VALUES(p->pid, task_tgid_nr(p), p->comm, p->prio, task_cpu(p)))

/* wake_up_new_task(), runqueue lock and p->pi_lock held. */
DECLARE_MARKER(sched_wakeup_new,
	       MARKER_PROTO(struct task_struct *p),
	       MARKER_ARGS(p),
	       SCHED_WAKEUP_NEW_FORMAT,
	       MARKER_VALUES(p->pid, task_tgid_nr(p), p->comm, p->prio, task_cpu(p)))

/* set_task_cpu(), p->pi_lock or the runqueue lock held. */
DECLARE_MARKER(sched_migrate_task,
	       MARKER_PROTO(struct task_struct *p, unsigned int dest_cpu),
	       MARKER_ARGS(p, dest_cpu),
	       SCHED_MIGRATE_TASK_FORMAT,
	       MARKER_VALUES(p->pid, task_tgid_nr(p), p->comm, p->prio, task_cpu(p),
			     dest_cpu))

/* sched_post_fork(), in the parent, no scheduler lock held. */
DECLARE_MARKER(sched_process_fork,
	       MARKER_PROTO(struct task_struct *parent, struct task_struct *child),
	       MARKER_ARGS(parent, child),
	       SCHED_PROCESS_FORK_FORMAT,
	       MARKER_VALUES(parent->pid, task_tgid_nr(parent), parent->comm,
			     child->pid, task_tgid_nr(child), child->prio))

/* do_task_dead(), in the exiting task, no scheduler lock held. */
DECLARE_MARKER(sched_process_exit,
	       MARKER_PROTO(struct task_struct *p),
	       MARKER_ARGS(p),
	       SCHED_PROCESS_EXIT_FORMAT,
	       MARKER_VALUES(p->pid, task_tgid_nr(p), p->comm, p->prio, p->exit_code))

#endif /* _TRACE_MARKERS_SCHED_H */
