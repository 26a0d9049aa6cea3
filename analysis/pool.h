/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The baseline-pool test: one or more NEW runs judged against many earlier
 * runs of the same suite (the pool), on run-level statistics.
 *
 * Two runs minutes apart on a shared host differ by 10-30%: noise between
 * runs that no number of samples inside one run can show. The pool shows
 * it. Per series, each run contributes one statistic (by default a trimmed
 * mean of its repetitions: pt_pool_run_stat); on a log scale (timings
 * are multiplicative) the pool gives a mean and a between-run standard
 * deviation s over k runs, the NEW runs a mean over n. Then
 *   t = (mean_new - mean_pool) / (s * sqrt(1/n + 1/k)),  k - 1 degrees of
 * freedom, one-sided in the direction of the change for metrics with a
 * better direction, Holm over the gated series. The smallest change this
 * comparison could detect comes from the same terms.
 *
 * With opts.round_effect, the drift inside each interleaved run is taken
 * out first: a reference series' run statistic is formed from its
 * repetitions after each round's effect (pool_rounds.h).
 *
 * The run effect (opts.run_effect): a drifting host moves most timings of
 * a run together. A run's effect e is the median, over the gated timed
 * series, of ln(its statistic) less the pool's median of that series. It is
 * gated as one more series ("run/effect"), tested like any other, so a
 * change that moves everything is seen against the spread of whole runs.
 * Each timed gated series is regressed over the pool on its covariates
 * x: e computed without the series itself, or with opts.factors the
 * scores of that many run factors (pool_factors.h) computed without the
 * series' workload; y = a + b.x, k - 1 - p degrees of freedom for p
 * covariates. The NEW runs' mean residual is tested with standard error
 * s sqrt(1/n + x'(X'X)^-1 x) at their mean covariates. A pool whose runs'
 * effects spread less than PT_POOL_EFFECT_MIN_PCT is judged raw: there is
 * nothing to take out.
 *
 * With opts.split_effect the run effect is two covariates instead of one:
 * the median over the series whose time is the kernel's (opts.in_kernel)
 * and the median over the others, each without the series itself. A host
 * can slow faults, mprotect and munmap together while user-space loops
 * hardly move (docs/compare.md, the s24 runs); one median over both mixes
 * the two. Each part needs PT_POOL_SPLIT_MIN series, or the one effect is
 * used.
 *
 * Runs made back to back are not independent (pool_serial.h): with
 * opts.serial each side's 1/n (1/k) becomes the sum of the correlations
 * between its runs over n^2 (k^2), the correlation at each lag estimated
 * from the pool's runs made back to back (or given). In the regression the
 * leverage's pool part is scaled alike. One estimate over every gated
 * timed series: on this project's PVM guest each workload's own, though
 * its series differ (the TLB chases 0.4-0.6 at lag 1, the 4K faults
 * 0-0.3), let more identical runs fire (results/gate-serial/NOTES.md).
 */
#ifndef PTBENCH_POOL_H
#define PTBENCH_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/pool_factors.h"
#include "analysis/pool_moderate.h"
#include "analysis/pool_serial.h"
#include "util/schema.h"
#include "util/stats.h"

#define PT_POOL_MIN_DEFAULT 5
/* The run statistic's default trim (pt_pool_run_stat; docs/compare.md says why). */
#define PT_POOL_TRIM_DEFAULT ((struct pt_trim){ 0.2, 0.2 })
/* The pool runs' effects must spread at least this much (%) for the effect to be taken out. */
#define PT_POOL_EFFECT_MIN_PCT 2.0
/* Series each part of a split run effect needs: a median without one of them is over >= 3. */
#define PT_POOL_SPLIT_MIN 4

/* One run's statistic of one series. */
struct pt_pool_point {
	const char *workload, *cs, *params, *metric, *unit; /* borrowed */
	enum pt_better better;
	double stat; /* the run statistic: pt_pool_run_stat (pool_rounds.h) */
	bool is_new; /* a NEW run's, not the pool's */
	unsigned run; /* which run: the same number for every point of one run */
	bool run_effect; /* the run effect itself (pool.c): gated whatever the primaries */
	/* its repetitions, for the round effect (pool_rounds.h); NULL and 0 when not kept */
	const double *vals;
	const int *reps; /* each value's repetition: its round in an interleaved run */
	size_t nvals;
	bool interleaved; /* the run measured its cases round by round */
	/* not NULL: pt_pool_round_adjust writes the adjusted repetitions here, in vals' order */
	double *adjusted;
};

struct pt_pool_row {
	const struct pt_pool_point *key; /* names and unit */
	size_t k, n; /* pool runs, NEW runs with this series */
	double pool_mean, pool_sd; /* of ln(run statistic) */
	double new_mean; /* of ln(run statistic) */
	double change_pct; /* exp(new_mean - pool_mean) - 1, in % */
	double t, p, p_adj;
	double se, df; /* the test's standard error (ln scale) and degrees of freedom */
	double diff; /* what was tested: the NEW runs' mean (residual) less the pool's, ln scale */
	bool moderated; /* pool_sd, se and df moderated (pool_moderate.h) */
	double series_sd; /* the series' own pool_sd before that; NAN when not moderated */
	bool adjusted; /* tested on residuals from the run effect or factors: change_pct is theirs */
	size_t factors; /* run factors it was regressed on (0: the run effect) */
	bool own_workload; /* scores from its own workload's other series (too few outside) */
	double raw_change_pct; /* the change before the run effect or factors were taken out */
	double slope; /* b of the regression on the run effect (its kernel part), or the first factor */
	double slope_user; /* b on a split run effect's other part; NAN when not split */
	double detectable_pct; /* smallest change in the worse direction it could detect */
	double alpha, threshold_pct;
	bool gated, tested;
	enum pt_verdict verdict;
};

struct pt_pool_result {
	struct pt_pool_row *rows;
	size_t n;
	size_t tested, gated_both;
	size_t regressions, improvements, changed, too_few, info, ungated;
	size_t pool_runs, new_runs;
	size_t round_runs; /* runs whose round effect was taken out (pool_rounds.h) */
	double median_detectable_pct; /* over the tested rows, NaN when none */
	size_t effect_series; /* series the run effect is the median over; 0 when not used */
	size_t split_kernel, split_user; /* the split run effect's two parts; 0 when not split */
	size_t factors, factor_series; /* run factors taken out, and the series they come from */
	double factor_eig[PT_POOL_FACTORS_MAX]; /* their eigenvalues (share: / factor_series) */
	double effect_spread_pct; /* between the pool runs' effects; NAN when not computed */
	struct pt_pool_serial serial; /* the correlation between runs made back to back */
	/* n^2 over the sum of the NEW runs' correlations: as many independent runs */
	double new_effective;
	struct pt_pool_point *effect_pts; /* the run effect's own points, one per run */
	struct pt_pool_prior prior; /* the moderated spread's; .series 0 when not used */
};

struct pt_pool_opts {
	double alpha, threshold_pct;
	size_t min_pool; /* fewer pool runs with a series: too few */
	const struct pt_cmp_config *config;
	const char *filter;
	/* NULL: every series gated; otherwise as in pt_cmp_opts */
	bool (*is_primary)(const void *ctx, const char *workload, const char *cs,
			   const char *metric);
	const void *primary_ctx;
	bool run_effect; /* take the run effect (or factors) out of each timed gated series (above) */
	bool split_effect; /* the run effect in two parts, the kernel's series and the others */
	bool (*in_kernel)(const char *workload); /* split_effect's parts; NULL: no split */
	int factors; /* run factors instead of e; 0: e alone, -1: as many as the pool shows */
	bool round_effect; /* take each round's effect out before the run statistics (pool_rounds.h) */
	/* the run statistic of a point with repetitions: pt_pool_run_stat; 0.5 the median */
	struct pt_trim trim;
	enum pt_pool_serial_mode serial; /* auto (the default, 0): estimated from the pool */
	double serial_rho; /* serial FIXED: the correlation at lag 1 */
	/* each gated series' spread moderated toward all of theirs (pool_moderate.h) */
	bool moderate;
	/* each run's start and end (s since the epoch; NAN unknown), indexed by point.run */
	const double *run_start, *run_end;
	size_t nrun_times;
};

/*
 * Judge points (any order; they are sorted in place). 0, or -1 when out of
 * memory. Rows refer to points, which must outlive r.
 */
int pt_pool_compare(struct pt_pool_point *pts, size_t npts, size_t pool_runs, size_t new_runs,
		    const struct pt_pool_opts *o, struct pt_pool_result *r);
void pt_pool_result_free(struct pt_pool_result *r);

#endif
