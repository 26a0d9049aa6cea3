// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench report DIR [DIR2]: REPORT.md and figures for a run, made by
 * plot/report.py (Python: the figures need matplotlib). This command checks
 * its arguments, finds the script and an interpreter, and runs it.
 */
#include <errno.h>
#include <libgen.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "util/path.h"

/* Debian's python3-matplotlib is installed for the system interpreter. */
#define SYSTEM_PYTHON "/usr/bin/python3"
#define EXEC_FAILED 127
/*
 * Where the scripts are, relative to the directory of this binary: the
 * build copies plot/ to share/ptbench/plot beside ptbench, and
 * 'cmake --install' puts it under PREFIX/share with the binary in
 * PREFIX/bin. No source path is compiled in, so an installed ptbench works
 * after the source tree is gone.
 */
#define PLOT_BUILD_REL "share/ptbench/plot"
#define PLOT_INSTALL_REL "../share/ptbench/plot"

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
		"\n"
		"Write DIR/REPORT.md with its figures in DIR/figures/ (PNG and SVG) and the\n"
		"data for the gnuplot scripts in DIR/plot-data/: first what D128 would\n"
		"change against D64 for this run (each row measured or modelled), then the\n"
		"headline figures, each workload's table and figure, what was measured and\n"
		"what was modelled, and the caveats; every series and the environment go\n"
		"to DIR/REPORT-series.md. With DIR2, the report opens with the comparison\n"
		"of DIR (BASE) with DIR2 (NEW) by 'ptbench compare'.\n"
		"\n"
		"options:\n"
		"  --no-plots     no figures (needs no matplotlib); the report says so\n"
		"  --config FILE  with DIR2: the gate's per-series settings, passed to\n"
		"                 'ptbench compare --config' (e.g. calibrate's gate.conf)\n"
		"  --python PATH  the Python 3 interpreter (default: $PTBENCH_PYTHON, else\n"
		"                 " SYSTEM_PYTHON " where it exists, else python3 on PATH)\n"
		"  -h, --help     this text\n"
		"\n"
		"The scripts are found beside this binary: BINDIR/" PLOT_BUILD_REL " (a build\n"
		"tree), else BINDIR/" PLOT_INSTALL_REL " (an install); $PTBENCH_PLOTDIR\n"
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
		case ':':
			return pt_usage_error("report", "%s needs a value", argv[optind - 1]);
		default:
			return pt_usage_error("report", "unknown option '%s'", argv[optind - 1]);
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

static const char *pick_python(const char *requested)
{
	const char *env = getenv("PTBENCH_PYTHON");

	if (requested)
		return requested;
	if (env && *env)
		return env;
	if (!access(SYSTEM_PYTHON, X_OK))
		return SYSTEM_PYTHON;
	return "python3";
}

static bool script_in(const char *dir, char *out, size_t len)
{
	return snprintf(out, len, "%s/report.py", dir) < (int)len && !access(out, R_OK);
}

/* The script: $PTBENCH_PLOTDIR, else beside the binary (self). */
static int script_path(const char *self, char *out, size_t len)
{
	const char *env = getenv("PTBENCH_PLOTDIR");
	char self_copy[PATH_MAX], dir[PATH_MAX + 32];
	const char *bindir;

	if (env && *env) {
		if (script_in(env, out, len))
			return 0;
		fprintf(stderr, "ptbench report: $PTBENCH_PLOTDIR: %s/report.py: %s\n", env,
			strerror(errno ? errno : ENAMETOOLONG));
		return -1;
	}
	if (!*self) {
		fprintf(stderr, "ptbench report: cannot read /proc/self/exe to find the "
				"scripts; set PTBENCH_PLOTDIR to the plot directory\n");
		return -1;
	}
	snprintf(self_copy, sizeof(self_copy), "%s", self);
	bindir = dirname(self_copy);
	snprintf(dir, sizeof(dir), "%s/" PLOT_BUILD_REL, bindir);
	if (script_in(dir, out, len))
		return 0;
	snprintf(dir, sizeof(dir), "%s/" PLOT_INSTALL_REL, bindir);
	if (script_in(dir, out, len))
		return 0;
	fprintf(stderr,
		"ptbench report: report.py is neither in %s/" PLOT_BUILD_REL
		" nor in %s/" PLOT_INSTALL_REL
		" (build or install ptbench with CMake, or set PTBENCH_PLOTDIR)\n",
		bindir, bindir);
	return -1;
}

/* This binary, so the script can run 'ptbench compare'; "" when unknown. */
static void self_path(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);

	out[n > 0 ? n : 0] = '\0';
}

static int run_script(const struct report_args *a, const char *script, const char *self)
{
	const char *argv[12];
	int argc = 0, status;
	pid_t pid;

	argv[argc++] = pick_python(a->python);
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
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("ptbench report: fork");
		return PT_EXIT_FAIL;
	}
	if (!pid) {
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "ptbench report: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(EXEC_FAILED);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("ptbench report: waitpid");
			return PT_EXIT_FAIL;
		}
	if (!WIFEXITED(status)) {
		fprintf(stderr, "ptbench report: %s was killed by signal %d\n", script,
			WTERMSIG(status));
		return PT_EXIT_FAIL;
	}
	switch (WEXITSTATUS(status)) {
	case PT_EXIT_OK:
	case PT_EXIT_USAGE:
		return WEXITSTATUS(status);
	default:
		return PT_EXIT_FAIL;
	}
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	char script[PATH_MAX], self[PATH_MAX];
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == 1 ? PT_EXIT_OK : rc;
	rc = check_run_dir(a.dir);
	if (!rc && a.dir2)
		rc = check_run_dir(a.dir2);
	if (rc)
		return rc;
	self_path(self, sizeof(self));
	if (script_path(self, script, sizeof(script)))
		return PT_EXIT_FAIL;
	return run_script(&a, script, self);
}
