/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Student's t distribution, for the baseline-pool test: the difference of
 * run-level log medians, scaled by the pool's spread, is t-distributed with
 * k - 1 degrees of freedom when run medians are log-normal.
 */
#ifndef PTBENCH_STUDENT_T_H
#define PTBENCH_STUDENT_T_H

/* P(T > t) for T ~ t(df), df > 0. */
double pt_t_sf(double t, double df);
/* The t with P(T > t) = p, 0 < p < 1. */
double pt_t_isf(double p, double df);

#endif
