/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The moderated spread of the pool gate (compare --spread moderated): each
 * gated series' between-run variance drawn toward the variance of all of
 * them, by as much as the series' own estimate is unsure, as limma does for
 * microarrays (G. K. Smyth, "Linear models and empirical Bayes methods for
 * assessing differential expression in microarray experiments", Statistical
 * Applications in Genetics and Molecular Biology 3(1), 2004, sections 3
 * and 6.2). A pool of 10 runs gives each series' spread 8 or 9 degrees of
 * freedom, and the gate's Holm family of ~47 series at alpha 0.01 asks for
 * a t quantile of 5.76 there (3.96 at 30; results/gate-moderate-2026-12-07);
 * the prior adds its d0 to them.
 */
#ifndef PTBENCH_POOL_MODERATE_H
#define PTBENCH_POOL_MODERATE_H

#include <stddef.h>

/* fewer series and the prior's own degrees of freedom are a guess */
#define PT_POOL_PRIOR_MIN_SERIES 8
/* an infinite d0 (every spread one, up to sampling): the normal, nearly */
#define PT_POOL_PRIOR_DF_MAX 1e6

struct pt_pool_prior {
	size_t series; /* the variances it was fitted on; 0: not fitted */
	double df; /* d0; INFINITY when they differ no more than sampling explains */
	double var; /* s0^2, on the series' own (ln) scale */
};

/*
 * Fit the scaled inverse chi-square prior to n variances var[i] > 0 with
 * df[i] > 0 degrees of freedom (the others are skipped): 0, or -1
 * (p->series 0) with fewer than PT_POOL_PRIOR_MIN_SERIES usable.
 */
int pt_pool_prior_fit(const double *var, const double *df, size_t n, struct pt_pool_prior *p);

/*
 * A series' moderated variance (d0 s0^2 + d s^2) / (d0 + d), and in *df_out
 * the degrees of freedom of its test, d0 + d (at most PT_POOL_PRIOR_DF_MAX);
 * var and df as they are when the prior was not fitted.
 */
double pt_pool_prior_var(const struct pt_pool_prior *p, double var, double df, double *df_out);

#endif
