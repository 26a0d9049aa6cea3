/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two-run mode's round effect: an interleaved run's repetitions of its
 * gated timed series with what moved each whole round taken out, before
 * the rank test compares them sample by sample. The method is the pool
 * mode's (analysis/pool_rounds.h): a round's effect on a series is the
 * median over the run's other gated timed series, of the same workload
 * where there are enough, of their deviation in that round from their own
 * median, on a log scale.
 *
 * Why: on this project's PVM guest three rounds of a real fault run were
 * 16-47% slower for most of its series together, and a copy of that run
 * with one series 10% slower was not told apart from it
 * (results/gate-two-run-2026-12-07/NOTES.md). A change that slows one
 * series in every round stays; only what varies from round to round
 * within one run goes. Drift between the two runs stays too: the two-run
 * mode still cannot see it.
 */
#ifndef PTBENCH_COMPARE_ROUNDS_H
#define PTBENCH_COMPARE_ROUNDS_H

#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/rundir.h"

/*
 * Replace, in place, the repetitions of every gated timed series of r (o
 * says which are gated, as pt_compare does, --filter aside) with their
 * round-adjusted values, when meta.json says the run was interleaved.
 * *adjusted: how many series were (0 for a sequential run, or one with
 * too few such series). 0, or -1 when out of memory (r unchanged).
 */
int pt_cmp_round_adjust(struct pt_rundir *r, const struct pt_cmp_opts *o, size_t *adjusted);

#endif
