// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench compare --format junit: one test case per gated series, so a CI
 * server (Jenkins, GitLab) lists the gate's verdicts beside its other
 * tests. A regression is a <failure> whose text gives the change, the
 * p-value and the threshold; a gated series the gate could not judge is
 * <skipped> (an <error> under --strict, which fails on it); series that are
 * not their case's primary metric are left out, as the gate leaves them
 * out of its family. The runs compared and the settings are properties.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/pool.h"
#include "cli/compare.h"
#include "cli/junit.h"

/*
 * "case/metric": stable from run to run, so a CI server follows one series'
 * history. The params are left out: a case's name is unique within its
 * workload (tests/fixtures/cases.txt) and they are in the case's text.
 */
static void case_name(const char *cs, const char *metric, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", cs, metric);
}

static void run_props(struct ju_doc *d, const char *side, const struct pt_rundir *r)
{
	const struct pt_rundir_meta *m = &r->meta;
	char key[64];

#define PROP(field, value)                                                                         \
	do {                                                                                       \
		snprintf(key, sizeof(key), "%s.%s", side, field);                                  \
		ju_prop(d, key, "%s", value);                                                      \
	} while (0)
	PROP("path", r->path);
	PROP("run_id", m->run_id);
	PROP("tag", m->tag);
	PROP("started_utc", m->started_utc);
	PROP("host", m->hostname);
	PROP("kernel_release", m->kernel_release);
	PROP("cpu_model", m->cpu_model);
	PROP("format", m->format);
	PROP("suite", m->suite);
#undef PROP
}

/* ---- two runs ---- */

/* What a row the gate could not judge is, and why; NULL for a judged row. */
static const char *unjudged(const struct compare_ctx *x, const struct pt_cmp_row *w, char *msg,
			    size_t len, bool *strict_fails)
{
	*strict_fails = x->a->strict;
	switch (w->verdict) {
	case PT_V_TOO_FEW:
		snprintf(
			msg, len,
			"too few samples (%zu+%zu): at alpha %g each side needs >= %zu; not judged",
			w->base ? w->base->n : 0, w->cand ? w->cand->n : 0, w->alpha,
			pt_cmp_min_samples(w->alpha, w->test));
		return "too-few-samples";
	case PT_V_BASE_ONLY:
		snprintf(msg, len, "in BASE only: missing from NEW; not judged");
		return "missing";
	case PT_V_UNGATED:
		snprintf(msg, len, "not gated: gate=off in %s; the change is shown, not judged",
			 x->a->config_path ? x->a->config_path : "the config");
		return "not-gated";
	case PT_V_NEW_ONLY:
		*strict_fails = false; /* --strict does not fail on a new series */
		snprintf(msg, len, "in NEW only: no baseline to judge it against");
		return "new-series";
	default:
		return NULL;
	}
}

static void row_detail(const struct compare_ctx *x, const struct pt_cmp_row *w, char *buf,
		       size_t len)
{
	char label[512], bs[64], ns[64], d[32], p[32];

	cmp_row_label(w->key, label, sizeof(label));
	cmp_fmt_side(w->base, &w->sb, bs, sizeof(bs));
	cmp_fmt_side(w->cand, &w->sn, ns, sizeof(ns));
	cmp_fmt_delta(w->change_pct, d, sizeof(d));
	cmp_fmt_p(w->p_adj, p, sizeof(p));
	snprintf(buf, len,
		 "%s %s (%s; %s)\nbase %s (n=%zu), new %s (n=%zu): change %s, p(%s) %s\n"
		 "gate: alpha %g, threshold %g%%; verdict: %s\n",
		 label, w->key->metric, w->key->unit, cmp_better_text(w->key->better), bs,
		 w->base ? w->base->n : 0, ns, w->cand ? w->cand->n : 0, d,
		 pt_correction_name(x->res->correction), p, w->alpha, w->threshold_pct,
		 pt_verdict_name(w->verdict));
}

static void two_run_case(struct ju_doc *doc, const struct compare_ctx *x,
			 const struct pt_cmp_row *w)
{
	char name[512], msg[512], d[32], p[32];
	const char *type;
	struct ju_case *c;
	bool strict_fails;

	case_name(w->key->cs, w->key->metric, name, sizeof(name));
	type = unjudged(x, w, msg, sizeof(msg), &strict_fails);
	if (type)
		c = ju_add(doc, w->key->workload, name, strict_fails ? JU_ERROR : JU_SKIP);
	else
		c = ju_add(doc, w->key->workload, name,
			   w->verdict == PT_V_WORSE ? JU_FAIL : JU_PASS);
	if (!c)
		return;
	if (!type && w->verdict == PT_V_WORSE) {
		cmp_fmt_delta(w->change_pct, d, sizeof(d));
		cmp_fmt_p(w->p_adj, p, sizeof(p));
		type = "regression";
		snprintf(msg, sizeof(msg),
			 "%s %s (%s): p(%s) %s < alpha %g, |change| >= threshold %g%%",
			 w->key->metric, d, cmp_better_text(w->key->better),
			 pt_correction_name(x->res->correction), p, w->alpha, w->threshold_pct);
	}
	if (type) {
		snprintf(c->type, sizeof(c->type), "%s", type);
		snprintf(c->message, sizeof(c->message), "%s", msg);
	}
	row_detail(x, w, c->detail, sizeof(c->detail));
}

void cmp_print_junit(struct compare_ctx *x, FILE *f)
{
	const struct pt_cmp_result *r = x->res;
	struct ju_doc d = { .suite = "ptbench compare",
			    .hostname = x->cand->meta.hostname,
			    .timestamp = x->cand->meta.started_utc };
	struct ju_case *c;
	size_t i;

	run_props(&d, "base", x->base);
	run_props(&d, "new", x->cand);
	ju_prop(&d, "gate.alpha", "%g", x->a->opts.alpha);
	ju_prop(&d, "gate.threshold_pct", "%g", x->a->opts.threshold_pct);
	ju_prop(&d, "gate.correction", "%s", pt_correction_name(r->correction));
	ju_prop(&d, "gate.config", "%s", x->a->config_path ? x->a->config_path : "");
	ju_prop(&d, "gate.filter", "%s", x->a->filter ? x->a->filter : "");
	ju_prop(&d, "gate.strict", "%s", x->a->strict ? "true" : "false");
	ju_prop(&d, "exit_status", "%d", cmp_exit_code(x));
	for (i = 0; i < r->n; i++)
		if (r->rows[i].verdict != PT_V_INFO)
			two_run_case(&d, x, &r->rows[i]);
	if (r->gate_blind) {
		c = ju_add(&d, "ptbench", "gate/can-fire", x->a->strict ? JU_ERROR : JU_SKIP);
		if (c) {
			snprintf(c->type, sizeof(c->type), "gate-blind");
			snprintf(c->message, sizeof(c->message),
				 "with %zu series under %s correction no series can reach its "
				 "alpha at these sample counts: add repetitions",
				 r->tested, pt_correction_name(r->correction));
		}
	}
	snprintf(d.out, sizeof(d.out),
		 "base %s, new %s\n%zu series, %zu tested: %zu worse, %zu better, %zu changed, "
		 "%zu too few samples, %zu not gated, %zu base only, %zu new only, %zu shown "
		 "(not a primary metric)\n",
		 x->base->path, x->cand->path, r->n, r->tested, r->regressions, r->improvements,
		 r->changed, r->too_few, r->ungated, r->base_only, r->new_only, r->info);
	if (ju_print(&d, f))
		fprintf(stderr, "ptbench compare: out of memory writing the JUnit document\n");
	ju_free(&d);
}

/* ---- against a pool ---- */

static void pool_case(struct ju_doc *doc, const struct compare_args *a,
		      const struct pt_pool_result *r, const struct pt_pool_row *w)
{
	const struct pt_pool_point *k = w->key;
	enum ju_kind kind = JU_PASS;
	const char *type = NULL;
	char name[512], msg[512] = "";
	struct ju_case *c;

	switch (w->verdict) {
	case PT_V_WORSE:
		kind = JU_FAIL;
		type = "regression";
		snprintf(msg, sizeof(msg),
			 "%s %+.1f%% (%s) against a pool of %zu run(s): p(holm) %.2g < alpha %g, "
			 "|change| >= threshold %g%%; smallest detectable change %.1f%%",
			 k->metric, w->change_pct, cmp_better_text(k->better), w->k, w->p_adj,
			 w->alpha, w->threshold_pct, w->detectable_pct);
		break;
	case PT_V_TOO_FEW:
		kind = JU_SKIP;
		type = "too-few-runs";
		snprintf(msg, sizeof(msg),
			 "too few pool runs (%zu, at least %llu needed) or a median <= 0; "
			 "not judged",
			 w->k, (unsigned long long)a->pool_min);
		break;
	case PT_V_BASE_ONLY:
		kind = JU_SKIP;
		type = "missing";
		snprintf(msg, sizeof(msg), "in the pool only: missing from the NEW runs");
		break;
	case PT_V_NEW_ONLY:
		kind = JU_SKIP;
		type = "new-series";
		snprintf(msg, sizeof(msg), "in the NEW runs only: not in the pool");
		break;
	case PT_V_UNGATED:
		kind = JU_SKIP;
		type = "not-gated";
		snprintf(msg, sizeof(msg), "not gated: gate=off in %s",
			 a->config_path ? a->config_path : "the config");
		break;
	default:
		break;
	}
	case_name(k->cs, k->metric, name, sizeof(name));
	c = ju_add(doc, k->workload, name, kind);
	if (!c)
		return;
	if (type) {
		snprintf(c->type, sizeof(c->type), "%s", type);
		snprintf(c->message, sizeof(c->message), "%s", msg);
	}
	snprintf(c->detail, sizeof(c->detail),
		 "%s/%s %s (%s; %s)\npool: %zu run(s), median %.4g, spread between runs %.1f%%; "
		 "NEW: %zu run(s), median %.4g\nchange %+.1f%%, p(holm) %.2g; alpha %g, threshold "
		 "%g%%, smallest detectable change %.1f%% (over the tested series: %.1f%%)\n"
		 "verdict: %s\n",
		 k->workload, k->cs, k->metric, k->unit, cmp_better_text(k->better), w->k,
		 exp(w->pool_mean), (exp(w->pool_sd) - 1) * 100, w->n, exp(w->new_mean),
		 w->change_pct, w->p_adj, w->alpha, w->threshold_pct, w->detectable_pct,
		 r->median_detectable_pct, pt_verdict_name(w->verdict));
}

void cmp_pool_print_junit(const struct compare_args *a, const struct pt_pool_result *r,
			  const struct pt_rundir *news, int nnew, FILE *f)
{
	struct ju_doc d = { .suite = "ptbench compare --baseline-db" };
	char side[32];
	size_t i;
	int k;

	if (nnew > 0) {
		d.hostname = news[nnew - 1].meta.hostname;
		d.timestamp = news[nnew - 1].meta.started_utc;
	}
	ju_prop(&d, "pool.db", "%s", a->pool_db);
	ju_prop(&d, "pool.tag", "%s", a->pool_tag ? a->pool_tag : "");
	ju_prop(&d, "pool.suite", "%s", a->pool_suite ? a->pool_suite : "");
	ju_prop(&d, "pool.runs", "%zu", r->pool_runs);
	ju_prop(&d, "pool.min_runs", "%llu", (unsigned long long)a->pool_min);
	for (k = 0; k < nnew; k++) {
		snprintf(side, sizeof(side), "new.%d", k + 1);
		run_props(&d, side, &news[k]);
	}
	ju_prop(&d, "gate.alpha", "%g", a->opts.alpha);
	ju_prop(&d, "gate.threshold_pct", "%g", a->opts.threshold_pct);
	ju_prop(&d, "gate.correction", "holm");
	ju_prop(&d, "gate.config", "%s", a->config_path ? a->config_path : "");
	ju_prop(&d, "gate.filter", "%s", a->filter ? a->filter : "");
	if (isfinite(r->median_detectable_pct))
		ju_prop(&d, "median_detectable_pct", "%.1f", r->median_detectable_pct);
	ju_prop(&d, "exit_status", "%d", r->regressions ? 1 : 0);
	for (i = 0; i < r->n; i++)
		if (r->rows[i].gated || r->rows[i].verdict == PT_V_UNGATED)
			pool_case(&d, a, r, &r->rows[i]);
	snprintf(d.out, sizeof(d.out),
		 "%zu NEW run(s) against a pool of %zu run(s) from %s\n%zu gated series tested: "
		 "%zu worse, %zu better, %zu too few pool runs; %zu shown, not gated\n"
		 "smallest change this comparison could detect (median over the tested series): "
		 "%.1f%%\n",
		 r->new_runs, r->pool_runs, a->pool_db, r->tested, r->regressions, r->improvements,
		 r->too_few, r->info + r->ungated, r->median_detectable_pct);
	if (ju_print(&d, f))
		fprintf(stderr, "ptbench compare: out of memory writing the JUnit document\n");
	ju_free(&d);
}
