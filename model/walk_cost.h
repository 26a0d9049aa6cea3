/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cost model: cycles per access = features . latencies, where the
 * features are event counts per access from a simulation. Being linear, a
 * simulation is run once and re-costed for any latencies (calibration).
 */
#ifndef PTBENCH_MODEL_WALK_COST_H
#define PTBENCH_MODEL_WALK_COST_H

#include <stdbool.h>

#include "model/walk_sim.h"

/*
 * Events per access, one per latency parameter (enum pt_lat). with_data:
 * include the data accesses themselves, not only translation.
 */
void pt_walk_features(const struct pt_walk_stats *s, bool with_data, double f[PT_LAT_N]);
double pt_walk_cost(const double f[PT_LAT_N], const double lat[PT_LAT_N]);

/* The derived metrics of one simulation, as written to the CSV. */
enum pt_walk_metric {
	PT_M_ACCESSES,
	PT_M_L1TLB_HIT_RATE,
	PT_M_L2TLB_HIT_RATE,
	PT_M_WALKS_PER_KILO,
	PT_M_STEPS_PER_WALK,
	PT_M_MEM_REFS_PER_WALK,
	PT_M_PWC_HIT_H1,
	PT_M_PWC_HIT_H2,
	PT_M_PWC_HIT_H3,
	PT_M_PWC_HIT_H4,
	PT_M_PWC_HIT_H5,
	PT_M_STEP_PWC,
	PT_M_STEP_L1,
	PT_M_STEP_L2,
	PT_M_STEP_LLC,
	PT_M_STEP_MEM,
	PT_M_WALK_CYC_MEAN,
	PT_M_WALK_CYC_P99,
	PT_M_WALK_CYC_ALL_L1,
	PT_M_XLAT_CYC_PER_ACCESS,
	PT_M_DATA_CYC_PER_ACCESS,
	PT_M_XLAT_NS_PER_ACCESS,
	PT_M_PAGETABLE_BYTES,
	PT_M_N
};

/* Column name of metric i. */
const char *pt_walk_metric_name(enum pt_walk_metric m);
/* Fill out[PT_M_N]; NaN where a metric does not apply (no walks, no level). */
void pt_walk_metrics(const struct pt_walksim *s, double out[PT_M_N]);
/* The same from counts alone (the nested simulator keeps its own tables). */
void pt_walk_metrics_of(const struct pt_walk_stats *st, const struct pt_walk_cfg *cfg,
			double pt_bytes, double out[PT_M_N]);
/* Walk cycles at quantile q (0..1) of the histogram; NaN without walks. */
double pt_walk_cycles_quantile(const struct pt_walk_stats *s, double q);

#endif
