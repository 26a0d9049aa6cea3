// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench report DIR [DIR2]: REPORT.md and figures for a run, made by
 * plot/report.py (Python: the figures need matplotlib). This command checks
 * its arguments, finds the script and an interpreter, and runs it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/plotscript.h"
#include "util/path.h"

struct report_args {
	const char *dir, *dir2;
	const char *python;
	const char *config; /* compare --config for the comparison */
	bool no_plots;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench report DIR [DIR2] [--config FILE] [--no-plots] [--python PATH]\n"
		"       ptbench report --db FILE [--tag T]... [--out DIR] [--force] [--no-plots]\n"
		"\n"
		"Write DIR/REPORT.md with its figures in DIR/figures/ (PNG and SVG) and the\n"
		"data for the gnuplot scripts in DIR/plot-data/: first what D128 would\n"
		"change against D64 for this run (each row measured or modelled), then the\n"
		"headline figures, each workload's table and figure, what was measured and\n"
		"what was modelled, and the caveats; every series and the environment go\n"
		"to DIR/REPORT-series.md. With DIR2, the report opens with the comparison\n"
		"of DIR (BASE) with DIR2 (NEW) by 'ptbench compare'. With --db, a fleet\n"
		"report of a run history instead: hosts x kernels ('report --db F --help').\n"
		"\n"
		"options:\n"
		"  --no-plots     no figures (needs no matplotlib); the report says so\n"
		"  --config FILE  with DIR2: the gate's per-series settings, passed to\n"
		"                 'ptbench compare --config' (e.g. calibrate's gate.conf)\n"
		"  --python PATH  the Python 3 interpreter (default: $PTBENCH_PYTHON, else\n"
		"                 " PT_SYSTEM_PYTHON " where it exists, else python3 on PATH)\n"
		"  -h, --help     this text\n"
		"\n"
		"The scripts are found beside this binary: BINDIR/" PT_PLOT_BUILD_REL " (a build\n"
		"tree), else BINDIR/" PT_PLOT_INSTALL_REL " (an install); $PTBENCH_PLOTDIR\n"
		"overrides both.\n"
		"Exit status: 0 written, 1 the report could not be made (e.g. matplotlib\n"
		"missing), 2 bad usage or input (a missing directory, a malformed CSV).\n"
		"See docs/report.md.\n");
}

/* 0 parsed, 1 --help given, or PT_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option longopts[] = {
		{ "no-plots", no_argument, NULL, 'n' },
		{ "python", required_argument, NULL, 'p' },
		{ "config", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			a->no_plots = true;
			break;
		case 'p':
			a->python = optarg;
			break;
		case 'C':
			if (access(optarg, R_OK))
				return pt_usage_error("report", "--config %s: %s", optarg,
						      strerror(errno));
			a->config = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return pt_opt_error("report", c, argc, argv);
		}
	}
	if (argc - optind < 1 || argc - optind > 2)
		return pt_usage_error("report", "expected DIR [DIR2] (got %d arguments)",
				      argc - optind);
	a->dir = argv[optind];
	a->dir2 = argc - optind == 2 ? argv[optind + 1] : NULL;
	return 0;
}

/* A run directory must exist and hold results.csv; the script checks the rest. */
static int check_run_dir(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (stat(dir, &st))
		return pt_usage_error("report", "run directory '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pt_usage_error("report", "'%s' is not a directory", dir);
	if (pt_path_join(path, sizeof(path), dir, "results.csv"))
		return pt_usage_error("report", "run directory '%s': path too long", dir);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return pt_usage_error("report", "'%s' is not a run directory: no results.csv", dir);
	return 0;
}

static int run_script(const struct report_args *a, const char *script, const char *self)
{
	const char *argv[12];
	int argc = 0;

	argv[argc++] = pt_plot_python(a->python);
	argv[argc++] = script;
	argv[argc++] = a->dir;
	if (a->dir2)
		argv[argc++] = a->dir2;
	if (a->no_plots)
		argv[argc++] = "--no-plots";
	if (a->config) {
		argv[argc++] = "--gate-config";
		argv[argc++] = a->config;
	}
	if (*self) {
		argv[argc++] = "--ptbench";
		argv[argc++] = self;
	}
	argv[argc] = NULL;
	return pt_plot_run("report", argv);
}

/* --db anywhere: the fleet report of a history (cmd_report_fleet.c). */
static bool fleet_mode(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--db") || !strncmp(argv[i], "--db=", 5))
			return true;
	return false;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	char script[PATH_MAX], self[PATH_MAX];
	int rc;

	if (fleet_mode(argc, argv))
		return cmd_report_fleet(argc, argv);
	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == 1 ? PT_EXIT_OK : rc;
	rc = check_run_dir(a.dir);
	if (!rc && a.dir2)
		rc = check_run_dir(a.dir2);
	if (rc)
		return rc;
	pt_plot_self(self, sizeof(self));
	if (pt_plot_script("report", "report.py", self, script, sizeof(script)))
		return PT_EXIT_FAIL;
	return run_script(&a, script, self);
}
