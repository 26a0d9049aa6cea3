// SPDX-License-Identifier: GPL-2.0-only
/* The fleet's statistics: groups of runs, cells of run medians, relative costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fleet.h"
#include "util/stats.h"

bool pt_fleet_is_modelled(const char *metric)
{
	return !strncmp(metric, "d128_predicted_", strlen("d128_predicted_")) ||
	       !strcmp(metric, "pgtable_bytes_model_d128") ||
	       !strcmp(metric, "pgtable_d128_d64_ratio");
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * The modelled rows a fleet table shows: each prediction once (its range
 * rows, _lo and _hi, would double it), and the page-table model's D128
 * figures of the pgtable workload only (every other case repeats them).
 */
static bool fleet_shows_modelled(const struct pt_fleet_point *p)
{
	if (!strncmp(p->metric, "d128_predicted_", strlen("d128_predicted_")))
		return !ends_with(p->metric, "_lo") && !ends_with(p->metric, "_hi");
	return pt_fleet_is_modelled(p->metric) && !strcmp(p->workload, "pgtable");
}

/* A kept point and the group of its run. */
struct kept {
	const struct pt_fleet_point *p;
	size_t group;
	bool modelled;
};

static int key_cmp(const struct kept *a, const struct kept *b)
{
	int c = (int)a->modelled - (int)b->modelled;

	if (!c)
		c = strcmp(a->p->workload, b->p->workload);
	if (!c)
		c = strcmp(a->p->cs, b->p->cs);
	if (!c)
		c = strcmp(a->p->params, b->p->params);
	if (!c)
		c = strcmp(a->p->metric, b->p->metric);
	return c;
}

static int kept_cmp(const void *va, const void *vb)
{
	const struct kept *a = va, *b = vb;
	int c = key_cmp(a, b);

	if (c)
		return c;
	return a->group < b->group ? -1 : a->group > b->group;
}

static bool same_machine(const struct pt_fleet_group *g, const struct pt_fleet_run *r)
{
	return !strcmp(g->host, r->host) && !strcmp(g->cpu_model, r->cpu_model) &&
	       !strcmp(g->kernel_release, r->kernel_release);
}

static int group_cmp(const void *va, const void *vb)
{
	const struct pt_fleet_group *a = va, *b = vb;
	int c = strcmp(a->host, b->host);

	if (!c)
		c = strcmp(a->kernel_release, b->kernel_release);
	if (!c)
		c = strcmp(a->cpu_model, b->cpu_model);
	return c;
}

/* Add tag to a group's list unless it is there. */
static void add_tag(struct pt_fleet_group *g, const char *tag)
{
	size_t len = strlen(tag), used = strlen(g->tags);
	const char *p = g->tags;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, tag, n))
			return;
		p += n;
		p += strspn(p, ", ");
	}
	snprintf(g->tags + used, sizeof(g->tags) - used, "%s%s", used ? ", " : "", tag);
}

/* The groups, sorted by host, kernel and CPU; run_group[i] the group of run i. */
static int make_groups(const struct pt_fleet_run *runs, size_t nruns, struct pt_fleet *f,
		       size_t *run_group)
{
	size_t i, g;

	f->groups = calloc(nruns ? nruns : 1, sizeof(*f->groups));
	if (!f->groups)
		return -1;
	for (i = 0; i < nruns; i++) {
		for (g = 0; g < f->ngroups && !same_machine(&f->groups[g], &runs[i]); g++)
			;
		if (g == f->ngroups) {
			snprintf(f->groups[g].host, sizeof(f->groups[g].host), "%s", runs[i].host);
			snprintf(f->groups[g].cpu_model, sizeof(f->groups[g].cpu_model), "%s",
				 runs[i].cpu_model);
			snprintf(f->groups[g].kernel_release, sizeof(f->groups[g].kernel_release),
				 "%s", runs[i].kernel_release);
			f->ngroups++;
		}
	}
	qsort(f->groups, f->ngroups, sizeof(*f->groups), group_cmp);
	for (i = 0; i < nruns; i++) {
		for (g = 0; !same_machine(&f->groups[g], &runs[i]); g++)
			;
		run_group[i] = g;
		f->groups[g].nruns++;
		add_tag(&f->groups[g], runs[i].tag);
	}
	f->nruns = nruns;
	return 0;
}

static double median_of(double *v, size_t n)
{
	pt_sort_doubles(v, n);
	return pt_quantile_sorted(v, n, 0.5);
}

/* The cell of the run medians k[0..n) of one group. */
static void fill_cell(struct pt_fleet_cell *c, const struct kept *k, size_t n, double *buf)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = k[i].p->median;
	c->nruns = n;
	c->median = median_of(buf, n);
	c->min = buf[0];
	c->max = buf[n - 1];
	c->spread_pct = NAN;
	if (n > 1 && c->median != 0)
		c->spread_pct = (c->max - c->min) / 2 / fabs(c->median) * 100;
	else if (n > 1)
		c->spread_pct = c->max == c->min ? 0 : INFINITY;
}

/* The fleet median of series s and each group's relative cost. */
static void relate(struct pt_fleet *f, size_t s, double *buf)
{
	struct pt_fleet_series *x = &f->series[s];
	size_t g, n = 0;

	for (g = 0; g < f->ngroups; g++)
		if (f->cells[s * f->ngroups + g].nruns)
			buf[n++] = f->cells[s * f->ngroups + g].median;
	x->fleet_median = n ? median_of(buf, n) : NAN;
	for (g = 0; g < f->ngroups; g++) {
		struct pt_fleet_cell *c = &f->cells[s * f->ngroups + g];

		c->rel = NAN;
		if (!c->nruns || !(x->fleet_median > 0) || !(c->median > 0))
			continue; /* no ratio of a zero or negative median */
		c->rel = x->better == PT_HIGHER ? x->fleet_median / c->median
						: c->median / x->fleet_median;
	}
}

/* Each group's median relative cost over its measured and its modelled series. */
static void summarize_groups(struct pt_fleet *f, double *buf)
{
	size_t g, s, n;
	int modelled;

	for (g = 0; g < f->ngroups; g++)
		for (modelled = 0; modelled < 2; modelled++) {
			for (s = n = 0; s < f->nseries; s++) {
				double r = f->cells[s * f->ngroups + g].rel;

				if (f->series[s].modelled == modelled && isfinite(r))
					buf[n++] = r;
			}
			*(modelled ? &f->groups[g].nmodelled : &f->groups[g].nmeasured) = n;
			*(modelled ? &f->groups[g].modelled_rel : &f->groups[g].measured_rel) =
				n ? median_of(buf, n) : NAN;
		}
}

/* The points to show, sorted by series and group; *nk their count. */
static struct kept *keep_points(const struct pt_fleet_point *pts, size_t npts,
				const size_t *run_group, struct pt_fleet *f, size_t *nk)
{
	struct kept *k = malloc((npts ? npts : 1) * sizeof(*k));
	size_t i;

	if (!k)
		return NULL;
	f->undeclared = true;
	for (i = 0; i < npts; i++)
		if (pts[i].primary)
			f->undeclared = false;
	*nk = 0;
	for (i = 0; i < npts; i++) {
		bool modelled = pt_fleet_is_modelled(pts[i].metric);

		if (modelled ? !fleet_shows_modelled(&pts[i]) : !pts[i].primary && !f->undeclared)
			continue;
		k[*nk] = (struct kept){ &pts[i], run_group[pts[i].run], modelled };
		(*nk)++;
	}
	qsort(k, *nk, sizeof(*k), kept_cmp);
	return k;
}

static int fill_series(struct pt_fleet *f, const struct kept *k, size_t nk, double *buf)
{
	size_t i, j, s;

	for (i = 0; i < nk; i = j) {
		for (j = i + 1; j < nk && !key_cmp(&k[i], &k[j]); j++)
			;
		f->nseries++;
	}
	f->series = calloc(f->nseries ? f->nseries : 1, sizeof(*f->series));
	f->cells = calloc((f->nseries ? f->nseries : 1) * (f->ngroups ? f->ngroups : 1),
			  sizeof(*f->cells));
	if (!f->series || !f->cells)
		return -1;
	for (s = 0; s < f->nseries * f->ngroups; s++)
		f->cells[s] = (struct pt_fleet_cell){ 0, NAN, NAN, NAN, NAN, NAN };
	for (i = s = 0; i < nk; s++) {
		size_t end;

		for (end = i + 1; end < nk && !key_cmp(&k[i], &k[end]); end++)
			;
		f->series[s] = (struct pt_fleet_series){
			.workload = k[i].p->workload,
			.cs = k[i].p->cs,
			.params = k[i].p->params,
			.metric = k[i].p->metric,
			.unit = k[i].p->unit,
			.better = k[i].p->better,
			.modelled = k[i].modelled,
		};
		while (i < end) { /* one cell per group: the points come sorted by group */
			for (j = i + 1; j < end && k[j].group == k[i].group; j++)
				;
			fill_cell(&f->cells[s * f->ngroups + k[i].group], &k[i], j - i, buf);
			i = j;
		}
		relate(f, s, buf);
	}
	return 0;
}

int pt_fleet_build(const struct pt_fleet_run *runs, size_t nruns, const struct pt_fleet_point *pts,
		   size_t npts, struct pt_fleet *f)
{
	size_t *run_group = calloc(nruns ? nruns : 1, sizeof(*run_group));
	double *buf = malloc((npts + nruns + 1) * sizeof(*buf));
	struct kept *k = NULL;
	size_t nk = 0;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	if (!run_group || !buf || make_groups(runs, nruns, f, run_group))
		goto out;
	k = keep_points(pts, npts, run_group, f, &nk);
	if (!k || fill_series(f, k, nk, buf))
		goto out;
	summarize_groups(f, buf);
	ret = 0;
out:
	free(k);
	free(buf);
	free(run_group);
	if (ret)
		pt_fleet_free(f);
	return ret;
}

void pt_fleet_free(struct pt_fleet *f)
{
	free(f->groups);
	free(f->series);
	free(f->cells);
	memset(f, 0, sizeof(*f));
}
