/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TOOLS_LINUX_STDARG_H
#define _TOOLS_LINUX_STDARG_H

/* The kernel's defines va_list and va_arg(); here they are the compiler's. */
#include <stdarg.h>

#endif /* _TOOLS_LINUX_STDARG_H */
