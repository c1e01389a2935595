// SPDX-License-Identifier: GPL-2.0
/*
 * markers_test - static markers, checked from user space
 *
 * Loads the marker samples (samples/markers: marker-example, probe-example)
 * and the modules of test_modules/ with finit_module(2), and checks through
 * tracefs's marker_sites and the modules' debugfs files what the marker
 * core did with them: the bytes at each site, the events and counts
 * probe-example records, registration errors, kprobes refused inside
 * sites, sites whose format conflicts with their name's. First, when the
 * kernel was booted with them (harness/boot does), that trace_event= and
 * trace_trigger= on the command line enabled a marker event and added its
 * trigger at boot.
 *
 * Environment:
 *   MARKERS_MODULE_DIR  directory holding the .ko files; MARKERS_MODULES is
 *                       read when it is unset; default /markers/modules
 *
 * Needs root, debugfs and tracefs (mounted here if they are not) and, for
 * the kprobe test, kprobe events. Every test starts and ends with none of the
 * four modules loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/futex.h>

/* kselftest_harness.h's __timeout_handler() leaves a parameter unused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../kselftest_harness.h"
#pragma GCC diagnostic pop
#include "markers_util.h"
/*
 * TEST_F() keeps a local across setjmp(): with -Wextra and optimisation GCC
 * warns about it in every test, not about anything in this file.
 */
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wclobbered"
#endif

#define DEBUGFS			"/sys/kernel/debug"
#define EXAMPLE_FIRE		DEBUGFS "/marker-example/fire"
#define PROBE_COUNTS		DEBUGFS "/probe-example/counts"
#define PROBE_EVENTS		DEBUGFS "/probe-example/events"
#define TEST_REGISTER		DEBUGFS "/test_markers_probe/register"
#define TEST_UNREGISTER		DEBUGFS "/test_markers_probe/unregister"
#define TEST_HITS		DEBUGFS "/test_markers_probe/hits"
#define KPROBE_TARGET		DEBUGFS "/test_markers_kprobe/target"
#define KPROBE_RESULT		DEBUGFS "/test_markers_kprobe/result"
#define LEAK_FIRE		DEBUGFS "/test_markers_leak/fire"
#define LEAK_HITS		DEBUGFS "/test_markers_leak/hits"
#define LEAK_SITES_RO		DEBUGFS "/test_markers_leak/sites_ro"
#define TRACEFS			"/sys/kernel/tracing"
#define KPROBE_EVENTS		TRACEFS "/kprobe_events"
#define SITES			TRACEFS "/marker_sites"
#define EXAMPLE_INITSTATE	"/sys/module/marker_example/initstate"

/* Each test runs in its own process; module loads and RCU waits are slow under emulation. */
#define TEST_TIMEOUT		120

#define MARKER_NAME_MAX		64	/* include/linux/marker.h */
#define MAX_SITES		64
#define MAX_EVENTS		4096
#define MAX_CPUS		4096

enum test_module {
	MARKER_EXAMPLE,
	PROBE_EXAMPLE,
	TEST_CONFLICT,
	TEST_PROBE,
	TEST_KPROBE,
	TEST_LEAK,
	NR_TEST_MODULES,
};

/* The .ko file under the module directory, and the module's name. */
static const struct {
	const char *file;
	const char *name;
} test_modules[NR_TEST_MODULES] = {
	[MARKER_EXAMPLE] = { "marker-example.ko", "marker_example" },
	[PROBE_EXAMPLE] = { "probe-example.ko", "probe_example" },
	[TEST_CONFLICT] = { "test_markers_conflict.ko", "test_markers_conflict" },
	[TEST_PROBE] = { "test_markers_probe.ko", "test_markers_probe" },
	[TEST_KPROBE] = { "test_markers_kprobe.ko", "test_markers_kprobe" },
	[TEST_LEAK] = { "test_markers_leak.ko", "test_markers_leak" },
};

/* The markers marker-example fires from debugfs; example_init is extra. */
static const char * const example_markers[] = {
	"example_int", "example_string", "example_ptr", "example_small",
	"example_noargs",
};

/* What marker-example.c passes at iteration i (see its header comment). */
static const char * const example_names[] = { "zero", "one", "two", "three" };
#define EXAMPLE_SLOTS		4
#define EXAMPLE_OBJECT_SIZE	8	/* example_objects[] holds u64s */

/* ---- Files ---- */

/* Append one line to kprobe_events, which O_TRUNC would clear. */
static int kprobe_events_write(const char *line)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(KPROBE_EVENTS, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, strlen(line));
	if (n < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static long read_number(const char *path)
{
	char *text = read_file(path);
	long value;

	if (!text)
		return -errno;
	value = strtol(text, NULL, 0);
	free(text);
	return value;
}

/* ---- Modules ---- */

static void module_path(enum test_module m, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", module_dir(), test_modules[m].file);
}

/* finit_module(2): 0 or -errno. */
static int load_module(enum test_module m)
{
	return load_module_file(test_modules[m].file);
}

/* delete_module(2): 0 or -errno; -ENOENT if it is not loaded. */
static int unload_module(enum test_module m)
{
	return unload_module_name(test_modules[m].name);
}

/* Users before the modules they use. */
static void unload_all(void)
{
	unload_module(TEST_LEAK);
	unload_module(TEST_KPROBE);
	unload_module(TEST_PROBE);
	unload_module(TEST_CONFLICT);
	unload_module(PROBE_EXAMPLE);
	unload_module(MARKER_EXAMPLE);
}

static void load(struct __test_metadata *_metadata, enum test_module m)
{
	ASSERT_EQ(0, load_module(m))
		TH_LOG("loading %s/%s should succeed",
		       module_dir(), test_modules[m].file);
}

static void unload(struct __test_metadata *_metadata, enum test_module m)
{
	ASSERT_EQ(0, unload_module(m))
		TH_LOG("unloading %s should succeed", test_modules[m].name);
}

/* ---- tracefs marker_sites ---- */

/* One line of marker_sites. */
struct site {
	char name[MARKER_NAME_MAX];
	char symbol[128];	/* function+0xoffset */
	char module[64];
	char state[16];
	char bytes[17];		/* up to 8 bytes in hex; empty without patchable sites */
	unsigned long code;
	unsigned long target;
	unsigned int size;	/* 0 without patchable sites */
};

static int parse_site(char *line, struct site *site)
{
	char *tok[8], *save;
	int n;

	for (n = 0; n < 8; n++) {
		tok[n] = strtok_r(n ? NULL : line, " \t", &save);
		if (!tok[n])
			break;
	}
	/* name symbol+0xoff module state bytes code target size */
	if (n < 8)
		return -EPROTO;
	memset(site, 0, sizeof(*site));
	snprintf(site->name, sizeof(site->name), "%s", tok[0]);
	snprintf(site->symbol, sizeof(site->symbol), "%s", tok[1]);
	snprintf(site->module, sizeof(site->module), "%s", tok[2]);
	snprintf(site->state, sizeof(site->state), "%s", tok[3]);
	/* Without patchable sites there are no bytes: "-". */
	if (strcmp(tok[4], "-"))
		snprintf(site->bytes, sizeof(site->bytes), "%s", tok[4]);
	site->code = strtoul(tok[5], NULL, 16);
	site->target = strtoul(tok[6], NULL, 16);
	/* Without patchable sites there is no length either: "-". */
	site->size = strtoul(tok[7], NULL, 10);
	return 0;
}

/*
 * The sites of @module (and of marker @name, unless NULL), up to @max of
 * them in @sites. Returns how many there are, or -errno.
 */
static int read_sites(const char *module, const char *name,
		      struct site *sites, int max)
{
	char *text, *line, *save;
	struct site site;
	int nr = 0;

	text = read_file(SITES);
	if (!text)
		return -errno;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (parse_site(line, &site)) {
			nr = -EPROTO;
			break;
		}
		if (strcmp(site.module, module) ||
		    (name && strcmp(site.name, name)))
			continue;
		if (nr < max)
			sites[nr] = site;
		nr++;
	}
	free(text);
	return nr;
}

/* The one site of @name in @module. */
static void read_one_site(struct __test_metadata *_metadata,
			  const char *module, const char *name,
			  struct site *site)
{
	ASSERT_EQ(1, read_sites(module, name, site, 1))
		TH_LOG("%s should have exactly one site of %s in " SITES,
		       module, name);
}

/* The machines whose sites are patched; elsewhere sites are generic. */
static bool machine_is(const char *a, const char *b)
{
	struct utsname uts;

	return !uname(&uts) && (!strcmp(uts.machine, a) ||
				(b && !strcmp(uts.machine, b)));
}

/*
 * A disabled site's bytes (hex, in memory order): x86's 5-byte NOP, or
 * arm64's NOP. Empty where sites are the generic fallback, never patched.
 */
static const char *site_nop(void)
{
	if (machine_is("x86_64", "i686"))
		return "0f1f440000";
	if (machine_is("aarch64", NULL))
		return "1f2003d5";
	return "";
}

/* The NOP of @site's length: x86's 2-byte sites hold the 2-byte NOP. */
static const char *site_nop_of(const struct site *site)
{
	if (machine_is("x86_64", "i686") && site->size == 2)
		return "6690";
	return site_nop();
}

/*
 * Where the site's bytes jump, else 0: x86's JMP rel8 (eb) or rel32 (e9),
 * then the displacement from the next instruction, arm64's B (0b000101,
 * then a signed 26-bit offset in words from the site), all little-endian.
 */
static unsigned long jmp_target(const struct site *site)
{
	unsigned int b[5];
	long rel;
	int n;

	n = sscanf(site->bytes, "%2x%2x%2x%2x%2x",
		   &b[0], &b[1], &b[2], &b[3], &b[4]);
	if (n != (int)strlen(site->bytes) / 2)
		return 0;
	if (n == 2 && b[0] == 0xeb)
		return site->code + 2 + (signed char)b[1];
	if (n == 5 && b[0] == 0xe9) {
		rel = b[1] | b[2] << 8 | b[3] << 16 | (long)b[4] << 24;
		if (rel >= 0x80000000L)
			rel -= 0x100000000L;
		return site->code + 5 + rel;
	}
	if (n == 4 && (b[3] & 0xfc) == 0x14) {
		rel = b[0] | b[1] << 8 | b[2] << 16 | (long)(b[3] & 0x03) << 24;
		if (rel >= 0x02000000L)
			rel -= 0x04000000L;
		return site->code + 4 * rel;
	}
	return 0;
}

/* Patchable sites list their bytes; the generic fallback has none. */
static bool have_site_bytes(void)
{
	return site_nop()[0] != '\0';
}

/* @site is enabled (a jump to its target) or disabled (the NOP). */
static void check_site(struct __test_metadata *_metadata,
		       const struct site *site, bool enabled)
{
	EXPECT_STREQ(enabled ? "enabled" : "disabled", site->state)
		TH_LOG("site of %s in %s at 0x%lx should be %s",
		       site->name, site->module, site->code,
		       enabled ? "enabled" : "disabled");
	if (!have_site_bytes())
		return;
	EXPECT_NE(0UL, site->target)
		TH_LOG("site of %s at 0x%lx should list its jump target",
		       site->name, site->code);
	if (enabled) {
		EXPECT_EQ(site->target, jmp_target(site))
			TH_LOG("site of %s at 0x%lx should hold JMP to 0x%lx, holds %s",
			       site->name, site->code, site->target,
			       site->bytes);
	} else {
		EXPECT_STREQ(site_nop_of(site), site->bytes)
			TH_LOG("disabled site of %s at 0x%lx should hold the NOP",
			       site->name, site->code);
	}
}

/*
 * Every site of marker-example's fired markers is enabled or disabled, and
 * the site of example_init is init-freed: marker-example is live.
 */
static void check_example_sites(struct __test_metadata *_metadata,
				bool enabled)
{
	struct site sites[MAX_SITES];
	unsigned int i;
	int n, j, found;

	n = read_sites("marker_example", NULL, sites, MAX_SITES);
	ASSERT_GT(n, 0)
		TH_LOG("marker_example should have sites in " SITES);
	ASSERT_LE(n, MAX_SITES);

	for (i = 0; i < ARRAY_SIZE(example_markers); i++) {
		found = 0;
		for (j = 0; j < n; j++)
			found += !strcmp(sites[j].name, example_markers[i]);
		EXPECT_GE(found, 1)
			TH_LOG("marker_example should list a site of %s",
			       example_markers[i]);
	}

	for (j = 0; j < n; j++) {
		if (!strcmp(sites[j].name, "example_init")) {
			EXPECT_STREQ("init-freed", sites[j].state)
				TH_LOG("the __init site of example_init should be init-freed");
		} else {
			check_site(_metadata, &sites[j], enabled);
		}
	}
}

/* ---- probe-example's counts and events ---- */

/*
 * The total of @marker in probe-example/counts, -1 if it is not listed;
 * the sum of its per-CPU numbers in @cpu_sum.
 */
static long read_count(const char *marker, long *cpu_sum)
{
	char *text, *line, *save, *tok, *tsave;
	long total = -1;
	int cpu;
	long hits;

	*cpu_sum = 0;
	text = read_file(PROBE_COUNTS);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		tok = strtok_r(line, " ", &tsave);
		if (!tok || strcmp(tok, marker))
			continue;
		while ((tok = strtok_r(NULL, " ", &tsave))) {
			if (sscanf(tok, "total=%ld", &hits) == 1)
				total = hits;
			else if (sscanf(tok, "cpu%d=%ld", &cpu, &hits) == 2)
				*cpu_sum += hits;
		}
		break;
	}
	free(text);
	return total;
}

/* probe-example's counts of @marker are @expected, in total and per CPU. */
static void check_count(struct __test_metadata *_metadata,
			const char *marker, long expected)
{
	long total, cpu_sum;

	total = read_count(marker, &cpu_sum);
	EXPECT_EQ(expected, total)
		TH_LOG("probe-example should count %ld hits of %s",
		       expected, marker);
	EXPECT_EQ(total, cpu_sum)
		TH_LOG("the per-CPU counts of %s should add up to its total",
		       marker);
}

/* probe-example/events, one entry per line, "cpuN " taken off. */
struct events {
	char *text;
	char *line[MAX_EVENTS];
	int cpu[MAX_EVENTS];
	int nr;
	int comments;	/* '#' lines: events lost */
};

static int read_events(struct events *ev)
{
	char *line, *save, *rest;
	int cpu;

	memset(ev, 0, sizeof(*ev));
	ev->text = read_file(PROBE_EVENTS);
	if (!ev->text)
		return -errno;
	for (line = strtok_r(ev->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			ev->comments++;
			continue;
		}
		if (sscanf(line, "cpu%d ", &cpu) != 1 || ev->nr == MAX_EVENTS)
			return -EPROTO;
		rest = strchr(line, ' ');
		if (!rest)
			return -EPROTO;
		ev->cpu[ev->nr] = cpu;
		ev->line[ev->nr++] = rest + 1;
	}
	return 0;
}

static int count_events(const struct events *ev, const char *text)
{
	int i, n = 0;

	for (i = 0; i < ev->nr; i++)
		n += !strcmp(ev->line[i], text);
	return n;
}

/* Read the events, all of them: none may have been lost. */
static void read_all_events(struct __test_metadata *_metadata,
			    struct events *ev)
{
	ASSERT_EQ(0, read_events(ev))
		TH_LOG(PROBE_EVENTS " should hold \"cpuN name: field=value\" lines");
	EXPECT_EQ(0, ev->comments)
		TH_LOG(PROBE_EVENTS " should report no lost events");
}

/* Times iteration i's values recur among iterations 0 .. n-1, period p. */
static int recurrences(int i, int n, int p)
{
	return (n - 1 - i % p) / p + 1;
}

/*
 * The events hold exactly what n iterations of marker-example's fire
 * compute: every field value, each event once per iteration, and the
 * events of each CPU oldest first.
 */
static void check_fired_events(struct __test_metadata *_metadata,
			       const struct events *ev, int n)
{
	unsigned long object[EXAMPLE_SLOTS] = { 0 };
	static int last_count[MAX_CPUS];
	unsigned long address;
	char text[256];
	unsigned int slot;
	int i, count;

	for (i = 0; i < n; i++) {
		snprintf(text, sizeof(text),
			 "example_int: count=%d value=%llu",
			 i, ((unsigned long long)i << 32) + i);
		EXPECT_EQ(1, count_events(ev, text))
			TH_LOG("events should hold \"%s\" once", text);

		snprintf(text, sizeof(text), "example_string: name=\"%s\"",
			 example_names[i % EXAMPLE_SLOTS]);
		EXPECT_EQ(recurrences(i, n, EXAMPLE_SLOTS),
			  count_events(ev, text))
			TH_LOG("events should hold \"%s\" once per iteration i with i %% 4 == %d",
			       text, i % EXAMPLE_SLOTS);

		snprintf(text, sizeof(text),
			 "example_small: letter='%c' flags=0x%x delta=%d",
			 'a' + i % 26, (uint16_t)(0xf000 | i), (int8_t)-i);
		EXPECT_EQ(1, count_events(ev, text))
			TH_LOG("events should hold \"%s\" once (the NULL-format probe's rendering)",
			       text);
	}
	EXPECT_EQ(n, count_events(ev, "example_noargs:"))
		TH_LOG("events should hold \"example_noargs:\" %d times", n);

	/* Pointers: the same per slot, 8 bytes apart from slot to slot. */
	count = 0;
	for (i = 0; i < ev->nr; i++) {
		if (sscanf(ev->line[i], "example_ptr: object=0x%lx slot=%u",
			   &address, &slot) != 2)
			continue;
		count++;
		ASSERT_LT(slot, (unsigned int)EXAMPLE_SLOTS)
			TH_LOG("example_ptr slot should be below 4: %s",
			       ev->line[i]);
		EXPECT_NE(0UL, address);
		if (!object[slot])
			object[slot] = address;
		EXPECT_EQ(object[slot], address)
			TH_LOG("example_ptr object should be the same for every event of slot %u",
			       slot);
		if (object[0]) {
			EXPECT_EQ(object[0] + slot * EXAMPLE_OBJECT_SIZE,
				  object[slot])
				TH_LOG("example_ptr slot %u should be %u bytes past slot 0",
				       slot, slot * EXAMPLE_OBJECT_SIZE);
		}
	}
	EXPECT_EQ(n, count)
		TH_LOG("events should hold %d example_ptr events", n);

	/* Oldest first per CPU: example_int counts rise on each CPU. */
	for (i = 0; i < MAX_CPUS; i++)
		last_count[i] = -1;
	for (i = 0; i < ev->nr; i++) {
		if (sscanf(ev->line[i], "example_int: count=%d", &count) != 1)
			continue;
		ASSERT_LT(ev->cpu[i], MAX_CPUS);
		EXPECT_LT(last_count[ev->cpu[i]], count)
			TH_LOG("events of cpu%d should be listed oldest first",
			       ev->cpu[i]);
		last_count[ev->cpu[i]] = count;
	}
}

/* Fire every marker of marker-example @n times. */
static void fire(struct __test_metadata *_metadata, int n)
{
	char text[16];

	snprintf(text, sizeof(text), "%d\n", n);
	ASSERT_EQ(0, write_file(EXAMPLE_FIRE, text))
		TH_LOG("writing %d to " EXAMPLE_FIRE " should succeed", n);
}

static void clear_events(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, write_file(PROBE_EVENTS, "clear\n"))
		TH_LOG("writing to " PROBE_EVENTS " should clear it");
}

/* ---- test_markers_probe ---- */

/* "name format" or "name": 0 or the registration's -errno. */
static int test_register(const char *request)
{
	return write_file(TEST_REGISTER, request);
}

static int test_unregister(const char *name)
{
	return write_file(TEST_UNREGISTER, name);
}

/* ---- The tests ---- */

/* ---- Boot-time enabling ---- */

#define BOOT_EVENT		TRACEFS "/events/markers/futex_wake"
#define BOOT_ENABLE_ARG		"trace_event=markers:futex_wake"
#define BOOT_TRIGGER_ARG	"trace_trigger=futex_wake.hist:keys=nr_wake"

/* @text with every run of blanks made one space (in place). */
static char *squeeze(char *text)
{
	char *in, *out = text;

	for (in = text; *in; in++) {
		if ((*in == ' ' || *in == '\t') && out > text &&
		    out[-1] == ' ')
			continue;
		*out++ = *in == '\t' ? ' ' : *in;
	}
	*out = '\0';
	return text;
}

/*
 * harness/boot boots the check guest with BOOT_ENABLE_ARG and
 * BOOT_TRIGGER_ARG. Marker events are made after the kernel applied the
 * command line to the events it had: both must have been applied to
 * markers:futex_wake too. The event records a FUTEX_WAKE of nobody with
 * nr_wake 7, and the hist trigger counts it. Runs first, before any test
 * resets tracing; leaves the event disabled and without the trigger, as
 * the other tests expect every marker event.
 */
TEST(boot_time_enabling)
{
	char want[128], *text, *end;
	uint32_t word = 0;

	text = read_file("/proc/cmdline");
	ASSERT_NE(NULL, text);
	if (!strstr(text, BOOT_ENABLE_ARG) || !strstr(text, BOOT_TRIGGER_ARG)) {
		free(text);
		SKIP(return, "booted without " BOOT_ENABLE_ARG " " BOOT_TRIGGER_ARG);
	}
	free(text);
	if (access(TRACEFS "/events", F_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);

	/* Enabled ("1"), and in soft mode for its trigger ("*") */
	text = read_file(BOOT_EVENT "/enable");
	ASSERT_NE(NULL, text) TH_LOG("no " BOOT_EVENT);
	EXPECT_STREQ("1*\n", text)
		TH_LOG(BOOT_ENABLE_ARG " and " BOOT_TRIGGER_ARG
		       " did not enable the event with its trigger");
	free(text);
	text = read_file(BOOT_EVENT "/trigger");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "hist:keys=nr_wake:"))
		TH_LOG(BOOT_TRIGGER_ARG " added no trigger: %s", text);
	free(text);

	EXPECT_EQ(0, syscall(SYS_futex, &word, FUTEX_WAKE, 7, NULL, NULL, 0));
	snprintf(want, sizeof(want), "futex_wake: uaddr=%lx op=%d nr_wake=7 ",
		 (unsigned long)&word, FUTEX_WAKE);
	text = read_file(TRACEFS "/trace");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, want))
		TH_LOG("the boot-enabled event did not record '%s'", want);
	free(text);
	text = read_file(BOOT_EVENT "/hist");
	if (text) {
		EXPECT_NE(NULL, strstr(squeeze(text),
				       "{ nr_wake: 7 } hitcount: 1\n"))
			TH_LOG("the boot trigger did not count the wake: %s", text);
		free(text);
	} else {
		EXPECT_NE(NULL, text) TH_LOG("no " BOOT_EVENT "/hist");
	}

	/* Remove the trigger by its whole text, without " [active]" */
	text = read_file(BOOT_EVENT "/trigger");
	ASSERT_NE(NULL, text);
	end = strstr(text, "hist:");
	if (end) {
		char *cut = strstr(end, " [");

		if (cut)
			*cut = '\0';
		snprintf(want, sizeof(want), "!%s\n", end);
		EXPECT_EQ(0, write_file(BOOT_EVENT "/trigger", want));
	}
	free(text);
	EXPECT_EQ(0, write_file(BOOT_EVENT "/enable", "0\n"));
	text = read_file(BOOT_EVENT "/trigger");
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "hist:"))
		TH_LOG("the boot trigger is still there: %s", text);
	free(text);
}

FIXTURE(markers) {
	char unused;
};

FIXTURE_SETUP(markers)
{
	char path[PATH_MAX];
	int m;

	if (geteuid())
		SKIP(return, "needs root: loads modules and reads tracefs");
	if (access(DEBUGFS "/tracing", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (access(SITES, F_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	if (access(SITES, R_OK))
		SKIP(return, SITES " is missing: no CONFIG_MARKERS_TRACE?");
	for (m = 0; m < NR_TEST_MODULES; m++) {
		module_path(m, path, sizeof(path));
		if (access(path, R_OK))
			SKIP(return, "%s/%s is missing: see MARKERS_MODULE_DIR",
			     module_dir(), test_modules[m].file);
	}
	unload_all();
	for (m = 0; m < NR_TEST_MODULES; m++) {
		ASSERT_EQ(-ENOENT, unload_module(m))
			TH_LOG("%s should be unloaded before the test starts",
			       test_modules[m].name);
	}
}

FIXTURE_TEARDOWN(markers)
{
	unload_all();
}

/* Sites go NOP -> jump -> NOP as probes come and go. */
TEST_F_TIMEOUT(markers, sites_follow_probes, TEST_TIMEOUT)
{
	load(_metadata, MARKER_EXAMPLE);
	check_example_sites(_metadata, false);

	load(_metadata, PROBE_EXAMPLE);
	check_example_sites(_metadata, true);

	unload(_metadata, PROBE_EXAMPLE);
	check_example_sites(_metadata, false);
}

/* N firings give N hits of each marker, with the values the site computes. */
TEST_F_TIMEOUT(markers, events_match_fired_values, TEST_TIMEOUT)
{
	struct events ev;
	unsigned int i;

	load(_metadata, MARKER_EXAMPLE);
	load(_metadata, PROBE_EXAMPLE);
	check_count(_metadata, "example_int", 0);
	clear_events(_metadata);

	fire(_metadata, 7);
	for (i = 0; i < ARRAY_SIZE(example_markers); i++)
		check_count(_metadata, example_markers[i], 7);
	check_count(_metadata, "example_init", 0);

	read_all_events(_metadata, &ev);
	EXPECT_EQ(7 * (int)ARRAY_SIZE(example_markers), ev.nr)
		TH_LOG("7 firings of 5 markers should record 35 events");
	check_fired_events(_metadata, &ev, 7);
	free(ev.text);

	/* Cleared, then fired again: only the new events. */
	clear_events(_metadata);
	fire(_metadata, 2);
	read_all_events(_metadata, &ev);
	EXPECT_EQ(2 * (int)ARRAY_SIZE(example_markers), ev.nr)
		TH_LOG("after clearing, 2 firings should record 10 events");
	check_fired_events(_metadata, &ev, 2);
	free(ev.text);
	check_count(_metadata, "example_int", 9);
}

/* The __init site is init-freed; attaching to its marker is fine. */
TEST_F_TIMEOUT(markers, init_site_is_init_freed, TEST_TIMEOUT)
{
	struct site site;
	char *state;

	load(_metadata, MARKER_EXAMPLE);
	read_one_site(_metadata, "marker_example", "example_init", &site);
	EXPECT_STREQ("init-freed", site.state)
		TH_LOG("the site of example_init, in __init text, should be init-freed");

	load(_metadata, TEST_PROBE);
	ASSERT_EQ(0, test_register("example_init objects %zu"))
		TH_LOG("a probe should attach to a marker with an init-freed site");
	read_one_site(_metadata, "marker_example", "example_init", &site);
	EXPECT_STREQ("init-freed", site.state)
		TH_LOG("an init-freed site should stay init-freed with a probe attached");

	state = read_file(EXAMPLE_INITSTATE);
	ASSERT_NE(NULL, state);
	EXPECT_STREQ("live\n", state)
		TH_LOG("marker_example should still be live");
	free(state);

	/* The module still works; the init marker never fires again. */
	fire(_metadata, 3);
	EXPECT_EQ(0, read_number(TEST_HITS))
		TH_LOG("a probe on example_init only should see no hits once init is over");
	EXPECT_EQ(0, test_unregister("example_init"))
		TH_LOG("detaching the probe from example_init should succeed");
}

/* A kprobe inside a site is refused; one at its function's entry is not. */
TEST_F_TIMEOUT(markers, kprobe_refused_inside_site, TEST_TIMEOUT)
{
	unsigned long offset, entry;
	struct site site;
	char line[128];
	int ret;

	if (access(KPROBE_EVENTS, F_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	if (access(KPROBE_EVENTS, W_OK))
		SKIP(return, KPROBE_EVENTS " is missing: kernel without CONFIG_KPROBE_EVENTS?");
	/* Leftovers of an earlier run. */
	kprobe_events_write("-:markers_test/site");
	kprobe_events_write("-:markers_test/entry");

	load(_metadata, MARKER_EXAMPLE);
	read_one_site(_metadata, "marker_example", "example_int", &site);
	ret = sscanf(site.symbol, "%*[^+]+%lx", &offset);
	ASSERT_EQ(1, ret)
		TH_LOG("site symbol should read function+offset, is %s",
		       site.symbol);
	ASSERT_GT(offset, 0UL)
		TH_LOG("the site should be inside its function, not at its entry");
	entry = site.code - offset;

	snprintf(line, sizeof(line), "p:markers_test/site 0x%lx\n", site.code);
	ret = kprobe_events_write(line);
	EXPECT_EQ(-EINVAL, ret)
		TH_LOG("a kprobe on the disabled site at 0x%lx (%s) should be refused with EINVAL",
		       site.code, site.symbol);
	if (!ret)
		kprobe_events_write("-:markers_test/site");

	load(_metadata, PROBE_EXAMPLE);
	read_one_site(_metadata, "marker_example", "example_int", &site);
	ASSERT_STREQ("enabled", site.state);
	ret = kprobe_events_write(line);
	EXPECT_EQ(-EINVAL, ret)
		TH_LOG("a kprobe on the enabled site at 0x%lx should be refused with EINVAL",
		       site.code);
	if (!ret)
		kprobe_events_write("-:markers_test/site");

	snprintf(line, sizeof(line), "p:markers_test/entry 0x%lx\n", entry);
	EXPECT_EQ(0, kprobe_events_write(line))
		TH_LOG("a kprobe at the entry 0x%lx of the site's function should be accepted",
		       entry);
	EXPECT_EQ(0, kprobe_events_write("-:markers_test/entry"))
		TH_LOG("removing the entry kprobe should succeed");
}

/* Open /dev/kmsg past its current end, to read what comes next. */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Whether a kernel message read from @fd contains every string of @words. */
static bool kmsg_find(int fd, const char * const *words, int nr)
{
	char record[8192];
	ssize_t n;
	int i;

	for (;;) {
		n = read(fd, record, sizeof(record) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			return false;
		record[n] = '\0';
		for (i = 0; i < nr && strstr(record, words[i]); i++)
			;
		if (i == nr)
			return true;
	}
}

/* A site whose format differs from its name's stays off and is reported. */
TEST_F_TIMEOUT(markers, conflicting_format_left_disabled, TEST_TIMEOUT)
{
	static const char * const warning[] = {
		"example_int", "test_markers_conflict",
		"count %d value %llu", "count %u value %llx",
	};
	struct site site;
	struct events ev;
	int kmsg;

	load(_metadata, MARKER_EXAMPLE);
	load(_metadata, PROBE_EXAMPLE);
	load(_metadata, TEST_PROBE);
	ASSERT_EQ(0, test_register("example_int"))
		TH_LOG("a NULL-format probe on example_int should attach");

	kmsg = kmsg_open_at_end();
	ASSERT_LE(0, kmsg) TH_LOG("/dev/kmsg should open");
	/* Its init fires the conflicting site once. */
	load(_metadata, TEST_CONFLICT);
	EXPECT_TRUE(kmsg_find(kmsg, warning, ARRAY_SIZE(warning)))
		TH_LOG("the log should name the marker, the module and both formats");
	close(kmsg);

	read_one_site(_metadata, "test_markers_conflict", "example_int", &site);
	EXPECT_STREQ("conflict", site.state)
		TH_LOG("the site with the other format should be in conflict");
	if (have_site_bytes())
		EXPECT_STREQ(site_nop_of(&site), site.bytes)
			TH_LOG("a conflicting site should stay a NOP while example_int has probes");
	check_count(_metadata, "example_int", 0);
	EXPECT_EQ(0, read_number(TEST_HITS))
		TH_LOG("no probe of example_int should see the conflicting site fire");

	/* The original marker keeps working. */
	read_one_site(_metadata, "marker_example", "example_int", &site);
	check_site(_metadata, &site, true);
	clear_events(_metadata);
	fire(_metadata, 2);
	check_count(_metadata, "example_int", 2);
	EXPECT_EQ(2, read_number(TEST_HITS))
		TH_LOG("the NULL-format probe should see marker_example's 2 hits");
	read_all_events(_metadata, &ev);
	check_fired_events(_metadata, &ev, 2);
	free(ev.text);

	read_one_site(_metadata, "test_markers_conflict", "example_int", &site);
	EXPECT_STREQ("conflict", site.state);
	unload(_metadata, TEST_CONFLICT);
}

/* Probes registered before the marker's module are attached as it loads. */
TEST_F_TIMEOUT(markers, probe_before_marker_module, TEST_TIMEOUT)
{
	struct site site;
	struct events ev;

	load(_metadata, PROBE_EXAMPLE);
	EXPECT_EQ(0, read_sites("marker_example", NULL, &site, 1))
		TH_LOG("marker_example is not loaded: it should have no sites");

	load(_metadata, MARKER_EXAMPLE);
	check_example_sites(_metadata, true);

	/* The __init site was enabled before the module's init ran. */
	check_count(_metadata, "example_init", 1);
	read_all_events(_metadata, &ev);
	EXPECT_EQ(1, count_events(&ev, "example_init: objects=4"))
		TH_LOG("the probe should have recorded example_init from the module's init");
	free(ev.text);

	clear_events(_metadata);
	fire(_metadata, 3);
	check_count(_metadata, "example_int", 3);
	read_all_events(_metadata, &ev);
	check_fired_events(_metadata, &ev, 3);
	free(ev.text);
}

/* Registration errors reach user space through test_markers_probe. */
TEST_F_TIMEOUT(markers, registration_errors, TEST_TIMEOUT)
{
	char name[MARKER_NAME_MAX + 1];

	load(_metadata, MARKER_EXAMPLE);
	load(_metadata, TEST_PROBE);

	EXPECT_EQ(-EPERM, test_register("example_int count %u value %llu"))
		TH_LOG("a format other than the marker's should give EPERM");
	EXPECT_EQ(0, test_register("example_int count %d value %llu"))
		TH_LOG("the marker's own format should register");
	EXPECT_EQ(-EEXIST, test_register("example_int count %d value %llu"))
		TH_LOG("the same probe and private data twice should give EEXIST");
	EXPECT_EQ(-EEXIST, test_register("example_int"))
		TH_LOG("the same probe and private data with a NULL format should give EEXIST too");
	EXPECT_EQ(0, test_unregister("example_int"))
		TH_LOG("unregistering the probe should succeed");
	EXPECT_EQ(-ENOENT, test_unregister("example_int"))
		TH_LOG("unregistering it again should give ENOENT");
	EXPECT_EQ(-ENOENT, test_unregister("markers_test_no_such_marker"))
		TH_LOG("unregistering from an unknown marker should give ENOENT");

	EXPECT_EQ(-EINVAL, test_register("\n"))
		TH_LOG("an empty name should give EINVAL");
	EXPECT_EQ(-EINVAL, test_register(" count %d"))
		TH_LOG("an empty name with a format should give EINVAL");

	memset(name, 'a', MARKER_NAME_MAX);
	name[MARKER_NAME_MAX] = '\0';
	EXPECT_EQ(-EINVAL, test_register(name))
		TH_LOG("a name of MARKER_NAME_MAX (64) characters should give EINVAL");
	name[MARKER_NAME_MAX - 1] = '\0';
	EXPECT_EQ(0, test_register(name))
		TH_LOG("a name of 63 characters should register, marker or not");
	EXPECT_EQ(0, test_unregister(name))
		TH_LOG("and unregister");

	EXPECT_EQ(-EINVAL, test_register("markers_test_no_such_marker value %q"))
		TH_LOG("a format the parser cannot size should give EINVAL");
}

/* A probe is called once per firing, and not at all once detached. */
TEST_F_TIMEOUT(markers, probe_sees_each_firing, TEST_TIMEOUT)
{
	load(_metadata, MARKER_EXAMPLE);
	load(_metadata, TEST_PROBE);

	ASSERT_EQ(0, test_register("example_int count %d value %llu"));
	ASSERT_EQ(0, test_register("example_noargs"));
	fire(_metadata, 5);
	EXPECT_EQ(10, read_number(TEST_HITS))
		TH_LOG("5 firings of 2 markers should call the probe 10 times");

	ASSERT_EQ(0, test_unregister("example_int"));
	ASSERT_EQ(0, test_unregister("example_noargs"));
	check_example_sites(_metadata, false);
	fire(_metadata, 5);
	EXPECT_EQ(10, read_number(TEST_HITS))
		TH_LOG("a detached probe should not be called");
}

/* The marker module may go and come back while probes stay attached. */
TEST_F_TIMEOUT(markers, marker_module_reload_with_probes, TEST_TIMEOUT)
{
	struct site site;
	struct events ev;

	load(_metadata, MARKER_EXAMPLE);
	load(_metadata, PROBE_EXAMPLE);
	fire(_metadata, 2);
	check_count(_metadata, "example_int", 2);

	unload(_metadata, MARKER_EXAMPLE);
	EXPECT_EQ(0, read_sites("marker_example", NULL, &site, 1))
		TH_LOG("an unloaded module should have no sites listed");

	load(_metadata, MARKER_EXAMPLE);
	check_example_sites(_metadata, true);
	check_count(_metadata, "example_init", 1);

	clear_events(_metadata);
	fire(_metadata, 3);
	check_count(_metadata, "example_int", 5);
	read_all_events(_metadata, &ev);
	check_fired_events(_metadata, &ev, 3);
	free(ev.text);

	unload(_metadata, PROBE_EXAMPLE);
	check_example_sites(_metadata, false);
}

/*
 * A site in built-in __exit text is freed with init memory on x86 and
 * arm64: it is listed init-freed and attaching to its marker leaves the
 * freed page alone (marker_kunit_exit is in kernel/trace/marker_kunit.c).
 */
TEST_F_TIMEOUT(markers, builtin_exit_site_is_init_freed, TEST_TIMEOUT)
{
	struct site site;
	int n;

	n = read_sites("vmlinux", "marker_kunit_exit", &site, 1);
	if (n == 0)
		SKIP(return, "no marker_kunit_exit: kernel without CONFIG_MARKERS_KUNIT_TEST");
	ASSERT_EQ(1, n);
	if (!site.code)
		SKIP(return, "no patchable sites: nothing is ever written at a site");
	EXPECT_STREQ("init-freed", site.state)
		TH_LOG("the site in built-in __exit text should be init-freed");
	EXPECT_STREQ("", site.bytes)
		TH_LOG("a freed site's bytes are not read: '-', is %s", site.bytes);

	load(_metadata, TEST_PROBE);
	EXPECT_EQ(0, test_register("marker_kunit_exit"))
		TH_LOG("attaching to a marker whose only site is freed should succeed");
	read_one_site(_metadata, "vmlinux", "marker_kunit_exit", &site);
	EXPECT_STREQ("init-freed", site.state)
		TH_LOG("the site should stay init-freed with a probe attached");
	EXPECT_EQ(0, test_unregister("marker_kunit_exit"));
}

/*
 * A kprobe on a module's marker site is refused from the moment the
 * module's text can be probed, before the marker core attaches the sites.
 */
TEST_F_TIMEOUT(markers, kprobe_refused_before_sites_attached, TEST_TIMEOUT)
{
	unsigned int sites = 0, accepted = 0;
	char *result;
	int n;

	if (!have_site_bytes())
		SKIP(return, "no patchable sites on this architecture");
	load(_metadata, TEST_KPROBE);
	ASSERT_EQ(0, write_file(KPROBE_TARGET, "marker_example\n"));
	load(_metadata, MARKER_EXAMPLE);
	result = read_file(KPROBE_RESULT);
	ASSERT_NE(NULL, result);
	n = sscanf(result, "sites %u accepted %u", &sites, &accepted);
	free(result);
	ASSERT_EQ(2, n)
		TH_LOG("result should read \"sites N accepted M\"");
	EXPECT_GT(sites, 5U)
		TH_LOG("every site of marker_example should have been tried");
	EXPECT_EQ(0U, accepted)
		TH_LOG("no kprobe on a site of a module coming up should be accepted");
	check_example_sites(_metadata, false);
}

/*
 * Module A sets example_int's format, module B's site with another one is
 * a conflict; when A goes, B's site takes over the name, and A, loaded
 * again, is the conflict.
 */
TEST_F_TIMEOUT(markers, conflict_heals_when_format_owner_unloads, TEST_TIMEOUT)
{
	struct site site;

	load(_metadata, MARKER_EXAMPLE);
	load(_metadata, TEST_CONFLICT);
	read_one_site(_metadata, "test_markers_conflict", "example_int", &site);
	ASSERT_STREQ("conflict", site.state);

	unload(_metadata, MARKER_EXAMPLE);
	read_one_site(_metadata, "test_markers_conflict", "example_int", &site);
	check_site(_metadata, &site, false);

	load(_metadata, TEST_PROBE);
	EXPECT_EQ(-EPERM, test_register("example_int count %d value %llu"))
		TH_LOG("the unloaded module's format should be gone with it");
	ASSERT_EQ(0, test_register("example_int count %u value %llx"))
		TH_LOG("the remaining site's format should be the marker's now");
	read_one_site(_metadata, "test_markers_conflict", "example_int", &site);
	check_site(_metadata, &site, true);

	load(_metadata, MARKER_EXAMPLE);
	read_one_site(_metadata, "marker_example", "example_int", &site);
	EXPECT_STREQ("conflict", site.state)
		TH_LOG("marker_example's example_int should be the conflict now");
	fire(_metadata, 2);
	EXPECT_EQ(0, read_number(TEST_HITS))
		TH_LOG("the conflicting site should not reach the probe");

	ASSERT_EQ(0, test_unregister("example_int"));
	unload(_metadata, TEST_CONFLICT);
	read_one_site(_metadata, "marker_example", "example_int", &site);
	check_site(_metadata, &site, false);
	ASSERT_EQ(0, test_register("example_int count %d value %llu"));
	fire(_metadata, 3);
	EXPECT_EQ(3, read_number(TEST_HITS))
		TH_LOG("marker_example's site, healed, should reach the probe");
	EXPECT_EQ(0, test_unregister("example_int"));
}

/*
 * A format-checked probe registered before any site sets the name's
 * format; a module loaded then with another format has its site left out,
 * until that probe goes.
 */
TEST_F_TIMEOUT(markers, conflict_heals_when_checked_probe_goes, TEST_TIMEOUT)
{
	struct site site;

	load(_metadata, TEST_PROBE);
	ASSERT_EQ(0, test_register("example_int wrong %d"))
		TH_LOG("a probe may come before its marker, with any format");
	load(_metadata, MARKER_EXAMPLE);
	read_one_site(_metadata, "marker_example", "example_int", &site);
	ASSERT_STREQ("conflict", site.state)
		TH_LOG("the site should disagree with the probe's format");

	ASSERT_EQ(0, test_unregister("example_int"));
	read_one_site(_metadata, "marker_example", "example_int", &site);
	check_site(_metadata, &site, false);

	ASSERT_EQ(0, test_register("example_int count %d value %llu"))
		TH_LOG("the site's format should be the marker's now");
	read_one_site(_metadata, "marker_example", "example_int", &site);
	check_site(_metadata, &site, true);
	fire(_metadata, 4);
	EXPECT_EQ(4, read_number(TEST_HITS))
		TH_LOG("the healed site should reach the probe without a reload");
	EXPECT_EQ(0, test_unregister("example_int"));
}

/*
 * A module that goes with its probes attached (a typed probe on its own
 * declaration, a probe with a format on the same name) has each named in a
 * warning and dropped, and its declaration forgotten: a probe registered
 * by name afterwards works, and the module loaded again has a usable site,
 * not one in conflict with its former self.
 */
TEST_F_TIMEOUT(markers, leaked_probes_dropped_when_module_goes, TEST_TIMEOUT)
{
	static const char * const words[] = {
		"test_markers_leak", "still attached", "test_leak_typed",
	};
	struct site site;
	int kmsg;

	load(_metadata, TEST_LEAK);
	read_one_site(_metadata, "test_markers_leak", "test_leak_typed", &site);
	check_site(_metadata, &site, true);
	ASSERT_EQ(0, write_file(LEAK_FIRE, "2"));
	EXPECT_EQ(4, read_number(LEAK_HITS))
		TH_LOG("both of the module's probes should see both firings");
	kmsg = kmsg_open_at_end();
	ASSERT_LE(0, kmsg);
	unload(_metadata, TEST_LEAK);
	EXPECT_TRUE(kmsg_find(kmsg, words, 3))
		TH_LOG("the leaked probes should be named in a warning");
	close(kmsg);

	load(_metadata, TEST_PROBE);
	ASSERT_EQ(0, test_register("test_leak_typed n %d"))
		TH_LOG("a probe by name should attach once the module is gone");
	load(_metadata, TEST_LEAK);
	read_one_site(_metadata, "test_markers_leak", "test_leak_typed", &site);
	EXPECT_STRNE("conflict", site.state)
		TH_LOG("the reloaded module's site should not conflict with its former self");
	check_site(_metadata, &site, true);
	ASSERT_EQ(0, write_file(LEAK_FIRE, "3"));
	EXPECT_EQ(3, read_number(TEST_HITS))
		TH_LOG("the probe registered by name should see the new site");
	EXPECT_EQ(6, read_number(LEAK_HITS));
	EXPECT_EQ(0, test_unregister("test_leak_typed"));
	unload(_metadata, TEST_LEAK);
}

/*
 * A module's __marker_sites, the code addresses marker updates patch
 * through, are read-only once it is loaded, as its __jump_table.
 */
TEST_F_TIMEOUT(markers, module_site_table_read_only, TEST_TIMEOUT)
{
	long ro;

	load(_metadata, TEST_LEAK);
	ro = read_number(LEAK_SITES_RO);
	if (ro < 0) {
		unload(_metadata, TEST_LEAK);
		SKIP(return, "no patchable sites");
	}
	EXPECT_EQ(1, ro)
		TH_LOG("the module's __marker_sites should be read-only after init");
	unload(_metadata, TEST_LEAK);
}

TEST_HARNESS_MAIN
