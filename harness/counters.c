// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <perf/core.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/counters.h"
#include "harness/events.h"
#include "model/tlb_events.h"
#include "util/sysfs.h"

struct pt_counter {
	char name[96];
	struct perf_evsel *evsel;
	struct perf_counts_values start;
	double total;
	double ena, run;
};

struct pt_counters {
	struct perf_thread_map *threads;
	struct pt_counter ev[PT_MAX_EVENTS];
	size_t n;
	struct pt_unsupported bad[PT_MAX_EVENTS];
	char bad_names[PT_MAX_EVENTS][96];
	char bad_reasons[PT_MAX_EVENTS][96];
	size_t nbad;
};

static const char *const sw_events[] = {
	"page-faults",	    "minor-faults",   "major-faults",
	"context-switches", "cpu-migrations", "task-clock",
};

/* Translation events per CPU family, tried in order; absent ones are not listed. */
static const char *const hw_events[] = {
	"dTLB-load-misses",
	"iTLB-load-misses",
#if defined(__x86_64__)
	PT_EV_INTEL_WALKS,
	"DTLB_LOAD_MISSES:WALK_ACTIVE",
	"DTLB_LOAD_MISSES:STLB_HIT",
	"DTLB_STORE_MISSES:WALK_COMPLETED",
	/* AMD Zen; generic dTLB-load-misses counts every L1 DTLB miss there, walks on Intel */
	PT_EV_AMD_WALKS_4K,
	PT_EV_AMD_WALKS_COALESCED,
	PT_EV_AMD_WALKS_2M,
	"L1_DTLB_MISS:TLB_RELOAD_4K_L2_HIT",
#elif defined(__aarch64__)
	PT_EV_ARM_L1_REFILLS, "L2D_TLB_REFILL",	  PT_EV_ARM_WALKS, "DTLB_WALK_PERCYC", "DTLB_STEP",
#endif
};

static int print_nothing(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

size_t pt_default_events(const char **names, size_t max)
{
	struct pt_event_code code;
	char err[160];
	size_t n = 0, i;

	for (i = 0; i < sizeof(sw_events) / sizeof(sw_events[0]) && n < max; i++)
		names[n++] = sw_events[i];
	for (i = 0; i < sizeof(hw_events) / sizeof(hw_events[0]) && n < max; i++)
		if (!pt_event_resolve(hw_events[i], &code, err, sizeof(err)))
			names[n++] = hw_events[i];
	return n;
}

static void add_unsupported(struct pt_counters *c, const char *name, const char *reason)
{
	size_t i = c->nbad;

	if (i >= PT_MAX_EVENTS)
		return;
	snprintf(c->bad_names[i], sizeof(c->bad_names[i]), "%s", name);
	snprintf(c->bad_reasons[i], sizeof(c->bad_reasons[i]), "%s", reason);
	c->bad[i].name = c->bad_names[i];
	c->bad[i].reason = c->bad_reasons[i];
	c->nbad++;
}

static int open_one(struct pt_counters *c, const char *name, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	struct pt_event_code code;
	struct pt_counter *ev;
	int ret;

	if (pt_event_resolve(name, &code, err, errlen))
		return -2;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = code.type;
	attr.config = code.config;
	attr.config1 = code.config1;
	attr.config2 = code.config2;
	attr.exclude_user = code.exclude_user;
	attr.exclude_kernel = code.exclude_kernel;
	attr.exclude_hv = code.exclude_hv;
	if (c->n >= PT_MAX_EVENTS) {
		snprintf(err, errlen, "more than %d events", PT_MAX_EVENTS);
		return -2;
	}
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.inherit = 1;
	attr.disabled = 0;
	ev = &c->ev[c->n];
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	ev->evsel = perf_evsel__new(&attr);
	if (!ev->evsel) {
		add_unsupported(c, name, "out of memory");
		return 0;
	}
	ret = perf_evsel__open(ev->evsel, NULL, c->threads);
	if (ret) {
		add_unsupported(c, name, strerror(-ret > 0 ? -ret : errno));
		perf_evsel__delete(ev->evsel);
		ev->evsel = NULL;
		return 0;
	}
	c->n++;
	return 0;
}

int pt_counters_open(struct pt_counters **out, const char *const *names, size_t n, char *err,
		     size_t errlen)
{
	const char *defaults[PT_MAX_EVENTS];
	struct pt_counters *c;
	size_t i;

	libperf_init(print_nothing);
	if (!names) {
		n = pt_default_events(defaults, PT_MAX_EVENTS);
		names = defaults;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	c->threads = perf_thread_map__new_dummy();
	if (!c->threads) {
		free(c);
		return -1;
	}
	perf_thread_map__set_pid(c->threads, 0, 0);
	for (i = 0; i < n; i++) {
		if (open_one(c, names[i], err, errlen)) {
			pt_counters_close(c);
			return -2;
		}
	}
	*out = c;
	return 0;
}

void pt_counters_close(struct pt_counters *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		perf_evsel__close(c->ev[i].evsel);
		perf_evsel__delete(c->ev[i].evsel);
	}
	perf_thread_map__put(c->threads);
	free(c);
}

void pt_counters_start(struct pt_counters *c)
{
	size_t i;

	for (i = 0; c && i < c->n; i++)
		perf_evsel__read(c->ev[i].evsel, 0, 0, &c->ev[i].start);
}

void pt_counters_stop(struct pt_counters *c)
{
	struct perf_counts_values now;
	double val, ena, run;
	size_t i;

	for (i = 0; c && i < c->n; i++) {
		struct pt_counter *ev = &c->ev[i];

		if (perf_evsel__read(ev->evsel, 0, 0, &now))
			continue;
		val = (double)(now.val - ev->start.val);
		ena = (double)(now.ena - ev->start.ena);
		run = (double)(now.run - ev->start.run);
		/* Scale for multiplexing: the count extrapolated to the enabled time. */
		ev->total += run > 0 && ena > run ? val * ena / run : val;
		ev->ena += ena;
		ev->run += run;
	}
}

void pt_counters_reset(struct pt_counters *c)
{
	size_t i;

	for (i = 0; c && i < c->n; i++) {
		c->ev[i].total = 0;
		c->ev[i].ena = 0;
		c->ev[i].run = 0;
	}
}

size_t pt_counters_count(const struct pt_counters *c)
{
	return c ? c->n : 0;
}

int pt_counters_get(const struct pt_counters *c, size_t i, struct pt_counter_reading *r)
{
	if (!c || i >= c->n)
		return -1;
	r->name = c->ev[i].name;
	r->value = c->ev[i].total;
	r->running_ratio = c->ev[i].ena > 0 ? c->ev[i].run / c->ev[i].ena : 0.0;
	return 0;
}

double pt_counters_value(const struct pt_counters *c, const char *name)
{
	size_t i;

	for (i = 0; c && i < c->n; i++)
		if (!strcmp(c->ev[i].name, name))
			return c->ev[i].total;
	return -1;
}

size_t pt_counters_unsupported(const struct pt_counters *c, const struct pt_unsupported **list)
{
	*list = c ? c->bad : NULL;
	return c ? c->nbad : 0;
}
