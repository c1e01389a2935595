// SPDX-License-Identifier: GPL-2.0
/*
 * markers_work - a workload with known marker hits, for the tool tests
 *
 *   markers_work futex-wait VAL COUNT [OP]
 *	COUNT futex(FUTEX_WAIT) calls (OP, default FUTEX_WAIT_PRIVATE) with
 *	VAL on a word that holds VAL + 1: each fails at once with EAGAIN,
 *	so markers:futex_wait fires COUNT times with val=VAL, op=OP,
 *	ret=-11 and nothing blocks.
 *   markers_work sleep COUNT MS
 *	COUNT sleeps of MS milliseconds: COUNT times switched out, woken
 *	and switched in again (markers:sched_switch, sched_wakeup).
 *
 * Exits 0 when every call behaved as described, 1 otherwise.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int print_usage(void)
{
	fprintf(stderr, "usage: markers_work futex-wait VAL COUNT [OP]\n"
			"       markers_work sleep COUNT MS\n");
	return 2;
}

static int futex_waits(uint32_t val, long count, int op)
{
	uint32_t word = val + 1;
	long i;

	for (i = 0; i < count; i++) {
		if (syscall(SYS_futex, &word, op, val, NULL, NULL,
			    FUTEX_BITSET_MATCH_ANY) != -1 || errno != EAGAIN) {
			fprintf(stderr, "futex wait %ld: expected EAGAIN, got %s\n",
				i, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int sleeps(long count, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	long i;

	for (i = 0; i < count; i++) {
		if (nanosleep(&ts, NULL)) {
			perror("nanosleep");
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && argc <= 5 && !strcmp(argv[1], "futex-wait"))
		return futex_waits(strtoul(argv[2], NULL, 0),
				   strtol(argv[3], NULL, 0),
				   argc == 5 ? (int)strtol(argv[4], NULL, 0) :
					       FUTEX_WAIT_PRIVATE);
	if (argc == 4 && !strcmp(argv[1], "sleep"))
		return sleeps(strtol(argv[2], NULL, 0),
			      strtol(argv[3], NULL, 0));
	return print_usage();
}
