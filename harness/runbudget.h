/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's time budget (ptbench run --budget): how many repetitions of an
 * interleaved run fit, from how long its first round took.
 */
#ifndef PTBENCH_RUNBUDGET_H
#define PTBENCH_RUNBUDGET_H

/* fewer repetitions than this and a case's median and spread mean little */
#define PT_BUDGET_MIN_REPS 3
/*
 * The share of the budget left unplanned. On this project's PVM guest the
 * plan's "about N s in all" missed the quick suite's wall time by -4 to
 * +25 s over nine ./run.sh runs of 2026-12-05: the host slows rounds as
 * the run goes (31 s planned, 40 s the last) and the profiled repetitions
 * took 1.0-1.9x their estimate. A tenth of 180 s covered all but one.
 */
#define PT_BUDGET_HEADROOM 0.10

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
 * the time left holds, less PT_BUDGET_HEADROOM of the budget, at least
 * PT_BUDGET_MIN_REPS (or reps, if fewer, or the rounds already done), at
 * most reps.
 */
int pt_budget_reps(const struct pt_budget_in *in);

#endif
