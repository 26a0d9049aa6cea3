// SPDX-License-Identifier: GPL-2.0-only
/*
 * The walk calibration's D128 ranges (bootstrap over repetitions, and every
 * hypothesis that passes cross-validation) and walk_model.csv.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/parallel.h"
#include "util/rng.h"
#include "analysis/walkcalib.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"
#include "util/csv.h"
#include "util/stats.h"

#define NBOOT 200
#define MAX_REPS 1024

static const char *const at_source[PT_D128_AT_N] = { "predicted-d128", "predicted-d128-host",
						     "predicted-d128-both" };

static int features(const struct pt_calib_point *p, const struct pt_walk_cfg *cfg,
		    enum pt_format fmt, double f[PT_LAT_N], char *err, size_t errlen)
{
	char why[256];

	if (!pt_fit_features(p, cfg, fmt, f, why, sizeof(why)))
		return 0;
	snprintf(err, errlen, "case %s: %s", p->cs, why);
	return -1;
}

/*
 * Features with D128 at the guest, the host or both (one stage: guest
 * only) under cfg, into fc; f: the D64 features under cfg.
 */
static int simulate_d128(const struct pt_walkcalib *c, const struct pt_walk_cfg *base,
			 const double (*f)[PT_LAT_N], double (*fc)[PT_D128_AT_N][PT_LAT_N],
			 char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct pt_walk_cfg cfg = *base;

		if (features(&c->p[i], &cfg, PT_D128, fc[i][PT_D128_GUEST], err, errlen))
			return -1;
		if (cfg.s2.format < 0) {
			memcpy(fc[i][PT_D128_HOST], f[i], sizeof(fc[i][PT_D128_HOST]));
			memcpy(fc[i][PT_D128_BOTH], fc[i][PT_D128_GUEST],
			       sizeof(fc[i][PT_D128_BOTH]));
			continue;
		}
		cfg.s2.format = PT_D128;
		if (features(&c->p[i], &cfg, PT_D64, fc[i][PT_D128_HOST], err, errlen) ||
		    features(&c->p[i], &cfg, PT_D128, fc[i][PT_D128_BOTH], err, errlen))
			return -1;
	}
	return 0;
}

/* Widen lo/hi to the 5th and 95th percentiles of each point's bootstrap ratios. */
static void widen(struct pt_walkcalib *c, double (*ratio)[PT_D128_AT_N][NBOOT])
{
	size_t i, e;

	for (i = 0; i < c->n; i++)
		for (e = 0; e < PT_D128_AT_N; e++) {
			pt_sort_doubles(ratio[i][e], NBOOT);
			c->lo[i][e] = fmin(c->lo[i][e], ratio[i][e][NBOOT / 20]);
			c->hi[i][e] = fmax(c->hi[i][e], ratio[i][e][NBOOT - 1 - NBOOT / 20]);
		}
}

/* One round (each point's statistic): refit on resampled statistics NBOOT times; widen lo/hi to the 5th and 95th percentiles. */
static int bootstrap(struct pt_walkcalib *c, const struct pt_walkcalib_hyp *h)
{
	double *yb = malloc(c->n * sizeof(*yb)), tmp[MAX_REPS];
	double(*ratio)[PT_D128_AT_N][NBOOT] = calloc(c->n, sizeof(*ratio));
	bool *all = malloc(c->n * sizeof(*all));
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t i, b, k, e;
	int r = -1;

	if (!yb || !ratio || !all)
		goto out;
	for (i = 0; i < c->n; i++)
		all[i] = pt_fit_role_of(&c->p[i]) != PT_FIT_CHECK;
	for (b = 0; b < NBOOT; b++) {
		struct pt_fit_set s = { c->n, c->p, (const double(*)[PT_LAT_N])h->f, yb, c->w };
		double lat[PT_LAT_N];

		for (i = 0; i < c->n; i++) {
			size_t m = c->nreps[i] < MAX_REPS ? c->nreps[i] : MAX_REPS;

			for (k = 0; k < m; k++)
				tmp[k] = c->reps[i][pt_rng_next(&seed) % m];
			yb[i] = m ? pt_calib_stat_of(c->stat, tmp, m) : c->y[i];
		}
		memcpy(lat, c->base, sizeof(lat));
		/* a resample the fit cannot solve keeps the base latencies: a wider range */
		pt_fit2(&s, all, lat);
		for (i = 0; i < c->n; i++) {
			double d64 = pt_walk_cost(h->f[i], lat);

			for (e = 0; e < PT_D128_AT_N; e++)
				ratio[i][e][b] = d64 > 0 ? pt_walk_cost(h->fc[i][e], lat) / d64 : 1;
		}
	}
	widen(c, ratio);
	r = 0;
out:
	free(yb);
	free(ratio);
	free(all);
	return r;
}

/*
 * Per round, the fitted D64 and D128 costs of every point (d64[r * n + i],
 * dc[e][r * n + i]; NAN for a round that could not be fitted).
 */
static void round_costs(const struct pt_walkcalib *c, const struct pt_walkcalib_hyp *h,
			const double (*latr)[PT_LAT_N], double *d64, double *dc[PT_D128_AT_N])
{
	size_t r, i, e;

	for (r = 0; r < c->nr; r++)
		for (i = 0; i < c->n; i++) {
			bool none = isnan(latr[r][0]);

			d64[r * c->n + i] = none ? NAN : pt_walk_cost(h->f[i], latr[r]);
			for (e = 0; e < PT_D128_AT_N; e++)
				dc[e][r * c->n + i] = none ? NAN
							   : pt_walk_cost(h->fc[i][e], latr[r]);
		}
}

/* c->stat over the drawn rounds where point i was measured of v[r * n + i]. */
static double drawn_stat(const struct pt_walkcalib *c, const size_t *draw, const double *v,
			 size_t i, double *tmp)
{
	size_t k, m = 0;

	for (k = 0; k < c->nr; k++) {
		size_t at = draw[k] * c->n + i;

		if (!isnan(c->yr[at]) && !isnan(v[at]))
			tmp[m++] = v[at];
	}
	return m ? pt_calib_stat_of(c->stat, tmp, m) : NAN;
}

/*
 * Rounds fitted one by one: resample the rounds NBOOT times, each point's
 * D128/D64 the ratio of its statistics over the drawn rounds; widen lo/hi to
 * the 5th and 95th percentiles. With latr the hypothesis' own fits, its
 * D128 costs' statistics go into h->d128 when that is set.
 */
static int bootstrap_rounds(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h,
			    const double (*latr)[PT_LAT_N])
{
	size_t nn = c->nr * c->n, i, b, k, e;
	double *d64 = malloc(nn * sizeof(*d64)), *dc[PT_D128_AT_N] = { NULL };
	double(*ratio)[PT_D128_AT_N][NBOOT] = calloc(c->n, sizeof(*ratio));
	double *tmp = malloc(c->nr * sizeof(*tmp));
	size_t *draw = malloc(c->nr * sizeof(*draw));
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int r = -1;

	for (e = 0; e < PT_D128_AT_N; e++)
		dc[e] = malloc(nn * sizeof(*dc[e]));
	if (!d64 || !ratio || !tmp || !draw || !dc[0] || !dc[1] || !dc[2])
		goto out;
	round_costs(c, h, latr, d64, dc);
	for (k = 0; k < c->nr; k++)
		draw[k] = k;
	for (i = 0; h->d128 && i < c->n; i++)
		for (e = 0; e < PT_D128_AT_N; e++)
			h->d128[i][e] = drawn_stat(c, draw, dc[e], i, tmp);
	for (b = 0; b < NBOOT; b++) {
		for (k = 0; k < c->nr; k++)
			draw[k] = pt_rng_next(&seed) % c->nr;
		for (i = 0; i < c->n; i++) {
			double m64 = drawn_stat(c, draw, d64, i, tmp);

			for (e = 0; e < PT_D128_AT_N; e++) {
				double m = drawn_stat(c, draw, dc[e], i, tmp);

				/* a draw without the point says nothing of it: the unit ratio widens the range */
				ratio[i][e][b] = m64 > 0 && !isnan(m) ? m / m64 : 1;
			}
		}
	}
	widen(c, ratio);
	r = 0;
out:
	free(d64);
	for (e = 0; e < PT_D128_AT_N; e++)
		free(dc[e]);
	free(ratio);
	free(tmp);
	free(draw);
	return r;
}

/*
 * h's ranges: over rounds when the run has them, else over the repetitions
 * behind each point's statistic (the one round), refitting each resample.
 */
static int spread(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h,
		  const double (*latr)[PT_LAT_N])
{
	if (c->nr > 1)
		return bootstrap_rounds(c, h, latr);
	if (h->d128) {
		size_t i, e;

		for (i = 0; i < c->n; i++)
			for (e = 0; e < PT_D128_AT_N; e++)
				h->d128[i][e] = pt_walk_cost(h->fc[i][e], latr[0]);
	}
	return bootstrap(c, h);
}

/*
 * One configuration whose D128 costs widen the ranges: a passing
 * hypothesis' own (own: its D64 features are h->f, its D128 ones go into
 * h->fc and its costs' statistics into h->d128), or one of its alternatives,
 * simulated here at D64 and D128 and fitted round by round.
 */
struct range_job {
	struct pt_walkcalib_hyp *h;
	struct pt_walk_cfg cfg;
	bool own;
	double (*f)[PT_LAT_N];
	double (*fc)[PT_D128_AT_N][PT_LAT_N];
	char err[512];
};

struct range_jobs {
	struct pt_walkcalib *c;
	struct range_job *j;
	size_t n;
	atomic_size_t done;
};

static int add_job(struct range_jobs *r, struct pt_walkcalib_hyp *h, const struct pt_walk_cfg *cfg,
		   bool own)
{
	struct range_job *j = &r->j[r->n++];

	j->h = h;
	j->cfg = *cfg;
	j->own = own;
	j->f = own ? h->f : calloc(r->c->n, sizeof(*j->f));
	j->fc = own ? h->fc : calloc(r->c->n, sizeof(*j->fc));
	return j->f && j->fc ? 0 : -1;
}

/* An alternative configuration of a passing hypothesis, and its held-out error. */
struct range_alt {
	struct pt_walkcalib_hyp *h;
	struct pt_walk_cfg cfg;
	double worse;
};

static int alt_cmp(const void *a, const void *b)
{
	const struct range_alt *x = a, *y = b;

	return x->worse < y->worse ? -1 : x->worse > y->worse;
}

/*
 * The alternatives of h: every other LLC size and replacement and TLB
 * size and replacement whose held-out error passes (the LLC judged at h's
 * final TLB sizes; the TLB sizes at the LLC of the TLB search): the
 * structure's own uncertainty. Appended to alt (room for them all).
 */
static size_t add_alts(struct pt_walkcalib_hyp *h, double bound, struct range_alt *alt)
{
	size_t k, n = 0;

	for (k = 0; k < h->nllc; k++) {
		struct range_alt *a = &alt[n];

		if (!h->llc_final[k] || !(h->llc_worse[k] <= bound) ||
		    (h->llc[k] == h->cfg.cache[2].size_bytes &&
		     h->llc_random[k] == h->cfg.cache[2].random))
			continue;
		a->h = h;
		a->cfg = h->cfg;
		a->worse = h->llc_worse[k];
		a->cfg.cache[2].size_bytes = h->llc[k];
		a->cfg.cache[2].ways = h->llc_ways[k];
		a->cfg.cache[2].random = h->llc_random[k];
		n++;
	}
	for (k = 0; k < h->ntlb; k++) {
		struct range_alt *a = &alt[n];
		const struct pt_walk_cfg *cfg = &h->cfg;

		if (!(h->tlb[k].worse <= bound) ||
		    (h->tlb[k].l1 == cfg->l1tlb_entries && h->tlb[k].l2 == cfg->l2tlb_entries &&
		     h->tlb[k].random == cfg->tlb_random &&
		     h->tlb[k].l1_random == cfg->l1tlb_random &&
		     h->tlb[k].evictions == cfg->l2tlb_evictions &&
		     h->tlb[k].nested == cfg->s2.tlb_entries))
			continue;
		a->h = h;
		a->cfg = *cfg;
		a->worse = h->tlb[k].worse;
		a->cfg.l1tlb_entries = h->tlb[k].l1;
		a->cfg.l1tlb_ways = h->tlb[k].l1_ways;
		a->cfg.l2tlb_entries = h->tlb[k].l2;
		a->cfg.l2tlb_ways = h->tlb[k].l2_ways;
		a->cfg.tlb_random = h->tlb[k].random;
		a->cfg.l1tlb_random = h->tlb[k].l1_random;
		a->cfg.l2tlb_evictions = h->tlb[k].evictions;
		a->cfg.s2.tlb_entries = h->tlb[k].nested;
		a->cfg.s2.tlb_ways = h->tlb[k].nested_ways;
		n++;
	}
	return n;
}

/*
 * Every passing hypothesis' own configuration, then as many of their
 * alternatives as PT_WALKCALIB_MAX_RANGE_CONFIGS leaves room for, the
 * lowest held-out error first. Records how many passed and how many were
 * simulated.
 */
static int add_jobs(struct range_jobs *r, double bound)
{
	struct pt_walkcalib *c = r->c;
	struct range_alt *alt;
	size_t k, nalt = 0, max = 0;

	for (k = 0; k < c->nh; k++)
		max += c->h[k].pass ? c->h[k].nllc + c->h[k].ntlb : 0;
	alt = calloc(max ? max : 1, sizeof(*alt));
	if (!alt)
		return -1;
	for (k = 0; k < c->nh; k++) {
		if (!c->h[k].pass)
			continue;
		if (add_job(r, &c->h[k], &c->h[k].cfg, true))
			goto fail;
		nalt += add_alts(&c->h[k], bound, alt + nalt);
	}
	c->range_passing = r->n + nalt;
	qsort(alt, nalt, sizeof(*alt), alt_cmp);
	for (k = 0; k < nalt && r->n < PT_WALKCALIB_MAX_RANGE_CONFIGS; k++)
		if (add_job(r, alt[k].h, &alt[k].cfg, false))
			goto fail;
	c->range_configs = r->n;
	free(alt);
	return 0;
fail:
	free(alt);
	return -1;
}

/* The simulations of one configuration: the part worth sharing among the CPUs. */
static int simulate_job(void *arg, size_t k)
{
	struct range_jobs *r = arg;
	struct range_job *j = &r->j[k];
	size_t i;

	for (i = 0; !j->own && i < r->c->n; i++)
		if (features(&r->c->p[i], &j->cfg, PT_D64, j->f[i], j->err, sizeof(j->err)))
			return -1;
	if (simulate_d128(r->c, &j->cfg, (const double(*)[PT_LAT_N])j->f, j->fc, j->err,
			  sizeof(j->err)))
		return -1;
	pt_walkcalib_progress(r->c, "D128 under %zu/%zu configurations",
			      atomic_fetch_add(&r->done, 1) + 1, r->n);
	return 0;
}

/* A simulated configuration's bootstrap widens the ranges. */
static int widen_job(struct pt_walkcalib *c, struct range_job *j)
{
	struct pt_walkcalib_hyp t;
	int r;

	if (j->own)
		return spread(c, j->h, (const double(*)[PT_LAT_N])j->h->latr);
	t = *j->h;
	t.cfg = j->cfg;
	t.d128 = NULL; /* only the hypothesis' own configuration gives the point values */
	t.f = j->f;
	t.fc = j->fc;
	t.latr = calloc(c->nr, sizeof(*t.latr));
	r = !t.latr || pt_walkcalib_fit_rounds(c, (const double(*)[PT_LAT_N])t.f, t.latr) ||
	    spread(c, &t, (const double(*)[PT_LAT_N])t.latr);
	free(t.latr);
	return r ? -1 : 0;
}

int pt_walkcalib_ranges(struct pt_walkcalib *c, char *err, size_t errlen)
{
	double bound = PT_WALKCALIB_PASS * c->h[c->best].worse;
	struct range_jobs r = { .c = c };
	size_t i, e, k, max = 0;
	int ret = -1;

	for (i = 0; i < c->n; i++)
		for (e = 0; e < PT_D128_AT_N; e++) {
			c->lo[i][e] = INFINITY;
			c->hi[i][e] = -INFINITY;
		}
	for (k = 0; k < c->nh; k++)
		max += c->h[k].pass ? 1 + c->h[k].nllc + c->h[k].ntlb : 0;
	r.j = calloc(max ? max : 1, sizeof(*r.j));
	atomic_init(&r.done, 0);
	snprintf(err, errlen, "out of memory");
	if (!r.j)
		return -1;
	if (add_jobs(&r, bound))
		goto out;
	if (pt_parallel_for(r.n, simulate_job, &r) < 0) {
		for (k = 0; k < r.n; k++)
			if (r.j[k].err[0])
				snprintf(err, errlen, "%s", r.j[k].err);
		goto out;
	}
	/* in order, after every simulation: the bootstraps are cheap and share lo/hi */
	for (k = 0; k < r.n; k++)
		if (widen_job(c, &r.j[k]))
			goto out;
	err[0] = '\0';
	ret = 0;
out:
	for (k = 0; k < r.n; k++)
		if (!r.j[k].own) {
			free(r.j[k].f);
			free(r.j[k].fc);
		}
	free(r.j);
	return ret;
}

/* reps: the point's smallest and largest repetition (measured rows), else NAN. */
static void row(FILE *f, const char *src, const struct pt_calib_point *p, double ns, double rel,
		double ratio, double lo, double hi, const char *hyp, const double reps[2])
{
	fprintf(f, "%s,%s,%s,%llu", src, p->cs, p->backing, (unsigned long long)p->ws);
	pt_csv_put_num(f, ns);
	pt_csv_put_num(f, rel);
	pt_csv_put_num(f, ratio);
	pt_csv_put_num(f, lo);
	pt_csv_put_num(f, hi);
	fprintf(f, ",%s", hyp);
	pt_csv_put_num(f, reps[0]);
	pt_csv_put_num(f, reps[1]);
	fputc('\n', f);
}

void pt_walkcalib_csv(FILE *f, const struct pt_walkcalib *c)
{
	const double none[2] = { NAN, NAN };
	const char *hyp = c->h[c->best].name;
	size_t i;
	unsigned e;

	fprintf(f, "source,case,backing,ws_bytes,ns_per_access,rel_error,d128_over_d64,"
		   "d128_over_d64_lo,d128_over_d64_hi,hypothesis,reps_min_ns,reps_max_ns\n");
	for (i = 0; i < c->n; i++) {
		double reps[2];

		if (!pt_walkcalib_reps_range(c, i, &reps[0], &reps[1]))
			reps[0] = reps[1] = NAN;
		row(f, "measured", &c->p[i], c->y[i], NAN, NAN, NAN, NAN, "", reps);
	}
	for (i = 0; i < c->n; i++) {
		double fit = pt_walkcalib_fitted(c, i);

		row(f, "fitted-d64", &c->p[i], fit, (fit - c->y[i]) / c->y[i], NAN, NAN, NAN, hyp,
		    none);
	}
	for (e = 0; e < PT_D128_AT_N; e++)
		for (i = 0; i < c->n; i++) {
			double fit = pt_walkcalib_fitted(c, i);
			double pred = pt_walkcalib_d128(c, i, e);

			row(f, at_source[e], &c->p[i], pred, NAN, fit > 0 ? pred / fit : NAN,
			    c->lo[i][e], c->hi[i][e], hyp, none);
		}
}
