/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Statistics on samples, the one implementation: the runner's summary,
 * compare's gate, the noise floor and the report all use it.
 */
#ifndef PTBENCH_STATS_H
#define PTBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct pt_summary {
	size_t n;
	double min, max, mean, median, stddev, cv;
	double p90, p99;
	/* 95% confidence interval of the median (order statistics). */
	double ci_lo, ci_hi;
	/* false when n is too small for the interval to reach 95%. */
	bool ci_valid;
};

int pt_summarize(const double *v, size_t n, struct pt_summary *s);
/* Linear-interpolated quantile of sorted data, q in [0, 1]. */
double pt_quantile_sorted(const double *sorted, size_t n, double q);
void pt_sort_doubles(double *v, size_t n);
/* The fractions of a sample cut from its low and its high end. */
struct pt_trim {
	double lo, hi;
};

/*
 * Mean of sorted data after cutting floor(n * t.lo) values from the low end
 * and floor(n * t.hi) from the high end; a cut that would leave nothing
 * gives the quantile t.lo / (t.lo + t.hi) (the median when they are
 * equal, the minimum for 0 and 1).
 */
double pt_trimmed_mean_cut(const double *sorted, size_t n, struct pt_trim t);
/* t as --trim takes it: "F" when the two ends are cut alike, else "LO,HI". */
void pt_trim_str(struct pt_trim t, char *buf, size_t len);
/*
 * Two-sided Mann-Whitney U test, normal approximation with tie and
 * continuity correction (exact for small samples without ties).
 * Returns the p-value, or -1 when either side is empty.
 */
double pt_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);
/* The smallest p-value the test can give for these sizes (exact). */
double pt_mann_whitney_min_p(size_t na, size_t nb);

#endif
