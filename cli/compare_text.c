// SPDX-License-Identifier: GPL-2.0-only
/* ptbench compare --format text (the default) and --format markdown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/compare.h"
#include "util/mdtext.h"
#include "util/table.h"

/* ---- text ---- */

static void text_env(struct compare_ctx *x, FILE *f)
{
	struct pt_table t = { .ncol = 4 };
	size_t i;

	pt_table_row(&t, "environment", "base", "new", "");
	for (i = 0; i < x->env.n; i++) {
		const struct pt_env_field *e = &x->env.f[i];

		pt_table_row(&t, e->label, cmp_or_unknown(e->base), cmp_or_unknown(e->cand),
			     pt_env_mark(e));
	}
	pt_table_print(&t, f, "");
	cmp_print_meta_notes(x, f, "");
	if (x->env.loud) {
		fputc('\n', f);
		fprintf(f,
			"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n");
		cmp_print_warning_block(x, f, "!!! ");
		fprintf(f,
			"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n");
	}
}

static bool same_group(const struct pt_series *a, const struct pt_series *b)
{
	return !strcmp(a->metric, b->metric) && !strcmp(a->unit, b->unit) && a->better == b->better;
}

static void text_group(struct compare_ctx *x, FILE *f, size_t first, bool *done)
{
	const struct pt_series *g = x->res->rows[first].key;
	char label[512], bs[64], ns[64], d[32], p[32], n[32], ph[32];
	struct pt_table t = { .ncol = 7, .right = { false, true, true, true, true, true, false } };
	size_t i;

	fprintf(f, "\n%s (%s; %s)\n", g->metric, g->unit, cmp_better_text(g->better));
	snprintf(ph, sizeof(ph), "p(%s)", pt_correction_name(x->res->correction));
	pt_table_row(&t, "", "base", "new", "delta", ph, "n", "");
	for (i = first; i < x->res->n; i++) {
		const struct pt_cmp_row *w = &x->res->rows[i];

		if (done[i] || !same_group(w->key, g))
			continue;
		done[i] = true;
		cmp_row_label(w->key, label, sizeof(label));
		cmp_fmt_side(w->base, &w->sb, bs, sizeof(bs));
		cmp_fmt_side(w->cand, &w->sn, ns, sizeof(ns));
		cmp_fmt_delta(w->change_pct, d, sizeof(d));
		cmp_fmt_p(w->p_adj, p, sizeof(p));
		cmp_fmt_n(w, n, sizeof(n));
		pt_table_row(&t, label, bs, ns, d, p, n, pt_verdict_name(w->verdict));
	}
	pt_table_print(&t, f, "  ");
}

static bool any_invalid_ci(const struct pt_cmp_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if ((r->rows[i].base && !r->rows[i].sb.ci_valid) ||
		    (r->rows[i].cand && !r->rows[i].sn.ci_valid))
			return true;
	return false;
}

static void text_summary(struct compare_ctx *x, FILE *f, const char *prefix)
{
	const struct pt_cmp_result *r = x->res;

	fprintf(f,
		"%sgate: alpha %g, threshold %g%%, %s correction over %zu tested series; "
		"%zu series in all\n",
		prefix, x->a->opts.alpha, x->a->opts.threshold_pct,
		pt_correction_name(r->correction), r->tested, r->n);
	if (x->a->config_path)
		fprintf(f, "%sper-metric settings from %s\n", prefix, x->a->config_path);
	fprintf(f,
		"%sresult: %zu worse, %zu better, %zu changed (descriptive), %zu too few samples, "
		"%zu not gated, %zu base only, %zu new only\n",
		prefix, r->regressions, r->improvements, r->changed, r->too_few, r->ungated,
		r->base_only, r->new_only);
	if (r->ungated)
		fprintf(f,
			"%sNOTE: %zu series are not gated (gate=off in %s: their A/A noise on the "
			"calibrated machine is larger than any threshold worth gating on); their "
			"changes are shown, not judged\n",
			prefix, r->ungated, x->a->config_path ? x->a->config_path : "the config");
	if (r->too_few)
		fprintf(f,
			"%sWARNING: %zu series have too few samples for the test to reach alpha; "
			"they are not judged (at alpha %g each side needs >= %zu samples)\n",
			prefix, r->too_few, x->a->opts.alpha,
			pt_cmp_min_samples(x->a->opts.alpha, x->a->opts.test));
	if (r->gate_blind)
		fprintf(f,
			"%sWARNING: with %zu series under %s correction no series can reach its alpha "
			"at these sample counts: this gate cannot detect anything; add repetitions "
			"(run --reps 10: the quick suite measures fewer where its 3-minute budget "
			"asks)\n",
			prefix, r->tested, pt_correction_name(r->correction));
}

static void text_legend(struct compare_ctx *x, FILE *f)
{
	fprintf(f,
		"\nbase, new: median ±half-width of its 95%% confidence interval, in %% of the "
		"median\n"
		"delta: (new - base) / base of the medians; p: %s, %s-corrected\n"
		"verdict: better/worse = p < alpha and |delta| >= threshold, in the direction the "
		"metric's\n"
		"  header names; ~ = no significant change; changed = significant change of a "
		"descriptive\n"
		"  metric; too few samples = the test cannot reach alpha with these counts\n",
		x->a->opts.test == PT_TEST_YUEN
			? "Yuen's test of the fastest 60% of ln(value) (--test yuen)"
			: "Mann-Whitney U",
		pt_correction_name(x->res->correction));
	if (any_invalid_ci(x->res))
		fprintf(f, "±?: fewer samples than a distribution-free 95%% interval needs (6)\n");
}

void cmp_print_text(struct compare_ctx *x, FILE *f)
{
	bool *done = calloc(x->res->n + 1, sizeof(*done));
	size_t i;

	fprintf(f,
		"ptbench compare\n  base: %s (%zu series, %zu samples)\n"
		"  new:  %s (%zu series, %zu samples)\n\n",
		x->base->path, x->base->nseries, x->base->nrows, x->cand->path, x->cand->nseries,
		x->cand->nrows);
	if (x->a->round_effect)
		fprintf(f,
			"round effect taken out of base's %zu and new's %zu gated timed series "
			"(docs/compare.md)\n\n",
			x->rounds_base, x->rounds_new);
	text_env(x, f);
	for (i = 0; done && i < x->res->n; i++)
		if (!done[i])
			text_group(x, f, i, done);
	free(done);
	if (!x->res->n)
		fprintf(f, "\nno series to compare%s\n", x->a->filter ? " (after --filter)" : "");
	text_legend(x, f);
	fputc('\n', f);
	text_summary(x, f, "");
}

/* ---- markdown ---- */

/* A table cell from text that came from a run (util/mdtext.h says how it is escaped). */
static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	pt_md_escape(f, s);
	fputc(' ', f);
}

void cmp_print_markdown(struct compare_ctx *x, FILE *f)
{
	char label[512], bs[64], ns[64], d[32], p[32], n[32], v[48];
	size_t i;

	fprintf(f, "## ptbench compare\n\n- base: `%s`\n- new: `%s`\n\n", x->base->path,
		x->cand->path);
	fprintf(f, "| environment | base | new | |\n|---|---|---|---|\n");
	for (i = 0; i < x->env.n; i++) {
		md_cell(f, x->env.f[i].label);
		md_cell(f, cmp_or_unknown(x->env.f[i].base));
		md_cell(f, cmp_or_unknown(x->env.f[i].cand));
		md_cell(f, pt_env_mark(&x->env.f[i]));
		fputs("|\n", f);
	}
	if (x->env.loud) {
		fputs("\n> **", f);
		cmp_print_warning_block(x, f, "");
		fputs("**\n", f);
	}
	cmp_print_meta_notes(x, f, "\n> ");
	fprintf(f,
		"\n| series | metric | unit | better | base | new | delta | p(%s) | n | "
		"verdict |\n|---|---|---|---|---:|---:|---:|---:|---:|---|\n",
		pt_correction_name(x->res->correction));
	for (i = 0; i < x->res->n; i++) {
		const struct pt_cmp_row *w = &x->res->rows[i];

		cmp_row_label(w->key, label, sizeof(label));
		cmp_fmt_side(w->base, &w->sb, bs, sizeof(bs));
		cmp_fmt_side(w->cand, &w->sn, ns, sizeof(ns));
		cmp_fmt_delta(w->change_pct, d, sizeof(d));
		cmp_fmt_p(w->p_adj, p, sizeof(p));
		cmp_fmt_n(w, n, sizeof(n));
		snprintf(v, sizeof(v), w->verdict == PT_V_WORSE ? "**%s**" : "%s",
			 pt_verdict_name(w->verdict));
		md_cell(f, label);
		md_cell(f, w->key->metric);
		md_cell(f, w->key->unit);
		md_cell(f, pt_better_name(w->key->better));
		md_cell(f, bs);
		md_cell(f, ns);
		md_cell(f, d);
		md_cell(f, p);
		md_cell(f, n);
		fprintf(f, "| %s ", v); /* our own markup: the verdict, bold when worse */
		fputs("|\n", f);
	}
	fputc('\n', f);
	text_summary(x, f, "- ");
}
