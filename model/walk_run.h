/* SPDX-License-Identifier: GPL-2.0-only */
/* Drive simulators with a synthetic pattern: warm-up, then counted accesses. */
#ifndef PTBENCH_MODEL_WALK_RUN_H
#define PTBENCH_MODEL_WALK_RUN_H

#include "model/walk_pattern.h"
#include "model/walk_sim.h"

/* Feed warmup + accesses addresses to each of n simulators; counts start after warm-up. */
void pt_walk_run_pattern(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t warmup,
			 uint64_t accesses);
/* Default counts for a pattern: warm-up one pass, then 4 passes (at least 2^20),
 * as the tlb workload does. */
void pt_walk_default_counts(const struct pt_pattern *p, uint64_t *warmup, uint64_t *accesses);
/*
 * Counts for a calibration, which simulates every point for every
 * hypothesis: warm-up one pass, then one pass (2^17 to 2^20 accesses).
 * A pass of a random chase already samples every page once; more passes
 * only repeat it.
 */
void pt_walk_fit_counts(const struct pt_pattern *p, uint64_t *warmup, uint64_t *accesses);

#endif
