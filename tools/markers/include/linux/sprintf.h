/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MARKERS_ABI_LINUX_SPRINTF_H
#define _MARKERS_ABI_LINUX_SPRINTF_H

#include <stdio.h>

#endif
