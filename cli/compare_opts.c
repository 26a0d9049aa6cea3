// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench compare's usage text and options, for both modes (two runs, and
 * NEW runs against a baseline pool): parsed into struct compare_args,
 * every bad value refused with exit 2 naming it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/pool.h"
#include "cli/commands.h"
#include "cli/compare.h"
#include "cli/gate_opts.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench compare BASE NEW [options]\n"
		"       ptbench compare --baseline-db FILE [--baseline-tag T] NEW... [options]\n"
		"\n"
		"Compare two runs (run directories, or their results.csv files) series by\n"
		"series: median and 95%% confidence interval on each side, change in %%,\n"
		"p-value (Yuen's test, or Mann-Whitney's: --test), and a verdict (better,\n"
		"worse, ~).\n"
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
		"  --format F         text (default), markdown, csv, json or junit (JUnit XML\n"
		"                     for CI servers: one test case per gated series)\n"
		"  -o, --output FILE  write the table to FILE (atomically) instead of stdout\n"
		"  --allow-incomplete compare a run whose meta.json says complete: false\n"
		"                     (killed, or stopped by a full disk); refused otherwise\n"
		"  --test mw|yuen     two runs: the test of each series, Yuen's test of\n"
		"                     the mean of each side's fastest 60%% of ln(value)\n"
		"                     (yuen, the default: a slow repetition the host\n"
		"                     made weighs nothing) or Mann-Whitney's rank test\n"
		"                     (mw; docs/compare.md)\n"
		"  --strict           also exit 1 when a series cannot be judged: too few\n"
		"                     samples, a gate that cannot fire, a series of BASE\n"
		"                     missing from NEW, or a series under gate=off\n"
		"  --baseline-db FILE judge one or more NEW runs against a pool of earlier\n"
		"                     runs in a history (ptbench history), on run-level\n"
		"                     statistics that see the drift between runs\n"
		"  --baseline-tag T   the pool: runs with this tag (default: all)\n"
		"  --baseline-suite S the pool: runs of this suite (default: all)\n"
		"  --pool-min N       fewest pool runs a series needs (default %d)\n"
		"  --run-effect on|off|split  take out of each timed series what moved\n"
		"                     the whole run (the median over the gated timed\n"
		"                     series), and gate that run effect as a series of its\n"
		"                     own (default on; docs/compare.md); split: two\n"
		"                     medians, over the kernel's page-table families\n"
		"                     (fault, mprotect, fork, munmap, thp) and the others\n"
		"  --factors auto|N   take out N run factors instead (0-%d; default 0:\n"
		"                     the run effect alone; auto: those the pool shows,\n"
		"                     at most one per 6 pool runs; docs/compare.md)\n"
		"  --round-effect on|off  first take out of each interleaved run's\n"
		"                     repetitions what moved each round, from the other\n"
		"                     series of the same workload (default on with\n"
		"                     --baseline-db, %s for two runs; docs/compare.md)\n"
		"  --trim F|LO,HI     each run's statistic of a series: the mean of its\n"
		"                     log repetitions with the fraction F cut from each\n"
		"                     end (0-0.5; 0.5: the median; default %g), or LO\n"
		"                     from the low end and HI from the high end (0,0.7:\n"
		"                     the mean of the fastest 30%%; 0,1: the minimum)\n"
		"  --serial auto|off|R  runs made back to back are correlated: auto\n"
		"                     (default) estimates the correlation at each lag\n"
		"                     from the pool's runs made back to back and widens\n"
		"                     the test by it; off: runs independent; R: lag-1\n"
		"                     correlation R, lag j R^j (docs/compare.md)\n"
		"  --spread moderated|series  each gated timed series' between-run\n"
		"                     spread drawn toward the spread of all of them by\n"
		"                     as much as its own is unsure, which adds the\n"
		"                     degrees of freedom of that prior to its test\n"
		"                     (moderated, the default; empirical Bayes,\n"
		"                     docs/compare.md), or from its own pool runs alone\n"
		"                     (series)\n"
		"  -h, --help         this text\n"
		"\n"
		"Two runs (BASE NEW) are compared sample by sample: the test sees the\n"
		"noise inside a run, not the drift between runs minutes apart; a pool\n"
		"does. The gate judges each case's primary metric (docs/compare.md).\n"
		"\n"
		"Exit status: 0 no significant regression, 1 at least one significant\n"
		"regression (named on stderr), 2 bad input or usage.\n"
		"See docs/compare.md.\n",
		PT_CMP_ALPHA_DEFAULT, PT_CMP_THRESHOLD_DEFAULT, PT_POOL_MIN_DEFAULT,
		PT_POOL_FACTORS_MAX, CMP_TWO_RUN_ROUNDS_DEFAULT ? "on" : "off",
		PT_POOL_TRIM_DEFAULT.lo);
}

static int parse_format(const char *s, enum out_format *f)
{
	static const char *const names[] = { "text", "markdown", "csv", "json", "junit" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*f = (enum out_format)i;
			return 0;
		}
	return -1;
}

/* 0 parsed, 1 --help given, or PT_EXIT_USAGE. */
int cmp_parse_args(int argc, char **argv, struct compare_args *a)
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
		{ "allow-incomplete", no_argument, NULL, 'I' },
		{ "baseline-db", required_argument, NULL, 'B' },
		{ "baseline-tag", required_argument, NULL, 'T' },
		{ "baseline-suite", required_argument, NULL, 'S' },
		{ "pool-min", required_argument, NULL, 'm' },
		{ "run-effect", required_argument, NULL, 'R' },
		{ "factors", required_argument, NULL, 'K' },
		{ "round-effect", required_argument, NULL, 'U' },
		{ "trim", required_argument, NULL, 'X' },
		{ "serial", required_argument, NULL, 'L' },
		{ "spread", required_argument, NULL, 'V' },
		{ "test", required_argument, NULL, 'Y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->opts.alpha = PT_CMP_ALPHA_DEFAULT;
	a->opts.threshold_pct = PT_CMP_THRESHOLD_DEFAULT;
	a->opts.correction = PT_CORR_HOLM;
	a->opts.test = PT_CLI_TWO_RUN_TEST;
	a->pool_min = PT_POOL_MIN_DEFAULT;
	a->run_effect = true;
	a->round_effect = true;
	a->moderate = true;
	a->trim = PT_POOL_TRIM_DEFAULT;
	a->factors = 0;
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
					"--format '%s': expected text, markdown, csv, json or junit",
					optarg);
			break;
		case 'o':
			a->out_path = optarg;
			break;
		case 's':
			a->strict = true;
			break;
		case 'B':
			a->pool_db = optarg;
			break;
		case 'T':
			a->pool_tag = optarg;
			break;
		case 'S':
			a->pool_suite = optarg;
			break;
		case 'm':
			if (pt_parse_u64(optarg, 2, 100000, &a->pool_min))
				return pt_usage_error(
					"compare", "--pool-min needs a whole number >= 2, not '%s'",
					optarg);
			break;
		case 'I':
			a->allow_incomplete = true;
			break;
		case 'R':
			if (pt_run_effect_option("compare", optarg, &a->run_effect,
						 &a->split_effect))
				return PT_EXIT_USAGE;
			a->run_effect_given = true;
			break;
		case 'U':
			if (pt_on_off_option("compare", "round-effect", optarg, &a->round_effect))
				return PT_EXIT_USAGE;
			a->round_effect_given = true;
			break;
		case 'X':
			if (pt_trim_option("compare", optarg, &a->trim))
				return PT_EXIT_USAGE;
			a->trim_given = true;
			break;
		case 'L':
			if (pt_serial_option("compare", optarg, &a->serial, &a->serial_rho))
				return PT_EXIT_USAGE;
			a->serial_given = true;
			break;
		case 'V':
			if (pt_spread_option("compare", optarg, &a->moderate))
				return PT_EXIT_USAGE;
			a->spread_given = true;
			break;
		case 'Y':
			if (pt_gate_option("compare", c, optarg, &a->opts))
				return PT_EXIT_USAGE;
			a->test_given = true;
			break;
		case 'K':
			if (pt_factors_option("compare", optarg, &a->factors))
				return PT_EXIT_USAGE;
			a->factors_given = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return pt_opt_error("compare", c, argc, argv);
		}
	}
	if (a->factors && !a->run_effect)
		return pt_usage_error("compare", "--factors takes run factors out in place of the "
						 "run effect: not with --run-effect off");
	if (a->factors && a->split_effect)
		return pt_usage_error("compare", "--factors takes run factors out in place of the "
						 "run effect: not with --run-effect split");
	if (a->pool_db) {
		if (a->test_given)
			return pt_usage_error("compare",
					      "--test chooses the two-run test; against "
					      "--baseline-db the test is on run statistics "
					      "(docs/compare.md)");
		if (argc - optind < 1)
			return pt_usage_error("compare",
					      "--baseline-db needs one or more NEW runs");
		if (a->format != FMT_TEXT && a->format != FMT_JSON && a->format != FMT_JUNIT)
			return pt_usage_error("compare",
					      "--baseline-db writes text, json or junit");
		a->news = argv + optind;
		a->nnew = argc - optind;
		a->opts.filter = a->filter;
		return 0;
	}
	if (a->pool_tag || a->pool_suite)
		return pt_usage_error("compare", "--baseline-tag and --baseline-suite need "
						 "--baseline-db");
	if (a->run_effect_given || a->factors_given || a->trim_given || a->serial_given ||
	    a->spread_given)
		return pt_usage_error("compare",
				      "%s needs --baseline-db (two runs have "
				      "no run effect to take out, and are "
				      "compared sample by sample)",
				      a->run_effect_given ? "--run-effect"
				      : a->factors_given  ? "--factors"
				      : a->trim_given	  ? "--trim"
				      : a->serial_given	  ? "--serial"
							  : "--spread");
	if (!a->round_effect_given)
		a->round_effect = CMP_TWO_RUN_ROUNDS_DEFAULT;
	if (argc - optind != 2)
		return pt_usage_error("compare", "expected two runs, BASE and NEW (got %d)",
				      argc - optind);
	a->base = argv[optind];
	a->cand = argv[optind + 1];
	a->opts.filter = a->filter;
	return 0;
}
