// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare --baseline-db's JSON output: the pool, the gate's settings, the
 * run effect, serial correlation and moderated spread it used, and per
 * gated series its change, spread, p-values, verdict and the smallest
 * change it could have detected (docs/compare.md, "Output").
 */
#include <math.h>
#include <stdio.h>

#include "analysis/pool.h"
#include "analysis/rundir.h"
#include "cli/commands.h"
#include "cli/compare.h"
#include "util/json.h"

static void json_serial(struct pt_json *j, const struct pt_pool_result *r)
{
	static const char *const modes[] = { "auto", "off", "given" };
	size_t lag;

	pt_json_str(j, "serial", modes[r->serial.mode]);
	pt_json_arr_begin(j, "serial_rho");
	for (lag = 1; lag <= PT_POOL_SERIAL_LAGS; lag++)
		pt_json_num(j, NULL, r->serial.rho[lag]);
	pt_json_arr_end(j);
	pt_json_arr_begin(j, "serial_pairs");
	for (lag = 1; lag <= PT_POOL_SERIAL_LAGS; lag++)
		pt_json_uint(j, NULL, r->serial.pairs[lag]);
	pt_json_arr_end(j);
	pt_json_uint(j, "serial_series", r->serial.series);
	pt_json_uint(j, "serial_run_pairs", r->serial.run_pairs);
	pt_json_num(j, "new_runs_effective", r->new_effective);
}

static void json_row(struct pt_json *j, const struct pt_pool_row *w)
{
	pt_json_obj_begin(j, NULL);
	cmp_json_series_id(j, w->key->workload, w->key->cs, w->key->params, w->key->metric,
			   w->key->unit, w->key->better);
	pt_json_uint(j, "pool_runs", w->k);
	pt_json_uint(j, "new_runs", w->n);
	pt_json_num(j, "pool_median", exp(w->pool_mean));
	pt_json_num(j, "pool_spread_pct", (exp(w->pool_sd) - 1) * 100);
	pt_json_num(j, "new_median", exp(w->new_mean));
	pt_json_num(j, "change_pct", w->change_pct);
	pt_json_num(j, "t", w->t);
	pt_json_num(j, "p", w->p);
	pt_json_num(j, "p_adj", w->p_adj);
	pt_json_num(j, "detectable_pct", w->detectable_pct);
	pt_json_num(j, "df", w->df);
	pt_json_bool(j, "spread_moderated", w->moderated);
	if (w->moderated)
		pt_json_num(j, "series_spread_pct", (exp(w->series_sd) - 1) * 100);
	pt_json_bool(j, "run_effect_adjusted", w->adjusted);
	if (w->adjusted) {
		pt_json_num(j, "raw_change_pct", w->raw_change_pct);
		pt_json_uint(j, "run_factors", w->factors);
		pt_json_bool(j, "scored_within_workload", w->own_workload);
		pt_json_num(j, "run_effect_slope", w->slope);
		if (isfinite(w->slope_user))
			pt_json_num(j, "run_effect_slope_user", w->slope_user);
	}
	pt_json_bool(j, "gated", w->gated);
	pt_json_bool(j, "tested", w->tested);
	pt_json_str(j, "verdict", pt_verdict_name(w->verdict));
	pt_json_obj_end(j);
}

void cmp_pool_print_json(const struct compare_args *a, const struct pt_pool_result *r,
			 const struct pt_rundir *news, int nnew, FILE *f)
{
	struct pt_json j;
	size_t i;

	pt_json_init(&j, f);
	pt_json_obj_begin(&j, NULL);
	pt_json_str(&j, "mode", "pool");
	pt_json_obj_begin(&j, "pool");
	pt_json_str(&j, "db", a->pool_db);
	pt_json_str(&j, "tag", a->pool_tag);
	pt_json_str(&j, "suite", a->pool_suite);
	pt_json_uint(&j, "runs", r->pool_runs);
	pt_json_uint(&j, "min_runs", a->pool_min);
	pt_json_obj_end(&j);
	pt_json_arr_begin(&j, "new");
	for (i = 0; i < (size_t)nnew; i++)
		pt_json_str(&j, NULL, news[i].path);
	pt_json_arr_end(&j);
	pt_json_obj_begin(&j, "summary");
	pt_json_uint(&j, "series", r->n);
	pt_json_uint(&j, "tested", r->tested);
	pt_json_uint(&j, "worse", r->regressions);
	pt_json_uint(&j, "better", r->improvements);
	pt_json_uint(&j, "changed", r->changed);
	pt_json_uint(&j, "too_few", r->too_few);
	pt_json_uint(&j, "shown", r->info);
	pt_json_uint(&j, "not_gated", r->ungated);
	pt_json_num(&j, "median_detectable_pct", r->median_detectable_pct);
	pt_json_num(&j, "alpha", a->opts.alpha);
	pt_json_num(&j, "threshold_pct", a->opts.threshold_pct);
	pt_json_uint(&j, "run_effect_series", r->effect_series);
	pt_json_num(&j, "run_effect_spread_pct", r->effect_spread_pct);
	pt_json_bool(&j, "run_effect_split", r->split_kernel > 0);
	pt_json_uint(&j, "run_effect_kernel_series", r->split_kernel);
	pt_json_uint(&j, "run_effect_user_series", r->split_user);
	pt_json_uint(&j, "run_factors", r->factors);
	pt_json_uint(&j, "run_factor_series", r->factor_series);
	pt_json_bool(&j, "round_effect", a->round_effect);
	pt_json_uint(&j, "round_effect_runs", r->round_runs);
	pt_json_num(&j, "trim", a->trim.lo == a->trim.hi ? a->trim.lo : NAN);
	pt_json_num(&j, "trim_low", a->trim.lo);
	pt_json_num(&j, "trim_high", a->trim.hi);
	pt_json_bool(&j, "spread_moderated", r->prior.series > 0);
	if (r->prior.series) {
		pt_json_uint(&j, "spread_prior_series", r->prior.series);
		pt_json_num(&j, "spread_prior_df", r->prior.df);
		pt_json_num(&j, "spread_prior_pct", (exp(sqrt(r->prior.var)) - 1) * 100);
	}
	json_serial(&j, r);
	pt_json_int(&j, "exit_status", r->regressions ? PT_EXIT_FAIL : PT_EXIT_OK);
	pt_json_obj_end(&j);
	pt_json_arr_begin(&j, "series");
	for (i = 0; i < r->n; i++)
		json_row(&j, &r->rows[i]);
	pt_json_arr_end(&j);
	pt_json_obj_end(&j);
	fputc('\n', f);
}
