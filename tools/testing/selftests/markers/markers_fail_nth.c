// SPDX-License-Identifier: GPL-2.0
/*
 * markers_fail_nth - make the Nth allocation of one system call fail
 *
 * Usage: markers_fail_nth N rmmod MODULE
 *        markers_fail_nth N insmod FILE
 *        markers_fail_nth N write FILE TEXT
 *        markers_fail_nth N read FILE OUT
 *        markers_fail_nth N perf ID
 *
 * Writes N to /proc/thread-self/fail-nth (fault injection: the Nth
 * allocation the task makes from then on fails, with failslab's
 * ignore-gfp-wait off for GFP_KERNEL ones), then makes the one call:
 * delete_module(2) of MODULE, finit_module(2) of FILE, write(2) of TEXT
 * to FILE, read(2) of FILE to its end (what it read is then written to
 * OUT), or perf_event_open(2) of the tracepoint event ID
 * on CPU 0 (closed afterwards). Files are opened before, and closed
 * after, the call. Prints one line, "ret R injected I": R is 0 or -errno
 * of the call, I is 1 if the Nth allocation came (and failed) during it,
 * else 0. With N "count", no allocation fails and the line is "ret R
 * calls C": the call passed C fault-injection points (allocations), so
 * that a caller can aim at the last ones. Exits 0 unless the set-up
 * failed (1), so that the caller judges the result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FAIL_NTH	"/proc/thread-self/fail-nth"
/* "count": more fault points than any one call passes */
#define FAIL_NTH_COUNT	1000000

/* What a read takes: the markers listings are a few pages. */
#define READ_MAX	(1024 * 1024)

static int bad_usage(const char *prog)
{
	fprintf(stderr, "usage: %s N|count rmmod MODULE | insmod FILE | write FILE TEXT |\n"
		"\tread FILE OUT | perf ID\n", prog);
	return 1;
}

/* The arguments each call takes after N and its name. */
static int nr_args(const char *call)
{
	if (!strcmp(call, "write") || !strcmp(call, "read"))
		return 2;
	if (!strcmp(call, "rmmod") || !strcmp(call, "insmod") ||
	    !strcmp(call, "perf"))
		return 1;
	return -1;
}

static int perf_open(unsigned long long id)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.disabled = 1;
	return syscall(__NR_perf_event_open, &attr, -1, 0, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

int main(int argc, char **argv)
{
	bool count = argc > 1 && !strcmp(argv[1], "count");
	char buf[32], *data = NULL, *end;
	unsigned long long id = 0;
	int fd, file = -1, ret = 0, n;
	size_t len = 0;
	ssize_t r = 0;

	if (argc < 3 || nr_args(argv[2]) < 0 || argc != 3 + nr_args(argv[2]))
		return bad_usage(argv[0]);
	if (count)
		snprintf(buf, sizeof(buf), "%d", FAIL_NTH_COUNT);
	else
		snprintf(buf, sizeof(buf), "%s", argv[1]);
	fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(FAIL_NTH);
		return 1;
	}
	if (!strcmp(argv[2], "write") || !strcmp(argv[2], "read") ||
	    !strcmp(argv[2], "insmod")) {
		file = open(argv[3], (strcmp(argv[2], "write") ? O_RDONLY : O_WRONLY) |
			    O_CLOEXEC);
		if (file < 0) {
			perror(argv[3]);
			return 1;
		}
	}
	if (!strcmp(argv[2], "read")) {
		data = malloc(READ_MAX);
		if (!data) {
			perror("malloc");
			return 1;
		}
	}
	if (!strcmp(argv[2], "perf")) {
		errno = 0;
		id = strtoull(argv[3], &end, 10);
		if (errno || *end || end == argv[3])
			return bad_usage(argv[0]);
	}

	if (write(fd, buf, strlen(buf)) < 0) {
		perror(FAIL_NTH);
		return 1;
	}
	if (!strcmp(argv[2], "rmmod")) {
		if (syscall(__NR_delete_module, argv[3], O_NONBLOCK))
			ret = -errno;
	} else if (!strcmp(argv[2], "insmod")) {
		if (syscall(__NR_finit_module, file, "", 0))
			ret = -errno;
	} else if (!strcmp(argv[2], "write")) {
		if (write(file, argv[4], strlen(argv[4])) < 0)
			ret = -errno;
	} else if (!strcmp(argv[2], "read")) {
		while (len < READ_MAX &&
		       (r = read(file, data + len, READ_MAX - len)) > 0)
			len += r;
		if (len < READ_MAX && r < 0)
			ret = -errno;
	} else {
		file = perf_open(id);
		if (file < 0)
			ret = -errno;
	}

	r = pread(fd, buf, sizeof(buf) - 1, 0);
	if (r <= 0) {
		perror(FAIL_NTH);
		return 1;
	}
	buf[r] = '\0';
	n = atoi(buf);
	/* Left unused: clear it, so that no later call of this task fails */
	if (n > 0 && pwrite(fd, "0", 1, 0) < 0) {
		perror(FAIL_NTH);
		return 1;
	}
	close(fd);
	if (file >= 0)
		close(file);
	if (data) {
		FILE *out = fopen(argv[4], "w");

		if (!out || fwrite(data, 1, len, out) != len || fclose(out)) {
			perror(argv[4]);
			return 1;
		}
		free(data);
	}
	if (count)
		printf("ret %d calls %d\n", ret, FAIL_NTH_COUNT - n);
	else
		printf("ret %d injected %d\n", ret, n == 0);
	return 0;
}
