/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_STRING_H
#define _MARKERS_ABI_LINUX_STRING_H

#include <string.h>

#endif
