// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench summary DIR: every series of a run with its median, 95% interval
 * of the median, range and spread, as JSON or CSV. The report scripts read
 * their numbers from here rather than computing statistics of their own.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/rundir.h"
#include "analysis/runsummary.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "util/schema.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ptbench summary DIR [--format json|csv] [-o FILE]\n"
		   "\n"
		   "Every series (workload, case, params, metric) of a run directory (or its\n"
		   "results.csv) with n, median, the 95%% confidence interval of the median\n"
		   "(ci_valid false when there are too few samples for one), min, max, mean,\n"
		   "standard deviation, CV, p90 and p99: the statistics ptbench compare uses.\n"
		   "\n"
		   "options:\n"
		   "  --format F         json (default) or csv\n"
		   "  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
		   "  -h, --help         this text\n"
		   "\n"
		   "Exit status: 0 written, 1 out of memory or a write failed, 2 bad usage or\n"
		   "input (the message names the file and line). See docs/report.md.\n");
}

struct summary_args {
	const char *dir, *out_path;
	enum pt_summary_format format;
};

/* 0 parsed, 1 --help given, or PT_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct summary_args *a)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "json"))
				a->format = PT_SUMMARY_JSON;
			else if (!strcmp(optarg, "csv"))
				a->format = PT_SUMMARY_CSV;
			else
				return pt_usage_error(
					"summary", "--format '%s': expected json or csv", optarg);
			break;
		case 'o':
			a->out_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return pt_opt_error("summary", c, argc, argv);
		}
	}
	if (argc - optind != 1)
		return pt_usage_error("summary", "expected one run directory (got %d)",
				      argc - optind);
	a->dir = argv[optind];
	return 0;
}

struct summary_out {
	const struct pt_rundir *run;
	enum pt_summary_format format;
};

static int write_summary(FILE *f, const void *ctx)
{
	const struct summary_out *o = ctx;

	return pt_run_summary_write(f, o->run, o->format);
}

int cmd_summary(int argc, char **argv)
{
	struct summary_args a = { 0 };
	struct pt_rundir run;
	char err[PATH_MAX + 256];
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret == 1 ? PT_EXIT_OK : ret;
	if (pt_rundir_read(a.dir, &run, err, sizeof(err))) {
		fprintf(stderr, "ptbench summary: %s\n", err);
		return PT_EXIT_USAGE;
	}
	ret = pt_output_write("summary", a.out_path, write_summary,
			      &(struct summary_out){ &run, a.format });
	pt_rundir_free(&run);
	return ret;
}
