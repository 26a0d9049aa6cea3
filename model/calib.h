/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calibration: simulate measured points (a pointer chase over base pages
 * or PMD blocks, the dense control) under D64 and D128, then fit the latency
 * parameters, in ns, so the D64 simulation reproduces the measured ns per
 * access, and predict D128 with the fitted parameters. The model is linear
 * in the latencies, so the fit is a non-negative least squares on relative
 * error, solved by projected coordinate descent (exact per coordinate).
 */
#ifndef PTBENCH_MODEL_CALIB_H
#define PTBENCH_MODEL_CALIB_H

#include <stddef.h>

#include "model/geometry.h"
#include "model/walk_cfg.h"
#include "model/walk_pattern.h"

/*
 * One measured point. The model reads only the access pattern, the leaf
 * size and the working set; which run, case or backing it came from is
 * the caller's business (analysis/calibpoints.h builds points from a run's
 * params), kept here as labels for the output.
 */
struct pt_calib_point {
	char cs[64]; /* label: the case measured, e.g. chase-4k-64M */
	char backing[16]; /* label: its backing, e.g. 4k, thp, hugetlb, dense */
	enum pt_pattern_kind pattern; /* PT_PAT_CHASE, _DENSE, _CHASE_HALF or _CHASE_QUARTER */
	unsigned block_h; /* leaves: 0 base pages, 1 PMD blocks */
	uint64_t ws; /* bytes */
	double measured_ns; /* per access; the median of the run's samples */
	double f_d64[PT_LAT_N]; /* events per access, data included */
	double f_d128[PT_LAT_N];
};

/* Latencies fitted by default: everything but the L1 TLB and walk-cache lookups. */
#define PT_CALIB_MASK_DEFAULT                                                                      \
	(1u << PT_LAT_L1 | 1u << PT_LAT_L2 | 1u << PT_LAT_LLC | 1u << PT_LAT_MEM |                 \
	 1u << PT_LAT_L2TLB | 1u << PT_LAT_WALK)

/*
 * Simulate one point under D64 and D128 (cfg's granule and VA), filling
 * its features. 0, or -1 with a message.
 */
int pt_calib_simulate(struct pt_calib_point *p, const struct pt_walk_cfg *cfg, char *err,
		      size_t errlen);
/*
 * Fit lat (ns, in/out: the start point and the fixed values) over n points
 * with D64 features. mask: bits of enum pt_lat to fit. Returns the RMS
 * relative error.
 */
double pt_calib_fit(const struct pt_calib_point *p, size_t n, unsigned mask,
		    double lat_ns[PT_LAT_N]);
/* ns per access predicted from features f and latencies in ns. */
double pt_calib_predict(const double f[PT_LAT_N], const double lat_ns[PT_LAT_N]);

#endif
