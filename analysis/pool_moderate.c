// SPDX-License-Identifier: GPL-2.0-only
/*
 * The prior of the moderated spread (pool_moderate.h). Each variance s^2
 * with d degrees of freedom is s0^2 chi2_d / d around a true variance
 * drawn from s0^2 d0 / chi2_d0; ln s^2 then has variance psi'(d/2) +
 * psi'(d0/2). Smyth's moment estimates: e = ln s^2 - psi(d/2) + ln(d/2),
 * whose sample variance less the mean psi'(d/2) is psi'(d0/2), and whose
 * mean is ln s0^2 - psi(d0/2) + ln(d0/2).
 */
#include <math.h>
#include <stdbool.h>

#include "analysis/pool_moderate.h"
#include "util/gammafn.h"

static bool usable(double var, double df)
{
	return var > 0 && isfinite(var) && df > 0 && isfinite(df);
}

int pt_pool_prior_fit(const double *var, const double *df, size_t n, struct pt_pool_prior *p)
{
	double sum = 0, sq = 0, tri = 0, mean, excess;
	size_t i, m = 0;

	p->series = 0;
	p->df = p->var = NAN;
	for (i = 0; i < n; i++) {
		double e;

		if (!usable(var[i], df[i]))
			continue;
		e = log(var[i]) - pt_digamma(df[i] / 2) + log(df[i] / 2);
		sum += e;
		sq += e * e;
		tri += pt_trigamma(df[i] / 2);
		m++;
	}
	if (m < PT_POOL_PRIOR_MIN_SERIES)
		return -1;
	mean = sum / (double)m;
	excess = (sq - sum * sum / (double)m) / (double)(m - 1) - tri / (double)m;
	p->series = m;
	if (excess > 0) {
		p->df = 2 * pt_trigamma_inv(excess);
		p->var = exp(mean + pt_digamma(p->df / 2) - log(p->df / 2));
	} else {
		/* no spread beyond sampling: one variance for all */
		p->df = INFINITY;
		p->var = exp(mean);
	}
	return 0;
}

double pt_pool_prior_var(const struct pt_pool_prior *p, double var, double df, double *df_out)
{
	*df_out = df;
	if (!p->series || !usable(var, df))
		return var;
	if (isinf(p->df)) {
		*df_out = PT_POOL_PRIOR_DF_MAX;
		return p->var;
	}
	*df_out = fmin(p->df + df, PT_POOL_PRIOR_DF_MAX);
	return (p->df * p->var + df * var) / (p->df + df);
}
