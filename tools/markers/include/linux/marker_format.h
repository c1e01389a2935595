/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own include/linux/marker_format.h, for building
 * kernel/trace/marker_format.c in user space: it needs only the types,
 * stdarg and errno definitions of the headers beside this one. Relative,
 * because the tool builds in a kernel tree and in this repository alike,
 * tools/markers two levels below the top in both.
 */
#include <errno.h>
#include "../../../../include/linux/marker_format.h"
