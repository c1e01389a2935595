/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Futex markers: the event set of the futex(2) system call.
 *
 * Rules for this header:
 *
 *  - Every futex marker is declared here, once, with DECLARE_MARKER();
 *    kernel/futex/syscalls.c calls mark_<name>() and never spells a format.
 *  - One marker per operation, fired once per call after the operation,
 *    with the inputs the caller gave and the result it gets back. A failed
 *    call is the same event with a negative ret: there are no separate
 *    "failed" markers.
 *  - Fields are the user-visible values: user addresses as the unsigned
 *    long the program passed (%lx, so tools see the real value, never a
 *    hashed %p), the op word as passed (command | FUTEX_PRIVATE_FLAG |
 *    FUTEX_CLOCK_REALTIME), counts and values as passed.
 *  - Names without a leading "__" are stable (fields may only be added at
 *    the end); "__" names are debug markers, with no promise.
 *
 * Common fields:
 *
 *	uaddr, uaddr2	the futex words' user addresses
 *	op		the op argument of futex(2)
 *	timeout_ns	when the wait gives up, in ns on the clock the op
 *			names (CLOCK_MONOTONIC, or CLOCK_REALTIME with
 *			FUTEX_CLOCK_REALTIME and for FUTEX_LOCK_PI): the
 *			absolute time passed, or for FUTEX_WAIT's relative
 *			timeout the time of the call plus the timeout; -1
 *			without a timeout
 *	ret		the operation's result: as futex(2) returns it on
 *			success, -errno on failure. A wait cut short by a
 *			signal shows the restart code the syscall layer
 *			turns into EINTR or a restart (-512 or -516).
 *
 * The events:
 *
 *	futex_wait	FUTEX_WAIT and FUTEX_WAIT_BITSET: val is the value
 *			expected at uaddr, bitset the wake mask (0xffffffff
 *			for FUTEX_WAIT); ret 0 once woken.
 *	futex_wake	FUTEX_WAKE and FUTEX_WAKE_BITSET: wake up to nr_wake
 *			waiters matching bitset; ret is the number woken.
 *			Also fired for the wake the kernel does for
 *			CLONE_CHILD_CLEARTID when a thread exits.
 *	futex_requeue	FUTEX_REQUEUE, FUTEX_CMP_REQUEUE and
 *			FUTEX_CMP_REQUEUE_PI: wake up to nr_wake waiters of
 *			uaddr and move up to nr_requeue others to uaddr2;
 *			cmpval is the value expected at uaddr (ignored by
 *			FUTEX_REQUEUE). ret is the number woken plus the
 *			number requeued.
 *	futex_lock_pi	FUTEX_LOCK_PI, FUTEX_LOCK_PI2 and FUTEX_TRYLOCK_PI;
 *			ret 0 once the caller owns the lock.
 *	futex_unlock_pi	FUTEX_UNLOCK_PI; ret 0 once released.
 *
 * Calls refused before the operation starts (an invalid timeout, a
 * FUTEX_CLOCK_REALTIME on an op that has no clock, an unknown op) fire no
 * marker; FUTEX_WAKE_OP, FUTEX_WAIT_REQUEUE_PI, futex_waitv(2) and the
 * futex_wake(2)/futex_wait(2)/futex_requeue(2) calls have none yet.
 */
#ifndef _TRACE_MARKERS_FUTEX_H
#define _TRACE_MARKERS_FUTEX_H

#include <linux/compiler_types.h>
#include <linux/ktime.h>
#include <linux/marker_typed.h>
#include <linux/types.h>

#define FUTEX_WAIT_FORMAT \
	"uaddr %lx op %d val %u bitset %x timeout_ns %lld ret %d"
#define FUTEX_WAKE_FORMAT \
	"uaddr %lx op %d nr_wake %d bitset %x ret %d"
#define FUTEX_REQUEUE_FORMAT \
	"uaddr %lx op %d nr_wake %d nr_requeue %d uaddr2 %lx cmpval %u ret %d"
#define FUTEX_LOCK_PI_FORMAT \
	"uaddr %lx op %d timeout_ns %lld ret %d"
#define FUTEX_UNLOCK_PI_FORMAT \
	"uaddr %lx op %d ret %d"

/*
 * A timeout for the events: nanoseconds, or -1 for none. Computed only for
 * probes with a format, by the marker's iterator, while the futex caller's
 * @timeout is alive; takes no locks, allocates nothing.
 */
static inline s64 futex_marker_timeout(const ktime_t *timeout)
{
	return timeout ? ktime_to_ns(*timeout) : -1;
}

DECLARE_MARKER(futex_wait,
	       MARKER_PROTO(u32 __user *uaddr, int op, u32 val, u32 bitset,
			    const ktime_t *timeout, int ret),
	       MARKER_ARGS(uaddr, op, val, bitset, timeout, ret),
	       FUTEX_WAIT_FORMAT,
	       MARKER_VALUES((unsigned long)uaddr, op, val, bitset,
			     futex_marker_timeout(timeout), ret))

DECLARE_MARKER(futex_wake,
	       MARKER_PROTO(u32 __user *uaddr, int op, int nr_wake, u32 bitset,
			    int ret),
	       MARKER_ARGS(uaddr, op, nr_wake, bitset, ret),
	       FUTEX_WAKE_FORMAT,
	       MARKER_VALUES((unsigned long)uaddr, op, nr_wake, bitset, ret))

DECLARE_MARKER(futex_requeue,
	       MARKER_PROTO(u32 __user *uaddr, int op, int nr_wake, int nr_requeue,
			    u32 __user *uaddr2, u32 cmpval, int ret),
	       MARKER_ARGS(uaddr, op, nr_wake, nr_requeue, uaddr2, cmpval, ret),
	       FUTEX_REQUEUE_FORMAT,
	       MARKER_VALUES((unsigned long)uaddr, op, nr_wake, nr_requeue,
			     (unsigned long)uaddr2, cmpval, ret))

DECLARE_MARKER(futex_lock_pi,
	       MARKER_PROTO(u32 __user *uaddr, int op, const ktime_t *timeout,
			    int ret),
	       MARKER_ARGS(uaddr, op, timeout, ret),
	       FUTEX_LOCK_PI_FORMAT,
	       MARKER_VALUES((unsigned long)uaddr, op, futex_marker_timeout(timeout),
			     ret))

DECLARE_MARKER(futex_unlock_pi,
	       MARKER_PROTO(u32 __user *uaddr, int op, int ret),
	       MARKER_ARGS(uaddr, op, ret),
	       FUTEX_UNLOCK_PI_FORMAT,
	       MARKER_VALUES((unsigned long)uaddr, op, ret))

#endif /* _TRACE_MARKERS_FUTEX_H */
