/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The A/A statistics of ptbench calibrate: pairs of runs of one build
 * passed through the regression gate. From them: how often the gate fires
 * on no change (with a Clopper-Pearson bound), the smallest change it
 * catches in >= 80% of the pairs (one side's samples of one metric scaled
 * in memory along a ladder of shifts), and the noise floor: every two runs
 * compared, the changes the gate called significant between identical runs
 * turned into per-series thresholds, with a leave-pair-out estimate of the
 * false-positive rate of the gate those thresholds make.
 */
#ifndef PTBENCH_AA_CALIBRATE_H
#define PTBENCH_AA_CALIBRATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/noisefloor.h"
#include "analysis/rundir.h"

#define PT_AA_DETECT_RATE 0.8
#define PT_AA_NSHIFTS 17
/* all-pairs comparisons over at most this many runs (they grow as its square) */
#define PT_AA_FLOOR_MAX_RUNS 64

/* Injected changes, in % in the worse direction of each metric. */
extern const double pt_aa_shifts_pct[PT_AA_NSHIFTS];

/* One run as the runner left it: described in the outputs, not analysed. */
struct pt_aa_run {
	char dir[PATH_MAX];
	double seconds;
	int status; /* exit status of the run, or -1 when it did not exit */
};

struct pt_aa_pair {
	struct pt_aa_run run[2];
	struct pt_rundir a, b;
	struct pt_cmp_result res;
	bool loaded, compared;
};

/* One comparison of two identical runs (a earlier, as BASE) the gate called significant. */
struct pt_aa_hit {
	double abs_change_pct;
	int a, b;
	bool worse;
};

/* Detection and noise floor of one series over all pairs. */
struct pt_aa_series {
	const struct pt_series *key; /* from the first pair that tested it */
	size_t pairs_tested;
	size_t hits[PT_AA_NSHIFTS];
	double smallest_pct; /* NaN when not reached within the ladder */
	double base_threshold; /* the gate's threshold for it, in percent */
	double *median; /* per run (pair p: runs 2p and 2p+1), NaN untested */
	struct pt_aa_hit *hits_aa; /* A/A comparisons the gate judged significant */
	size_t nhits_aa;
};

struct pt_aa {
	const struct pt_cmp_opts *opts; /* the gate being calibrated */
	struct pt_floor_opts floor; /* margin and max_pct; base_pct per series */
	int npairs;
	struct pt_aa_pair *pairs;
	/* the gate on each pair */
	size_t fired, any_significant, tested_total, significant_total, too_few_total;
	size_t blind_pairs;
	/* every two runs: the gate itself, and the noise-floor gate leave-pair-out */
	size_t all_fired, loo_fired, loo_total;
	struct pt_aa_series *det; /* sorted by series key */
	size_t ndet;
};

struct pt_aa_summary {
	size_t detectable, undetectable;
	double median_pct, max_pct, min_pct; /* NaN when none is detectable */
};

/* npairs empty pairs; 0, or -1 out of memory. */
int pt_aa_init(struct pt_aa *k, int npairs, const struct pt_cmp_opts *opts,
	       const struct pt_floor_opts *floor);
void pt_aa_free(struct pt_aa *k);
/* Read pair p's two runs from pairs[p].run[].dir; 0, or -1 with err. */
int pt_aa_load(struct pt_aa *k, int p, char *err, size_t errlen);
/* Every figure, once all pairs are loaded; 0, or -1 out of memory. */
int pt_aa_analyse(struct pt_aa *k);

/*
 * aa_floor.c: compare every two runs (of the first PT_AA_FLOOR_MAX_RUNS)
 * and keep what the gate called significant in each series' hits_aa; then
 * count the comparisons on which the gate fired, and the noise-floor gate
 * learnt without the two runs compared (leave-pair-out). Once the series
 * are known (pt_aa_analyse calls it); 0, or -1 out of memory.
 */
int pt_aa_floor_learn(struct pt_aa *k);

/* Clopper-Pearson upper limit of a 95% two-sided interval for x of n. */
double pt_aa_rate_upper95(size_t x, size_t n);

int pt_aa_nruns(const struct pt_aa *k);
/* Runs the noise floor is learnt from: the first PT_AA_FLOOR_MAX_RUNS. */
int pt_aa_floor_runs(const struct pt_aa *k);
/* Largest significant A/A change of a series, leaving runs a and b out (-1: none). */
double pt_aa_floor_worst(const struct pt_aa_series *d, int a, int b);
/* A series' noise-floor threshold in %, leaving runs a and b out (-1: none). */
double pt_aa_floor_threshold(const struct pt_aa *k, const struct pt_aa_series *d, int a, int b,
			     bool *off);
/* Smallest ladder shift detected often enough that the noise floor lets through; NaN none. */
double pt_aa_floor_detect_pct(const struct pt_aa *k, const struct pt_aa_series *d);
/* Series whose threshold the noise floor raises, and those it leaves ungated. */
void pt_aa_floor_count(const struct pt_aa *k, size_t *raised, size_t *off);
/* Over the series: the smallest change detected by the gate as it is. */
void pt_aa_summarize(const struct pt_aa *k, struct pt_aa_summary *s);
/* The same with the noise-floor thresholds (pt_aa_floor_detect_pct). */
void pt_aa_floor_summarize(const struct pt_aa *k, struct pt_aa_summary *s);

#endif
