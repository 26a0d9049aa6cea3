// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench compare BASE NEW: a side-by-side table of two runs and an exit
 * status a CI job can gate on (0 no significant regression, 1 at least one,
 * 2 bad input). The statistics live in analysis/compare.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/gate_opts.h"
#include "analysis/compare.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/json.h"
#include "analysis/rundir.h"
#include "analysis/runsummary.h"

enum out_format { FMT_TEXT, FMT_MARKDOWN, FMT_CSV, FMT_JSON };

struct compare_args {
	const char *base, *cand;
	const char *config_path, *out_path, *filter;
	enum out_format format;
	bool strict;
	struct pt_cmp_opts opts;
};

/* How much a difference in one environment field matters. */
enum env_kind {
	ENV_INFO, /* shown, marked when it differs */
	ENV_EXPECTED, /* differs between a D64 and a D128 kernel: the point */
	ENV_LOUD, /* different hardware or page size: a WARNING */
};

struct env_field {
	const char *label;
	const char *base, *cand;
	enum env_kind kind;
};

#define ENV_FIELDS 13

struct compare_ctx {
	struct compare_args *a;
	struct pt_rundir *base, *cand;
	struct pt_cmp_result *res;
	struct env_field env[ENV_FIELDS];
	size_t nenv;
	size_t loud; /* loud fields that differ */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench compare BASE NEW [options]\n"
		"\n"
		"Compare two runs (run directories, or their results.csv files) series by\n"
		"series: median and 95%% confidence interval on each side, change in %%,\n"
		"Mann-Whitney U p-value, and a verdict (better, worse, ~).\n"
		"\n"
		"options:\n"
		"  --alpha A          significance level, 0 < A < 1 (default %g)\n"
		"  --threshold P      smallest change that counts, in %% (default %g%%)\n"
		"  --correction C     holm (default), bh (Benjamini-Hochberg) or none\n"
		"  --config FILE      per-metric settings: lines 'GLOB threshold=P%% alpha=A\n"
		"                     gate=on|off' matched against workload/case/metric; last\n"
		"                     match wins; gate=off shows a series without judging it\n"
		"                     (ptbench calibrate writes one for this machine)\n"
		"  --filter GLOB      compare only series whose workload/case/metric matches\n"
		"  --format F         text (default), markdown, csv or json\n"
		"  -o, --output FILE  write the table to FILE (atomically) instead of stdout\n"
		"  --strict           also exit 1 when a series cannot be judged: too few\n"
		"                     samples, a gate that cannot fire, a series of BASE\n"
		"                     missing from NEW, or a series under gate=off\n"
		"  -h, --help         this text\n"
		"\n"
		"Exit status: 0 no significant regression, 1 at least one significant\n"
		"regression (named on stderr), 2 bad input or usage.\n"
		"See docs/compare.md.\n",
		PT_CMP_ALPHA_DEFAULT, PT_CMP_THRESHOLD_DEFAULT);
}

static int parse_format(const char *s, enum out_format *f)
{
	static const char *const names[] = { "text", "markdown", "csv", "json" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*f = (enum out_format)i;
			return 0;
		}
	return -1;
}

/* 0 parsed, 1 --help given, or PT_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "threshold", required_argument, NULL, 't' },
		{ "correction", required_argument, NULL, 'c' },
		{ "config", required_argument, NULL, 'C' },
		{ "filter", required_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->opts.alpha = PT_CMP_ALPHA_DEFAULT;
	a->opts.threshold_pct = PT_CMP_THRESHOLD_DEFAULT;
	a->opts.correction = PT_CORR_HOLM;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
		case 't':
		case 'c':
			if (pt_gate_option("compare", c, optarg, &a->opts))
				return PT_EXIT_USAGE;
			break;
		case 'C':
			a->config_path = optarg;
			break;
		case 'F':
			a->filter = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &a->format))
				return pt_usage_error(
					"compare",
					"--format '%s': expected text, markdown, csv or json",
					optarg);
			break;
		case 'o':
			a->out_path = optarg;
			break;
		case 's':
			a->strict = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
			return pt_usage_error("compare", "%s needs a value", argv[optind - 1]);
		default:
			return pt_usage_error("compare", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 2)
		return pt_usage_error("compare", "expected two runs, BASE and NEW (got %d)",
				      argc - optind);
	a->base = argv[optind];
	a->cand = argv[optind + 1];
	a->opts.filter = a->filter;
	return 0;
}

/* ---- formatting of numbers ---- */

/* Four significant digits, with an SI prefix for very large or small values. */
static void fmt_num(double v, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *prefix;
	} si[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
	double a = fabs(v);
	size_t i;

	if (a >= 1e4) {
		for (i = 0; i < sizeof(si) / sizeof(si[0]); i++)
			if (a >= si[i].scale) {
				snprintf(buf, len, "%.4g%s", v / si[i].scale, si[i].prefix);
				return;
			}
	}
	if (a != 0 && a < 1e-3) {
		snprintf(buf, len, "%.4gµ", v * 1e6);
		return;
	}
	snprintf(buf, len, "%.4g", v);
}

/* Half-width of the median's 95% interval as % of the median. */
static double ci_half_pct(const struct pt_summary *s)
{
	double half = fmax(s->ci_hi - s->median, s->median - s->ci_lo);

	if (!s->ci_valid)
		return NAN;
	if (s->median == 0)
		return half == 0 ? 0 : INFINITY;
	return half / fabs(s->median) * 100.0;
}

static void fmt_ci(const struct pt_summary *s, char *buf, size_t len)
{
	double h = ci_half_pct(s);

	if (isnan(h))
		snprintf(buf, len, "±?");
	else if (isinf(h))
		snprintf(buf, len, "±inf");
	else
		snprintf(buf, len, h >= 1 ? "±%.0f%%" : "±%.1f%%", h);
}

static void fmt_side(const struct pt_series *s, const struct pt_summary *sum, char *buf, size_t len)
{
	char num[32], ci[32];

	if (!s) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_num(sum->median, num, sizeof(num));
	fmt_ci(sum, ci, sizeof(ci));
	snprintf(buf, len, "%s %s", num, ci);
}

static void fmt_delta(double d, char *buf, size_t len)
{
	if (isnan(d))
		snprintf(buf, len, "-");
	else if (isinf(d))
		snprintf(buf, len, "%sinf%%", d > 0 ? "+" : "-");
	else
		snprintf(buf, len, "%+.1f%%", d);
}

static void fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p >= 0.001)
		snprintf(buf, len, "%.3f", p);
	else
		snprintf(buf, len, "%.1e", p);
}

static void fmt_n(const struct pt_cmp_row *w, char *buf, size_t len)
{
	snprintf(buf, len, "%zu+%zu", w->base ? w->base->n : 0, w->cand ? w->cand->n : 0);
}

static void row_label(const struct pt_series *s, char *buf, size_t len)
{
	if (s->params[0])
		snprintf(buf, len, "%s/%s [%s]", s->workload, s->cs, s->params);
	else
		snprintf(buf, len, "%s/%s", s->workload, s->cs);
}

static const char *better_text(enum pt_better b)
{
	return b == PT_LOWER	? "lower is better"
	       : b == PT_HIGHER ? "higher is better"
				: "descriptive, no better direction";
}

static const char *better_word(enum pt_better b)
{
	return b == PT_LOWER ? "lower" : b == PT_HIGHER ? "higher" : "neither";
}

/* ---- a table with columns aligned by display width (UTF-8 aware) ---- */

#define TBL_COLS 8
#define TBL_CELL 256

struct tbl {
	size_t ncol, nrow, cap;
	char (*cell)[TBL_COLS][TBL_CELL];
	bool right[TBL_COLS];
};

static size_t disp_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void tbl_row(struct tbl *t, ...)
{
	va_list ap;
	size_t c;

	if (t->nrow == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		void *n = realloc(t->cell, ncap * sizeof(*t->cell));

		if (!n)
			return;
		t->cell = n;
		t->cap = ncap;
	}
	va_start(ap, t);
	for (c = 0; c < t->ncol; c++)
		snprintf(t->cell[t->nrow][c], TBL_CELL, "%s", va_arg(ap, const char *));
	va_end(ap);
	t->nrow++;
}

static void tbl_print(struct tbl *t, FILE *f, const char *indent)
{
	size_t w[TBL_COLS] = { 0 }, r, c, pad;

	for (r = 0; r < t->nrow; r++)
		for (c = 0; c < t->ncol; c++)
			if (disp_width(t->cell[r][c]) > w[c])
				w[c] = disp_width(t->cell[r][c]);
	for (r = 0; r < t->nrow; r++) {
		size_t last = t->ncol;

		while (last > 1 && !t->cell[r][last - 1][0])
			last--;
		fputs(indent, f);
		for (c = 0; c < last; c++) {
			pad = w[c] - disp_width(t->cell[r][c]);
			if (t->right[c])
				fprintf(f, "%*s%s", (int)pad, "", t->cell[r][c]);
			else if (c + 1 < last)
				fprintf(f, "%s%*s", t->cell[r][c], (int)pad, "");
			else
				fputs(t->cell[r][c], f);
			if (c + 1 < last)
				fputs("  ", f);
		}
		fputc('\n', f);
	}
	free(t->cell);
	t->cell = NULL;
	t->nrow = t->cap = 0;
}

/* ---- the environment header ---- */

static void env_add(struct compare_ctx *x, const char *label, const char *b, const char *c,
		    enum env_kind kind)
{
	if (x->nenv < ENV_FIELDS)
		x->env[x->nenv++] = (struct env_field){ label, b, c, kind };
}

static bool env_differs(const struct env_field *e)
{
	return e->base[0] && e->cand[0] && strcmp(e->base, e->cand);
}

static void env_collect(struct compare_ctx *x)
{
	const struct pt_rundir_meta *b = &x->base->meta, *c = &x->cand->meta;
	size_t i;

	env_add(x, "kernel release", b->kernel_release, c->kernel_release, ENV_EXPECTED);
	env_add(x, "regime", b->regime_text, c->regime_text, ENV_EXPECTED);
	env_add(x, "descriptor format", b->format, c->format, ENV_EXPECTED);
	env_add(x, "arch", b->arch, c->arch, ENV_LOUD);
	env_add(x, "CPU model", b->cpu_model, c->cpu_model, ENV_LOUD);
	env_add(x, "page size", b->page_size, c->page_size, ENV_LOUD);
	env_add(x, "hpage_pmd_size", b->pmd_size, c->pmd_size, ENV_INFO);
	env_add(x, "THP mode", b->thp_mode, c->thp_mode, ENV_INFO);
	env_add(x, "hardware PMU", b->pmu, c->pmu, ENV_INFO);
	env_add(x, "suite", b->suite, c->suite, ENV_INFO);
	env_add(x, "repetitions", b->reps, c->reps, ENV_INFO);
	env_add(x, "ptbench version", b->tool_version, c->tool_version, ENV_INFO);
	env_add(x, "host steal time, % of CPU", b->steal_pct, c->steal_pct, ENV_INFO);
	for (i = 0; i < x->nenv; i++)
		if (x->env[i].kind == ENV_LOUD && env_differs(&x->env[i]))
			x->loud++;
}

static const char *env_mark(const struct env_field *e)
{
	if (!e->base[0] || !e->cand[0])
		return e->base[0] || e->cand[0] ? "unknown on one side" : "";
	if (!env_differs(e))
		return "";
	switch (e->kind) {
	case ENV_LOUD:
		return "DIFFERS: see WARNING";
	case ENV_EXPECTED:
		return "differs (expected when comparing kernels, e.g. D64 vs D128)";
	default:
		return "differs";
	}
}

static const char *or_unknown(const char *s)
{
	return s[0] ? s : "?";
}

static void print_warning_block(struct compare_ctx *x, FILE *f, const char *prefix)
{
	size_t i;

	if (!x->loud)
		return;
	fprintf(f, "%sWARNING: the two runs were measured on different hardware or page size:\n",
		prefix);
	for (i = 0; i < x->nenv; i++) {
		const struct env_field *e = &x->env[i];

		if (e->kind == ENV_LOUD && env_differs(e))
			fprintf(f, "%s  %s: '%s' (base) vs '%s' (new)\n", prefix, e->label, e->base,
				e->cand);
	}
	fprintf(f,
		"%sDifferences below mix the hardware with the kernel; do not read them as the\n"
		"%skernel's alone. Compare runs from one machine to judge a kernel change.\n",
		prefix, prefix);
}

static void print_meta_notes(struct compare_ctx *x, FILE *f, const char *prefix)
{
	if (!x->base->meta.present)
		fprintf(f, "%snote: base has no meta.json (%s): environment unknown\n", prefix,
			x->base->meta_note);
	if (!x->cand->meta.present)
		fprintf(f, "%snote: new has no meta.json (%s): environment unknown\n", prefix,
			x->cand->meta_note);
}

/* ---- text ---- */

static void text_env(struct compare_ctx *x, FILE *f)
{
	struct tbl t = { .ncol = 4 };
	size_t i;

	tbl_row(&t, "environment", "base", "new", "");
	for (i = 0; i < x->nenv; i++) {
		const struct env_field *e = &x->env[i];

		tbl_row(&t, e->label, or_unknown(e->base), or_unknown(e->cand), env_mark(e));
	}
	tbl_print(&t, f, "");
	print_meta_notes(x, f, "");
	if (x->loud) {
		fputc('\n', f);
		fprintf(f,
			"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n");
		print_warning_block(x, f, "!!! ");
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
	struct tbl t = { .ncol = 7, .right = { false, true, true, true, true, true, false } };
	size_t i;

	fprintf(f, "\n%s (%s; %s)\n", g->metric, g->unit, better_text(g->better));
	snprintf(ph, sizeof(ph), "p(%s)", pt_correction_name(x->res->correction));
	tbl_row(&t, "", "base", "new", "delta", ph, "n", "");
	for (i = first; i < x->res->n; i++) {
		const struct pt_cmp_row *w = &x->res->rows[i];

		if (done[i] || !same_group(w->key, g))
			continue;
		done[i] = true;
		row_label(w->key, label, sizeof(label));
		fmt_side(w->base, &w->sb, bs, sizeof(bs));
		fmt_side(w->cand, &w->sn, ns, sizeof(ns));
		fmt_delta(w->change_pct, d, sizeof(d));
		fmt_p(w->p_adj, p, sizeof(p));
		fmt_n(w, n, sizeof(n));
		tbl_row(&t, label, bs, ns, d, p, n, pt_verdict_name(w->verdict));
	}
	tbl_print(&t, f, "  ");
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
			prefix, r->too_few, x->a->opts.alpha, pt_cmp_min_samples(x->a->opts.alpha));
	if (r->gate_blind)
		fprintf(f,
			"%sWARNING: with %zu series under %s correction no series can reach its alpha "
			"at these sample counts: this gate cannot detect anything; add repetitions\n",
			prefix, r->tested, pt_correction_name(r->correction));
}

static void text_legend(struct compare_ctx *x, FILE *f)
{
	fprintf(f,
		"\nbase, new: median ±half-width of its 95%% confidence interval, in %% of the "
		"median\n"
		"delta: (new - base) / base of the medians; p: Mann-Whitney U, %s-corrected\n"
		"verdict: better/worse = p < alpha and |delta| >= threshold, in the direction the "
		"metric's\n"
		"  header names; ~ = no significant change; changed = significant change of a "
		"descriptive\n"
		"  metric; too few samples = the test cannot reach alpha with these counts\n",
		pt_correction_name(x->res->correction));
	if (any_invalid_ci(x->res))
		fprintf(f, "±?: fewer samples than a distribution-free 95%% interval needs (6)\n");
}

static void print_text(struct compare_ctx *x, FILE *f)
{
	bool *done = calloc(x->res->n + 1, sizeof(*done));
	size_t i;

	fprintf(f,
		"ptbench compare\n  base: %s (%zu series, %zu samples)\n"
		"  new:  %s (%zu series, %zu samples)\n\n",
		x->base->path, x->base->nseries, x->base->nrows, x->cand->path, x->cand->nseries,
		x->cand->nrows);
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

static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc(' ', f);
}

static void print_markdown(struct compare_ctx *x, FILE *f)
{
	char label[512], bs[64], ns[64], d[32], p[32], n[32], v[48];
	size_t i;

	fprintf(f, "## ptbench compare\n\n- base: `%s`\n- new: `%s`\n\n", x->base->path,
		x->cand->path);
	fprintf(f, "| environment | base | new | |\n|---|---|---|---|\n");
	for (i = 0; i < x->nenv; i++) {
		md_cell(f, x->env[i].label);
		md_cell(f, or_unknown(x->env[i].base));
		md_cell(f, or_unknown(x->env[i].cand));
		md_cell(f, env_mark(&x->env[i]));
		fputs("|\n", f);
	}
	if (x->loud) {
		fputs("\n> **", f);
		print_warning_block(x, f, "");
		fputs("**\n", f);
	}
	print_meta_notes(x, f, "\n> ");
	fprintf(f,
		"\n| series | metric | unit | better | base | new | delta | p(%s) | n | "
		"verdict |\n|---|---|---|---|---:|---:|---:|---:|---:|---|\n",
		pt_correction_name(x->res->correction));
	for (i = 0; i < x->res->n; i++) {
		const struct pt_cmp_row *w = &x->res->rows[i];

		row_label(w->key, label, sizeof(label));
		fmt_side(w->base, &w->sb, bs, sizeof(bs));
		fmt_side(w->cand, &w->sn, ns, sizeof(ns));
		fmt_delta(w->change_pct, d, sizeof(d));
		fmt_p(w->p_adj, p, sizeof(p));
		fmt_n(w, n, sizeof(n));
		snprintf(v, sizeof(v), w->verdict == PT_V_WORSE ? "**%s**" : "%s",
			 pt_verdict_name(w->verdict));
		md_cell(f, label);
		md_cell(f, w->key->metric);
		md_cell(f, w->key->unit);
		md_cell(f, better_word(w->key->better));
		md_cell(f, bs);
		md_cell(f, ns);
		md_cell(f, d);
		md_cell(f, p);
		md_cell(f, n);
		md_cell(f, v);
		fputs("|\n", f);
	}
	fputc('\n', f);
	text_summary(x, f, "- ");
}

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

static void print_csv(struct compare_ctx *x, FILE *f)
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
		csv_str(f, better_word(w->key->better), false);
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
		pt_json_str(j, "workload", w->key->workload);
		pt_json_str(j, "case", w->key->cs);
		pt_json_str(j, "params", w->key->params);
		pt_json_str(j, "metric", w->key->metric);
		pt_json_str(j, "unit", w->key->unit);
		pt_json_str(j, "better", better_word(w->key->better));
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

static bool strict_fails(const struct compare_ctx *x)
{
	const struct pt_cmp_result *r = x->res;

	return x->a->strict && (r->too_few || r->gate_blind || r->base_only || r->ungated || !r->n);
}

/* The exit status, so the JSON can record it before the command ends. */
static int exit_code(const struct compare_ctx *x)
{
	return x->res->regressions || strict_fails(x) ? PT_EXIT_FAIL : PT_EXIT_OK;
}

static const char *exit_meaning(const struct compare_ctx *x)
{
	if (x->res->regressions)
		return "at least one series is significantly worse";
	if (strict_fails(x))
		return "--strict: some series could not be judged";
	return "no significant regression";
}

static void print_json(struct compare_ctx *x, FILE *f)
{
	const struct pt_cmp_result *r = x->res;
	struct pt_json j;
	size_t i;

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
	pt_json_obj_end(&j);
	pt_json_arr_begin(&j, "environment");
	for (i = 0; i < x->nenv; i++) {
		pt_json_obj_begin(&j, NULL);
		pt_json_str(&j, "field", x->env[i].label);
		pt_json_str(&j, "base", x->env[i].base[0] ? x->env[i].base : NULL);
		pt_json_str(&j, "new", x->env[i].cand[0] ? x->env[i].cand : NULL);
		pt_json_bool(&j, "differs", env_differs(&x->env[i]));
		pt_json_bool(&j, "warning", x->env[i].kind == ENV_LOUD && env_differs(&x->env[i]));
		pt_json_obj_end(&j);
	}
	pt_json_arr_end(&j);
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
	pt_json_bool(&j, "hardware_differs", x->loud > 0);
	pt_json_int(&j, "exit_status", exit_code(x));
	pt_json_str(&j, "exit_meaning", exit_meaning(x));
	pt_json_obj_end(&j);
	json_rows(x, &j);
	pt_json_obj_end(&j);
	fputc('\n', f);
}

/* ---- output, stderr and the exit status ---- */

static int write_output(struct compare_ctx *x)
{
	static void (*const printers[])(struct compare_ctx *, FILE *) = {
		print_text,
		print_markdown,
		print_csv,
		print_json,
	};
	char tmp[4200];
	FILE *f = stdout;
	int err;

	if (x->a->out_path) {
		f = pt_atomic_open(x->a->out_path, tmp, sizeof(tmp));
		if (!f) {
			fprintf(stderr, "ptbench compare: %s: %s\n", x->a->out_path,
				strerror(errno ? errno : ENAMETOOLONG));
			return PT_EXIT_USAGE;
		}
	}
	printers[x->a->format](x, f);
	if (!x->a->out_path)
		return fflush(stdout) ? PT_EXIT_FAIL : PT_EXIT_OK;
	err = pt_atomic_commit(f, tmp, x->a->out_path);
	if (err) {
		fprintf(stderr, "ptbench compare: %s: %s\n", x->a->out_path, strerror(-err));
		return PT_EXIT_USAGE;
	}
	return PT_EXIT_OK;
}

static void name_series(FILE *f, const struct pt_cmp_row *w)
{
	char label[512], d[32], p[32];

	row_label(w->key, label, sizeof(label));
	fmt_delta(w->change_pct, d, sizeof(d));
	fmt_p(w->p_adj, p, sizeof(p));
	fprintf(f, "  %s %s: %s (%s), p=%s\n", label, w->key->metric, d,
		better_text(w->key->better), p);
}

static void report_stderr(struct compare_ctx *x)
{
	const struct pt_cmp_result *r = x->res;
	size_t i;

	if (x->loud)
		print_warning_block(x, stderr, "ptbench compare: ");
	if (r->too_few)
		fprintf(stderr,
			"ptbench compare: WARNING: %zu series have too few samples to test at alpha "
			"%g (each side needs >= %zu); they were not judged%s\n",
			r->too_few, x->a->opts.alpha, pt_cmp_min_samples(x->a->opts.alpha),
			x->a->strict ? "" : " (--strict makes this fail)");
	if (r->gate_blind)
		fprintf(stderr,
			"ptbench compare: WARNING: the gate cannot fire at these sample "
			"counts under %s correction; add repetitions\n",
			pt_correction_name(r->correction));
	if (r->base_only)
		fprintf(stderr, "ptbench compare: note: %zu series of BASE are missing from NEW\n",
			r->base_only);
	if (r->ungated)
		fprintf(stderr, "ptbench compare: note: %zu series not gated (gate=off in %s)%s\n",
			r->ungated, x->a->config_path ? x->a->config_path : "the config",
			x->a->strict ? "" : " (--strict makes this fail)");
	if (!r->n)
		fprintf(stderr, "ptbench compare: WARNING: no series to compare\n");
	if (!r->regressions)
		return;
	fprintf(stderr, "ptbench compare: significant regression in %zu series:\n", r->regressions);
	for (i = 0; i < r->n; i++)
		if (r->rows[i].verdict == PT_V_WORSE)
			name_series(stderr, &r->rows[i]);
}

static int exit_status(const struct compare_ctx *x)
{
	if (!x->res->regressions && strict_fails(x))
		fprintf(stderr, "ptbench compare: --strict: failing because some series could "
				"not be judged\n");
	return exit_code(x);
}

static int load_inputs(struct compare_args *a, struct pt_rundir *base, struct pt_rundir *cand,
		       struct pt_cmp_config *cfg)
{
	char err[4400];

	if (pt_rundir_read(a->base, base, err, sizeof(err))) {
		fprintf(stderr, "ptbench compare: base: %s\n", err);
		return -1;
	}
	if (pt_rundir_read(a->cand, cand, err, sizeof(err))) {
		fprintf(stderr, "ptbench compare: new: %s\n", err);
		pt_rundir_free(base);
		return -1;
	}
	if (a->config_path && pt_cmp_config_load(a->config_path, cfg, err, sizeof(err))) {
		fprintf(stderr, "ptbench compare: config: %s\n", err);
		pt_rundir_free(base);
		pt_rundir_free(cand);
		return -1;
	}
	a->opts.config = cfg;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { 0 };
	struct pt_cmp_config cfg = { 0 };
	struct pt_cmp_result res;
	struct pt_rundir base, cand;
	struct compare_ctx x = { .a = &a, .base = &base, .cand = &cand, .res = &res };
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret == 1 ? PT_EXIT_OK : ret;
	if (load_inputs(&a, &base, &cand, &cfg))
		return PT_EXIT_USAGE;
	if (pt_compare(base.series, base.nseries, cand.series, cand.nseries, &a.opts, &res)) {
		fprintf(stderr, "ptbench compare: out of memory\n");
		ret = PT_EXIT_FAIL;
		goto out;
	}
	env_collect(&x);
	ret = write_output(&x);
	if (!ret) {
		report_stderr(&x);
		ret = exit_status(&x);
	}
	pt_cmp_result_free(&res);
out:
	pt_cmp_config_free(&cfg);
	pt_rundir_free(&base);
	pt_rundir_free(&cand);
	return ret;
}
