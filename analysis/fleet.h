/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fleet view of a run history: hosts and kernels side by side, for
 * the primary metrics and the model's D128 predictions.
 *
 * Runs are grouped by (host, CPU model, kernel release): one group is one
 * machine running one kernel. Each run gives one median per series; a
 * group gives the median of its runs' medians and their range (how much
 * the runs of one machine and kernel disagree). Each series' fleet median
 * is the median over the groups, so a machine with many runs counts once.
 * A group's relative cost for a series is its median over the fleet's,
 * turned so that above 1 is worse (inverted for higher-is-better metrics);
 * the group's summary is the median of that over its series.
 */
#ifndef PTBENCH_FLEET_H
#define PTBENCH_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/history.h"
#include "util/schema.h"
#include "util/strpool.h"

#define PT_FLEET_MAX_TAGS 64

/* A run as the fleet sees it: its identity. */
struct pt_fleet_run {
	char id[64];
	char tag[128];
	char host[128];
	char cpu_model[160];
	char kernel_release[128];
};

/* One run's median of one series. */
struct pt_fleet_point {
	size_t run; /* index into the runs */
	const char *workload, *cs, *params, *metric, *unit; /* borrowed */
	enum pt_better better;
	double median;
	bool primary; /* its case's primary metric, as some run declares */
};

struct pt_fleet_group {
	char host[128];
	char cpu_model[160];
	char kernel_release[128];
	size_t nruns;
	char tags[256]; /* its runs' distinct tags, ", "-joined */
	size_t nmeasured, nmodelled; /* series with a relative cost */
	double measured_rel, modelled_rel; /* median relative cost; NaN with none */
};

struct pt_fleet_series {
	const char *workload, *cs, *params, *metric, *unit; /* borrowed from the points */
	enum pt_better better;
	bool modelled; /* a D128 prediction of the model, not a measurement */
	double fleet_median; /* median of the groups' medians */
};

struct pt_fleet_cell {
	size_t nruns; /* 0: no run of the group has the series */
	double median, min, max; /* of the run medians */
	double spread_pct; /* half the range in % of |median|; NaN with one run */
	double rel; /* relative cost, above 1 worse; NaN where undefined */
};

struct pt_fleet {
	struct pt_fleet_group *groups;
	size_t ngroups;
	struct pt_fleet_series *series; /* measured first, each by workload, case, params, metric */
	size_t nseries;
	struct pt_fleet_cell *cells; /* [series * ngroups + group] */
	size_t nruns; /* runs in the groups */
	bool undeclared; /* no run declares primary metrics: every measured series is kept */
};

/* A D128 prediction: d128_predicted_*, pgtable_bytes_model_d128, pgtable_d128_d64_ratio. */
bool pt_fleet_is_modelled(const char *metric);

/*
 * Group the runs and compute every cell from the points: kept are the
 * primary metrics (every measured series when no point is primary) and the
 * D128 predictions. 0, or -1 when out of memory. f borrows the points'
 * strings.
 */
int pt_fleet_build(const struct pt_fleet_run *runs, size_t nruns, const struct pt_fleet_point *pts,
		   size_t npts, struct pt_fleet *f);
void pt_fleet_free(struct pt_fleet *f);
static inline const struct pt_fleet_cell *pt_fleet_cell(const struct pt_fleet *f, size_t series,
							size_t group)
{
	return &f->cells[series * f->ngroups + group];
}

/* What fleet_load.c reads from a history: the selected runs and their points. */
struct pt_fleet_data {
	struct pt_fleet_run *runs;
	size_t nruns;
	struct pt_fleet_point *pts;
	size_t npts, cap;
	struct pt_strpool strs; /* owned copies the points borrow */
	size_t history_runs; /* every run in the history */
};

/*
 * The runs with one of tags[] (all runs when ntags is 0) and one point per
 * series of each. Bad input (PT_HIST_EINPUT, the problem in err): a history
 * without runs, a tag no run has, runs without rows.
 */
enum pt_history_err pt_fleet_load(struct pt_history *h, const char *const *tags, size_t ntags,
				  struct pt_fleet_data *d, char *err, size_t errlen);
void pt_fleet_data_free(struct pt_fleet_data *d);

#endif
