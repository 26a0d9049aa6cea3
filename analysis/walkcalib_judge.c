// SPDX-License-Identifier: GPL-2.0-only
/*
 * Judging a hypothesis round by round (walkcalib.h). The host a guest runs
 * on changes within a run: in one run here the dense control at 512M took
 * 18 ns in one round and 141 ns in another, and the 4K chases moved with
 * it. One set of latencies fitted to the medians describes none of those
 * states; fitted per round, each round's latencies describe the state its
 * points were measured in, and a point's prediction is the statistic
 * (c->stat: median or geometric mean) of its rounds' predictions, set
 * against the same statistic of its measurements.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/walkcalib.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"
#include "util/stats.h"

static struct pt_fit_set round_set(const struct pt_walkcalib *c, const double (*f)[PT_LAT_N],
				   size_t r)
{
	struct pt_fit_set s = { c->n, c->p, f, c->yr + r * c->n, c->wr + r * c->n };

	return s;
}

double pt_walkcalib_round_stat(const struct pt_walkcalib *c, const double *v, size_t i)
{
	double *tmp = malloc(c->nr * sizeof(*tmp)), m = NAN;
	size_t r, k = 0;

	if (!tmp)
		return NAN;
	for (r = 0; r < c->nr; r++)
		if (!isnan(c->yr[r * c->n + i]) && !isnan(v[r * c->n + i]))
			tmp[k++] = v[r * c->n + i];
	if (k)
		m = pt_calib_stat_of(c->stat, tmp, k);
	free(tmp);
	return m;
}

/* Round r's points that were measured and are fitted (the check points never are). */
static void round_use(const struct pt_walkcalib *c, size_t r, bool *have, bool *fit)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		have[i] = !isnan(c->yr[r * c->n + i]);
		fit[i] = have[i] && pt_fit_role_of(&c->p[i]) != PT_FIT_CHECK;
	}
}

int pt_walkcalib_fit_rounds(const struct pt_walkcalib *c, const double (*f)[PT_LAT_N],
			    double (*latr)[PT_LAT_N])
{
	bool *have = malloc(c->n * sizeof(*have)), *fit = malloc(c->n * sizeof(*fit));
	size_t r;

	if (!have || !fit) {
		free(have);
		free(fit);
		return -1;
	}
	for (r = 0; r < c->nr; r++) {
		struct pt_fit_set s = round_set(c, f, r);

		round_use(c, r, have, fit);
		memcpy(latr[r], c->base, sizeof(latr[r]));
		if (pt_fit2(&s, fit, latr[r]))
			latr[r][0] = NAN;
	}
	free(have);
	free(fit);
	return 0;
}

/* Each term of h->lat: its median over the rounds that could be fitted. */
static void median_lat(const struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double *tmp)
{
	unsigned j;
	size_t r, k;

	for (j = 0; j < PT_LAT_N; j++) {
		for (r = k = 0; r < c->nr; r++)
			if (!isnan(h->latr[r][0]))
				tmp[k++] = h->latr[r][j];
		if (!k)
			continue;
		pt_sort_doubles(tmp, k);
		h->lat[j] = k % 2 ? tmp[k / 2] : (tmp[k / 2 - 1] + tmp[k / 2]) / 2;
	}
}

double pt_walkcalib_worse(double huge, double lowo)
{
	if (isnan(huge))
		return lowo;
	if (isnan(lowo))
		return huge;
	return fmax(huge, lowo);
}

int pt_walkcalib_judge(const struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, char *err,
		       size_t errlen)
{
	size_t n = c->n, nr = c->nr, i, r, fitted = 0;
	double *pf = malloc(nr * n * sizeof(*pf)), *ph = malloc(nr * n * sizeof(*ph));
	double *pw = malloc(nr * n * sizeof(*pw)), *med = calloc(n, sizeof(*med));
	double *tmp = malloc((nr > n ? nr : n) * sizeof(*tmp));
	bool *have = malloc(n * sizeof(*have)), *fit = malloc(n * sizeof(*fit));
	const double(*f)[PT_LAT_N] = (const double(*)[PT_LAT_N])h->f;
	int ret = -1;

	if (!pf || !ph || !pw || !med || !tmp || !have || !fit) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (pt_walkcalib_fit_rounds(c, f, h->latr)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (r = 0; r < nr; r++) {
		struct pt_fit_set s = round_set(c, f, r);

		round_use(c, r, have, fit);
		for (i = 0; i < n; i++)
			pf[r * n + i] = isnan(h->latr[r][0]) ? NAN : pt_walk_cost(f[i], h->latr[r]);
		fitted += !isnan(h->latr[r][0]);
		if (pt_fit_predict_huge(&s, have, c->base, ph + r * n))
			for (i = 0; i < n; i++)
				ph[r * n + i] = NAN;
		if (pt_fit_predict_ws(&s, have, c->base, pw + r * n)) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	if (!fitted) {
		snprintf(err, errlen, "%s: the fit found no solution", h->name);
		goto out;
	}
	for (i = 0; i < n; i++)
		h->fitted[i] = pt_walkcalib_round_stat(c, pf, i);
	for (i = 0; i < n; i++)
		med[i] = pt_fit_role_of(&c->p[i]) == PT_FIT_CHECK ? NAN : h->fitted[i];
	h->fit = pt_fit_rms_pred(c->y, med, c->n);
	for (i = 0; i < n; i++)
		med[i] = pt_walkcalib_round_stat(c, ph, i);
	h->huge = pt_fit_rms_pred(c->y, med, c->n);
	if (h->pred_huge)
		memcpy(h->pred_huge, med, n * sizeof(*med));
	for (i = 0; i < n; i++)
		med[i] = pt_walkcalib_round_stat(c, pw, i);
	h->lowo = pt_fit_rms_pred(c->y, med, c->n);
	if (h->pred_ws)
		memcpy(h->pred_ws, med, n * sizeof(*med));
	h->worse = pt_walkcalib_worse(h->huge, h->lowo);
	if (isnan(h->worse))
		h->worse = h->fit;
	median_lat(c, h, tmp);
	ret = 0;
out:
	free(pf);
	free(ph);
	free(pw);
	free(med);
	free(tmp);
	free(have);
	free(fit);
	return ret;
}
