/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's time budget (ptbench run --budget): how many repetitions of an
 * interleaved run fit, from how long its first round took.
 */
#ifndef PTBENCH_RUNBUDGET_H
#define PTBENCH_RUNBUDGET_H

/* fewer repetitions than this and a case's median and spread mean little */
#define PT_BUDGET_MIN_REPS 3

struct pt_budget_in {
	double budget_s; /* the whole run's, from its start */
	double elapsed_s; /* since the start, after the rounds done */
	double round_s; /* the longest round so far */
	double profile_s; /* the profiled repetitions still to come */
	int warmup, reps; /* as planned */
	int rounds_done; /* warm-up rounds first */
};

/*
 * The repetitions that keep the run within its budget: as many rounds as
 * the time left holds, at least PT_BUDGET_MIN_REPS (or reps, if fewer, or
 * the rounds already done), at most reps.
 */
int pt_budget_reps(const struct pt_budget_in *in);

#endif
