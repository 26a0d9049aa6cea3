// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>

#include "analysis/noisefloor.h"

static double abs_change_pct(double base, double cand)
{
	if (base == cand)
		return 0;
	if (base == 0)
		return INFINITY;
	return fabs(cand - base) / fabs(base) * 100;
}

double pt_floor_spread(const double *med, size_t n, long skip_a, long skip_b)
{
	double worst = NAN, c;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if ((long)i == skip_a || (long)i == skip_b || isnan(med[i]))
			continue;
		for (j = 0; j < n; j++) {
			if (j == i || (long)j == skip_a || (long)j == skip_b || isnan(med[j]))
				continue;
			c = abs_change_pct(med[i], med[j]);
			if (isnan(worst) || c > worst)
				worst = c;
		}
	}
	return worst;
}

double pt_floor_threshold(double worst, const struct pt_floor_opts *o, bool *off)
{
	double thr;

	if (isnan(worst)) {
		*off = true;
		return INFINITY;
	}
	thr = ceil(o->margin * worst);
	if (thr < o->base_pct)
		thr = o->base_pct;
	*off = thr > o->max_pct;
	return thr;
}
