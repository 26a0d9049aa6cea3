/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Yuen's two-sample test of trimmed means (Yuen 1974; Wilcox,
 * "Introduction to Robust Estimation and Hypothesis Testing", ch. 5):
 * each side's mean after a trim, its standard error from the same sample
 * winsorized at the trim, and Welch's degrees of freedom for the two
 * unequal variances. compare --test yuen uses it on ln(value), trimmed
 * from the slow end only (docs/compare.md says why).
 */
#ifndef PTBENCH_YUEN_H
#define PTBENCH_YUEN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/stats.h"

/* Each side keeps at least this many values after the trim. */
#define PT_YUEN_MIN_KEPT 2

struct pt_yuen {
	double diff; /* trimmed mean of b less that of a */
	double t, df;
	double p_greater; /* one-sided: P(T >= t), small when b is larger */
	double p_two; /* two-sided */
};

/*
 * Fewest values from which every larger side keeps PT_YUEN_MIN_KEPT of
 * them after trim (SIZE_MAX when none does: a trim of 1 or more).
 */
size_t pt_yuen_min_n(struct pt_trim trim);
/*
 * The test of a against b, trim cut from each (floor(n * trim.lo) values
 * from the low end, floor(n * trim.hi) from the high end). false when a
 * side keeps fewer than PT_YUEN_MIN_KEPT values or a value is not finite.
 * Both sides without spread: p is 0 or 1 as the trimmed means differ or
 * not (t is then +-infinity or 0).
 */
bool pt_yuen(const double *a, size_t na, const double *b, size_t nb, struct pt_trim trim,
	     struct pt_yuen *out);

#endif
