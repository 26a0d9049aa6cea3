// SPDX-License-Identifier: GPL-2.0-only
/*
 * The noise floor of ptbench calibrate: every two of the A/A runs compared
 * with the gate, and the changes it called significant between identical
 * runs turned into per-series thresholds (analysis/noisefloor.h).
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/aa_calibrate.h"

double pt_aa_floor_worst(const struct pt_aa_series *d, int a, int b)
{
	double worst = 0;
	size_t i;

	for (i = 0; i < d->nhits_aa; i++) {
		const struct pt_aa_hit *h = &d->hits_aa[i];

		if (h->a == a || h->a == b || h->b == a || h->b == b)
			continue;
		if (h->abs_change_pct > worst)
			worst = h->abs_change_pct;
	}
	return worst;
}

double pt_aa_floor_threshold(const struct pt_aa *k, const struct pt_aa_series *d, int a, int b,
			     bool *off)
{
	struct pt_floor_opts o = k->floor;

	o.base_pct = d->base_threshold;
	return pt_floor_threshold(pt_aa_floor_worst(d, a, b), &o, off);
}

static int series_cmp(const void *a, const void *b)
{
	return pt_series_key_cmp(((const struct pt_aa_series *)a)->key,
				 ((const struct pt_aa_series *)b)->key);
}

static struct pt_aa_series *detect_lookup(const struct pt_aa *k, const struct pt_series *s)
{
	struct pt_aa_series key = { .key = s };

	return bsearch(&key, k->det, k->ndet, sizeof(*k->det), series_cmp);
}

static int hit_add(struct pt_aa_series *d, const struct pt_cmp_row *w, int a, int b)
{
	struct pt_aa_hit *n = realloc(d->hits_aa, (d->nhits_aa + 1) * sizeof(*n));

	if (!n)
		return -1;
	d->hits_aa = n;
	d->hits_aa[d->nhits_aa++] =
		(struct pt_aa_hit){ fabs(w->change_pct), a, b, w->verdict == PT_V_WORSE };
	return 0;
}

static struct pt_rundir *run_of(struct pt_aa *k, int i)
{
	return i % 2 ? &k->pairs[i / 2].b : &k->pairs[i / 2].a;
}

/* Compare run a (BASE) with run b and keep what the gate called significant. */
static int aa_compare(struct pt_aa *k, int a, int b)
{
	struct pt_rundir *ra = run_of(k, a), *rb = run_of(k, b);
	struct pt_cmp_result res;
	size_t i;
	int ret = 0;

	if (pt_compare(ra->series, ra->nseries, rb->series, rb->nseries, k->opts, &res))
		return -1;
	for (i = 0; i < res.n && !ret; i++) {
		const struct pt_cmp_row *w = &res.rows[i];
		struct pt_aa_series *d;

		if (w->verdict != PT_V_WORSE && w->verdict != PT_V_BETTER)
			continue;
		d = detect_lookup(k, w->key);
		if (d)
			ret = hit_add(d, w, a, b);
	}
	pt_cmp_result_free(&res);
	return ret;
}

/* Did the gate itself fire on a -> b? */
static bool gate_fired(const struct pt_aa *k, int a, int b)
{
	size_t i, j;

	for (i = 0; i < k->ndet; i++)
		for (j = 0; j < k->det[i].nhits_aa; j++) {
			const struct pt_aa_hit *h = &k->det[i].hits_aa[j];

			if (h->a == a && h->b == b && h->worse)
				return true;
		}
	return false;
}

/* Would the noise-floor gate, learnt without runs a and b, fire on a -> b? */
static bool floor_fires(const struct pt_aa *k, int a, int b)
{
	size_t i, j;
	bool off;

	for (i = 0; i < k->ndet; i++) {
		const struct pt_aa_series *d = &k->det[i];

		for (j = 0; j < d->nhits_aa; j++) {
			const struct pt_aa_hit *h = &d->hits_aa[j];

			if (h->a != a || h->b != b || !h->worse)
				continue;
			if (h->abs_change_pct >= pt_aa_floor_threshold(k, d, a, b, &off) && !off)
				return true;
		}
	}
	return false;
}

/*
 * Every two runs are compared (the earlier as BASE); the significant
 * changes set the thresholds. Out-of-sample false positives: each such
 * comparison judged with thresholds learnt from the other runs only
 * (leave-pair-out). The comparisons share runs, so they are not
 * independent; the rate is an estimate, its bound a rough one.
 */
int pt_aa_floor_learn(struct pt_aa *k)
{
	int a, b, n = pt_aa_floor_runs(k);

	k->loo_fired = k->loo_total = k->all_fired = 0;
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++)
			if (aa_compare(k, a, b))
				return -1;
	if (n < 4)
		return 0;
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++) {
			k->loo_total++;
			k->loo_fired += floor_fires(k, a, b);
			k->all_fired += gate_fired(k, a, b);
		}
	return 0;
}

double pt_aa_floor_detect_pct(const struct pt_aa *k, const struct pt_aa_series *d)
{
	bool off;
	double thr = pt_aa_floor_threshold(k, d, -1, -1, &off);
	size_t s;

	if (off)
		return NAN;
	for (s = 0; s < PT_AA_NSHIFTS; s++)
		if (pt_aa_shifts_pct[s] >= thr &&
		    (double)d->hits[s] >= PT_AA_DETECT_RATE * (double)k->npairs)
			return pt_aa_shifts_pct[s];
	return NAN;
}

void pt_aa_floor_count(const struct pt_aa *k, size_t *raised, size_t *off_n)
{
	size_t i;
	bool off;

	*raised = *off_n = 0;
	for (i = 0; i < k->ndet; i++) {
		double thr = pt_aa_floor_threshold(k, &k->det[i], -1, -1, &off);

		*off_n += off;
		*raised += !off && thr > k->det[i].base_threshold;
	}
}
