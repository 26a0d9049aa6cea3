/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walk model against the hardware: where a run recorded the CPU's TLB
 * counters for its tlb cases, the walks (or L1 DTLB misses) per access
 * they counted beside those the fitted model simulated for the same case.
 */
#ifndef PTBENCH_ANALYSIS_WALKCOUNTERS_H
#define PTBENCH_ANALYSIS_WALKCOUNTERS_H

#include <stddef.h>

#include "analysis/rundir.h"
#include "model/walk_cfg.h"

#define PT_WALKCOUNT_MAX_EVENTS 3

/* A quantity the model simulates, and the counters that count it on one CPU family. */
struct pt_walkcount_measure {
	const char *what; /* "walks", "l1_dtlb_misses" */
	enum pt_lat feature; /* the model's events per access of that kind */
	const char *events[PT_WALKCOUNT_MAX_EVENTS]; /* summed; every one must be recorded */
};

size_t pt_walkcount_measures(const struct pt_walkcount_measure **list);

/*
 * The median over repetitions of the measure's <event>_per_access rows of
 * case cs (the events summed), into *v. 0, or -1 when any event has no
 * row for the case (not opened, or never counted: never read as 0).
 */
int pt_walkcount_measured(const struct pt_rundir *run, const char *cs,
			  const struct pt_walkcount_measure *m, double *v);

/*
 * RMS relative error of simulated against measured over the pairs where
 * either is at least floor per access (below it a relative error says
 * nothing: 0.001 against 0.002 is 100%). *n: the pairs counted.
 */
double pt_walkcount_rms(const double *measured, const double *simulated, size_t k, double floor,
			size_t *n);

#endif
