// SPDX-License-Identifier: GPL-2.0-only
/* ptbench calibrate: usage, options and what they need before the first run. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/calibrate.h"
#include "cli/commands.h"
#include "cli/gate_opts.h"
#include "util/parse.h"
#include "util/path.h"
#include "workloads/suite.h"

#define DEFAULT_PAIRS 10
#define MAX_PAIRS 1000
/*
 * Noise-floor thresholds: every two of the 2 x PAIRS runs are compared
 * with the gate; a series' threshold becomes the largest change the gate
 * called significant between identical runs, times a margin (rounded up
 * to a whole percent), when that exceeds the gate's threshold; above a
 * ceiling the series is not gated at all. Samples inside one run may not
 * see the run-to-run noise of a VM; this puts back what they miss.
 */
#define DEFAULT_MARGIN 2.0
#define DEFAULT_MAX_FLOOR 50.0

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench calibrate [options] [-- RUN-OPTIONS...]\n"
		"\n"
		"Run a suite as A/A pairs (the same build twice, back to back), pass every\n"
		"pair through the compare gate, and report the gate's false-positive rate and\n"
		"the smallest change it detects in >= 80%% of the pairs; then compare every\n"
		"two runs, and write gate.conf, thresholds that keep the changes found\n"
		"between identical runs from failing the gate. Slow by nature:\n"
		"2 x PAIRS runs of the suite; a progress line is printed for each run.\n"
		"\n"
		"options:\n"
		"  --suite NAME       suite to run (default ci)\n"
		"  --pairs N          A/A pairs (default %d)\n"
		"  --reps N           repetitions per case (default 10, given to every run\n"
		"                     so that no time budget changes it between runs)\n"
		"  --out DIR          where runs, logs, calibrate.json and calibrate.txt go\n"
		"                     (default results/calibrate-<UTC time>)\n"
		"  --alpha A, --threshold P, --correction C, --test T, --config FILE\n"
		"                     the gate to calibrate, as for ptbench compare\n"
		"  --margin K         gate.conf threshold = K x the largest change the gate\n"
		"                     called significant between two of the runs (default %g)\n"
		"  --max-threshold P  series whose threshold would exceed P%% get gate=off\n"
		"                     in gate.conf (default %g%%)\n"
		"  --runner PROG      run PROG instead of this ptbench, with the same arguments\n"
		"                     (run --suite S --reps N --out DIR ...): a wrapper\n"
		"                     (taskset, a container) or another build; it must write\n"
		"                     DIR/results.csv\n"
		"  -h, --help         this text\n"
		"RUN-OPTIONS after '--' are passed to every 'ptbench run'.\n"
		"\n"
		"SIGINT/SIGTERM stop the running run (it restores what it changed) and\n"
		"calibrate, with exit status 128 + the signal.\n"
		"Exit status: 0 done, 1 a run failed without results, 2 bad usage.\n"
		"See docs/compare.md.\n",
		DEFAULT_PAIRS, DEFAULT_MARGIN, DEFAULT_MAX_FLOOR);
}

static int parse_floor_opt(int c, struct calib_args *a)
{
	double v;

	if (c == 'M') {
		if (pt_cmp_parse_pct(optarg, &a->floor.max_pct))
			return pt_usage_error("calibrate",
					      "--max-threshold '%s': expected a percentage >= 0",
					      optarg);
		return 0;
	}
	if (pt_parse_double(optarg, 1, 100, &v))
		return pt_usage_error("calibrate", "--margin '%s': expected a number 1..100",
				      optarg);
	a->floor.margin = v;
	return 0;
}

static int parse_opt(int c, struct calib_args *a)
{
	int reps;

	switch (c) {
	case 'S':
		a->suite = optarg;
		return 0;
	case 'p':
		if (pt_parse_int(optarg, 1, MAX_PAIRS, &a->pairs))
			return pt_usage_error("calibrate", "--pairs '%s': expected 1..%d", optarg,
					      MAX_PAIRS);
		return 0;
	case 'r':
		if (pt_parse_int(optarg, 1, 1000000, &reps))
			return pt_usage_error("calibrate", "--reps '%s': expected N >= 1", optarg);
		a->reps = optarg;
		return 0;
	case 'O':
		a->out = optarg;
		return 0;
	case 'R':
		a->runner = optarg;
		return 0;
	case 'C':
		a->config_path = optarg;
		return 0;
	case 'm':
	case 'M':
		return parse_floor_opt(c, a);
	default: /* 'a', 't', 'c', 'Y' */
		return pt_gate_option("calibrate", c, optarg, &a->opts);
	}
}

int calib_parse_args(int argc, char **argv, struct calib_args *a)
{
	static const struct option longopts[] = {
		{ "suite", required_argument, NULL, 'S' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "reps", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'O' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "threshold", required_argument, NULL, 't' },
		{ "correction", required_argument, NULL, 'c' },
		{ "test", required_argument, NULL, 'Y' },
		{ "config", required_argument, NULL, 'C' },
		{ "margin", required_argument, NULL, 'm' },
		{ "max-threshold", required_argument, NULL, 'M' },
		{ "runner", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	a->suite = "ci";
	a->pairs = DEFAULT_PAIRS;
	a->opts.alpha = PT_CMP_ALPHA_DEFAULT;
	a->opts.threshold_pct = PT_CMP_THRESHOLD_DEFAULT;
	a->opts.correction = PT_CORR_HOLM;
	a->opts.test = PT_CLI_TWO_RUN_TEST;
	a->floor.margin = DEFAULT_MARGIN;
	a->floor.max_pct = DEFAULT_MAX_FLOOR;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == ':' || c == '?')
			return pt_opt_error("calibrate", c, argc, argv);
		ret = parse_opt(c, a);
		if (ret)
			return ret;
	}
	/* checked here, before any run: each run would refuse it, after minutes */
	{
		enum pt_suite id;

		if (pt_suite_parse(a->suite, &id))
			return pt_usage_error("calibrate", "unknown suite '%s' (quick, full, ci)",
					      a->suite);
	}
	if (optind < argc && strcmp(argv[optind - 1], "--"))
		return pt_usage_error("calibrate",
				      "unexpected argument '%s' (run options go after '--')",
				      argv[optind]);
	for (; optind < argc; optind++) {
		if (a->nextra >= CALIB_MAX_EXTRA)
			return pt_usage_error("calibrate", "more than %d run options",
					      CALIB_MAX_EXTRA);
		a->extra[a->nextra++] = argv[optind];
	}
	return 0;
}

/* This ptbench, so that the runs are of the build being calibrated. */
static int find_runner(struct calib_args *a, char *runner, size_t len)
{
	ssize_t n;

	if (!a->runner) {
		n = readlink("/proc/self/exe", runner, len - 1);
		if (n <= 0) {
			fprintf(stderr, "ptbench calibrate: /proc/self/exe: %s\n", strerror(errno));
			return PT_EXIT_FAIL;
		}
		runner[n] = '\0';
		a->runner = runner;
	}
	if (access(a->runner, X_OK))
		return pt_usage_error("calibrate", "runner %s is not executable: %s", a->runner,
				      strerror(errno));
	return 0;
}

int calib_setup(struct calib_args *a, char *outbuf, size_t outlen, char *runner, size_t runlen,
		struct pt_cmp_config *cfg)
{
	char err[PATH_MAX + 256], logs[PATH_MAX];
	int ret;

	if (!a->out) {
		time_t t = time(NULL);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(outbuf, outlen, "results/calibrate-%Y%m%dT%H%M%SZ", &tm);
		a->out = outbuf;
	}
	/* room below it for pair-NNN/a/results.csv and the logs */
	if (strlen(a->out) > PATH_MAX - 64)
		return pt_usage_error("calibrate", "--out: path too long");
	if (a->config_path) {
		if (pt_cmp_config_load(a->config_path, cfg, err, sizeof(err))) {
			fprintf(stderr, "ptbench calibrate: config: %s\n", err);
			return PT_EXIT_USAGE;
		}
		a->opts.config = cfg;
	}
	ret = find_runner(a, runner, runlen);
	if (ret)
		return ret;
	if (pt_path_join(logs, sizeof(logs), a->out, "logs") || pt_mkdir_p(logs, 0755)) {
		fprintf(stderr, "ptbench calibrate: %s/logs: %s\n", a->out, strerror(errno));
		return PT_EXIT_USAGE;
	}
	return 0;
}
