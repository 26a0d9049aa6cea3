// SPDX-License-Identifier: GPL-2.0-only
/*
 * The walk model against the hardware's TLB counters (walkcounters.h).
 * Only counters whose meaning is fixed are used: generic dTLB-load-misses
 * counts walks on Intel but every L1 DTLB miss on AMD, so it is not one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/walkcounters.h"
#include "model/tlb_events.h"
#include "util/stats.h"

static const struct pt_walkcount_measure measures[] = {
	{ "walks", PT_LAT_WALK, { PT_EV_INTEL_WALKS } },
	{ "walks",
	  PT_LAT_WALK,
	  { PT_EV_AMD_WALKS_4K, PT_EV_AMD_WALKS_COALESCED, PT_EV_AMD_WALKS_2M } },
	{ "walks", PT_LAT_WALK, { PT_EV_ARM_WALKS } },
	/* the model's L2TLB events are the accesses that missed the L1 TLB */
	{ "l1_dtlb_misses", PT_LAT_L2TLB, { PT_EV_ARM_L1_REFILLS } },
};

size_t pt_walkcount_measures(const struct pt_walkcount_measure **list)
{
	*list = measures;
	return sizeof(measures) / sizeof(measures[0]);
}

static const struct pt_series *find(const struct pt_rundir *run, const char *cs, const char *metric)
{
	size_t i;

	for (i = 0; i < run->nseries; i++) {
		const struct pt_series *s = &run->series[i];

		if (!strcmp(s->workload, "tlb") && !strcmp(s->cs, cs) && !strcmp(s->metric, metric))
			return s;
	}
	return NULL;
}

int pt_walkcount_measured(const struct pt_rundir *run, const char *cs,
			  const struct pt_walkcount_measure *m, double *v)
{
	char metric[160];
	size_t e;

	*v = 0;
	for (e = 0; e < PT_WALKCOUNT_MAX_EVENTS && m->events[e]; e++) {
		struct pt_summary sum;
		const struct pt_series *s;

		snprintf(metric, sizeof(metric), "%s_per_access", m->events[e]);
		s = find(run, cs, metric);
		if (!s || pt_summarize(s->values, s->n, &sum))
			return -1;
		*v += sum.median;
	}
	return e ? 0 : -1;
}

double pt_walkcount_rms(const double *measured, const double *simulated, size_t k, double floor,
			size_t *n)
{
	double sum = 0;
	size_t i;

	*n = 0;
	for (i = 0; i < k; i++) {
		double e;

		if (!(fmax(measured[i], simulated[i]) >= floor) || !(measured[i] > 0))
			continue;
		e = (simulated[i] - measured[i]) / measured[i];
		sum += e * e;
		(*n)++;
	}
	return *n ? sqrt(sum / (double)*n) : NAN;
}
