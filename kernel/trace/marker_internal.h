/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of kernel/trace/marker.c that its KUnit suite reaches: not an
 * interface for anything else.
 */
#ifndef _KERNEL_TRACE_MARKER_INTERNAL_H
#define _KERNEL_TRACE_MARKER_INTERNAL_H

#include <kunit/visibility.h>

struct marker_probe_array;

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * Allocates every probe array of the registry; a KUnit static stub makes
 * it fail to test what happens without memory.
 */
struct marker_probe_array *marker_array_alloc(unsigned int nr);
#endif

#endif /* _KERNEL_TRACE_MARKER_INTERNAL_H */
