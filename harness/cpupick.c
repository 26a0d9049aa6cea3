// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness/cpupick.h"
#include "harness/timer.h"
#include "util/stats.h"

void pt_cpu_pick_candidates(struct pt_cpu_pick *p, const int *cpus, int n)
{
	int i, first = n > PT_PICK_MAX ? n - PT_PICK_MAX : 0;

	memset(p, 0, sizeof(*p));
	p->chosen = -1;
	for (i = first; i < n; i++) {
		p->ns[p->ncand] = NAN;
		p->cand[p->ncand++] = cpus[i];
	}
}

int pt_cpu_pick_init(struct pt_cpu_pick *p)
{
	int cpus[CPU_SETSIZE], n = 0, c;
	cpu_set_t set;

	memset(p, 0, sizeof(*p));
	p->chosen = -1;
	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	pt_cpu_pick_candidates(p, cpus, n);
	return p->ncand >= 2 ? 0 : -1;
}

static long minor_faults(void)
{
	struct rusage u;

	getrusage(RUSAGE_THREAD, &u);
	return u.ru_minflt;
}

/*
 * ns per fault of PT_PICK_PAGES fresh 4K pages; NAN when the mapping
 * failed or the kernel did not fault each page (a huge page, say).
 */
static double probe(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = PT_PICK_PAGES * pg, off;
	uint64_t t0, t1;
	long f0, f1;
	char *b;

	b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return NAN;
	madvise(b, len, MADV_NOHUGEPAGE);
	f0 = minor_faults();
	t0 = pt_now_ns();
	for (off = 0; off < len; off += pg)
		((volatile char *)b)[off] = 1;
	t1 = pt_now_ns();
	f1 = minor_faults();
	munmap(b, len);
	if (f1 - f0 < PT_PICK_PAGES * 9 / 10)
		return NAN;
	return (double)(t1 - t0) / PT_PICK_PAGES;
}

/* Median of a candidate's probes that succeeded; NAN when none did. */
static double probe_median(const double *v)
{
	double ok[PT_PICK_PROBES];
	size_t k, n = 0;

	for (k = 0; k < PT_PICK_PROBES; k++)
		if (!isnan(v[k]))
			ok[n++] = v[k];
	if (!n)
		return NAN;
	pt_sort_doubles(ok, n);
	return pt_quantile_sorted(ok, n, 0.5);
}

int pt_cpu_pick_choose(const double *ns, int ncand, int keep)
{
	double best = INFINITY;
	int c, at = keep;

	for (c = 0; c < ncand; c++) {
		double m = probe_median(ns + (size_t)c * PT_PICK_PROBES);

		if (m < best) {
			best = m;
			at = c;
		}
	}
	return at;
}

static void record(struct pt_cpu_pick *p, int cpu)
{
	if (p->picks_lost)
		return;
	if (p->npicks == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		int *n = realloc(p->picks, cap * sizeof(*n));

		if (!n) {
			p->picks_lost = true; /* the pick stands; meta.json says the list is gone */
			return;
		}
		p->picks = n;
		p->cap = cap;
	}
	p->picks[p->npicks++] = cpu;
}

void pt_cpu_pick_round(struct pt_cpu_pick *p, struct pt_binding *b)
{
	double ns[PT_PICK_MAX * PT_PICK_PROBES];
	uint64_t t0 = pt_now_ns();
	struct pt_binding tmp;
	int c, k, at, keep = 0;

	/* interleaved, so a change of the host's state mid-probe touches every candidate */
	for (k = 0; k < PT_PICK_PROBES; k++)
		for (c = 0; c < p->ncand; c++)
			ns[c * PT_PICK_PROBES + k] = pt_pin_thread(p->cand[c], &tmp) ? NAN
										     : probe();
	for (c = 0; c < p->ncand; c++) {
		p->ns[c] = probe_median(ns + c * PT_PICK_PROBES);
		if (p->cand[c] == p->chosen)
			keep = c;
	}
	at = pt_cpu_pick_choose(ns, p->ncand, keep);
	if (isnan(p->ns[at]))
		p->failed++;
	if (pt_pin_thread(p->cand[at], b)) {
		/* not bound there: the round runs where the binding reads back (-1: not one CPU) */
		p->unpinned++;
		at = -1;
		for (c = 0; c < p->ncand; c++)
			if (p->cand[c] == b->cpu)
				at = c;
	}
	if (at >= 0)
		p->rounds_on[at]++;
	if (p->chosen >= 0 && b->cpu != p->chosen)
		p->moves++;
	p->chosen = b->cpu;
	record(p, p->chosen);
	p->probe_s += (double)(pt_now_ns() - t0) / 1e9;
}

static void json_ints(struct pt_json *j, const char *key, const int *v, size_t n)
{
	size_t i;

	pt_json_arr_begin(j, key);
	for (i = 0; i < n; i++)
		pt_json_int(j, NULL, v[i]);
	pt_json_arr_end(j);
}

void pt_cpu_pick_json(struct pt_json *j, const struct pt_cpu_pick *p)
{
	int c;

	pt_json_obj_begin(j, "pick");
	json_ints(j, "candidates", p->cand, (size_t)p->ncand);
	json_ints(j, "rounds_on", p->rounds_on, (size_t)p->ncand);
	pt_json_int(j, "moves", p->moves);
	pt_json_int(j, "failed", p->failed);
	pt_json_int(j, "unpinned", p->unpinned);
	pt_json_num(j, "probe_s", p->probe_s);
	pt_json_arr_begin(j, "last_probe_ns");
	for (c = 0; c < p->ncand; c++)
		pt_json_num(j, NULL, p->ns[c]);
	pt_json_arr_end(j);
	if (p->picks_lost)
		pt_json_null(j, "rounds");
	else
		json_ints(j, "rounds", p->picks, p->npicks);
	pt_json_obj_end(j);
}

void pt_cpu_pick_free(struct pt_cpu_pick *p)
{
	free(p->picks);
	p->picks = NULL;
	p->npicks = p->cap = 0;
}
