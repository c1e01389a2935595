/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one private header: the kernel's own include/linux/marker_format.h,
 * which kernel/trace/marker_format.c (built into this tool) and the tool
 * share, so that the parser and its structures cannot drift apart;
 * tools/include mirrors kernel headers as copies, and a copy of this one
 * would be a second definition to keep in step. It needs <linux/types.h>
 * and <linux/stdarg.h>, which tools/include has; errno is libc's. The
 * path is relative: tools/markers is two levels below the top of the
 * kernel tree.
 */
#include <errno.h>
#include "../../../../include/linux/marker_format.h"
