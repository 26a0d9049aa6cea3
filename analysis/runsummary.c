// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records of a run's statistics for other programs (the report scripts,
 * CI jobs): the same numbers ptbench compare prints, never recomputed
 * elsewhere.
 */
#include <math.h>
#include <string.h>

#include "analysis/runsummary.h"
#include "util/csv.h"
#include "util/schema.h"

const char *pt_better_word(enum pt_better b)
{
	return b == PT_LOWER ? "lower" : b == PT_HIGHER ? "higher" : "neither";
}

void pt_json_summary_members(struct pt_json *j, const struct pt_summary *s)
{
	pt_json_uint(j, "n", s->n);
	pt_json_num(j, "median", s->median);
	pt_json_num(j, "ci_lo", s->ci_lo);
	pt_json_num(j, "ci_hi", s->ci_hi);
	pt_json_bool(j, "ci_valid", s->ci_valid);
	pt_json_num(j, "min", s->min);
	pt_json_num(j, "max", s->max);
	pt_json_num(j, "mean", s->mean);
	pt_json_num(j, "stddev", s->stddev);
	pt_json_num(j, "cv", s->cv);
	pt_json_num(j, "p90", s->p90);
	pt_json_num(j, "p99", s->p99);
}

/* A meta.json field, or null: "" means the run did not record it. */
static void str_or_null(struct pt_json *j, const char *key, const char *v)
{
	pt_json_str(j, key, v[0] ? v : NULL);
}

void pt_json_run_identity(struct pt_json *j, const char *key, const struct pt_rundir *r)
{
	const struct pt_rundir_meta *m = &r->meta;

	pt_json_obj_begin(j, key);
	pt_json_str(j, "path", r->path);
	pt_json_str(j, "results_csv", r->csv_path);
	pt_json_bool(j, "meta_present", m->present);
	str_or_null(j, "tool_version", m->tool_version);
	str_or_null(j, "command_line", m->command_line);
	str_or_null(j, "tag", m->tag);
	str_or_null(j, "started_utc", m->started_utc);
	str_or_null(j, "finished_utc", m->finished_utc);
	str_or_null(j, "kernel_release", m->kernel_release);
	str_or_null(j, "format", m->format);
	str_or_null(j, "regime", m->regime_text);
	str_or_null(j, "arch", m->arch);
	str_or_null(j, "cpu_model", m->cpu_model);
	str_or_null(j, "suite", m->suite);
	str_or_null(j, "reps", m->reps);
	pt_json_uint(j, "series", r->nseries);
	pt_json_uint(j, "rows", r->nrows);
	pt_json_obj_end(j);
}

static double change_of(double base, double cand)
{
	if (base == 0)
		return cand == 0 ? 0 : copysign(INFINITY, cand);
	return (cand - base) / fabs(base) * 100.0;
}

void pt_cmp_change_ci(const struct pt_cmp_row *w, double *lo_pct, double *hi_pct)
{
	const double b[2] = { w->sb.ci_lo, w->sb.ci_hi }, c[2] = { w->sn.ci_lo, w->sn.ci_hi };
	int i, k;

	*lo_pct = *hi_pct = NAN;
	if (!w->base || !w->cand || !w->sb.ci_valid || !w->sn.ci_valid)
		return;
	*lo_pct = INFINITY;
	*hi_pct = -INFINITY;
	/* Any pair of bounds is possible, so the extremes over all four. */
	for (i = 0; i < 2; i++)
		for (k = 0; k < 2; k++) {
			double d = change_of(b[i], c[k]);

			*lo_pct = fmin(*lo_pct, d);
			*hi_pct = fmax(*hi_pct, d);
		}
}

static int write_json(FILE *f, const struct pt_rundir *r)
{
	struct pt_json j;
	struct pt_summary s;
	size_t i;

	pt_json_init(&j, f);
	pt_json_obj_begin(&j, NULL);
	pt_json_run_identity(&j, "run", r);
	pt_json_arr_begin(&j, "series");
	for (i = 0; i < r->nseries; i++) {
		const struct pt_series *x = &r->series[i];

		if (pt_summarize(x->values, x->n, &s))
			return -1;
		pt_json_obj_begin(&j, NULL);
		pt_json_str(&j, "workload", x->workload);
		pt_json_str(&j, "case", x->cs);
		pt_json_str(&j, "params", x->params);
		pt_json_str(&j, "metric", x->metric);
		pt_json_str(&j, "unit", x->unit);
		pt_json_str(&j, "better", pt_better_word(x->better));
		pt_json_summary_members(&j, &s);
		pt_json_obj_end(&j);
	}
	pt_json_arr_end(&j);
	pt_json_obj_end(&j);
	fputc('\n', f);
	return 0;
}

static void csv_field(FILE *f, const char *s)
{
	char buf[1024];

	if (pt_csv_escape(s, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "\"(field too long)\"");
	fputs(buf, f);
	fputc(',', f);
}

/* %.9g keeps every digit results.csv has; empty for NaN, as in compare's CSV. */
static void csv_num(FILE *f, double v, char sep)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else if (isinf(v))
		fputs(v > 0 ? "inf" : "-inf", f);
	fputc(sep, f);
}

static int write_csv(FILE *f, const struct pt_rundir *r)
{
	struct pt_summary s;
	size_t i;

	fputs("workload,case,params,metric,unit,better,n,median,ci_lo,ci_hi,ci_valid,min,max,"
	      "mean,stddev,cv,p90,p99\n",
	      f);
	for (i = 0; i < r->nseries; i++) {
		const struct pt_series *x = &r->series[i];

		if (pt_summarize(x->values, x->n, &s))
			return -1;
		csv_field(f, x->workload);
		csv_field(f, x->cs);
		csv_field(f, x->params);
		csv_field(f, x->metric);
		csv_field(f, x->unit);
		csv_field(f, pt_better_word(x->better));
		fprintf(f, "%zu,", s.n);
		csv_num(f, s.median, ',');
		csv_num(f, s.ci_lo, ',');
		csv_num(f, s.ci_hi, ',');
		fputs(s.ci_valid ? "true," : "false,", f);
		csv_num(f, s.min, ',');
		csv_num(f, s.max, ',');
		csv_num(f, s.mean, ',');
		csv_num(f, s.stddev, ',');
		csv_num(f, s.cv, ',');
		csv_num(f, s.p90, ',');
		csv_num(f, s.p99, '\n');
	}
	return 0;
}

int pt_run_summary_write(FILE *f, const struct pt_rundir *r, enum pt_summary_format fmt)
{
	int ret = fmt == PT_SUMMARY_CSV ? write_csv(f, r) : write_json(f, r);

	return ret || ferror(f) ? -1 : 0;
}
