// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibpoints.h"
#include "util/params.h"
#include "util/stats.h"

/* The tlb workload's backings the model simulates, in output order. */
static const struct {
	const char *backing;
	enum pt_pattern_kind pattern;
	unsigned block_h;
} backings[] = {
	{ "4k", PT_PAT_CHASE, 0 },
	{ "thp", PT_PAT_CHASE, 1 },
	/* hugetlbfs pages of the PMD size: PMD leaves, as THP blocks are */
	{ "hugetlb", PT_PAT_CHASE, 1 },
	/* the dense control is packed into huge pages, as in the workload */
	{ "dense", PT_PAT_DENSE, 1 },
	/*
	 * 4K pages with stride=2 in params: the chase over every second page,
	 * a check the fit predicts and never fits (model/walk_fit.h). Runs
	 * made on the h-nested branch before it was ported wrote backing=half.
	 */
	{ "half", PT_PAT_CHASE_HALF, 0 },
	/* 4K pages with stride=4: every fourth page, fitted (model/walk_fit.h) */
	{ "quarter", PT_PAT_CHASE_QUARTER, 0 },
};

#define NBACKINGS (sizeof(backings) / sizeof(backings[0]))
#define HALF (NBACKINGS - 2)
#define QUARTER (NBACKINGS - 1)

static size_t backing_rank(const char *name)
{
	size_t i;

	for (i = 0; i < NBACKINGS; i++)
		if (!strcmp(backings[i].backing, name))
			break;
	return i;
}

int pt_calib_point_from_params(const char *params, struct pt_calib_point *p)
{
	struct pt_params kv;
	const char *b;
	size_t i;

	if (pt_params_parse(params, &kv) || !(b = pt_params_get(&kv, "backing")))
		return 1;
	i = backing_rank(b);
	if (i == NBACKINGS)
		return 1;
	/* stride: pages between loads; 1 when absent, 2 or 4 only over 4K pages */
	if (pt_params_get(&kv, "stride")) {
		long long stride;

		if (pt_params_get_int(&kv, "stride", &stride) || stride < 1)
			return -1;
		if (stride == 2 && i == 0)
			i = HALF;
		else if (stride == 4 && i == 0)
			i = QUARTER;
		else if (stride != 1)
			return 1;
	}
	snprintf(p->backing, sizeof(p->backing), "%s", backings[i].backing);
	p->pattern = backings[i].pattern;
	p->block_h = backings[i].block_h;
	if (pt_params_get_size(&kv, "ws", &p->ws) || !p->ws || p->ws % PT_PATTERN_PAGE ||
	    (i == HALF && p->ws % (2 * PT_PATTERN_PAGE)) ||
	    (i == QUARTER && p->ws % (4 * PT_PATTERN_PAGE)))
		return -1;
	return 0;
}

static bool is_tlb_access(const struct pt_series *s)
{
	return !strcmp(s->workload, "tlb") && !strcmp(s->metric, "ns_per_access");
}

const struct pt_series *pt_calib_point_series(const struct pt_rundir *run,
					      const struct pt_calib_point *p)
{
	size_t i;

	for (i = 0; i < run->nseries; i++)
		if (is_tlb_access(&run->series[i]) && !strcmp(run->series[i].cs, p->cs))
			return &run->series[i];
	return NULL;
}

int pt_calib_point_values(const struct pt_rundir *run, const struct pt_calib_point *p,
			  const double **v, size_t *n)
{
	const struct pt_series *s = pt_calib_point_series(run, p);

	if (!s)
		return -1;
	*v = s->values;
	*n = s->n;
	return 0;
}

static int point_cmp(const void *a, const void *b)
{
	const struct pt_calib_point *x = a, *y = b;
	size_t rx = backing_rank(x->backing), ry = backing_rank(y->backing);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return x->ws < y->ws ? -1 : x->ws > y->ws;
}

double pt_calib_stat_of(enum pt_calib_stat s, double *v, size_t n)
{
	double sum = 0;
	size_t k;

	if (s == PT_CALIB_GMEAN) {
		for (k = 0; k < n; k++)
			sum += log(v[k]);
		return exp(sum / (double)n);
	}
	pt_sort_doubles(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const char *pt_calib_stat_name(enum pt_calib_stat s)
{
	return s == PT_CALIB_GMEAN ? "gmean" : "median";
}

/* stat of s's values; NAN when one is not positive (no logarithm, no time per access). */
static double series_stat(const struct pt_series *s, enum pt_calib_stat stat)
{
	double *tmp = malloc(s->n * sizeof(*tmp)), r = NAN;
	size_t k;

	if (!tmp)
		return NAN;
	for (k = 0; k < s->n && s->values[k] > 0; k++)
		tmp[k] = s->values[k];
	if (k == s->n && s->n)
		r = pt_calib_stat_of(stat, tmp, s->n);
	free(tmp);
	return r;
}

int pt_calib_points_from_run(const struct pt_rundir *run, enum pt_calib_stat stat,
			     struct pt_calib_point *pts, size_t max, size_t *n, char *err,
			     size_t errlen)
{
	size_t i;
	int r;

	*n = 0;
	for (i = 0; i < run->nseries && *n < max; i++) {
		const struct pt_series *s = &run->series[i];
		struct pt_calib_point *p = &pts[*n];
		double y;

		if (!is_tlb_access(s))
			continue;
		memset(p, 0, sizeof(*p));
		r = pt_calib_point_from_params(s->params, p);
		if (r > 0)
			continue;
		y = r < 0 ? NAN : series_stat(s, stat);
		if (!(y > 0)) {
			snprintf(err, errlen,
				 "%s:%ld: case %s: needs ws=<bytes> (a multiple of %llu) in params "
				 "and positive ns_per_access",
				 run->csv_path, s->line, s->cs,
				 (unsigned long long)PT_PATTERN_PAGE);
			return -1;
		}
		snprintf(p->cs, sizeof(p->cs), "%s", s->cs);
		p->measured_ns = y;
		(*n)++;
	}
	if (!*n) {
		snprintf(err, errlen,
			 "%s: no tlb ns_per_access rows with backing=4k, thp, hugetlb or dense in "
			 "params",
			 run->csv_path);
		return -1;
	}
	qsort(pts, *n, sizeof(*pts), point_cmp);
	return 0;
}
