// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pool_aa.h"
#include "analysis/pool_data.h"
#include "analysis/rundir.h"
#include "util/errf.h"
#include "util/stats.h"

/* P(X <= k) for X ~ Binomial(n, p). */
static double binom_cdf(size_t k, size_t n, double p)
{
	double s = 0;
	size_t i;

	for (i = 0; i <= k && i <= n; i++)
		s += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			 lgamma((double)(n - i) + 1) + (double)i * log(p) +
			 (double)(n - i) * log1p(-p));
	return s;
}

double pt_binom_upper95(size_t k, size_t n)
{
	double lo = 0, hi = 1;
	int i;

	if (!n || k >= n)
		return 1;
	/* the p at which k or fewer successes has probability 2.5% */
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (binom_cdf(k, n, mid) > 0.025)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

struct run_ids {
	char (*id)[64];
	size_t n, cap;
};

static int collect(void *ctx, const struct pt_history_run *r)
{
	struct run_ids *ids = ctx;

	if (ids->n == ids->cap) {
		size_t cap = ids->cap ? 2 * ids->cap : 64;
		char(*nid)[64] = realloc(ids->id, cap * sizeof(*nid));

		if (!nid)
			return 1;
		ids->id = nid;
		ids->cap = cap;
	}
	snprintf(ids->id[ids->n++], sizeof(ids->id[0]), "%s", r->id);
	return 0;
}

/* Roles by position in the oldest-first list: [0, pool) base, [lo, hi) new. */
struct roles {
	const struct run_ids *ids;
	size_t pool, lo, hi;
};

static enum pt_pool_role role_of(void *ctx, const char *id)
{
	const struct roles *r = ctx;
	size_t i;

	for (i = 0; i < r->ids->n; i++)
		if (!strcmp(r->ids->id[i], id))
			return i < r->pool		 ? PT_POOL_BASE
			       : i >= r->lo && i < r->hi ? PT_POOL_NEW
							 : PT_POOL_SKIP;
	return PT_POOL_SKIP;
}

struct aa_ctx {
	struct pt_history *h;
	const struct pt_pool_aa_opts *o;
	struct run_ids ids;
	struct pt_rundir prim; /* the primary metrics of the first judged run */
};

static bool is_primary(const void *ctx, const char *workload, const char *cs, const char *metric)
{
	const struct aa_ctx *x = ctx;
	struct pt_series s = { .workload = (char *)workload,
			       .cs = (char *)cs,
			       .metric = (char *)metric };

	return pt_rundir_is_primary(&x->prim, &s);
}

/* The gate's options, as compare --baseline-db would have them. */
static struct pt_pool_opts pool_opts(const struct aa_ctx *x)
{
	return (struct pt_pool_opts){
		.alpha = x->o->alpha,
		.threshold_pct = x->o->threshold_pct,
		.min_pool = x->o->pool,
		.is_primary = x->prim.nprimary ? is_primary : NULL,
		.primary_ctx = x,
		.run_effect = x->o->run_effect,
		.split_effect = x->o->split_effect,
		.in_kernel = x->o->in_kernel,
		.factors = x->o->factors,
		.round_effect = x->o->round_effect,
		.trim = x->o->trim,
		.serial = x->o->serial,
		.serial_rho = x->o->serial_rho,
		.moderate = x->o->moderate,
	};
}

/* The runs' times, for the serial correlation: those of the data loaded. */
static void with_times(struct pt_pool_opts *po, const struct pt_pool_data *d)
{
	po->run_start = d->start;
	po->run_end = d->end;
	po->nrun_times = d->runs;
}

static enum pt_history_err judge(struct aa_ctx *x, size_t lo, size_t hi, struct pt_pool_data *d,
				 struct pt_pool_result *res, char *err, size_t errlen)
{
	struct roles r = { &x->ids, x->o->pool, lo, hi };
	struct pt_pool_opts po = pool_opts(x);
	enum pt_history_err e;

	memset(d, 0, sizeof(*d));
	e = pt_pool_load_roles(x->h, x->o->tag, x->o->suite, role_of, &r, d, err, errlen);
	if (e)
		return e;
	with_times(&po, d);
	if (pt_pool_compare(d->pts, d->n, d->pool_runs, d->new_runs, &po, res)) {
		pt_pool_data_free(d);
		pt_errf(err, errlen, "out of memory");
		return PT_HIST_EIO;
	}
	return PT_HIST_OK;
}

static bool same_series(const struct pt_pool_point *p, const struct pt_pool_point *key)
{
	return !strcmp(p->workload, key->workload) && !strcmp(p->cs, key->cs) &&
	       !strcmp(p->params, key->params) && !strcmp(p->metric, key->metric);
}

/*
 * Slow point p by f: its statistic and, for the round effect, a copy of its
 * repetitions (the data's own stay as they are), kept in *copy. 0, or -1
 * when out of memory.
 */
static int slow(struct pt_pool_point *p, double f, double **copy)
{
	size_t k;

	p->stat *= f;
	*copy = NULL;
	if (!p->nvals)
		return 0;
	*copy = malloc(p->nvals * sizeof(**copy));
	if (!*copy)
		return -1;
	for (k = 0; k < p->nvals; k++)
		(*copy)[k] = p->vals[k] * f;
	p->vals = *copy;
	return 0;
}

/* Slow every NEW point of row w's series by the injected factor and judge a copy. */
static bool caught(struct aa_ctx *x, struct pt_pool_data *d, const struct pt_pool_row *w)
{
	struct pt_pool_opts po = pool_opts(x);
	double f = 1 + x->o->inject_pct / 100;
	struct pt_pool_point *pts = malloc(d->n * sizeof(*pts));
	double **copies = calloc(d->n + 1, sizeof(*copies));
	struct pt_pool_result res;
	bool hit = false, oom = !pts || !copies;
	size_t i;

	with_times(&po, d);
	for (i = 0; !oom && i < d->n; i++) {
		pts[i] = d->pts[i];
		if (pts[i].is_new && same_series(&pts[i], w->key))
			oom = slow(&pts[i], pts[i].better == PT_HIGHER ? 1 / f : f, &copies[i]);
	}
	if (!oom && !pt_pool_compare(pts, d->n, d->pool_runs, d->new_runs, &po, &res)) {
		for (i = 0; i < res.n; i++)
			if (res.rows[i].verdict == PT_V_WORSE &&
			    same_series(res.rows[i].key, w->key))
				hit = true;
		pt_pool_result_free(&res);
	}
	for (i = 0; copies && i < d->n; i++)
		free(copies[i]);
	free(copies);
	free(pts);
	return hit;
}

/* Per gated series, in how many of the injected sets its slowdown was caught. */
struct tally_row {
	char *workload, *cs, *params, *metric;
	size_t hits, sets; /* a series untested in some set counts only the sets that tested it */
};

struct tally {
	struct tally_row *row;
	size_t n, cap;
};

static void tally_free(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->row[i].workload);
		free(t->row[i].cs);
		free(t->row[i].params);
		free(t->row[i].metric);
	}
	free(t->row);
	memset(t, 0, sizeof(*t));
}

/* Count a hit (or only the series) of key; -1 when out of memory. */
static int tally_add(struct tally *t, const struct pt_pool_point *key, bool hit)
{
	struct tally_row *r;
	size_t i;

	for (i = 0; i < t->n; i++) {
		r = &t->row[i];
		if (!strcmp(r->workload, key->workload) && !strcmp(r->cs, key->cs) &&
		    !strcmp(r->params, key->params) && !strcmp(r->metric, key->metric)) {
			r->hits += hit;
			r->sets++;
			return 0;
		}
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct tally_row *nr = realloc(t->row, cap * sizeof(*nr));

		if (!nr)
			return -1;
		t->row = nr;
		t->cap = cap;
	}
	r = &t->row[t->n];
	r->workload = strdup(key->workload);
	r->cs = strdup(key->cs);
	r->params = strdup(key->params);
	r->metric = strdup(key->metric);
	r->hits = hit;
	r->sets = 1;
	t->n++;
	if (!r->workload || !r->cs || !r->params || !r->metric)
		return -1;
	return 0;
}

/*
 * Inject into each tested series of the NEW set [lo, hi) in turn; *hits of
 * *tried were caught. verbose: the header and a line per series; t, if
 * given, counts each series' hit.
 */
static enum pt_history_err inject(struct aa_ctx *x, size_t lo, size_t hi, bool verbose,
				  struct tally *t, size_t *tried, size_t *hits, double *det,
				  char *err, size_t errlen)
{
	struct pt_pool_data d;
	struct pt_pool_result res;
	enum pt_history_err e = judge(x, lo, hi, &d, &res, err, errlen);
	char trim[48];
	size_t i;

	if (e)
		return e;
	*det = res.median_detectable_pct;
	*tried = *hits = 0;
	pt_trim_str(x->o->trim, trim, sizeof(trim));
	if (verbose)
		fprintf(x->o->out,
			"\n%+.0f%% injected into %zu NEW run(s), one gated series at a time (run "
			"factors: %zu; run effect split: %s; round effect taken out of %zu runs; "
			"trim %s; serial correlation at lag 1 %.2f, 2 %.2f, 3 %.2f: the NEW runs "
			"count as %.2f):\n",
			x->o->inject_pct, hi - lo, res.factors, res.split_kernel ? "yes" : "no",
			res.round_runs, trim, res.serial.rho[1], res.serial.rho[2],
			res.serial.rho[3], res.new_effective);
	if (verbose && res.prior.series)
		fprintf(x->o->out,
			"  (spread moderated over %zu series: prior degrees of freedom %.1f, "
			"spread %.1f%%)\n",
			res.prior.series, res.prior.df, (exp(sqrt(res.prior.var)) - 1) * 100);
	for (i = 0; !e && i < res.n; i++) {
		const struct pt_pool_row *w = &res.rows[i];
		bool hit;

		/* the run effect is no series of the runs: nothing to inject into */
		if (!w->tested || w->key->run_effect)
			continue;
		hit = caught(x, &d, w);
		*tried += 1;
		*hits += hit;
		if (t && tally_add(t, w->key, hit)) {
			pt_errf(err, errlen, "out of memory");
			e = PT_HIST_EIO;
		}
		if (verbose)
			fprintf(x->o->out,
				"  %-10s %-36s %-18s spread %5.1f%%  detectable %5.1f%%  %s\n",
				w->key->workload, w->key->cs, w->key->metric,
				(exp(w->pool_sd) - 1) * 100, w->detectable_pct,
				hit ? "caught" : "missed");
	}
	pt_pool_result_free(&res);
	pt_pool_data_free(&d);
	return e;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* The summary of inject_sets: caught per set, and per series over the sets. */
static void report_sets(struct aa_ctx *x, struct pt_pool_aa_result *r, const struct tally *t,
			size_t *count, size_t sets)
{
	size_t i, need = (8 * sets + 9) / 10; /* at least 80% of the sets */

	qsort(count, sets, sizeof(*count), cmp_size);
	r->sets_injected = sets;
	r->sets_caught_min = count[0];
	r->sets_caught_max = count[sets - 1];
	r->sets_caught_median =
		sets % 2 ? (double)count[sets / 2]
			 : ((double)count[sets / 2 - 1] + (double)count[sets / 2]) / 2;
	r->series_caught80 = 0;
	fprintf(x->o->out, "per series, the sets that caught it:\n");
	for (i = 0; i < t->n; i++) {
		/* at least 80% of the sets that tested it */
		r->series_caught80 += 10 * t->row[i].hits >= 8 * t->row[i].sets;
		fprintf(x->o->out, "  %-10s %-36s %-18s caught in %zu of %zu sets\n",
			t->row[i].workload, t->row[i].cs, t->row[i].metric, t->row[i].hits,
			t->row[i].sets);
	}
	fprintf(x->o->out,
		"%+.0f%% over %zu sets of %zu NEW runs: caught in a median %.1f of %zu gated "
		"series per set (%zu to %zu); %zu series caught in at least %zu of the %zu sets "
		"(80%%)\n",
		x->o->inject_pct, sets, x->o->news, r->sets_caught_median, t->n, r->sets_caught_min,
		r->sets_caught_max, r->series_caught80, need, sets);
}

/*
 * The injection repeated in each disjoint set of news runs after the pool
 * (as many as inject_sets asks, 0: all that fit), the first set already
 * counted in t, count[0]. One line per set as it ends: with a large pool
 * each set takes a while.
 */
static enum pt_history_err inject_sets(struct aa_ctx *x, struct pt_pool_aa_result *r,
				       struct tally *t, size_t first_tried, size_t first_hits,
				       double first_det, char *err, size_t errlen)
{
	size_t n = x->o->news, pool = x->o->pool, fit = (x->ids.n - pool) / n;
	size_t sets = x->o->inject_sets && x->o->inject_sets < fit ? x->o->inject_sets : fit;
	size_t *count, s, tried;
	enum pt_history_err e = PT_HIST_OK;
	double det;

	if (sets < 2) {
		fprintf(x->o->out,
			"\n--inject-sets: %zu full set%s of %zu NEW runs after the pool of %zu; no "
			"more to inject into\n",
			fit, fit == 1 ? "" : "s", n, pool);
		return PT_HIST_OK;
	}
	count = malloc(sets * sizeof(*count));
	if (!count) {
		pt_errf(err, errlen, "out of memory");
		return PT_HIST_EIO;
	}
	fprintf(x->o->out,
		"\n%+.0f%% injected into each of %zu disjoint sets of %zu NEW runs after the "
		"pool, one gated series at a time:\n",
		x->o->inject_pct, sets, n);
	count[0] = first_hits;
	tried = first_tried;
	det = first_det;
	for (s = 0; !e && s < sets; s++) {
		if (s)
			e = inject(x, pool + s * n, pool + (s + 1) * n, false, t, &tried, &count[s],
				   &det, err, errlen);
		if (e)
			break;
		fprintf(x->o->out,
			"  set %zu (runs %zu-%zu after the pool): caught %zu of %zu, median "
			"detectable %.1f%%\n",
			s + 1, s * n + 1, (s + 1) * n, count[s], tried, det);
		fflush(x->o->out);
	}
	if (!e)
		report_sets(x, r, t, count, sets);
	free(count);
	return e;
}

/* Judge runs [lo, hi) after the pool together, as an A/A trial: one line, *fired. */
static enum pt_history_err aa_one(struct aa_ctx *x, size_t lo, size_t hi, bool *fired, char *err,
				  size_t errlen)
{
	struct pt_pool_data d;
	struct pt_pool_result res;
	enum pt_history_err e = judge(x, lo, hi, &d, &res, err, errlen);
	size_t k;

	if (e)
		return e;
	*fired = res.regressions > 0;
	fprintf(x->o->out, "  %s%s: %s", x->ids.id[lo], hi > lo + 1 ? ".." : "",
		*fired ? "FIRED" : "quiet");
	for (k = 0; k < res.n; k++)
		if (res.rows[k].verdict == PT_V_WORSE)
			fprintf(x->o->out, " %s/%s %+.1f%%", res.rows[k].key->workload,
				res.rows[k].key->cs, res.rows[k].change_pct);
	fputc('\n', x->o->out);
	pt_pool_result_free(&res);
	pt_pool_data_free(&d);
	return PT_HIST_OK;
}

/*
 * Every run after the pool judged alone; then, with news > 1, disjoint
 * sets of news consecutive runs judged together, as a CI job's NEW runs
 * are: runs made one after the other share the host's drift of those
 * minutes, which the pool's spread of single runs does not promise to
 * cover.
 */
static enum pt_history_err aa_trials(struct aa_ctx *x, struct pt_pool_aa_result *r, char *err,
				     size_t errlen)
{
	enum pt_history_err e = PT_HIST_OK;
	size_t j, n = x->o->news;
	bool fired;

	fprintf(x->o->out, "A/A: each run after the first %zu judged alone against them:\n",
		x->o->pool);
	for (j = x->o->pool; !e && j < x->ids.n; j++) {
		e = aa_one(x, j, j + 1, &fired, err, errlen);
		r->trials++;
		r->fired += fired;
	}
	if (e)
		return e;
	r->fired_upper95 = pt_binom_upper95(r->fired, r->trials);
	fprintf(x->o->out,
		"A/A: the gate fired on %zu of %zu runs; 95%% upper bound of the rate %.3f\n",
		r->fired, r->trials, r->fired_upper95);
	if (n < 2 || x->ids.n - x->o->pool < n)
		return PT_HIST_OK;
	fprintf(x->o->out,
		"\nA/A: each %zu consecutive runs after the first %zu judged together:\n", n,
		x->o->pool);
	for (j = x->o->pool; !e && j + n <= x->ids.n; j += n) {
		e = aa_one(x, j, j + n, &fired, err, errlen);
		r->set_trials++;
		r->set_fired += fired;
	}
	if (e)
		return e;
	r->set_fired_upper95 = pt_binom_upper95(r->set_fired, r->set_trials);
	fprintf(x->o->out,
		"A/A: the gate fired on %zu of %zu sets of %zu; 95%% upper bound of the rate "
		"%.3f\n",
		r->set_fired, r->set_trials, n, r->set_fired_upper95);
	return PT_HIST_OK;
}

static enum pt_history_err load_primaries(struct aa_ctx *x, char *err, size_t errlen)
{
	enum pt_history_err e;
	char *meta;

	e = pt_history_meta(x->h, x->ids.id[x->o->pool], &meta, err, errlen);
	if (e)
		return e;
	if (meta && pt_meta_primaries(meta, x->ids.id[x->o->pool], &x->prim, err, errlen)) {
		free(meta);
		return PT_HIST_EINPUT;
	}
	free(meta);
	return PT_HIST_OK;
}

enum pt_history_err pt_pool_aa(struct pt_history *h, const struct pt_pool_aa_opts *o,
			       struct pt_pool_aa_result *r, char *err, size_t errlen)
{
	struct pt_history_filter f = { .tag = o->tag, .suite = o->suite };
	struct aa_ctx x = { .h = h, .o = o };
	struct tally t = { 0 };
	enum pt_history_err e;
	size_t hi;

	memset(r, 0, sizeof(*r));
	e = pt_history_list(h, &f, collect, &x.ids, err, errlen);
	r->runs = x.ids.n;
	if (!e && x.ids.n < o->pool + 1) {
		pt_errf(err, errlen,
			"%zu run(s) match; the pool of %zu and at least one more are needed",
			x.ids.n, o->pool);
		e = PT_HIST_EINPUT;
	}
	if (!e)
		e = load_primaries(&x, err, errlen);
	if (!e)
		e = aa_trials(&x, r, err, errlen);
	hi = o->pool + (o->news < x.ids.n - o->pool ? o->news : x.ids.n - o->pool);
	if (!e)
		e = inject(&x, o->pool, hi, true, o->inject_sets != 1 ? &t : NULL, &r->injected,
			   &r->caught_news, &r->detectable_news_pct, err, errlen);
	if (!e && hi > o->pool + 1) {
		size_t tried, hits;

		e = inject(&x, o->pool, o->pool + 1, true, NULL, &tried, &hits,
			   &r->detectable_one_pct, err, errlen);
		r->caught_one = hits;
	} else {
		r->caught_one = r->caught_news;
		r->detectable_one_pct = r->detectable_news_pct;
	}
	if (!e)
		fprintf(o->out,
			"\n%+.0f%% caught in %zu of %zu gated series with %zu NEW run(s), %zu with "
			"one; median smallest detectable change %.1f%% (%zu NEW), %.1f%% (one)\n",
			o->inject_pct, r->caught_news, r->injected, hi - o->pool, r->caught_one,
			r->detectable_news_pct, hi - o->pool, r->detectable_one_pct);
	if (!e && o->inject_sets != 1)
		e = inject_sets(&x, r, &t, r->injected, r->caught_news, r->detectable_news_pct, err,
				errlen);
	tally_free(&t);
	free(x.ids.id);
	pt_rundir_free(&x.prim);
	return e;
}
