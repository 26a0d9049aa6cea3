// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_rounds.h"
#include "analysis/pool.h"
#include "analysis/pool_rounds.h"

/* Gated as pt_compare gates it: primary (or every series), then the config's say. */
static bool is_reference(const struct pt_series *s, const struct pt_cmp_opts *o)
{
	double alpha = o->alpha, threshold = o->threshold_pct;
	char name[768];
	bool gated;

	if (!pt_unit_is_timed(s->unit) || !s->n || !s->reps)
		return false;
	gated = !o->is_primary || o->is_primary(o->primary_ctx, s);
	pt_series_name(s, name, sizeof(name));
	pt_cmp_config_lookup(o->config, name, &alpha, &threshold, &gated);
	return gated;
}

static void points_free(struct pt_pool_point *pts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(pts[i].adjusted);
	free(pts);
}

int pt_cmp_round_adjust(struct pt_rundir *r, const struct pt_cmp_opts *o, size_t *adjusted)
{
	struct pt_pool_point *pts;
	size_t *from, n = 0, runs, i, k;
	bool *is_ref;
	int ret = -1;

	*adjusted = 0;
	if (strcmp(r->meta.order, "interleaved"))
		return 0; /* a sequential run's repetitions were not measured round by round */
	pts = calloc(r->nseries ? r->nseries : 1, sizeof(*pts));
	from = malloc((r->nseries ? r->nseries : 1) * sizeof(*from));
	is_ref = calloc(r->nseries ? r->nseries : 1, sizeof(*is_ref));
	if (!pts || !from || !is_ref)
		goto out;
	for (i = 0; i < r->nseries; i++) {
		const struct pt_series *s = &r->series[i];
		struct pt_pool_point *p = &pts[n];

		if (!is_reference(s, o))
			continue;
		p->workload = s->workload;
		p->cs = s->cs;
		p->params = s->params;
		p->metric = s->metric;
		p->unit = s->unit;
		p->better = s->better;
		p->vals = s->values;
		p->reps = s->reps;
		p->nvals = s->n;
		p->interleaved = true;
		p->adjusted = malloc(s->n * sizeof(*p->adjusted));
		if (!p->adjusted)
			goto out;
		p->adjusted[0] = NAN; /* stays NAN unless this series is adjusted */
		is_ref[n] = true;
		from[n++] = i;
	}
	if (pt_pool_round_adjust(pts, n, is_ref, PT_POOL_TRIM_DEFAULT, &runs))
		goto out;
	for (i = 0; i < n; i++) {
		struct pt_series *s = &r->series[from[i]];

		if (isnan(pts[i].adjusted[0]))
			continue;
		for (k = 0; k < s->n; k++)
			s->values[k] = pts[i].adjusted[k];
		(*adjusted)++;
	}
	ret = 0;
out:
	if (pts)
		points_free(pts, n);
	free(from);
	free(is_ref);
	return ret;
}
