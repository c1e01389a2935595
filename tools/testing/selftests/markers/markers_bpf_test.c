// SPDX-License-Identifier: GPL-2.0
/*
 * markers_bpf_test - BPF tracepoint programs on marker events
 *
 * Loads a hand-assembled BPF_PROG_TYPE_TRACEPOINT program through bpf(2)
 * (no libbpf) that reads the fields of markers:futex_wait at the offsets
 * the event's format file gives, attaches it to the event's perf event
 * with PERF_EVENT_IOC_SET_BPF and with BPF_LINK_CREATE, issues futex
 * waits with known values and checks what the program saw. Also checks
 * that the kernel names the event to bpf(2) users and refuses programs
 * of the wrong type or reading past the last field, on an event without
 * fields (markers:example_noargs of samples/markers) too.
 *
 * The raw_* tests attach a hand-assembled BPF_PROG_TYPE_RAW_TRACEPOINT
 * program to the typed marker futex_wait with
 * bpf(BPF_RAW_TRACEPOINT_OPEN, "markers:futex_wait"): it reads the
 * marker's C arguments as u64s, and the kernel refuses unknown names,
 * trace_mark() markers, reads past the arguments, other program types and
 * writable ones; the link is named as the marker (link info, fdinfo); on a
 * module's typed marker, the link holds the module, an open with each
 * allocation failing in turn (fail-nth) fails with ENOMEM or opens,
 * holding the module only while the link is open, and BPF_TASK_FD_QUERY
 * names the link as it names a raw tracepoint link. coming_module opens a
 * module's marker with BPF, perf and ftrace while the module's init runs,
 * then lets the init fail.
 *
 * Needs root, tracefs at /sys/kernel/tracing and CONFIG_BPF_EVENTS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "markers_util.h"

#define EVENTS		"/sys/kernel/tracing/events/markers"
#define EVENT_DIR	EVENTS "/futex_wait"

/* The program counts only waits whose val has this in its top 16 bits. */
#define MAGIC_HI	0x5a5a
#define MAGIC(i)	((MAGIC_HI << 16) | (i))

/* What the program stores in its one map element. */
struct seen {
	uint64_t hits;
	uint64_t val_sum;
	uint64_t op;		/* last op, as read (u32) */
	uint64_t ret;		/* last ret, as read (u32) */
	uint64_t timeout_ns;	/* last timeout_ns */
};

/* Offsets and sizes of a field in the record, from the format file. */
struct field {
	int offset;
	int size;
};

static int read_file_at(const char *dir, const char *file, char *buf,
			size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int read_event_file(const char *file, char *buf, size_t len)
{
	return read_file_at(EVENT_DIR, file, buf, len);
}

/* Find "field:TYPE NAME;\toffset:N;\tsize:N;" in the format file. */
static int find_field(const char *name, struct field *f)
{
	char buf[4096], want[64];
	char *line;

	if (read_event_file("format", buf, sizeof(buf)))
		return -1;
	snprintf(want, sizeof(want), " %s;", name);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *p = strstr(line, want);

		if (!strstr(line, "field:") || !p)
			continue;
		if (sscanf(p + strlen(want), " offset:%d; size:%d;",
			   &f->offset, &f->size) == 2)
			return 0;
	}
	return -1;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* ---- A small BPF assembler: one struct bpf_insn per call ---- */

struct prog {
	struct bpf_insn insn[64];
	int len;
};

static int emit(struct prog *p, uint8_t code, uint8_t dst, uint8_t src,
		int16_t off, int32_t imm)
{
	struct bpf_insn *i = &p->insn[p->len];

	i->code = code;
	i->dst_reg = dst;
	i->src_reg = src;
	i->off = off;
	i->imm = imm;
	return p->len++;
}

/* Point the jump at @at to the next instruction emitted. */
static void land(struct prog *p, int at)
{
	p->insn[at].off = p->len - at - 1;
}

static void ld_map_fd(struct prog *p, uint8_t dst, int fd)
{
	emit(p, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
	emit(p, 0, 0, 0, 0, 0);
}

/*
 * With r6 = ctx and r7 = val: if ((val >> 16) == MAGIC_HI) { r0 = &map[0];
 * r0->hits++; r0->val_sum += val; } else to the end, through the jumps
 * in @skip (emit_end() lands them).
 */
static void emit_count(struct prog *p, int map_fd, int skip[2])
{
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_7, 0, 0);
	emit(p, BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_1, 0, 0, 16);
	skip[0] = emit(p, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_1, 0, 0, MAGIC_HI);
	emit(p, BPF_ST | BPF_W | BPF_MEM, BPF_REG_10, 0, -4, 0);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
	ld_map_fd(p, BPF_REG_1, map_fd);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	skip[1] = emit(p, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(p, BPF_LDX | BPF_DW | BPF_MEM, BPF_REG_1, BPF_REG_0, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, 1);
	emit(p, BPF_STX | BPF_DW | BPF_MEM, BPF_REG_0, BPF_REG_1, 0, 0);
	emit(p, BPF_LDX | BPF_DW | BPF_MEM, BPF_REG_1, BPF_REG_0, 8, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_1, BPF_REG_7, 0, 0);
	emit(p, BPF_STX | BPF_DW | BPF_MEM, BPF_REG_0, BPF_REG_1, 8, 0);
}

/* *(u64 *)(r0 + @map_off) = *(@size *)(ctx + @ctx_off) */
static void emit_copy(struct prog *p, int size, int ctx_off, int map_off)
{
	emit(p, BPF_LDX | size | BPF_MEM, BPF_REG_1, BPF_REG_6, ctx_off, 0);
	emit(p, BPF_STX | BPF_DW | BPF_MEM, BPF_REG_0, BPF_REG_1, map_off, 0);
}

/* The end the jumps of emit_count() land on: return 0. */
static void emit_end(struct prog *p, int skip[2])
{
	land(p, skip[0]);
	land(p, skip[1]);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/*
 * if ((val >> 16) == MAGIC_HI) {
 *	s = map[0];
 *	s->hits++; s->val_sum += val;
 *	s->op = op; s->ret = ret; s->timeout_ns = timeout_ns;
 * }
 * return 0;
 */
static void build_counter(struct prog *p, int map_fd, struct field *val,
			  struct field *op, struct field *ret,
			  struct field *timeout)
{
	int skip[2];

	p->len = 0;
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	emit(p, BPF_LDX | BPF_W | BPF_MEM, BPF_REG_7, BPF_REG_6, val->offset, 0);
	emit_count(p, map_fd, skip);
	emit_copy(p, BPF_W, op->offset, 16);
	emit_copy(p, BPF_W, ret->offset, 24);
	emit_copy(p, BPF_DW, timeout->offset, 32);
	emit_end(p, skip);
}

static char verifier_log[65536];

static int load_prog(struct prog *p, enum bpf_prog_type type)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)p->insn;
	attr.insn_cnt = p->len;
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)verifier_log;
	attr.log_size = sizeof(verifier_log);
	attr.log_level = 1;
	verifier_log[0] = '\0';
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		fprintf(stderr, "# BPF_PROG_LOAD: %s\n%s", strerror(errno),
			verifier_log);
	return fd;
}

/*
 * The perf event of the trace event in @dir (events/markers/<name>), for
 * @pid and @cpu as perf_event_open(2) takes them.
 */
static int open_event_for(const char *dir, pid_t pid, int cpu)
{
	struct perf_event_attr attr;
	char buf[32];

	if (read_file_at(dir, "id", buf, sizeof(buf)))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = strtoull(buf, NULL, 10);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	return syscall(SYS_perf_event_open, &attr, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* The perf event of the trace event in @dir, on CPU 0. */
static int open_event_at(const char *dir)
{
	return open_event_for(dir, -1, 0);
}

static int open_event(void)
{
	return open_event_at(EVENT_DIR);
}

/* COUNT futex waits with val MAGIC(first + i) that fail with EAGAIN. */
static int futex_waits(int first, int count)
{
	uint32_t word;
	int i;

	for (i = 0; i < count; i++) {
		word = MAGIC(first + i) + 1;
		if (syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE,
			    MAGIC(first + i), NULL, NULL, 0) != -1 ||
		    errno != EAGAIN)
			return -1;
	}
	return 0;
}

static int map_read(int map_fd, struct seen *s)
{
	union bpf_attr attr;
	uint32_t key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)s;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr);
}

/* An array map of one struct seen: its fd, or -1 with errno set. */
static int create_seen_map(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(struct seen);
	attr.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/*
 * Load "r0 = *(u64 *)(ctx + @offset); return 0", or "return 0" for a
 * negative @offset, as a program of @type: its fd, or -1.
 */
static int load_read_at(enum bpf_prog_type type, int offset)
{
	struct prog p = { .len = 0 };

	if (offset >= 0)
		emit(&p, BPF_LDX | BPF_DW | BPF_MEM, BPF_REG_0, BPF_REG_1,
		     offset, 0);
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return load_prog(&p, type);
}

FIXTURE(futex_wait) {
	struct field val, op, ret, timeout, last;
	int map_fd;
	int prog_fd;
	int event_fd;
	struct prog prog;
};

FIXTURE_SETUP(futex_wait)
{
	self->map_fd = -1;
	self->prog_fd = -1;
	self->event_fd = -1;
	if (access(EVENT_DIR "/format", R_OK))
		SKIP(return, "no " EVENT_DIR " (CONFIG_MARKERS_TRACE)");
	ASSERT_EQ(0, find_field("val", &self->val));
	ASSERT_EQ(0, find_field("op", &self->op));
	ASSERT_EQ(0, find_field("ret", &self->ret));
	ASSERT_EQ(0, find_field("timeout_ns", &self->timeout));
	ASSERT_EQ(4, self->val.size);
	ASSERT_EQ(8, self->timeout.size);
	/* The format's last field: ret, after timeout_ns */
	ASSERT_GT(self->ret.offset, self->timeout.offset);

	if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK))
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	self->map_fd = create_seen_map();
	ASSERT_LE(0, self->map_fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));

	build_counter(&self->prog, self->map_fd, &self->val, &self->op,
		      &self->ret, &self->timeout);
	self->prog_fd = load_prog(&self->prog, BPF_PROG_TYPE_TRACEPOINT);
	ASSERT_LE(0, self->prog_fd);
	self->event_fd = open_event();
	ASSERT_LE(0, self->event_fd) TH_LOG("perf_event_open: %s", strerror(errno));
}

FIXTURE_TEARDOWN(futex_wait)
{
	if (self->event_fd >= 0)
		close(self->event_fd);
	if (self->prog_fd >= 0)
		close(self->prog_fd);
	if (self->map_fd >= 0)
		close(self->map_fd);
}

/* The fields as the program read them: 5 waits, MAGIC(1) to MAGIC(5). */
static void expect_five_waits(struct __test_metadata *_metadata, int map_fd)
{
	struct seen s;

	ASSERT_EQ(0, map_read(map_fd, &s));
	EXPECT_EQ(5, s.hits);
	EXPECT_EQ(5ULL * MAGIC(0) + 1 + 2 + 3 + 4 + 5, s.val_sum);
	EXPECT_EQ(FUTEX_WAIT_PRIVATE, s.op);
	EXPECT_EQ((uint32_t)-EAGAIN, s.ret);
	/* No timeout: the marker says -1 */
	EXPECT_EQ(-1, (int64_t)s.timeout_ns);
}

TEST_F(futex_wait, set_bpf)
{
	struct seen s;

	ASSERT_EQ(0, ioctl(self->event_fd, PERF_EVENT_IOC_SET_BPF, self->prog_fd))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(self->event_fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, futex_waits(1, 5));
	expect_five_waits(_metadata, self->map_fd);

	/* A second program on the same perf event is refused */
	EXPECT_EQ(-1, ioctl(self->event_fd, PERF_EVENT_IOC_SET_BPF,
			    self->prog_fd));
	EXPECT_EQ(EEXIST, errno);

	/* Detached when the perf event goes */
	close(self->event_fd);
	self->event_fd = -1;
	ASSERT_EQ(0, futex_waits(1, 2));
	ASSERT_EQ(0, map_read(self->map_fd, &s));
	EXPECT_EQ(5, s.hits);
}

TEST_F(futex_wait, task_fd_query)
{
	union bpf_attr attr;
	char name[64];

	ASSERT_EQ(0, ioctl(self->event_fd, PERF_EVENT_IOC_SET_BPF, self->prog_fd));
	memset(&attr, 0, sizeof(attr));
	attr.task_fd_query.pid = getpid();
	attr.task_fd_query.fd = self->event_fd;
	attr.task_fd_query.buf = (uintptr_t)name;
	attr.task_fd_query.buf_len = sizeof(name);
	ASSERT_EQ(0, sys_bpf(BPF_TASK_FD_QUERY, &attr))
		TH_LOG("BPF_TASK_FD_QUERY: %s", strerror(errno));
	EXPECT_EQ(BPF_FD_TYPE_TRACEPOINT, attr.task_fd_query.fd_type);
	EXPECT_STREQ("futex_wait", name);
}

TEST_F(futex_wait, link)
{
	struct bpf_link_info info;
	union bpf_attr attr;
	char name[64];
	struct seen s;
	int link_fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = self->prog_fd;
	attr.link_create.target_fd = self->event_fd;
	attr.link_create.attach_type = BPF_PERF_EVENT;
	link_fd = sys_bpf(BPF_LINK_CREATE, &attr);
	ASSERT_LE(0, link_fd) TH_LOG("BPF_LINK_CREATE: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(self->event_fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, futex_waits(1, 5));
	expect_five_waits(_metadata, self->map_fd);

	memset(&info, 0, sizeof(info));
	info.perf_event.tracepoint.tp_name = (uintptr_t)name;
	info.perf_event.tracepoint.name_len = sizeof(name);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = link_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	ASSERT_EQ(0, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		TH_LOG("BPF_OBJ_GET_INFO_BY_FD: %s", strerror(errno));
	EXPECT_EQ(BPF_LINK_TYPE_PERF_EVENT, info.type);
	EXPECT_EQ(BPF_PERF_EVENT_TRACEPOINT, info.perf_event.type);
	EXPECT_STREQ("futex_wait", name);

	/* Closing the link detaches the program; the perf event stays */
	close(link_fd);
	ASSERT_EQ(0, futex_waits(1, 3));
	ASSERT_EQ(0, map_read(self->map_fd, &s));
	EXPECT_EQ(5, s.hits);
}

TEST_F(futex_wait, refuse_kprobe_program)
{
	struct prog p = { .len = 0 };
	int fd;

	emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	fd = load_prog(&p, BPF_PROG_TYPE_KPROBE);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(self->event_fd, PERF_EVENT_IOC_SET_BPF, fd));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST_F(futex_wait, refuse_read_past_record)
{
	struct prog p = { .len = 0 };
	int end = self->ret.offset + self->ret.size;
	int fd;

	/* r0 = *(u64 *)(ctx + end rounded up): past the last field */
	emit(&p, BPF_LDX | BPF_DW | BPF_MEM, BPF_REG_0, BPF_REG_1,
	     (end + 7) & ~7, 0);
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	fd = load_prog(&p, BPF_PROG_TYPE_TRACEPOINT);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(self->event_fd, PERF_EVENT_IOC_SET_BPF, fd));
	EXPECT_EQ(EACCES, errno);
	close(fd);
}

/*
 * Attach "r0 = *(u64 *)(ctx + @offset); return 0", or "return 0" for a
 * negative @offset, to a perf event of its own on the event in @dir: 0 or
 * -errno of the attach, -1000 if the verifier refused the program or the
 * perf event could not be opened.
 */
static int attach_read_at(const char *dir, int offset)
{
	int event_fd, fd, ret, err;

	fd = load_read_at(BPF_PROG_TYPE_TRACEPOINT, offset);
	if (fd < 0)
		return -1000;
	event_fd = open_event_at(dir);
	if (event_fd < 0) {
		close(fd);
		return -1000;
	}
	ret = ioctl(event_fd, PERF_EVENT_IOC_SET_BPF, fd);
	err = errno;
	close(event_fd);
	close(fd);
	return ret ? -err : 0;
}

/*
 * An event without fields (example_noargs, format " "): its record is the
 * common fields alone, 8 bytes, which the verifier keeps from tracepoint
 * programs. A program that reads nothing attaches; one that reads at 8 or
 * further must be refused: past the record, perf's per-CPU buffer holds
 * what earlier records left there.
 */
TEST(refuse_read_past_fieldless_record)
{
	const char *dir = EVENTS "/example_noargs";
	char format[4096];
	int ret;

	if (access(EVENTS "/futex_wait/format", R_OK))
		SKIP(return, "no " EVENTS " (CONFIG_MARKERS_TRACE)");
	if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK))
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	ret = load_module_file("marker-example.ko");
	ASSERT_TRUE(ret == 0 || ret == -EEXIST)
		TH_LOG("loading %s/marker-example.ko: %s", module_dir(),
		       strerror(-ret));
	ASSERT_EQ(0, read_file_at(dir, "format", format, sizeof(format)));
	/* The last line of the common fields, then no field of its own */
	ASSERT_NE(NULL, strstr(format, "common_pid;\toffset:4;\tsize:4;"));
	ASSERT_EQ(NULL, strstr(format, "offset:8;"));

	EXPECT_EQ(0, attach_read_at(dir, -1))
		TH_LOG("a program that reads nothing was refused");
	EXPECT_EQ(-EACCES, attach_read_at(dir, 8))
		TH_LOG("a read at offset 8, just past the record, was not refused");
	EXPECT_EQ(-EACCES, attach_read_at(dir, 512))
		TH_LOG("a read at offset 512, far past the record, was not refused");
	EXPECT_EQ(0, unload_module_name("marker_example"));
}

/* ---- Raw tracepoint programs on a typed marker ---- */

#define RAW_NAME	"markers:futex_wait"
/* futex_wait's prototype: uaddr, op, val, bitset, timeout, ret */
#define RAW_ARG_OP	1
#define RAW_ARG_VAL	2
#define RAW_ARG_BITSET	3
#define RAW_ARG_RET	5
#define RAW_NR_ARGS	6
#define RAW_ARG(n)	((n) * 8)

/*
 * As build_counter(), from the u64 arguments: counts the waits whose val
 * has MAGIC_HI in its top 16 bits, sums val, keeps the last op, ret and
 * bitset (in ->timeout_ns).
 */
static void build_raw_counter(struct prog *p, int map_fd)
{
	int skip[2];

	p->len = 0;
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	emit(p, BPF_LDX | BPF_DW | BPF_MEM, BPF_REG_7, BPF_REG_6,
	     RAW_ARG(RAW_ARG_VAL), 0);
	emit_count(p, map_fd, skip);
	emit_copy(p, BPF_DW, RAW_ARG(RAW_ARG_OP), 16);
	emit_copy(p, BPF_DW, RAW_ARG(RAW_ARG_RET), 24);
	emit_copy(p, BPF_DW, RAW_ARG(RAW_ARG_BITSET), 32);
	emit_end(p, skip);
}

/* bpf(BPF_RAW_TRACEPOINT_OPEN): the link's fd, or -1 with errno set. */
static int raw_open(const char *name, int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)name;
	attr.raw_tracepoint.prog_fd = prog_fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

/*
 * Open @name with "r0 = *(u64 *)(ctx + @offset); return 0" (or "return
 * 0" for a negative @offset), a program of @type: 0 or -errno of the
 * open, -1000 if the verifier refused the program.
 */
static int raw_open_read_at(const char *name, enum bpf_prog_type type,
			    int offset)
{
	int fd, link_fd, err;

	fd = load_read_at(type, offset);
	if (fd < 0)
		return -1000;
	link_fd = raw_open(name, fd);
	err = errno;
	if (link_fd >= 0)
		close(link_fd);
	close(fd);
	return link_fd >= 0 ? 0 : -err;
}

FIXTURE(raw_futex_wait) {
	int map_fd;
	int prog_fd;
	struct prog prog;
};

FIXTURE_SETUP(raw_futex_wait)
{
	self->map_fd = -1;
	self->prog_fd = -1;
	if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK))
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	self->map_fd = create_seen_map();
	ASSERT_LE(0, self->map_fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	build_raw_counter(&self->prog, self->map_fd);
	self->prog_fd = load_prog(&self->prog, BPF_PROG_TYPE_RAW_TRACEPOINT);
	ASSERT_LE(0, self->prog_fd);
}

FIXTURE_TEARDOWN(raw_futex_wait)
{
	if (self->prog_fd >= 0)
		close(self->prog_fd);
	if (self->map_fd >= 0)
		close(self->map_fd);
}

/*
 * 5 waits seen with the marker's C arguments, the link named as the
 * marker, and no more counting once the link is closed.
 */
TEST_F(raw_futex_wait, count_args_and_detach)
{
	struct bpf_link_info info;
	union bpf_attr attr;
	char name[64];
	struct seen s;
	int link_fd;

	link_fd = raw_open(RAW_NAME, self->prog_fd);
	ASSERT_LE(0, link_fd) TH_LOG("BPF_RAW_TRACEPOINT_OPEN %s: %s",
				     RAW_NAME, strerror(errno));
	ASSERT_EQ(0, futex_waits(1, 5));
	ASSERT_EQ(0, map_read(self->map_fd, &s));
	EXPECT_EQ(5, s.hits);
	EXPECT_EQ(5ULL * MAGIC(0) + 1 + 2 + 3 + 4 + 5, s.val_sum);
	EXPECT_EQ(FUTEX_WAIT_PRIVATE, s.op);
	/* An int argument is zero-extended, as a tracepoint's */
	EXPECT_EQ((uint64_t)(uint32_t)-EAGAIN, s.ret);
	/* FUTEX_WAIT waits for any bit: FUTEX_BITSET_MATCH_ANY */
	EXPECT_EQ(0xffffffffULL, s.timeout_ns);

	memset(&info, 0, sizeof(info));
	info.raw_tracepoint.tp_name = (uintptr_t)name;
	info.raw_tracepoint.tp_name_len = sizeof(name);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = link_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	ASSERT_EQ(0, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		TH_LOG("BPF_OBJ_GET_INFO_BY_FD: %s", strerror(errno));
	EXPECT_EQ(BPF_LINK_TYPE_RAW_TRACEPOINT, info.type);
	EXPECT_STREQ(RAW_NAME, name);
	EXPECT_EQ(sizeof(RAW_NAME), info.raw_tracepoint.tp_name_len);

	/* Closing the link detaches the program */
	close(link_fd);
	ASSERT_EQ(0, futex_waits(1, 3));
	ASSERT_EQ(0, map_read(self->map_fd, &s));
	EXPECT_EQ(5, s.hits);
}

/*
 * bpf(BPF_TASK_FD_QUERY), which bpftool perf asks, answers for the link
 * as for a raw tracepoint link: its type, the name it was opened with
 * and the program's id; a buffer too short gets the name cut, -ENOSPC.
 */
TEST_F(raw_futex_wait, task_fd_query)
{
	struct bpf_prog_info prog_info;
	union bpf_attr attr;
	char name[64], cut[sizeof("markers:")];
	int link_fd;

	memset(&prog_info, 0, sizeof(prog_info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = self->prog_fd;
	attr.info.info_len = sizeof(prog_info);
	attr.info.info = (uintptr_t)&prog_info;
	ASSERT_EQ(0, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		TH_LOG("BPF_OBJ_GET_INFO_BY_FD: %s", strerror(errno));
	ASSERT_NE(0, prog_info.id);

	link_fd = raw_open(RAW_NAME, self->prog_fd);
	ASSERT_LE(0, link_fd) TH_LOG("BPF_RAW_TRACEPOINT_OPEN %s: %s",
				     RAW_NAME, strerror(errno));
	memset(&attr, 0, sizeof(attr));
	attr.task_fd_query.pid = getpid();
	attr.task_fd_query.fd = link_fd;
	attr.task_fd_query.buf = (uintptr_t)name;
	attr.task_fd_query.buf_len = sizeof(name);
	EXPECT_EQ(0, sys_bpf(BPF_TASK_FD_QUERY, &attr))
		TH_LOG("BPF_TASK_FD_QUERY on the link: %s (errno %d)",
		       strerror(errno), errno);
	EXPECT_EQ(BPF_FD_TYPE_RAW_TRACEPOINT, attr.task_fd_query.fd_type);
	EXPECT_STREQ(RAW_NAME, name);
	EXPECT_EQ(strlen(RAW_NAME), attr.task_fd_query.buf_len);
	EXPECT_EQ(prog_info.id, attr.task_fd_query.prog_id);
	EXPECT_EQ(0, attr.task_fd_query.probe_offset);
	EXPECT_EQ(0, attr.task_fd_query.probe_addr);

	memset(&attr, 0, sizeof(attr));
	attr.task_fd_query.pid = getpid();
	attr.task_fd_query.fd = link_fd;
	attr.task_fd_query.buf = (uintptr_t)cut;
	attr.task_fd_query.buf_len = sizeof(cut);
	EXPECT_EQ(-1, sys_bpf(BPF_TASK_FD_QUERY, &attr));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_STREQ("markers:", cut);
	EXPECT_EQ(strlen(RAW_NAME), attr.task_fd_query.buf_len);
	close(link_fd);
}

/* No marker of the name, or no "markers:" prefix: -ENOENT */
TEST_F(raw_futex_wait, unknown_name)
{
	EXPECT_EQ(-1, raw_open("markers:no_such_marker", self->prog_fd));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, raw_open("futex_wait_no_such_tracepoint", self->prog_fd));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, raw_open("markers:", self->prog_fd));
	EXPECT_EQ(ENOENT, errno);
}

/* The last argument may be read; a read past it is refused, -EINVAL */
TEST_F(raw_futex_wait, ctx_past_args)
{
	EXPECT_EQ(0, raw_open_read_at(RAW_NAME, BPF_PROG_TYPE_RAW_TRACEPOINT,
				      RAW_ARG(RAW_NR_ARGS - 1)));
	EXPECT_EQ(-EINVAL,
		  raw_open_read_at(RAW_NAME, BPF_PROG_TYPE_RAW_TRACEPOINT,
				   RAW_ARG(RAW_NR_ARGS)));
}

/* A tracepoint program is refused as raw tracepoints refuse it */
TEST_F(raw_futex_wait, wrong_prog_type)
{
	EXPECT_EQ(-EINVAL, raw_open_read_at(RAW_NAME, BPF_PROG_TYPE_TRACEPOINT,
					    -1));
}

/* A trace_mark() marker has no prototype: -EOPNOTSUPP */
TEST_F(raw_futex_wait, untyped_marker)
{
	int ret;

	ret = load_module_file("marker-example.ko");
	ASSERT_TRUE(ret == 0 || ret == -EEXIST)
		TH_LOG("loading %s/marker-example.ko: %s", module_dir(),
		       strerror(-ret));
	EXPECT_EQ(-1, raw_open("markers:example_int", self->prog_fd));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(0, unload_module_name("marker_example"));
}

/*
 * A typed marker of a module (test_markers_typed): the link holds the
 * module, which cannot be removed until the link is closed.
 */
TEST_F(raw_futex_wait, module_held)
{
	char refcnt[16];
	int ret, link_fd;

	ret = load_module_file("test_markers_typed.ko");
	ASSERT_TRUE(ret == 0 || ret == -EEXIST)
		TH_LOG("loading %s/test_markers_typed.ko: %s", module_dir(),
		       strerror(-ret));
	link_fd = raw_open("markers:test_typed_fixed", self->prog_fd);
	ASSERT_LE(0, link_fd) TH_LOG("BPF_RAW_TRACEPOINT_OPEN: %s",
				     strerror(errno));
	ASSERT_EQ(0, read_file_at("/sys/module/test_markers_typed", "refcnt",
				  refcnt, sizeof(refcnt)));
	EXPECT_STREQ("1\n", refcnt);
	EXPECT_EQ(-EWOULDBLOCK, unload_module_name("test_markers_typed"));
	close(link_fd);
	EXPECT_EQ(0, unload_module_name("test_markers_typed"));
}

/* ---- A module whose init runs (MODULE_STATE_COMING), then fails ---- */

#define COMING_MOD	"test_markers_coming"
#define COMING_SYS	"/sys/module/" COMING_MOD
#define COMING_EVENT	EVENTS "/test_coming"
#define COMING_HITS	3
#define TRACE_FILE	"/sys/kernel/tracing/trace"

/*
 * In a child: finit_module(2) of test_markers_coming.ko, whose init waits
 * for its release parameter (20 s at most), fires test_coming
 * COMING_HITS times and fails. The child exits with the errno.
 */
static pid_t load_coming_module(void)
{
	char path[PATH_MAX];
	pid_t pid;
	int fd;

	pid = fork();
	if (pid)
		return pid;
	snprintf(path, sizeof(path), "%s/%s.ko", module_dir(), COMING_MOD);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(errno);
	if (syscall(__NR_finit_module, fd, "wait_ms=20000", 0))
		_exit(errno);
	_exit(0);
}

/* Whether the init of test_markers_coming runs and its event is there. */
static int coming_module_waits(void)
{
	char state[16];

	return !read_file_at(COMING_SYS, "initstate", state, sizeof(state)) &&
	       !strcmp(state, "coming\n") && !access(COMING_EVENT "/id", R_OK);
}

/* The lines of test_coming in ftrace's buffer. */
static int coming_trace_lines(void)
{
	char *trace = read_file(TRACE_FILE), *p;
	int n = 0;

	for (p = trace; p && (p = strstr(p, "test_coming: i=")); p++)
		n++;
	free(trace);
	return n;
}

/*
 * While a module's init runs, nothing may take a reference on it that
 * outlives its init's failure: the loader then frees it without waiting
 * for the references taken (do_init_module()). So, while the init of
 * test_markers_coming waits: a raw BPF link on its typed marker (the
 * shim is the module's code) is refused, -EBUSY; perf and ftrace open and
 * enable its event, recording with the face's own probes, and hold no
 * reference on the module (its refcnt does not move). Once the init has
 * failed and the module is gone, perf has counted the hits and ftrace
 * recorded them, and closing perf lets the event go. Before, the link
 * and the recorders held the module, which the loader freed under them:
 * a warning when it went, and their release used freed memory.
 */
TEST(coming_module)
{
	char before[16], after[16];
	int tries, status, prog_fd, link_fd, event_fd, err, fd;
	bool reaped = false;
	uint64_t count = 0;
	pid_t child;

	if (access(EVENTS "/futex_wait/format", R_OK))
		SKIP(return, "no " EVENTS " (CONFIG_MARKERS_TRACE)");
	if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK))
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	prog_fd = load_read_at(BPF_PROG_TYPE_RAW_TRACEPOINT, -1);
	ASSERT_LE(0, prog_fd);
	fd = open(TRACE_FILE, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("clearing %s: %s", TRACE_FILE, strerror(errno));
	close(fd);
	ASSERT_EQ(0, write_file("/sys/kernel/tracing/tracing_on", "1"));

	child = load_coming_module();
	ASSERT_LE(0, child) TH_LOG("fork: %s", strerror(errno));
	for (tries = 0; tries < 150 && !coming_module_waits(); tries++) {
		if (waitpid(child, &status, WNOHANG) == child) {
			reaped = true;
			break;
		}
		usleep(100000);
	}
	if (!coming_module_waits()) {
		/* Not loaded (the child's status), or too slow: let it go */
		write_file(COMING_SYS "/parameters/release", "1");
		if (!reaped && waitpid(child, &status, 0) != child)
			status = -1;
		close(prog_fd);
		ASSERT_TRUE(false)
			TH_LOG("%s's init did not wait; the loader's status %#x",
			       COMING_MOD, status);
	}
	EXPECT_EQ(0, read_file_at(COMING_SYS, "refcnt", before, sizeof(before)));

	link_fd = raw_open("markers:test_coming", prog_fd);
	err = errno;
	/* Closed while the module is there, so that a failure stays one */
	if (link_fd >= 0)
		close(link_fd);
	EXPECT_EQ(-1, link_fd)
		TH_LOG("a raw BPF link was taken on a module in its init");
	EXPECT_EQ(EBUSY, err) TH_LOG("BPF_RAW_TRACEPOINT_OPEN: %s",
				     strerror(err));

	event_fd = open_event_for(COMING_EVENT, child, -1);
	EXPECT_LE(0, event_fd) TH_LOG("perf_event_open: %s", strerror(errno));
	EXPECT_EQ(0, write_file(COMING_EVENT "/enable", "1"));
	EXPECT_EQ(0, read_file_at(COMING_SYS, "refcnt", after, sizeof(after)));
	EXPECT_STREQ(before, after)
		TH_LOG("perf or ftrace holds the module while its init runs");

	/* The init fires and fails; the module is freed */
	EXPECT_EQ(0, write_file(COMING_SYS "/parameters/release", "1"));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EINVAL, WEXITSTATUS(status))
		TH_LOG("finit_module: %s", strerror(WEXITSTATUS(status)));
	EXPECT_EQ(-1, access(COMING_SYS, F_OK));

	/* Held by perf, the event stays, recorded in ftrace */
	EXPECT_EQ(COMING_HITS, coming_trace_lines());
	if (event_fd >= 0) {
		EXPECT_EQ(sizeof(count), read(event_fd, &count, sizeof(count)));
		EXPECT_EQ(COMING_HITS, count);
		close(event_fd);
	}
	/* Released, the event goes (its name has no sites) */
	for (tries = 0; tries < 50 && !access(COMING_EVENT, F_OK); tries++)
		usleep(100000);
	EXPECT_EQ(-1, access(COMING_EVENT, F_OK))
		TH_LOG("the event of the module's marker stays");
	close(prog_fd);
}

/*
 * The link's name through BPF_OBJ_GET_INFO_BY_FD as for a tracepoint's
 * link: its length alone with no buffer, -EINVAL for a buffer without a
 * length or a length without a buffer, -ENOSPC and the name cut to the
 * buffer (NUL-terminated) for a short one, -EFAULT for a bad one; and in
 * the link's fdinfo.
 */
TEST_F(raw_futex_wait, link_name)
{
	struct bpf_link_info info;
	union bpf_attr attr;
	char name[16], path[64], *fdinfo;
	int link_fd;

	link_fd = raw_open(RAW_NAME, self->prog_fd);
	ASSERT_LE(0, link_fd) TH_LOG("BPF_RAW_TRACEPOINT_OPEN %s: %s",
				     RAW_NAME, strerror(errno));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = link_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;

	memset(&info, 0, sizeof(info));
	EXPECT_EQ(0, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		TH_LOG("BPF_OBJ_GET_INFO_BY_FD: %s", strerror(errno));
	EXPECT_EQ(sizeof(RAW_NAME), info.raw_tracepoint.tp_name_len);

	memset(&info, 0, sizeof(info));
	info.raw_tracepoint.tp_name = (uintptr_t)name;
	EXPECT_EQ(-1, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr));
	EXPECT_EQ(EINVAL, errno);
	memset(&info, 0, sizeof(info));
	info.raw_tracepoint.tp_name_len = sizeof(name);
	EXPECT_EQ(-1, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr));
	EXPECT_EQ(EINVAL, errno);

	memset(&info, 0, sizeof(info));
	memset(name, 'x', sizeof(name));
	info.raw_tracepoint.tp_name = (uintptr_t)name;
	info.raw_tracepoint.tp_name_len = 5;
	EXPECT_EQ(-1, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_STREQ("mark", name);
	EXPECT_EQ('x', name[5]);

	/* A buffer user space cannot be written at: -EFAULT, short or not */
	memset(&info, 0, sizeof(info));
	info.raw_tracepoint.tp_name = 8;
	info.raw_tracepoint.tp_name_len = sizeof(name);
	EXPECT_EQ(-1, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr));
	EXPECT_EQ(EFAULT, errno);
	info.raw_tracepoint.tp_name_len = 5;
	EXPECT_EQ(-1, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr));
	EXPECT_EQ(EFAULT, errno);

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", link_fd);
	fdinfo = read_file(path);
	ASSERT_NE(NULL, fdinfo) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_NE(NULL, strstr(fdinfo, "\ntp_name:\t" RAW_NAME "\n"))
		TH_LOG("%s: %s", path, fdinfo);
	free(fdinfo);
	close(link_fd);
}

/*
 * A raw tracepoint program that may write (BPF_PROG_TYPE_RAW_TRACEPOINT_
 * WRITABLE) reads its first argument as a buffer: a marker has none
 * (its first argument would be read as one), so it is refused, -EINVAL,
 * as a tracepoint without a writable buffer refuses it.
 */
TEST_F(raw_futex_wait, writable_prog_refused)
{
	struct prog p = { .len = 0 };
	int fd, link_fd;

	/* r2 = *(u64 *)(ctx + 0), the buffer; r0 = *(u8 *)r2; return 0 */
	emit(&p, BPF_LDX | BPF_DW | BPF_MEM, BPF_REG_2, BPF_REG_1, 0, 0);
	emit(&p, BPF_LDX | BPF_B | BPF_MEM, BPF_REG_0, BPF_REG_2, 0, 0);
	emit(&p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(&p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	fd = load_prog(&p, BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE);
	ASSERT_LE(0, fd);
	link_fd = raw_open(RAW_NAME, fd);
	EXPECT_EQ(-1, link_fd);
	EXPECT_EQ(EINVAL, errno);
	if (link_fd >= 0)
		close(link_fd);
	close(fd);
}

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define FAILSLAB	"/sys/kernel/debug/failslab"

/* The fault points left of @fail_fd's count, which is then cleared. */
static int fail_nth_left(int fail_fd)
{
	char buf[16];
	ssize_t n;

	n = pread(fail_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (pwrite(fail_fd, "0", 1, 0) != 1)
		return -1;
	return atoi(buf);
}

/*
 * bpf(BPF_RAW_TRACEPOINT_OPEN) on a typed marker of a module with each
 * allocation failing in turn (fail-nth; failslab fails GFP_KERNEL ones
 * too): it fails with ENOMEM, the link, its file and the marker's probe
 * arrays alike, or opens; either way the module's reference is given
 * back once the link is closed, and a link opened afterwards holds it.
 */
TEST_F(raw_futex_wait, attach_without_memory)
{
	int fail_fd, link_fd, n, err, left = -1, hits = 0, ret;
	char *gfp_wait, *verbose, buf[16], refcnt[16];

	if (access(FAIL_NTH, W_OK) || access(FAILSLAB "/ignore-gfp-wait", W_OK))
		SKIP(return, "no fail-nth or failslab (CONFIG_FAILSLAB)");
	ret = load_module_file("test_markers_typed.ko");
	ASSERT_TRUE(ret == 0 || ret == -EEXIST)
		TH_LOG("loading %s/test_markers_typed.ko: %s", module_dir(),
		       strerror(-ret));
	gfp_wait = read_file(FAILSLAB "/ignore-gfp-wait");
	verbose = read_file(FAILSLAB "/verbose");
	ASSERT_TRUE(gfp_wait && verbose);
	fail_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fail_fd);
	ASSERT_EQ(0, write_file(FAILSLAB "/ignore-gfp-wait", "N"));
	EXPECT_EQ(0, write_file(FAILSLAB "/verbose", "0"));

	for (n = 1; n <= 100; n++) {
		int len = snprintf(buf, sizeof(buf), "%d", n);

		if (pwrite(fail_fd, buf, len, 0) != len)
			break;
		link_fd = raw_open("markers:test_typed_fixed", self->prog_fd);
		err = errno;
		left = fail_nth_left(fail_fd);
		if (link_fd >= 0) {
			close(link_fd);
		} else {
			EXPECT_EQ(ENOMEM, err)
				TH_LOG("allocation %d failing: %s", n, strerror(err));
			hits++;
		}
		EXPECT_EQ(0, read_file_at("/sys/module/test_markers_typed",
					  "refcnt", refcnt, sizeof(refcnt)));
		EXPECT_STREQ("0\n", refcnt) TH_LOG("allocation %d failing", n);
		/* The Nth allocation did not come: every one failed once */
		if (left != 0)
			break;
	}
	close(fail_fd);
	EXPECT_EQ(0, write_file(FAILSLAB "/ignore-gfp-wait", gfp_wait));
	EXPECT_EQ(0, write_file(FAILSLAB "/verbose", verbose));
	free(gfp_wait);
	free(verbose);
	EXPECT_LT(0, left) TH_LOG("more than 100 allocations, or fail-nth unread");
	EXPECT_LT(0, hits);

	link_fd = raw_open("markers:test_typed_fixed", self->prog_fd);
	ASSERT_LE(0, link_fd) TH_LOG("BPF_RAW_TRACEPOINT_OPEN: %s", strerror(errno));
	ASSERT_EQ(0, read_file_at("/sys/module/test_markers_typed", "refcnt",
				  refcnt, sizeof(refcnt)));
	EXPECT_STREQ("1\n", refcnt);
	close(link_fd);
	EXPECT_EQ(0, unload_module_name("test_markers_typed"));
}

TEST_HARNESS_MAIN
