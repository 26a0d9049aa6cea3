// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench compare --baseline-db FILE NEW...: NEW runs judged against a pool
 * of earlier runs in a history (analysis/pool.c holds the test; the JSON
 * output is compare_pool_json.c, the JUnit output compare_junit.c).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/history.h"
#include "analysis/pool.h"
#include "analysis/pool_data.h"
#include "analysis/rundir.h"
#include "cli/commands.h"
#include "cli/compare.h"
#include "workloads/workload.h"

struct pool_ctx {
	struct compare_args *a;
	struct pt_rundir *news;
	int nnew;
	struct pt_pool_result res;
};

static bool new_primary(const void *ctx, const char *workload, const char *cs, const char *metric)
{
	const struct pool_ctx *x = ctx;
	struct pt_series s = { .workload = (char *)workload,
			       .cs = (char *)cs,
			       .metric = (char *)metric };
	int i;

	for (i = 0; i < x->nnew; i++)
		if (pt_rundir_is_primary(&x->news[i], &s))
			return true;
	return false;
}

/* The run statistic --trim asked for, in words. */
static void run_stat_text(FILE *f, struct pt_trim t)
{
	char s[48];

	pt_trim_str(t, s, sizeof(s));
	if (t.lo >= 0.5 && t.hi >= 0.5)
		fprintf(f, "Run statistic: each run's median (--trim %s).\n", s);
	else if (t.lo == t.hi)
		fprintf(f,
			"Run statistic: the mean of each run's log repetitions with %g%% cut from "
			"each end (--trim %s; 0.5: the median).\n",
			100 * t.lo, s);
	else if (t.lo + t.hi >= 1)
		fprintf(f,
			"Run statistic: each run's %g%% quantile of its repetitions (--trim %s).\n",
			100 * t.lo / (t.lo + t.hi), s);
	else
		fprintf(f,
			"Run statistic: the mean of each run's log repetitions with %g%% cut from "
			"the low end and %g%% from the high end (--trim %s).\n",
			100 * t.lo, 100 * t.hi, s);
}

/* What the test took of the correlation between runs made back to back (pool_serial.h). */
static void serial_text(FILE *f, const struct pt_pool_result *r)
{
	const struct pt_pool_serial *s = &r->serial;

	if (s->mode == PT_POOL_SERIAL_OFF) {
		fprintf(f, "Runs taken as independent (--serial off).\n");
		return;
	}
	if (s->mode == PT_POOL_SERIAL_AUTO && !s->run_pairs)
		fprintf(f,
			"Serial correlation: no two pool runs were made back to back (within "
			"%.0f s), none estimated: runs taken as independent.\n",
			PT_POOL_SERIAL_GAP_S);
	else if (s->mode == PT_POOL_SERIAL_AUTO)
		fprintf(f,
			"Serial correlation between runs made back to back, from %zu pairs of pool "
			"runs over %zu series: lag 1 %.2f, lag 2 %.2f, lag 3 %.2f (--serial off: "
			"runs independent).\n",
			s->run_pairs, s->series, s->rho[1], s->rho[2], s->rho[3]);
	else
		fprintf(f,
			"Serial correlation given (--serial): lag 1 %.2f, lag 2 %.2f, lag 3 %.2f.\n",
			s->rho[1], s->rho[2], s->rho[3]);
	if (s->mode != PT_POOL_SERIAL_OFF && r->new_runs > 1)
		fprintf(f, "The %zu NEW runs count as %.2f independent ones.\n", r->new_runs,
			r->new_effective);
}

static void print_text(const struct pool_ctx *x, FILE *f)
{
	const struct pt_pool_result *r = &x->res;
	char not_split[128] = "";
	size_t i;

	if (x->a->split_effect)
		snprintf(not_split, sizeof(not_split),
			 " Not split: the kernel's families or the others have fewer than %d "
			 "gated timed series here.",
			 PT_POOL_SPLIT_MIN);
	fprintf(f, "ptbench compare: %zu NEW run(s) against a pool of %zu run(s) from %s%s%s\n\n",
		r->new_runs, r->pool_runs, x->a->pool_db, x->a->pool_tag ? ", tag " : "",
		x->a->pool_tag ? x->a->pool_tag : "");
	fprintf(f, "%-60s %9s %8s %8s %9s %11s  %s\n", "gated series (workload/case metric)",
		"pool runs", "spread", "change", "p(holm)", "detectable", "verdict");
	for (i = 0; i < r->n; i++) {
		const struct pt_pool_row *w = &r->rows[i];
		char label[512];

		if (!w->gated)
			continue;
		snprintf(label, sizeof(label), "%s/%s %s", w->key->workload, w->key->cs,
			 w->key->metric);
		fprintf(f, "%-60s %9zu %7.1f%% %+7.1f%% %9.2g %10.1f%%  %s\n", label, w->k,
			(exp(w->pool_sd) - 1) * 100, w->change_pct, w->p_adj, w->detectable_pct,
			pt_verdict_name(w->verdict));
	}
	fprintf(f,
		"\n%zu gated series tested: %zu worse, %zu better, %zu too few pool runs; "
		"%zu series shown, not gated.\nSmallest change this comparison could detect "
		"(median over the tested series): %.1f%% (%zu NEW run(s), alpha %g, Holm).\n",
		r->tested, r->regressions, r->improvements, r->too_few, r->info + r->ungated,
		r->median_detectable_pct, r->new_runs, x->a->opts.alpha);
	if (r->effect_series && r->factors)
		fprintf(f,
			"Run factors: %zu, from %zu gated timed series (the first explains %.0f%% of "
			"their variance over the pool; run effect %.1f%% between the pool's runs), "
			"taken out of each of them, scored without its own workload: their spread "
			"and change are what is left (--run-effect off: raw); run/effect gates the "
			"run as a whole.\n",
			r->factors, r->factor_series,
			r->factor_series ? 100 * r->factor_eig[0] / (double)r->factor_series : 0,
			r->effect_spread_pct);
	else if (r->effect_series && r->split_kernel)
		fprintf(f,
			"Run effect split in two (medians over %zu gated timed series of the "
			"kernel's page-table families and over %zu others; %.1f%% between the "
			"pool's runs as a whole) taken out of each of them with 4 or more pool "
			"runs: their spread and change are what is left (--run-effect off: raw); "
			"run/effect gates the run as a whole.\n",
			r->split_kernel, r->split_user, r->effect_spread_pct);
	else if (r->effect_series)
		fprintf(f,
			"Run effect (median over %zu gated timed series; %.1f%% between the pool's "
			"runs) taken out of each of them with 3 or more pool runs: their spread and "
			"change are what is left "
			"(--run-effect off: raw); run/effect gates the run as a whole.%s\n",
			r->effect_series, r->effect_spread_pct, not_split);
	else if (x->a->run_effect && isfinite(r->effect_spread_pct))
		fprintf(f,
			"Run effect not taken out: the pool's runs differ by %.1f%% as a whole "
			"(under %.0f%%, or fewer than three timed series).\n",
			r->effect_spread_pct, PT_POOL_EFFECT_MIN_PCT);
	if (x->a->round_effect)
		fprintf(f,
			"Round effect taken out of %zu of %zu runs (interleaved, with their "
			"repetitions; --round-effect off: the plain statistics).\n",
			r->round_runs, r->pool_runs + r->new_runs);
	run_stat_text(f, x->a->trim);
	serial_text(f, r);
	if (r->prior.series)
		fprintf(f,
			"Spread moderated: each gated timed series' spread drawn toward %.1f%% "
			"with %.1f degrees of freedom, fitted over %zu of them, and tested with "
			"that many more (--spread series: each its own).\n",
			(exp(sqrt(r->prior.var)) - 1) * 100, r->prior.df, r->prior.series);
	else if (x->a->moderate)
		fprintf(f,
			"Spread not moderated: fewer than %d gated timed series with a spread "
			"to fit its prior on.\n",
			PT_POOL_PRIOR_MIN_SERIES);
}

/* The table to -o FILE (atomically) or stdout: 0, or the exit status of the failure. */
static int write_output(const struct pool_ctx *x)
{
	char tmp[PATH_MAX];
	FILE *f = cmp_out_open(x->a, tmp, sizeof(tmp));

	if (!f)
		return PT_EXIT_USAGE;
	if (x->a->format == FMT_JSON)
		cmp_pool_print_json(x->a, &x->res, x->news, x->nnew, f);
	else if (x->a->format == FMT_JUNIT)
		cmp_pool_print_junit(x->a, &x->res, x->news, x->nnew, f);
	else
		print_text(x, f);
	return cmp_out_close(x->a, f, tmp);
}

static int load(struct pool_ctx *x, struct pt_pool_data *d)
{
	const char **ids = calloc((size_t)x->nnew + 1, sizeof(*ids));
	struct pt_history *h;
	enum pt_history_err e;
	char err[1024];
	int i;

	if (!ids)
		return PT_EXIT_FAIL;
	for (i = 0; i < x->nnew; i++) {
		if (pt_rundir_read(x->a->news[i], &x->news[i], err, sizeof(err))) {
			fprintf(stderr, "ptbench compare: new: %s\n", err);
			free(ids);
			return PT_EXIT_USAGE;
		}
		ids[i] = x->news[i].meta.run_id[0] ? x->news[i].meta.run_id : NULL;
		if (cmp_refuse_incomplete(x->a, "new", &x->news[i])) {
			free(ids);
			return PT_EXIT_USAGE;
		}
		if (!x->news[i].nrows) {
			fprintf(stderr, "ptbench compare: %s has no rows: nothing to compare\n",
				x->news[i].csv_path);
			free(ids);
			return PT_EXIT_USAGE;
		}
		if (pt_pool_add_new(d, &x->news[i])) {
			free(ids);
			return PT_EXIT_FAIL;
		}
	}
	e = pt_history_open(x->a->pool_db, false, &h, err, sizeof(err));
	if (!e)
		e = pt_pool_load_history(h, x->a->pool_tag, x->a->pool_suite, ids, (size_t)x->nnew,
					 d, err, sizeof(err));
	if (h)
		pt_history_close(h);
	free(ids);
	if (e) {
		fprintf(stderr, "ptbench compare: %s\n", err);
		return e == PT_HIST_EINPUT ? PT_EXIT_USAGE : PT_EXIT_FAIL;
	}
	return 0;
}

static int judge(struct pool_ctx *x, struct pt_pool_data *d)
{
	struct pt_pool_opts o = {
		.alpha = x->a->opts.alpha,
		.threshold_pct = x->a->opts.threshold_pct,
		.min_pool = (size_t)x->a->pool_min,
		.config = x->a->opts.config,
		.filter = x->a->filter,
		.run_effect = x->a->run_effect,
		.split_effect = x->a->split_effect,
		.in_kernel = pt_workload_times_kernel,
		.factors = x->a->factors,
		.round_effect = x->a->round_effect,
		.trim = x->a->trim,
		.serial = x->a->serial,
		.serial_rho = x->a->serial_rho,
		.moderate = x->a->moderate,
		.run_start = d->start,
		.run_end = d->end,
		.nrun_times = d->runs,
	};
	int i, any = 0;

	for (i = 0; i < x->nnew; i++)
		any |= x->news[i].nprimary > 0;
	if (any) {
		o.is_primary = new_primary;
		o.primary_ctx = x;
	} else {
		fprintf(stderr, "ptbench compare: note: the NEW runs declare no primary metrics: "
				"every series is gated\n");
	}
	if (d->pool_runs < x->a->pool_min)
		return pt_usage_error("compare",
				      "the pool has %zu run(s)%s%s in %s; at least %llu are needed "
				      "(ptbench history add; --pool-min)",
				      d->pool_runs, x->a->pool_tag ? " with tag " : "",
				      x->a->pool_tag ? x->a->pool_tag : "", x->a->pool_db,
				      (unsigned long long)x->a->pool_min);
	if (pt_pool_compare(d->pts, d->n, d->pool_runs, d->new_runs, &o, &x->res)) {
		fprintf(stderr, "ptbench compare: out of memory\n");
		return PT_EXIT_FAIL;
	}
	if (!x->res.n || !x->res.gated_both)
		return pt_usage_error("compare", "no gated series is in both the pool and NEW%s",
				      x->a->filter ? " after --filter" : "");
	return 0;
}

int cmp_pool_main(struct compare_args *a)
{
	struct pt_cmp_config cfg = { 0 };
	struct pool_ctx x = { .a = a, .nnew = a->nnew };
	struct pt_pool_data d = { 0 };
	char err[1024];
	int ret, i;
	size_t k;

	x.news = calloc((size_t)a->nnew, sizeof(*x.news));
	if (!x.news)
		return PT_EXIT_FAIL;
	if (a->config_path && pt_cmp_config_load(a->config_path, &cfg, err, sizeof(err))) {
		fprintf(stderr, "ptbench compare: config: %s\n", err);
		free(x.news);
		return PT_EXIT_USAGE;
	}
	a->opts.config = a->config_path ? &cfg : NULL;
	ret = load(&x, &d);
	if (!ret)
		ret = judge(&x, &d);
	if (!ret)
		ret = write_output(&x);
	if (!ret) {
		if (x.res.regressions) {
			fprintf(stderr, "ptbench compare: significant regression in %zu series:\n",
				x.res.regressions);
			for (k = 0; k < x.res.n; k++)
				if (x.res.rows[k].verdict == PT_V_WORSE)
					fprintf(stderr, "  %s/%s %s: %+.1f%%, p=%.2g\n",
						x.res.rows[k].key->workload, x.res.rows[k].key->cs,
						x.res.rows[k].key->metric, x.res.rows[k].change_pct,
						x.res.rows[k].p_adj);
		}
		ret = x.res.regressions ? PT_EXIT_FAIL : PT_EXIT_OK;
	}
	pt_pool_result_free(&x.res);
	pt_pool_data_free(&d);
	for (i = 0; i < a->nnew; i++)
		pt_rundir_free(&x.news[i]);
	free(x.news);
	pt_cmp_config_free(&cfg);
	return ret;
}
