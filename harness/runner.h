/* SPDX-License-Identifier: GPL-2.0-only */
/* Runs the cases of a run and records what happened to each. */
#ifndef PTBENCH_RUNNER_H
#define PTBENCH_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/case.h"
#include "harness/counters.h"
#include "harness/env.h"
#include "harness/cpupick.h"
#include "harness/pin.h"
#include "harness/profile.h"
#include "harness/sink.h"

enum pt_case_status { PT_CASE_OK, PT_CASE_FAILED, PT_CASE_SKIPPED };

struct pt_case_result {
	const struct pt_workload *w;
	struct pt_case c;
	enum pt_case_status status;
	int reps_ok;
	char notes[1024];
	/* the case's primary metric (pt_case_primary), for the summary */
	double primary[64];
	int primary_rep[64]; /* the repetition (= round, interleaved) of each */
	bool primary_seen; /* in the repetition under way */
	int current_rep;
	int nprimary;
	double steal_s; /* host steal time during the case, NaN unknown */
	double last_rep_s; /* how long its latest repetition took (the budget's estimate) */
	bool profiled; /* the sampled repetition's profile_* rows were written */
	int profile_rows; /* profile_* rows emitted in the repetition under way */
	struct pt_prof_top top[PT_PROF_TOP]; /* its most sampled kernel functions */
	size_t ntop;
	double stall_ns[PT_COMP_N]; /* its stalls, by the component where each ended */
	const char *note_prefix; /* put before the notes of the repetition under way */
	/* repetitions run again after a transient refusal (pt_rep_retry), and why */
	int retries;
	struct pt_retry_reason {
		char why[256];
		int count;
	} retry_reasons[4];
};

struct pt_run {
	/* options */
	const char *suite;
	const char *out_dir;
	const char *tag;
	int reps; /* lowered during the run where a budget asks */
	int warmup;
	int reps_planned; /* reps before the budget */
	double budget_s; /* the whole run's time (--budget), 0 none; interleaved runs only */
	double round_max_s; /* the longest round so far */
	double mem_frac;
	bool explicit_request;
	bool interleave; /* rounds of one repetition of every case */
	/* state */
	struct pt_counters *ctr;
	/* the sampling profiler; profiled repetitions run when it is usable */
	struct pt_profile *prof;
	struct pt_binding binding;
	struct pt_cpu_pick *pick; /* --cpu pick: the CPU chosen before each round; NULL fixed */
	struct pt_regime regime;
	struct pt_sink *sink;
	struct pt_case_result *results;
	size_t nresults;
	char run_id[40]; /* a UUID: the run's key in a history database */
	char started_utc[32];
	double started_mono_s; /* CLOCK_MONOTONIC at the start */
	double steal_start_s; /* host steal time at the start, NaN unknown */
	char command_line[1024];
	char page_reporting[128]; /* free page reporting during the run */
	char guest_warm[192]; /* --warm-guest: what was touched, or why not */
	/* errno of a failed write of results.csv or meta.json: the run stopped there */
	int write_err;
};

/* Run every case in run->results; returns the number that failed. */
int pt_run_cases(struct pt_run *run);
/* How many selected cases' workloads warm their own memory (pt_workload.self_warming). */
size_t pt_run_self_warming(const struct pt_run *run);
/*
 * After interleaved rounds: for each case whose workload names a control,
 * <primary>_norm = primary / control in the same round x the control's
 * median (runnorm.c).
 */
void pt_run_emit_norm(struct pt_run *run);
/*
 * Write out_dir/meta.json atomically. exit_status < 0: the run is still
 * going (complete: false, exit_status null). 0, or -1 with errno set.
 */
int pt_run_write_meta(const struct pt_run *run, int exit_status);
/*
 * The end of a round: the round's rows appended to results.csv and synced,
 * then meta.json rewritten, so a crash keeps every completed repetition and
 * says what was not finished. A failed write (ENOSPC) is reported with its
 * path and errno and stops the run (run->write_err). 0 or -1.
 */
int pt_run_checkpoint(struct pt_run *run);
/* A table of each case's primary metric on stdout. */
void pt_run_print_summary(const struct pt_run *run);
void pt_utc_now(char *buf, size_t len);
/* A new run id: the kernel's random UUID, else time, pid and a counter. */
void pt_run_new_id(char *buf, size_t len);

#endif
