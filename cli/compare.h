/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptbench compare's outputs: one printer per --format, and the number
 * formats the table and the messages on stderr share.
 */
#ifndef PTBENCH_CLI_COMPARE_H
#define PTBENCH_CLI_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/compare_env.h"
#include "analysis/pool.h"
#include "analysis/rundir.h"

/*
 * Two runs: whether the round effect is taken out unless --round-effect
 * says (analysis/compare_rounds.h; results/gate-two-run-rounds-2026-12-07
 * has the measurement that chose it).
 */
#define CMP_TWO_RUN_ROUNDS_DEFAULT false

enum out_format { FMT_TEXT, FMT_MARKDOWN, FMT_CSV, FMT_JSON, FMT_JUNIT };

struct compare_args {
	const char *base, *cand;
	/* --baseline-db: NEW runs judged against a pool from the history */
	const char *pool_db, *pool_tag, *pool_suite;
	uint64_t pool_min;
	bool run_effect; /* --run-effect: take each run's common drift out (analysis/pool.h) */
	bool run_effect_given; /* the option was on the command line */
	bool split_effect; /* --run-effect split: its kernel and user parts (analysis/pool.h) */
	int factors; /* --factors: run factors taken out, -1 auto (analysis/pool_factors.h) */
	bool factors_given;
	bool round_effect; /* --round-effect: take each round's drift out first (analysis/pool_rounds.h) */
	bool round_effect_given;
	struct pt_trim trim; /* --trim: the run statistic (analysis/pool_rounds.h) */
	bool trim_given;
	enum pt_pool_serial_mode serial; /* --serial (analysis/pool_serial.h) */
	double serial_rho;
	bool serial_given;
	bool moderate; /* --spread moderated (analysis/pool_moderate.h) */
	bool spread_given;
	char **news;
	int nnew;
	const char *config_path, *out_path, *filter;
	enum out_format format;
	bool strict;
	bool test_given; /* --test: the two-run test, in opts.test */
	bool allow_incomplete; /* --allow-incomplete: compare a run that did not finish */
	struct pt_cmp_opts opts;
};

struct compare_ctx {
	struct compare_args *a;
	struct pt_rundir *base, *cand;
	size_t rounds_base, rounds_new; /* two runs: series whose round effect was taken out */
	struct pt_cmp_result *res;
	struct pt_cmp_env env;
};

/* compare --baseline-db: the pool test (compare_pool.c); the exit status. */
/* compare's options (compare_opts.c): 0 parsed, 1 --help given, or PT_EXIT_USAGE */
int cmp_parse_args(int argc, char **argv, struct compare_args *a);
int cmp_pool_main(struct compare_args *a);

/* -1, with a message, for a run whose meta.json says complete: false (no --allow-incomplete). */
int cmp_refuse_incomplete(const struct compare_args *a, const char *side,
			  const struct pt_rundir *r);
/* stderr: warnings, notes and the regressions by name (compare_verdict.c). */
void cmp_report_stderr(struct compare_ctx *x);
/* The exit status, saying on stderr why --strict fails. */
int cmp_exit_status(const struct compare_ctx *x);
/* --strict and something could not be judged. */
bool cmp_strict_fails(const struct compare_ctx *x);
/* The exit status, so the JSON can record it before the command ends. */
int cmp_exit_code(const struct compare_ctx *x);

/* One per enum out_format (compare_text.c, compare_data.c). */
void cmp_print_text(struct compare_ctx *x, FILE *f);
void cmp_print_markdown(struct compare_ctx *x, FILE *f);
void cmp_print_csv(struct compare_ctx *x, FILE *f);
void cmp_print_json(struct compare_ctx *x, FILE *f);
/* compare_junit.c: JUnit XML for CI servers, two runs and against a pool */
void cmp_print_junit(struct compare_ctx *x, FILE *f);
/* compare --baseline-db's JSON output (compare_pool_json.c) */
void cmp_pool_print_json(const struct compare_args *a, const struct pt_pool_result *r,
			 const struct pt_rundir *news, int nnew, FILE *f);
void cmp_pool_print_junit(const struct compare_args *a, const struct pt_pool_result *r,
			  const struct pt_rundir *news, int nnew, FILE *f);
/* -o FILE opened atomically, else stdout; NULL (message given) when it cannot be. */
FILE *cmp_out_open(const struct compare_args *a, char *tmp, size_t len);
/* Committed (or stdout flushed): 0, or the exit status of the failure. */
int cmp_out_close(const struct compare_args *a, FILE *f, const char *tmp);

/* compare_fmt.c: cells and lines every format shares */
/* Four significant digits, with an SI prefix for very large or small values. */
void cmp_fmt_num(double v, char *buf, size_t len);
void cmp_fmt_side(const struct pt_series *s, const struct pt_summary *sum, char *buf, size_t len);
void cmp_fmt_delta(double d, char *buf, size_t len);
void cmp_fmt_p(double p, char *buf, size_t len);
void cmp_fmt_n(const struct pt_cmp_row *w, char *buf, size_t len);
void cmp_row_label(const struct pt_series *s, char *buf, size_t len);
const char *cmp_better_text(enum pt_better b);
const char *cmp_or_unknown(const char *s);
void cmp_print_warning_block(struct compare_ctx *x, FILE *f, const char *prefix);
void cmp_print_meta_notes(struct compare_ctx *x, FILE *f, const char *prefix);
struct pt_json;
/* A series' identity in both JSON outputs: workload, case, params, metric, unit, better. */
void cmp_json_series_id(struct pt_json *j, const char *workload, const char *cs, const char *params,
			const char *metric, const char *unit, enum pt_better better);

#endif
