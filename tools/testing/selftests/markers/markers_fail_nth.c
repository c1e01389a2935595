// SPDX-License-Identifier: GPL-2.0
/*
 * markers_fail_nth - make the Nth allocation of one system call fail
 *
 * Usage: markers_fail_nth N rmmod MODULE
 *        markers_fail_nth N write FILE TEXT
 *
 * Writes N to /proc/thread-self/fail-nth (fault injection: the Nth
 * allocation the task makes from then on fails, with failslab's
 * ignore-gfp-wait off for GFP_KERNEL ones), then makes the one call:
 * delete_module(2) of MODULE, or write(2) of TEXT to FILE. Prints one
 * line, "ret R injected I": R is 0 or -errno of the call, I is 1 if the
 * Nth allocation came (and failed) during it, else 0. Exits 0 unless the
 * set-up failed (1), so that the caller judges the result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FAIL_NTH	"/proc/thread-self/fail-nth"

int main(int argc, char **argv)
{
	char buf[32];
	int fd, ret = 0;
	ssize_t n;

	if (argc < 4 || (strcmp(argv[2], "rmmod") && strcmp(argv[2], "write")) ||
	    (!strcmp(argv[2], "write") && argc < 5)) {
		fprintf(stderr, "usage: %s N rmmod MODULE | N write FILE TEXT\n",
			argv[0]);
		return 1;
	}
	fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(FAIL_NTH);
		return 1;
	}
	if (!strcmp(argv[2], "write")) {
		int out = open(argv[3], O_WRONLY | O_CLOEXEC);

		if (out < 0) {
			perror(argv[3]);
			return 1;
		}
		if (write(fd, argv[1], strlen(argv[1])) < 0) {
			perror(FAIL_NTH);
			return 1;
		}
		if (write(out, argv[4], strlen(argv[4])) < 0)
			ret = -errno;
		close(out);
	} else {
		if (write(fd, argv[1], strlen(argv[1])) < 0) {
			perror(FAIL_NTH);
			return 1;
		}
		if (syscall(__NR_delete_module, argv[3], O_NONBLOCK))
			ret = -errno;
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0) {
		perror(FAIL_NTH);
		return 1;
	}
	buf[n] = '\0';
	/* Left unused: clear it, so that no later call of this task fails */
	if (atoi(buf) > 0 && pwrite(fd, "0", 1, 0) < 0) {
		perror(FAIL_NTH);
		return 1;
	}
	printf("ret %d injected %d\n", ret, atoi(buf) == 0);
	close(fd);
	return 0;
}
