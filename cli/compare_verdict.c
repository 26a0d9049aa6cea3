// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench compare's verdict for a CI job: what stderr says (warnings, the
 * regressions by name) and the exit status, which --strict tightens.
 */
#include <stdio.h>

#include "cli/commands.h"
#include "cli/compare.h"

static void name_series(FILE *f, const struct pt_cmp_row *w)
{
	char label[512], d[32], p[32];

	cmp_row_label(w->key, label, sizeof(label));
	cmp_fmt_delta(w->change_pct, d, sizeof(d));
	cmp_fmt_p(w->p_adj, p, sizeof(p));
	fprintf(f, "  %s %s: %s (%s), p=%s\n", label, w->key->metric, d,
		cmp_better_text(w->key->better), p);
}

void cmp_report_stderr(struct compare_ctx *x)
{
	const struct pt_cmp_result *r = x->res;
	size_t i;

	if (x->env.loud)
		cmp_print_warning_block(x, stderr, "ptbench compare: ");
	if (r->too_few)
		fprintf(stderr,
			"ptbench compare: WARNING: %zu series have too few samples to test at alpha "
			"%g (each side needs >= %zu); they were not judged%s\n",
			r->too_few, x->a->opts.alpha,
			pt_cmp_min_samples(x->a->opts.alpha, x->a->opts.test),
			x->a->strict ? "" : " (--strict makes this fail)");
	if (r->gate_blind)
		fprintf(stderr,
			"ptbench compare: WARNING: the gate cannot fire at these sample "
			"counts under %s correction; add repetitions (run --reps 10: the quick "
			"suite measures fewer where its 3-minute budget asks)\n",
			pt_correction_name(r->correction));
	if (r->base_only)
		fprintf(stderr, "ptbench compare: note: %zu series of BASE are missing from NEW\n",
			r->base_only);
	if (r->ungated)
		fprintf(stderr, "ptbench compare: note: %zu series not gated (gate=off in %s)%s\n",
			r->ungated, x->a->config_path ? x->a->config_path : "the config",
			x->a->strict ? "" : " (--strict makes this fail)");
	if (x->a->round_effect)
		fprintf(stderr,
			"ptbench compare: note: round effect taken out of %zu series of BASE and "
			"%zu of NEW (what moved a whole round of an interleaved run; "
			"--round-effect off compares the raw repetitions)\n",
			x->rounds_base, x->rounds_new);
	if (r->info)
		fprintf(stderr,
			"ptbench compare: note: %zu of %zu series shown, not gated: not their "
			"case's primary metric (gate=on in a --config adds one)\n",
			r->info, r->n);
	if (!r->regressions)
		return;
	fprintf(stderr, "ptbench compare: significant regression in %zu series:\n", r->regressions);
	for (i = 0; i < r->n; i++)
		if (r->rows[i].verdict == PT_V_WORSE)
			name_series(stderr, &r->rows[i]);
}

bool cmp_strict_fails(const struct compare_ctx *x)
{
	const struct pt_cmp_result *r = x->res;

	return x->a->strict && (r->too_few || r->gate_blind || r->base_only || r->ungated || !r->n);
}

int cmp_exit_code(const struct compare_ctx *x)
{
	return x->res->regressions || cmp_strict_fails(x) ? PT_EXIT_FAIL : PT_EXIT_OK;
}

int cmp_exit_status(const struct compare_ctx *x)
{
	if (!x->res->regressions && cmp_strict_fails(x))
		fprintf(stderr, "ptbench compare: --strict: failing because some series could "
				"not be judged\n");
	return cmp_exit_code(x);
}

/*
 * A run that did not finish has fewer samples, in some cases none: a gate
 * that compares it without being told would pass or fail on what is missing.
 */
