/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run-to-run noise floor of a series, from several runs of the same
 * build (ptbench calibrate's A/A runs): the largest change of its median
 * between any two runs, and the gate threshold that keeps the changes the
 * gate found significant between identical runs from failing it.
 */
#ifndef PTBENCH_NOISEFLOOR_H
#define PTBENCH_NOISEFLOOR_H

#include <stdbool.h>
#include <stddef.h>

struct pt_floor_opts {
	double base_pct; /* the gate's own threshold, in % */
	double margin; /* threshold = margin x the largest A/A change */
	double max_pct; /* above this the series is not gated (gate=off) */
};

/*
 * Largest |change of the median| in % between any two of med[0..n), as
 * compare computes a change (relative to the base side), leaving out the
 * runs skip_a and skip_b (-1: none) and NaN entries. NaN when fewer than
 * two runs remain; +inf when a base median is 0 and the other is not.
 */
double pt_floor_spread(const double *med, size_t n, long skip_a, long skip_b);

/*
 * The series' threshold in %: max(base_pct, ceil(margin x worst)), where
 * worst is the largest change the gate called significant between two
 * identical runs (0: none). *off is set when that exceeds max_pct (or
 * worst is unknown): the noise on this machine is too large for the gate
 * to judge the series.
 */
double pt_floor_threshold(double worst, const struct pt_floor_opts *o, bool *off);

#endif
