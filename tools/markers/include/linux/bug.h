/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_BUG_H
#define _MARKERS_ABI_LINUX_BUG_H

#include <stdbool.h>
#include <stdio.h>

static inline bool __markers_abi_warn(bool cond, const char *text)
{
	if (cond)
		fprintf(stderr, "markers-abi: internal warning: %s\n", text);
	return cond;
}

#define WARN_ON_ONCE(cond)	__markers_abi_warn(!!(cond), #cond)

#endif
