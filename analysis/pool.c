// SPDX-License-Identifier: GPL-2.0-only
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pool.h"
#include "util/stats.h"
#include "util/student_t.h"

static int point_cmp(const void *pa, const void *pb)
{
	const struct pt_pool_point *a = pa, *b = pb;
	struct pt_series x = { .workload = (char *)a->workload,
			       .cs = (char *)a->cs,
			       .params = (char *)a->params,
			       .metric = (char *)a->metric };
	struct pt_series y = { .workload = (char *)b->workload,
			       .cs = (char *)b->cs,
			       .params = (char *)b->params,
			       .metric = (char *)b->metric };

	/* the one key order of the comparison (analysis/rundir.c) */
	return pt_series_key_cmp(&x, &y);
}

static bool filtered_out(const struct pt_pool_opts *o, const struct pt_pool_point *p)
{
	char name[768];

	if (!o->filter)
		return false;
	snprintf(name, sizeof(name), "%s/%s/%s", p->workload, p->cs, p->metric);
	return fnmatch(o->filter, name, 0) != 0;
}

/* Gating as in compare: primary metrics and gate=on; gate=off shows only. */
static void row_gate(struct pt_pool_row *w, const struct pt_pool_opts *o, bool *off_by_config)
{
	const struct pt_pool_point *p = w->key;
	char name[768];
	bool on = true;

	w->alpha = o->alpha;
	w->threshold_pct = o->threshold_pct;
	w->gated = !o->is_primary || o->is_primary(o->primary_ctx, p->workload, p->cs, p->metric);
	snprintf(name, sizeof(name), "%s/%s/%s", p->workload, p->cs, p->metric);
	pt_cmp_config_lookup(o->config, name, &w->alpha, &w->threshold_pct, &w->gated);
	pt_cmp_config_lookup(o->config, name, &w->alpha, &w->threshold_pct, &on);
	*off_by_config = !on;
}

/* Means and spread of ln(median) on each side; false when a median is not > 0. */
static bool row_moments(struct pt_pool_row *w, const struct pt_pool_point *g, size_t len)
{
	double sp = 0, sq = 0, sn = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		double y;

		if (!(g[i].median > 0))
			return false;
		y = log(g[i].median);
		if (g[i].is_new) {
			sn += y;
			w->n++;
		} else {
			sp += y;
			sq += y * y;
			w->k++;
		}
	}
	w->pool_mean = w->k ? sp / (double)w->k : NAN;
	w->new_mean = w->n ? sn / (double)w->n : NAN;
	/* the sum of squares around the mean, two-pass free but clamped */
	w->pool_sd = w->k > 1 ? sqrt(fmax(0, (sq - sp * sp / (double)w->k) / (double)(w->k - 1)))
			      : NAN;
	if (w->pool_sd < 1e-12 * fmax(1, fabs(w->pool_mean)))
		w->pool_sd = 0; /* a deterministic metric: round-off is not spread */
	return true;
}

static void row_test(struct pt_pool_row *w, const struct pt_pool_opts *o)
{
	double se, d = w->new_mean - w->pool_mean;

	w->change_pct = (exp(d) - 1) * 100;
	if (w->pool_sd == 0) {
		/* every pool run gave the same value: any difference is real */
		w->t = d == 0 ? 0 : copysign(INFINITY, d);
		w->p = d == 0 ? 1 : 0;
	} else {
		se = w->pool_sd * sqrt(1.0 / (double)w->n + 1.0 / (double)w->k);
		w->t = d / se;
		w->p = pt_t_sf(fabs(w->t), (double)(w->k - 1));
		if (w->key->better == PT_NEITHER)
			w->p = fmin(1, 2 * w->p);
	}
	w->tested = true;
	(void)o;
}

static void row_fill(struct pt_pool_row *w, const struct pt_pool_point *g, size_t len,
		     const struct pt_pool_opts *o)
{
	bool off_by_config;

	w->key = &g[0];
	w->t = w->p = w->p_adj = w->detectable_pct = w->change_pct = NAN;
	row_gate(w, o, &off_by_config);
	if (!row_moments(w, g, len)) {
		w->verdict = PT_V_TOO_FEW; /* a median <= 0 has no log: not testable here */
		return;
	}
	if (!w->n) {
		w->verdict = PT_V_BASE_ONLY;
		return;
	}
	if (!w->k) {
		w->verdict = PT_V_NEW_ONLY;
		return;
	}
	w->change_pct = (exp(w->new_mean - w->pool_mean) - 1) * 100;
	if (!w->gated) {
		w->verdict = off_by_config ? PT_V_UNGATED : PT_V_INFO;
		return;
	}
	if (w->k < o->min_pool || w->k < 2) {
		w->verdict = PT_V_TOO_FEW;
		return;
	}
	row_test(w, o);
}

/* The change in the worse direction a test at level a would just detect. */
static double detectable(const struct pt_pool_row *w, double a)
{
	double se, d;

	if (w->pool_sd == 0)
		return 0;
	if (w->key->better == PT_NEITHER)
		a /= 2;
	se = w->pool_sd * sqrt(1.0 / (double)w->n + 1.0 / (double)w->k);
	d = pt_t_isf(a, (double)(w->k - 1)) * se;
	return (w->key->better == PT_HIGHER ? 1 - exp(-d) : exp(d) - 1) * 100;
}

static int correct(struct pt_pool_result *r)
{
	double *p = malloc((r->n ? r->n : 1) * sizeof(*p));
	double *adj = malloc((r->n ? r->n : 1) * sizeof(*adj));
	double *det = malloc((r->n ? r->n : 1) * sizeof(*det));
	size_t i, k = 0;

	if (!p || !adj || !det) {
		free(p);
		free(adj);
		free(det);
		return -1;
	}
	for (i = 0; i < r->n; i++)
		if (r->rows[i].tested)
			p[k++] = r->rows[i].p;
	r->tested = k;
	pt_p_adjust(p, k, PT_CORR_HOLM, adj);
	for (i = 0, k = 0; i < r->n; i++) {
		struct pt_pool_row *w = &r->rows[i];

		if (!w->tested)
			continue;
		w->p_adj = adj[k];
		w->verdict = pt_cmp_verdict(w->p_adj, w->alpha, w->change_pct, w->threshold_pct,
					    w->key->better);
		/* Holm's first step is Bonferroni: what any one row can count on */
		w->detectable_pct =
			fmax(detectable(w, w->alpha / (double)r->tested), w->threshold_pct);
		det[k++] = w->detectable_pct;
	}
	pt_sort_doubles(det, k);
	r->median_detectable_pct = k ? pt_quantile_sorted(det, k, 0.5) : NAN;
	free(p);
	free(adj);
	free(det);
	return 0;
}

static void count(struct pt_pool_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct pt_pool_row *w = &r->rows[i];

		r->gated_both += w->gated && w->k && w->n;
		r->regressions += w->verdict == PT_V_WORSE;
		r->improvements += w->verdict == PT_V_BETTER;
		r->changed += w->verdict == PT_V_CHANGED;
		r->too_few += w->verdict == PT_V_TOO_FEW;
		r->info += w->verdict == PT_V_INFO;
		r->ungated += w->verdict == PT_V_UNGATED;
	}
}

int pt_pool_compare(struct pt_pool_point *pts, size_t npts, size_t pool_runs, size_t new_runs,
		    const struct pt_pool_opts *o, struct pt_pool_result *r)
{
	size_t i = 0;

	memset(r, 0, sizeof(*r));
	r->pool_runs = pool_runs;
	r->new_runs = new_runs;
	r->median_detectable_pct = NAN;
	r->rows = calloc(npts + 1, sizeof(*r->rows));
	if (!r->rows)
		return -1;
	qsort(pts, npts, sizeof(*pts), point_cmp);
	while (i < npts) {
		size_t j = i + 1;

		while (j < npts && !point_cmp(&pts[i], &pts[j]))
			j++;
		if (!filtered_out(o, &pts[i]))
			row_fill(&r->rows[r->n++], &pts[i], j - i, o);
		i = j;
	}
	if (correct(r)) {
		pt_pool_result_free(r);
		return -1;
	}
	count(r);
	return 0;
}

void pt_pool_result_free(struct pt_pool_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->n = 0;
}
