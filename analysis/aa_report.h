/* SPDX-License-Identifier: GPL-2.0-only */
/* ptbench calibrate's three outputs: calibrate.txt, calibrate.json, gate.conf. */
#ifndef PTBENCH_AA_REPORT_H
#define PTBENCH_AA_REPORT_H

#include <stdio.h>

#include "analysis/aa_calibrate.h"

/* What was calibrated, beside the figures in k. */
struct pt_aa_report {
	const struct pt_aa *k;
	const char *suite;
	const char *reps; /* NULL: the run's default */
	const char *runner;
	const char *config_path; /* the gate's --config, or NULL */
	const char *tool_version;
};

/* The summary people read (stdout and calibrate.txt). */
void pt_aa_write_text(const struct pt_aa_report *r, FILE *f);
/* Every figure, per series and per run (docs/compare.md). */
void pt_aa_write_json(const struct pt_aa_report *r, FILE *f);
/*
 * Config lines for compare --config: one per series whose floor is raised,
 * gate=off (with the spread seen) for those above the ceiling.
 */
void pt_aa_write_gate_conf(const struct pt_aa_report *r, FILE *f);

#endif
