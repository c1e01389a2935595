// SPDX-License-Identifier: GPL-2.0
/*
 * sched_futex_test - the sched and futex markers, checked from user space
 *
 * Issues real futex(2) calls (waits with and without timeouts, wakes,
 * requeues, PI locks, and the failures EAGAIN, ETIMEDOUT, EINVAL, EPERM,
 * EDEADLK) and real context switches (a pipe ping-pong between two threads
 * pinned to two CPUs, a migration, thread and process creation and exit),
 * records the events of this process with test_markers_record, and checks:
 *
 *  - the number of events equals the number of operations issued;
 *  - every field holds what the test passed or got back (addresses, ops,
 *    values, timeouts, results, pids, names, priorities, CPUs);
 *  - the counters of samples/markers/futex-probes and sched-probes agree
 *    with the events.
 *
 * Environment:
 *   MARKERS_MODULE_DIR  directory holding test_markers_record.ko,
 *                       sched-probes.ko and futex-probes.ko; MARKERS_MODULES
 *                       is read when it is unset; default /markers/modules
 *
 * Needs root and debugfs. The sched tests need two CPUs. The futex counters
 * are system-wide: nothing else should issue futex calls meanwhile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* kselftest_harness.h's __timeout_handler() leaves a parameter unused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../kselftest_harness.h"
#pragma GCC diagnostic pop
#include "markers_util.h"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wclobbered"
#endif

#define DEBUGFS			"/sys/kernel/debug"
#define RECORD_TGID		DEBUGFS "/test_markers_record/tgid"
#define RECORD_EVENTS		DEBUGFS "/test_markers_record/events"
#define FUTEX_STATS		DEBUGFS "/futex-probes/stats"
#define SCHED_SWITCHES		DEBUGFS "/sched-probes/switches"
#define SCHED_LATENCY		DEBUGFS "/sched-probes/latency"

#define TEST_TIMEOUT		120
#define MAX_EVENTS		16384
#define MAX_FIELDS		16
#define MAX_EXPECTED		512
#define MAX_CPUS		4096
#define LINE_MAX_LEN		256
#define PING_ROUNDS		100
#define NR_WAITERS		3

enum test_module {
	RECORDER,
	SCHED_PROBES,
	FUTEX_PROBES,
	NR_TEST_MODULES,
};

static const struct {
	const char *file;
	const char *name;
} test_modules[NR_TEST_MODULES] = {
	[RECORDER] = { "test_markers_record.ko", "test_markers_record" },
	[SCHED_PROBES] = { "sched-probes.ko", "sched_probes" },
	[FUTEX_PROBES] = { "futex-probes.ko", "futex_probes" },
};

/* ---- Files and modules ---- */

static int load_module(enum test_module m)
{
	return load_module_file(test_modules[m].file);
}

static void unload_module(enum test_module m)
{
	unload_module_name(test_modules[m].name);
}

/* ---- Threads, CPUs ---- */

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

/* The first two CPUs this process may run on; false if there is one. */
static bool two_cpus(int *c0, int *c1)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	for (cpu = 0; cpu < CPU_SETSIZE && n < 2; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (n++ == 0)
			*c0 = cpu;
		else
			*c1 = cpu;
	}
	return n == 2;
}

/* Pin the calling thread to @cpu; 0 or -errno. */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* Kernel priority of a SCHED_OTHER task of nice @nice. */
static int prio_of_nice(int nice)
{
	return 120 + nice;
}

/*
 * pthread_join() returns once the kernel cleared the thread's tid, before
 * the thread's last futex wake (CLONE_CHILD_CLEARTID) and its last call
 * to the scheduler. Its task leaves /proc after that wake: wait for it.
 */
static void wait_task_gone(pid_t tid)
{
	char path[64];
	int tries;

	snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
	for (tries = 0; tries < 5000 && !access(path, F_OK); tries++)
		usleep(1000);
}

/* ---- Recorded events ---- */

struct event {
	char *name;
	int nr;
	char *key[MAX_FIELDS];
	char *val[MAX_FIELDS];
	char *line;		/* the line as read, for messages */
};

struct events {
	char *text;
	char *copy;
	struct event ev[MAX_EVENTS];
	int nr;
	long dropped;
	int unfinished;
};

static void record_start(struct __test_metadata *_metadata, pid_t tgid)
{
	char text[32];

	snprintf(text, sizeof(text), "%d\n", tgid);
	ASSERT_EQ(0, write_file(RECORD_TGID, text))
		TH_LOG("writing %d to " RECORD_TGID " should start recording", tgid);
}

static void record_stop(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, write_file(RECORD_TGID, "0\n"))
		TH_LOG("writing 0 to " RECORD_TGID " should stop recording");
}

/* Split "name k=v k=v" in place; a word without '=' continues a value. */
static void parse_event(char *line, struct event *e)
{
	char *tok, *save, *eq;

	memset(e, 0, sizeof(*e));
	e->name = strtok_r(line, " ", &save);
	while ((tok = strtok_r(NULL, " ", &save))) {
		eq = strchr(tok, '=');
		if (!eq && e->nr) {
			/* A name with a space: glue it back. */
			tok[-1] = ' ';
			continue;
		}
		if (!eq || e->nr == MAX_FIELDS)
			continue;
		*eq = '\0';
		e->key[e->nr] = tok;
		e->val[e->nr++] = eq + 1;
	}
}

/* Each test runs in a process of its own: one buffer will do. */
static struct events events_buf;

static void read_events(struct __test_metadata *_metadata, struct events *evs)
{
	char *line, *save, *lines[MAX_EVENTS];
	int i, n = 0;

	memset(evs, 0, sizeof(*evs));
	evs->text = read_file(RECORD_EVENTS);
	ASSERT_NE(NULL, evs->text) TH_LOG(RECORD_EVENTS " should be readable");
	evs->copy = strdup(evs->text);
	ASSERT_NE(NULL, evs->copy);
	for (line = strtok_r(evs->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "# dropped %ld", &evs->dropped) == 1)
			continue;
		if (line[0] == '#') {
			evs->unfinished++;
			continue;
		}
		ASSERT_LT(n, MAX_EVENTS);
		lines[n++] = line;
	}
	/* Keep an unsplit copy of each line for messages. */
	for (line = strtok_r(evs->copy, "\n", &save), i = 0; line && i < n;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		evs->ev[i++].line = line;
	}
	for (i = 0; i < n; i++) {
		line = evs->ev[i].line;
		parse_event(lines[i], &evs->ev[i]);
		evs->ev[i].line = line;
	}
	evs->nr = n;
	EXPECT_EQ(0, evs->dropped)
		TH_LOG("the recorder should have room for every event");
	EXPECT_EQ(0, evs->unfinished)
		TH_LOG("every recorded event should be complete once recording stops");
}

/*
 * Wait until the recorder holds a @name event with " @key=@value": a
 * task's sched_process_exit comes after the parent's wait() returned.
 */
static void wait_for_event(const char *name, const char *key, long value)
{
	char *text, *line, *save, want[64];
	int tries;

	snprintf(want, sizeof(want), " %s=%ld ", key, value);
	for (tries = 0; tries < 5000; tries++) {
		text = read_file(RECORD_EVENTS);
		for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, name, strlen(name)) &&
			    line[strlen(name)] == ' ' && strstr(line, want))
				break;
		free(text);
		if (line)
			return;
		usleep(1000);
	}
}

static void free_events(struct events *evs)
{
	free(evs->text);
	free(evs->copy);
}

static const char *field(const struct event *e, const char *key)
{
	int i;

	for (i = 0; i < e->nr; i++)
		if (!strcmp(e->key[i], key))
			return e->val[i];
	return NULL;
}

/* A numeric field (decimal, or hex with 0x); LLONG_MIN if absent. */
static long long num(const struct event *e, const char *key)
{
	const char *v = field(e, key);

	if (!v)
		return LLONG_MIN;
	return (long long)strtoull(v, NULL, 0);
}

static bool is(const struct event *e, const char *name)
{
	return e->name && !strcmp(e->name, name);
}

/* ---- Futex calls, and the events they should give ---- */

/*
 * Each futex call of a test is logged as the event line the recorder
 * should show for it; the logs of all threads form one multiset.
 */
static char expected[MAX_EXPECTED][LINE_MAX_LEN];
static int nr_expected;

static void expect(const char *fmt, ...)
{
	int i = __atomic_fetch_add(&nr_expected, 1, __ATOMIC_RELAXED);
	va_list ap;

	if (i >= MAX_EXPECTED)
		return;
	va_start(ap, fmt);
	vsnprintf(expected[i], LINE_MAX_LEN, fmt, ap);
	va_end(ap);
}

static int futex_ret(long r)
{
	return r < 0 ? -errno : (int)r;
}

static long sys_futex(void *uaddr, int op, unsigned int val,
		      const struct timespec *timeout, void *uaddr2,
		      unsigned int val3)
{
	return syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/* An absolute time @ms milliseconds from now on @clock. */
static struct timespec abs_in(clockid_t clock, int ms)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_nsec += ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

/*
 * FUTEX_WAIT (no timeout here) or FUTEX_WAIT_BITSET (absolute timeout or
 * none). FUTEX_WAIT waits with every bitset bit.
 */
static int issue_wait(unsigned int *uaddr, int op, unsigned int val, unsigned int bitset,
		      const struct timespec *abs)
{
	int ret;

	ret = futex_ret(sys_futex(uaddr, op, val, abs, NULL, bitset));
	expect("futex_wait uaddr=0x%lx op=%d val=%u bitset=0x%x timeout_ns=%lld ret=%d",
	       (unsigned long)uaddr, op, val,
	       op == FUTEX_WAIT_PRIVATE ? 0xffffffffU : bitset,
	       abs ? ts_ns(abs) : -1LL, ret);
	return ret;
}

/* FUTEX_WAKE or FUTEX_WAKE_BITSET. */
static int issue_wake(unsigned int *uaddr, int op, int nr_wake, unsigned int bitset)
{
	int ret;

	ret = futex_ret(sys_futex(uaddr, op, nr_wake, NULL, NULL, bitset));
	expect("futex_wake uaddr=0x%lx op=%d nr_wake=%d bitset=0x%x ret=%d",
	       (unsigned long)uaddr, op, nr_wake,
	       op == FUTEX_WAKE_PRIVATE ? 0xffffffffU : bitset, ret);
	return ret;
}

#define REQUEUE_LINE \
	"futex_requeue uaddr=0x%lx op=%d nr_wake=%d nr_requeue=%d uaddr2=0x%lx cmpval=%u ret=%d"

static int issue_requeue(unsigned int *uaddr, int op, int nr_wake, int nr_requeue,
			 unsigned int *uaddr2, unsigned int cmpval)
{
	int ret;

	ret = futex_ret(sys_futex(uaddr, op, nr_wake,
				  (const struct timespec *)(unsigned long)nr_requeue,
				  uaddr2, cmpval));
	expect(REQUEUE_LINE, (unsigned long)uaddr, op, nr_wake, nr_requeue,
	       (unsigned long)uaddr2, cmpval, ret);
	return ret;
}

/* FUTEX_LOCK_PI (absolute CLOCK_REALTIME timeout or none) or TRYLOCK_PI. */
static int issue_lock_pi(unsigned int *uaddr, int op, const struct timespec *abs)
{
	int ret;

	ret = futex_ret(sys_futex(uaddr, op, 0, abs, NULL, 0));
	expect("futex_lock_pi uaddr=0x%lx op=%d timeout_ns=%lld ret=%d",
	       (unsigned long)uaddr, op, abs ? ts_ns(abs) : -1LL, ret);
	return ret;
}

static int issue_unlock_pi(unsigned int *uaddr)
{
	int ret;

	ret = futex_ret(sys_futex(uaddr, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL,
				  NULL, 0));
	expect("futex_unlock_pi uaddr=0x%lx op=%d ret=%d",
	       (unsigned long)uaddr, FUTEX_UNLOCK_PI_PRIVATE, ret);
	return ret;
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * The futex events on the addresses [@lo, @hi) are exactly the calls
 * logged with expect(), field for field.
 */
static void check_futex_events(struct __test_metadata *_metadata,
			       const struct events *evs, const void *lo,
			       const void *hi)
{
	static char *want[MAX_EXPECTED], *got[MAX_EVENTS];
	int i, nr_want, nr_got = 0;
	unsigned long a;

	ASSERT_LE(nr_expected, MAX_EXPECTED);
	nr_want = nr_expected;
	for (i = 0; i < nr_want; i++)
		want[i] = expected[i];
	for (i = 0; i < evs->nr; i++) {
		if (strncmp(evs->ev[i].name, "futex_", 6))
			continue;
		a = (unsigned long)num(&evs->ev[i], "uaddr");
		if (a < (unsigned long)lo || a >= (unsigned long)hi)
			continue;
		got[nr_got++] = evs->ev[i].line;
	}
	qsort(want, nr_want, sizeof(*want), cmp_lines);
	qsort(got, nr_got, sizeof(*got), cmp_lines);

	EXPECT_EQ(nr_want, nr_got)
		TH_LOG("the test issued %d futex calls on its words, %d events were recorded",
		       nr_want, nr_got);
	for (i = 0; i < nr_want && i < nr_got; i++) {
		EXPECT_STREQ(want[i], got[i])
			TH_LOG("event %d of the sorted lists differs from the call issued", i);
	}
}

/* ---- futex-probes/stats ---- */

static const char * const futex_ops[] = {
	"wait", "wake", "requeue", "lock_pi", "unlock_pi",
};

#define NR_FUTEX_OPS	5

struct futex_stats {
	long calls[NR_FUTEX_OPS];
	long failures[NR_FUTEX_OPS];
	int last_error[NR_FUTEX_OPS];
};

static void read_futex_stats(struct __test_metadata *_metadata,
			     struct futex_stats *st)
{
	char *text = read_file(FUTEX_STATS), *line, *save, name[32];
	long calls, failures;
	int i, err, found = 0;

	ASSERT_NE(NULL, text) TH_LOG(FUTEX_STATS " should be readable");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%31s calls=%ld failures=%ld last_error=%d",
			   name, &calls, &failures, &err) != 4)
			continue;
		for (i = 0; i < NR_FUTEX_OPS; i++) {
			if (strcmp(name, futex_ops[i]))
				continue;
			st->calls[i] = calls;
			st->failures[i] = failures;
			st->last_error[i] = err;
			found++;
		}
	}
	free(text);
	ASSERT_EQ(NR_FUTEX_OPS, found)
		TH_LOG(FUTEX_STATS " should list the 5 operations");
}

/*
 * futex-probes counted, between @before and @after, the calls and failures
 * recorded, and reports the last recorded error of each operation.
 */
static void check_futex_stats(struct __test_metadata *_metadata,
			      const struct events *evs,
			      const struct futex_stats *before,
			      const struct futex_stats *after)
{
	long calls, failures;
	char name[32];
	int i, op, last;

	for (op = 0; op < NR_FUTEX_OPS; op++) {
		snprintf(name, sizeof(name), "futex_%s", futex_ops[op]);
		calls = 0;
		failures = 0;
		last = 0;
		for (i = 0; i < evs->nr; i++) {
			if (!is(&evs->ev[i], name))
				continue;
			calls++;
			if (num(&evs->ev[i], "ret") < 0) {
				failures++;
				last = (int)num(&evs->ev[i], "ret");
			}
		}
		EXPECT_EQ(calls, after->calls[op] - before->calls[op])
			TH_LOG("futex-probes should count the %ld %s events recorded",
			       calls, name);
		EXPECT_EQ(failures, after->failures[op] - before->failures[op])
			TH_LOG("futex-probes should count the %ld failed %s events",
			       failures, name);
		if (failures) {
			EXPECT_EQ(last, after->last_error[op])
				TH_LOG("futex-probes should report %s's last error %d",
				       name, last);
		}
	}
}

/* ---- sched-probes ---- */

struct sched_stats {
	long switches[MAX_CPUS];
	long total;
	long samples;
	long bucket_sum;
	int bad_buckets;
};

static void read_sched_stats(struct __test_metadata *_metadata,
			     struct sched_stats *st)
{
	char *text, *line, *save;
	unsigned long long lo, hi;
	long n;
	int cpu;

	memset(st, 0, sizeof(*st));
	text = read_file(SCHED_SWITCHES);
	ASSERT_NE(NULL, text) TH_LOG(SCHED_SWITCHES " should be readable");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "cpu%d %ld", &cpu, &n) == 2 &&
		    cpu >= 0 && cpu < MAX_CPUS)
			st->switches[cpu] = n;
		else if (sscanf(line, "total %ld", &n) == 1)
			st->total = n;
	}
	free(text);

	text = read_file(SCHED_LATENCY);
	ASSERT_NE(NULL, text) TH_LOG(SCHED_LATENCY " should be readable");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llu %llu %ld", &lo, &hi, &n) == 3) {
			st->bucket_sum += n;
			/* log2 buckets: 0-0, 1-1, 2-3, 4-7, ... */
			if (lo > hi || (lo && (lo & (lo - 1))) ||
			    (lo && hi != 2 * lo - 1) || (!lo && hi))
				st->bad_buckets++;
		} else if (sscanf(line, "samples %ld", &n) == 1) {
			st->samples = n;
		}
	}
	free(text);
}

/* Context switches counted by the kernel, from /proc/stat. */
static long long proc_ctxt(void)
{
	char *text = read_file("/proc/stat"), *p;
	long long n = -1;

	if (!text)
		return -1;
	p = strstr(text, "\nctxt ");
	if (p)
		n = strtoll(p + 6, NULL, 10);
	free(text);
	return n;
}

/* ---- Fixture ---- */

/*
 * The fixture loads the three modules and unloads them at the end; one
 * already loaded (marker-demo.sh loads them to show their output) is used
 * as it is and left loaded: the checks only use differences of counters.
 */
FIXTURE(events) {
	pid_t tgid;
	bool loaded[NR_TEST_MODULES];
};

FIXTURE_SETUP(events)
{
	int m;

	self->tgid = getpid();
	nr_expected = 0;
	if (geteuid())
		SKIP(return, "needs root: loads modules and reads debugfs");
	if (access(DEBUGFS "/tracing", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (access(DEBUGFS "/tracing", F_OK))
		SKIP(return, "no " DEBUGFS "/tracing: no DEBUG_FS or TRACING?");
	for (m = 0; m < NR_TEST_MODULES; m++) {
		int ret = load_module(m);

		if (ret == -ENOENT)
			SKIP(return, "%s/%s is missing: see MARKERS_MODULE_DIR",
			     module_dir(), test_modules[m].file);
		if (ret == -EEXIST)
			continue;
		ASSERT_EQ(0, ret)
			TH_LOG("loading %s should succeed", test_modules[m].file);
		self->loaded[m] = true;
	}
}

FIXTURE_TEARDOWN(events)
{
	int m;

	write_file(RECORD_TGID, "0\n");
	for (m = NR_TEST_MODULES - 1; m >= 0; m--)
		if (self->loaded[m])
			unload_module(m);
}

/* The futex words of a test; events on other addresses are not checked. */
static struct {
	unsigned int word[4];
	unsigned int lock;
	unsigned int delimiter[2];
	char misaligned[8];
} words;

#define WORDS_END	((char *)&words + sizeof(words))

/* The futex statistics when the running test's futex calls began. */
static struct futex_stats futex_before;

/* The start of every futex test: the statistics, then recording @tgid. */
static void start_futex_calls(struct __test_metadata *_metadata, pid_t tgid)
{
	read_futex_stats(_metadata, &futex_before);
	record_start(_metadata, tgid);
}

/*
 * The end of every futex test: stop recording, read the statistics and the
 * events, then check that the events on the words below @hi are exactly
 * the calls logged with expect() and that futex-probes counted them since
 * start_futex_calls(). Returns the events, which the caller may read
 * further and frees.
 */
static struct events *check_futex_calls(struct __test_metadata *_metadata,
					const void *hi)
{
	struct events *evs = &events_buf;
	struct futex_stats after;

	record_stop(_metadata);
	read_futex_stats(_metadata, &after);
	read_events(_metadata, evs);
	check_futex_events(_metadata, evs, &words, hi);
	check_futex_stats(_metadata, evs, &futex_before, &after);
	return evs;
}

/* ---- futex tests ---- */

/* EAGAIN: the value at uaddr is not the one expected. */
TEST_F_TIMEOUT(events, futex_wait_eagain, TEST_TIMEOUT)
{
	start_futex_calls(_metadata, self->tgid);
	words.word[0] = 5;
	EXPECT_EQ(-EAGAIN, issue_wait(&words.word[0], FUTEX_WAIT_PRIVATE, 4, 0,
				      NULL))
		TH_LOG("FUTEX_WAIT should fail with EAGAIN when the word is not val");
	EXPECT_EQ(-EAGAIN, issue_wait(&words.word[0], FUTEX_WAIT_BITSET_PRIVATE,
				      6, 0x3, NULL))
		TH_LOG("so should FUTEX_WAIT_BITSET");
	free_events(check_futex_calls(_metadata, WORDS_END));
}

/* ETIMEDOUT, with a relative and an absolute timeout. */
TEST_F_TIMEOUT(events, futex_wait_timeout, TEST_TIMEOUT)
{
	struct timespec rel = { 0, 20 * 1000000L }, t0, t1, abs;
	long long timeout = LLONG_MIN;
	struct events *evs;
	int i, ret, n = 0;

	start_futex_calls(_metadata, self->tgid);
	/* Relative: the event has the absolute expiry the kernel computed. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = futex_ret(sys_futex(&words.word[3], FUTEX_WAIT_PRIVATE, 0, &rel,
				  NULL, 0));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_EQ(-ETIMEDOUT, ret);
	abs = abs_in(CLOCK_MONOTONIC, 20);
	EXPECT_EQ(-ETIMEDOUT, issue_wait(&words.word[0],
					 FUTEX_WAIT_BITSET_PRIVATE,
					 words.word[0], 0xff, &abs))
		TH_LOG("FUTEX_WAIT_BITSET with an absolute timeout should time out");
	/* The relative wait is checked below; the rest must match exactly. */
	evs = check_futex_calls(_metadata, &words.word[3]);
	for (i = 0; i < evs->nr; i++) {
		if (!is(&evs->ev[i], "futex_wait") ||
		    (unsigned long)num(&evs->ev[i], "uaddr") !=
		    (unsigned long)&words.word[3])
			continue;
		n++;
		timeout = num(&evs->ev[i], "timeout_ns");
		EXPECT_EQ(ret, num(&evs->ev[i], "ret"));
		EXPECT_EQ(FUTEX_WAIT_PRIVATE, num(&evs->ev[i], "op"));
		EXPECT_EQ(0xffffffffLL, num(&evs->ev[i], "bitset"));
	}
	EXPECT_EQ(1, n) TH_LOG("one relative FUTEX_WAIT should give one event");
	EXPECT_LE(ts_ns(&t0) + ts_ns(&rel), timeout)
		TH_LOG("the relative timeout's expiry should be after the call began + 20ms");
	EXPECT_GE(ts_ns(&t1) + ts_ns(&rel), timeout)
		TH_LOG("and before the call returned + 20ms");
	free_events(evs);
}

/* EINVAL: a misaligned futex word, and a wake with an empty bitset. */
TEST_F_TIMEOUT(events, futex_einval, TEST_TIMEOUT)
{
	start_futex_calls(_metadata, self->tgid);
	EXPECT_EQ(-EINVAL, issue_wait((unsigned int *)(words.misaligned + 1),
				      FUTEX_WAIT_PRIVATE, 0, 0, NULL))
		TH_LOG("FUTEX_WAIT on a misaligned word should fail with EINVAL");
	EXPECT_EQ(-EINVAL, issue_wake(&words.word[0], FUTEX_WAKE_BITSET_PRIVATE,
				      1, 0))
		TH_LOG("FUTEX_WAKE_BITSET with an empty bitset should fail with EINVAL");
	EXPECT_EQ(-EINVAL, issue_requeue(&words.word[0],
					 FUTEX_CMP_REQUEUE_PRIVATE, 1, 1,
					 (unsigned int *)(words.misaligned + 2), 0))
		TH_LOG("FUTEX_CMP_REQUEUE to a misaligned word should fail with EINVAL");
	EXPECT_EQ(-EINVAL, issue_lock_pi((unsigned int *)(words.misaligned + 3),
					 FUTEX_TRYLOCK_PI_PRIVATE, NULL))
		TH_LOG("FUTEX_TRYLOCK_PI on a misaligned word should fail with EINVAL");
	free_events(check_futex_calls(_metadata, WORDS_END));
}

static unsigned int waiters_done;
static int waiters_finished;

static pid_t waiter_tids[NR_WAITERS];

/* Wait on word[0] until the test says done; every call is logged. */
static void *waiter_main(void *arg)
{
	__atomic_store_n((pid_t *)arg, gettid_(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&waiters_done, __ATOMIC_ACQUIRE))
		issue_wait(&words.word[0], FUTEX_WAIT_PRIVATE, 0, 0, NULL);
	__atomic_fetch_add(&waiters_finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Whether thread @tid sleeps in futex(2) on @uaddr. */
static bool blocked_in_futex(pid_t tid, const void *uaddr)
{
	char path[64], *text;
	unsigned long nr, a;
	bool ret = false;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	text = read_file(path);
	if (text && sscanf(text, "%lu 0x%lx", &nr, &a) == 2)
		ret = nr == SYS_futex && a == (unsigned long)uaddr;
	free(text);
	return ret;
}

/* Start @n waiters and give them up to 5 s to block on word[0]. */
static void start_waiters(struct __test_metadata *_metadata,
			  pthread_t *threads, int n)
{
	int i, tries;

	waiters_done = 0;
	waiters_finished = 0;
	words.word[0] = 0;
	for (i = 0; i < n; i++) {
		waiter_tids[i] = 0;
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, waiter_main,
					    &waiter_tids[i]));
	}
	for (tries = 0; tries < 5000; tries++) {
		for (i = 0; i < n; i++)
			if (!__atomic_load_n(&waiter_tids[i], __ATOMIC_ACQUIRE) ||
			    (!blocked_in_futex(waiter_tids[i], &words.word[0]) &&
			     !blocked_in_futex(waiter_tids[i], &words.word[1])))
				break;
		if (i == n)
			break;
		usleep(1000);
	}
}

/* Wake everyone until all @n waiters are gone; every wake is logged. */
static void stop_waiters(pthread_t *threads, int n)
{
	int i;

	__atomic_store_n(&waiters_done, 1, __ATOMIC_RELEASE);
	words.word[0] = 1;
	while (__atomic_load_n(&waiters_finished, __ATOMIC_ACQUIRE) < n) {
		issue_wake(&words.word[0], FUTEX_WAKE_PRIVATE, INT_MAX, 0);
		issue_wake(&words.word[1], FUTEX_WAKE_PRIVATE, INT_MAX, 0);
		usleep(1000);
	}
	for (i = 0; i < n; i++) {
		pthread_join(threads[i], NULL);
		wait_task_gone(waiter_tids[i]);
	}
}

/* FUTEX_WAKE and FUTEX_WAKE_BITSET with and without waiters. */
TEST_F_TIMEOUT(events, futex_wake, TEST_TIMEOUT)
{
	pthread_t threads[NR_WAITERS];
	int woken;

	start_futex_calls(_metadata, self->tgid);
	EXPECT_EQ(0, issue_wake(&words.word[2], FUTEX_WAKE_PRIVATE, 3, 0))
		TH_LOG("a wake with no waiter should wake none");
	EXPECT_EQ(0, issue_wake(&words.word[2], FUTEX_WAKE_BITSET_PRIVATE, 1,
				0x10));

	start_waiters(_metadata, threads, 2);
	woken = issue_wake(&words.word[0], FUTEX_WAKE_PRIVATE, 1, 0);
	EXPECT_LE(0, woken);
	EXPECT_GE(1, woken) TH_LOG("nr_wake 1 should wake at most one waiter");
	stop_waiters(threads, 2);
	free_events(check_futex_calls(_metadata, WORDS_END));
}

/* FUTEX_CMP_REQUEUE (EAGAIN on a stale cmpval, then real) and REQUEUE. */
TEST_F_TIMEOUT(events, futex_requeue, TEST_TIMEOUT)
{
	pthread_t threads[NR_WAITERS];
	int ret;

	start_futex_calls(_metadata, self->tgid);
	start_waiters(_metadata, threads, NR_WAITERS);

	EXPECT_EQ(-EAGAIN, issue_requeue(&words.word[0],
					 FUTEX_CMP_REQUEUE_PRIVATE, 1, 1,
					 &words.word[1], 7))
		TH_LOG("FUTEX_CMP_REQUEUE with a stale cmpval should fail with EAGAIN");
	ret = issue_requeue(&words.word[0], FUTEX_CMP_REQUEUE_PRIVATE, 1, 1,
			    &words.word[1], 0);
	EXPECT_LE(0, ret);
	EXPECT_GE(2, ret) TH_LOG("wake 1 + requeue 1 should act on at most 2");
	ret = issue_requeue(&words.word[0], FUTEX_REQUEUE_PRIVATE, 0, INT_MAX,
			    &words.word[1], 12345);
	EXPECT_LE(0, ret);
	stop_waiters(threads, NR_WAITERS);
	free_events(check_futex_calls(_metadata, WORDS_END));
}

enum pi_step {
	PI_TRYLOCK,		/* EAGAIN: the lock is held */
	PI_UNLOCK_NOT_OWNER,	/* EPERM */
	PI_LOCK_TIMEOUT,	/* ETIMEDOUT */
	PI_LOCK,		/* blocks until the owner unlocks */
};

static int pi_results[4];
static int pi_stage;
static pid_t pi_tid;

/* Another thread's view of the lock the main thread holds. */
static void *pi_contender(void *arg)
{
	unsigned int *lock = arg;
	struct timespec abs;

	__atomic_store_n(&pi_tid, gettid_(), __ATOMIC_RELEASE);

	pi_results[PI_TRYLOCK] = issue_lock_pi(lock, FUTEX_TRYLOCK_PI_PRIVATE,
					       NULL);
	pi_results[PI_UNLOCK_NOT_OWNER] = issue_unlock_pi(lock);
	abs = abs_in(CLOCK_REALTIME, 20);
	pi_results[PI_LOCK_TIMEOUT] = issue_lock_pi(lock, FUTEX_LOCK_PI_PRIVATE,
						    &abs);
	__atomic_store_n(&pi_stage, PI_LOCK, __ATOMIC_RELEASE);
	pi_results[PI_LOCK] = issue_lock_pi(lock, FUTEX_LOCK_PI_PRIVATE, NULL);
	if (!pi_results[PI_LOCK])
		issue_unlock_pi(lock);
	return NULL;
}

/* FUTEX_LOCK_PI, TRYLOCK_PI and UNLOCK_PI: EDEADLK, EAGAIN, EPERM, ETIMEDOUT. */
TEST_F_TIMEOUT(events, futex_pi, TEST_TIMEOUT)
{
	pthread_t thread;
	int tries;

	start_futex_calls(_metadata, self->tgid);
	words.lock = 0;
	EXPECT_EQ(0, issue_lock_pi(&words.lock, FUTEX_LOCK_PI_PRIVATE, NULL))
		TH_LOG("locking a free PI futex should succeed");
	EXPECT_EQ((unsigned int)gettid_(), words.lock & FUTEX_TID_MASK)
		TH_LOG("the lock word should hold the owner's tid");
	EXPECT_EQ(-EDEADLK, issue_lock_pi(&words.lock, FUTEX_LOCK_PI_PRIVATE,
					  NULL))
		TH_LOG("locking it again should fail with EDEADLK");

	ASSERT_EQ(0, pthread_create(&thread, NULL, pi_contender, &words.lock));
	/* Let the contender block in its last FUTEX_LOCK_PI, or give up. */
	for (tries = 0; tries < 1000 &&
	     __atomic_load_n(&pi_stage, __ATOMIC_ACQUIRE) != PI_LOCK; tries++)
		usleep(10000);
	usleep(100000);
	EXPECT_EQ(0, issue_unlock_pi(&words.lock));
	pthread_join(thread, NULL);
	wait_task_gone(pi_tid);
	EXPECT_EQ(-EAGAIN, pi_results[PI_TRYLOCK])
		TH_LOG("FUTEX_TRYLOCK_PI on a held lock should fail with EAGAIN");
	EXPECT_EQ(-EPERM, pi_results[PI_UNLOCK_NOT_OWNER])
		TH_LOG("FUTEX_UNLOCK_PI by a thread that does not own it should fail with EPERM");
	EXPECT_EQ(-ETIMEDOUT, pi_results[PI_LOCK_TIMEOUT])
		TH_LOG("FUTEX_LOCK_PI with a timeout on a held lock should time out");
	EXPECT_EQ(0, pi_results[PI_LOCK])
		TH_LOG("FUTEX_LOCK_PI should succeed once the owner unlocks");
	free_events(check_futex_calls(_metadata, WORDS_END));
}

/* ---- sched tests ---- */

struct pinger {
	const char *name;
	int cpu;
	int nice;
	int rfd, wfd;
	bool first;
	pid_t tid;
	int err;
	unsigned int *delimiter;
	struct rusage r0, r1;
};

static int ready_threads;

static void *pinger_main(void *arg)
{
	struct pinger *p = arg;
	char c = 'x';
	int i;

	p->tid = gettid_();
	p->err = pin(p->cpu);
	if (!p->err && setpriority(PRIO_PROCESS, 0, p->nice))
		p->err = -errno;
	prctl(PR_SET_NAME, p->name);
	__atomic_fetch_add(&ready_threads, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&ready_threads, __ATOMIC_ACQUIRE) < 2)
		;

	/* A futex event of this thread marks where its rounds begin. */
	issue_wake(p->delimiter, FUTEX_WAKE_PRIVATE, 1, 0);
	getrusage(RUSAGE_THREAD, &p->r0);
	for (i = 0; i < PING_ROUNDS && !p->err; i++) {
		if (p->first && write(p->wfd, &c, 1) != 1)
			p->err = -EIO;
		if (read(p->rfd, &c, 1) != 1)
			p->err = -EIO;
		if (!p->first && write(p->wfd, &c, 1) != 1)
			p->err = -EIO;
	}
	getrusage(RUSAGE_THREAD, &p->r1);
	issue_wake(p->delimiter, FUTEX_WAKE_PRIVATE, 1, 0);
	return NULL;
}

/* Index of the @nth (from 0) futex_wake on @uaddr, or -1. */
static int find_wake(const struct events *evs, const void *uaddr, int nth)
{
	int i;

	for (i = 0; i < evs->nr; i++)
		if (is(&evs->ev[i], "futex_wake") &&
		    (unsigned long)num(&evs->ev[i], "uaddr") ==
		    (unsigned long)uaddr && nth-- == 0)
			return i;
	return -1;
}

/* The events of @p between its delimiters agree with its own counters. */
static void check_pinger(struct __test_metadata *_metadata,
			 const struct events *evs, const struct pinger *p,
			 pid_t tgid)
{
	long out = 0, in = 0, voluntary = 0, wakeups = 0;
	long nvcsw = p->r1.ru_nvcsw - p->r0.ru_nvcsw;
	long nivcsw = p->r1.ru_nivcsw - p->r0.ru_nivcsw;
	int begin, end, i;
	const struct event *e;

	begin = find_wake(evs, p->delimiter, 0);
	end = find_wake(evs, p->delimiter, 1);
	ASSERT_LE(0, begin) TH_LOG("%s's first delimiter should be recorded", p->name);
	ASSERT_LT(begin, end) TH_LOG("%s's second delimiter should be recorded", p->name);

	for (i = begin + 1; i < end; i++) {
		e = &evs->ev[i];
		if (is(e, "sched_switch")) {
			if (num(e, "prev_pid") == p->tid) {
				out++;
				EXPECT_STREQ(p->name, field(e, "prev_comm"));
				EXPECT_EQ(tgid, num(e, "prev_tgid"));
				EXPECT_EQ(prio_of_nice(p->nice), num(e, "prev_prio"))
					TH_LOG("%s has nice %d", p->name, p->nice);
				EXPECT_EQ(p->cpu, num(e, "cpu"))
					TH_LOG("%s is pinned to CPU %d: %s",
					       p->name, p->cpu, e->line);
				if (num(e, "prev_state")) {
					voluntary++;
					EXPECT_EQ(1, num(e, "prev_state"))
						TH_LOG("%s blocks only in read(): %s",
						       p->name, e->line);
				}
			}
			if (num(e, "next_pid") == p->tid) {
				in++;
				EXPECT_STREQ(p->name, field(e, "next_comm"));
				EXPECT_EQ(tgid, num(e, "next_tgid"));
				EXPECT_EQ(prio_of_nice(p->nice), num(e, "next_prio"));
				EXPECT_EQ(p->cpu, num(e, "cpu"));
			}
		} else if (is(e, "sched_wakeup") && num(e, "pid") == p->tid) {
			wakeups++;
			EXPECT_STREQ(p->name, field(e, "comm"));
			EXPECT_EQ(tgid, num(e, "tgid"));
			EXPECT_EQ(prio_of_nice(p->nice), num(e, "prio"));
			EXPECT_EQ(p->cpu, num(e, "cpu"))
				TH_LOG("%s is woken on its CPU %d", p->name, p->cpu);
		}
	}
	EXPECT_EQ(out, in)
		TH_LOG("%s runs at both delimiters: as many switches out (%ld) as in (%ld)",
		       p->name, out, in);
	EXPECT_EQ(nvcsw, voluntary)
		TH_LOG("%s: switches out with a non-zero prev_state should be its nvcsw delta",
		       p->name);
	EXPECT_LE(nivcsw, out - voluntary)
		TH_LOG("%s: its nivcsw delta (%ld) should be among its preempted switches",
		       p->name, nivcsw);
	EXPECT_LE(voluntary, wakeups)
		TH_LOG("%s: every block (%ld) ends with a wakeup (%ld)",
		       p->name, voluntary, wakeups);
}

/* A pipe ping-pong between two threads pinned to two CPUs. */
TEST_F_TIMEOUT(events, sched_switch_ping_pong, TEST_TIMEOUT)
{
	struct sched_stats *before, *after;
	long long ctxt0, ctxt1;
	struct pinger p[2];
	pthread_t threads[2];
	static long on_cpu[MAX_CPUS];
	int ab[2], ba[2], c0, c1, i;
	struct events *evs;

	if (!two_cpus(&c0, &c1))
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pipe(ab));
	ASSERT_EQ(0, pipe(ba));
	p[0] = (struct pinger){
		.name = "mk_ping", .cpu = c0, .nice = 3, .rfd = ba[0],
		.wfd = ab[1], .first = true, .delimiter = &words.delimiter[0],
	};
	p[1] = (struct pinger){
		.name = "mk_pong", .cpu = c1, .nice = 6, .rfd = ab[0],
		.wfd = ba[1], .first = false, .delimiter = &words.delimiter[1],
	};
	ready_threads = 0;
	memset(on_cpu, 0, sizeof(on_cpu));
	before = calloc(1, sizeof(*before));
	after = calloc(1, sizeof(*after));
	evs = &events_buf;
	ASSERT_TRUE(before && after);

	ctxt0 = proc_ctxt();
	read_sched_stats(_metadata, before);
	record_start(_metadata, self->tgid);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, pinger_main, &p[i]));
	for (i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	record_stop(_metadata);
	read_sched_stats(_metadata, after);
	ctxt1 = proc_ctxt();

	ASSERT_EQ(0, p[0].err) TH_LOG("mk_ping should run its rounds");
	ASSERT_EQ(0, p[1].err) TH_LOG("mk_pong should run its rounds");
	read_events(_metadata, evs);
	for (i = 0; i < 2; i++)
		check_pinger(_metadata, evs, &p[i], self->tgid);
	for (i = 0; i < evs->nr; i++) {
		long long cpu = num(&evs->ev[i], "cpu");

		if (is(&evs->ev[i], "sched_switch") && cpu >= 0 && cpu < MAX_CPUS)
			on_cpu[cpu]++;
	}
	EXPECT_LT(0, p[0].r1.ru_nvcsw - p[0].r0.ru_nvcsw +
		  p[1].r1.ru_nvcsw - p[1].r0.ru_nvcsw)
		TH_LOG("%d round trips should block a thread at least once", PING_ROUNDS);

	/* sched-probes counts every switch, ours among them. */
	for (i = 0; i < MAX_CPUS; i++)
		if (on_cpu[i] > after->switches[i] - before->switches[i])
			break;
	EXPECT_EQ(MAX_CPUS, i)
		TH_LOG("sched-probes should count at least the switches recorded on each CPU");
	EXPECT_LE(after->total - before->total, ctxt1 - ctxt0)
		TH_LOG("sched-probes counts no more switches than /proc/stat's ctxt");
	EXPECT_LT(0, after->total - before->total);
	EXPECT_EQ(after->samples, after->bucket_sum)
		TH_LOG("the latency buckets should add up to samples");
	EXPECT_EQ(0, after->bad_buckets)
		TH_LOG("latency buckets should be log2 ranges");
	EXPECT_LT(before->samples, after->samples)
		TH_LOG("the ping-pong's wakeups should give wakeup-to-run samples");
	free_events(evs);
	free(before);
	free(after);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
}

/* Moving the running thread to another CPU is one migration. */
TEST_F_TIMEOUT(events, sched_migrate_task, TEST_TIMEOUT)
{
	int c0, c1, i, n = 0, nice = 4;
	pid_t tid = gettid_();
	struct events *evs;
	char comm[16];
	int begin, end;

	if (!two_cpus(&c0, &c1))
		SKIP(return, "needs two CPUs");
	evs = &events_buf;
	prctl(PR_SET_NAME, "mk_migrate");
	prctl(PR_GET_NAME, comm);
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, nice));
	ASSERT_EQ(0, pin(c0));
	ASSERT_EQ(c0, sched_getcpu());

	record_start(_metadata, self->tgid);
	issue_wake(&words.delimiter[0], FUTEX_WAKE_PRIVATE, 1, 0);
	ASSERT_EQ(0, pin(c1));
	EXPECT_EQ(c1, sched_getcpu());
	issue_wake(&words.delimiter[0], FUTEX_WAKE_PRIVATE, 1, 0);
	record_stop(_metadata);

	read_events(_metadata, evs);
	begin = find_wake(evs, &words.delimiter[0], 0);
	end = find_wake(evs, &words.delimiter[0], 1);
	ASSERT_LE(0, begin);
	ASSERT_LT(begin, end);
	for (i = begin + 1; i < end; i++) {
		const struct event *e = &evs->ev[i];

		if (!is(e, "sched_migrate_task") || num(e, "pid") != tid)
			continue;
		n++;
		EXPECT_EQ(c0, num(e, "orig_cpu"));
		EXPECT_EQ(c1, num(e, "dest_cpu"));
		EXPECT_EQ(self->tgid, num(e, "tgid"));
		EXPECT_STREQ(comm, field(e, "comm"));
		EXPECT_EQ(prio_of_nice(nice), num(e, "prio"));
	}
	EXPECT_EQ(1, n)
		TH_LOG("sched_setaffinity() from CPU %d to %d should migrate the thread once",
		       c0, c1);
	free_events(evs);
}

static void *exiting_thread(void *arg)
{
	*(pid_t *)arg = gettid_();
	return NULL;
}

/* A thread's creation, first wakeup and exit. */
TEST_F_TIMEOUT(events, sched_thread_fork_exit, TEST_TIMEOUT)
{
	int i, forks = 0, wakeups = 0, exits = 0, nice = 2;
	pid_t tid = gettid_(), child_tid = 0;
	struct events *evs;
	pthread_t thread;
	char comm[16];

	evs = &events_buf;
	prctl(PR_SET_NAME, "mk_parent");
	prctl(PR_GET_NAME, comm);
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, nice));
	record_start(_metadata, self->tgid);
	ASSERT_EQ(0, pthread_create(&thread, NULL, exiting_thread, &child_tid));
	pthread_join(thread, NULL);
	wait_for_event("sched_process_exit", "pid", child_tid);
	record_stop(_metadata);

	read_events(_metadata, evs);
	for (i = 0; i < evs->nr; i++) {
		const struct event *e = &evs->ev[i];

		if (is(e, "sched_process_fork") &&
		    num(e, "child_pid") == child_tid) {
			forks++;
			EXPECT_EQ(tid, num(e, "parent_pid"));
			EXPECT_EQ(self->tgid, num(e, "parent_tgid"));
			EXPECT_EQ(self->tgid, num(e, "child_tgid"))
				TH_LOG("a thread is in its creator's thread group");
			EXPECT_STREQ(comm, field(e, "parent_comm"));
			EXPECT_EQ(prio_of_nice(nice), num(e, "child_prio"))
				TH_LOG("a thread inherits its creator's nice %d", nice);
		} else if (is(e, "sched_wakeup_new") && num(e, "pid") == child_tid) {
			wakeups++;
			EXPECT_EQ(self->tgid, num(e, "tgid"));
			EXPECT_STREQ(comm, field(e, "comm"));
		} else if (is(e, "sched_process_exit") &&
			   num(e, "pid") == child_tid) {
			exits++;
			EXPECT_EQ(self->tgid, num(e, "tgid"));
			EXPECT_EQ(0, num(e, "exit_code"));
			EXPECT_EQ(prio_of_nice(nice), num(e, "prio"));
		}
	}
	EXPECT_EQ(1, forks) TH_LOG("one pthread_create() should be one sched_process_fork");
	EXPECT_EQ(1, wakeups) TH_LOG("and one sched_wakeup_new");
	EXPECT_EQ(1, exits) TH_LOG("and its end one sched_process_exit");
	free_events(evs);
}

/* A child process's creation, then its exit code as wait() reports it. */
TEST_F_TIMEOUT(events, sched_process_fork_exit, TEST_TIMEOUT)
{
	int i, forks = 0, exits = 0, status = 0, go[2];
	struct events *evs;
	pid_t child;
	char c;

	evs = &events_buf;
	ASSERT_EQ(0, pipe(go));
	record_start(_metadata, self->tgid);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		prctl(PR_SET_NAME, "mk_child");
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(7);
	}
	record_stop(_metadata);
	read_events(_metadata, evs);
	for (i = 0; i < evs->nr; i++) {
		const struct event *e = &evs->ev[i];

		if (!is(e, "sched_process_fork") || num(e, "child_pid") != child)
			continue;
		forks++;
		EXPECT_EQ(self->tgid, num(e, "parent_pid"));
		EXPECT_EQ(self->tgid, num(e, "parent_tgid"));
		EXPECT_EQ(child, num(e, "child_tgid"))
			TH_LOG("a process leads its own thread group");
	}
	EXPECT_EQ(1, forks) TH_LOG("one fork() should be one sched_process_fork");
	free_events(evs);

	/* Now the child's own events, up to its exit. */
	record_start(_metadata, child);
	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	wait_for_event("sched_process_exit", "pid", child);
	record_stop(_metadata);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(7, WEXITSTATUS(status));
	read_events(_metadata, evs);
	for (i = 0; i < evs->nr; i++) {
		const struct event *e = &evs->ev[i];

		if (!is(e, "sched_process_exit") || num(e, "pid") != child)
			continue;
		exits++;
		EXPECT_EQ(child, num(e, "tgid"));
		EXPECT_STREQ("mk_child", field(e, "comm"));
		EXPECT_EQ(status, num(e, "exit_code"))
			TH_LOG("exit_code should be the status waitpid() returned");
	}
	EXPECT_EQ(1, exits) TH_LOG("the child's exit should be one sched_process_exit");
	free_events(evs);
	close(go[0]);
	close(go[1]);
}

/* The recorder refuses what is not a tgid, and keeps what it recorded. */
TEST_F_TIMEOUT(events, recorder_rejects_bad_tgid, TEST_TIMEOUT)
{
	struct events *evs = &events_buf;
	char *text;

	record_start(_metadata, self->tgid);
	issue_wake(&words.word[0], FUTEX_WAKE_PRIVATE, 1, 0);
	record_stop(_metadata);
	EXPECT_EQ(-EINVAL, write_file(RECORD_TGID, "-1\n"))
		TH_LOG("a negative tgid should be refused with EINVAL");
	EXPECT_EQ(-EINVAL, write_file(RECORD_TGID, "self\n"))
		TH_LOG("a tgid that is not a number should be refused with EINVAL");
	text = read_file(RECORD_TGID);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("0\n", text) TH_LOG("a refused write should not start recording");
	free(text);
	read_events(_metadata, evs);
	check_futex_events(_metadata, evs, &words, WORDS_END);
	free_events(evs);
}

TEST_HARNESS_MAIN
