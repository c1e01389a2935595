/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_BITOPS_H
#define _MARKERS_ABI_LINUX_BITOPS_H

#include <linux/types.h>

#define BITS_PER_BYTE		8
#define GENMASK_ULL(h, l)	\
	((~0ULL << (l)) & (~0ULL >> (64 - 1 - (h))))

static inline s64 sign_extend64(u64 value, int index)
{
	int shift = 63 - index;

	return (s64)(value << shift) >> shift;
}

#endif
