// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/profile_tally.h"

void pt_tally_reset(struct pt_prof_tally *t, uint64_t period_ns)
{
	struct pt_prof_cpu *cpu = t->cpu;
	size_t ncpu = t->ncpu;

	memset(t, 0, sizeof(*t));
	t->period_ns = period_ns;
	t->cpu = cpu;
	t->ncpu = ncpu;
}

void pt_tally_free(struct pt_prof_tally *t)
{
	free(t->cpu);
	t->cpu = NULL;
	t->ncpu = 0;
}

void pt_tally_begin(struct pt_prof_tally *t, uint64_t t0_ns)
{
	size_t i;

	t->t0 = t0_ns;
	t->t1 = 0;
	t->open = true;
	t->started = true;
	/* what a CPU saw before this window is no part of it */
	for (i = 0; i < t->ncpu; i++)
		t->cpu[i] = (struct pt_prof_cpu){ 0, -1 };
}

void pt_tally_end(struct pt_prof_tally *t, uint64_t t1_ns)
{
	if (!t->open)
		return;
	t->t1 = t1_ns;
	t->open = false;
	t->elapsed_ns += t1_ns > t->t0 ? t1_ns - t->t0 : 0;
}

/* The state of cpu, grown on first sight; NULL past PT_PROF_MAX_CPU or without memory. */
static struct pt_prof_cpu *cpu_state(struct pt_prof_tally *t, unsigned cpu)
{
	struct pt_prof_cpu *nc;
	size_t n, i;

	if (cpu >= PT_PROF_MAX_CPU)
		return NULL;
	if (cpu < t->ncpu)
		return &t->cpu[cpu];
	n = cpu + 1 > 2 * t->ncpu ? cpu + 1 : 2 * t->ncpu;
	nc = realloc(t->cpu, n * sizeof(*nc));
	if (!nc)
		return NULL;
	for (i = t->ncpu; i < n; i++)
		nc[i] = (struct pt_prof_cpu){ 0, -1 };
	t->cpu = nc;
	t->ncpu = n;
	return &t->cpu[cpu];
}

static bool in_window(const struct pt_prof_tally *t, uint64_t time)
{
	return t->started && time >= t->t0 && (t->open || time <= t->t1);
}

/* The part of [from, to] inside the current window. */
static double clipped(const struct pt_prof_tally *t, uint64_t from, uint64_t to)
{
	if (from < t->t0)
		from = t->t0;
	if (!t->open && to > t->t1)
		to = t->t1;
	return to > from ? (double)(to - from) : 0;
}

/* The stall in a gap of gap ns: its length beyond one period, when it is a stall. */
static double stall_of(const struct pt_prof_tally *t, double gap)
{
	double period = (double)t->period_ns;

	return gap > PT_PROF_STALL_PERIODS * period ? gap - period : 0;
}

bool pt_tally_sample(struct pt_prof_tally *t, unsigned cpu, uint64_t time_ns, enum pt_prof_comp c,
		     bool ours)
{
	struct pt_prof_cpu *st = cpu_state(t, cpu);
	bool in = in_window(t, time_ns);

	if ((int)c < 0 || c >= PT_COMP_N)
		c = PT_COMP_KERNEL_OTHER;
	if (in && ours) {
		/* since the last sample or switch here (the window's start at first) */
		if (st)
			t->stall_ns[c] += stall_of(t, clipped(t, st->prev, time_ns));
		t->samples[c]++;
		t->in_window++;
	} else if (ours) {
		t->outside++;
	}
	if (st) {
		st->prev = time_ns;
		st->comp = ours ? (int)c : -1;
	}
	return in && ours;
}

void pt_tally_switch(struct pt_prof_tally *t, unsigned cpu, uint64_t time_ns, bool out, bool ours)
{
	struct pt_prof_cpu *st = cpu_state(t, cpu);

	if (!st)
		return;
	/* a stall after our task's last sample, up to the switch that ended its run */
	if (out && ours && st->comp >= 0 && st->prev && t->started)
		t->stall_ns[st->comp] += stall_of(t, clipped(t, st->prev, time_ns));
	st->prev = time_ns;
	st->comp = -1;
}

double pt_tally_stall_ns(const struct pt_prof_tally *t)
{
	double sum = 0;
	int c;

	for (c = 0; c < PT_COMP_N; c++)
		sum += t->stall_ns[c];
	return sum;
}

static bool comp_known(enum pt_prof_comp c, bool resolved)
{
	return resolved || c == PT_COMP_KERNEL_OTHER || c == PT_COMP_USER;
}

static void add(struct pt_prof_row *rows, size_t max, size_t *n, const char *unit, double value,
		const char *fmt, const char *a, const char *b)
{
	if (*n >= max)
		return;
	snprintf(rows[*n].metric, sizeof(rows[*n].metric), fmt, a, b);
	rows[*n].value = value;
	rows[(*n)++].unit = unit;
}

size_t pt_tally_rows(const struct pt_prof_tally *t, double ops, const char *per, bool resolved,
		     uint64_t cpu_ns, struct pt_prof_row *rows, size_t max)
{
	double period = (double)t->period_ns, wall = (double)t->elapsed_ns;
	double sampled = (double)t->in_window * period, stall = pt_tally_stall_ns(t);
	size_t n = 0;
	int c;

	if (!(ops > 0))
		return 0;
	for (c = 0; c < PT_COMP_N; c++) {
		const char *name = pt_prof_comp_name(c);
		double s = (double)t->samples[c];

		if (!comp_known(c, resolved))
			continue;
		add(rows, max, &n, "ns", s * period / ops, "profile_%s_ns_per_%s", name, per);
		if (t->in_window)
			add(rows, max, &n, "ratio", s / (double)t->in_window, "profile_%s_share%s",
			    name, "");
	}
	add(rows, max, &n, "count", (double)t->in_window, "profile_samples%s%s", "", "");
	add(rows, max, &n, "ns", period, "profile_period_ns%s%s", "", "");
	add(rows, max, &n, "count", (double)t->lost, "profile_lost%s%s", "", "");
	add(rows, max, &n, "ns", stall / ops, "profile_stall_ns_per_%s%s", per, "");
	if (wall > 0) {
		/* the CPU time the samples stand for, over the timed wall time */
		add(rows, max, &n, "ratio", sampled / wall, "profile_coverage%s%s", "", "");
		add(rows, max, &n, "ratio", stall / wall, "profile_stall_coverage%s%s", "", "");
	}
	/* sampled and stalled time over CPU time: apart from other tasks on the CPU */
	if (cpu_ns)
		add(rows, max, &n, "ratio", (sampled + stall) / (double)cpu_ns,
		    "profile_cpu_coverage%s%s", "", "");
	return n;
}
