/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_STDARG_H
#define _MARKERS_ABI_LINUX_STDARG_H

#include <stdarg.h>

#endif
