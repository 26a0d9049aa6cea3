/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptbench model walk, in one file per subcommand: the simulation
 * (cmd_walk.c, cmd_walk_sim.c, nested: cmd_walk_nested.c), convert
 * (cmd_walk_convert.c), calibrate (cmd_walk_calibrate.c, its report:
 * walk_calibrate_print.c, walk_calibrate_result.c) and combine
 * (cmd_walk_combine.c), sharing the option table and the
 * model-configuration options of cmd_walk_opts.c.
 */
#ifndef PTBENCH_CLI_CMD_WALK_H
#define PTBENCH_CLI_CMD_WALK_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/geometry.h"
#include "model/walk_cfg.h"
#include "model/walk_pattern.h"

#define CMD "model walk"
#define MAX_FORMATS 8
#define BENCH_REPS_DEFAULT 5
#define BENCH_REPS_MAX 1000

struct walk_format {
	char name[32];
	struct pt_geometry g;
};

struct walk_opts {
	struct pt_walk_cfg cfg;
	enum pt_pattern_kind pattern;
	bool have_pattern;
	uint64_t ws, stride, accesses, warmup, seed;
	bool accesses_set, warmup_set;
	const char *lackey, *trace, *out;
	struct walk_format fmt[MAX_FORMATS];
	size_t nfmt;
	unsigned block_h; /* 0, 1 (--thp), 2 (--pud) */
	bool bench;
	unsigned bench_reps; /* timed runs of the counted accesses */
	unsigned threads; /* --threads: 1, 2, or 0 auto (2 where the process may run on 2 CPUs) */
};

/* Every subcommand's options: one table, so each rejects the others' by name. */
enum {
	OPT_PATTERN = 256,
	OPT_WS,
	OPT_STRIDE,
	OPT_ACCESSES,
	OPT_WARMUP,
	OPT_SEED,
	OPT_LACKEY,
	OPT_TRACE,
	OPT_FORMATS,
	OPT_GRANULE,
	OPT_VA,
	OPT_THP,
	OPT_PUD,
	OPT_CONFIG,
	OPT_SET,
	OPT_BENCH,
	OPT_BENCH_REPS,
	OPT_RESULTS,
	OPT_HOST_CACHES,
	OPT_NO_HOST_CACHES,
	OPT_STAGE2,
	OPT_HOST_BACKING,
	OPT_IPA,
	OPT_STRUCTURES,
	OPT_STAT,
	OPT_DROP,
	OPT_THREADS,
};

extern const struct option walk_long_opts[];
/* The long name of option value c (OPT_... or a letter), for messages. */
const char *walk_opt_name(int c);

/* A decimal number, digits only. 0, or -1. */
int walk_parse_u64(const char *s, uint64_t *v);
/* Is c one of the options that shape the model configuration? */
bool walk_is_config_opt(int c);
/*
 * The message and exit status (2) for an option the subcommand sub
 * ("", "calibrate: ", ...) does not take, after getopt_long with a ':'
 * first in its option string returned c: a value missing (':'), an
 * option unknown ('?'), or one of the others' options, named as typed
 * (argv[optind - 1] is the value, not the option, after one that takes a value).
 */
int walk_opt_error(const char *sub, int c, char *const *argv);
/* Apply --config, --set, --granule, --va or a stage-2 option to o->cfg; 0 or PT_EXIT_USAGE. */
int walk_config_opt(int c, const char *arg, struct walk_opts *o);

/* Simulate what o asks (a pattern or a trace) and write the CSV; an exit code. */
int walk_simulate(const struct walk_opts *o);
/*
 * --stage2 d64|d128: the nested simulator (model/walk_nested.h), one per
 * guest format, over pattern p after warm accesses, counting n; its CSV
 * (cmd_walk_nested.c). An exit code.
 */
int walk_nested_run(const struct walk_opts *o, struct pt_pattern *p, uint64_t warm, uint64_t n);
int walk_convert(int argc, char **argv);
int walk_calibrate(int argc, char **argv);
struct pt_rundir;
struct pt_walkcalib;
/* calibrate's printed report of a finished calibration (walk_calibrate_print.c) */
void walk_calibrate_print(const struct pt_rundir *run, const struct pt_walkcalib *c, bool forced);
/* its chosen configuration, errors and D128 ranges (walk_calibrate_result.c) */
void walk_calibrate_print_result(const struct pt_walkcalib *c);
int walk_combine(int argc, char **argv);

#endif
