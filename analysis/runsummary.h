/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The statistics of a run read back, as records other programs read:
 * per-series summaries (ptbench summary), a run's identity and the
 * interval of a change (ptbench compare --format json). The report scripts
 * take every median, interval and verdict they show from these, so the
 * statistics exist once, in util/stats.c and analysis/compare.c.
 */
#ifndef PTBENCH_RUNSUMMARY_H
#define PTBENCH_RUNSUMMARY_H

#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/rundir.h"
#include "util/json.h"

enum pt_summary_format { PT_SUMMARY_JSON = 0, PT_SUMMARY_CSV };

/* "lower", "higher", "neither": the results.csv spelling. */
const char *pt_better_word(enum pt_better b);

/*
 * Members n, median, ci_lo, ci_hi, ci_valid, min, max, mean, stddev, cv,
 * p90, p99 of s, into the JSON object being written.
 */
void pt_json_summary_members(struct pt_json *j, const struct pt_summary *s);

/*
 * An object under key naming run r: the path given, results.csv, and from
 * meta.json (null where absent) the tool version, kernel, descriptor
 * format, regime, arch, CPU, suite, repetitions, tag, start and end times.
 */
void pt_json_run_identity(struct pt_json *j, const char *key, const struct pt_rundir *r);

/*
 * A conservative 95% interval of a row's change, in percent: the extreme
 * changes between any bound of the base median's interval and any bound
 * of the new one's. NaN bounds when a side is missing or either interval
 * does not reach 95% (too few samples); infinite when a base bound is 0.
 */
void pt_cmp_change_ci(const struct pt_cmp_row *w, double *lo_pct, double *hi_pct);

/*
 * Every series of r with its summary: JSON {run: identity, series: [{
 * workload, case, params, metric, unit, better, n, median, ...}]} or CSV
 * with one row per series. 0, or -1 when writing failed.
 */
int pt_run_summary_write(FILE *f, const struct pt_rundir *r, enum pt_summary_format fmt);

#endif
