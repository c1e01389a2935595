// SPDX-License-Identifier: GPL-2.0
/*
 * The futex typed markers: what include/trace/markers/futex.h declares
 * (each marker's name-wide state, static call and iterator) is defined
 * here, once. Each is exported for tracer modules' typed probes: the
 * declaration and the static call's trampoline, never its key.
 */
#define CREATE_MARKERS
#include <trace/markers/futex.h>

EXPORT_MARKER_SYMBOL_GPL(futex_wait);
EXPORT_MARKER_SYMBOL_GPL(futex_wake);
EXPORT_MARKER_SYMBOL_GPL(futex_requeue);
EXPORT_MARKER_SYMBOL_GPL(futex_lock_pi);
EXPORT_MARKER_SYMBOL_GPL(futex_unlock_pi);
