/* SPDX-License-Identifier: GPL-2.0-only */
/* ptbench run's options. */
#ifndef PTBENCH_CLI_RUN_H
#define PTBENCH_CLI_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/case.h"

struct run_opts {
	const char *suite;
	enum pt_suite suite_id; /* parsed from suite */
	char *workloads;
	char *events;
	const char *case_glob;
	const char *out;
	const char *tag;
	const char *warm_guest; /* "auto", "off" or a size */
	int reps, warmup, lock_wait;
	int cpu; /* >= 0 fixed, or RUN_CPU_* */
	/* --budget: the run's seconds, 0 none; -1 not given (quick's default, below) */
	double budget_s;
	bool reps_given;
	uint64_t max_mem;
	uint64_t profile_period_ns;
	double mem_frac;
	bool aslr;
	bool force; /* --force: clear a non-empty --out */
	bool sequential;
	bool keep_page_reporting;
	bool no_profile;
};

/* --cpu's choices besides a number: last (the default) and pick */
#define RUN_CPU_LAST (-1)
#define RUN_CPU_PICK (-2)

/* the quick suite's budget when neither --reps nor --budget is given */
#define RUN_QUICK_BUDGET_S 180

/*
 * Fill o from argv (defaults already in o): 0, -1 after --help, or
 * PT_EXIT_USAGE. o->budget_s is settled: the given one, or the quick
 * suite's default.
 */
int run_parse_args(int argc, char **argv, struct run_opts *o);

struct pt_run;
struct pt_workload;
/* the selected workloads' cases into run->results (run_cases.c): 0, or -1 out of memory */
int run_collect_cases(struct pt_run *run, const struct run_opts *o, const struct pt_workload **sel,
		      size_t nsel);
/* a case asked for by name (--case) that the memory guard refuses: exit 2 */
int run_check_explicit_guard(const struct pt_run *run);

#endif
