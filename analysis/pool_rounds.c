// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pool_rounds.h"
#include "util/stats.h"

/* One run's references and their deviations, nref x nround, NAN where a round lacks one. */
struct round_run {
	size_t nref, nround;
	struct pt_pool_point **ref;
	double *dev;
	double *tmp; /* nref scratch */
	double *adj; /* the largest nvals, scratch */
	struct pt_trim trim; /* the run statistic: pt_pool_run_stat */
};

bool pt_unit_is_timed(const char *unit)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i]))
			return true;
	return false;
}

static double median_of(double *v, size_t n)
{
	pt_sort_doubles(v, n);
	return pt_quantile_sorted(v, n, 0.5);
}

/* Gather round i's deviations of the references other than a; same workload only if asked. */
static size_t gather(const struct round_run *rr, size_t a, size_t i, bool same_workload)
{
	size_t o, m = 0;

	for (o = 0; o < rr->nref; o++) {
		double d = rr->dev[o * rr->nround + i];

		if (o == a || isnan(d))
			continue;
		if (same_workload && strcmp(rr->ref[o]->workload, rr->ref[a]->workload))
			continue;
		rr->tmp[m++] = d;
	}
	return m;
}

/* Round i's effect on reference a; false when too few others were measured in it. */
static bool round_effect(const struct round_run *rr, size_t a, size_t i, double *e)
{
	size_t m = gather(rr, a, i, true);

	if (m < PT_POOL_ROUND_MIN_MATES)
		m = gather(rr, a, i, false);
	if (m < PT_POOL_ROUND_MIN_MATES)
		return false;
	*e = median_of(rr->tmp, m);
	return true;
}

double pt_pool_run_stat(const double *vals, size_t n, struct pt_trim trim, double *scratch)
{
	size_t k;

	if (trim.lo >= 0.5 && trim.hi >= 0.5)
		goto median;
	for (k = 0; k < n; k++) {
		if (!(vals[k] > 0))
			goto median;
		scratch[k] = log(vals[k]);
	}
	pt_sort_doubles(scratch, n);
	return exp(pt_trimmed_mean_cut(scratch, n, trim));
median:
	memcpy(scratch, vals, n * sizeof(*scratch));
	return median_of(scratch, n);
}

/* A point the adjustment can use: repetitions with sane round numbers and logs. */
static bool usable(const struct pt_pool_point *p)
{
	size_t k;

	if (!p->interleaved || !p->nvals || !p->vals || !p->reps)
		return false;
	for (k = 0; k < p->nvals; k++)
		if (!(p->vals[k] > 0) || p->reps[k] < 0 || p->reps[k] >= PT_POOL_ROUND_MAX)
			return false;
	return true;
}

/* Each reference's deviations from its median over the run. */
static void deviations(struct round_run *rr)
{
	size_t a, k;

	for (a = 0; a < rr->nref * rr->nround; a++)
		rr->dev[a] = NAN;
	for (a = 0; a < rr->nref; a++) {
		const struct pt_pool_point *p = rr->ref[a];
		double center;

		for (k = 0; k < p->nvals; k++)
			rr->adj[k] = log(p->vals[k]);
		center = median_of(rr->adj, p->nvals);
		for (k = 0; k < p->nvals; k++)
			rr->dev[a * rr->nround + (size_t)p->reps[k]] = log(p->vals[k]) - center;
	}
}

/* Adjust one run's references; true when any was. */
static bool adjust_run(struct round_run *rr)
{
	bool any = false;
	size_t a, k;

	deviations(rr);
	for (a = 0; a < rr->nref; a++) {
		struct pt_pool_point *p = rr->ref[a];
		bool ok = true;

		for (k = 0; ok && k < p->nvals; k++) {
			double e = 0;

			ok = round_effect(rr, a, (size_t)p->reps[k], &e);
			rr->adj[k] = log(p->vals[k]) - e;
		}
		if (!ok)
			continue; /* a round without enough others: the plain statistic stands */
		if (p->adjusted)
			for (k = 0; k < p->nvals; k++)
				p->adjusted[k] = exp(rr->adj[k]);
		pt_sort_doubles(rr->adj, p->nvals);
		p->stat = exp(pt_trimmed_mean_cut(rr->adj, p->nvals, rr->trim));
		any = true;
	}
	return any;
}

/* The points of each run, grouped: order[start[r] .. start[r + 1]). */
static size_t *by_run(const struct pt_pool_point *pts, size_t npts, size_t nrun, size_t **order)
{
	size_t *start = calloc(nrun + 2, sizeof(*start)), *fill, i;

	*order = malloc((npts ? npts : 1) * sizeof(**order));
	fill = calloc(nrun + 1, sizeof(*fill));
	if (!start || !*order || !fill) {
		free(start);
		free(*order);
		free(fill);
		return NULL;
	}
	for (i = 0; i < npts; i++)
		start[pts[i].run + 1]++;
	for (i = 0; i < nrun; i++)
		start[i + 1] += start[i];
	for (i = 0; i < npts; i++)
		(*order)[start[pts[i].run] + fill[pts[i].run]++] = i;
	free(fill);
	return start;
}

int pt_pool_round_adjust(struct pt_pool_point *pts, size_t npts, const bool *is_ref,
			 struct pt_trim trim, size_t *runs_adjusted)
{
	struct round_run rr = { .trim = trim };
	size_t nrun = 0, maxvals = 1, *order = NULL, *start, r, i;
	int ret = -1;

	*runs_adjusted = 0;
	for (i = 0; i < npts; i++) {
		nrun = pts[i].run + 1 > nrun ? pts[i].run + 1 : nrun;
		maxvals = pts[i].nvals > maxvals ? pts[i].nvals : maxvals;
	}
	start = by_run(pts, npts, nrun, &order);
	rr.ref = malloc((npts ? npts : 1) * sizeof(*rr.ref));
	rr.tmp = malloc((npts ? npts : 1) * sizeof(*rr.tmp));
	rr.adj = malloc(maxvals * sizeof(*rr.adj));
	if (!start || !rr.ref || !rr.tmp || !rr.adj)
		goto out;
	for (r = 0; r < nrun; r++) {
		rr.nref = rr.nround = 0;
		for (i = start[r]; i < start[r + 1]; i++) {
			struct pt_pool_point *p = &pts[order[i]];
			size_t k;

			if (!is_ref[order[i]] || !usable(p))
				continue;
			rr.ref[rr.nref++] = p;
			for (k = 0; k < p->nvals; k++)
				if ((size_t)p->reps[k] + 1 > rr.nround)
					rr.nround = (size_t)p->reps[k] + 1;
		}
		if (rr.nref <= PT_POOL_ROUND_MIN_MATES)
			continue;
		free(rr.dev);
		rr.dev = malloc(rr.nref * rr.nround * sizeof(*rr.dev));
		if (!rr.dev)
			goto out;
		*runs_adjusted += adjust_run(&rr);
	}
	ret = 0;
out:
	free(start);
	free(order);
	free(rr.ref);
	free(rr.tmp);
	free(rr.adj);
	free(rr.dev);
	return ret;
}
