/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walk model's calibration points from a run read back: the tlb
 * workload's ns_per_access series, each described by its params (backing,
 * ws), never by its case name, so the model stays ignorant of workload
 * naming. hugetlb pages are PMD leaves like THP blocks and are simulated
 * as such; backing=4k with stride=2 is the chase over every second page
 * (labelled "half"; backing=half in runs of the unported h-nested branch),
 * which the fit predicts and never fits, and with stride=4 the chase over
 * every fourth (labelled "quarter"), which it fits.
 */
#ifndef PTBENCH_ANALYSIS_CALIBPOINTS_H
#define PTBENCH_ANALYSIS_CALIBPOINTS_H

#include <stddef.h>

#include "analysis/rundir.h"
#include "model/calib.h"

/* A run gives at most this many points; the rest are left out. */
#define PT_CALIB_MAX_POINTS 512

/*
 * What a tlb series' params ask the model to simulate: 0 with p's
 * pattern, leaf size, backing and ws set; 1 when they name no backing the
 * model simulates, or a stride other than 1, 2 or 4 over 4K pages (not a
 * calibration point); -1 when the backing is one but ws is missing, not a
 * size, or not a whole number of pattern pages (of two at stride 2, four
 * at stride 4), or stride is not a positive integer.
 */
int pt_calib_point_from_params(const char *params, struct pt_calib_point *p);

/*
 * How a point's repetitions are summarised, both its measured value and,
 * with an interleaved run fitted round by round, its prediction over the
 * rounds. The median of a handful of repetitions that sit in two states of
 * the host lands on either state; the geometric mean (the mean of the
 * logs) weighs both, and its sampling error was half the median's on this
 * project's KVM guest (docs/walk.md, "The point statistic").
 */
enum pt_calib_stat { PT_CALIB_MEDIAN, PT_CALIB_GMEAN };

/* s of v's n values (n > 0, all positive for the geometric mean); v is reordered. */
double pt_calib_stat_of(enum pt_calib_stat s, double *v, size_t n);
/* "median" or "gmean" */
const char *pt_calib_stat_name(enum pt_calib_stat s);

/*
 * The points of a run, their measured_ns the statistic stat of the series, sorted
 * by backing (4k, thp, hugetlb, dense, half, quarter) then ws. 0, or -1 with the
 * problem, naming the file and line, in err.
 */
int pt_calib_points_from_run(const struct pt_rundir *run, enum pt_calib_stat stat,
			     struct pt_calib_point *pts, size_t max, size_t *n, char *err,
			     size_t errlen);

/*
 * The repetitions of p's series in run (the tlb ns_per_access series of
 * its case): 0 with *v and *n set, -1 when run has none.
 */
int pt_calib_point_values(const struct pt_rundir *run, const struct pt_calib_point *p,
			  const double **v, size_t *n);
/* p's series in run (values with their repetition numbers), NULL when run has none. */
const struct pt_series *pt_calib_point_series(const struct pt_rundir *run,
					      const struct pt_calib_point *p);

#endif
