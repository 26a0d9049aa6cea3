/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How the baseline-pool gate behaves on this machine, from identical runs
 * kept in a history: the first `pool` runs (oldest first) are the pool;
 * every later run, judged alone, is an A/A trial (the gate should not
 * fire); the `news` runs after the pool are a NEW set into which a 10%
 * slowdown of each gated metric is injected in turn (it should fire).
 * Disjoint sets of `news` consecutive runs after the pool are A/A trials
 * too, judged together. With inject_sets other than 1, the injection is
 * repeated in each of those sets: which series one set of runs catches
 * depends on where those few runs fell, so one set is a single draw.
 */
#ifndef PTBENCH_POOL_AA_H
#define PTBENCH_POOL_AA_H

#include <stdio.h>

#include "analysis/history.h"
#include "analysis/pool.h"

struct pt_pool_aa_opts {
	const char *tag, *suite;
	size_t pool, news;
	double alpha, threshold_pct, inject_pct;
	bool run_effect; /* as compare --run-effect */
	bool split_effect; /* as compare --run-effect split */
	bool (*in_kernel)(const char *workload); /* the split's parts (pool.h) */
	int factors; /* as compare --factors; -1 auto */
	bool round_effect; /* as compare --round-effect */
	struct pt_trim trim; /* as compare --trim */
	enum pt_pool_serial_mode serial; /* as compare --serial */
	double serial_rho;
	bool moderate; /* as compare --spread moderated */
	size_t inject_sets; /* NEW sets injected into: 1 the first (default), 0 all that fit */
	FILE *out; /* the report, line by line */
};

struct pt_pool_aa_result {
	size_t runs, trials, fired;
	double fired_upper95; /* Clopper-Pearson upper bound of the rate */
	size_t set_trials, set_fired; /* the same for disjoint sets of `news` consecutive runs */
	double set_fired_upper95;
	size_t injected, caught_news, caught_one;
	double detectable_news_pct, detectable_one_pct; /* medians over the gated series */
	/* with inject_sets != 1: the sets injected, caught per set, series caught in >= 80% */
	size_t sets_injected, sets_caught_min, sets_caught_max, series_caught80;
	double sets_caught_median;
};

enum pt_history_err pt_pool_aa(struct pt_history *h, const struct pt_pool_aa_opts *o,
			       struct pt_pool_aa_result *r, char *err, size_t errlen);
/* The one-sided 95% Clopper-Pearson upper bound of k successes in n. */
double pt_binom_upper95(size_t k, size_t n);

#endif
