// SPDX-License-Identifier: GPL-2.0
/*
 * markers_fuzz - seeded writes of hostile input to the markers' files
 *
 * FUZZ_WRITES writes (default 200) to the files user space can write to:
 * every file under events/markers/ (per event and for the system: enable,
 * filter, trigger, and the read-only ones), set_event, the listings
 * markers, marker_sites and marker_stats, and the test modules' knobs
 * that are loaded (test_markers_probe's register and unregister,
 * test_markers_hold's control, the fire files, test_markers_stress's hot
 * and irq). Each write is random bytes of a
 * random length, a command that looks valid but is wrong, a valid
 * command, a huge write, a write split in pieces, or a write whose buffer
 * runs into an unmapped page.
 *
 * For each write, the state of the markers (set_event, the listings, the
 * sites' states, tracing_on, the system's enable, what test_markers_hold
 * holds, whether hot and irq run, and the target event's own files) is
 * read before and after it:
 *   - each write returns its length, a part of it, or -1 with an errno;
 *   - nothing outside the write's scope changed (its event for an event's
 *     file, the name it writes for register/unregister/hold, every marker
 *     for the system's files and set_event, nothing for the read-only
 *     files and the fire knobs);
 *   - a write refused in all its pieces changed nothing at all, except an
 *     event filter's text, which ftrace keeps to show the error;
 *   - a valid command took effect (an enable reads back its value, a
 *     trigger is listed, set_event lists the event, a probe enables the
 *     name's sites, a hold is held);
 *   - undoing it (0 to enable and filter, removing each trigger by name,
 *     truncating set_event, unregister, release, 0 to hot and irq) brings
 *     back the state seen at the start; the whole state, every file of
 *     every event included, is compared every 256 writes and at the end.
 * The same seed gives the same writes on the same set of markers, so a
 * failure is replayed with the seed it prints.
 *
 * Environment: FUZZ_SEED (default: from the clock; printed), FUZZ_WRITES,
 * FUZZ_VERBOSE=1 to print every write. Output: TAP, and a table as
 * comments ("# | ..."). Needs root, tracefs and debugfs mounted.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"

#define TRACEFS		"/sys/kernel/tracing"
#define DEBUGFS		"/sys/kernel/debug"
#define EVENTS		TRACEFS "/events/markers"
#define HUGE_MAX	(1024 * 1024)
#define STATE_MAX	(1024 * 1024)
#define FULL_EVERY	256
#define MAX_TARGETS	4096
#define NAME_MAX_LEN	128
#define MAX_PIECES	4

enum kind { K_RANDOM, K_WRONG, K_VALID, K_HUGE, K_SPLIT, K_FAULT, K_NR };
static const char * const kind_names[K_NR] = {
	"random bytes", "valid-looking, wrong", "valid", "huge",
	"split in pieces", "into an unmapped page",
};

enum ftype {
	F_EV_ENABLE, F_EV_FILTER, F_EV_TRIGGER, F_EV_READONLY,
	F_SYS_ENABLE, F_SYS_FILTER, F_SET_EVENT, F_LISTING,
	F_PROBE_REG, F_PROBE_UNREG, F_HOLD, F_FIRE, F_HOT, F_IRQ,
};

struct target {
	char path[256];
	enum ftype type;
	char event[NAME_MAX_LEN];	/* the event of an event's file */
};

static struct target targets[MAX_TARGETS];
static int nr_targets;
static char events[1024][NAME_MAX_LEN];	/* sorted */
static char fields[1024][256];		/* each event's first own field */
static int nr_events;

static unsigned long long rng;
static bool verbose;

/* What the run saw; the TAP lines are built from these. */
static unsigned long n_kind[K_NR], n_ok[K_NR], n_err[K_NR], n_part[K_NR];
static unsigned long n_writes, n_scope_bad, n_refused_bad, n_effect_bad;
static unsigned long n_effect_ok, n_restore_bad, n_full, n_full_bad;
static unsigned long n_bad_return, errnos[160];

static unsigned long long next(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static unsigned long below(unsigned long n)
{
	return n ? next() % n : 0;
}

static void note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* The whole of a file, NUL-terminated, in buf; -errno if it cannot be read. */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	if (n < 0)
		len = -errno;
	close(fd);
	buf[len < 0 ? 0 : len] = '\0';
	return len;
}

static int put(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags), ret = 0;

	if (fd < 0)
		return -errno;
	if (*s && write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/*
 * A state: lines "FILE<TAB>LINE", sorted. Lines whose name (see
 * line_name()) is in the write's scope may change.
 */
struct state {
	char *lines[16384];
	int nr;
	char *buf;
	size_t used;
};

static void state_add(struct state *st, const char *file, const char *line)
{
	size_t need = strlen(file) + strlen(line) + 2;

	if (st->nr >= 16384 || st->used + need > STATE_MAX)
		return;
	st->lines[st->nr] = st->buf + st->used;
	sprintf(st->lines[st->nr], "%s\t%s", file, line);
	st->used += need;
	st->nr++;
}

/* Counters and times, which change with the workload, are not state. */
static bool is_counter(const char *file)
{
	return !strcmp(file, "marker_stats");
}

static void state_file(struct state *st, const char *tag, const char *path)
{
	static char buf[STATE_MAX];
	char *line, *save;

	if (slurp(path, buf, sizeof(buf)) < 0) {
		state_add(st, tag, "(unreadable)");
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!is_counter(tag))
			state_add(st, tag, line);
	}
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static void event_files(struct state *st, const char *event)
{
	static const char * const files[] = { "enable", "filter", "trigger" };
	char path[512], tag[256];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), EVENTS "/%.127s/%s", event, files[i]);
		snprintf(tag, sizeof(tag), "ev/%.127s/%s", event, files[i]);
		state_file(st, tag, path);
	}
}

/*
 * The state: set_event, the listings, tracing_on, the system's enable,
 * what test_markers_hold holds, whether hot and irq run; and the files of
 * one event (@event) or none. The whole state (@all) adds the files of
 * every event. marker_sites gives each site's state and bytes.
 */
static void state_read(struct state *st, const char *event, bool all)
{
	int i;

	st->nr = 0;
	st->used = 0;
	state_file(st, "set_event", TRACEFS "/set_event");
	state_file(st, "markers", TRACEFS "/markers");
	state_file(st, "marker_sites", TRACEFS "/marker_sites");
	state_file(st, "marker_stats", TRACEFS "/marker_stats");
	state_file(st, "tracing_on", TRACEFS "/tracing_on");
	state_file(st, "sys/enable", EVENTS "/enable");
	state_file(st, "hold", DEBUGFS "/test_markers_hold/control");
	if (exists(DEBUGFS "/test_markers_stress/hot")) {
		/* Only whether a run is going: the counters move. */
		static char buf[512];

		slurp(DEBUGFS "/test_markers_stress/hot", buf, sizeof(buf));
		state_add(st, "hot", strncmp(buf, "running 1", 9) ? "idle" : "running");
		slurp(DEBUGFS "/test_markers_stress/irq", buf, sizeof(buf));
		state_add(st, "irq", strncmp(buf, "running 1", 9) ? "idle" : "running");
	}
	if (all) {
		for (i = 0; i < nr_events; i++)
			event_files(st, events[i]);
	} else if (event && *event) {
		event_files(st, event);
	}
	qsort(st->lines, st->nr, sizeof(st->lines[0]), cmp_lines);
}

/* dst: the lines of a and b, sorted (dst points into their buffers). */
static void state_merge(struct state *dst, const struct state *a,
			const struct state *b)
{
	int i;

	dst->nr = 0;
	for (i = 0; i < a->nr; i++)
		dst->lines[dst->nr++] = a->lines[i];
	for (i = 0; i < b->nr && dst->nr < 16384; i++)
		dst->lines[dst->nr++] = b->lines[i];
	qsort(dst->lines, dst->nr, sizeof(dst->lines[0]), cmp_lines);
}

/*
 * The name a state line belongs to: the event of an event's file, the
 * marker of a listing or sites line, the event of a set_event line
 * ("markers:NAME"); "" for a line of no one marker (tracing_on, the
 * system's enable, hot, irq, hold); any other system's event in set_event
 * is "*other".
 */
static void line_name(const char *l, char *name, size_t size)
{
	const char *tab = strchr(l, '\t'), *s, *e;

	*name = '\0';
	if (!tab)
		return;
	if (!strncmp(l, "ev/", 3)) {
		s = l + 3;
		e = strchr(s, '/');
	} else if (!strncmp(l, "set_event\t", 10)) {
		s = tab + 1;
		if (strncmp(s, "markers:", 8)) {
			snprintf(name, size, "*other");
			return;
		}
		s += 8;
		e = s + strcspn(s, " \t");
	} else if (!strncmp(l, "markers\t", 8) ||
		   !strncmp(l, "marker_sites\t", 13)) {
		s = tab + 1;
		e = s + strcspn(s, " ");
	} else if (!strncmp(l, "hold\t", 5)) {
		s = tab + 1;
		if (strncmp(s, "held ", 5))
			return;
		s += 5;
		e = s + strcspn(s, " ");
	} else {
		return;
	}
	if (!e)
		return;
	snprintf(name, size, "%.*s", (int)(e - s), s);
}

/* What a write may change. */
struct scope {
	bool all_markers;	/* every marker's lines and the summaries */
	bool others;		/* other systems' events in set_event */
	bool tracing_on;	/* a traceoff trigger may fire */
	bool knobs;		/* hot, irq */
	bool hold;		/* what test_markers_hold holds */
	char names[MAX_PIECES][NAME_MAX_LEN];	/* markers, or "" */
	char prefix[NAME_MAX_LEN];	/* markers starting with it, or "" */
};

/* How a write is cut: the lengths of its pieces, one write(2) each. */
struct plan {
	size_t piece[MAX_PIECES];
	int nr;
};

static bool scope_has(const struct scope *sc, const char *name)
{
	int i;

	for (i = 0; i < MAX_PIECES; i++)
		if (sc->names[i][0] && !strcmp(sc->names[i], name))
			return true;
	return false;
}

static bool in_scope(const char *l, const struct scope *sc)
{
	char name[NAME_MAX_LEN * 2];

	line_name(l, name, sizeof(name));
	if (!*name) {
		if (!strncmp(l, "tracing_on\t", 11))
			return sc->tracing_on || sc->all_markers;
		if (!strncmp(l, "hot\t", 4) || !strncmp(l, "irq\t", 4))
			return sc->knobs;
		if (!strncmp(l, "hold\t", 5))
			return sc->hold;
		if (!strncmp(l, "sys/", 4))
			return sc->all_markers || sc->names[0][0] || sc->prefix[0];
		return sc->all_markers;
	}
	if (!strcmp(name, "*other"))
		return sc->others;
	if (sc->all_markers)
		return true;
	if (scope_has(sc, name))
		return true;
	return sc->prefix[0] && !strncmp(name, sc->prefix, strlen(sc->prefix));
}

/*
 * Lines that differ between a and b and are not in sc's scope (sc NULL:
 * every difference); the first few are printed after @what.
 */
static int state_diff(const struct state *a, const struct state *b,
		      const struct scope *sc, const char *what)
{
	int i = 0, j = 0, bad = 0, c;

	while (i < a->nr || j < b->nr) {
		const char *l;
		char sign;

		if (i >= a->nr)
			c = 1;
		else if (j >= b->nr)
			c = -1;
		else
			c = strcmp(a->lines[i], b->lines[j]);
		if (!c) {
			i++;
			j++;
			continue;
		}
		if (c < 0) {
			l = a->lines[i++];
			sign = '-';
		} else {
			l = b->lines[j++];
			sign = '+';
		}
		if (sc && in_scope(l, sc))
			continue;
		if (bad++ < 6)
			note("%s: %c %s", what, sign, l);
	}
	return bad;
}

static bool has_line(const struct state *st, const char *prefix)
{
	size_t n = strlen(prefix);
	int i;

	for (i = 0; i < st->nr; i++)
		if (!strncmp(st->lines[i], prefix, n))
			return true;
	return false;
}

static void add_target(const char *path, enum ftype type, const char *event)
{
	struct target *t;

	if (nr_targets >= MAX_TARGETS || !exists(path))
		return;
	t = &targets[nr_targets++];
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->type = type;
	snprintf(t->event, sizeof(t->event), "%s", event ? event : "");
}

static int alpha(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The first field of an event's format, for valid filters; "" if none. */
static void first_field(const char *event, char *field, size_t size)
{
	static char buf[8192];
	char path[512], *p;

	*field = '\0';
	snprintf(path, sizeof(path), EVENTS "/%.127s/format", event);
	if (slurp(path, buf, sizeof(buf)) < 0)
		return;
	/* The event's own fields follow the common_* ones. */
	for (p = strstr(buf, "\tfield:"); p; p = strstr(p + 1, "\tfield:")) {
		char *semi = strchr(p, ';'), *name;

		if (!semi)
			return;
		for (name = semi; name > p && name[-1] != ' ' && name[-1] != '*'; name--)
			;
		if (!strncmp(name, "common_", 7))
			continue;
		if (strchr(name, '['))
			continue;
		snprintf(field, size, "%.*s", (int)(semi - name), name);
		return;
	}
}

static void find_targets(void)
{
	static const char * const ro[] = { "format", "id", "hist" };
	struct dirent **list;
	char path[512];
	int n, i, k;

	n = scandir(EVENTS, &list, NULL, alpha);
	for (i = 0; i < n; i++) {
		const char *e = list[i]->d_name;

		snprintf(path, sizeof(path), EVENTS "/%.127s/enable", e);
		if (e[0] != '.' && exists(path) && nr_events < 1024) {
			snprintf(events[nr_events], NAME_MAX_LEN, "%.127s", e);
			first_field(e, fields[nr_events], sizeof(fields[0]));
			nr_events++;
		}
		free(list[i]);
	}
	free(list);
	for (i = 0; i < nr_events; i++) {
		const char *e = events[i];

		snprintf(path, sizeof(path), EVENTS "/%.127s/enable", e);
		add_target(path, F_EV_ENABLE, e);
		snprintf(path, sizeof(path), EVENTS "/%.127s/filter", e);
		add_target(path, F_EV_FILTER, e);
		snprintf(path, sizeof(path), EVENTS "/%.127s/trigger", e);
		add_target(path, F_EV_TRIGGER, e);
		for (k = 0; k < 3; k++) {
			snprintf(path, sizeof(path), EVENTS "/%.127s/%s", e, ro[k]);
			add_target(path, F_EV_READONLY, e);
		}
	}
	add_target(EVENTS "/enable", F_SYS_ENABLE, NULL);
	add_target(EVENTS "/filter", F_SYS_FILTER, NULL);
	add_target(TRACEFS "/set_event", F_SET_EVENT, NULL);
	add_target(TRACEFS "/markers", F_LISTING, NULL);
	add_target(TRACEFS "/marker_sites", F_LISTING, NULL);
	add_target(TRACEFS "/marker_stats", F_LISTING, NULL);
	add_target(DEBUGFS "/test_markers_probe/register", F_PROBE_REG, NULL);
	add_target(DEBUGFS "/test_markers_probe/unregister", F_PROBE_UNREG, NULL);
	add_target(DEBUGFS "/test_markers_probe/hits", F_LISTING, NULL);
	add_target(DEBUGFS "/test_markers_hold/control", F_HOLD, NULL);
	add_target(DEBUGFS "/test_markers_trace/fire", F_FIRE, NULL);
	add_target(DEBUGFS "/marker-example/fire", F_FIRE, NULL);
	add_target(DEBUGFS "/test_markers_stress/hot", F_HOT, NULL);
	add_target(DEBUGFS "/test_markers_stress/irq", F_IRQ, NULL);
}

/*
 * Pick a target: half the time one of the files of a random event, else
 * one of the others, evenly.
 */
static struct target *pick_target(void)
{
	int first_global = 0;

	while (first_global < nr_targets && targets[first_global].event[0])
		first_global++;
	if (first_global == nr_targets || (first_global && (next() & 1)))
		return &targets[below(first_global)];
	return &targets[first_global + below(nr_targets - first_global)];
}

static const char *some_event(void)
{
	return nr_events ? events[below(nr_events)] : "example_int";
}

static int event_index(const char *e)
{
	int i;

	for (i = 0; i < nr_events; i++)
		if (!strcmp(events[i], e))
			return i;
	return -1;
}

/* A command that looks right for t but is not, in buf. */
static void wrong_command(const struct target *t, char *buf, size_t size)
{
	static const char * const enable[] = {
		"2", "-1", "0x1", "1a", "", "\n", "true", " ", "1 1", "11",
		"18446744073709551617", "1\n1\n", "\t", "+",
	};
	static const char * const filter[] = {
		"common_pid ==", "nosuchfield == 1", "common_pid == abc",
		"((((", "common_pid > 1 &&", "common_pid == 1 || nosuch",
		"common_pid ~ 3", "\"", "common_pid == 1)", "&&",
		"common_pid == 99999999999999999999999",
	};
	static const char * const trigger[] = {
		"traceon:abc", "traceoff:-1", "snapshot:x", "stacktrace:0x",
		"enable_event:markers:nosuch_marker", "enable_event:nosuch:x",
		"hist:keys=nosuch", "hist:keys=common_pid:vals=nosuch",
		"!traceon", "nosuchtrigger", "traceon if nosuch == 1",
		"hist:keys=common_pid:sort=nosuch", ":", "!",
	};
	static const char * const set_event[] = {
		"markers:nosuch_marker", "nosuch:*", "markers:", ":",
		"!markers:nosuch_marker", "markers:%s:extra", "*:nosuch_marker",
		"markers:%s%s", "::::", "!", "markers:%s\x01",
	};
	static const char * const probe[] = {
		"%s %%q", "%s cpu %%d cpu %%d", "%s ", " %s", "", " ",
		"%s count %%d value %%llu extra %%d", "%s\t%%d", "%s %%*d",
		"nosuch_marker_but_longer_than_sixty_four_characters_for_sure_0123456789",
	};
	static const char * const hold[] = {
		"hold nosuch_marker", "enable", "disable", "hold", "hold ",
		"release now", "bogus", "hold %s extra",
	};
	static const char * const number[] = {
		"-1", "abc", "99999999999999999999999", "", "0x", "1 2",
	};
	const char *e = t->event[0] ? t->event : some_event();
	const char *f;

	switch (t->type) {
	case F_EV_ENABLE:
	case F_SYS_ENABLE:
		f = enable[below(ARRAY_SIZE(enable))];
		break;
	case F_EV_FILTER:
	case F_SYS_FILTER:
		f = filter[below(ARRAY_SIZE(filter))];
		break;
	case F_EV_TRIGGER:
		f = trigger[below(ARRAY_SIZE(trigger))];
		break;
	case F_SET_EVENT:
		f = set_event[below(ARRAY_SIZE(set_event))];
		break;
	case F_PROBE_REG:
	case F_PROBE_UNREG:
		f = probe[below(ARRAY_SIZE(probe))];
		break;
	case F_HOLD:
		f = hold[below(ARRAY_SIZE(hold))];
		break;
	case F_HOT:
	case F_IRQ:
	case F_FIRE:
		f = number[below(ARRAY_SIZE(number))];
		break;
	default:
		f = "1";
		break;
	}
	snprintf(buf, size, f, e, e);
}

/* A valid command for t in buf; false if t takes none. */
static bool valid_command(const struct target *t, char *buf, size_t size)
{
	const char *e = t->event[0] ? t->event : some_event();
	int i = event_index(e);
	static char list[1 << 18];
	char want[NAME_MAX_LEN + 8], *q;
	size_t len;

	switch (t->type) {
	case F_EV_ENABLE:
	case F_SYS_ENABLE:
		snprintf(buf, size, "%d\n", (int)below(2));
		return true;
	case F_EV_FILTER:
		if (i >= 0 && fields[i][0] && (next() & 1))
			snprintf(buf, size, "%s != 0", fields[i]);
		else
			snprintf(buf, size, "common_pid != 0");
		return true;
	case F_SYS_FILTER:
		snprintf(buf, size, "common_pid != 0");
		return true;
	case F_EV_TRIGGER:
		snprintf(buf, size, "%s", (next() & 1) ? "traceon" : "hist:keys=common_pid");
		return true;
	case F_SET_EVENT:
		snprintf(buf, size, "markers:%s\n", e);
		return true;
	case F_PROBE_REG:
		/* The marker's own format, from its line in the listing. */
		if (slurp(TRACEFS "/markers", list, sizeof(list)) < 0)
			return false;
		snprintf(want, sizeof(want), "\n%s \"", e);
		q = strstr(list, want);
		if (!q)
			return false;
		q += strlen(want);
		len = strcspn(q, "\"");
		snprintf(buf, size, len ? "%s %.*s" : "%s", e, (int)len, q);
		return true;
	case F_PROBE_UNREG:
		snprintf(buf, size, "%s", e);
		return true;
	case F_HOLD:
		snprintf(buf, size, "hold %s", e);
		return true;
	case F_FIRE:
		snprintf(buf, size, "1");
		return true;
	case F_HOT:
		snprintf(buf, size, "%d", 1 + (int)below(3));
		return true;
	case F_IRQ:
		snprintf(buf, size, "1");
		return true;
	default:
		*buf = '\0';
		return false;
	}
}

/*
 * The name one write to test_markers_probe's register or unregister
 * names, parsed as the module does: the bytes up to a NUL, without a
 * trailing newline, up to the first space; "" for a write it refuses
 * whole (over 256 bytes).
 */
static void probe_name(const char *data, size_t len, char *name, size_t size)
{
	char buf[NAME_MAX_LEN + 2];
	size_t n;

	*name = '\0';
	if (len > 256)
		return;
	n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
	memcpy(buf, data, n);
	buf[n] = '\0';
	if (len && n == len && data[len - 1] == '\n')
		buf[len - 1] = '\0';
	buf[strcspn(buf, " ")] = '\0';
	snprintf(name, size, "%.*s", (int)size - 1, buf);
}

/* The same for test_markers_hold's control: "hold NAME", trimmed. */
static void hold_name(const char *data, size_t len, char *name, size_t size)
{
	char buf[128], *s, *e;

	*name = '\0';
	if (len >= sizeof(buf))
		return;
	memcpy(buf, data, len);
	buf[len] = '\0';
	for (s = buf; *s && strchr(" \t\n\v\f\r", *s); s++)
		;
	e = s + strlen(s);
	while (e > s && strchr(" \t\n\v\f\r", e[-1]))
		*--e = '\0';
	if (!strncmp(s, "hold ", 5))
		snprintf(name, size, "%.*s", (int)size - 1, s + 5);
}

static void scope_of(const struct target *t, const char *data, size_t len,
		     const struct plan *pl, struct scope *sc)
{
	size_t off = 0;
	int i;

	memset(sc, 0, sizeof(*sc));
	switch (t->type) {
	case F_EV_ENABLE:
	case F_EV_FILTER:
		snprintf(sc->names[0], NAME_MAX_LEN, "%s", t->event);
		break;
	case F_EV_TRIGGER:
		snprintf(sc->names[0], NAME_MAX_LEN, "%s", t->event);
		sc->tracing_on = true;
		/* enable_event:markers:X and friends change X. */
		if (memmem(data, len, "able_event", 10) || memmem(data, len, "onmatch", 7) ||
		    memmem(data, len, "trace(", 6))
			sc->all_markers = true;
		break;
	case F_SYS_ENABLE:
	case F_SYS_FILTER:
		sc->all_markers = true;
		break;
	case F_SET_EVENT:
		sc->all_markers = true;
		sc->others = true;
		break;
	case F_PROBE_REG:
	case F_PROBE_UNREG:
		for (i = 0; i < pl->nr; off += pl->piece[i++])
			probe_name(data + off, pl->piece[i], sc->names[i], NAME_MAX_LEN);
		break;
	case F_HOLD:
		sc->hold = true;
		for (i = 0; i < pl->nr; off += pl->piece[i++])
			hold_name(data + off, pl->piece[i], sc->names[i], NAME_MAX_LEN);
		break;
	case F_HOT:
	case F_IRQ:
		snprintf(sc->prefix, sizeof(sc->prefix), "test_stress_");
		sc->knobs = true;
		break;
	default:
		break;
	}
}

static void wait_hot_idle(void)
{
	char buf[512];
	int i;

	for (i = 0; i < 600; i++) {
		if (slurp(DEBUGFS "/test_markers_stress/hot", buf, sizeof(buf)) < 0 ||
		    strncmp(buf, "running 1", 9))
			return;
		usleep(50000);
	}
}

/*
 * Remove every trigger of a trigger file, each by its own command: "!"
 * and the command ("!traceon"), with its event for enable_event and
 * disable_event, the whole text for hist. (Truncating the file removes
 * the hist triggers only.)
 */
static void remove_triggers(const char *path)
{
	static char buf[65536];
	char *line, *save, cmd[4096];
	size_t n;

	if (slurp(path, buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (!strncmp(line, "hist:", 5)) {
			n = strstr(line, " [") ? (size_t)(strstr(line, " [") - line) : strlen(line);
		} else if (!strncmp(line, "enable_event:", 13) ||
			   !strncmp(line, "disable_event:", 14)) {
			/* "enable_event:system:event:count [if filter]" */
			char *c = strchr(line, ':');

			c = c ? strchr(c + 1, ':') : NULL;
			c = c ? strchr(c + 1, ':') : NULL;
			n = c ? (size_t)(c - line) : strcspn(line, " ");
		} else {
			n = strcspn(line, ": ");
		}
		snprintf(cmd, sizeof(cmd), "!%.*s", (int)n, line);
		put(path, cmd, O_APPEND);
	}
}

/* Undo what a write to t may have done; scope sc tells what it named. */
static void restore(const struct target *t, const struct scope *sc)
{
	int i;

	switch (t->type) {
	case F_EV_ENABLE:
		put(t->path, "0", 0);
		break;
	case F_EV_FILTER:
		put(t->path, "0", 0);
		break;
	case F_EV_TRIGGER:
		remove_triggers(t->path);
		break;
	case F_SYS_ENABLE:
		put(t->path, "0", 0);
		break;
	case F_SYS_FILTER:
		put(t->path, "0", 0);
		break;
	case F_SET_EVENT:
		put(t->path, "", O_TRUNC);
		break;
	case F_PROBE_REG:
		for (i = 0; i < MAX_PIECES; i++)
			if (sc->names[i][0])
				put(DEBUGFS "/test_markers_probe/unregister",
				    sc->names[i], 0);
		break;
	case F_HOLD:
		put(t->path, "release", 0);
		break;
	case F_HOT:
		put(t->path, "0", 0);
		wait_hot_idle();
		break;
	case F_IRQ:
		put(t->path, "0", 0);
		break;
	default:
		break;
	}
	if (sc->tracing_on || sc->all_markers)
		put(TRACEFS "/tracing_on", "1", 0);
}

/* Bytes for a write of kind k to t, in buf (at least HUGE_MAX); its length. */
static size_t make_data(enum kind k, const struct target *t, char *buf)
{
	size_t len, i;

	switch (k) {
	case K_RANDOM:
		len = below(4) ? below(64) : below(4096 + 1);
		for (i = 0; i < len; i++)
			buf[i] = next();
		return len;
	case K_WRONG:
		wrong_command(t, buf, 4096);
		return strlen(buf);
	case K_VALID:
		if (!valid_command(t, buf, 4096))
			wrong_command(t, buf, 4096);
		return strlen(buf);
	case K_HUGE:
		len = 4096 + below(HUGE_MAX - 4096);
		/* A valid or random start, then repeated or random filler. */
		if (next() & 1)
			valid_command(t, buf, 4096);
		else
			wrong_command(t, buf, 4096);
		i = strlen(buf);
		if (next() & 1)
			memset(buf + i, (next() & 1) ? ' ' : 'a', len - i);
		else
			for (; i < len; i++)
				buf[i] = next();
		return len;
	default:
		/* split and fault: a valid or wrong command */
		if (next() & 1)
			valid_command(t, buf, 4096);
		else
			wrong_command(t, buf, 4096);
		return strlen(buf);
	}
}

static char *fault_page;	/* a mapped page followed by an unmapped one */

/*
 * One write of kind k to t: returns true if any piece was accepted (a
 * return of 0 < n <= its length); records errnos and bad returns.
 */
static void plan_pieces(enum kind k, size_t len, struct plan *pl)
{
	size_t left = len;
	int i;

	pl->nr = k == K_SPLIT ? 2 + below(MAX_PIECES - 1) : 1;
	for (i = 0; i < pl->nr - 1; i++) {
		pl->piece[i] = below(left + 1);
		left -= pl->piece[i];
	}
	pl->piece[i] = left;
}

static bool do_write(enum kind k, const struct target *t, const char *data,
		     size_t len, const struct plan *pl, bool *bad_return)
{
	static const int flags[] = { 0, O_APPEND, O_TRUNC };
	bool accepted = false;
	size_t off = 0, piece;
	ssize_t n;
	int fd, i;

	*bad_return = false;
	fd = open(t->path, O_WRONLY | flags[below(3)]);
	if (fd < 0) {
		errnos[errno < 160 ? errno : 0]++;
		return false;
	}
	if (k == K_FAULT) {
		/* The data ends where the mapping does, plus 1..16 bytes more. */
		size_t over = 1 + below(16);
		char *p = fault_page + 4096 - len;

		memcpy(p, data, len);
		n = write(fd, p, len + over);
		if (n > (ssize_t)(len + over) || n == 0) {
			*bad_return = true;
		} else if (n < 0) {
			errnos[errno < 160 ? errno : 0]++;
		} else {
			accepted = true;
			n_part[k] += n < (ssize_t)(len + over);
		}
		close(fd);
		return accepted;
	}
	for (i = 0; i < pl->nr; i++) {
		piece = pl->piece[i];
		n = write(fd, data + off, piece);
		off += piece;	/* the next piece is written all the same */
		if (n > (ssize_t)piece || (n == 0 && piece)) {
			*bad_return = true;
			break;
		}
		if (n < 0) {
			errnos[errno < 160 ? errno : 0]++;
			continue;
		}
		accepted = true;
		if (n < (ssize_t)piece)
			n_part[k]++;
	}
	close(fd);
	return accepted;
}

static void show_data(const char *data, size_t len)
{
	char out[200];
	size_t i, o = 0;

	for (i = 0; i < len && o < sizeof(out) - 8; i++) {
		unsigned char c = data[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = c;
		else
			o += sprintf(out + o, "\\x%02x", c);
	}
	out[o] = '\0';
	note("  data (%zu bytes): \"%s\"%s", len, out, i < len ? "..." : "");
}

/* The effect a valid command must have had, checked in the state after. */
static bool effect_ok(const struct target *t, const char *data,
		      const struct state *after)
{
	char want[512];
	int i;

	switch (t->type) {
	case F_EV_ENABLE:
		snprintf(want, sizeof(want), "ev/%s/enable\t%c", t->event, data[0]);
		return has_line(after, want);
	case F_EV_TRIGGER:
		snprintf(want, sizeof(want), "ev/%s/trigger\t%s", t->event,
			 data[0] == 't' ? "traceon" : "hist:keys=common_pid");
		return has_line(after, want);
	case F_SET_EVENT:
		snprintf(want, sizeof(want), "set_event\t%.*s", (int)strcspn(data, "\n"), data);
		return has_line(after, want);
	case F_PROBE_REG:
		/* Every site of the name enabled (none if not loaded). */
		snprintf(want, sizeof(want), "marker_sites\t%.*s ",
			 (int)strcspn(data, " "), data);
		for (i = 0; i < after->nr; i++) {
			const char *l = after->lines[i];

			/*
			 * "name symbol module state bytes code target": sites
			 * in freed init text and conflicts stay as they are.
			 */
			if (!strncmp(l, want, strlen(want)) &&
			    strstr(l, " disabled "))
				return false;
		}
		return true;
	case F_HOLD:
		snprintf(want, sizeof(want), "hold\theld %s ", data + 5);
		return has_line(after, want);
	default:
		return true;
	}
}

static bool tap(int n, bool pass, const char *name)
{
	printf("%sok %d %s\n", pass ? "" : "not ", n, name);
	return pass;
}

int main(void)
{
	static struct state base, base_full, ev, before, after, full;
	const char *env = getenv("FUZZ_SEED");
	unsigned long writes = 200, i;
	unsigned long seed;
	time_t t0;
	char *data;
	bool ok = true;
	int test = 0, e;

	if (getuid()) {
		printf("1..0 # SKIP needs root\n");
		return 4;
	}
	if (!exists(EVENTS) || !exists(TRACEFS "/markers")) {
		printf("1..0 # SKIP no %s (CONFIG_MARKERS_TRACE)\n", EVENTS);
		return 4;
	}
	seed = env && *env ? strtoul(env, NULL, 0) : (unsigned long)time(NULL) ^ getpid();
	if (getenv("FUZZ_WRITES"))
		writes = strtoul(getenv("FUZZ_WRITES"), NULL, 0);
	verbose = getenv("FUZZ_VERBOSE") && atoi(getenv("FUZZ_VERBOSE"));
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;

	base.buf = malloc(STATE_MAX);
	base_full.buf = malloc(STATE_MAX);
	ev.buf = malloc(STATE_MAX);
	after.buf = malloc(STATE_MAX);
	full.buf = malloc(STATE_MAX);
	data = malloc(HUGE_MAX + 1);
	fault_page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!base.buf || !base_full.buf || !ev.buf || !after.buf || !full.buf || !data ||
	    fault_page == MAP_FAILED || mprotect(fault_page + 4096, 4096, PROT_NONE)) {
		printf("1..0 # SKIP out of memory\n");
		return 4;
	}

	printf("TAP version 13\n");
	printf("1..5\n");
	note("seed %lu (FUZZ_SEED=%lu FUZZ_WRITES=%lu to replay)", seed, seed, writes);
	t0 = time(NULL);
	find_targets();
	note("%d targets, %d marker events", nr_targets, nr_events);
	/*
	 * Every write starts from the base: the state after undoing the
	 * write before it is compared with it.
	 */
	state_read(&base, NULL, false);
	state_read(&base_full, NULL, true);

	for (i = 0; i < writes; i++) {
		enum kind k = below(K_NR);
		struct target *t = pick_target();
		struct scope sc;
		struct plan pl;
		bool accepted, bad_return;
		size_t len;
		int bad;

		len = make_data(k, t, data);
		ev.nr = 0;
		ev.used = 0;
		if (t->event[0])
			event_files(&ev, t->event);
		state_merge(&before, &base, &ev);
		plan_pieces(k, len, &pl);
		scope_of(t, data, len, &pl, &sc);
		accepted = do_write(k, t, data, len, &pl, &bad_return);
		state_read(&after, t->event, false);
		n_writes++;
		n_kind[k]++;
		if (accepted)
			n_ok[k]++;
		else
			n_err[k]++;
		if (verbose)
			note("write %lu: %s to %s: %s", i, kind_names[k], t->path,
			     accepted ? "accepted" : "refused");
		if (bad_return) {
			n_bad_return++;
			note("write %lu (%s) to %s: returned 0 or more than asked",
			     i, kind_names[k], t->path);
			show_data(data, len);
		}
		bad = state_diff(&before, &after, &sc, "changed outside its scope");
		if (bad) {
			n_scope_bad++;
			note("write %lu (%s) to %s, %s: %d lines changed outside its scope",
			     i, kind_names[k], t->path, accepted ? "accepted" : "refused", bad);
			show_data(data, len);
		}
		if (!accepted && t->type != F_EV_FILTER && t->type != F_SYS_FILTER &&
		    state_diff(&before, &after, NULL, "changed by a refused write")) {
			n_refused_bad++;
			note("write %lu (%s) to %s was refused and changed the state",
			     i, kind_names[k], t->path);
			show_data(data, len);
		}
		if (k == K_VALID && accepted) {
			if (effect_ok(t, data, &after)) {
				n_effect_ok++;
			} else {
				n_effect_bad++;
				note("write %lu (valid) to %s accepted without its effect",
				     i, t->path);
				show_data(data, len);
			}
		}
		restore(t, &sc);
		state_read(&after, t->event, false);
		state_merge(&full, &base, &ev);
		if (state_diff(&full, &after, NULL, "not restored")) {
			n_restore_bad++;
			note("after write %lu (%s) to %s: undoing it did not %s",
			     i, kind_names[k], t->path, "bring back the start");
			show_data(data, len);
			/* Take the new state as the base: report each problem once. */
			state_read(&base, NULL, false);
			state_read(&base_full, NULL, true);
		}
		if ((i + 1) % FULL_EVERY == 0 || i + 1 == writes) {
			n_full++;
			state_read(&full, NULL, true);
			if (state_diff(&base_full, &full, NULL, "whole state")) {
				n_full_bad++;
				note("after write %lu: the whole state differs from the start", i);
				state_read(&base, NULL, false);
				state_read(&base_full, NULL, true);
			}
		}
	}

	for (e = 0; e < K_NR; e++)
		note("| %-32s | %lu (accepted %lu, partly %lu, refused %lu)",
		     kind_names[e], n_kind[e], n_ok[e], n_part[e], n_err[e]);
	{
		char line[1024];
		int o = 0;

		for (e = 0; e < 160; e++)
			if (errnos[e])
				o += snprintf(line + o, sizeof(line) - o, " %s %lu",
					      strerrorname_np(e) ?: "?", errnos[e]);
		line[o] = '\0';
		note("| %-32s |%s", "errors returned", o ? line : " none");
	}
	note("| %-32s | %lu of %lu", "valid commands that took effect", n_effect_ok,
	     n_effect_ok + n_effect_bad);
	note("| %-32s | %lu / %lu / %lu",
	     "out of scope / refused but changed / returned 0 or too much",
	     n_scope_bad, n_refused_bad, n_bad_return);
	note("| %-32s | %lu (%lu whole-state checks, %lu bad)", "not restored", n_restore_bad,
	     n_full, n_full_bad);

	ok &= tap(++test, !n_bad_return,
		  "fuzz: every write returned an error, its length or part of it");
	ok &= tap(++test, !n_scope_bad,
		  "fuzz: no write changed anything outside its scope");
	ok &= tap(++test, !n_refused_bad, "fuzz: refused writes changed nothing");
	ok &= tap(++test, !n_effect_bad && n_effect_ok,
		  "fuzz: valid commands took effect");
	ok &= tap(++test, !n_restore_bad && !n_full_bad,
		  "fuzz: undoing each write brought back the start");
	note("seed %lu, %lu writes in %ld s", seed, n_writes, (long)(time(NULL) - t0));
	return ok ? 0 : 1;
}
