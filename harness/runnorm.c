// SPDX-License-Identifier: GPL-2.0-only
/*
 * Normalised timings: a case's primary timing in round r divided by its
 * control's timing in round r, scaled by the control's median so the value
 * stays in the case's unit. Host drift that slows both in a round cancels;
 * whether that lowers the spread between runs is measured, not assumed
 * (docs/compare.md).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/runner.h"
#include "util/stats.h"

static const struct pt_case_result *find_control(const struct pt_run *run, const char *name)
{
	size_t i;

	for (i = 0; i < run->nresults; i++)
		if (!strcmp(run->results[i].w->name, "control") &&
		    !strcmp(run->results[i].c.name, name))
			return &run->results[i];
	return NULL;
}

/* The control's value in round rep, or NaN when that repetition failed. */
static double at_rep(const struct pt_case_result *c, int rep)
{
	int i;

	for (i = 0; i < c->nprimary; i++)
		if (c->primary_rep[i] == rep)
			return c->primary[i];
	return NAN;
}

static void emit_case(struct pt_run *run, const struct pt_case_result *res,
		      const struct pt_case_result *ctl)
{
	const char *primary = pt_case_primary(res->w, &res->c);
	double sorted[64], med;
	char metric[96];
	int i, n = ctl->nprimary;

	memcpy(sorted, ctl->primary, (size_t)n * sizeof(*sorted));
	pt_sort_doubles(sorted, (size_t)n);
	med = pt_quantile_sorted(sorted, (size_t)n, 0.5);
	snprintf(metric, sizeof(metric), "%s_norm", primary);
	for (i = 0; i < res->nprimary; i++) {
		double c = at_rep(ctl, res->primary_rep[i]);

		if (c > 0 && med > 0)
			pt_sink_row(run->sink, res->w->name, res->c.name, res->c.params,
				    res->primary_rep[i], metric, res->primary[i] / c * med, "ns",
				    PT_LOWER);
	}
}

void pt_run_emit_norm(struct pt_run *run)
{
	size_t i;

	for (i = 0; i < run->nresults; i++) {
		const struct pt_case_result *res = &run->results[i];
		const struct pt_case_result *ctl;

		/* timings only: a byte count does not run faster on a faster host */
		if (!res->w->control || res->status != PT_CASE_OK ||
		    strncmp(pt_case_primary(res->w, &res->c), "ns_per_", 7))
			continue;
		ctl = find_control(run, res->w->control);
		if (ctl && ctl->status == PT_CASE_OK && ctl->nprimary)
			emit_case(run, res, ctl);
	}
}
