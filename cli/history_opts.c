// SPDX-License-Identifier: GPL-2.0-only
/* ptbench history: the usage text and the option parser (cmd_history.c runs the actions). */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "cli/commands.h"
#include "cli/gate_opts.h"
#include "cli/history_opts.h"
#include "util/parse.h"

void history_usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench history add DIR... [--db FILE] [--allow-incomplete]\n"
		"       ptbench history list [--db FILE] [--tag T] [--kernel K] [--host H]\n"
		"                            [--suite S] [--format text|csv]\n"
		"       ptbench history show ID [--db FILE]\n"
		"       ptbench history export ID -o DIR [--db FILE]\n"
		"       ptbench history aa --tag T [--pool N] [--new K] [--inject P]\n"
		"                          [--inject-sets M|all] [--db FILE]\n"
		"\n"
		"Keeps runs in one SQLite file (default " PT_HISTORY_DEFAULT_DB "), for a\n"
		"baseline of many runs. add is idempotent (a run is keyed by meta.json's\n"
		"run.id, or a hash of its files for runs made before ids existed); list\n"
		"shows the runs matching every filter given, oldest first; show one run;\n"
		"export writes a run back out as a run directory (results.csv, meta.json)\n"
		"that compare, summary and report read. Two jobs may add at once.\n"
		"aa measures the baseline-pool gate on identical runs with tag T: the\n"
		"first N (default 10) are the pool, each later run is judged alone (the\n"
		"gate should not fire), and P%% (default 10) is injected into each gated\n"
		"series of the K (default 3) runs after the pool, and of one (it should);\n"
		"--inject-sets repeats that in each of the first M (or all) disjoint sets\n"
		"of K runs after the pool, and gives per series the sets that caught it.\n"
		"\n"
		"options:\n"
		"  --db FILE        the history database\n"
		"  --tag T, --kernel K, --host H, --suite S\n"
		"                   list only runs with this tag, kernel release, host, suite\n"
		"  --format F       list as text (default) or csv\n"
		"  -o, --output DIR export into DIR (new or empty)\n"
		"  --allow-incomplete\n"
		"                   add: take a run whose meta.json says complete: false\n"
		"                   (killed or stopped early); refused by default, so a\n"
		"                   baseline pool holds only whole runs\n"
		"  --pool N, --new K, --inject P, --alpha A, --threshold P\n"
		"                   aa's pool size, NEW set, injected change, gate settings\n"
		"  --inject-sets M|all\n"
		"                   aa: inject into M disjoint NEW sets, or all that fit\n"
		"                   (default 1: the first)\n"
		"  --run-effect on|off|split, --factors auto|N, --round-effect on|off,\n"
		"  --trim F|LO,HI, --serial auto|off|R, --spread moderated|series\n"
		"                   aa: as compare's (default on, 0, on, %g, auto, moderated)\n"
		"  -h, --help       this text\n"
		"\n"
		"Exit status: 0 done, 1 the database could not be written or read (busy\n"
		"past %d s, disk full), 2 bad usage or input: a bad run directory, an\n"
		"unknown id, a file that is not a ptbench history (never modified).\n",
		PT_POOL_TRIM_DEFAULT.lo, PT_HISTORY_BUSY_MS / 1000);
}

/* aa's numbers: each names the option and the value it refuses. */
static int aa_option(int c, const char *v, struct pt_pool_aa_opts *o)
{
	uint64_t n;
	double x;

	if (c == 'P' || c == 'N') {
		if (pt_parse_u64(v, c == 'P' ? 2 : 1, 100000, &n))
			return pt_usage_error("history",
					      "--%s needs a whole number >= %d, not '%s'",
					      c == 'P' ? "pool" : "new", c == 'P' ? 2 : 1, v);
		*(c == 'P' ? &o->pool : &o->news) = (size_t)n;
		return 0;
	}
	if (c == 'J') {
		if (!strcmp(v, "all")) {
			o->inject_sets = 0;
			return 0;
		}
		if (pt_parse_u64(v, 1, 100000, &n))
			return pt_usage_error("history",
					      "--inject-sets needs a whole number >= 1 or all, not "
					      "'%s'",
					      v);
		o->inject_sets = (size_t)n;
		return 0;
	}
	if (c == 'a')
		return pt_cmp_parse_alpha(v, &o->alpha)
			       ? pt_usage_error("history", "--alpha must be in (0, 1), not '%s'", v)
			       : 0;
	if (c == 'T')
		return pt_cmp_parse_pct(v, &o->threshold_pct)
			       ? pt_usage_error("history",
						"--threshold must be a percentage >= 0, "
						"not '%s'",
						v)
			       : 0;
	if (pt_parse_double(v, 0, 1000, &x) || !(x > 0 && x < 1000))
		return pt_usage_error("history",
				      "--inject must be a percentage in (0, 1000), not "
				      "'%s'",
				      v);
	o->inject_pct = x;
	return 0;
}

/*
 * Options anywhere, before or after the action (getopt_long moves the
 * words that are not options to the end, in their order): the action and
 * its positional arguments are then argv[optind..].
 */
int history_parse_args(int argc, char **argv, struct history_args *a)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tag", required_argument, NULL, 't' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "host", required_argument, NULL, 'H' },
		{ "suite", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "pool", required_argument, NULL, 'P' },
		{ "new", required_argument, NULL, 'N' },
		{ "inject", required_argument, NULL, 'I' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "run-effect", required_argument, NULL, 'R' },
		{ "factors", required_argument, NULL, 'K' },
		{ "round-effect", required_argument, NULL, 'U' },
		{ "trim", required_argument, NULL, 'X' },
		{ "serial", required_argument, NULL, 'L' },
		{ "inject-sets", required_argument, NULL, 'J' },
		{ "spread", required_argument, NULL, 'V' },
		{ "allow-incomplete", no_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		if (!a->aa_only && c > 0 && strchr("PNIaTRUXKLJV", c))
			for (i = 0; longopts[i].name; i++)
				if (longopts[i].val == c)
					a->aa_only = longopts[i].name;
		switch (c) {
		case 'd':
			a->db = optarg;
			break;
		case 't':
			a->filter.tag = optarg;
			break;
		case 'k':
			a->filter.kernel_release = optarg;
			break;
		case 'H':
			a->filter.host = optarg;
			break;
		case 's':
			a->filter.suite = optarg;
			break;
		case 'f':
			a->format = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'P':
		case 'N':
		case 'I':
		case 'J':
		case 'a':
		case 'T':
			if (aa_option(c, optarg, &a->aa))
				return PT_EXIT_USAGE;
			break;
		case 'R':
			if (pt_run_effect_option("history", optarg, &a->aa.run_effect,
						 &a->aa.split_effect))
				return PT_EXIT_USAGE;
			break;
		case 'U':
			if (pt_on_off_option("history", "round-effect", optarg,
					     &a->aa.round_effect))
				return PT_EXIT_USAGE;
			break;
		case 'X':
			if (pt_trim_option("history", optarg, &a->aa.trim))
				return PT_EXIT_USAGE;
			break;
		case 'K':
			if (pt_factors_option("history", optarg, &a->aa.factors))
				return PT_EXIT_USAGE;
			break;
		case 'L':
			if (pt_serial_option("history", optarg, &a->aa.serial, &a->aa.serial_rho))
				return PT_EXIT_USAGE;
			break;
		case 'V':
			if (pt_spread_option("history", optarg, &a->aa.moderate))
				return PT_EXIT_USAGE;
			break;
		case 'i':
			a->allow_incomplete = true;
			break;
		case 'h':
			history_usage(stdout);
			return -1;
		default:
			return pt_opt_error("history", c, argc, argv);
		}
	}
	if (a->format && strcmp(a->format, "text") && strcmp(a->format, "csv"))
		return pt_usage_error("history", "--format must be text or csv, not '%s'",
				      a->format);
	if (a->aa.factors && !a->aa.run_effect)
		return pt_usage_error("history", "--factors takes run factors out in place of the "
						 "run effect: not with --run-effect off");
	if (a->aa.factors && a->aa.split_effect)
		return pt_usage_error("history", "--factors takes run factors out in place of the "
						 "run effect: not with --run-effect split");
	return 0;
}
