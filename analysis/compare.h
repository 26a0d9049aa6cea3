/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The comparison of two runs and the regression gate, on series in memory
 * (no files): medians with 95% intervals, percent change, the test's p,
 * multiple-comparison correction, and a verdict per series.
 */
#ifndef PTBENCH_COMPARE_H
#define PTBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/rundir.h"
#include "util/stats.h"

#define PT_CMP_ALPHA_DEFAULT 0.01
#define PT_CMP_THRESHOLD_DEFAULT 5.0 /* percent */

enum pt_correction { PT_CORR_HOLM = 0, PT_CORR_BH, PT_CORR_NONE };

/*
 * The two-run test of one series: Mann-Whitney's rank test (0, the
 * library's default), or Yuen's test of trimmed means on ln(value),
 * trimmed from the slow end only (util/yuen.h; the CLI's default,
 * cli/gate_opts.h; docs/compare.md says when each fits).
 */
enum pt_cmp_test { PT_TEST_MW = 0, PT_TEST_YUEN };
/* --test yuen's trim: the fastest 60% of each side's repetitions. */
#define PT_CMP_YUEN_TRIM ((struct pt_trim){ 0, 0.4 })

enum pt_verdict {
	PT_V_SAME = 0, /* "~": not significant */
	PT_V_BETTER,
	PT_V_WORSE, /* a significant regression: the gate fails */
	PT_V_CHANGED, /* significant change of a better=neither metric */
	PT_V_TOO_FEW, /* the test cannot reach alpha with these sample counts */
	PT_V_BASE_ONLY,
	PT_V_NEW_ONLY,
	PT_V_UNGATED, /* gate=off in the config: too noisy here to judge */
	PT_V_INFO, /* not its case's primary metric: shown, not judged */
};

/* One line of a --config file: glob over "workload/case/metric". */
struct pt_cmp_rule {
	char glob[256];
	bool has_alpha, has_threshold, has_gate;
	double alpha;
	double threshold_pct;
	bool gate; /* false: gate=off, the series is shown but not judged */
	long line;
};

struct pt_cmp_config {
	struct pt_cmp_rule *rules;
	size_t n;
};

struct pt_cmp_opts {
	double alpha; /* default for series no rule sets */
	double threshold_pct;
	enum pt_correction correction;
	const struct pt_cmp_config *config; /* may be NULL */
	const char *filter; /* glob over "workload/case/metric", NULL: all */
	/*
	 * Which series the gate judges. NULL: every series (runs made before
	 * cases declared a primary metric). Otherwise the series is_primary
	 * accepts, plus those a config rule turns on with gate=on; the rest
	 * are compared and shown (PT_V_INFO) but form no part of the family,
	 * so a few hundred secondary series do not dilute the correction.
	 */
	bool (*is_primary)(const void *ctx, const struct pt_series *s);
	const void *primary_ctx;
	enum pt_cmp_test test;
};

struct pt_cmp_row {
	const struct pt_series *base, *cand; /* either may be NULL */
	const struct pt_series *key; /* whichever is present */
	struct pt_summary sb, sn; /* valid when the side is present */
	double alpha, threshold_pct; /* after the config rules */
	bool gated; /* false: a config rule says gate=off */
	double change_pct; /* (new - base) / |base| * 100; NaN when undefined */
	double p; /* raw p of the row's test; NaN when not tested */
	double p_adj; /* after correction; NaN when not tested */
	double min_p; /* smallest p these sample counts allow */
	bool tested; /* in the family the correction covers */
	enum pt_verdict verdict;
	enum pt_cmp_test test; /* the test that gave p */
};

struct pt_cmp_result {
	struct pt_cmp_row *rows;
	size_t n;
	size_t tested; /* family size m */
	size_t regressions, improvements, changed, too_few, base_only, new_only, ungated;
	size_t info; /* shown, not gated: not a primary metric */
	size_t gated_both; /* gated series present on both sides: 0 gates nothing */
	/* The correction leaves no series able to reach its alpha. */
	bool gate_blind;
	enum pt_correction correction;
};

const char *pt_correction_name(enum pt_correction c);
/* "mw", "yuen": as --test takes them. */
const char *pt_cmp_test_name(enum pt_cmp_test t);
/* The test a name gives; 0, or -1 for an unknown name. */
int pt_cmp_test_parse(const char *s, enum pt_cmp_test *t);
int pt_correction_parse(const char *s, enum pt_correction *c);
const char *pt_verdict_name(enum pt_verdict v);

/*
 * Adjusted p-values for a family of m tests: Holm (step-down, controls the
 * family-wise error rate), Benjamini-Hochberg (step-up, controls the false
 * discovery rate) or none. adj may alias nothing; p is not changed.
 */
int pt_p_adjust(const double *p, size_t m, enum pt_correction c, double *adj);

/* "5", "5%", "0.5%": a non-negative percentage. 0, or -1. */
int pt_cmp_parse_pct(const char *s, double *pct);
/* A significance level in (0, 1). 0, or -1. */
int pt_cmp_parse_alpha(const char *s, double *alpha);

/* Parse a config file; 0, or -1 with "name:line: problem" in err. */
int pt_cmp_config_parse(FILE *f, const char *name, struct pt_cmp_config *c, char *err,
			size_t errlen);
/* Open and parse a config file by path; same contract. */
int pt_cmp_config_load(const char *path, struct pt_cmp_config *c, char *err, size_t errlen);
void pt_cmp_config_free(struct pt_cmp_config *c);
/* alpha, threshold and gate for a series name after the rules (last match wins). */
void pt_cmp_config_lookup(const struct pt_cmp_config *c, const char *name, double *alpha,
			  double *threshold_pct, bool *gate);

/*
 * Compare base[] with cand[] (each sorted by key, as pt_rundir_read leaves
 * them). Rows come in key order; series on one side only are kept.
 * 0, or -1 when out of memory.
 */
int pt_compare(const struct pt_series *base, size_t nb, const struct pt_series *cand, size_t nc,
	       const struct pt_cmp_opts *o, struct pt_cmp_result *r);
void pt_cmp_result_free(struct pt_cmp_result *r);
/*
 * The verdict row i of r would get if its new samples were values[0..n),
 * the rest of the family unchanged (calibrate injects shifts this way).
 * A row that was not tested keeps its verdict.
 */
enum pt_verdict pt_cmp_rejudge(const struct pt_cmp_result *r, size_t i, const double *values,
			       size_t n);
/*
 * The verdict of a tested series: significant (p_adj < alpha) and at least
 * the threshold; worse or better by the metric's direction, changed for
 * neither. Shared by the two-run and the pool test.
 */
enum pt_verdict pt_cmp_verdict(double p_adj, double alpha, double change_pct, double threshold_pct,
			       enum pt_better better);
/* Smallest equal per-side sample count at which the test can reach alpha. */
size_t pt_cmp_min_samples(double alpha, enum pt_cmp_test test);

#endif
