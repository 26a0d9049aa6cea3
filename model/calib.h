/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Calibration: simulate the tlb workload's cases (pointer chase over 4K or
 * THP pages, dense control) under D64 and D128, then fit the latency
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

enum pt_calib_kind { PT_CAL_CHASE_4K, PT_CAL_CHASE_THP, PT_CAL_DENSE };

struct pt_calib_point {
	char cs[64]; /* case name, e.g. chase-4k-64M */
	enum pt_calib_kind kind;
	uint64_t ws; /* bytes */
	double measured_ns; /* per access; the median of the run's samples */
	double f_d64[PT_LAT_N]; /* events per access, data included */
	double f_d128[PT_LAT_N];
};

/* Latencies fitted by default: everything but the L1 TLB and walk-cache lookups. */
#define PT_CALIB_MASK_DEFAULT                                                                      \
	(1u << PT_LAT_L1 | 1u << PT_LAT_L2 | 1u << PT_LAT_LLC | 1u << PT_LAT_MEM |                 \
	 1u << PT_LAT_L2TLB | 1u << PT_LAT_WALK)

/* Parse a tlb case name into kind; -1 when it is not one the model knows. */
int pt_calib_kind_of(const char *cs, enum pt_calib_kind *k);
const char *pt_calib_backing(enum pt_calib_kind k);
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
