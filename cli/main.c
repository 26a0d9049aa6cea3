// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench: measure page-table work and model it under 128-bit descriptors.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

struct pt_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct pt_command commands[] = {
	{ "list", cmd_list, "list workloads, their cases and the suites" },
	{ "run", cmd_run, "run a suite or workloads, write results.csv and meta.json" },
	{ "model", cmd_model, "the D128 model: geometry, pgtable, walk, ops" },
	{ "snapshot", cmd_snapshot, "save a process's populated pages for offline modelling" },
	{ "compare", cmd_compare, "compare two runs; exit 1 on a significant regression" },
	{ "summary", cmd_summary, "per-series medians and intervals of a run, as JSON or CSV" },
	{ "export", cmd_export, "a run as lava-test-case lines for a LAVA test shell" },
	{ "history", cmd_history, "keep runs in a SQLite history: add, list, show, export, aa" },
	{ "calibrate", cmd_calibrate, "measure the gate's A/A false-positive rate" },
	{ "report", cmd_report, "REPORT.md and figures for one or two runs; --db: a fleet" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: ptbench <command> [options]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'ptbench <command> --help' describes each command.\n"
		   "Exit status: 0 success, 1 a measurement failed or a "
		   "regression was found, 2 bad usage or input.\n");
}

/*
 * What a command printed must have reached its output: `ptbench list
 * >/dev/full` exited 0 with nothing written. stdio reports a failed write
 * only at the flush, so every command's status is checked here.
 */
static int check_stdout(const char *cmd, int ret)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return ret;
	fprintf(stderr, "ptbench %s: writing standard output: %s\n", cmd,
		strerror(errno ? errno : EIO));
	return ret ? ret : PT_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return PT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return check_stdout("--help", PT_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ptbench %s\n", PTBENCH_VERSION);
		return check_stdout("--version", PT_EXIT_OK);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return check_stdout(argv[1], commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "ptbench: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return PT_EXIT_USAGE;
}
