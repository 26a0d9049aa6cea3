// SPDX-License-Identifier: GPL-2.0-only
/*
 * The smallest fit error the chosen structure can reach on a run's data.
 * Cases the structure simulates alike (equal events per access: under a
 * shadow with 4K leaves, the 4K, THP and hugetlb chases of one working set)
 * get one predicted cost whatever the latencies, so where the machine
 * measured them apart no fit matches them all. For relative error a
 * group's best single prediction is sum(1/y) / sum(1/y^2); what it leaves
 * no latency can remove. The RMS of those residuals over every fitted case
 * (the others at zero) is a lower bound on `fit:`, and says how much of a
 * miss is the measurements' disagreement rather than the model's shape.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/walkcalib.h"
#include "model/walk_fit.h"

/*
 * Equal to within rounding: the simulations are deterministic, so alike
 * cases give bit-equal counts; the tolerance only forgives summation order.
 */
static bool same_features(const double *a, const double *b)
{
	unsigned j;

	for (j = 0; j < PT_LAT_N; j++)
		if (fabs(a[j] - b[j]) > 1e-9 * fmax(fabs(a[j]), fabs(b[j])) + 1e-12)
			return false;
	return true;
}

/* A point fit: counts in the in-sample error (not a check, and predicted). */
static bool counts(const struct pt_walkcalib *c, size_t i)
{
	return pt_fit_role_of(&c->p[i]) != PT_FIT_CHECK && c->y[i] > 0 &&
	       isfinite(pt_walkcalib_fitted(c, i));
}

double pt_walkcalib_fit_floor(const struct pt_walkcalib *c, size_t *groups, size_t *grouped)
{
	bool *done = calloc(c->n ? c->n : 1, sizeof(*done));
	size_t *in = malloc((c->n ? c->n : 1) * sizeof(*in));
	double sq = 0, bound = NAN;
	size_t i, k, m = 0;

	*groups = *grouped = 0;
	if (!done || !in)
		goto out;
	for (i = 0; i < c->n; i++) {
		const double *fi = pt_walkcalib_features(c, i);
		double s1 = 0, s2 = 0, p;
		size_t size = 0;

		if (!counts(c, i))
			continue;
		m++;
		if (done[i])
			continue;
		/* i and every later fitted case simulated alike: one group */
		for (k = i; k < c->n; k++) {
			if (done[k] || !counts(c, k) ||
			    !same_features(fi, pt_walkcalib_features(c, k)))
				continue;
			done[k] = true;
			in[size++] = k;
			s1 += 1 / c->y[k];
			s2 += 1 / (c->y[k] * c->y[k]);
		}
		if (size < 2)
			continue;
		(*groups)++;
		*grouped += size;
		p = s1 / s2;
		for (k = 0; k < size; k++) {
			double e = (p - c->y[in[k]]) / c->y[in[k]];

			sq += e * e;
		}
	}
	if (m)
		bound = sqrt(sq / (double)m);
out:
	free(done);
	free(in);
	return bound;
}
