// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers the markers selftests written in C share (markers_util.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "markers_util.h"

/* All of @path as a string, or NULL with errno set; free() it. */
char *read_file(const char *path)
{
	size_t size = 4096, len = 0;
	char *buf, *bigger;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(size);
	while (buf) {
		n = read(fd, buf + len, size - len - 1);
		if (n <= 0) {
			if (n < 0) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		len += n;
		if (len + 1 == size) {
			size *= 2;
			bigger = realloc(buf, size);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	if (buf)
		buf[len] = '\0';
	n = errno;
	close(fd);
	errno = n;
	return buf;
}

/*
 * Write @text to @path in one write(): 0, -errno of open() or write(), or
 * -EIO if the file took only part of it.
 */
int write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

/*
 * The directory of the .ko files: $MARKERS_MODULE_DIR, else
 * $MARKERS_MODULES, else MARKERS_DEFAULT_MODULE_DIR.
 */
const char *module_dir(void)
{
	const char *dir = getenv("MARKERS_MODULE_DIR");

	if (!dir || !*dir)
		dir = getenv("MARKERS_MODULES");
	return dir && *dir ? dir : MARKERS_DEFAULT_MODULE_DIR;
}

/* finit_module(2) of module_dir()/@file: 0 or -errno. */
int load_module_file(const char *file)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", module_dir(), file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(__NR_finit_module, fd, "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

/* delete_module(2) of @name: 0 or -errno; -ENOENT if it is not loaded. */
int unload_module_name(const char *name)
{
	if (syscall(__NR_delete_module, name, O_NONBLOCK))
		return -errno;
	return 0;
}
