// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/history_db.h"
#include "analysis/pool_data.h"
#include "analysis/pool_rounds.h"
#include "util/dvec.h"
#include "util/errf.h"
#include "util/stats.h"
#include "util/utctime.h"

/* A run's repetitions of one series, kept for the round effect (pool_rounds.h). */
struct reps_in {
	const double *vals, *reps_d; /* rounds as doubles (history rows) or ints (a run dir) */
	const int *reps_i;
	size_t n;
	bool interleaved;
};

/* Copies of the values and their rounds; the point owns them (pt_pool_data_free). */
static int keep_reps(struct pt_pool_point *p, const struct reps_in *in)
{
	double *v = malloc((in->n ? in->n : 1) * sizeof(*v));
	int *r = malloc((in->n ? in->n : 1) * sizeof(*r));
	size_t k;

	if (!v || !r) {
		free(v);
		free(r);
		return -1;
	}
	memcpy(v, in->vals, in->n * sizeof(*v));
	for (k = 0; k < in->n; k++) {
		double x = in->reps_i ? in->reps_i[k] : in->reps_d[k];

		/* no sane round number: pool_rounds.c leaves that series its plain statistic */
		r[k] = x >= 0 && x < PT_POOL_ROUND_MAX ? (int)x : -1;
	}
	p->vals = v;
	p->reps = r;
	p->nvals = in->n;
	p->interleaved = in->interleaved;
	return 0;
}

static int add_point(struct pt_pool_data *d, const char *const key[5], enum pt_better better,
		     double stat, bool is_new, unsigned run, const struct reps_in *in)
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
	p->stat = stat;
	p->is_new = is_new;
	p->run = run;
	d->n++;
	return in && in->n ? keep_reps(p, in) : 0;
}

/* Run run's start and end from its UTC timestamps (either unreadable: NAN). 0, or -1 out of memory. */
static int set_times(struct pt_pool_data *d, unsigned run, const char *start, const char *end)
{
	if (run >= d->times_cap) {
		size_t cap = d->times_cap ? 2 * d->times_cap : 64, i;
		double *ns, *ne;

		while (cap <= run)
			cap *= 2;
		ns = realloc(d->start, cap * sizeof(*ns));
		if (!ns)
			return -1;
		d->start = ns;
		ne = realloc(d->end, cap * sizeof(*ne));
		if (!ne)
			return -1;
		d->end = ne;
		for (i = d->times_cap; i < cap; i++)
			d->start[i] = d->end[i] = NAN;
		d->times_cap = cap;
	}
	if (pt_utc_parse(start, &d->start[run]) || pt_utc_parse(end, &d->end[run]))
		d->start[run] = d->end[run] = NAN;
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
		struct reps_in in = { .vals = s->values,
				      .reps_i = s->reps,
				      .n = s->reps ? s->n : 0,
				      .interleaved = !strcmp(r->meta.order, "interleaved") };
		int ret;

		if (!v)
			return -1;
		memcpy(v, s->values, s->n * sizeof(*v));
		ret = add_point(d, key, s->better, median_of(v, s->n), true, d->runs, &in);
		free(v);
		if (ret)
			return -1;
	}
	if (set_times(d, d->runs, r->meta.started_utc, r->meta.finished_utc))
		return -1;
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
	bool interleaved; /* the run's meta.json says run.order interleaved */
	struct pt_dvec vals, reps;
};

static int flush(struct pt_pool_data *d, struct group *g)
{
	const char *key[5] = { g->k.key[0], g->k.key[1], g->k.key[2], g->k.key[3], g->k.key[4] };
	struct reps_in in = { .vals = g->vals.v,
			      .reps_d = g->reps.v,
			      .n = g->vals.n,
			      .interleaved = g->interleaved };
	int ret = 0;

	/* before the median sorts the values out of their rounds */
	if (g->vals.n)
		ret = add_point(d, key, g->better, 0, g->is_new, g->run, &in);
	if (!ret && g->vals.n)
		d->pts[d->n - 1].stat = median_of(g->vals.v, g->vals.n);
	g->vals.n = g->reps.n = 0;
	return ret;
}

/* Did history run id measure its cases round by round? False when its meta.json does not say. */
static bool run_interleaved(struct pt_history *h, const char *id)
{
	static const char sql[] =
		"SELECT json_extract(meta_json, '$.run.order') FROM runs WHERE id = ?1";
	sqlite3_stmt *st;
	bool yes = false;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT)
		yes = !strcmp((const char *)sqlite3_column_text(st, 0), "interleaved");
	sqlite3_finalize(st);
	return yes;
}

enum pt_history_err pt_pool_load_roles(struct pt_history *h, const char *tag, const char *suite,
				       enum pt_pool_role (*role)(void *ctx, const char *id),
				       void *ctx, struct pt_pool_data *d, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT rows.run_id, workload, cs, params, metric, unit, better, value, rep,"
		" runs.started_utc, runs.finished_utc"
		" FROM rows JOIN runs ON runs.id = rows.run_id"
		" WHERE (?1 IS NULL OR runs.tag = ?1) AND (?2 IS NULL OR runs.suite = ?2)"
		" ORDER BY rows.run_id, workload, cs, params, metric";
	struct group g = { 0 };
	sqlite3_stmt *st;
	enum pt_pool_role r = PT_POOL_SKIP;
	bool interleaved = false;
	int rc, fail = 0;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot read the pool");
	if (tag)
		sqlite3_bind_text(st, 1, tag, -1, SQLITE_TRANSIENT);
	if (suite)
		sqlite3_bind_text(st, 2, suite, -1, SQLITE_TRANSIENT);
	while (!fail && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (strcmp(g.k.run, pt_hist_text(st, 0))) {
			/* once per run: rows come grouped */
			r = role(ctx, pt_hist_text(st, 0));
			interleaved = r != PT_POOL_SKIP && run_interleaved(h, pt_hist_text(st, 0));
		}
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
			if (new_run) {
				g.run = d->runs++;
				fail = fail || set_times(d, g.run, pt_hist_text(st, 9),
							 pt_hist_text(st, 10));
			}
			g.is_new = r == PT_POOL_NEW;
			g.interleaved = interleaved;
			pt_hist_series_start(&g.k, st);
			if (pt_better_parse(pt_hist_text(st, 6), &g.better))
				g.better = PT_NEITHER;
		}
		if (!fail)
			fail = pt_dvec_push(&g.vals, sqlite3_column_double(st, 7)) ||
			       pt_dvec_push(&g.reps, sqlite3_column_double(st, 8));
	}
	if (!fail)
		fail = flush(d, &g);
	sqlite3_finalize(st);
	pt_dvec_free(&g.vals);
	pt_dvec_free(&g.reps);
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
	size_t i;

	for (i = 0; i < d->n; i++) {
		free((void *)d->pts[i].vals); /* keep_reps made them for the point */
		free((void *)d->pts[i].reps);
	}
	pt_strpool_free(&d->strs);
	free(d->pts);
	free(d->start);
	free(d->end);
	memset(d, 0, sizeof(*d));
}
