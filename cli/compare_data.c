// SPDX-License-Identifier: GPL-2.0-only
/* ptbench compare --format csv and --format json: every figure, for programs. */
#include <math.h>
#include <stdio.h>

#include "analysis/runsummary.h"
#include "cli/compare.h"
#include "util/csv.h"
#include "util/json.h"

/* ---- csv ---- */

static void csv_str(FILE *f, const char *s, bool last)
{
	char buf[1024];

	if (pt_csv_escape(s, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "\"(field too long)\"");
	fputs(buf, f);
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g,", v);
	else if (isinf(v))
		fprintf(f, "%sinf,", v > 0 ? "" : "-");
	else
		fputc(',', f);
}

static void csv_side(FILE *f, const struct pt_series *s, const struct pt_summary *sum)
{
	if (!s) {
		fputs("0,,,,", f);
		return;
	}
	fprintf(f, "%zu,", s->n);
	csv_num(f, sum->median);
	csv_num(f, sum->ci_valid ? sum->ci_lo : NAN);
	csv_num(f, sum->ci_valid ? sum->ci_hi : NAN);
}

void cmp_print_csv(struct compare_ctx *x, FILE *f)
{
	size_t i;

	fprintf(f, "workload,case,params,metric,unit,better,base_n,base_median,base_ci_lo,"
		   "base_ci_hi,new_n,new_median,new_ci_lo,new_ci_hi,change_pct,p,p_adj,alpha,"
		   "threshold_pct,verdict\n");
	for (i = 0; i < x->res->n; i++) {
		const struct pt_cmp_row *w = &x->res->rows[i];

		csv_str(f, w->key->workload, false);
		csv_str(f, w->key->cs, false);
		csv_str(f, w->key->params, false);
		csv_str(f, w->key->metric, false);
		csv_str(f, w->key->unit, false);
		csv_str(f, pt_better_name(w->key->better), false);
		csv_side(f, w->base, &w->sb);
		csv_side(f, w->cand, &w->sn);
		csv_num(f, w->change_pct);
		csv_num(f, w->p);
		csv_num(f, w->p_adj);
		csv_num(f, w->alpha);
		csv_num(f, w->threshold_pct);
		csv_str(f, pt_verdict_name(w->verdict), true);
	}
}

/* ---- json ---- */

static void json_side(struct pt_json *j, const char *key, const struct pt_series *s,
		      const struct pt_summary *sum)
{
	if (!s) {
		pt_json_null(j, key);
		return;
	}
	pt_json_obj_begin(j, key);
	pt_json_summary_members(j, sum);
	pt_json_obj_end(j);
}

static void json_rows(struct compare_ctx *x, struct pt_json *j)
{
	double lo, hi;
	size_t i;

	pt_json_arr_begin(j, "series");
	for (i = 0; i < x->res->n; i++) {
		const struct pt_cmp_row *w = &x->res->rows[i];

		pt_cmp_change_ci(w, &lo, &hi);
		pt_json_obj_begin(j, NULL);
		cmp_json_series_id(j, w->key->workload, w->key->cs, w->key->params, w->key->metric,
				   w->key->unit, w->key->better);
		json_side(j, "base", w->base, &w->sb);
		json_side(j, "new", w->cand, &w->sn);
		pt_json_num(j, "change_pct", w->change_pct);
		pt_json_num(j, "change_ci_lo_pct", lo);
		pt_json_num(j, "change_ci_hi_pct", hi);
		pt_json_bool(j, "tested", w->tested);
		pt_json_bool(j, "gated", w->gated);
		pt_json_num(j, "p", w->p);
		pt_json_num(j, "p_adj", w->p_adj);
		pt_json_num(j, "min_p", w->min_p);
		pt_json_num(j, "alpha", w->alpha);
		pt_json_num(j, "threshold_pct", w->threshold_pct);
		pt_json_str(j, "verdict", pt_verdict_name(w->verdict));
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
}

static const char *exit_meaning(const struct compare_ctx *x)
{
	if (x->res->regressions)
		return "at least one series is significantly worse";
	if (cmp_strict_fails(x))
		return "--strict: some series could not be judged";
	return "no significant regression";
}

static void json_env(struct compare_ctx *x, struct pt_json *j)
{
	size_t i;

	pt_json_arr_begin(j, "environment");
	for (i = 0; i < x->env.n; i++) {
		const struct pt_env_field *e = &x->env.f[i];

		pt_json_obj_begin(j, NULL);
		pt_json_str(j, "field", e->label);
		pt_json_str(j, "base", e->base[0] ? e->base : NULL);
		pt_json_str(j, "new", e->cand[0] ? e->cand : NULL);
		pt_json_bool(j, "differs", pt_env_differs(e));
		pt_json_bool(j, "warning", e->kind == PT_ENV_LOUD && pt_env_differs(e));
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
}

void cmp_print_json(struct compare_ctx *x, FILE *f)
{
	const struct pt_cmp_result *r = x->res;
	struct pt_json j;

	pt_json_init(&j, f);
	pt_json_obj_begin(&j, NULL);
	pt_json_str(&j, "base", x->base->path);
	pt_json_str(&j, "new", x->cand->path);
	pt_json_run_identity(&j, "base_run", x->base);
	pt_json_run_identity(&j, "new_run", x->cand);
	pt_json_obj_begin(&j, "gate");
	pt_json_num(&j, "alpha", x->a->opts.alpha);
	pt_json_num(&j, "threshold_pct", x->a->opts.threshold_pct);
	pt_json_str(&j, "correction", pt_correction_name(r->correction));
	pt_json_str(&j, "config", x->a->config_path);
	pt_json_str(&j, "filter", x->a->filter);
	pt_json_bool(&j, "strict", x->a->strict);
	pt_json_str(&j, "test", pt_cmp_test_name(x->a->opts.test));
	pt_json_bool(&j, "round_effect", x->a->round_effect);
	pt_json_uint(&j, "round_adjusted_base", x->rounds_base);
	pt_json_uint(&j, "round_adjusted_new", x->rounds_new);
	pt_json_obj_end(&j);
	json_env(x, &j);
	pt_json_obj_begin(&j, "summary");
	pt_json_uint(&j, "series", r->n);
	pt_json_uint(&j, "tested", r->tested);
	pt_json_uint(&j, "worse", r->regressions);
	pt_json_uint(&j, "better", r->improvements);
	pt_json_uint(&j, "changed", r->changed);
	pt_json_uint(&j, "too_few", r->too_few);
	pt_json_uint(&j, "base_only", r->base_only);
	pt_json_uint(&j, "new_only", r->new_only);
	pt_json_uint(&j, "not_gated", r->ungated);
	pt_json_bool(&j, "gate_blind", r->gate_blind);
	pt_json_bool(&j, "hardware_differs", x->env.loud > 0);
	pt_json_int(&j, "exit_status", cmp_exit_code(x));
	pt_json_str(&j, "exit_meaning", exit_meaning(x));
	pt_json_obj_end(&j);
	json_rows(x, &j);
	pt_json_obj_end(&j);
	fputc('\n', f);
}
