// SPDX-License-Identifier: GPL-2.0-only
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "workloads/suite.h"
#include "workloads/workload.h"

static void list_usage(FILE *f)
{
	fprintf(f, "usage: ptbench list [-v] [--suite NAME]\n\n"
		   "Lists the workloads, the suites and, with -v or --suite, every case a suite\n"
		   "runs on this machine with its parameters.\n\n"
		   "  -v, --verbose     the cases and metrics of each workload\n"
		   "  --suite NAME      the cases of that suite (quick, full, ci)\n"
		   "  -h, --help        this text\n");
}

static void list_cases(const struct pt_workload *w, enum pt_suite suite)
{
	struct pt_suite_opts o;
	struct pt_case *cases = calloc(PT_MAX_CASES, sizeof(*cases));
	int n, i;

	if (!cases)
		return;
	pt_suite_opts_init(&o, suite, 0);
	n = w->cases(&o, cases, PT_MAX_CASES);
	for (i = 0; i < n; i++)
		printf("    %-28s %s\n", cases[i].name, cases[i].params);
	free(cases);
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "suite", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *suite = NULL;
	enum pt_suite id = PT_SUITE_QUICK;
	int verbose = 0, c;
	size_t i;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		if (c == 'v')
			verbose = 1;
		else if (c == 's')
			suite = optarg;
		else if (c == 'h')
			return list_usage(stdout), PT_EXIT_OK;
		else
			return pt_usage_error("list", "unknown option");
	}
	if (optind < argc)
		return pt_usage_error("list", "unexpected argument '%s'", argv[optind]);
	if (suite && pt_suite_parse(suite, &id))
		return pt_usage_error("list", "unknown suite '%s'", suite);
	printf("workloads:\n");
	for (i = 0; pt_workloads[i]; i++) {
		printf("  %-10s %s\n", pt_workloads[i]->name, pt_workloads[i]->summary);
		if (verbose)
			printf("    %s\n", pt_workloads[i]->help);
		if (verbose || suite)
			list_cases(pt_workloads[i], id);
	}
	printf("\nsuites:\n");
	for (i = 0; pt_suites[i].name; i++)
		printf("  %-10s %s\n", pt_suites[i].name, pt_suites[i].summary);
	return PT_EXIT_OK;
}
