// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void pt_sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double pt_quantile_sorted(const double *sorted, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (!n)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double pt_trimmed_mean_cut(const double *sorted, size_t n, struct pt_trim t)
{
	size_t lo, hi, i;
	double sum = 0;

	if (!n)
		return NAN;
	/* 0.1 * 10 is 1, not 0.999... */
	lo = t.lo > 0 ? (size_t)(t.lo * (double)n + 1e-9) : 0;
	hi = t.hi > 0 ? (size_t)(t.hi * (double)n + 1e-9) : 0;
	if (lo + hi >= n)
		return pt_quantile_sorted(sorted, n, t.lo + t.hi > 0 ? t.lo / (t.lo + t.hi) : 0.5);
	for (i = lo; i < n - hi; i++)
		sum += sorted[i];
	return sum / (double)(n - lo - hi);
}

void pt_trim_str(struct pt_trim t, char *buf, size_t len)
{
	if (t.lo == t.hi)
		snprintf(buf, len, "%g", t.lo);
	else
		snprintf(buf, len, "%g,%g", t.lo, t.hi);
}

/* P(X <= m) for X ~ Binomial(n, 1/2). */
static double binom_half_cdf(size_t n, size_t m)
{
	double sum = 0, ln2n = (double)n * log(2.0);
	size_t i;

	for (i = 0; i <= m && i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) - ln2n);
	return sum;
}

/*
 * Distribution-free interval [x(l), x(n+1-l)] (1-based order statistics)
 * with the largest l whose coverage 1 - 2 P(X <= l-1) is at least 95%.
 */
static void median_ci(const double *sorted, size_t n, struct pt_summary *s)
{
	size_t l = 0;

	while (l + 1 <= n / 2 && 2 * binom_half_cdf(n, l) <= 0.05)
		l++;
	if (!l) {
		s->ci_lo = sorted[0];
		s->ci_hi = sorted[n - 1];
		s->ci_valid = false;
		return;
	}
	s->ci_lo = sorted[l - 1];
	s->ci_hi = sorted[n - l];
	s->ci_valid = true;
}

int pt_summarize(const double *v, size_t n, struct pt_summary *s)
{
	double *sorted, sum = 0, sq = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -1;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, v, n * sizeof(*sorted));
	pt_sort_doubles(sorted, n);
	for (i = 0; i < n; i++)
		sum += v[i];
	s->n = n;
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	s->cv = s->mean != 0 ? s->stddev / fabs(s->mean) : 0;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = pt_quantile_sorted(sorted, n, 0.5);
	s->p90 = pt_quantile_sorted(sorted, n, 0.9);
	s->p99 = pt_quantile_sorted(sorted, n, 0.99);
	median_ci(sorted, n, s);
	free(sorted);
	return 0;
}

struct ranked {
	double v;
	int side;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/* Rank sum of side 0 with average ranks for ties; tie term sum(t^3 - t). */
static double rank_sum(struct ranked *r, size_t n, double *tie_term)
{
	double sum = 0;
	size_t i = 0, j, k;

	*tie_term = 0;
	qsort(r, n, sizeof(*r), cmp_ranked);
	while (i < n) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		for (k = i; k < j; k++)
			if (!r[k].side)
				sum += (double)(i + j + 1) / 2.0;
		*tie_term += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
		i = j;
	}
	return sum;
}

#define EXACT_MAX_N 60

/* Exact two-sided p for U of side a (no ties), by counting arrangements. */
static double exact_p(size_t na, size_t nb, double u)
{
	size_t umax = na * nb, i, a, x, n = na + nb;
	double *dp, *next, total = 0, le = 0, ge = 0, p;

	dp = calloc((na + 1) * (umax + 1), sizeof(*dp));
	next = calloc((na + 1) * (umax + 1), sizeof(*next));
	if (!dp || !next) {
		free(dp);
		free(next);
		return -1;
	}
	dp[0] = 1;
	for (i = 0; i < n; i++) {
		memset(next, 0, (na + 1) * (umax + 1) * sizeof(*next));
		for (a = 0; a <= na && a <= i; a++) {
			size_t b = i - a;

			if (b > nb)
				continue;
			for (x = 0; x <= umax; x++) {
				double w = dp[a * (umax + 1) + x];

				if (!w)
					continue;
				if (b < nb)
					next[a * (umax + 1) + x] += w;
				if (a < na && x + b <= umax)
					next[(a + 1) * (umax + 1) + x + b] += w;
			}
		}
		memcpy(dp, next, (na + 1) * (umax + 1) * sizeof(*dp));
	}
	for (x = 0; x <= umax; x++) {
		double w = dp[na * (umax + 1) + x];

		total += w;
		if ((double)x <= u + 1e-9)
			le += w;
		if ((double)x >= u - 1e-9)
			ge += w;
	}
	free(dp);
	free(next);
	p = 2 * fmin(le, ge) / total;
	return p > 1 ? 1 : p;
}

double pt_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, i;
	struct ranked *r;
	double r1, ties, u, mu, sigma2, z;

	if (!na || !nb)
		return -1;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -1;
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	r1 = rank_sum(r, n, &ties);
	free(r);
	u = r1 - (double)na * (double)(na + 1) / 2.0;
	if (ties == 0 && n <= EXACT_MAX_N)
		return exact_p(na, nb, u);
	mu = (double)na * (double)nb / 2.0;
	sigma2 = (double)na * (double)nb / 12.0 *
		 ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (sigma2 <= 0)
		return 1; /* every value tied: no evidence of a shift */
	z = (fabs(u - mu) - 0.5) / sqrt(sigma2);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2.0));
}

double pt_mann_whitney_min_p(size_t na, size_t nb)
{
	double lc;

	if (!na || !nb)
		return 1;
	/* 2 / C(na + nb, na): all of one side below all of the other. */
	lc = lgamma((double)(na + nb) + 1) - lgamma((double)na + 1) - lgamma((double)nb + 1);
	return fmin(1.0, 2.0 * exp(-lc));
}
