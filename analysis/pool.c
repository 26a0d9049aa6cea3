// SPDX-License-Identifier: GPL-2.0-only
#include <fnmatch.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pool.h"
#include "analysis/pool_factors.h"
#include "analysis/pool_rounds.h"
#include "util/linalg.h"
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

/* A duration: host drift scales it with the rest of the run. */
static bool is_timed(const struct pt_pool_point *p)
{
	return pt_unit_is_timed(p->unit);
}

/*
 * The run effect's data: for each run and each gated timed series (a
 * reference), ln(run statistic) less the pool's median of that series.
 */
struct effects {
	size_t nrun, nref;
	double *dev; /* nrun x nref, NAN where the run lacks the series */
	const struct pt_pool_point **ref; /* each reference's first point (its key) */
	const char **group; /* each reference's workload */
	bool *in_pool; /* nrun: a pool run's, not a NEW run's */
	bool *kernel; /* nref: the reference's time is the kernel's (opts.in_kernel) */
	bool split; /* the run effect in two parts (pool.h) */
	double *tmp; /* nref scratch */
	struct pt_pool_factors fac; /* what each timed gated series is regressed on */
};

/* The references a run effect is the median over. */
enum part { ALL, KERNEL, USER };

/*
 * Run r's effect over part: the median of its deviations, reference skip
 * (if < nref) left out; NAN if none.
 */
static double effect_of(const struct effects *ef, size_t r, size_t skip, enum part part)
{
	size_t j, m = 0;

	for (j = 0; j < ef->nref; j++)
		if (j != skip && !isnan(ef->dev[r * ef->nref + j]) &&
		    (part == ALL || ef->kernel[j] == (part == KERNEL)))
			ef->tmp[m++] = ef->dev[r * ef->nref + j];
	if (!m)
		return NAN;
	pt_sort_doubles(ef->tmp, m);
	return pt_quantile_sorted(ef->tmp, m, 0.5);
}

static size_t ref_index(const struct effects *ef, const struct pt_pool_point *key)
{
	size_t j;

	for (j = 0; j < ef->nref; j++)
		if (!point_cmp(ef->ref[j], key))
			return j;
	return ef->nref;
}

/* The regression's sums: X'X and X'y over the pool, X = (1, the run's scores). */
struct design {
	size_t p; /* 1 + factors */
	double xtx[(PT_POOL_FACTORS_MAX + 1) * (PT_POOL_FACTORS_MAX + 1)];
	double xty[PT_POOL_FACTORS_MAX + 1], yy;
	double xnew[PT_POOL_FACTORS_MAX + 1], ynew; /* sums over the NEW runs */
	size_t k, n;
};

static void design_add(struct design *d, const double *x, double y, bool is_new)
{
	size_t a, b;

	if (is_new) {
		for (a = 0; a < d->p; a++)
			d->xnew[a] += x[a];
		d->ynew += y;
		d->n++;
		return;
	}
	for (a = 0; a < d->p; a++) {
		for (b = 0; b < d->p; b++)
			d->xtx[a * d->p + b] += x[a] * x[b];
		d->xty[a] += x[a] * y;
	}
	d->yy += y * y;
	d->k++;
}

/*
 * A run's covariates for reference j: its factor scores without j's
 * workload, or with no factors its run effect without j itself (two
 * parts when split).
 */
static bool covariates(const struct effects *ef, const struct pt_pool_point *p, size_t j, double *x,
		       bool *own)
{
	if (ef->fac.k)
		return pt_pool_factors_scores(&ef->fac, p->run, p->workload, j, x, own);
	*own = true;
	if (ef->split) {
		x[0] = effect_of(ef, p->run, j, KERNEL);
		x[1] = effect_of(ef, p->run, j, USER);
		return !isnan(x[0]) && !isnan(x[1]);
	}
	x[0] = effect_of(ef, p->run, j, ALL);
	return !isnan(x[0]);
}

/* How many covariates each reference is regressed on. */
static size_t ncovariates(const struct effects *ef)
{
	return ef->fac.k ? ef->fac.k : ef->split ? 2 : 1;
}

/* One series' regression over the pool on its covariates: the sums and the least-squares b. */
struct fit {
	struct design s;
	double beta[PT_POOL_FACTORS_MAX + 1];
	bool own;
};

/*
 * Fit g's pool points (reference j) on their covariates; false when the
 * pool is too small, a run has no scores or the scores did not vary.
 */
static bool fit_series(const struct pt_pool_point *g, size_t len, const struct effects *ef,
		       size_t j, struct fit *f)
{
	size_t i, nf = ncovariates(ef);
	double x[PT_POOL_FACTORS_MAX + 1];
	double m[(PT_POOL_FACTORS_MAX + 1) * (PT_POOL_FACTORS_MAX + 1)];

	memset(f, 0, sizeof(*f));
	f->s.p = nf + 1;
	if (j == ef->nref)
		return false;
	for (i = 0; i < len; i++) {
		x[0] = 1;
		if (!covariates(ef, &g[i], j, x + 1, &f->own))
			return false;
		design_add(&f->s, x, log(g[i].stat), g[i].is_new);
	}
	/* at least one degree of freedom: 3 pool runs for the run effect, as the text says */
	if (f->s.k < nf + 2)
		return false;
	memcpy(m, f->s.xtx, sizeof(m));
	memcpy(f->beta, f->s.xty, sizeof(f->beta));
	return !pt_solve(m, f->beta, f->s.p);
}

/*
 * Test w on its residuals from the run effect or factors: a
 * regression on the pool's runs, the NEW runs' mean residual as *d and
 * its standard error s sqrt(vn + x' (X'X)^-1 x dk) at their mean scores x,
 * vn and dk the serial terms (row_fill: 1/n and 1 for independent runs).
 * Left as it is when the pool is too small or a run has no scores.
 */
static void adjust(struct pt_pool_row *w, const struct pt_pool_point *g, size_t len,
		   const struct effects *ef, double vn, double dk, double *d)
{
	size_t a;
	struct fit f;
	double x[PT_POOL_FACTORS_MAX + 1], v[PT_POOL_FACTORS_MAX + 1];
	double m[(PT_POOL_FACTORS_MAX + 1) * (PT_POOL_FACTORS_MAX + 1)], rss, h;

	if (!fit_series(g, len, ef, ref_index(ef, w->key), &f) || !f.s.n)
		return;
	/* rss = y'y - b'X'y at the least-squares b */
	rss = f.s.yy;
	for (a = 0; a < f.s.p; a++)
		rss -= f.beta[a] * f.s.xty[a];
	for (a = 0; a < f.s.p; a++)
		x[a] = f.s.xnew[a] / (double)f.s.n;
	/* the leverage x' (X'X)^-1 x, from (X'X) v = x */
	memcpy(m, f.s.xtx, sizeof(m));
	memcpy(v, x, sizeof(v));
	if (pt_solve(m, v, f.s.p))
		return;
	for (a = 0, h = 0; a < f.s.p; a++)
		h += x[a] * v[a];
	*d = f.s.ynew / (double)f.s.n;
	for (a = 0; a < f.s.p; a++)
		*d -= f.beta[a] * x[a];
	w->adjusted = true;
	w->factors = ef->fac.k;
	w->own_workload = f.own;
	w->slope = f.beta[1];
	w->slope_user = ef->split ? f.beta[2] : NAN;
	w->df = (double)(f.s.k - f.s.p);
	w->pool_sd = sqrt(fmax(0, rss) / w->df);
	w->se = w->pool_sd * sqrt(vn + fmax(0, h) * dk);
}

/* Gating as in compare: primary metrics and gate=on; gate=off shows only. */
static void row_gate(struct pt_pool_row *w, const struct pt_pool_opts *o, bool *off_by_config)
{
	const struct pt_pool_point *p = w->key;
	char name[768];
	bool on = true;

	w->alpha = o->alpha;
	w->threshold_pct = o->threshold_pct;
	w->gated = !o->is_primary || p->run_effect ||
		   o->is_primary(o->primary_ctx, p->workload, p->cs, p->metric);
	snprintf(name, sizeof(name), "%s/%s/%s", p->workload, p->cs, p->metric);
	pt_cmp_config_lookup(o->config, name, &w->alpha, &w->threshold_pct, &w->gated);
	pt_cmp_config_lookup(o->config, name, &w->alpha, &w->threshold_pct, &on);
	*off_by_config = !on;
}

/* Means and spread of ln(run statistic) on each side; false when one is not > 0. */
static bool row_moments(struct pt_pool_row *w, const struct pt_pool_point *g, size_t len)
{
	double sp = 0, sq = 0, sn = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		double y;

		if (!(g[i].stat > 0))
			return false;
		y = log(g[i].stat);
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
	w->df = (double)w->k - 1; /* the standard error is row_fill's, with the serial terms */
	return true;
}

/* The test of d = the NEW runs' mean less the pool's (ln scale), with w->se and w->df. */
static void row_test(struct pt_pool_row *w, double d)
{
	w->diff = d;
	w->change_pct = (exp(d) - 1) * 100;
	if (w->se == 0) {
		/* every pool run gave the same value: any difference is real */
		w->t = d == 0 ? 0 : copysign(INFINITY, d);
		w->p = d == 0 ? 1 : 0;
	} else {
		w->t = d / w->se;
		w->p = pt_t_sf(fabs(w->t), w->df);
		if (w->key->better == PT_NEITHER)
			w->p = fmin(1, 2 * w->p);
	}
	w->tested = true;
}

/*
 * The sum of the correlations between the pool runs (*sk) and between the
 * NEW runs (*sn) of g, lag by lag along their chains of runs made back to
 * back: k and n when independent. 0, or -1 when out of memory.
 */
static int serial_sums(const struct pt_pool_point *g, size_t len, const struct pt_pool_opts *o,
		       const struct pt_pool_serial *ser, double *sk, double *sn)
{
	unsigned *runs = malloc((len ? len : 1) * sizeof(*runs));
	size_t side, i, m;
	int ret = 0;

	if (!runs)
		return -1;
	for (side = 0; side < 2 && !ret; side++) {
		struct pt_pool_chain c;

		for (i = 0, m = 0; i < len; i++)
			if (g[i].is_new == (side == 1))
				runs[m++] = g[i].run;
		if (pt_pool_chain_make(o->run_start, o->run_end, o->nrun_times, runs, m, &c)) {
			ret = -1;
			break;
		}
		*(side ? sn : sk) = pt_pool_serial_sum(ser, &c);
		pt_pool_chain_free(&c);
	}
	free(runs);
	return ret;
}

static int row_fill(struct pt_pool_row *w, const struct pt_pool_point *g, size_t len,
		    const struct pt_pool_opts *o, const struct effects *ef,
		    const struct pt_pool_serial *ser)
{
	bool off_by_config;
	double d, sk, sn, vn, dk;

	w->key = &g[0];
	w->t = w->p = w->p_adj = w->detectable_pct = w->change_pct = NAN;
	w->diff = w->series_sd = NAN;
	row_gate(w, o, &off_by_config);
	if (!row_moments(w, g, len)) {
		/* a statistic <= 0 has no log: not testable here, only shown when not gated */
		w->verdict = w->gated ? PT_V_TOO_FEW : off_by_config ? PT_V_UNGATED : PT_V_INFO;
		return 0;
	}
	if (!w->n) {
		w->verdict = PT_V_BASE_ONLY;
		return 0;
	}
	if (!w->k) {
		w->verdict = PT_V_NEW_ONLY;
		return 0;
	}
	w->change_pct = (exp(w->new_mean - w->pool_mean) - 1) * 100;
	if (!w->gated) {
		w->verdict = off_by_config ? PT_V_UNGATED : PT_V_INFO;
		return 0;
	}
	if (w->k < o->min_pool || w->k < 2) {
		w->verdict = PT_V_TOO_FEW;
		return 0;
	}
	if (serial_sums(g, len, o, ser, &sk, &sn))
		return -1;
	/* the variance of the NEW mean over s^2, and the pool's over s^2 / k */
	vn = sn / ((double)w->n * (double)w->n);
	dk = sk / (double)w->k;
	w->se = w->pool_sd * sqrt(vn + dk / (double)w->k);
	w->raw_change_pct = w->change_pct;
	d = w->new_mean - w->pool_mean;
	if (ef && is_timed(w->key))
		adjust(w, g, len, ef, vn, dk, &d);
	row_test(w, d);
	return 0;
}

/*
 * --spread moderated: the prior from the variances of the tested gated
 * timed series, then each of them retested with its moderated variance and
 * degrees of freedom. Timings only: a page-table byte count that one run
 * moved by a few bytes has a spread of 1e-7, and one such variance among
 * the timings' (1e-2 to 1e-1) would make the prior's degrees of freedom
 * nearly 0. The run effect's own row is the whole run's spread, not one
 * more series'. The serial and leverage terms of its
 * standard error stay as they were; only the spread they multiply changes.
 */
static int moderate(struct pt_pool_result *r)
{
	double *var = malloc((r->n ? r->n : 1) * sizeof(*var));
	double *df = malloc((r->n ? r->n : 1) * sizeof(*df));
	size_t i;

	if (!var || !df) {
		free(var);
		free(df);
		return -1;
	}
	for (i = 0; i < r->n; i++) {
		const struct pt_pool_row *w = &r->rows[i];
		bool use = w->tested && is_timed(w->key) && !w->key->run_effect && w->se > 0 &&
			   w->pool_sd > 0;

		var[i] = use ? w->pool_sd * w->pool_sd : NAN;
		df[i] = use ? w->df : NAN;
	}
	if (!pt_pool_prior_fit(var, df, r->n, &r->prior)) {
		for (i = 0; i < r->n; i++) {
			struct pt_pool_row *w = &r->rows[i];
			double v, dfn;

			if (isnan(var[i]))
				continue;
			v = pt_pool_prior_var(&r->prior, var[i], df[i], &dfn);
			w->series_sd = w->pool_sd;
			w->pool_sd = sqrt(v);
			w->se *= w->pool_sd / w->series_sd;
			w->df = dfn;
			w->moderated = true;
			row_test(w, w->diff);
		}
	}
	free(var);
	free(df);
	return 0;
}

/* The change in the worse direction a test at level a would just detect. */
static double detectable(const struct pt_pool_row *w, double a)
{
	double d;

	if (w->se == 0)
		return 0;
	if (w->key->better == PT_NEITHER)
		a /= 2;
	d = pt_t_isf(a, w->df) * w->se;
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

static void effects_free(struct effects *ef)
{
	pt_pool_factors_free(&ef->fac);
	free(ef->dev);
	free(ef->ref);
	free(ef->group);
	free(ef->in_pool);
	free(ef->kernel);
	free(ef->tmp);
	memset(ef, 0, sizeof(*ef));
}

/* A gated timed series: one the run effect is taken from. */
static bool is_reference(const struct pt_pool_point *p, const struct pt_pool_opts *o)
{
	struct pt_pool_row w = { .key = p };
	bool off;

	if (!is_timed(p))
		return false;
	row_gate(&w, o, &off);
	return w.gated && !off;
}

/* Take each interleaved run's round effect out of its reference points' statistics. */
static int rounds(struct pt_pool_point *pts, size_t npts, const size_t *at, size_t ng,
		  const struct pt_pool_opts *o, size_t *adjusted)
{
	bool *is_ref = malloc((npts ? npts : 1) * sizeof(*is_ref));
	size_t g, i;
	int ret;

	if (!is_ref)
		return -1;
	for (g = 0; g < ng; g++) {
		bool ref = is_reference(&pts[at[g]], o);

		for (i = at[g]; i < at[g + 1]; i++)
			is_ref[i] = ref;
	}
	ret = pt_pool_round_adjust(pts, npts, is_ref, o->trim, adjusted);
	free(is_ref);
	return ret;
}

/*
 * Each point with its repetitions gets the run statistic o->trim asks for,
 * from its values alone: judging the same points twice gives the same.
 */
static int run_stats(struct pt_pool_point *pts, size_t npts, const struct pt_pool_opts *o)
{
	size_t i, most = 1;
	double *scratch;

	for (i = 0; i < npts; i++)
		most = pts[i].nvals > most ? pts[i].nvals : most;
	scratch = malloc(most * sizeof(*scratch));
	if (!scratch)
		return -1;
	for (i = 0; i < npts; i++)
		if (pts[i].nvals)
			pts[i].stat = pt_pool_run_stat(pts[i].vals, pts[i].nvals, o->trim, scratch);
	free(scratch);
	return 0;
}

/* Where each group of sorted pts starts; *ng of them. */
static size_t *group_starts(const struct pt_pool_point *pts, size_t npts, size_t *ng)
{
	size_t *at = malloc((npts + 1) * sizeof(*at)), i;

	*ng = 0;
	if (!at)
		return NULL;
	for (i = 0; i < npts; i++)
		if (!i || point_cmp(&pts[i - 1], &pts[i]))
			at[(*ng)++] = i;
	at[*ng] = npts;
	return at;
}

/* The deviations of every run from the pool, over the reference series. 0, or -1 out of memory. */
static int effects_build(const struct pt_pool_point *pts, size_t npts, const size_t *at, size_t ng,
			 const struct pt_pool_opts *o, struct effects *ef)
{
	double *ln = malloc((npts ? npts : 1) * sizeof(*ln));
	size_t g, i, r, j = 0, nkernel = 0;

	memset(ef, 0, sizeof(*ef));
	if (!ln)
		return -1;
	for (i = 0; i < npts; i++)
		ef->nrun = pts[i].run + 1 > ef->nrun ? pts[i].run + 1 : ef->nrun;
	for (g = 0; g < ng; g++)
		ef->nref += is_reference(&pts[at[g]], o);
	ef->dev = malloc((ef->nrun * ef->nref + 1) * sizeof(*ef->dev));
	ef->ref = malloc((ef->nref + 1) * sizeof(*ef->ref));
	ef->group = malloc((ef->nref + 1) * sizeof(*ef->group));
	ef->in_pool = calloc(ef->nrun + 1, sizeof(*ef->in_pool));
	ef->kernel = calloc(ef->nref + 1, sizeof(*ef->kernel));
	ef->tmp = malloc((ef->nref + 1) * sizeof(*ef->tmp));
	if (!ef->dev || !ef->ref || !ef->group || !ef->in_pool || !ef->kernel || !ef->tmp) {
		free(ln);
		effects_free(ef);
		return -1;
	}
	for (r = 0; r < ef->nrun * ef->nref; r++)
		ef->dev[r] = NAN;
	for (i = 0; i < npts; i++)
		ef->in_pool[pts[i].run] |= !pts[i].is_new;
	for (g = 0; g < ng; g++) {
		size_t m = 0;
		double center;

		if (!is_reference(&pts[at[g]], o))
			continue;
		for (i = at[g]; i < at[g + 1]; i++)
			if (!pts[i].is_new && pts[i].stat > 0)
				ln[m++] = log(pts[i].stat);
		ef->ref[j] = &pts[at[g]];
		ef->group[j] = pts[at[g]].workload;
		ef->kernel[j] = o->in_kernel && o->in_kernel(pts[at[g]].workload);
		nkernel += ef->kernel[j];
		if (m) {
			pt_sort_doubles(ln, m);
			center = pt_quantile_sorted(ln, m, 0.5);
			for (i = at[g]; i < at[g + 1]; i++)
				if (pts[i].stat > 0)
					ef->dev[pts[i].run * ef->nref + j] =
						log(pts[i].stat) - center;
		}
		j++;
	}
	free(ln);
	/* factors replace the run effect, split or not */
	ef->split = o->split_effect && !o->factors && nkernel >= PT_POOL_SPLIT_MIN &&
		    ef->nref - nkernel >= PT_POOL_SPLIT_MIN;
	if (o->factors && pt_pool_factors_fit(&ef->fac, ef->dev, ef->nrun, ef->nref, ef->in_pool,
					      ef->group, o->factors)) {
		effects_free(ef);
		return -1;
	}
	return 0;
}

/* The standard deviation of the pool runs' effects (ln scale); 0 with fewer than two. */
static double effect_spread(const struct effects *ef, const struct pt_pool_point *pts, size_t npts)
{
	double sum = 0, sq = 0;
	size_t run, i, k = 0;

	for (run = 0; run < ef->nrun; run++) {
		double e = effect_of(ef, run, ef->nref, ALL);

		for (i = 0; i < npts && pts[i].run != run; i++)
			;
		if (isnan(e) || i == npts || pts[i].is_new)
			continue;
		sum += e;
		sq += e * e;
		k++;
	}
	return k > 1 ? sqrt(fmax(0, (sq - sum * sum / (double)k) / (double)(k - 1))) : 0;
}

/* The run effect as points of its own, one per run with any reference (into r->effect_pts). */
static size_t effect_points(const struct pt_pool_point *pts, size_t npts, const struct effects *ef,
			    struct pt_pool_result *r)
{
	size_t run, i, n = 0;

	r->effect_pts = calloc(ef->nrun + 1, sizeof(*r->effect_pts));
	if (!r->effect_pts)
		return 0;
	for (run = 0; run < ef->nrun; run++) {
		double e = effect_of(ef, run, ef->nref, ALL);
		struct pt_pool_point *p = &r->effect_pts[n];

		if (isnan(e))
			continue;
		for (i = 0; i < npts && pts[i].run != run; i++)
			;
		*p = (struct pt_pool_point){ .workload = "run",
					     .cs = "effect",
					     .params = "",
					     .metric = "effect_ratio",
					     .unit = "ratio",
					     .better = PT_LOWER,
					     .stat = exp(e),
					     .is_new = i < npts && pts[i].is_new,
					     .run = (unsigned)run,
					     .run_effect = true };
		n++;
	}
	return n;
}

/* The distinct runs of one side (pool or NEW) among pts, into runs[]; how many. */
static size_t side_runs(const struct pt_pool_point *pts, size_t npts, bool is_new, size_t nrun,
			unsigned *runs)
{
	bool *seen = calloc(nrun + 1, sizeof(*seen));
	size_t i, m = 0;

	if (!seen)
		return SIZE_MAX;
	for (i = 0; i < npts; i++)
		if (pts[i].is_new == is_new && !pts[i].run_effect && !seen[pts[i].run]) {
			seen[pts[i].run] = true;
			runs[m++] = pts[i].run;
		}
	free(seen);
	return m;
}

/*
 * One reference's residuals over the pool into e[run]: from its regression
 * on the run effect or factors where ef is given and it can be fitted,
 * else from its pool mean.
 */
static void residuals(const struct pt_pool_point *g, size_t len, const struct effects *ef,
		      double *e)
{
	double x[PT_POOL_FACTORS_MAX + 1], mean = 0;
	size_t i, a, k = 0, j = ef ? ref_index(ef, &g[0]) : 0;
	struct fit f;
	bool own;

	if (ef && fit_series(g, len, ef, j, &f)) {
		for (i = 0; i < len; i++) {
			if (g[i].is_new || !(g[i].stat > 0))
				continue;
			x[0] = 1;
			covariates(ef, &g[i], j, x + 1, &own);
			e[g[i].run] = log(g[i].stat);
			for (a = 0; a < f.s.p; a++)
				e[g[i].run] -= f.beta[a] * x[a];
		}
		return;
	}
	for (i = 0; i < len; i++)
		if (!g[i].is_new && g[i].stat > 0) {
			mean += log(g[i].stat);
			k++;
		}
	for (i = 0; i < len && k; i++)
		if (!g[i].is_new && g[i].stat > 0)
			e[g[i].run] = log(g[i].stat) - mean / (double)k;
}

/*
 * r->serial: the correlation between runs made back to back, given, or
 * estimated from the reference series' residuals over the pool's chain of
 * runs; and r->new_effective. 0, or -1 when out of memory.
 */
static int serial_estimate(const struct pt_pool_point *pts, size_t npts, const size_t *at,
			   size_t ng, const struct pt_pool_opts *o, const struct effects *ef,
			   struct pt_pool_result *r)
{
	size_t nrun = 0, nref = 0, g, i, m;
	unsigned *runs;
	double *res = NULL;
	struct pt_pool_chain c;
	int ret = -1;

	pt_pool_serial_set(&r->serial, o->serial, o->serial_rho);
	for (i = 0; i < npts; i++)
		nrun = pts[i].run + 1 > nrun ? pts[i].run + 1 : nrun;
	for (g = 0; g < ng; g++)
		nref += is_reference(&pts[at[g]], o);
	runs = malloc((nrun + 1) * sizeof(*runs));
	if (o->serial == PT_POOL_SERIAL_AUTO)
		res = malloc((nref * nrun + 1) * sizeof(*res));
	if (!runs || (o->serial == PT_POOL_SERIAL_AUTO && !res))
		goto out;
	if (o->serial == PT_POOL_SERIAL_AUTO) {
		for (i = 0; i < nref * nrun; i++)
			res[i] = NAN;
		for (g = 0, i = 0; g < ng; g++)
			if (is_reference(&pts[at[g]], o))
				residuals(&pts[at[g]], at[g + 1] - at[g], ef, res + nrun * i++);
		m = side_runs(pts, npts, false, nrun, runs);
		if (m == SIZE_MAX ||
		    pt_pool_chain_make(o->run_start, o->run_end, o->nrun_times, runs, m, &c))
			goto out;
		pt_pool_serial_estimate(&r->serial, res, nref, nrun, &c);
		pt_pool_chain_free(&c);
	}
	m = side_runs(pts, npts, true, nrun, runs);
	if (m == SIZE_MAX ||
	    pt_pool_chain_make(o->run_start, o->run_end, o->nrun_times, runs, m, &c))
		goto out;
	r->new_effective = m ? (double)m * (double)m / pt_pool_serial_sum(&r->serial, &c) : NAN;
	pt_pool_chain_free(&c);
	ret = 0;
out:
	free(runs);
	free(res);
	return ret;
}

int pt_pool_compare(struct pt_pool_point *pts, size_t npts, size_t pool_runs, size_t new_runs,
		    const struct pt_pool_opts *o, struct pt_pool_result *r)
{
	struct effects ef = { 0 };
	bool use_ef = false;
	size_t *at, ng, g;

	memset(r, 0, sizeof(*r));
	r->pool_runs = pool_runs;
	r->new_runs = new_runs;
	r->median_detectable_pct = NAN;
	r->effect_spread_pct = NAN;
	r->rows = calloc(npts + 2, sizeof(*r->rows));
	if (!r->rows)
		return -1;
	qsort(pts, npts, sizeof(*pts), point_cmp);
	at = group_starts(pts, npts, &ng);
	if (!at)
		goto oom;
	if (run_stats(pts, npts, o))
		goto oom;
	if (o->round_effect && rounds(pts, npts, at, ng, o, &r->round_runs))
		goto oom;
	if (o->run_effect) {
		if (effects_build(pts, npts, at, ng, o, &ef))
			goto oom;
		/*
		 * A median over fewer than three series is one of them, not the
		 * run; a pool whose runs hardly differ has no effect to take out,
		 * and fitting one only costs degrees of freedom.
		 */
		r->effect_spread_pct = (exp(effect_spread(&ef, pts, npts)) - 1) * 100;
		use_ef = ef.nref >= 3 && r->effect_spread_pct >= PT_POOL_EFFECT_MIN_PCT;
		r->effect_series = use_ef ? ef.nref : 0;
		r->factors = use_ef ? ef.fac.k : 0;
		if (use_ef && ef.split) {
			for (g = 0; g < ef.nref; g++)
				r->split_kernel += ef.kernel[g];
			r->split_user = ef.nref - r->split_kernel;
		}
		r->factor_series = use_ef ? ef.fac.nused : 0;
		memcpy(r->factor_eig, ef.fac.eig, sizeof(r->factor_eig));
	}
	if (serial_estimate(pts, npts, at, ng, o, use_ef ? &ef : NULL, r))
		goto oom;
	for (g = 0; g < ng; g++)
		if (!filtered_out(o, &pts[at[g]]) &&
		    row_fill(&r->rows[r->n++], &pts[at[g]], at[g + 1] - at[g], o,
			     use_ef ? &ef : NULL, &r->serial))
			goto oom;
	if (use_ef) {
		size_t ne = effect_points(pts, npts, &ef, r);

		if (!r->effect_pts)
			goto oom;
		if (ne && row_fill(&r->rows[r->n++], r->effect_pts, ne, o, NULL, &r->serial))
			goto oom;
	}
	free(at);
	effects_free(&ef);
	if ((o->moderate && moderate(r)) || correct(r)) {
		pt_pool_result_free(r);
		return -1;
	}
	count(r);
	return 0;
oom:
	free(at);
	effects_free(&ef);
	pt_pool_result_free(r);
	return -1;
}

void pt_pool_result_free(struct pt_pool_result *r)
{
	free(r->rows);
	free(r->effect_pts);
	r->rows = NULL;
	r->effect_pts = NULL;
	r->n = 0;
}
