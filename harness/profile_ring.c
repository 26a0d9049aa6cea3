// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness/profile_ring.h"
#include "util/sysfs.h"

static int print_nothing(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* Why perf_event_open or the mmap refused, in words a user can act on. */
static void explain(char *err, size_t errlen, const char *what, int e)
{
	long paranoid = -1;

	pt_sys_read_long("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	if (e == EACCES || e == EPERM)
		snprintf(err, errlen,
			 "%s: %s (sampling every CPU needs root or CAP_PERFMON; "
			 "perf_event_paranoid is %ld)",
			 what, strerror(e), paranoid);
	else if (e == ENOSYS)
		snprintf(err, errlen,
			 "%s: %s (no perf_event_open here: qemu-user, a seccomp filter)", what,
			 strerror(e));
	else if (e == ENOENT || e == EOPNOTSUPP)
		snprintf(err, errlen, "%s: %s (not in this kernel)", what, strerror(e));
	else
		snprintf(err, errlen, "%s: %s", what, strerror(e));
}

static int error_of(int ret)
{
	if (ret < 0 && -ret != EPERM) /* libperf returns -errno, or -1 with errno set */
		return -ret;
	return errno ? errno : EINVAL;
}

/*
 * The CPU and thread maps, made once and kept for the process: libperf
 * before 6.6 never drops the references an evsel takes to them, so maps
 * made per ring would leak one each time; shared ones only gain a count.
 */
static struct perf_cpu_map *online_cpus;
static struct perf_thread_map *self_thread, *every_thread;

static int shared_maps(int pid, struct perf_cpu_map **cpus, struct perf_thread_map **threads)
{
	struct perf_thread_map **t = pid == -1 ? &every_thread : &self_thread;

	if (!online_cpus)
		online_cpus = perf_cpu_map__new(NULL); /* the online CPUs */
	if (!*t) {
		*t = perf_thread_map__new_dummy();
		if (*t)
			perf_thread_map__set_pid(*t, 0, pid);
	}
	*cpus = online_cpus;
	*threads = *t;
	return online_cpus && *t ? 0 : -1;
}

void pt_prof_ring_close(struct pt_prof_ring *r)
{
	/* the evlist owns its evsel */
	perf_evlist__delete(r->evlist);
	r->evlist = NULL;
}

int pt_prof_ring_open(struct pt_prof_ring *r, struct perf_event_attr *attr, int pid, int pages,
		      const char *what, char *err, size_t errlen)
{
	struct perf_evsel *evsel = NULL;
	struct perf_thread_map *threads;
	struct perf_cpu_map *cpus;
	int ret;

	memset(r, 0, sizeof(*r));
	libperf_init(print_nothing);
	if (!shared_maps(pid, &cpus, &threads))
		r->evlist = perf_evlist__new();
	if (r->evlist)
		evsel = perf_evsel__new(attr);
	if (!evsel) {
		snprintf(err, errlen, "%s: %s", what, strerror(ENOMEM));
		pt_prof_ring_close(r);
		return -1;
	}
	perf_evlist__add(r->evlist, evsel);
	perf_evlist__set_maps(r->evlist, cpus, threads);
	errno = 0;
	ret = perf_evlist__open(r->evlist);
	if (ret) {
		explain(err, errlen, what, error_of(ret));
		pt_prof_ring_close(r);
		return -1;
	}
	errno = 0;
	ret = perf_evlist__mmap(r->evlist, pages);
	if (ret) {
		explain(err, errlen, what, error_of(ret));
		pt_prof_ring_close(r);
		return -1;
	}
	return 0;
}

void pt_prof_ring_enable(struct pt_prof_ring *r, bool on)
{
	if (!r->evlist)
		return;
	if (on)
		perf_evlist__enable(r->evlist);
	else
		perf_evlist__disable(r->evlist);
}

void pt_prof_ring_drain(struct pt_prof_ring *r, void (*fn)(void *ctx, const union perf_event *ev),
			void *ctx)
{
	struct perf_mmap *map;
	union perf_event *ev;

	if (!r->evlist)
		return;
	perf_evlist__for_each_mmap(r->evlist, map, false)
	{
		if (perf_mmap__read_init(map) < 0)
			continue; /* empty */
		while ((ev = perf_mmap__read_event(map))) {
			fn(ctx, ev);
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
	}
}
