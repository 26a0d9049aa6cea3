/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptbench model walk calibrate, less its options and printing: simulate a
 * run's calibration points (analysis/calibpoints.h), fit the latencies,
 * and write walk_model.csv (docs/walk.md).
 */
#ifndef PTBENCH_ANALYSIS_WALKCALIB_H
#define PTBENCH_ANALYSIS_WALKCALIB_H

#include <stddef.h>
#include <stdio.h>

#include "model/calib.h"
#include "model/walk_cfg.h"

/*
 * Simulate every point under cfg (D64 and D128), then fit the latencies
 * of PT_CALIB_MASK_DEFAULT starting from cfg's (the others stay at cfg's).
 * lat receives ns, *rms the RMS relative error. 0, or -1 with "case X:
 * problem" in err.
 */
int pt_walkcalib_fit(struct pt_calib_point *pts, size_t n, const struct pt_walk_cfg *cfg,
		     double lat[PT_LAT_N], double *rms, char *err, size_t errlen);

/* walk_model.csv: the measured, fitted-d64 and predicted-d128 rows of every point. */
void pt_walkcalib_csv(FILE *f, const struct pt_calib_point *p, size_t n,
		      const double lat[PT_LAT_N]);

#endif
