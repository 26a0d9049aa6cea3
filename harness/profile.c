// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two sets of events per profiled repetition:
 *
 * - the samples: cpu-clock on every CPU for every task (pid -1), switched
 *   on only inside the timed windows. Every task, not this one inherited:
 *   an inherited event leaves a task before exit_mm() (6.18 samples no
 *   exit_mmap of a forked child that way), and a fork's cost includes its
 *   child's exit, which zaps and frees the child's page tables.
 * - the tracking: a dummy event inherited by this thread's descendants,
 *   on from the start of the repetition, whose fork records name every
 *   process of ours, including children forked before a window opens.
 *
 * A sample counts when its process is ours and its time lies inside a
 * window; context switches, recorded with the samples, bound the time
 * each one stands for (profile_tally.h).
 */
#include <errno.h>
#include <perf/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/kallsyms.h"
#include "harness/profile.h"
#include "harness/profile_ring.h"
#include "util/json.h"

/*
 * Ring pages per CPU: every task's samples land there, about 100 bytes
 * each with the callchain; 4 MiB per CPU holds 2 s of one CPU at the
 * default period, and the rings are read after every window. Fewer per CPU
 * on a large machine: at most 64 MiB locked in all.
 */
#define SAMPLE_PAGES_MAX 1024
#define SAMPLE_BYTES_MAX (64ul << 20)
#define TRACK_PAGES 16
/* frames read above a sampled entry helper */
#define CHAIN_MAX 8

struct pt_profile {
	uint64_t period_ns;
	bool enabled, supported;
	char reason[256];
	struct pt_ksyms ks;
	bool ks_loaded;
	char ks_reason[192];
	signed char *comp; /* per symbol: its class (profile_map.h), -1 not looked up yet */
	uint32_t *hits; /* per symbol: samples inside the windows, for the top list */
	struct pt_prof_ring samples, track;
	pid_t *pids; /* this process and every one it forked in the repetition */
	size_t npids, cap;
	struct pt_prof_tally tally;
};

static void sample_attr(struct perf_event_attr *a, uint64_t period_ns)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = period_ns; /* cpu-clock counts nanoseconds */
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_CALLCHAIN;
	/* context switches bound the time a sample stands for (profile_tally.h) */
	a->context_switch = 1;
	a->sample_id_all = 1; /* their task, time and CPU */
	/* the kernel callers only, a few: enough to see past an entry helper */
	a->exclude_callchain_user = 1;
	a->sample_max_stack = CHAIN_MAX;
	a->disabled = 1; /* on inside the windows only */
	a->exclude_hv = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC; /* the clock pt_rep_begin/end read */
}

static void track_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY; /* counts nothing: only its side-band records */
	a->task = 1; /* fork and exit records */
	a->inherit = 1;
	a->exclude_kernel = 1; /* nothing is sampled: no privilege needed for the records */
}

static int sample_pages(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), page = sysconf(_SC_PAGESIZE);
	unsigned long pages = SAMPLE_PAGES_MAX;

	if (ncpu < 1 || page < 1)
		return 64;
	while (pages > 64 && pages * (unsigned long)page * (unsigned long)ncpu > SAMPLE_BYTES_MAX)
		pages /= 2;
	return (int)pages;
}

static void close_events(struct pt_profile *p)
{
	pt_prof_ring_close(&p->samples);
	pt_prof_ring_close(&p->track);
}

static int open_events(struct pt_profile *p, char *err, size_t errlen)
{
	struct perf_event_attr a;

	track_attr(&a);
	if (pt_prof_ring_open(&p->track, &a, 0, TRACK_PAGES, "perf_event_open(dummy, fork records)",
			      err, errlen))
		return -1;
	sample_attr(&a, p->period_ns);
	if (pt_prof_ring_open(&p->samples, &a, -1, sample_pages(),
			      "perf_event_open(cpu-clock sampling, every CPU)", err, errlen)) {
		pt_prof_ring_close(&p->track);
		return -1;
	}
	return 0;
}

static void load_kallsyms(struct pt_profile *p)
{
	size_t i;

	if (pt_ksyms_load(&p->ks, NULL, p->ks_reason, sizeof(p->ks_reason)))
		return;
	p->ks_loaded = true;
	if (p->ks.restricted) {
		snprintf(p->ks_reason, sizeof(p->ks_reason),
			 "addresses read as zero (kptr_restrict): kernel samples count as "
			 "kernel_other");
		return;
	}
	if (!p->ks.n) {
		snprintf(p->ks_reason, sizeof(p->ks_reason), "no text symbols listed");
		return;
	}
	p->comp = malloc(p->ks.n);
	p->hits = calloc(p->ks.n, sizeof(*p->hits));
	if (!p->comp || !p->hits) {
		free(p->comp);
		p->comp = NULL;
		snprintf(p->ks_reason, sizeof(p->ks_reason), "%s", strerror(ENOMEM));
		return;
	}
	for (i = 0; i < p->ks.n; i++)
		p->comp[i] = -1;
}

struct pt_profile *pt_profile_new(uint64_t period_ns, const char *off_reason)
{
	struct pt_profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->period_ns = period_ns;
	p->enabled = !off_reason;
	if (off_reason) {
		snprintf(p->reason, sizeof(p->reason), "%s", off_reason);
		return p;
	}
	/* opened and closed once: a run says up front whether it can profile */
	p->supported = !open_events(p, p->reason, sizeof(p->reason));
	close_events(p);
	if (p->supported)
		load_kallsyms(p);
	return p;
}

void pt_profile_free(struct pt_profile *p)
{
	if (!p)
		return;
	close_events(p);
	pt_ksyms_free(&p->ks);
	free(p->comp);
	free(p->hits);
	free(p->pids);
	pt_tally_free(&p->tally);
	free(p);
}

bool pt_profile_usable(const struct pt_profile *p)
{
	return p && p->enabled && p->supported;
}

const char *pt_profile_reason(const struct pt_profile *p)
{
	return p ? p->reason : "out of memory";
}

bool pt_profile_resolved(const struct pt_profile *p)
{
	return p && p->comp;
}

static bool ours(const struct pt_profile *p, pid_t pid)
{
	size_t i;

	for (i = 0; i < p->npids; i++)
		if (p->pids[i] == pid)
			return true;
	return false;
}

static void add_pid(struct pt_profile *p, pid_t pid)
{
	pid_t *np;

	if (ours(p, pid))
		return;
	if (p->npids == p->cap) {
		np = realloc(p->pids, (p->cap ? p->cap * 2 : 64) * sizeof(*np));
		if (!np)
			return; /* its samples are missed, and coverage says so */
		p->pids = np;
		p->cap = p->cap ? p->cap * 2 : 64;
	}
	p->pids[p->npids++] = pid;
}

int pt_profile_start(struct pt_profile *p, char *err, size_t errlen)
{
	pt_tally_reset(&p->tally, p->period_ns);
	close_events(p);
	p->npids = 0;
	add_pid(p, getpid());
	if (p->hits)
		memset(p->hits, 0, p->ks.n * sizeof(*p->hits));
	if (open_events(p, err, errlen))
		return -1;
	pt_prof_ring_enable(&p->track, true);
	return 0;
}

static int class_of(struct pt_profile *p, long i)
{
	if (i < 0)
		return PT_COMP_KERNEL_OTHER;
	if (p->comp[i] < 0)
		p->comp[i] = (signed char)pt_prof_class_of(pt_ksyms_name(&p->ks, i));
	return p->comp[i];
}

/*
 * The component of the sampled function, symbol sym; for an entry helper,
 * its callers'. chain: the callchain (nr, then nr addresses with context
 * markers), words: the u64s the record holds from there.
 */
static enum pt_prof_comp kernel_comp(struct pt_profile *p, uint64_t ip, long sym,
				     const __u64 *chain, size_t words)
{
	int cls[CHAIN_MAX + 1];
	bool leaf_seen = false;
	size_t n = 1, i;

	cls[0] = class_of(p, sym);
	if (cls[0] != PT_PROF_HELPER || !words || chain[0] > words - 1)
		return pt_prof_resolve(cls, 1);
	for (i = 1; i <= chain[0] && n <= CHAIN_MAX; i++) {
		if (chain[i] >= (__u64)PERF_CONTEXT_MAX)
			continue; /* PERF_CONTEXT_KERNEL and the like */
		if (!leaf_seen && chain[i] == ip) {
			leaf_seen = true; /* the chain starts with the sampled IP */
			continue;
		}
		/* a return address: the call is the byte before it */
		cls[n++] = class_of(p, pt_ksyms_find(&p->ks, chain[i] - 1));
	}
	return pt_prof_resolve(cls, n);
}

static void on_track(void *ctx, const union perf_event *ev)
{
	struct pt_profile *p = ctx;

	/* a new thread has the pid of its process: only processes are added */
	if (ev->header.type == PERF_RECORD_FORK)
		add_pid(p, (pid_t)ev->fork.pid);
}

/* A switch record's sample_id: pid and tid, time, cpu and a reserved half. */
static void one_switch(struct pt_profile *p, const union perf_event *ev)
{
	const __u64 *id = (const __u64 *)(&ev->context_switch + 1);

	if (ev->header.size < sizeof(ev->context_switch) + 3 * sizeof(__u64))
		return;
	pt_tally_switch(&p->tally, (unsigned)(id[2] & 0xffffffffu), id[1],
			ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT,
			ours(p, (pid_t)(id[0] & 0xffffffffu)));
}

/*
 * PERF_SAMPLE_IP | TID | TIME | CPU | CALLCHAIN, in that order: ip, pid
 * and tid, time, cpu and a reserved half, the chain.
 */
static void one_sample(struct pt_profile *p, const union perf_event *ev)
{
	const __u64 *a = ev->sample.array;
	uint16_t mode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	enum pt_prof_comp c = PT_COMP_KERNEL_OTHER;
	bool mine;
	long sym = -1;

	if (ev->header.size < sizeof(ev->header) + 4 * sizeof(__u64))
		return;
	mine = ours(p, (pid_t)(a[1] & 0xffffffffu));
	/* hypervisor and guest modes: not this kernel's functions, kernel_other */
	if (mine && mode == PERF_RECORD_MISC_USER) {
		c = PT_COMP_USER;
	} else if (mine && mode == PERF_RECORD_MISC_KERNEL && p->comp) {
		sym = pt_ksyms_find(&p->ks, a[0]);
		c = kernel_comp(p, a[0], sym, a + 4,
				(ev->header.size - sizeof(ev->header)) / sizeof(__u64) - 4);
	}
	/* another process's sample still marks time on its CPU */
	if (pt_tally_sample(&p->tally, (unsigned)(a[3] & 0xffffffffu), a[2], c, mine) && sym >= 0)
		p->hits[sym]++;
}

static void on_sample(void *ctx, const union perf_event *ev)
{
	struct pt_profile *p = ctx;

	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		one_sample(p, ev);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		one_switch(p, ev);
		break;
	case PERF_RECORD_LOST:
		p->tally.lost += ev->lost.lost;
		break;
	case PERF_RECORD_THROTTLE:
		p->tally.throttled++;
		break;
	}
}

void pt_profile_drain(struct pt_profile *p)
{
	if (!p)
		return;
	/* the fork records first: a sample of a new child must find it ours */
	pt_prof_ring_drain(&p->track, on_track, p);
	pt_prof_ring_drain(&p->samples, on_sample, p);
}

void pt_profile_window_open(struct pt_profile *p)
{
	pt_profile_drain(p);
	pt_prof_ring_enable(&p->samples, true);
}

void pt_profile_window_begin(struct pt_profile *p, uint64_t t0_ns)
{
	pt_tally_begin(&p->tally, t0_ns);
}

void pt_profile_window_end(struct pt_profile *p, uint64_t t1_ns)
{
	pt_prof_ring_enable(&p->samples, false);
	pt_tally_end(&p->tally, t1_ns);
	pt_profile_drain(p);
}

void pt_profile_stop(struct pt_profile *p)
{
	if (!p)
		return;
	pt_prof_ring_enable(&p->samples, false);
	pt_profile_drain(p);
	close_events(p);
}

const struct pt_prof_tally *pt_profile_tally(const struct pt_profile *p)
{
	return &p->tally;
}

size_t pt_profile_top(const struct pt_profile *p, struct pt_prof_top *top, size_t max)
{
	size_t n = 0, i, k;

	if (!pt_profile_resolved(p) || !p->tally.in_window)
		return 0;
	/* insertion into a short sorted list: max is a handful */
	for (i = 0; i < p->ks.n; i++) {
		if (!p->hits[i] || (n == max && p->hits[i] <= top[n - 1].samples))
			continue;
		k = n < max ? n++ : n - 1;
		while (k > 0 && top[k - 1].samples < p->hits[i]) {
			top[k] = top[k - 1];
			k--;
		}
		snprintf(top[k].symbol, sizeof(top[k].symbol), "%s",
			 pt_ksyms_name(&p->ks, (long)i));
		top[k].samples = p->hits[i];
		top[k].share = (double)p->hits[i] / (double)p->tally.in_window;
		top[k].cls = p->comp[i] == PT_PROF_HELPER ? "entry helper"
							  : pt_prof_comp_name(p->comp[i]);
	}
	return n;
}

static void json_kallsyms(const struct pt_profile *p, struct pt_json *j)
{
	pt_json_obj_begin(j, "kallsyms");
	pt_json_bool(j, "resolved", pt_profile_resolved(p));
	if (p->ks_loaded)
		pt_json_uint(j, "text_symbols", p->ks.n);
	else
		pt_json_null(j, "text_symbols");
	pt_json_bool(j, "restricted", p->ks.restricted);
	pt_json_str(j, "reason", p->ks_reason[0] ? p->ks_reason : NULL);
	pt_json_obj_end(j);
}

void pt_profile_json(const struct pt_profile *p, struct pt_json *j)
{
	pt_json_obj_begin(j, "profile");
	pt_json_bool(j, "enabled", p && p->enabled);
	/* null: not tried (--no-profile, no profiled case) */
	if (p && p->enabled)
		pt_json_bool(j, "supported", p->supported);
	else
		pt_json_null(j, "supported");
	pt_json_str(j, "reason", !p ? "out of memory" : p->reason[0] ? p->reason : NULL);
	pt_json_str(j, "event", "cpu-clock");
	if (p)
		pt_json_uint(j, "period_ns", p->period_ns);
	else
		pt_json_null(j, "period_ns");
	if (p && p->supported)
		json_kallsyms(p, j);
	else
		pt_json_null(j, "kallsyms");
	pt_json_obj_end(j);
}
