/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the markers selftests written in C share: whole files, and the
 * test modules they load with finit_module(2).
 */
#ifndef MARKERS_UTIL_H
#define MARKERS_UTIL_H

/* Where the .ko files are when MARKERS_MODULE_DIR is unset. */
#define MARKERS_DEFAULT_MODULE_DIR	"/markers/modules"

char *read_file(const char *path);
int write_file(const char *path, const char *text);
const char *module_dir(void);
int load_module_file(const char *file);
int unload_module_name(const char *name);

#endif /* MARKERS_UTIL_H */
