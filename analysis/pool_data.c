// SPDX-License-Identifier: GPL-2.0-only
#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/history_db.h"
#include "analysis/pool_data.h"
#include "util/dvec.h"
#include "util/errf.h"
#include "util/stats.h"

static int add_point(struct pt_pool_data *d, const char *const key[5], enum pt_better better,
		     double median, bool is_new, unsigned run)
{
	struct pt_pool_point *p;
	const char *s[5];
	int i;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 4096;
		struct pt_pool_point *np = realloc(d->pts, cap * sizeof(*np));

		if (!np)
			return -1;
		d->pts = np;
		d->cap = cap;
	}
	p = &d->pts[d->n];
	memset(p, 0, sizeof(*p));
	for (i = 0; i < 5; i++)
		if (!(s[i] = pt_strpool_add(&d->strs, key[i])))
			return -1;
	p->workload = s[0];
	p->cs = s[1];
	p->params = s[2];
	p->metric = s[3];
	p->unit = s[4];
	p->better = better;
	p->median = median;
	p->is_new = is_new;
	p->run = run;
	d->n++;
	return 0;
}

static double median_of(double *v, size_t n)
{
	pt_sort_doubles(v, n);
	return pt_quantile_sorted(v, n, 0.5);
}

int pt_pool_add_new(struct pt_pool_data *d, const struct pt_rundir *r)
{
	size_t i;

	for (i = 0; i < r->nseries; i++) {
		const struct pt_series *s = &r->series[i];
		const char *key[5] = { s->workload, s->cs, s->params, s->metric, s->unit };
		double *v = malloc((s->n ? s->n : 1) * sizeof(*v));
		int ret;

		if (!v)
			return -1;
		memcpy(v, s->values, s->n * sizeof(*v));
		ret = add_point(d, key, s->better, median_of(v, s->n), true, d->runs);
		free(v);
		if (ret)
			return -1;
	}
	d->new_runs++;
	d->runs++;
	return 0;
}

struct exclude_list {
	const char *const *ids;
	size_t n;
};

static enum pt_pool_role not_excluded(void *ctx, const char *id)
{
	const struct exclude_list *ex = ctx;
	size_t i;

	for (i = 0; i < ex->n; i++)
		if (ex->ids[i] && !strcmp(ex->ids[i], id))
			return PT_POOL_SKIP;
	return PT_POOL_BASE;
}

/* Accumulates the values of one (run, series) as the rows stream by. */
struct group {
	struct pt_hist_series k;
	bool is_new;
	unsigned run;
	enum pt_better better;
	struct pt_dvec vals;
};

static int flush(struct pt_pool_data *d, struct group *g)
{
	const char *key[5] = { g->k.key[0], g->k.key[1], g->k.key[2], g->k.key[3], g->k.key[4] };
	int ret = 0;

	if (g->vals.n)
		ret = add_point(d, key, g->better, median_of(g->vals.v, g->vals.n), g->is_new,
				g->run);
	g->vals.n = 0;
	return ret;
}

enum pt_history_err pt_pool_load_roles(struct pt_history *h, const char *tag, const char *suite,
				       enum pt_pool_role (*role)(void *ctx, const char *id),
				       void *ctx, struct pt_pool_data *d, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT rows.run_id, workload, cs, params, metric, unit, better, value"
		" FROM rows JOIN runs ON runs.id = rows.run_id"
		" WHERE (?1 IS NULL OR runs.tag = ?1) AND (?2 IS NULL OR runs.suite = ?2)"
		" ORDER BY rows.run_id, workload, cs, params, metric";
	struct group g = { 0 };
	sqlite3_stmt *st;
	enum pt_pool_role r = PT_POOL_SKIP;
	int rc, fail = 0;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot read the pool");
	if (tag)
		sqlite3_bind_text(st, 1, tag, -1, SQLITE_TRANSIENT);
	if (suite)
		sqlite3_bind_text(st, 2, suite, -1, SQLITE_TRANSIENT);
	while (!fail && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (strcmp(g.k.run, pt_hist_text(st, 0)))
			r = role(ctx, pt_hist_text(st, 0)); /* once per run: rows come grouped */
		if (r == PT_POOL_SKIP) {
			fail = flush(d, &g);
			snprintf(g.k.run, sizeof(g.k.run), "%s", pt_hist_text(st, 0));
			continue;
		}
		if (!pt_hist_same_series(&g.k, st)) {
			bool new_run = strcmp(g.k.run, pt_hist_text(st, 0)) != 0;

			fail = flush(d, &g);
			if (new_run && r == PT_POOL_NEW)
				d->new_runs++;
			else if (new_run)
				d->pool_runs++;
			if (new_run)
				g.run = d->runs++;
			g.is_new = r == PT_POOL_NEW;
			pt_hist_series_start(&g.k, st);
			if (pt_better_parse(pt_hist_text(st, 6), &g.better))
				g.better = PT_NEITHER;
		}
		if (!fail)
			fail = pt_dvec_push(&g.vals, sqlite3_column_double(st, 7));
	}
	if (!fail)
		fail = flush(d, &g);
	sqlite3_finalize(st);
	pt_dvec_free(&g.vals);
	if (fail) {
		pt_errf(err, errlen, "%s: out of memory reading the pool", h->path);
		return PT_HIST_EIO;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot read the pool");
	return PT_HIST_OK;
}

enum pt_history_err pt_pool_load_history(struct pt_history *h, const char *tag, const char *suite,
					 const char *const *exclude, size_t nexclude,
					 struct pt_pool_data *d, char *err, size_t errlen)
{
	struct exclude_list ex = { exclude, nexclude };

	return pt_pool_load_roles(h, tag, suite, not_excluded, &ex, d, err, errlen);
}

void pt_pool_data_free(struct pt_pool_data *d)
{
	pt_strpool_free(&d->strs);
	free(d->pts);
	memset(d, 0, sizeof(*d));
}
