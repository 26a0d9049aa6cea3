// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "harness/profile_tally.h"

void pt_tally_reset(struct pt_prof_tally *t, uint64_t period_ns)
{
	memset(t, 0, sizeof(*t));
	t->period_ns = period_ns;
}

void pt_tally_begin(struct pt_prof_tally *t, uint64_t t0_ns)
{
	t->t0 = t0_ns;
	t->t1 = 0;
	t->open = true;
	t->started = true;
}

void pt_tally_end(struct pt_prof_tally *t, uint64_t t1_ns)
{
	if (!t->open)
		return;
	t->t1 = t1_ns;
	t->open = false;
	t->elapsed_ns += t1_ns > t->t0 ? t1_ns - t->t0 : 0;
}

bool pt_tally_sample(struct pt_prof_tally *t, uint64_t time_ns, enum pt_prof_comp c)
{
	bool in = t->started && time_ns >= t->t0 && (t->open || time_ns <= t->t1);

	if ((int)c < 0 || c >= PT_COMP_N)
		c = PT_COMP_KERNEL_OTHER;
	if (!in) {
		t->outside++;
		return false;
	}
	t->samples[c]++;
	t->in_window++;
	return true;
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
	double period = (double)t->period_ns;
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
	/* the CPU time the samples stand for over the wall time of the windows */
	if (t->elapsed_ns)
		add(rows, max, &n, "ratio", (double)t->in_window * period / (double)t->elapsed_ns,
		    "profile_coverage%s%s", "", "");
	/* the same over CPU time: apart from other tasks competing for the CPU */
	if (cpu_ns)
		add(rows, max, &n, "ratio", (double)t->in_window * period / (double)cpu_ns,
		    "profile_cpu_coverage%s%s", "", "");
	return n;
}
