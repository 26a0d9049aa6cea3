// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench export --format lava DIR: a run as the lava-test-case lines a
 * LAVA test shell runs (ci/lava/ptbench.yaml pipes them to sh), so a test
 * definition stays a few lines and computes no statistics of its own.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/lavaexport.h"
#include "analysis/rundir.h"
#include "cli/commands.h"
#include "cli/output.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ptbench export --format lava DIR [-o FILE]\n"
		   "\n"
		   "The lava-test-case command lines of a run directory, for a LAVA test shell\n"
		   "to run (docs/lava.md):\n"
		   "  lava-test-case WORKLOAD.CASE --result pass|fail|skip\n"
		   "      one per case, from its status in meta.json (ok, failed, skipped);\n"
		   "  lava-test-case WORKLOAD.CASE.METRIC --result R --measurement V --units U\n"
		   "      one per case's primary metric: V is its median, as ptbench summary\n"
		   "      gives it, R the case's result (fail for an ok case without samples).\n"
		   "Names hold only letters, digits and -_. (others become _), made unique\n"
		   "with -2, -3, ...; every token is safe to pipe to sh unquoted.\n"
		   "\n"
		   "options:\n"
		   "  --format F         lava (the only format, and the default)\n"
		   "  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
		   "  -h, --help         this text\n"
		   "\n"
		   "Exit status: 0 written, 1 a write failed, 2 bad usage or input (no\n"
		   "results.csv or meta.json, a case without a known status).\n");
}

struct export_args {
	const char *dir, *out_path;
};

/* 0 parsed, 1 --help given, or PT_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct export_args *a)
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
			if (strcmp(optarg, "lava"))
				return pt_usage_error("export", "--format '%s': expected lava",
						      optarg);
			break;
		case 'o':
			a->out_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return pt_opt_error("export", c, argc, argv);
		}
	}
	if (argc - optind != 1)
		return pt_usage_error("export", "expected one run directory (got %d)",
				      argc - optind);
	a->dir = argv[optind];
	return 0;
}

struct export_out {
	const struct pt_rundir *run;
	const struct pt_lava_cases *cases;
};

static int write_lava(FILE *f, const void *ctx)
{
	const struct export_out *o = ctx;

	return pt_lava_export_write(f, o->run, o->cases);
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	struct pt_lava_cases cases;
	struct pt_rundir run;
	char err[PATH_MAX + 256];
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret == 1 ? PT_EXIT_OK : ret;
	if (pt_rundir_read(a.dir, &run, err, sizeof(err))) {
		fprintf(stderr, "ptbench export: %s\n", err);
		return PT_EXIT_USAGE;
	}
	if (pt_lava_cases_read(&run, &cases, err, sizeof(err))) {
		fprintf(stderr, "ptbench export: %s (the case statuses are read from it)\n", err);
		pt_rundir_free(&run);
		return PT_EXIT_USAGE;
	}
	ret = pt_output_write("export", a.out_path, write_lava,
			      &(struct export_out){ &run, &cases });
	pt_lava_cases_free(&cases);
	pt_rundir_free(&run);
	return ret;
}
