/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptbench model ops, less its options and printing (docs/opcost.md): from
 * one run, the D128 prediction of each page-table operation it measured
 * (model/opcost.h: the operation's D64 time, its profile, the ptops
 * replicas of the same run) and the checks of the decomposition on data
 * it was not fitted on.
 */
#ifndef PTBENCH_ANALYSIS_OPCOST_H
#define PTBENCH_ANALYSIS_OPCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/rundir.h"
#include "model/opcost.h"

/* One operation case of the run and its prediction. */
struct pt_opcost_row {
	const struct pt_series *s; /* the case's primary metric (D64, measured) */
	struct pt_op_case oc;
	struct pt_op_counts d64, d128;
	double t64; /* median of s */
	bool profiled; /* shares from the case's profile; else the main component's 100% */
	double samples, coverage; /* the profile's; coverage < 0 when absent */
	struct pt_op_prediction pred;
	/* replica D64 cost x entries over the matching component's time; < 0: none */
	double bound_share;
	enum pt_comp main; /* the component whose replica bound is reported */
};

/* A decomposition fitted on some cases and judged on one it did not see. */
struct pt_opcost_heldout {
	bool have;
	char what[160]; /* what was fitted and what predicted */
	char target[64]; /* the case predicted */
	double predicted, measured; /* ns */
	double err; /* predicted / measured - 1 */
};

struct pt_opcost {
	struct pt_replica_cost rep[PT_REPL_N];
	char replica_size[16]; /* the replica size used, "" when none */
	struct pt_opcost_row *rows;
	size_t n;
	struct pt_opcost_heldout fault, fork;
	bool any_profile;
};

/*
 * Predict every operation case of run. 0; -1 with err when the run holds
 * no case the model covers.
 */
int pt_opcost_compute(const struct pt_rundir *run, struct pt_opcost *o, char *err, size_t errlen);
void pt_opcost_free(struct pt_opcost *o);

/* The replica costs from the run's ptops rows (analysis/opcost_replica.c). */
void pt_opcost_replicas(const struct pt_rundir *run, struct pt_opcost *o);
/* The held-out checks (analysis/opcost_heldout.c). */
void pt_opcost_heldout(const struct pt_rundir *run, struct pt_opcost *o);

/* ops_model.csv (results/SCHEMA.md). */
int pt_opcost_write_csv(FILE *f, const struct pt_opcost *o);
/* ops_validation.csv: each check, its value, target and verdict. */
int pt_opcost_write_validation(FILE *f, const struct pt_opcost *o);
/*
 * Replace the run's d128_predicted_* rows in DIR/results.csv with these:
 * for every repetition of each predicted case, its D64 value times the
 * predicted ratio, and _lo/_hi. Atomic; 0 or -1 with err.
 */
int pt_opcost_merge_rows(const char *dir, const struct pt_opcost *o, char *err, size_t errlen);

#endif
