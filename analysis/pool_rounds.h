/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The round effect: drift inside one run, taken out before the run's
 * statistic is formed.
 *
 * An interleaved run's round r measures repetition r of every case in
 * suite order, the cases of one workload one after the other. A host that
 * drifts within the run (a neighbour's burst, a slow phase that lasts a
 * few rounds) moves the cases measured close together in time together.
 * For each gated timed series (a reference) of such a run and each round,
 * the round's effect is the median, over the other references of the same
 * workload (at least PT_POOL_ROUND_MIN_MATES of them; otherwise over every
 * other reference), of their deviation in that round from their own
 * median over the run, on a log scale. The series' run statistic becomes
 * the trimmed mean (pt_pool_run_stat) over its rounds of ln(value) less
 * that effect.
 *
 * A change that slows one series in every round moves its own median and
 * no other series' deviations, so the adjustment cannot take a regression
 * out: it removes only what varies from round to round within the run.
 * Measured on this project's PVM guest, 60 identical ci runs:
 * results/gate-run-effect/NOTES.md.
 */
#ifndef PTBENCH_POOL_ROUNDS_H
#define PTBENCH_POOL_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/pool.h"

/* Fewer same-workload references than this in a round: the effect comes from all of them. */
#define PT_POOL_ROUND_MIN_MATES 2
/* A series whose repetition numbers go beyond this keeps its plain median (no sane run has them). */
#define PT_POOL_ROUND_MAX 100000

/* A duration (ns, us, ms, s): what drift inside or between runs scales. */
bool pt_unit_is_timed(const char *unit);

/*
 * A run's statistic of one series from its repetitions: exp of the mean of
 * ln(value) after cutting the fraction trim.lo of them from the low end and
 * trim.hi from the high end (pt_trimmed_mean_cut); both >= 0.5, or a value
 * that is not positive, gives the plain median. scratch holds n.
 *
 * Why not always the median: it rests on the middle one or two values, the
 * trimmed mean on the middle 60% (trim 0.2 of 10 repetitions: 6). For a
 * normal sample the median's variance is about pi/2 times the mean's; on
 * this project's PVM guest the trimmed mean's between-run residuals had
 * lighter tails and a lower spread than the median's, and the A/A rate
 * fell with them (results/gate-trimmed-mean/NOTES.md).
 */
double pt_pool_run_stat(const double *vals, size_t n, struct pt_trim trim, double *scratch);

/*
 * Replace the median of every reference point (is_ref[i]) of an
 * interleaved run that has its repetitions with the round-adjusted
 * statistic above, trimmed by trim, and, where a point has adjusted, its
 * adjusted repetitions there (left alone when it is not adjusted).
 * Idempotent: it reads only the points' repetitions.
 * *runs_adjusted: how many runs were. 0, or -1 when out of memory.
 */
int pt_pool_round_adjust(struct pt_pool_point *pts, size_t npts, const bool *is_ref,
			 struct pt_trim trim, size_t *runs_adjusted);

#endif
