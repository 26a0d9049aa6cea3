// SPDX-License-Identifier: GPL-2.0-only
/* The fleet's input: the selected runs of a history and each run's median per series. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fleet.h"
#include "analysis/history_db.h"
#include "analysis/rundir.h"
#include "util/dvec.h"
#include "util/errf.h"
#include "util/stats.h"
#include "util/strpool.h"

/* A database that reads as damaged is bad input, like one that is not ours. */
static enum pt_history_err db_fail(struct pt_history *h, char *err, size_t errlen, const char *what)
{
	int rc = sqlite3_errcode(h->db);

	return pt_hist_fail(
		h, rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ? PT_HIST_EINPUT : PT_HIST_EIO, err,
		errlen, what);
}

/* The (workload, case, metric) any selected run declares primary, once each. */
struct primaries {
	struct pt_primary *p;
	size_t n, cap;
};

static bool is_primary(const struct primaries *u, const char *w, const char *c, const char *m)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (!strcmp(u->p[i].metric, m) && !strcmp(u->p[i].cs, c) &&
		    !strcmp(u->p[i].workload, w))
			return true;
	return false;
}

/* Merge what one run's meta.json declares; -1 when out of memory or it does not parse. */
static int add_primaries(struct primaries *u, const char *meta, const char *id, char *err,
			 size_t errlen)
{
	struct pt_rundir r = { 0 };
	char name[128];
	size_t i;
	int ret = 0;

	snprintf(name, sizeof(name), "meta.json of run %s", id);
	if (pt_meta_primaries(meta, name, &r, err, errlen))
		return -1;
	for (i = 0; i < r.nprimary && !ret; i++) {
		struct pt_primary *x = &r.primary[i];

		if (is_primary(u, x->workload, x->cs, x->metric))
			continue;
		if (u->n == u->cap) {
			size_t cap = u->cap ? 2 * u->cap : 64;
			struct pt_primary *np = realloc(u->p, cap * sizeof(*np));

			if (!np) {
				ret = pt_errf(err, errlen, "out of memory");
				break;
			}
			u->p = np;
			u->cap = cap;
		}
		u->p[u->n++] = *x; /* the strings move to the union */
		x->workload = x->cs = x->metric = NULL;
	}
	pt_rundir_free(&r);
	return ret;
}

static void primaries_free(struct primaries *u)
{
	size_t i;

	for (i = 0; i < u->n; i++) {
		free(u->p[i].workload);
		free(u->p[i].cs);
		free(u->p[i].metric);
	}
	free(u->p);
}

static bool wanted(const char *tag, const char *const *tags, size_t ntags, bool *seen)
{
	size_t i;
	bool any = false;

	for (i = 0; i < ntags; i++)
		if (!strcmp(tags[i], tag))
			any = seen[i] = true;
	return !ntags || any;
}

static int run_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pt_fleet_run *)a)->id, ((const struct pt_fleet_run *)b)->id);
}

/* A tag no run has: bad input, naming the tags there are. */
static enum pt_history_err unknown_tag(struct pt_history *h, const char *tag, char *err,
				       size_t errlen)
{
	char have[512] = "";
	sqlite3_stmt *st;
	size_t used = 0;

	if (sqlite3_prepare_v2(h->db, "SELECT DISTINCT tag FROM runs ORDER BY tag LIMIT 16", -1,
			       &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW && used < sizeof(have))
			used += (size_t)snprintf(have + used, sizeof(have) - used, "%s'%s'",
						 used ? ", " : "", pt_hist_text(st, 0));
		sqlite3_finalize(st);
	}
	pt_errf(err, errlen, "%s: no run has tag '%s' (the tags there: %s)", h->path, tag,
		have[0] ? have : "none");
	return PT_HIST_EINPUT;
}

static enum pt_history_err load_runs(struct pt_history *h, const char *const *tags, size_t ntags,
				     struct pt_fleet_data *d, struct primaries *u, char *err,
				     size_t errlen)
{
	static const char sql[] = "SELECT id, tag, host, cpu_model, kernel_release, meta_json"
				  " FROM runs ORDER BY started_utc, id";
	bool seen[PT_FLEET_MAX_TAGS] = { false };
	sqlite3_stmt *st;
	size_t i, cap = 0;
	int rc;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(h, err, errlen, "cannot read the runs");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pt_fleet_run *r;

		d->history_runs++;
		if (!wanted(pt_hist_text(st, 1), tags, ntags, seen))
			continue;
		if (d->nruns == cap) {
			cap = cap ? 2 * cap : 64;
			r = realloc(d->runs, cap * sizeof(*r));
			if (!r) {
				sqlite3_finalize(st);
				return pt_errf(err, errlen, "out of memory"), PT_HIST_EIO;
			}
			d->runs = r;
		}
		r = &d->runs[d->nruns++];
		snprintf(r->id, sizeof(r->id), "%s", pt_hist_text(st, 0));
		snprintf(r->tag, sizeof(r->tag), "%s", pt_hist_text(st, 1));
		snprintf(r->host, sizeof(r->host), "%s", pt_hist_text(st, 2));
		snprintf(r->cpu_model, sizeof(r->cpu_model), "%s", pt_hist_text(st, 3));
		snprintf(r->kernel_release, sizeof(r->kernel_release), "%s", pt_hist_text(st, 4));
		if (sqlite3_column_type(st, 5) != SQLITE_NULL &&
		    add_primaries(u, pt_hist_text(st, 5), r->id, err, errlen)) {
			sqlite3_finalize(st);
			return PT_HIST_EINPUT;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(h, err, errlen, "cannot read the runs");
	if (!d->history_runs)
		return pt_errf(err, errlen,
			       "%s: the history holds no runs (add run directories with "
			       "'ptbench history add DIR --db %s')",
			       h->path, h->path),
		       PT_HIST_EINPUT;
	for (i = 0; i < ntags; i++)
		if (!seen[i])
			return unknown_tag(h, tags[i], err, errlen);
	qsort(d->runs, d->nruns, sizeof(*d->runs), run_cmp);
	return PT_HIST_OK;
}

/* The values of one (run, series) as the rows stream by. */
struct group {
	long run; /* index, -1 for a run not selected */
	struct pt_hist_series k;
	enum pt_better better;
	struct pt_dvec vals;
};

static int flush(struct pt_fleet_data *d, struct group *g, const struct primaries *u)
{
	struct pt_fleet_point *p;
	const char *s[5];
	int i;

	if (!g->vals.n)
		return 0;
	if (d->npts == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 4096;
		struct pt_fleet_point *np = realloc(d->pts, cap * sizeof(*np));

		if (!np)
			return -1;
		d->pts = np;
		d->cap = cap;
	}
	for (i = 0; i < 5; i++)
		if (!(s[i] = pt_strpool_add(&d->strs, g->k.key[i])))
			return -1;
	p = &d->pts[d->npts++];
	pt_sort_doubles(g->vals.v, g->vals.n);
	*p = (struct pt_fleet_point){
		.run = (size_t)g->run,
		.workload = s[0],
		.cs = s[1],
		.params = s[2],
		.metric = s[3],
		.unit = s[4],
		.better = g->better,
		.median = pt_quantile_sorted(g->vals.v, g->vals.n, 0.5),
		.primary = is_primary(u, s[0], s[1], s[3]),
	};
	g->vals.n = 0;
	return 0;
}

/* Start a new (run, series) group at the row st is on. */
static void start(struct group *g, sqlite3_stmt *st, const struct pt_fleet_data *d)
{
	struct pt_fleet_run key, *r;
	bool new_run = strcmp(g->k.run, pt_hist_text(st, 0)) != 0;

	pt_hist_series_start(&g->k, st);
	if (new_run) { /* rows come grouped by run: look each up once */
		snprintf(key.id, sizeof(key.id), "%s", g->k.run);
		r = bsearch(&key, d->runs, d->nruns, sizeof(*d->runs), run_cmp);
		g->run = r ? r - d->runs : -1;
	}
	if (pt_better_parse(pt_hist_text(st, 6), &g->better))
		g->better = PT_NEITHER;
}

static enum pt_history_err load_rows(struct pt_history *h, struct pt_fleet_data *d,
				     const struct primaries *u, char *err, size_t errlen)
{
	static const char sql[] = "SELECT run_id, workload, cs, params, metric, unit, better, value"
				  " FROM rows ORDER BY run_id, workload, cs, params, metric";
	struct group g = { .run = -1 };
	sqlite3_stmt *st;
	int rc, fail = 0;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(h, err, errlen, "cannot read the rows");
	while (!fail && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!pt_hist_same_series(&g.k, st)) {
			fail = g.run >= 0 && flush(d, &g, u);
			g.vals.n = 0;
			start(&g, st, d);
		}
		if (!fail && g.run >= 0)
			fail = pt_dvec_push(&g.vals, sqlite3_column_double(st, 7));
	}
	if (!fail && g.run >= 0)
		fail = flush(d, &g, u);
	sqlite3_finalize(st);
	pt_dvec_free(&g.vals);
	if (fail)
		return pt_errf(err, errlen, "%s: out of memory reading the rows", h->path),
		       PT_HIST_EIO;
	if (rc != SQLITE_DONE)
		return db_fail(h, err, errlen, "cannot read the rows");
	return PT_HIST_OK;
}

enum pt_history_err pt_fleet_load(struct pt_history *h, const char *const *tags, size_t ntags,
				  struct pt_fleet_data *d, char *err, size_t errlen)
{
	struct primaries u = { 0 };
	enum pt_history_err e;

	memset(d, 0, sizeof(*d));
	if (ntags > PT_FLEET_MAX_TAGS)
		return pt_errf(err, errlen, "more than %d tags", PT_FLEET_MAX_TAGS), PT_HIST_EINPUT;
	e = load_runs(h, tags, ntags, d, &u, err, errlen);
	if (!e)
		e = load_rows(h, d, &u, err, errlen);
	if (!e && !d->npts) {
		pt_errf(err, errlen, "%s: the %zu run(s)%s hold no rows: nothing to report",
			h->path, d->nruns, ntags ? " with the tags given" : "");
		e = PT_HIST_EINPUT;
	}
	primaries_free(&u);
	return e;
}

void pt_fleet_data_free(struct pt_fleet_data *d)
{
	pt_strpool_free(&d->strs);
	free(d->pts);
	free(d->runs);
	memset(d, 0, sizeof(*d));
}
