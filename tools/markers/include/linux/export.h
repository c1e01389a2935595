/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_EXPORT_H
#define _MARKERS_ABI_LINUX_EXPORT_H

#include <assert.h>

/* A program exports nothing: only check that the name is one. */
#define EXPORT_SYMBOL_GPL(sym)	static_assert(sizeof(#sym) > 1, "")

#endif
