// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>

#include "analysis/aa_report.h"
#include "util/json.h"

#define LAST_SHIFT pt_aa_shifts_pct[PT_AA_NSHIFTS - 1]

static const char *reps_name(const struct pt_aa_report *r)
{
	return r->reps ? r->reps : "default";
}

static void text_floor(const struct pt_aa *k, FILE *f)
{
	struct pt_aa_summary fs;
	size_t raised, off;

	pt_aa_floor_count(k, &raised, &off);
	fprintf(f,
		"\nnoise-floor gate (gate.conf: threshold = max(threshold, %g x the largest change "
		"the gate called significant between any two of %d identical runs); gate=off "
		"above %g%%):\n",
		k->floor.margin, pt_aa_floor_runs(k), k->floor.max_pct);
	fprintf(f, "  thresholds raised for %zu of %zu series; %zu series not gated (gate=off)\n",
		raised, k->ndet, off);
	if (k->loo_total)
		fprintf(f,
			"  first, the gate itself on every two of the %d runs (not only the pairs "
			"run back to back): fired in %zu of %zu comparisons: rate %.3f\n",
			pt_aa_floor_runs(k), k->all_fired, k->loo_total,
			(double)k->all_fired / (double)k->loo_total);
	if (k->loo_total)
		fprintf(f,
			"  gate fired (leave-pair-out: each two runs judged with thresholds "
			"learnt from the other %d) in %zu of %zu comparisons: rate %.3f (95%% "
			"upper bound %.3f, the comparisons share runs)\n",
			pt_aa_nruns(k) - 2, k->loo_fired, k->loo_total,
			(double)k->loo_fired / (double)k->loo_total,
			pt_aa_rate_upper95(k->loo_fired, k->loo_total));
	else
		fprintf(f, "  out-of-sample rate not estimated: needs at least 2 pairs\n");
	pt_aa_floor_summarize(k, &fs);
	if (fs.detectable)
		fprintf(f,
			"  smallest change detected with it: best %g%%, median %g%%, worst %g%%; %zu "
			"series not detected even at %g%%\n",
			fs.min_pct, fs.median_pct, fs.max_pct, fs.undetectable, LAST_SHIFT);
}

static void text_false_positives(const struct pt_aa *k, FILE *f)
{
	fprintf(f, "false positives (A/A, no change):\n");
	fprintf(f, "  gate fired (exit 1) in %zu of %d pairs: rate %.3f (95%% upper bound %.3f)\n",
		k->fired, k->npairs, (double)k->fired / k->npairs,
		pt_aa_rate_upper95(k->fired, (size_t)k->npairs));
	fprintf(f, "  any significant change in %zu of %d pairs\n", k->any_significant, k->npairs);
	fprintf(f, "  series judged significant: %zu of %zu tested: rate %.4f\n",
		k->significant_total, k->tested_total,
		k->tested_total ? (double)k->significant_total / (double)k->tested_total : 0.0);
	if (k->too_few_total || k->blind_pairs)
		fprintf(f,
			"  WARNING: %zu series-pairs had too few samples; the gate was blind in "
			"%zu pairs\n",
			k->too_few_total, k->blind_pairs);
}

static void text_series(const struct pt_aa *k, FILE *f)
{
	char label[600];
	size_t i;

	fprintf(f, "\nper series: smallest detectable change (default gate; noise floor)\n");
	for (i = 0; i < k->ndet; i++) {
		const struct pt_aa_series *d = &k->det[i];
		bool off;
		double thr = pt_aa_floor_threshold(k, d, -1, -1, &off);

		pt_series_name(d->key, label, sizeof(label));
		fprintf(f, "  %-60s  %s%g%%  ", label, isnan(d->smallest_pct) ? "> " : "",
			isnan(d->smallest_pct) ? LAST_SHIFT : d->smallest_pct);
		if (off)
			fprintf(f, "not gated (significant A/A change up to %.0f%%)\n",
				pt_aa_floor_worst(d, -1, -1));
		else
			fprintf(f, "floor %g%% (A/A medians within %.0f%%)\n", thr,
				pt_floor_spread(d->median, (size_t)pt_aa_nruns(k), -1, -1));
	}
}

void pt_aa_write_text(const struct pt_aa_report *r, FILE *f)
{
	const struct pt_aa *k = r->k;
	struct pt_aa_summary ds;

	pt_aa_summarize(k, &ds);
	fprintf(f,
		"ptbench calibrate: %d A/A pairs of suite '%s' (%s reps), gate alpha %g, "
		"threshold %g%%, %s correction, %s test\n",
		k->npairs, r->suite, reps_name(r), k->opts->alpha, k->opts->threshold_pct,
		pt_correction_name(k->opts->correction), pt_cmp_test_name(k->opts->test));
	fprintf(f, "runner: %s\n\n", r->runner);
	text_false_positives(k, f);
	fprintf(f,
		"\nsmallest change detected in >= %.0f%% of pairs (shift injected into the new "
		"side, one metric at a time):\n",
		PT_AA_DETECT_RATE * 100);
	if (ds.detectable)
		fprintf(f,
			"  over %zu series: best %g%%, median %g%%, worst %g%%; %zu series not "
			"detected even at %g%%\n",
			k->ndet, ds.min_pct, ds.median_pct, ds.max_pct, ds.undetectable,
			LAST_SHIFT);
	else
		fprintf(f, "  no series reached the detection rate within %g%% (%zu series)\n",
			LAST_SHIFT, k->ndet);
	text_floor(k, f);
	text_series(k, f);
}

void pt_aa_write_gate_conf(const struct pt_aa_report *r, FILE *f)
{
	const struct pt_aa *k = r->k;
	size_t i;
	bool off;

	fprintf(f,
		"# ptbench gate thresholds from 'ptbench calibrate': %d A/A pairs (%d runs) of "
		"suite '%s' (%s reps).\n# threshold = max(%g%%, %g x the largest change the gate "
		"called significant between two of the runs, rounded up);\n# gate=off where that "
		"exceeds %g%%: too noisy on this machine to judge.\n# Series not listed keep the "
		"gate's defaults.\n# Use: ptbench compare BASE NEW --config gate.conf\n",
		k->npairs, pt_aa_nruns(k), r->suite, reps_name(r), k->opts->threshold_pct,
		k->floor.margin, k->floor.max_pct);
	for (i = 0; i < k->ndet; i++) {
		const struct pt_aa_series *d = &k->det[i];
		double thr = pt_aa_floor_threshold(k, d, -1, -1, &off);

		if (off)
			fprintf(f, "%s/%s/%s gate=off  # significant A/A change up to %.0f%%\n",
				d->key->workload, d->key->cs, d->key->metric,
				pt_aa_floor_worst(d, -1, -1));
		else if (thr > d->base_threshold)
			fprintf(f, "%s/%s/%s threshold=%g%%\n", d->key->workload, d->key->cs,
				d->key->metric, thr);
	}
}

/* ---- calibrate.json ---- */

static void json_series(const struct pt_aa *k, const struct pt_aa_series *d, struct pt_json *j)
{
	double thr;
	bool off;
	size_t s;

	pt_json_obj_begin(j, NULL);
	pt_json_str(j, "workload", d->key->workload);
	pt_json_str(j, "case", d->key->cs);
	pt_json_str(j, "params", d->key->params);
	pt_json_str(j, "metric", d->key->metric);
	pt_json_uint(j, "pairs_tested", d->pairs_tested);
	pt_json_arr_begin(j, "detected_pairs");
	for (s = 0; s < PT_AA_NSHIFTS; s++)
		pt_json_uint(j, NULL, d->hits[s]);
	pt_json_arr_end(j);
	pt_json_num(j, "smallest_detected_pct", d->smallest_pct);
	thr = pt_aa_floor_threshold(k, d, -1, -1, &off);
	pt_json_num(j, "largest_aa_change_pct",
		    pt_floor_spread(d->median, (size_t)pt_aa_nruns(k), -1, -1));
	pt_json_num(j, "largest_significant_aa_change_pct", pt_aa_floor_worst(d, -1, -1));
	pt_json_num(j, "noise_floor_threshold_pct", off ? NAN : thr);
	pt_json_bool(j, "gated", !off);
	pt_json_num(j, "noise_floor_detected_pct", pt_aa_floor_detect_pct(k, d));
	pt_json_obj_end(j);
}

static void json_detect(const struct pt_aa *k, struct pt_json *j)
{
	struct pt_aa_summary ds;
	size_t i, s;

	pt_aa_summarize(k, &ds);
	pt_json_obj_begin(j, "detection");
	pt_json_num(j, "target_rate", PT_AA_DETECT_RATE);
	pt_json_arr_begin(j, "shifts_pct");
	for (s = 0; s < PT_AA_NSHIFTS; s++)
		pt_json_num(j, NULL, pt_aa_shifts_pct[s]);
	pt_json_arr_end(j);
	pt_json_uint(j, "series", k->ndet);
	pt_json_uint(j, "undetectable", ds.undetectable);
	pt_json_num(j, "best_pct", ds.min_pct);
	pt_json_num(j, "median_pct", ds.median_pct);
	pt_json_num(j, "worst_pct", ds.max_pct);
	pt_json_arr_begin(j, "per_series");
	for (i = 0; i < k->ndet; i++)
		json_series(k, &k->det[i], j);
	pt_json_arr_end(j);
	pt_json_obj_end(j);
}

static void json_floor(const struct pt_aa *k, struct pt_json *j)
{
	size_t raised, off_n;

	pt_aa_floor_count(k, &raised, &off_n);
	pt_json_obj_begin(j, "noise_floor");
	pt_json_num(j, "margin", k->floor.margin);
	pt_json_num(j, "max_threshold_pct", k->floor.max_pct);
	pt_json_uint(j, "thresholds_raised", raised);
	pt_json_uint(j, "not_gated", off_n);
	pt_json_uint(j, "loo_comparisons", k->loo_total);
	pt_json_uint(j, "all_pairs_gate_fired", k->all_fired);
	pt_json_uint(j, "loo_gate_fired", k->loo_fired);
	pt_json_num(j, "loo_gate_rate",
		    k->loo_total ? (double)k->loo_fired / (double)k->loo_total : NAN);
	pt_json_num(j, "loo_gate_rate_upper95",
		    k->loo_total ? pt_aa_rate_upper95(k->loo_fired, k->loo_total) : NAN);
	pt_json_obj_end(j);
}

static void json_runs(const struct pt_aa *k, struct pt_json *j)
{
	int p, side;

	pt_json_arr_begin(j, "runs");
	for (p = 0; p < k->npairs; p++) {
		const struct pt_aa_pair *pr = &k->pairs[p];

		pt_json_obj_begin(j, NULL);
		for (side = 0; side < 2; side++) {
			pt_json_obj_begin(j, side ? "b" : "a");
			pt_json_str(j, "dir", pr->run[side].dir);
			pt_json_num(j, "seconds", pr->run[side].seconds);
			pt_json_int(j, "exit_status", pr->run[side].status);
			pt_json_obj_end(j);
		}
		pt_json_uint(j, "tested", pr->res.tested);
		pt_json_uint(j, "worse", pr->res.regressions);
		pt_json_uint(j, "better", pr->res.improvements);
		pt_json_uint(j, "changed", pr->res.changed);
		pt_json_uint(j, "too_few", pr->res.too_few);
		pt_json_bool(j, "gate_fired", pr->res.regressions > 0);
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
}

static void json_false_positives(const struct pt_aa *k, struct pt_json *j)
{
	pt_json_obj_begin(j, "false_positives");
	pt_json_uint(j, "gate_fired_pairs", k->fired);
	pt_json_num(j, "gate_rate", (double)k->fired / k->npairs);
	pt_json_num(j, "gate_rate_upper95", pt_aa_rate_upper95(k->fired, (size_t)k->npairs));
	pt_json_uint(j, "any_significant_pairs", k->any_significant);
	pt_json_uint(j, "series_tested", k->tested_total);
	pt_json_uint(j, "series_significant", k->significant_total);
	pt_json_num(j, "series_rate",
		    k->tested_total ? (double)k->significant_total / (double)k->tested_total : NAN);
	pt_json_uint(j, "series_too_few", k->too_few_total);
	pt_json_uint(j, "blind_pairs", k->blind_pairs);
	pt_json_obj_end(j);
}

void pt_aa_write_json(const struct pt_aa_report *r, FILE *f)
{
	const struct pt_aa *k = r->k;
	struct pt_json j;

	pt_json_init(&j, f);
	pt_json_obj_begin(&j, NULL);
	pt_json_str(&j, "tool_version", r->tool_version);
	pt_json_str(&j, "suite", r->suite);
	pt_json_str(&j, "reps", r->reps);
	pt_json_int(&j, "pairs", k->npairs);
	pt_json_str(&j, "runner", r->runner);
	pt_json_obj_begin(&j, "gate");
	pt_json_num(&j, "alpha", k->opts->alpha);
	pt_json_num(&j, "threshold_pct", k->opts->threshold_pct);
	pt_json_str(&j, "correction", pt_correction_name(k->opts->correction));
	pt_json_str(&j, "test", pt_cmp_test_name(k->opts->test));
	pt_json_str(&j, "config", r->config_path);
	pt_json_obj_end(&j);
	json_false_positives(k, &j);
	json_detect(k, &j);
	json_floor(k, &j);
	json_runs(k, &j);
	pt_json_obj_end(&j);
}
