// SPDX-License-Identifier: GPL-2.0
/*
 * bench-bpf: the BPF rows of `make bench`, run by harness/bench-init in
 * the benchmark guest once marker_benchmark.ko has loaded.
 *
 * One BPF program, a map counter (look up element 0 of an array map, add
 * 1), loaded through bpf(2) twice: as a tracepoint program, attached to
 * the perf event of a trace event (PERF_EVENT_IOC_SET_BPF, as libbpf
 * attaches: pid -1, CPU 0), and as a raw tracepoint program
 * (BPF_RAW_TRACEPOINT_OPEN). With it attached, the module measures the
 * site's loop (marker_benchmark/measure: "measure SLOT LOOP"), net of the
 * same empty loop for every figure, and prints the rows
 * ("row TP MK MEASURE") among its own. After each measure the counter
 * must hold runs * loops: the program ran at every hit.
 *
 * Rows:
 *   BPF program on the TRACE_EVENT marker_benchmark:marker_bench vs on
 *   markers:marker_bench (trace_mark()) and markers:marker_bench_typed
 *   (mark_<name>()), each through its perf path;
 *   raw BPF program on the tracepoint marker_bench vs on the typed marker
 *   marker_bench_typed ("markers:marker_bench_typed").
 *
 * Exits 0 when every row was measured and every count is right.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MEASURE		"/sys/kernel/debug/marker_benchmark/measure"
#define PARAMS		"/sys/module/marker_benchmark/parameters/"
#define EVENTS		"/sys/kernel/tracing/events/"

static int map_fd;
static unsigned long long hits;	/* runs * loops */

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static unsigned long long read_number(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0) {
		fprintf(stderr, "bench-bpf: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
	return strtoull(buf, NULL, 10);
}

static void tell(const char *what)
{
	int fd = open(MEASURE, O_WRONLY);

	if (fd < 0 || write(fd, what, strlen(what)) != (ssize_t)strlen(what)) {
		fprintf(stderr, "bench-bpf: %s <- %s: %s\n", MEASURE, what,
			strerror(errno));
		exit(1);
	}
	close(fd);
}

static uint64_t counter(uint64_t *set)
{
	union bpf_attr attr;
	uint32_t key = 0;
	uint64_t v = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)(set ? set : &v);
	if (sys_bpf(set ? BPF_MAP_UPDATE_ELEM : BPF_MAP_LOOKUP_ELEM, &attr)) {
		perror("bench-bpf: map");
		exit(1);
	}
	return v;
}

/* Measure LOOP into SLOT, without a program. */
static void measure_plain(int slot, const char *loop)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "measure %d %s", slot, loop);
	tell(cmd);
}

/* Measure LOOP into SLOT with the program attached; check it ran. */
static void measure(int slot, const char *loop)
{
	uint64_t zero = 0, n;

	counter(&zero);
	measure_plain(slot, loop);
	n = counter(NULL);
	if (n != hits) {
		fprintf(stderr, "bench-bpf: %s: the program counted %llu hits, not %llu\n",
			loop, (unsigned long long)n, hits);
		exit(1);
	}
}

static void row(int tp, int mk, const char *what)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "row %d %d %s", tp, mk, what);
	tell(cmd);
}

/* r0 = map[0]; if (r0) *r0 += 1; return 0 */
static int load_counter(enum bpf_prog_type type)
{
	struct bpf_insn insn[] = {
		{ .code = BPF_ST | BPF_W | BPF_MEM, .dst_reg = BPF_REG_10,
		  .off = -4, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2,
		  .imm = -4 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
		{ 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0,
		  .off = 3, .imm = 0 },
		{ .code = BPF_LDX | BPF_DW | BPF_MEM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_0 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_1,
		  .imm = 1 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = BPF_REG_0,
		  .src_reg = BPF_REG_1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[16384];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)insn;
	attr.insn_cnt = sizeof(insn) / sizeof(insn[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		fprintf(stderr, "bench-bpf: BPF_PROG_LOAD: %s\n%s", strerror(errno),
			log);
		exit(1);
	}
	return fd;
}

/* The perf event of EVENT (system/name), the program attached. */
static int perf_attach(const char *event, int prog_fd)
{
	struct perf_event_attr attr;
	char path[128];
	int fd;

	snprintf(path, sizeof(path), EVENTS "%s/id", event);
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = read_number(path);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		fprintf(stderr, "bench-bpf: %s: %s\n", event, strerror(errno));
		exit(1);
	}
	return fd;
}

static int raw_attach(const char *name, int prog_fd)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)name;
	attr.raw_tracepoint.prog_fd = prog_fd;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
	if (fd < 0) {
		fprintf(stderr, "bench-bpf: BPF_RAW_TRACEPOINT_OPEN %s: %s\n",
			name, strerror(errno));
		exit(1);
	}
	return fd;
}

/* The loops of the module: trace_marker_bench(), trace_mark(), mark_<name>() */
static const char * const loops[] = { "tracepoint", "marker", "typed" };
/* The trace events of the three loops' sites */
static const char * const perf_events[] = {
	"marker_benchmark/marker_bench",
	"markers/marker_bench",
	"markers/marker_bench_typed",
};
/* The raw tracepoint names of the first and last */
static const char * const raw_names[] = {
	"marker_bench", "markers:marker_bench_typed",
};

int main(void)
{
	int tp_prog, raw_prog, fd, i;
	union bpf_attr attr;

	hits = read_number(PARAMS "runs") * read_number(PARAMS "loops");
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint64_t);
	attr.max_entries = 1;
	map_fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map_fd < 0) {
		perror("bench-bpf: BPF_MAP_CREATE");
		return 1;
	}
	tp_prog = load_counter(BPF_PROG_TYPE_TRACEPOINT);
	raw_prog = load_counter(BPF_PROG_TYPE_RAW_TRACEPOINT);

	for (i = 0; i < 3; i++) {
		fd = perf_attach(perf_events[i], tp_prog);
		measure(i, loops[i]);
		close(fd);
	}
	row(0, 1, "BPF program (map counter) on markers:<name>, perf path: trace_mark()");
	row(0, 2, "BPF program (map counter) on markers:<name>, perf path: mark_<name>()");

	for (i = 0; i < 2; i++) {
		fd = raw_attach(raw_names[i], raw_prog);
		measure(i, loops[2 * i]);
		close(fd);
	}
	row(0, 1, "raw BPF program (map counter) on a typed marker");

	/*
	 * What a typed site pays to reach a probe with a format, through the
	 * varargs entry: the entry of the varargs probes that the events of
	 * trace_mark() markers and of typed markers whose recorder's layout
	 * is not the event's take, in ftrace and perf (trace_mark()'s is a
	 * row of the module's own). A typed event's recorder, ftrace's and
	 * perf's, is reached as the empty typed probe is.
	 */
	tell("probe tracepoint 1");
	tell("probe typed 1");
	measure_plain(0, "tracepoint");
	measure_plain(1, "typed");
	tell("probe typed 0");
	tell("probe tracepoint 0");
	row(0, 1, "enabled, 1 empty probe with a format (the varargs entry): mark_<name>()");
	return 0;
}
