/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run factors of the pool gate (pool.h): what moves many series of a
 * run together, found in the pool and taken out of each series.
 *
 * A drifting host does not move every timing alike: a run with less of
 * the host's cache slows the chases more than the faults, one with slow
 * page allocation slows faults and fork more than the loops. One run
 * effect (the median over all series) takes out only the common part. So
 * the gated timed series' ln deviations over the pool runs are
 * standardised, and the leading principal components of their
 * correlation matrix are the factors: loadings per series. A run's scores
 * are the weighted least-squares fit of its deviations to the loadings
 * (weights 1 / the series' variance the factors leave).
 *
 * The scores that a series is regressed on are computed without every
 * series of its own workload, so a regression of one case, or of a whole
 * workload, cannot move its own covariates and be taken out with them.
 * Only where fewer than PT_POOL_FACTORS_MIN_REFS series lie outside the
 * workload (a single-workload run) are they computed from the other
 * series of the workload, leaving out just the series itself.
 */
#ifndef PTBENCH_POOL_FACTORS_H
#define PTBENCH_POOL_FACTORS_H

#include <stdbool.h>
#include <stddef.h>

#define PT_POOL_FACTORS_MAX 8
#define PT_POOL_FACTORS_MIN_REFS 3
/* Auto: one factor per this many pool runs beyond two, at least one. */
#define PT_POOL_FACTORS_RUNS_EACH 6

struct pt_pool_factors {
	size_t nrun, nref, k; /* k factors; 0 when none is used */
	double *z; /* nrun x nref: deviation less the pool mean, over the pool sd; NAN missing */
	double *load; /* nref x PT_POOL_FACTORS_MAX */
	double *w; /* nref: 1 / the variance the factors leave; 0: not a reference */
	const char *const *group; /* nref workloads, borrowed */
	double eig[PT_POOL_FACTORS_MAX]; /* the leading eigenvalues of the correlation matrix */
	size_t nused; /* references with a value in every pool run and a spread */
};

/*
 * Fit the factors. dev is nrun x nref (ln deviations, NAN where a run
 * lacks a series), in_pool[run] marks the pool's runs, group[j] is
 * reference j's workload, kreq the number of factors or -1 for the
 * Kaiser rule (eigenvalues over 1) capped by the pool's size. 0, or -1
 * when out of memory.
 */
int pt_pool_factors_fit(struct pt_pool_factors *f, const double *dev, size_t nrun, size_t nref,
			const bool *in_pool, const char *const *group, int kreq);

/*
 * Run's scores (f->k of them, into out) without the references of
 * skip_group, or (fallback, *own_group set) without reference skip_ref
 * alone. false when too few references have a value in that run.
 */
bool pt_pool_factors_scores(const struct pt_pool_factors *f, size_t run, const char *skip_group,
			    size_t skip_ref, double *out, bool *own_group);

void pt_pool_factors_free(struct pt_pool_factors *f);

#endif
