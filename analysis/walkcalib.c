// SPDX-License-Identifier: GPL-2.0-only
/* The hypotheses of the walk calibration, each fitted and judged out of sample. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibpoints.h"
#include "analysis/walkcalib.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"
#include "util/stats.h"

#define PASS_FACTOR 1.25 /* a hypothesis within 25% of the best held-out error passes */
#define NOISE_FLOOR 0.05 /* relative spread below which a point's weight stops growing */
#define MAX_REPS 1024

static double median_of(double *v, size_t n)
{
	pt_sort_doubles(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Weight: relative error, less where the repetitions disagree (noisy points). */
static void set_weights(struct pt_walkcalib *c)
{
	double tmp[MAX_REPS];
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		size_t m = c->nreps[i] < MAX_REPS ? c->nreps[i] : MAX_REPS;
		double rd = 0;

		if (m >= 3) {
			for (k = 0; k < m; k++)
				tmp[k] = fabs(c->reps[i][k] - c->y[i]);
			rd = 1.4826 * median_of(tmp, m) / c->y[i];
		}
		c->w[i] = 1.0 / (c->y[i] * sqrt(NOISE_FLOOR * NOISE_FLOOR + rd * rd));
	}
}

static int simulate(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg, double (*f)[PT_LAT_N],
		    char *err, size_t errlen)
{
	char why[256];
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (pt_fit_features(&c->p[i], cfg, PT_D64, f[i], why, sizeof(why))) {
			snprintf(err, errlen, "case %s: %s", c->p[i].cs, why);
			return -1;
		}
	}
	return 0;
}

static void llc_candidates(const struct pt_walk_cfg *cfg, uint64_t *llc, size_t *n)
{
	uint64_t v, sys = cfg->cache[2].size_bytes;
	bool have_sys = false;

	/*
	 * From 1M up, even at or below the L2's size: a guest on a shared host
	 * may effectively get no LLC at all (an LLC no larger than the L2 only
	 * holds the L2's recent victims).
	 */
	*n = 0;
	for (v = 1ull << 20; v <= 32ull << 20 && *n < PT_WALKCALIB_MAX_LLC - 1; v *= 2) {
		llc[(*n)++] = v;
		have_sys |= v == sys;
	}
	if (!have_sys)
		llc[(*n)++] = sys;
}

static struct pt_fit_set fit_set(const struct pt_walkcalib *c, const struct pt_walkcalib_hyp *h)
{
	struct pt_fit_set s = { c->n, c->p, (const double(*)[PT_LAT_N])h->f, c->y, c->w };

	return s;
}

static int judge(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, char *err, size_t errlen)
{
	struct pt_fit_set s = fit_set(c, h);
	bool *all = malloc(c->n * sizeof(*all));
	size_t i;

	if (!all) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < c->n; i++)
		all[i] = pt_fit_role_of(&c->p[i]) != PT_FIT_CHECK; /* predicted, never fitted */
	memcpy(h->lat, c->base, sizeof(h->lat));
	if (pt_fit2(&s, all, h->lat)) {
		free(all);
		snprintf(err, errlen, "%s: the fit found no solution", h->name);
		return -1;
	}
	h->fit = pt_fit_rms(&s, all, h->lat);
	h->huge = pt_fit_heldout_huge(&s, c->base);
	h->lowo = pt_fit_heldout_ws(&s, c->base);
	h->worse = isnan(h->huge) ? h->lowo : fmax(h->huge, h->lowo);
	if (isnan(h->worse))
		h->worse = h->fit;
	free(all);
	return 0;
}

/*
 * The effective LLC of hypothesis h: each candidate is simulated and fitted
 * in full, and judged by its held-out error like the structure itself.
 */
static int choose_llc(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, char *err, size_t errlen)
{
	struct pt_walkcalib_hyp best = *h, t = *h;
	uint64_t llc[PT_WALKCALIB_MAX_LLC];
	size_t nl, k;

	best.worse = INFINITY;
	t.f = calloc(c->n, sizeof(*t.f));
	if (!t.f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	llc_candidates(&h->cfg, llc, &nl);
	for (k = 0; k < nl; k++) {
		t.cfg.cache[2].size_bytes = llc[k];
		if (simulate(c, &t.cfg, t.f, err, errlen) || judge(c, &t, err, errlen)) {
			free(t.f);
			return -1;
		}
		h->llc[k] = llc[k];
		h->llc_worse[k] = t.worse;
		if (t.worse < best.worse) {
			double(*f)[PT_LAT_N] = best.f;

			best = t;
			best.f = f;
			memcpy(best.f, t.f, c->n * sizeof(*t.f));
		}
	}
	free(t.f);
	memcpy(best.llc, h->llc, sizeof(best.llc));
	memcpy(best.llc_worse, h->llc_worse, sizeof(best.llc_worse));
	best.nllc = nl;
	*h = best;
	return 0;
}

static void add_hyp(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg, int fmt,
		    unsigned block_h, enum pt_guest_layout layout)
{
	struct pt_walkcalib_hyp *h = &c->h[c->nh++];

	h->cfg = *cfg;
	h->cfg.s2.format = fmt;
	h->cfg.s2.block_h = block_h;
	h->cfg.s2.layout = layout;
	if (fmt < 0)
		snprintf(h->name, sizeof(h->name), "one-stage");
	else
		snprintf(h->name, sizeof(h->name), "nested-%s-host-%s-%s", fmt ? "d128" : "d64",
			 block_h ? "thp" : "4k", layout ? "linear" : "scatter");
}

static void choose(struct pt_walkcalib *c)
{
	size_t k;

	c->best = 0;
	for (k = 1; k < c->nh; k++)
		if (c->h[k].worse < c->h[c->best].worse)
			c->best = k;
	for (k = 0; k < c->nh; k++)
		c->h[k].pass = c->h[k].worse <= PASS_FACTOR * c->h[c->best].worse;
}

static int hypotheses(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg, bool forced, char *err,
		      size_t errlen)
{
	size_t k;
	unsigned j;

	for (j = 0; j < PT_LAT_N; j++)
		c->base[j] = cfg->lat[j] / cfg->ghz;
	if (forced) {
		add_hyp(c, cfg, cfg->s2.format, cfg->s2.block_h, cfg->s2.layout);
	} else if (c->recorded_virt == 0) {
		/* a native host translates in one stage: no nested structure to choose */
		add_hyp(c, cfg, -1, 0, PT_LAYOUT_SCATTER);
	} else {
		/* the guest's frames as its allocator leaves them: scattered, or in order */
		add_hyp(c, cfg, -1, 0, PT_LAYOUT_SCATTER);
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_SCATTER);
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_LINEAR);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_SCATTER);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_LINEAR);
	}
	for (k = 0; k < c->nh; k++) {
		c->h[k].f = calloc(c->n, sizeof(*c->h[k].f));
		c->h[k].fc = calloc(c->n, sizeof(*c->h[k].fc));
		if (!c->h[k].f || !c->h[k].fc) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	for (k = 0; k < c->nh; k++)
		if (choose_llc(c, &c->h[k], err, errlen))
			return -1;
	choose(c);
	return 0;
}

int pt_walkcalib_run(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg, bool stage2_forced,
		     struct pt_calib_point *pts, size_t n, const struct pt_rundir *run, char *err,
		     size_t errlen)
{
	size_t k;

	memset(c, 0, sizeof(*c));
	c->p = pts;
	c->n = n;
	c->y = calloc(n, sizeof(*c->y));
	c->w = calloc(n, sizeof(*c->w));
	c->reps = calloc(n, sizeof(*c->reps));
	c->nreps = calloc(n, sizeof(*c->nreps));
	c->lo = calloc(n, sizeof(*c->lo));
	c->hi = calloc(n, sizeof(*c->hi));
	if (!c->y || !c->w || !c->reps || !c->nreps || !c->lo || !c->hi) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (k = 0; k < n; k++) {
		c->y[k] = pts[k].measured_ns;
		if (pt_calib_point_values(run, &pts[k], &c->reps[k], &c->nreps[k]))
			c->nreps[k] = 0;
	}
	set_weights(c);
	c->recorded_virt = !strcmp(run->meta.virtualized, "true")    ? 1
			   : !strcmp(run->meta.virtualized, "false") ? 0
								     : -1;
	if (hypotheses(c, cfg, stage2_forced, err, errlen))
		return -1;
	return pt_walkcalib_ranges(c, err, errlen);
}

void pt_walkcalib_free(struct pt_walkcalib *c)
{
	size_t k;

	for (k = 0; k < c->nh; k++) {
		free(c->h[k].f);
		free(c->h[k].fc);
	}
	free(c->y);
	free(c->w);
	free(c->reps);
	free(c->nreps);
	free(c->lo);
	free(c->hi);
	memset(c, 0, sizeof(*c));
}

double pt_walkcalib_fitted(const struct pt_walkcalib *c, size_t i)
{
	const struct pt_walkcalib_hyp *h = &c->h[c->best];

	return pt_walk_cost(h->f[i], h->lat);
}

double pt_walkcalib_d128(const struct pt_walkcalib *c, size_t i, enum pt_d128_at at)
{
	const struct pt_walkcalib_hyp *h = &c->h[c->best];

	return pt_walk_cost(h->fc[i][at], h->lat);
}

/*
 * The half-density chase touches 4 of the 8 D64 descriptors in each leaf
 * line, as D128 does at stride 1: predicted from the fit that never saw it.
 */
double pt_walkcalib_check_rms(const struct pt_walkcalib *c, size_t *n)
{
	double sum = 0;
	size_t i;

	*n = 0;
	for (i = 0; i < c->n; i++) {
		double e;

		if (pt_fit_role_of(&c->p[i]) != PT_FIT_CHECK)
			continue;
		e = (pt_walkcalib_fitted(c, i) - c->y[i]) / c->y[i];
		sum += e * e;
		(*n)++;
	}
	return *n ? sqrt(sum / (double)*n) : NAN;
}
