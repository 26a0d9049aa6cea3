/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Serial correlation between runs made back to back (pool.h). On a shared
 * host the state that slows a run can last longer than the run: on this
 * project's PVM guest the residuals of consecutive ci runs (about 75 s
 * each, after a run effect) correlated at 0.25 at lag 1, 0.15
 * at lag 2 and 0.13 at lag 3 (median over the 45 timed primary series of 70
 * runs), where the same runs shuffled gave -0.07 to 0.05
 * (results/gate-serial/NOTES.md). A CI job makes its NEW runs back to back,
 * so their mean varies more than s^2/n, and a test that takes them as
 * independent fires on identical runs more often than its alpha and
 * claims to detect changes it cannot.
 *
 * The correlation at each lag is estimated from the pool's runs that were
 * made back to back, pooled over the gated timed series (each standardised),
 * and the variance of a side's mean is s^2/m^2 times the sum of the
 * correlations between its m runs, lag by lag along the chains of runs
 * made back to back (m when none are).
 */
#ifndef PTBENCH_POOL_SERIAL_H
#define PTBENCH_POOL_SERIAL_H

#include <stdbool.h>
#include <stddef.h>

#define PT_POOL_SERIAL_LAGS 5 /* the most lags estimated; further apart counts as independent */
/* Runs at most this far apart (one's end to the next's start, s) are back to back. */
#define PT_POOL_SERIAL_GAP_S 600.0
/* A lag with fewer products than this (over every series) is not estimated: 0. */
#define PT_POOL_SERIAL_MIN_PAIRS 20
#define PT_POOL_SERIAL_MAX_RHO 0.95

enum pt_pool_serial_mode {
	PT_POOL_SERIAL_AUTO, /* estimated from the pool */
	PT_POOL_SERIAL_OFF, /* runs independent */
	PT_POOL_SERIAL_FIXED, /* rho at lag j given as rho1^j */
};

struct pt_pool_serial {
	enum pt_pool_serial_mode mode;
	double rho[PT_POOL_SERIAL_LAGS + 1]; /* the correlation at lag j; rho[0] = 1 */
	size_t pairs[PT_POOL_SERIAL_LAGS + 1]; /* auto: the products pooled at lag j */
	size_t series; /* auto: the series pooled */
	size_t run_pairs; /* auto: the pool's pairs of runs made one right after the other */
};

/* One side's runs in time order; b2b[i]: run[i] was made back to back after run[i - 1]. */
struct pt_pool_chain {
	unsigned *run;
	bool *b2b;
	size_t n;
};

/*
 * The chain of runs[0..n): start and end times (s) are indexed by run, ntimes
 * of them; a run without both (NAN, or past ntimes) breaks the chain on both
 * sides. 0, or -1 when out of memory.
 */
int pt_pool_chain_make(const double *start, const double *end, size_t ntimes, const unsigned *runs,
		       size_t n, struct pt_pool_chain *c);
void pt_pool_chain_free(struct pt_pool_chain *c);

/* s->rho from residuals res[j * nrun + run] (NAN: missing) of nser series over c's runs. */
void pt_pool_serial_estimate(struct pt_pool_serial *s, const double *res, size_t nser, size_t nrun,
			     const struct pt_pool_chain *c);
/* s->rho[j] = rho1^j (0 <= rho1 < 1), or all 0 with mode OFF. */
void pt_pool_serial_set(struct pt_pool_serial *s, enum pt_pool_serial_mode mode, double rho1);

/* The sum of the correlations between every two of c's runs, itself included: c->n when none. */
double pt_pool_serial_sum(const struct pt_pool_serial *s, const struct pt_pool_chain *c);

#endif
