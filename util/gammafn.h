/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The digamma and trigamma functions, and trigamma's inverse: what the
 * moderated spread of the pool gate (analysis/pool_moderate.h) needs to
 * fit the scaled chi-square its series' variances are drawn from.
 */
#ifndef PTBENCH_GAMMAFN_H
#define PTBENCH_GAMMAFN_H

/* psi(x) = d/dx ln Gamma(x), x > 0; NAN otherwise. */
double pt_digamma(double x);
/* psi'(x), x > 0; NAN otherwise. */
double pt_trigamma(double x);
/* The x > 0 with psi'(x) = y, y > 0; NAN otherwise. */
double pt_trigamma_inv(double y);

#endif
