// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/nnls.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"
#include "model/walk_nested.h"
#include "model/walk_run.h"

enum pt_fit_role pt_fit_role_of(const struct pt_calib_point *p)
{
	if (p->pattern == PT_PAT_DENSE)
		return PT_FIT_DENSE;
	if (p->pattern == PT_PAT_CHASE)
		return p->block_h ? PT_FIT_HUGE : PT_FIT_BASE;
	/* fitted with the base-page chases: it tells apart the TLBs' organisations */
	if (p->pattern == PT_PAT_CHASE_QUARTER)
		return PT_FIT_BASE;
	return PT_FIT_CHECK;
}

static bool is_dense(const struct pt_calib_point *p)
{
	return pt_fit_role_of(p) == PT_FIT_DENSE;
}

static bool is_check(const struct pt_calib_point *p)
{
	return pt_fit_role_of(p) == PT_FIT_CHECK;
}

static double weight(const struct pt_fit_set *s, size_t i)
{
	return s->w ? s->w[i] : 1.0 / s->y[i];
}

/* Cache levels are fitted as non-negative steps over the level below: l1 <= l2 <= llc <= mem. */
static bool is_cache(unsigned j)
{
	return j <= PT_LAT_MEM;
}

/*
 * Column of unknown j: the cost it adds to a point. A cache level's step
 * raises every unknown level above it up to the first fixed one.
 */
static double column(const double f[PT_LAT_N], unsigned mask, unsigned j)
{
	double v = f[j];
	unsigned k;

	if (!is_cache(j))
		return v;
	for (k = j + 1; is_cache(k) && (mask >> k & 1); k++)
		v += f[k];
	return v;
}

/* The fixed part of unknown cache level j: the level below its run of unknowns. */
static double anchor(const double lat[PT_LAT_N], unsigned mask, unsigned j)
{
	while (j > 0 && (mask >> (j - 1) & 1))
		j--;
	return j ? lat[j - 1] : 0;
}

/*
 * Which of the terms in mask the points with use[] (dense or not) exercise
 * enough to be fitted: PT_FIT_MIN_SHARE of some point's accesses.
 */
static unsigned exercised(const struct pt_fit_set *s, const bool *use, bool dense, unsigned mask)
{
	unsigned j, out = 0;
	size_t i;

	for (j = 0; j < PT_LAT_N; j++) {
		double most = 0;

		for (i = 0; i < s->n; i++)
			if (use[i] && is_dense(&s->p[i]) == dense)
				most = fmax(most, s->f[i][j]);
		/*
		 * a term no point spends a fifth of its accesses on: a cache
		 * term is left to stage 2, a TLB or walk term to its configured
		 * latency
		 */
		if ((mask >> j & 1) && most >= PT_FIT_MIN_SHARE)
			out |= 1u << j;
	}
	return out;
}

/*
 * One NNLS over the points with use[] (dense ones, or the others, or all):
 * the terms in mask are unknown, the others fixed at lat[] and moved to the
 * right-hand side.
 */
static int stage(const struct pt_fit_set *s, const bool *use, bool dense, bool all, unsigned mask,
		 double lat[PT_LAT_N])
{
	double *a, *b, x[PT_LAT_N];
	size_t m = 0, i, k, nc = 0;
	unsigned col[PT_LAT_N], j;
	int r;

	for (j = 0; j < PT_LAT_N; j++)
		if (mask >> j & 1)
			col[nc++] = j;
	if (!nc)
		return 0;
	a = malloc(s->n * nc * sizeof(*a));
	b = malloc(s->n * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		double w = weight(s, i), rhs = s->y[i];

		if (!use[i] || (!all && is_dense(&s->p[i]) != dense))
			continue;
		for (j = 0; j < PT_LAT_N; j++) {
			if (!(mask >> j & 1))
				rhs -= s->f[i][j] * lat[j];
			else if (is_cache(j))
				rhs -= s->f[i][j] * anchor(lat, mask, j);
		}
		for (k = 0; k < nc; k++)
			a[m * nc + k] = w * column(s->f[i], mask, col[k]);
		b[m++] = w * rhs;
	}
	r = m ? pt_nnls(a, b, m, nc, x) : -1;
	if (m)
		for (k = 0; k < nc; k++) {
			j = col[k];
			lat[j] = x[k] + (is_cache(j) && j ? lat[j - 1] : 0);
		}
	free(a);
	free(b);
	return r;
}

/*
 * stage(), with the memory latency bounded above: a term the points barely
 * exercise can take any value that fits a few of them (microseconds), and
 * would then wreck every prediction that does use it. At the bound it is
 * fixed and the others refitted: the optimum on that face.
 */
static int stage_bounded(const struct pt_fit_set *s, const bool *use, bool dense, bool all,
			 unsigned mask, double lat[PT_LAT_N])
{
	if (stage(s, use, dense, all, mask, lat))
		return -1;
	if (!(mask >> PT_LAT_MEM & 1) || lat[PT_LAT_MEM] <= PT_FIT_MEM_MAX_NS)
		return 0;
	lat[PT_LAT_MEM] = PT_FIT_MEM_MAX_NS;
	return stage(s, use, dense, all, mask & ~(1u << PT_LAT_MEM), lat);
}

bool pt_fit_term_held(const struct pt_fit_set *s, const bool *use, unsigned j)
{
	return (PT_FIT_STAGE2 >> j & 1) && !exercised(s, use, false, 1u << j);
}

bool pt_fit_at_bound(unsigned j, const double lat_ns[PT_LAT_N])
{
	return j == PT_LAT_MEM && lat_ns[j] >= PT_FIT_MEM_MAX_NS * (1 - 1e-9);
}

int pt_fit2(const struct pt_fit_set *s, const bool *use, double lat_ns[PT_LAT_N])
{
	bool any_dense = false, any_chase = false;
	unsigned first;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (!use[i])
			continue;
		if (is_dense(&s->p[i]))
			any_dense = true;
		else
			any_chase = true;
	}
	/*
	 * A TLB or walk term the chases barely exercise keeps its configured
	 * latency: fitted, it would take whatever value mends a few points
	 * (lat.walk2 at 1.9 ms under a nested TLB that hid nearly every host
	 * walk of the fitted cases), and a D128 prediction that exercises it more
	 * would carry that value (a host D128/D64 of 13422).
	 */
	if (!any_dense)
		return stage_bounded(s, use, false, true,
				     PT_FIT_STAGE1 | exercised(s, use, false, PT_FIT_STAGE2),
				     lat_ns);
	/* stage 1: the cache and memory terms the dense control exercises */
	first = exercised(s, use, true, PT_FIT_STAGE1);
	if (stage_bounded(s, use, true, false, first, lat_ns))
		return -1;
	/* stage 2: TLB and walk terms, and any cache term stage 1 could not see */
	if (any_chase &&
	    stage_bounded(s, use, false, false,
			  exercised(s, use, false, PT_FIT_STAGE2) | (PT_FIT_STAGE1 & ~first),
			  lat_ns))
		return -1;
	return 0;
}

double pt_fit_rms(const struct pt_fit_set *s, const bool *on, const double lat_ns[PT_LAT_N])
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < s->n; i++) {
		double r;

		if (!on[i])
			continue;
		r = (pt_walk_cost(s->f[i], lat_ns) - s->y[i]) / s->y[i];
		sum += r * r;
		n++;
	}
	return n ? sqrt(sum / (double)n) : NAN;
}

double pt_fit_rms_pred(const double *y, const double *pred, size_t n)
{
	double sum = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		double e;

		if (isnan(pred[i]))
			continue;
		e = (pred[i] - y[i]) / y[i];
		sum += e * e;
		m++;
	}
	return m ? sqrt(sum / (double)m) : NAN;
}

typedef int (*predict_fn)(const struct pt_fit_set *s, const bool *have,
			  const double base_ns[PT_LAT_N], double *pred);

/* The RMS relative error of a held-out prediction over every point it predicts. */
static double heldout(const struct pt_fit_set *s, const double base_ns[PT_LAT_N], predict_fn fn)
{
	double *pred = malloc(s->n * sizeof(*pred)), r = NAN;

	if (pred && !fn(s, NULL, base_ns, pred))
		r = pt_fit_rms_pred(s->y, pred, s->n);
	free(pred);
	return r;
}

int pt_fit_predict_huge(const struct pt_fit_set *s, const bool *have,
			const double base_ns[PT_LAT_N], double *pred)
{
	bool *use = calloc(s->n, sizeof(*use));
	double lat[PT_LAT_N];
	size_t i;
	int r = -1;

	for (i = 0; i < s->n; i++)
		pred[i] = NAN;
	if (!use)
		return -1;
	for (i = 0; i < s->n; i++) {
		enum pt_fit_role k = pt_fit_role_of(&s->p[i]);

		use[i] = (!have || have[i]) && (k == PT_FIT_BASE || k == PT_FIT_DENSE);
	}
	memcpy(lat, base_ns, sizeof(lat));
	if (!pt_fit2(s, use, lat)) {
		for (i = 0; i < s->n; i++)
			if (pt_fit_role_of(&s->p[i]) == PT_FIT_HUGE)
				pred[i] = pt_walk_cost(s->f[i], lat);
		r = 0;
	}
	free(use);
	return r;
}

double pt_fit_heldout_huge(const struct pt_fit_set *s, const double base_ns[PT_LAT_N])
{
	return heldout(s, base_ns, pt_fit_predict_huge);
}

int pt_fit_predict_ws(const struct pt_fit_set *s, const bool *have, const double base_ns[PT_LAT_N],
		      double *pred)
{
	bool *use = calloc(s->n, sizeof(*use));
	size_t i, k;

	for (i = 0; i < s->n; i++)
		pred[i] = NAN;
	if (!use)
		return -1;
	for (i = 0; i < s->n; i++) {
		double lat[PT_LAT_N];
		bool seen = false;

		for (k = 0; k < i; k++)
			seen |= s->p[k].ws == s->p[i].ws && !is_check(&s->p[k]);
		if (seen || is_check(&s->p[i]))
			continue;
		for (k = 0; k < s->n; k++)
			use[k] = (!have || have[k]) && s->p[k].ws != s->p[i].ws &&
				 !is_check(&s->p[k]);
		memcpy(lat, base_ns, sizeof(lat));
		if (pt_fit2(s, use, lat))
			continue;
		for (k = 0; k < s->n; k++)
			if (s->p[k].ws == s->p[i].ws && !is_check(&s->p[k]))
				pred[k] = pt_walk_cost(s->f[k], lat);
	}
	free(use);
	return 0;
}

double pt_fit_heldout_ws(const struct pt_fit_set *s, const double base_ns[PT_LAT_N])
{
	return heldout(s, base_ns, pt_fit_predict_ws);
}

int pt_fit_features(const struct pt_calib_point *p, const struct pt_walk_cfg *cfg,
		    enum pt_format fmt, double f[PT_LAT_N], char *err, size_t errlen)
{
	struct pt_geometry g;
	struct pt_pattern pat;
	uint64_t warm, n;
	unsigned bh = p->block_h;
	int r = 0;

	if (pt_geometry_make(&g, fmt, cfg->granule_shift, cfg->va_bits, err, errlen))
		return -1;
	if (pt_pattern_init(&pat, p->pattern, p->ws, 0, 1, err, errlen))
		return -1;
	pt_walk_fit_counts(&pat, &warm, &n);
	if (cfg->s2.format < 0) {
		struct pt_walksim sim;

		r = pt_walksim_init(&sim, &g, cfg, bh, pat.base, pat.base + p->ws, err, errlen);
		if (!r) {
			pt_walk_run_pattern(&sim, 1, &pat, warm, n);
			pt_walk_features(&sim.st, true, f);
			pt_walksim_free(&sim);
		}
	} else {
		struct pt_nestsim *sim = malloc(sizeof(*sim));

		r = sim ? pt_nestsim_init(sim, &g, cfg, bh, pat.base, pat.base + p->ws, err, errlen)
			: -1;
		if (!r) {
			pt_nest_run_pattern(sim, &pat, warm, n);
			pt_walk_features(&sim->st, true, f);
			pt_nestsim_free(sim);
		}
		free(sim);
	}
	pt_pattern_free(&pat);
	return r;
}
