// SPDX-License-Identifier: GPL-2.0-only
/* The pool gate's run factors (pool_factors.h). */
#include "analysis/pool_factors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/linalg.h"

/* A series the factors leave almost nothing of would outweigh all others. */
#define UNIQUE_MIN 0.05

/* Standardise the references complete over the pool; returns how many there are. */
static size_t standardise(struct pt_pool_factors *f, const double *dev, const bool *in_pool)
{
	size_t r, j, used = 0;

	for (j = 0; j < f->nref; j++) {
		double sum = 0, sq = 0, mean, sd;
		size_t k = 0;
		bool complete = true;

		for (r = 0; r < f->nrun; r++) {
			double x = dev[r * f->nref + j];

			if (!in_pool[r])
				continue;
			complete &= !isnan(x);
			sum += x;
			sq += x * x;
			k++;
		}
		mean = k ? sum / (double)k : 0;
		sd = k > 1 ? sqrt(fmax(0, (sq - sum * mean) / (double)(k - 1))) : 0;
		f->w[j] = complete && k > 2 && sd > 1e-9 ? 1 : 0;
		for (r = 0; r < f->nrun; r++)
			f->z[r * f->nref + j] = f->w[j] ? (dev[r * f->nref + j] - mean) / sd : NAN;
		used += f->w[j] > 0;
	}
	return used;
}

/* The correlation matrix of the used references over the pool runs (m x m, idx[] their indices). */
static void correlation(const struct pt_pool_factors *f, const bool *in_pool, const size_t *idx,
			size_t m, double *c)
{
	size_t a, b, r, k = 0;

	for (r = 0; r < f->nrun; r++)
		k += in_pool[r];
	for (a = 0; a < m; a++)
		for (b = a; b < m; b++) {
			double s = 0;

			for (r = 0; r < f->nrun; r++)
				if (in_pool[r])
					s += f->z[r * f->nref + idx[a]] *
					     f->z[r * f->nref + idx[b]];
			c[a * m + b] = c[b * m + a] = s / (double)(k - 1);
		}
}

static size_t choose_k(const double *val, size_t m, size_t pool_runs, int kreq)
{
	size_t cap = pool_runs > 2 ? (pool_runs - 2) / PT_POOL_FACTORS_RUNS_EACH : 0, k = 0;

	if (kreq >= 0) {
		k = (size_t)kreq;
	} else {
		while (k < m && val[k] > 1)
			k++;
		k = k < cap ? k : cap ? cap : 1; /* Kaiser's count, at most the pool's cap (>= 1) */
	}
	if (k > PT_POOL_FACTORS_MAX)
		k = PT_POOL_FACTORS_MAX;
	/* each factor costs the regression a degree of freedom, and needs series to show it */
	while (k && (k + 3 > pool_runs || k >= m))
		k--;
	return k;
}

int pt_pool_factors_fit(struct pt_pool_factors *f, const double *dev, size_t nrun, size_t nref,
			const bool *in_pool, const char *const *group, int kreq)
{
	size_t *idx = NULL, m, a, r, pool_runs = 0, fct;
	double *c = NULL, *val = NULL, *vec = NULL;
	int rc = -1;

	memset(f, 0, sizeof(*f));
	f->nrun = nrun;
	f->nref = nref;
	f->group = group;
	f->z = malloc((nrun * nref + 1) * sizeof(*f->z));
	f->load = calloc(nref * PT_POOL_FACTORS_MAX + 1, sizeof(*f->load));
	f->w = calloc(nref + 1, sizeof(*f->w));
	idx = malloc((nref + 1) * sizeof(*idx));
	if (!f->z || !f->load || !f->w || !idx)
		goto out;
	for (r = 0; r < nrun; r++)
		pool_runs += in_pool[r];
	f->nused = standardise(f, dev, in_pool);
	for (a = 0, m = 0; a < nref; a++)
		if (f->w[a] > 0)
			idx[m++] = a;
	if (m < PT_POOL_FACTORS_MIN_REFS || pool_runs < 4) {
		rc = 0; /* nothing to find factors in */
		goto out;
	}
	c = malloc(m * m * sizeof(*c));
	val = malloc(m * sizeof(*val));
	vec = malloc(m * m * sizeof(*vec));
	if (!c || !val || !vec)
		goto out;
	correlation(f, in_pool, idx, m, c);
	if (pt_sym_eigen(c, m, val, vec))
		goto out;
	f->k = choose_k(val, m, pool_runs, kreq);
	for (fct = 0; fct < f->k; fct++) {
		double sum = 0, sign;

		f->eig[fct] = val[fct];
		/* a factor's sign is arbitrary; make a run slower on most series score higher */
		for (a = 0; a < m; a++)
			sum += vec[fct * m + a];
		sign = sum < 0 ? -1 : 1;
		for (a = 0; a < m; a++)
			f->load[idx[a] * PT_POOL_FACTORS_MAX + fct] =
				sign * vec[fct * m + a] * sqrt(fmax(0, val[fct]));
	}
	for (a = 0; a < m; a++) {
		double h = 0;

		for (fct = 0; fct < f->k; fct++)
			h += f->load[idx[a] * PT_POOL_FACTORS_MAX + fct] *
			     f->load[idx[a] * PT_POOL_FACTORS_MAX + fct];
		f->w[idx[a]] = 1 / fmax(UNIQUE_MIN, 1 - h);
	}
	rc = 0;
out:
	free(idx);
	free(c);
	free(val);
	free(vec);
	if (rc)
		pt_pool_factors_free(f);
	return rc;
}

/* Weighted least squares over the references left in: not skip_ref, not of skip_group. */
static bool fit_scores(const struct pt_pool_factors *f, size_t run, const char *skip_group,
		       size_t skip_ref, double *out)
{
	double a[PT_POOL_FACTORS_MAX * PT_POOL_FACTORS_MAX] = { 0 }, b[PT_POOL_FACTORS_MAX] = { 0 };
	size_t j, p, q, k = f->k, n = 0;

	for (j = 0; j < f->nref; j++) {
		const double *l = &f->load[j * PT_POOL_FACTORS_MAX];
		double z = f->z[run * f->nref + j];

		if (!(f->w[j] > 0) || isnan(z) || j == skip_ref ||
		    (skip_group && !strcmp(f->group[j], skip_group)))
			continue;
		for (p = 0; p < k; p++) {
			for (q = 0; q < k; q++)
				a[p * k + q] += f->w[j] * l[p] * l[q];
			b[p] += f->w[j] * l[p] * z;
		}
		n++;
	}
	if (n < PT_POOL_FACTORS_MIN_REFS || n < k || pt_solve(a, b, k))
		return false;
	memcpy(out, b, k * sizeof(*out));
	return true;
}

/* References outside group, with a value in every pool run. */
static size_t outside(const struct pt_pool_factors *f, const char *group)
{
	size_t j, n = 0;

	for (j = 0; j < f->nref; j++)
		n += f->w[j] > 0 && strcmp(f->group[j], group);
	return n;
}

bool pt_pool_factors_scores(const struct pt_pool_factors *f, size_t run, const char *skip_group,
			    size_t skip_ref, double *out, bool *own_group)
{
	*own_group = false;
	if (!f->k || run >= f->nrun)
		return false;
	if (skip_group && outside(f, skip_group) >= PT_POOL_FACTORS_MIN_REFS)
		return fit_scores(f, run, skip_group, (size_t)-1, out);
	*own_group = true;
	return fit_scores(f, run, NULL, skip_ref, out);
}

void pt_pool_factors_free(struct pt_pool_factors *f)
{
	free(f->z);
	free(f->load);
	free(f->w);
	memset(f, 0, sizeof(*f));
}
