// SPDX-License-Identifier: GPL-2.0-only
/* ptbench run: usage and options. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "harness/profile.h"
#include "util/parse.h"
#include "util/units.h"
#include "workloads/suite.h"

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench run [options]\n\n"
		"Runs a suite (or chosen workloads) and writes DIR/results.csv and DIR/meta.json.\n\n"
		"  --suite NAME        quick (default), full or ci\n"
		"  --workload W,...    only these workloads (see 'ptbench list')\n"
		"  --case GLOB         only cases whose name matches (fnmatch), e.g. 'chase-4k-*'\n"
		"  --reps N            measured repetitions per case (default 10)\n"
		"  --warmup N          unrecorded repetitions before them (default 1; tlb\n"
		"                      none: each repetition warms its own region)\n"
		"  --budget T          fewer repetitions (never below 3) where the first\n"
		"                      rounds show that the run would take longer than T\n"
		"                      (seconds, or 3m); 0: none. Default: 3m for the quick\n"
		"                      suite unless --reps is given, else none\n"
		"  --sequential        all repetitions of a case before the next case\n"
		"                      (default: interleaved, round r runs repetition r of\n"
		"                      every case, so host noise does not hit one case)\n"
		"  --cpu N|last|pick   pin to CPU N (OS numbering), to the last CPU (the\n"
		"                      default), or each round to the one of the last 4\n"
		"                      whose 4K faults are fastest just before it: a\n"
		"                      guest's vCPUs have slow stretches of their own\n"
		"                      (docs/run.md)\n"
		"  --events LIST       counters, comma-separated libpfm4 names (default: the\n"
		"                      software events plus this CPU's TLB/walk events)\n"
		"  --max-mem SIZE      largest working set / region (quick, ci: 1G; full: 4G)\n"
		"  --mem-frac F        refuse cases needing more than F of MemAvailable (0.5)\n"
		"  --out DIR           output directory (default results/<UTC time>-<host>);\n"
		"                      new or empty, this user's, not writable by others\n"
		"  --force             use a non-empty --out: first remove the results,\n"
		"                      report and figures of the run that was there\n"
		"  --tag NAME          a label stored in meta.json\n"
		"  --no-profile        no sampled repetition (default: fork, mprotect, munmap,\n"
		"                      fault and thp cases get one after their timed ones,\n"
		"                      where cpu-clock sampling opens: profile_* rows)\n"
		"  --profile-period NS the sampling period in ns (default 50000, at least\n"
		"                      10000)\n"
		"  --keep-page-reporting\n"
		"                      leave free page reporting on (default: paused for the\n"
		"                      run where the guest has it, restored at exit)\n"
		"  --warm-guest auto|off|SIZE\n"
		"                      on a guest, touch and release this much memory before\n"
		"                      measuring, so cases get host-backed frames (auto: twice\n"
		"                      the largest case, 256M to 1G, at most half of MemAvailable, when\n"
		"                      virtualized with page reporting paused; docs/run.md)\n"
		"  --lock-wait S       wait up to S seconds for another run's system changes\n"
		"                      to end (default 300), then exit 1\n"
		"  --aslr              keep address-space randomisation (default: off for\n"
		"                      ptbench's own process, so layouts repeat run to run)\n"
		"  -h, --help          this text\n\n"
		"Exit status: 0 every case ran, 1 a measurement or verification failed,\n"
		"2 bad usage (or an explicitly requested case the memory guard refuses).\n");
}

/* Seconds ("180", "180s", "0.5") or minutes ("3m"), up to a week, into *s. */
static int parse_budget(const char *arg, double *s)
{
	char *end;
	double v;

	/* strtod alone would take "nan", "inf", hex and leading blanks */
	if (!strchr("0123456789.", arg[0]))
		return -1;
	v = strtod(arg, &end);
	if (end == arg)
		return -1;
	if (*end == 'm')
		v *= 60, end++;
	else if (*end == 's')
		end++;
	if (*end || !(v >= 0 && v <= 7 * 24 * 3600))
		return -1;
	*s = v;
	return 0;
}

int run_parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 's' },
		{ "workload", required_argument, NULL, 'w' },
		{ "case", required_argument, NULL, 'C' },
		{ "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "budget", required_argument, NULL, 'B' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "events", required_argument, NULL, 'e' },
		{ "max-mem", required_argument, NULL, 'm' },
		{ "mem-frac", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'F' },
		{ "tag", required_argument, NULL, 't' },
		{ "aslr", no_argument, NULL, 'A' },
		{ "sequential", no_argument, NULL, 'Q' },
		{ "keep-page-reporting", no_argument, NULL, 'K' },
		{ "lock-wait", required_argument, NULL, 'L' },
		{ "warm-guest", required_argument, NULL, 'G' },
		{ "no-profile", no_argument, NULL, 'P' },
		{ "profile-period", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->suite = optarg;
			break;
		case 'w':
			o->workloads = optarg;
			break;
		case 'C':
			o->case_glob = optarg;
			break;
		case 'e':
			/* "" (or ",") would open no counter at all, silently */
			if (!optarg[strspn(optarg, ", ")])
				return pt_usage_error(
					"run", "--events needs at least one event name, not '%s'",
					optarg);
			o->events = optarg;
			break;
		case 'F':
			o->force = true;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 't':
			o->tag = optarg;
			break;
		case 'Q':
			o->sequential = true;
			break;
		case 'G': {
			uint64_t b;

			if (strcmp(optarg, "auto") && strcmp(optarg, "off") &&
			    (pt_size_parse(optarg, &b) || !b))
				return pt_usage_error("run",
						      "--warm-guest '%s': not auto, off or a size "
						      "such as 2G",
						      optarg);
			o->warm_guest = optarg;
			break;
		}
		case 'K':
			o->keep_page_reporting = true;
			break;
		case 'A':
			o->aslr = true;
			break;
		case 'P':
			o->no_profile = true;
			break;
		case 'p':
			if (pt_parse_u64(optarg, PT_PROFILE_PERIOD_MIN_NS, PT_PROFILE_PERIOD_MAX_NS,
					 &o->profile_period_ns))
				return pt_usage_error(
					"run",
					"--profile-period needs whole nanoseconds from %llu to %llu, "
					"not '%s'",
					PT_PROFILE_PERIOD_MIN_NS, PT_PROFILE_PERIOD_MAX_NS, optarg);
			break;
		case 'r':
			if (pt_parse_int(optarg, 1, INT_MAX, &o->reps))
				return pt_usage_error("run",
						      "--reps needs a whole number >= 1, not '%s'",
						      optarg);
			o->reps_given = true;
			break;
		case 'B':
			if (parse_budget(optarg, &o->budget_s))
				return pt_usage_error(
					"run",
					"--budget needs seconds (180, 180s) or minutes (3m) from 0 "
					"to a week, not '%s'",
					optarg);
			break;
		case 'L':
			if (pt_parse_int(optarg, 0, INT_MAX, &o->lock_wait))
				return pt_usage_error(
					"run", "--lock-wait needs whole seconds >= 0, not '%s'",
					optarg);
			break;
		case 'W':
			if (pt_parse_int(optarg, 0, INT_MAX, &o->warmup))
				return pt_usage_error(
					"run", "--warmup needs a whole number >= 0, not '%s'",
					optarg);
			break;
		case 'c':
			if (!strcmp(optarg, "pick"))
				o->cpu = RUN_CPU_PICK;
			else if (!strcmp(optarg, "last"))
				o->cpu = RUN_CPU_LAST;
			else if (pt_parse_int(optarg, 0, INT_MAX, &o->cpu))
				return pt_usage_error(
					"run", "--cpu needs a CPU number, last or pick, not '%s'",
					optarg);
			break;
		case 'm':
			if (pt_size_parse(optarg, &o->max_mem) || !o->max_mem)
				return pt_usage_error(
					"run", "--max-mem needs a size like 512M or 4G, not '%s'",
					optarg);
			break;
		case 'f':
			o->mem_frac = strtod(optarg, &end);
			/* written so that NaN fails too: "nan" would refuse every case */
			if (*end || end == optarg || !(o->mem_frac > 0 && o->mem_frac <= 1))
				return pt_usage_error(
					"run", "--mem-frac needs a number in (0, 1], not '%s'",
					optarg);
			break;
		case 'h':
			run_usage(stdout);
			return -1;
		default:
			return pt_opt_error("run", c, argc, argv);
		}
	}
	if (optind < argc)
		return pt_usage_error("run", "unexpected argument '%s'", argv[optind]);
	if (pt_suite_parse(o->suite, &o->suite_id))
		return pt_usage_error("run", "unknown suite '%s' (quick, full, ci)", o->suite);
	if (o->budget_s > 0 && o->sequential)
		return pt_usage_error("run", "--budget needs interleaved rounds, not --sequential");
	/*
	 * The quick suite is what ./run.sh runs: a user waits for it, so it
	 * keeps to 3 minutes on a slow host by measuring fewer repetitions.
	 * An explicit --reps is the user's choice; the other suites' counts are
	 * what their users compare (the ci suite's pool gate).
	 */
	if (o->budget_s < 0)
		o->budget_s = o->suite_id == PT_SUITE_QUICK && !o->reps_given && !o->sequential
				      ? RUN_QUICK_BUDGET_S
				      : 0;
	return 0;
}
