// SPDX-License-Identifier: GPL-2.0-only
/* ptbench history add|list|show|export: run directories kept in one SQLite file. */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "cli/commands.h"
#include "cli/gate_opts.h"
#include "cli/history_opts.h"
#include "util/parse.h"
#include "workloads/workload.h"

static int fail(enum pt_history_err e, const char *err)
{
	fprintf(stderr, "ptbench history: %s\n", err);
	return e == PT_HIST_EINPUT ? PT_EXIT_USAGE : PT_EXIT_FAIL;
}

static int do_add(struct pt_history *h, int n, char **dirs, bool allow_incomplete)
{
	char id[64], err[1024];
	int i, added_n = 0;

	for (i = 0; i < n; i++) {
		bool added;
		enum pt_history_err e = pt_history_add(h, dirs[i], allow_incomplete, &added, id,
						       sizeof(id), err, sizeof(err));

		if (e)
			return fail(e, err);
		printf("%s %s %s\n", added ? "added" : "already there:", id, dirs[i]);
		added_n += added;
	}
	fprintf(stderr, "ptbench history: %d of %d run(s) added\n", added_n, n);
	return PT_EXIT_OK;
}

static int print_run(void *ctx, const struct pt_history_run *r)
{
	bool csv = *(const bool *)ctx;

	if (csv)
		printf("%s,%s,%s,%s,%s,%s,%lld\n", r->id, r->started_utc, r->suite, r->tag,
		       r->kernel_release, r->host, r->nrows);
	else
		printf("%-38s %-20s %-6s %-12s %-24s %-12s %lld\n", r->id, r->started_utc, r->suite,
		       r->tag[0] ? r->tag : "-", r->kernel_release, r->host, r->nrows);
	return 0;
}

static int do_list(struct pt_history *h, const struct history_args *a)
{
	bool csv = a->format && !strcmp(a->format, "csv");
	enum pt_history_err e;
	char err[1024];

	if (csv)
		printf("id,started_utc,suite,tag,kernel_release,host,rows\n");
	else
		printf("%-38s %-20s %-6s %-12s %-24s %-12s %s\n", "id", "started (UTC)", "suite",
		       "tag", "kernel", "host", "rows");
	e = pt_history_list(h, &a->filter, print_run, &csv, err, sizeof(err));
	return e ? fail(e, err) : PT_EXIT_OK;
}

static int do_show(struct pt_history *h, const char *id)
{
	struct pt_history_run r;
	enum pt_history_err e;
	char err[1024];

	e = pt_history_get(h, id, &r, err, sizeof(err));
	if (e)
		return fail(e, err);
	printf("id:           %s\nstarted:      %s\nsuite:        %s\ntag:          %s\n"
	       "kernel:       %s\nhost:         %s\nptbench:      %s\nrows:         %lld\n"
	       "added from:   %s\n",
	       r.id, r.started_utc, r.suite, r.tag, r.kernel_release, r.host, r.tool_version,
	       r.nrows, r.source_path);
	return PT_EXIT_OK;
}

static int do_aa(struct pt_history *h, struct history_args *a)
{
	struct pt_pool_aa_result r;
	enum pt_history_err e;
	char err[1024];

	a->aa.tag = a->filter.tag;
	a->aa.suite = a->filter.suite;
	a->aa.out = stdout;
	e = pt_pool_aa(h, &a->aa, &r, err, sizeof(err));
	return e ? fail(e, err) : PT_EXIT_OK;
}

static int run_action(const char *action, struct history_args *a, int n, char **pos)
{
	bool writable = !strcmp(action, "add");
	struct pt_history *h;
	enum pt_history_err e;
	char err[1024];
	int ret, i;

	if (!strcmp(action, "add") && n < 1)
		return pt_usage_error("history", "add needs at least one run directory");
	if ((!strcmp(action, "show") || !strcmp(action, "export")) && n != 1)
		return pt_usage_error("history", "%s needs one run id", action);
	if (!strcmp(action, "aa") && (n || !a->filter.tag))
		return pt_usage_error("history", "aa takes no arguments and needs --tag");
	if (strcmp(action, "aa") && a->aa_only)
		return pt_usage_error("history", "--%s is an option of history aa, not of %s",
				      a->aa_only, action);
	if (strcmp(action, "add") && a->allow_incomplete)
		return pt_usage_error("history",
				      "--allow-incomplete is an option of history add, "
				      "not of %s",
				      action);
	if (!strcmp(action, "list") && n)
		return pt_usage_error("history", "list takes no arguments, got '%s'", pos[0]);
	if (!strcmp(action, "export") && !a->out)
		return pt_usage_error("history", "export needs -o DIR");
	/* every run first: a bad one leaves the history (or no file) as it was */
	for (i = 0; writable && i < n; i++) {
		e = pt_history_check_run(pos[i], a->allow_incomplete, err, sizeof(err));
		if (e)
			return fail(e, err);
	}
	e = pt_history_open(a->db, writable, &h, err, sizeof(err));
	if (e)
		return fail(e, err);
	if (!strcmp(action, "add"))
		ret = do_add(h, n, pos, a->allow_incomplete);
	else if (!strcmp(action, "list"))
		ret = do_list(h, a);
	else if (!strcmp(action, "show"))
		ret = do_show(h, pos[0]);
	else if (!strcmp(action, "aa"))
		ret = do_aa(h, a);
	else {
		e = pt_history_export(h, pos[0], a->out, err, sizeof(err));
		ret = e ? fail(e, err) : PT_EXIT_OK;
		if (!e)
			printf("exported %s to %s\n", pos[0], a->out);
	}
	pt_history_close(h);
	return ret;
}

int cmd_history(int argc, char **argv)
{
	static const char *const actions[] = { "add", "list", "show", "export", "aa" };
	struct history_args a = {
		.db = PT_HISTORY_DEFAULT_DB,
		.aa = { .pool = 10,
			.news = 3,
			.inject_pct = 10,
			.inject_sets = 1,
			.run_effect = true,
			.in_kernel = pt_workload_times_kernel,
			.factors = 0,
			.round_effect = true,
			.moderate = true,
			.trim = PT_POOL_TRIM_DEFAULT,
			.alpha = PT_CMP_ALPHA_DEFAULT,
			.threshold_pct = PT_CMP_THRESHOLD_DEFAULT },
	};
	const char *action;
	size_t i;
	int ret;

	if (argc < 2) {
		history_usage(stderr);
		return PT_EXIT_USAGE;
	}
	ret = history_parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? PT_EXIT_OK : ret;
	if (optind >= argc)
		return pt_usage_error("history", "no action given (add, list, show, export, aa)");
	action = argv[optind];
	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(action, actions[i]))
			break;
	if (i == sizeof(actions) / sizeof(actions[0]))
		return pt_usage_error("history",
				      "unknown action '%s' (add, list, show, export, aa)", action);
	return run_action(action, &a, argc - optind - 1, argv + optind + 1);
}
