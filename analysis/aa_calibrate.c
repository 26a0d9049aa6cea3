// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aa_calibrate.h"

const double pt_aa_shifts_pct[PT_AA_NSHIFTS] = { 1,  2,	 3,  4,	 5,  6,	 7,  8, 9,
						 10, 12, 15, 20, 25, 30, 40, 50 };

int pt_aa_init(struct pt_aa *k, int npairs, const struct pt_cmp_opts *opts,
	       const struct pt_floor_opts *floor)
{
	memset(k, 0, sizeof(*k));
	k->opts = opts;
	k->floor = *floor;
	k->npairs = npairs;
	k->pairs = calloc(npairs > 0 ? (size_t)npairs : 1, sizeof(*k->pairs));
	return k->pairs ? 0 : -1;
}

void pt_aa_free(struct pt_aa *k)
{
	size_t i;
	int p;

	for (p = 0; k->pairs && p < k->npairs; p++) {
		if (k->pairs[p].compared)
			pt_cmp_result_free(&k->pairs[p].res);
		if (k->pairs[p].loaded) {
			pt_rundir_free(&k->pairs[p].a);
			pt_rundir_free(&k->pairs[p].b);
		}
	}
	free(k->pairs);
	for (i = 0; i < k->ndet; i++) {
		free(k->det[i].median);
		free(k->det[i].hits_aa);
	}
	free(k->det);
	memset(k, 0, sizeof(*k));
}

int pt_aa_load(struct pt_aa *k, int p, char *err, size_t errlen)
{
	struct pt_aa_pair *pr = &k->pairs[p];

	if (pt_rundir_read(pr->run[0].dir, &pr->a, err, errlen))
		return -1;
	if (pt_rundir_read(pr->run[1].dir, &pr->b, err, errlen)) {
		pt_rundir_free(&pr->a);
		return -1;
	}
	pr->loaded = true;
	return 0;
}

int pt_aa_nruns(const struct pt_aa *k)
{
	return 2 * k->npairs;
}

int pt_aa_floor_runs(const struct pt_aa *k)
{
	return pt_aa_nruns(k) < PT_AA_FLOOR_MAX_RUNS ? pt_aa_nruns(k) : PT_AA_FLOOR_MAX_RUNS;
}

/* ---- the gate on each pair ---- */

static int compare_pairs(struct pt_aa *k)
{
	int p;

	for (p = 0; p < k->npairs; p++) {
		struct pt_aa_pair *pr = &k->pairs[p];
		size_t significant;

		if (pt_compare(pr->a.series, pr->a.nseries, pr->b.series, pr->b.nseries, k->opts,
			       &pr->res))
			return -1;
		pr->compared = true;
		significant = pr->res.regressions + pr->res.improvements + pr->res.changed;
		k->fired += pr->res.regressions > 0;
		k->any_significant += significant > 0;
		k->tested_total += pr->res.tested;
		k->significant_total += significant;
		k->too_few_total += pr->res.too_few;
		k->blind_pairs += pr->res.gate_blind;
	}
	return 0;
}

/* ---- detection: shifts injected into one side ---- */

static struct pt_aa_series *detect_find(struct pt_aa *k, const struct pt_series *s)
{
	size_t i;

	for (i = 0; i < k->ndet; i++)
		if (!pt_series_key_cmp(k->det[i].key, s))
			return &k->det[i];
	return NULL;
}

/* Scale one row's new samples by each shift and ask the gate again. */
static void detect_row(const struct pt_cmp_result *r, size_t i, struct pt_aa_series *d, double *buf)
{
	const struct pt_series *c = r->rows[i].cand;
	size_t s, j;

	d->pairs_tested++;
	for (s = 0; s < PT_AA_NSHIFTS; s++) {
		double f = c->better == PT_LOWER ? 1 + pt_aa_shifts_pct[s] / 100
						 : 1 - pt_aa_shifts_pct[s] / 100;

		for (j = 0; j < c->n; j++)
			buf[j] = c->values[j] * f;
		if (pt_cmp_rejudge(r, i, buf, c->n) == PT_V_WORSE)
			d->hits[s]++;
	}
}

static struct pt_aa_series *detect_new(struct pt_aa *k, const struct pt_cmp_row *w)
{
	struct pt_aa_series *d = &k->det[k->ndet];
	int p;

	d->key = w->key;
	d->base_threshold = w->threshold_pct;
	d->median = malloc((size_t)pt_aa_nruns(k) * sizeof(*d->median));
	if (!d->median)
		return NULL;
	for (p = 0; p < pt_aa_nruns(k); p++)
		d->median[p] = NAN;
	k->ndet++;
	return d;
}

static int detect_key_cmp(const void *a, const void *b)
{
	return pt_series_key_cmp(((const struct pt_aa_series *)a)->key,
				 ((const struct pt_aa_series *)b)->key);
}

static double smallest_detected(const struct pt_aa *k, const struct pt_aa_series *d)
{
	size_t s;

	for (s = 0; s < PT_AA_NSHIFTS; s++)
		if ((double)d->hits[s] >= PT_AA_DETECT_RATE * (double)k->npairs)
			return pt_aa_shifts_pct[s];
	return NAN;
}

static int detect_pair(struct pt_aa *k, int p, double *buf)
{
	const struct pt_cmp_result *r = &k->pairs[p].res;
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct pt_cmp_row *w = &r->rows[i];
		struct pt_aa_series *d;

		if (!w->tested || w->key->better == PT_NEITHER)
			continue;
		d = detect_find(k, w->key);
		if (!d)
			d = detect_new(k, w);
		if (!d)
			return -1;
		d->median[2 * p] = w->sb.median;
		d->median[2 * p + 1] = w->sn.median;
		detect_row(r, i, d, buf);
	}
	return 0;
}

static int detect_all(struct pt_aa *k)
{
	size_t i, maxn = 1, cap = 0;
	double *buf;
	int p, ret = 0;

	for (p = 0; p < k->npairs; p++)
		for (i = 0; i < k->pairs[p].res.n; i++) {
			cap++;
			if (k->pairs[p].res.rows[i].cand && k->pairs[p].res.rows[i].cand->n > maxn)
				maxn = k->pairs[p].res.rows[i].cand->n;
		}
	k->det = calloc(cap ? cap : 1, sizeof(*k->det));
	buf = malloc(maxn * sizeof(*buf));
	if (!k->det || !buf) {
		free(buf);
		return -1;
	}
	for (p = 0; p < k->npairs && !ret; p++)
		ret = detect_pair(k, p, buf);
	free(buf);
	if (ret)
		return ret;
	qsort(k->det, k->ndet, sizeof(*k->det), detect_key_cmp);
	for (i = 0; i < k->ndet; i++)
		k->det[i].smallest_pct = smallest_detected(k, &k->det[i]);
	return 0;
}

/* ---- the false-positive bound ---- */

/* P(X <= x) for X ~ Binomial(n, p). */
static double binom_cdf(size_t x, size_t n, double p)
{
	double sum = 0;
	size_t i;

	if (p <= 0)
		return 1;
	if (p >= 1)
		return x >= n ? 1 : 0;
	for (i = 0; i <= x && i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) + (double)i * log(p) +
			   (double)(n - i) * log1p(-p));
	return sum;
}

double pt_aa_rate_upper95(size_t x, size_t n)
{
	double lo = (double)x / (double)n, hi = 1;
	int it;

	if (x >= n)
		return 1;
	/* bisection: 60 halvings are below a double's resolution on [0, 1] */
	for (it = 0; it < 60; it++) {
		double mid = (lo + hi) / 2;

		if (binom_cdf(x, n, mid) > 0.025)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

int pt_aa_analyse(struct pt_aa *k)
{
	if (compare_pairs(k) || detect_all(k) || pt_aa_floor_learn(k))
		return -1;
	return 0;
}

/* ---- summaries ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double smallest_pct(const struct pt_aa *k, const struct pt_aa_series *d)
{
	(void)k;
	return d->smallest_pct;
}

static void summarize(const struct pt_aa *k, struct pt_aa_summary *s,
		      double (*pct)(const struct pt_aa *, const struct pt_aa_series *))
{
	double *v = malloc((k->ndet ? k->ndet : 1) * sizeof(*v));
	size_t i, n = 0;

	memset(s, 0, sizeof(*s));
	s->median_pct = s->max_pct = s->min_pct = NAN;
	if (!v)
		return;
	for (i = 0; i < k->ndet; i++) {
		double x = pct(k, &k->det[i]);

		if (isnan(x))
			s->undetectable++;
		else
			v[n++] = x;
	}
	s->detectable = n;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		s->min_pct = v[0];
		s->max_pct = v[n - 1];
		s->median_pct = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
}

void pt_aa_summarize(const struct pt_aa *k, struct pt_aa_summary *s)
{
	summarize(k, s, smallest_pct);
}

void pt_aa_floor_summarize(const struct pt_aa *k, struct pt_aa_summary *s)
{
	summarize(k, s, pt_aa_floor_detect_pct);
}
