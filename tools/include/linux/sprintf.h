/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TOOLS_LINUX_SPRINTF_H
#define _TOOLS_LINUX_SPRINTF_H

/* The kernel's declares its snprintf() family; here they are libc's. */
#include <stdio.h>

#endif /* _TOOLS_LINUX_SPRINTF_H */
