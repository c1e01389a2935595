/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_CTYPE_H
#define _MARKERS_ABI_LINUX_CTYPE_H

#include <ctype.h>

#endif
