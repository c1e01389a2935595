// SPDX-License-Identifier: GPL-2.0
/*
 * markers_load - futex and scheduler load from user space, on every CPU
 *
 * Usage: markers_load [SECONDS]
 *
 * On each online CPU, threads pinned to it run until SECONDS have passed
 * (default: until SIGTERM or SIGINT):
 *   - a futex ping-pong: two threads hand a word back and forth with
 *     FUTEX_WAIT and FUTEX_WAKE, so every round is two waits, two wakes
 *     and two context switches (the futex and sched markers' sites);
 *   - a pipe ping-pong: two threads pass a byte through two pipes;
 *   - a thread calling sched_yield().
 * Then prints one line: "futex_rounds N pipe_rounds N yields N".
 * Used by markers_stress.sh while the hot-site test toggles a marker.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"

#define MAX_CPUS	64

struct pair {
	int cpu;
	atomic_int word;		/* futex: whose turn, 0 or 1 */
	int ping[2], pong[2];		/* pipes */
	unsigned long futex_rounds, pipe_rounds, yields;
};

static struct pair pairs[MAX_CPUS];
static atomic_int stop;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Wait while *word == val, at most 10 ms, so that a stop is seen. */
static void futex_wait(atomic_int *word, int val)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

static void futex_wake(atomic_int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Side me of the futex ping-pong: wait for my turn, hand it over. */
static void futex_side(struct pair *p, int me)
{
	while (!atomic_load(&stop)) {
		while (atomic_load(&p->word) != me && !atomic_load(&stop))
			futex_wait(&p->word, !me);
		atomic_store(&p->word, !me);
		futex_wake(&p->word);
		if (me)
			p->futex_rounds++;
	}
	/* Let the other side out of its wait. */
	atomic_store(&p->word, !me);
	futex_wake(&p->word);
}

static void *futex_a(void *arg)
{
	struct pair *p = arg;

	pin(p->cpu);
	futex_side(p, 0);
	return NULL;
}

static void *futex_b(void *arg)
{
	struct pair *p = arg;

	pin(p->cpu);
	futex_side(p, 1);
	return NULL;
}

static void *pipe_pinger(void *arg)
{
	struct pair *p = arg;
	char c = 0;

	pin(p->cpu);
	while (!atomic_load(&stop)) {
		if (write(p->ping[1], &c, 1) != 1 || read(p->pong[0], &c, 1) != 1)
			break;
		p->pipe_rounds++;
	}
	close(p->ping[1]);	/* the ponger reads EOF and ends */
	return NULL;
}

static void *pipe_ponger(void *arg)
{
	struct pair *p = arg;
	char c;

	pin(p->cpu);
	while (read(p->ping[0], &c, 1) == 1)
		if (write(p->pong[1], &c, 1) != 1)
			break;
	return NULL;
}

static void *yielder(void *arg)
{
	struct pair *p = arg;

	pin(p->cpu);
	while (!atomic_load(&stop)) {
		sched_yield();
		p->yields++;
	}
	return NULL;
}

static void on_signal(int sig)
{
	atomic_store(&stop, 1);
}

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = { futex_a, futex_b, pipe_pinger, pipe_ponger, yielder };
	const int nfns = ARRAY_SIZE(fns);
	static pthread_t threads[MAX_CPUS][5];
	unsigned long futex_rounds = 0, pipe_rounds = 0, yields = 0;
	int seconds = argc > 1 ? atoi(argv[1]) : 0;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct sigaction sa = { .sa_handler = on_signal };
	int cpu, i;

	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (cpu = 0; cpu < ncpus; cpu++) {
		pairs[cpu].cpu = cpu;
		if (pipe(pairs[cpu].ping) || pipe(pairs[cpu].pong)) {
			perror("pipe");
			return 1;
		}
		for (i = 0; i < nfns; i++) {
			if (pthread_create(&threads[cpu][i], NULL, fns[i], &pairs[cpu])) {
				perror("pthread_create");
				return 1;
			}
		}
	}
	if (seconds > 0) {
		sleep(seconds);
		atomic_store(&stop, 1);
	}
	while (!atomic_load(&stop))
		usleep(100000);
	for (cpu = 0; cpu < ncpus; cpu++) {
		for (i = 0; i < nfns; i++)
			pthread_join(threads[cpu][i], NULL);
		futex_rounds += pairs[cpu].futex_rounds;
		pipe_rounds += pairs[cpu].pipe_rounds;
		yields += pairs[cpu].yields;
	}
	printf("futex_rounds %lu pipe_rounds %lu yields %lu\n", futex_rounds,
	       pipe_rounds, yields);
	return 0;
}
