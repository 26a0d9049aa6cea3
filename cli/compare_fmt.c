// SPDX-License-Identifier: GPL-2.0-only
/* ptbench compare: numbers and labels as every output format shows them. */
#include <math.h>
#include <stdio.h>

#include "cli/compare.h"
#include "util/json.h"
#include "util/schema.h"

/* Four significant digits, with an SI prefix for very large or small values. */
void cmp_fmt_num(double v, char *buf, size_t len)
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

void cmp_fmt_side(const struct pt_series *s, const struct pt_summary *sum, char *buf, size_t len)
{
	char num[32], ci[32];

	if (!s) {
		snprintf(buf, len, "-");
		return;
	}
	cmp_fmt_num(sum->median, num, sizeof(num));
	fmt_ci(sum, ci, sizeof(ci));
	snprintf(buf, len, "%s %s", num, ci);
}

void cmp_fmt_delta(double d, char *buf, size_t len)
{
	if (isnan(d))
		snprintf(buf, len, "-");
	else if (isinf(d))
		snprintf(buf, len, "%sinf%%", d > 0 ? "+" : "-");
	else
		snprintf(buf, len, "%+.1f%%", d);
}

void cmp_fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p >= 0.001)
		snprintf(buf, len, "%.3f", p);
	else
		snprintf(buf, len, "%.1e", p);
}

void cmp_fmt_n(const struct pt_cmp_row *w, char *buf, size_t len)
{
	snprintf(buf, len, "%zu+%zu", w->base ? w->base->n : 0, w->cand ? w->cand->n : 0);
}

void cmp_row_label(const struct pt_series *s, char *buf, size_t len)
{
	if (s->params[0])
		snprintf(buf, len, "%s/%s [%s]", s->workload, s->cs, s->params);
	else
		snprintf(buf, len, "%s/%s", s->workload, s->cs);
}

const char *cmp_better_text(enum pt_better b)
{
	return b == PT_LOWER	? "lower is better"
	       : b == PT_HIGHER ? "higher is better"
				: "descriptive, no better direction";
}

void cmp_json_series_id(struct pt_json *j, const char *workload, const char *cs, const char *params,
			const char *metric, const char *unit, enum pt_better better)
{
	pt_json_str(j, "workload", workload);
	pt_json_str(j, "case", cs);
	pt_json_str(j, "params", params);
	pt_json_str(j, "metric", metric);
	pt_json_str(j, "unit", unit);
	pt_json_str(j, "better", pt_better_name(better));
}

const char *cmp_or_unknown(const char *s)
{
	return s[0] ? s : "?";
}

void cmp_print_warning_block(struct compare_ctx *x, FILE *f, const char *prefix)
{
	size_t i;

	if (!x->env.loud)
		return;
	fprintf(f, "%sWARNING: the two runs were measured on different hardware or page size:\n",
		prefix);
	for (i = 0; i < x->env.n; i++) {
		const struct pt_env_field *e = &x->env.f[i];

		if (e->kind == PT_ENV_LOUD && pt_env_differs(e))
			fprintf(f, "%s  %s: '%s' (base) vs '%s' (new)\n", prefix, e->label, e->base,
				e->cand);
	}
	fprintf(f,
		"%sDifferences below mix the hardware with the kernel; do not read them as the\n"
		"%skernel's alone. Compare runs from one machine to judge a kernel change.\n",
		prefix, prefix);
}

void cmp_print_meta_notes(struct compare_ctx *x, FILE *f, const char *prefix)
{
	if (!x->base->meta.present)
		fprintf(f, "%snote: base has no meta.json (%s): environment unknown\n", prefix,
			x->base->meta_note);
	if (!x->cand->meta.present)
		fprintf(f, "%snote: new has no meta.json (%s): environment unknown\n", prefix,
			x->cand->meta_note);
}
