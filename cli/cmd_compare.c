// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench compare BASE NEW: a side-by-side table of two runs and an exit
 * status a CI job can gate on (0 no significant regression, 1 at least one,
 * 2 bad input). The statistics live in analysis/compare.c, the options in
 * compare_opts.c, the output formats in compare_text.c and compare_data.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/compare_rounds.h"
#include "analysis/rundir.h"
#include "cli/commands.h"
#include "cli/compare.h"
#include "util/atomicfile.h"

/* ---- output, stderr and the exit status ---- */

FILE *cmp_out_open(const struct compare_args *a, char *tmp, size_t len)
{
	FILE *f;

	if (!a->out_path)
		return stdout;
	f = pt_atomic_open(a->out_path, tmp, len);
	if (!f)
		fprintf(stderr, "ptbench compare: %s: %s\n", a->out_path,
			strerror(errno ? errno : ENAMETOOLONG));
	return f;
}

int cmp_out_close(const struct compare_args *a, FILE *f, const char *tmp)
{
	int err;

	if (!a->out_path)
		return fflush(stdout) ? PT_EXIT_FAIL : PT_EXIT_OK;
	err = pt_atomic_commit(f, tmp, a->out_path);
	if (err) {
		fprintf(stderr, "ptbench compare: %s: %s\n", a->out_path, strerror(-err));
		return PT_EXIT_USAGE;
	}
	return PT_EXIT_OK;
}

static int write_output(struct compare_ctx *x)
{
	static void (*const printers[])(struct compare_ctx *, FILE *) = {
		[FMT_TEXT] = cmp_print_text,   [FMT_MARKDOWN] = cmp_print_markdown,
		[FMT_CSV] = cmp_print_csv,     [FMT_JSON] = cmp_print_json,
		[FMT_JUNIT] = cmp_print_junit,
	};
	char tmp[PATH_MAX];
	FILE *f = cmp_out_open(x->a, tmp, sizeof(tmp));

	if (!f)
		return PT_EXIT_USAGE;
	printers[x->a->format](x, f);
	return cmp_out_close(x->a, f, tmp);
}

int cmp_refuse_incomplete(const struct compare_args *a, const char *side, const struct pt_rundir *r)
{
	if (a->allow_incomplete || !pt_rundir_incomplete(r))
		return 0;
	fprintf(stderr,
		"ptbench compare: %s: %s/meta.json says complete: false (the run was killed or "
		"stopped before its end; its unfinished cases are listed there); "
		"--allow-incomplete compares what it has\n",
		side, r->path);
	return -1;
}

static int load_inputs(struct compare_args *a, struct pt_rundir *base, struct pt_rundir *cand,
		       struct pt_cmp_config *cfg)
{
	char err[PATH_MAX + 256];

	if (pt_rundir_read(a->base, base, err, sizeof(err))) {
		fprintf(stderr, "ptbench compare: base: %s\n", err);
		return -1;
	}
	if (pt_rundir_read(a->cand, cand, err, sizeof(err))) {
		fprintf(stderr, "ptbench compare: new: %s\n", err);
		pt_rundir_free(base);
		return -1;
	}
	if (cmp_refuse_incomplete(a, "base", base) || cmp_refuse_incomplete(a, "new", cand)) {
		pt_rundir_free(base);
		pt_rundir_free(cand);
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

/* Primary in either run: a case keeps its primary metric across versions. */
static bool either_primary(const void *ctx, const struct pt_series *s)
{
	const struct compare_ctx *x = ctx;

	return pt_rundir_is_primary(x->cand, s) || pt_rundir_is_primary(x->base, s);
}

/*
 * The gate never passes on nothing: a NEW without rows, a --filter that
 * leaves nothing, or no gated series on both sides is bad input (exit 2),
 * not a clean bill.
 */
static int nothing_to_gate(const struct compare_ctx *x)
{
	if (!x->cand->nrows)
		return pt_usage_error("compare", "%s has no rows: nothing to compare",
				      x->cand->csv_path);
	if (!x->res->n)
		return pt_usage_error("compare", "no series to compare%s",
				      x->a->filter ? " after --filter" : "");
	if (!x->res->gated_both)
		return pt_usage_error("compare",
				      "no gated series is in both runs: nothing to judge "
				      "(%zu series shown)",
				      x->res->n);
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

	ret = cmp_parse_args(argc, argv, &a);
	if (ret)
		return ret == 1 ? PT_EXIT_OK : ret;
	if (a.pool_db)
		return cmp_pool_main(&a);
	if (load_inputs(&a, &base, &cand, &cfg))
		return PT_EXIT_USAGE;
	if (base.nprimary || cand.nprimary) {
		a.opts.is_primary = either_primary;
		a.opts.primary_ctx = &x;
	} else {
		fprintf(stderr, "ptbench compare: note: neither run declares primary metrics "
				"(made before they existed): every series is gated\n");
	}
	if (a.round_effect && (pt_cmp_round_adjust(&base, &a.opts, &x.rounds_base) ||
			       pt_cmp_round_adjust(&cand, &a.opts, &x.rounds_new))) {
		fprintf(stderr, "ptbench compare: out of memory\n");
		ret = PT_EXIT_FAIL;
		goto out;
	}
	if (pt_compare(base.series, base.nseries, cand.series, cand.nseries, &a.opts, &res)) {
		fprintf(stderr, "ptbench compare: out of memory\n");
		ret = PT_EXIT_FAIL;
		goto out;
	}
	pt_cmp_env_collect(&base.meta, &cand.meta, &x.env);
	ret = nothing_to_gate(&x);
	if (!ret)
		ret = write_output(&x);
	if (!ret) {
		cmp_report_stderr(&x);
		ret = cmp_exit_status(&x);
	}
	pt_cmp_result_free(&res);
out:
	pt_cmp_config_free(&cfg);
	pt_rundir_free(&base);
	pt_rundir_free(&cand);
	return ret;
}
