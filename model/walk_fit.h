/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two-stage calibration (issue 12): cache and memory latencies from the
 * dense control cases first, then TLB and walk terms from the chases, each
 * stage an exact non-negative least squares on relative error. Points come
 * as struct pt_calib_point (pattern, leaf size, working set, measured
 * median; never a case name); features (events per access,
 * model/walk_cost.h) are given per point, simulated under one hypothesis of the machine's structure, so the same points can
 * be fitted under several and the hypotheses compared out of sample.
 */
#ifndef PTBENCH_MODEL_WALK_FIT_H
#define PTBENCH_MODEL_WALK_FIT_H

#include <stdbool.h>

#include "model/calib.h"

/* Terms fitted in stage 1 (dense) and stage 2 (chases). */
#define PT_FIT_STAGE1 (1u << PT_LAT_L1 | 1u << PT_LAT_L2 | 1u << PT_LAT_LLC | 1u << PT_LAT_MEM)
#define PT_FIT_STAGE2 (1u << PT_LAT_L2TLB | 1u << PT_LAT_WALK | 1u << PT_LAT_WALK2)

/*
 * Upper bound of the memory latency, ns: a loaded VM's DRAM access stays
 * well under it (the development VMs: 60-300 ns).
 */
#define PT_FIT_MEM_MAX_NS 400.0

/*
 * The least share of a point's accesses a term must take, at some point of
 * its stage, to be fitted: below it a cache term is left to stage 2 and a
 * TLB or walk term keeps its configured latency.
 */
#define PT_FIT_MIN_SHARE 0.2

/*
 * Whether fitted term j sits at its bound (only the memory latency has one):
 * then it is the bound, not a measured latency, and the fit wanted more.
 */
bool pt_fit_at_bound(unsigned j, const double lat_ns[PT_LAT_N]);

/*
 * What a point is to the fit, from its pattern and leaf size alone: the
 * dense control (stage 1), a chase over base pages, every page or every
 * fourth (fitted, and the base of the held-out fit), a chase over PMD
 * blocks (THP or hugetlb: held out), or any other pattern (the chase over
 * every second page): a check, predicted from the fit and never fitted.
 */
enum pt_fit_role { PT_FIT_DENSE, PT_FIT_BASE, PT_FIT_HUGE, PT_FIT_CHECK };

enum pt_fit_role pt_fit_role_of(const struct pt_calib_point *p);

struct pt_fit_set {
	size_t n;
	const struct pt_calib_point *p; /* pattern, block_h and ws */
	const double (*f)[PT_LAT_N]; /* features of each point under the hypothesis */
	const double *y; /* measured ns per access of each point */
	const double *w; /* row weights; NULL: 1 / y (relative error) */
};

/*
 * Fit lat_ns (in: the values of the terms not fitted) on the points with
 * use[i]. Stage 1 on the dense ones, stage 2 on the chases; with no dense
 * point in use, one joint stage. 0, or -1 when nothing could be fitted.
 */
int pt_fit2(const struct pt_fit_set *s, const bool *use, double lat_ns[PT_LAT_N]);

/*
 * Whether TLB or walk term j keeps its configured latency in a fit on the
 * points with use[]: no chase among them spends PT_FIT_MIN_SHARE of its
 * accesses on it.
 */
bool pt_fit_term_held(const struct pt_fit_set *s, const bool *use, unsigned j);
/* RMS relative error of lat_ns over the points with on[i] (NAN if none). */
double pt_fit_rms(const struct pt_fit_set *s, const bool *on, const double lat_ns[PT_LAT_N]);
/*
 * Out of sample: fitted on 4K chases + dense, the RMS relative error over
 * the THP and hugetlb chases (NAN when there are none).
 */
double pt_fit_heldout_huge(const struct pt_fit_set *s, const double base_ns[PT_LAT_N]);
/*
 * Leave one working set out: each ws's points predicted from the others' fit.
 * Both held-out errors leave PT_FIT_CHECK points out entirely.
 */
double pt_fit_heldout_ws(const struct pt_fit_set *s, const double base_ns[PT_LAT_N]);
/*
 * Features of point p under cfg (cfg->s2.format < 0: one stage), the guest
 * in format fmt: the tlb workload's pattern, warm-up and counts.
 */
/* RMS relative error of pred[i] against y[i] over the points with pred[i] set (NAN if none). */
double pt_fit_rms_pred(const double *y, const double *pred, size_t n);
/*
 * The predictions behind the two held-out errors, per point (NAN where a
 * point is not predicted): pred[i] for the THP and hugetlb chases from the
 * fit on 4K chases + dense, and for each working set's points from the fit
 * on the others. have: the points measured (NULL: all); only they are
 * fitted. 0, or -1 when out of memory or (huge) nothing could be fitted.
 */
int pt_fit_predict_huge(const struct pt_fit_set *s, const bool *have,
			const double base_ns[PT_LAT_N], double *pred);
int pt_fit_predict_ws(const struct pt_fit_set *s, const bool *have, const double base_ns[PT_LAT_N],
		      double *pred);
int pt_fit_features(const struct pt_calib_point *p, const struct pt_walk_cfg *cfg,
		    enum pt_format fmt, double f[PT_LAT_N], char *err, size_t errlen);

#endif
