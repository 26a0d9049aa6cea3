// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdio.h>

#include "model/calib.h"
#include "model/walk_cost.h"
#include "model/walk_run.h"

#define PT_CALIB_SWEEPS 20000
#define PT_CALIB_TOL 1e-12

static int simulate_one(const struct pt_calib_point *p, const struct pt_walk_cfg *cfg,
			enum pt_format fmt, double f[PT_LAT_N], char *err, size_t errlen)
{
	struct pt_geometry g;
	struct pt_walksim sim;
	struct pt_pattern pat;
	uint64_t warm, n;

	if (pt_geometry_make(&g, fmt, cfg->granule_shift, cfg->va_bits, err, errlen))
		return -1;
	if (pt_pattern_init(&pat, p->pattern, p->ws, 0, 1, err, errlen))
		return -1;
	if (pt_walksim_init(&sim, &g, cfg, p->block_h, pat.base, pat.base + p->ws, err, errlen)) {
		pt_pattern_free(&pat);
		return -1;
	}
	pt_walk_default_counts(&pat, &warm, &n);
	pt_walk_run_pattern(&sim, 1, &pat, warm, n);
	pt_walk_features(&sim.st, true, f);
	pt_walksim_free(&sim);
	pt_pattern_free(&pat);
	return 0;
}

int pt_calib_simulate(struct pt_calib_point *p, const struct pt_walk_cfg *cfg, char *err,
		      size_t errlen)
{
	if (simulate_one(p, cfg, PT_D64, p->f_d64, err, errlen))
		return -1;
	return simulate_one(p, cfg, PT_D128, p->f_d128, err, errlen);
}

double pt_calib_predict(const double f[PT_LAT_N], const double lat_ns[PT_LAT_N])
{
	return pt_walk_cost(f, lat_ns);
}

static double rms_rel(const struct pt_calib_point *p, size_t n, const double lat[PT_LAT_N])
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double r =
			(pt_calib_predict(p[i].f_d64, lat) - p[i].measured_ns) / p[i].measured_ns;

		s += r * r;
	}
	return n ? sqrt(s / (double)n) : NAN;
}

/* Exact minimisation along coordinate j, clamped at zero; returns the step. */
static double coordinate_step(const struct pt_calib_point *p, size_t n, unsigned j,
			      double lat[PT_LAT_N])
{
	double num = 0, den = 0, old = lat[j];
	size_t i;

	for (i = 0; i < n; i++) {
		double w = 1.0 / (p[i].measured_ns * p[i].measured_ns);
		double r = pt_calib_predict(p[i].f_d64, lat) - p[i].measured_ns;

		num += w * r * p[i].f_d64[j];
		den += w * p[i].f_d64[j] * p[i].f_d64[j];
	}
	if (den <= 0)
		return 0;
	lat[j] = fmax(0.0, old - num / den);
	return fabs(lat[j] - old);
}

double pt_calib_fit(const struct pt_calib_point *p, size_t n, unsigned mask,
		    double lat_ns[PT_LAT_N])
{
	unsigned sweep, j;

	for (sweep = 0; sweep < PT_CALIB_SWEEPS; sweep++) {
		double moved = 0;

		for (j = 0; j < PT_LAT_N; j++)
			if (mask >> j & 1)
				moved += coordinate_step(p, n, j, lat_ns);
		if (moved < PT_CALIB_TOL)
			break;
	}
	return rms_rel(p, n, lat_ns);
}
