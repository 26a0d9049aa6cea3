// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fit error that the measurements' own noise leaves. A calibration point is
 * one statistic of a few repetitions. On a host whose cache share changes
 * between them, a 128M chase measured 51-189 ns in one run of this
 * project's KVM guest (results/walk-calibration/NOTES.md). Even a model
 * that predicted every case's true cost exactly would miss such a
 * statistic by its sampling error. Resampling each point's repetitions
 * (the bootstrap) estimates that error, and its RMS over the points is
 * the fit error a perfect model would show on average. A target below it
 * is one the run's data cannot show met. Resampled with util/rng.h, as
 * the D128 ranges are.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/walkcalib.h"
#include "model/walk_fit.h"
#include "util/rng.h"

#define NOISE_BOOT 400

/* Mean squared relative error of point i's statistic over resamples of its repetitions. */
static double point_msq(const struct pt_walkcalib *c, size_t i, double *tmp, uint64_t *seed)
{
	size_t m = c->nreps[i], b, k;
	double sq = 0;

	for (b = 0; b < NOISE_BOOT; b++) {
		double e;

		for (k = 0; k < m; k++)
			tmp[k] = c->reps[i][pt_rng_next(seed) % m];
		e = pt_calib_stat_of(c->stat, tmp, m) / c->y[i] - 1;
		sq += e * e;
	}
	return sq / NOISE_BOOT;
}

double pt_walkcalib_noise(const struct pt_walkcalib *c, bool check, size_t *n)
{
	uint64_t seed = 0x2545f4914f6cdd1dull;
	size_t i, most = 0;
	double sq = 0, *tmp;

	*n = 0;
	for (i = 0; i < c->n; i++)
		if (c->nreps[i] > most)
			most = c->nreps[i];
	tmp = malloc((most ? most : 1) * sizeof(*tmp));
	if (!tmp)
		return NAN;
	for (i = 0; i < c->n; i++) {
		if ((pt_fit_role_of(&c->p[i]) == PT_FIT_CHECK) != check || c->nreps[i] < 2 ||
		    !(c->y[i] > 0))
			continue;
		sq += point_msq(c, i, tmp, &seed);
		(*n)++;
	}
	free(tmp);
	return *n ? sqrt(sq / (double)*n) : NAN;
}
